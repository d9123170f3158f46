"""Standings with tie-breaks (issue 21 "Running it").

Points: a win 1, a draw ½, a loss 0; a forfeit win 1 and a forfeit loss 0; a bye
``bye_points`` (Swiss: 1, round robin and league: 0, it is only a round off); a game with no
result, or still being played, counts nothing (a game still being played is a game left).

Tie-breaks, in this order after points (:func:`tie_breaks_for`):

* round robin, double round robin, league division: **Sonneborn-Berger**;
* Swiss: **Buchholz**, then **median Buchholz** (Buchholz Cut 1 as FIDE now calls it: without the
  lowest opponent's score);
* knockout: the **round reached** (see :func:`knockout_standings`);

then rating at seeding (higher first), then seed order. Players still level on every
tie-break share the rank (``1, 2, 2, 4``).

Definitions (FIDE's Tie-Break Regulations, C.07):

* **Sonneborn-Berger**: the sum, over played games, of the opponent's points times the
  player's points from that game (the opponent's final points; a win adds the opponent's
  points, a draw half of them).
* **Buchholz**: the sum of the player's opponents' points. Unplayed rounds (a bye, a
  forfeit win or loss, a no-result game) count as a game against a *virtual opponent*
  whose points equal the player's own (FIDE's "dummy opponent" rule, simplified), and the
  opponents' points are taken as they stand.
* **Median Buchholz** (Buchholz Cut 1): Buchholz less the lowest single contribution.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .base import Bye, Entrant, GameRecord, PlayerId, TournamentFormat


class TieBreak(enum.Enum):
    """The tie-breaks a standings row carries (values: the store's and texts' keys)."""

    SONNEBORN_BERGER = "sonneborn_berger"
    BUCHHOLZ = "buchholz"
    MEDIAN_BUCHHOLZ = "median_buchholz"
    ROUND_REACHED = "round_reached"


@dataclass(frozen=True)
class StandingRow:
    """One row: ``rank`` (1-based, shared when level on every key), ``player``, ``points``,
    ``tie_breaks`` (values in the order of the table's :attr:`Standings.tie_breaks`),
    ``played`` (games with a result: played, forfeited, but not byes or no-result games)
    and ``left`` (games scheduled and not finished)."""

    rank: int
    player: PlayerId
    points: float
    tie_breaks: tuple[float, ...]
    played: int
    left: int


@dataclass(frozen=True)
class Standings:
    """A standings table: ``tie_breaks`` names the columns of each row's ``tie_breaks``;
    ``rows`` best first."""

    tie_breaks: tuple[TieBreak, ...]
    rows: tuple[StandingRow, ...]


def tie_breaks_for(fmt: TournamentFormat) -> tuple[TieBreak, ...]:
    """The documented tie-break order of a format (see the module docstring)."""
    raise NotImplementedError


def bye_points_for(fmt: TournamentFormat) -> float:
    """Points a bye scores in a format: 1 in Swiss, 0 elsewhere."""
    raise NotImplementedError


def standings(fmt: TournamentFormat, entrants: Sequence[Entrant], games: Sequence[GameRecord],
              byes: Sequence[Bye] = ()) -> Standings:
    """The standings of a round robin, Swiss or league division from its ``entrants`` (seed
    order; withdrawn players included, they keep their rows), every scheduled ``games``
    (pending ones with ``outcome=None`` count as games left) and ``byes``. For a knockout
    use :func:`knockout_standings`. Raises ``ValueError`` for a game or bye of a player not
    in ``entrants``, or ``fmt`` KNOCKOUT."""
    raise NotImplementedError


def knockout_standings(entrants: Sequence[Entrant], games: Sequence[GameRecord],
                       eliminated: Mapping[PlayerId, int], rounds: int) -> Standings:
    """Knockout standings: ranked by the round reached (the winner, a player still in, is
    ``rounds + 1``; a player knocked out in round r reached r), then rating, then seed;
    players out in the same round share the rank. ``eliminated`` maps each knocked-out
    player to the round they lost; ``points`` are game points. Raises ``ValueError`` for an
    unknown player."""
    raise NotImplementedError
