"""Tournaments and leagues (issue 21): what :class:`bot.manager.tournaments.TournamentsService`
returns -- a tournament, its entrants, the pairings of its rounds, its standings, what a
round start or an advance did, and the tournament posts waiting in its outbox.

Frozen dataclasses (see :mod:`bot.manager.values`); the bot only reads them. Times are UNIX
seconds; players are Discord user ids (the computer entrant is the bot's own user id, with
its level in :attr:`Entrant.computer_level`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .entities import Game

__all__ = [
    "ALL_AT_ONCE",
    "FORMATS",
    "POST_KINDS",
    "RESULTS",
    "TOURNAMENT_STATUSES",
    "Advanced",
    "Entrant",
    "RoundPairing",
    "RoundStarted",
    "StandingRow",
    "StandingsView",
    "Tournament",
    "TournamentGame",
    "TournamentInfo",
    "TournamentLabel",
    "TournamentPost",
    "Withdrawal",
]

#: The formats: a single round robin, a double one (each pair plays both seats), Swiss,
#: knockout, and a league season (a round robin per division, promotion and relegation).
FORMATS = ("round_robin", "double_round_robin", "swiss", "knockout", "league")
#: The formats whose whole schedule is known at the start, so every game of every round
#: starts at once (as correspondence events run them: Little Golem's leagues, Abstract Play's
#: round-robin divisions); Swiss and knockout rounds start one after another.
ALL_AT_ONCE = ("round_robin", "double_round_robin", "league")
#: A tournament's life: sign-up, running (``current_round`` > 0), finished or cancelled.
TOURNAMENT_STATUSES = ("signup", "running", "finished", "cancelled")
#: A pairing's result (``None`` while its game runs): seat 1 won, seat 2 won, a draw, a bye
#: (``seat1`` sits out; ``seat2`` is ``None``; it scores 1 in Swiss, 0 in a round robin, as
#: :func:`bot.rules.tournaments.bye_points_for` says), or ``"void"``: no result (a moderator
#: aborted the game; it counts nothing and is not replayed).
RESULTS = ("seat1", "seat2", "draw", "bye", "void")
#: Tournament posts (table ``tournament_posts``): ``"opened"`` (the sign-up announcement, with
#: the Join button), ``"round"`` (a round's pairings), ``"standings"`` (after a round),
#: ``"final"`` (the final standings and the winner; a league season's names who moves up and
#: down), ``"cancelled"``, ``"withdrawn"`` (a player withdrew or was removed while it ran;
#: ``user_id`` says who).
POST_KINDS = ("opened", "round", "standings", "final", "cancelled", "withdrawn")


@dataclass(frozen=True)
class Tournament:
    """A tournament as stored.

    ``name`` is unique (case-insensitively) among the server's live tournaments (sign-up or
    running). ``kind``/``options``/``clock`` are the games' terms, as a challenge has them
    (``clock``: :meth:`bot.rules.timecontrol.TimeControl.to_text`); ``rated``: its games change
    ratings. ``format`` is one of :data:`FORMATS`; ``rounds`` the Swiss rounds (``None``
    otherwise); ``games_per_match`` 1 or 2 (knockout); ``division_size`` and ``promote`` (k
    promoted and k relegated) for a league. ``min_players``..``max_players`` bound the field;
    ``starts_at``: the end of sign-up, when it starts by itself (``None``: the organiser
    starts it). ``days_per_move``: the clock's days a move for older readers. ``status`` one
    of :data:`TOURNAMENT_STATUSES`; ``current_round`` 0 before the start, then the round
    started last (formats :data:`ALL_AT_ONCE` start every round at once: then their last). A league's ``season`` counts from 1 and ``parent_id`` is the previous season's
    tournament (``None`` for the first). ``entrants``: players in the field now (active)."""

    id: int
    guild_id: int
    channel_id: int
    name: str
    organiser_id: int
    kind: str
    options: dict[str, Any]
    clock: str
    rated: bool
    format: str
    rounds: int | None
    games_per_match: int
    division_size: int
    promote: int
    min_players: int
    max_players: int
    starts_at: float | None
    status: str
    current_round: int
    season: int
    parent_id: int | None
    created_at: float
    entrants: int = 0
    days_per_move: int = 3

    @property
    def live(self) -> bool:
        """In sign-up or running."""
        return self.status in ("signup", "running")

    @property
    def all_at_once(self) -> bool:
        """Whether every game of every round starts at once (:data:`ALL_AT_ONCE`)."""
        return self.format in ALL_AT_ONCE


@dataclass(frozen=True)
class Entrant:
    """A player in a tournament: ``user_id`` (the bot's own id for the computer, playing at
    ``computer_level`` 1-5; ``None`` for a person), ``seed_rating`` (their rating in the
    tournament's game and server when the tournament started or they joined), ``status``
    ``"active"`` or ``"withdrawn"``, ``division`` (leagues: 1 is the top), ``joined_at``."""

    tournament_id: int
    user_id: int
    computer_level: int | None
    seed_rating: float
    status: str
    division: int | None
    joined_at: float


@dataclass(frozen=True)
class RoundPairing:
    """One board of one round: ``seat1`` moves first against ``seat2`` (``None``: a bye for
    ``seat1``). ``game_id`` is its game once started (a bye has none); ``result`` one of
    :data:`RESULTS` once known (``None`` while the game runs); ``forfeit``: decided without
    play (a withdrawal: the winner's seat is the result). ``division``: the league division
    it belongs to; ``game_no``: the game's number within a knockout match (1, 2, then
    tie-break games; 1 elsewhere)."""

    tournament_id: int
    round: int
    board: int
    seat1: int
    seat2: int | None
    game_id: int | None
    result: str | None
    forfeit: bool = False
    division: int | None = None
    game_no: int = 1


@dataclass(frozen=True)
class TournamentInfo:
    """A tournament with its entrants (``entrants``, in seeding order: the highest seed
    rating first) and the pairings of its current round (``pairings``; every round's for
    the formats :data:`ALL_AT_ONCE`; ``()`` before the start)."""

    tournament: Tournament
    entrants: tuple[Entrant, ...]
    pairings: tuple[RoundPairing, ...] = ()


@dataclass(frozen=True)
class StandingRow:
    """One line of standings: ``rank`` (shared when still tied), ``user_id`` (and
    ``computer_level`` for the computer), ``rating`` (seed rating), ``points``,
    ``tiebreaks`` ((name, value) pairs in the order they are applied; names are the values
    of :class:`bot.rules.tournaments.TieBreak`: ``"sonneborn_berger"``, ``"buchholz"``,
    ``"median_buchholz"``, ``"round_reached"``), ``played``
    and ``left`` (games), ``withdrawn``, ``division`` (leagues)."""

    rank: int
    user_id: int
    computer_level: int | None
    rating: float
    points: float
    tiebreaks: tuple[tuple[str, float], ...]
    played: int
    left: int
    withdrawn: bool = False
    division: int | None = None


@dataclass(frozen=True)
class StandingsView:
    """The standings of ``tournament`` after its decided games (``rows``, best first; a
    league's rows division by division, each ranked within its division). Once finished:
    ``winners`` (the first-ranked player(s) -- of each division in a league), and for a
    league ``promoted`` / ``relegated`` (user ids moving up / down for the next season)."""

    tournament: Tournament
    rows: tuple[StandingRow, ...]
    finished: bool = False
    winners: tuple[int, ...] = ()
    promoted: tuple[int, ...] = ()
    relegated: tuple[int, ...] = ()


@dataclass(frozen=True)
class TournamentGame:
    """A pairing of a player's with its game (``None``: a bye, or not started)."""

    pairing: RoundPairing
    game: Game | None


@dataclass(frozen=True)
class TournamentLabel:
    """What a tournament game's thread name says of its tournament: ``name``, ``round``
    (and ``season`` for a league, ``None`` otherwise)."""

    tournament_id: int
    name: str
    round: int
    season: int | None = None


@dataclass(frozen=True)
class RoundStarted:
    """A round paired and its games started, in one transaction: the ``tournament`` as now
    stored, the ``round``, its ``pairings`` (byes included) and the ``games`` started (their
    first boards and your-turn DMs queued in the outbox), and the id of its ``"round"``
    post. When several rounds started at once (a round robin's, :data:`ALL_AT_ONCE`):
    ``round`` is the first of them and ``last_round`` the last, ``pairings`` and ``games``
    those of every round started, ``post_id`` the first round's post; ``last_round`` is
    ``None`` for a single round."""

    tournament: Tournament
    round: int
    pairings: tuple[RoundPairing, ...]
    games: tuple[Game, ...]
    post_id: int
    last_round: int | None = None


@dataclass(frozen=True)
class Advanced:
    """What one :meth:`~bot.manager.tournaments.TournamentsService.advance` step did to one
    tournament: ``started`` (a round paired and started, or ``None``), ``finished`` (it
    ended now, its final standings posted), ``cancelled`` (its sign-up ended with too few
    players), ``next_season`` (a league's next season, started by itself)."""

    tournament: Tournament
    started: RoundStarted | None = None
    finished: bool = False
    cancelled: bool = False
    next_season: Tournament | None = None


@dataclass(frozen=True)
class Withdrawal:
    """A player withdrawn (by themselves or removed by the organiser) from a running
    tournament: ``forfeited`` games (their running game, lost by forfeit) and the ``tournament``
    as now stored. Finished games stand."""

    tournament: Tournament
    user_id: int
    forfeited: tuple[Game, ...] = ()


@dataclass(frozen=True)
class TournamentPost:
    """A tournament post waiting in its outbox (table ``tournament_posts``), written in the
    transaction of the change it announces; delivered at least once, like an
    :class:`~bot.manager.values.Announcement`.

    ``kind`` one of :data:`POST_KINDS`; ``tournament`` as it is now; ``round`` the round it
    is about (0 for sign-up); ``user_id`` who withdrew (``"withdrawn"``) else ``None``;
    ``pairings`` (a ``"round"`` post: that round's boards), ``standings`` (``"standings"``,
    ``"final"``); ``next_season``: for a league's ``"final"``, the season started after it.
    ``recheck``: it may have been posted already (claimed before, a failed post, or old):
    look for it before posting. ``announcement_id``: on the posts that end sign-up (round
    1's ``"round"`` post, a ``"cancelled"`` post before the start), the message of the
    tournament's announcement (its ``"opened"`` post, once delivered) whose Join button
    goes now; ``None`` otherwise."""

    id: int
    kind: str
    tournament: Tournament
    round: int
    created_at: float
    attempts: int
    user_id: int | None = None
    pairings: tuple[RoundPairing, ...] = ()
    standings: StandingsView | None = None
    next_season: Tournament | None = None
    recheck: bool = False
    games: tuple[Game, ...] = field(default=(), repr=False)
    announcement_id: int | None = None
