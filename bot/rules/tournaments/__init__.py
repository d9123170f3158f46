"""Pure rules of tournaments (issue 21): pairing, advancement, league seasons, standings.

No I/O, no database, no Discord; of ``bot`` it imports only ``bot.rules.tournaments``
itself. Player keys are ``int`` (Discord user ids; a computer entrant is an ``int`` id the
service gives it). Seat 1 moves first (RULES.md "Seats").

* :mod:`bot.rules.tournaments.base` -- the vocabulary: :class:`Entrant`, :class:`Outcome`,
  :class:`Pairing`, :class:`Round`, :class:`GameRecord`, :class:`Bye`,
  :class:`TournamentFormat`, :class:`NoLegalPairing`;
* :mod:`bot.rules.tournaments.roundrobin` -- single and double round robins (Berger tables);
* :mod:`bot.rules.tournaments.swiss` -- Swiss pairing by maximum-weight matching (networkx);
* :mod:`bot.rules.tournaments.knockout` -- brackets, matches, tie-break games, advancement;
* :mod:`bot.rules.tournaments.league` -- league divisions, promotion and relegation;
* :mod:`bot.rules.tournaments.standings` -- points, tie-breaks and ranks.

The rules (each module's docstring gives them in full; the README quotes this summary):

**Round robin.** Every pair meets once (double: twice, once in each seat), by FIDE's Berger
tables: seats balanced (each player's seat-1 and seat-2 games differ by at most one). An odd
field gives one player a bye each round; a round-robin bye scores nothing.

**Swiss.** Each round is paired by maximum-weight matching (networkx's
``max_weight_matching``) over the players still in, ranked by score then seed. In priority
order: never a rematch; at most one bye, to the lowest-ranked player who has had none (nor a
forfeit win), scoring 1 point; no one gets the same seat three times in a row where
avoidable; players meet their own score group whenever possible; seats follow each
player's balance, then alternation; within a score group the top half meets the bottom
half. When no pairing without a rematch exists (a small field's late rounds),
:class:`NoLegalPairing` is raised and the tournament ends after the last complete round (the
service may instead allow rematches as a last resort).

**Knockout.** Seeded by rating in the standard bracket (seeds 1 and 2 can meet only in the
final); byes to the top seeds when the field is not a power of two; matches of 1 or 2 games
(2: each player once in seat 1). A level match gets one extra game with seats reversed; if
that is level too, the higher seed advances.

**League.** Divisions of up to N players (default 8), strongest first; a season is one round
robin per division. At its end the top k (default 2, fewer for small divisions) of each
division go up and the bottom k go down; players who left are dropped and the gaps filled
from below; newcomers enter the lowest division (a new one when it is full).

**Standings.** Win 1, draw ½, loss 0, forfeit win 1, forfeit loss 0, bye 1 in Swiss and 0
elsewhere, no result or unfinished 0. Ties broken by Sonneborn-Berger (round robins and
leagues) or Buchholz then median Buchholz (Swiss), then rating at seeding; still level: a
shared rank, listed in seed order. Knockouts rank by the round reached.

Names exported here are the package's public API (the service and the front use only
these).
"""

from .base import (
    Bye,
    Entrant,
    GameRecord,
    NoLegalPairing,
    Outcome,
    Pairing,
    PlayerId,
    Round,
    TournamentFormat,
    seed_order,
)
from .knockout import (
    Match,
    MatchState,
    MatchStatus,
    bracket_order,
    first_round,
    match_state,
    next_round,
)
from .knockout import round_count as knockout_round_count
from .league import (
    DEFAULT_DIVISION_SIZE,
    DEFAULT_MOVERS,
    MIN_DIVISION,
    LeagueRules,
    SeasonChange,
    first_season,
    movers_between,
    next_season,
)
from .roundrobin import round_count as round_robin_round_count
from .roundrobin import round_robin
from .standings import (
    StandingRow,
    Standings,
    TieBreak,
    bye_points_for,
    knockout_standings,
    standings,
    tie_breaks_for,
)
from .swiss import SWISS_BYE_POINTS, pair_swiss, swiss_scores

__all__ = [
    "DEFAULT_DIVISION_SIZE",
    "DEFAULT_MOVERS",
    "MIN_DIVISION",
    "SWISS_BYE_POINTS",
    "Bye",
    "Entrant",
    "GameRecord",
    "LeagueRules",
    "Match",
    "MatchState",
    "MatchStatus",
    "NoLegalPairing",
    "Outcome",
    "Pairing",
    "PlayerId",
    "Round",
    "SeasonChange",
    "StandingRow",
    "Standings",
    "TieBreak",
    "TournamentFormat",
    "bracket_order",
    "bye_points_for",
    "first_round",
    "first_season",
    "knockout_round_count",
    "knockout_standings",
    "match_state",
    "movers_between",
    "next_round",
    "next_season",
    "pair_swiss",
    "round_robin",
    "round_robin_round_count",
    "seed_order",
    "standings",
    "swiss_scores",
    "tie_breaks_for",
]
