"""Standings with tie-breaks (issue 21 "Running it").

Points: a win 1, a draw ½, a loss 0; a forfeit win 1 and a forfeit loss 0; a bye
``bye_points`` (Swiss: 1, round robin and league: 0, it is only a round off); a game with no
result, or still being played, counts nothing (a game still being played is a game left).

Tie-breaks, in this order after points (:func:`tie_breaks_for`):

* round robin, double round robin, league division: **Sonneborn-Berger**;
* Swiss: **Buchholz**, then **median Buchholz** (Buchholz Cut 1 as FIDE now calls it: without the
  lowest opponent's score);
* knockout: the **round reached** (see :func:`knockout_standings`);

then rating at seeding (higher first). Players still level on all of these share the
rank (``1, 2, 2, 4``) and are listed in seed order.

Definitions (FIDE's Tie-Break Regulations, C.07):

* **Sonneborn-Berger**: the sum, over games played over the board, of the opponent's
  points times the player's points from that game (a win adds the opponent's points, a
  draw half of them, a loss nothing). Simpler than FIDE on unplayed games: a forfeit, a bye
  or a no-result game adds nothing.
* **Buchholz**: the sum of the player's opponents' points. Unplayed rounds (a bye, a
  forfeit win or loss, a no-result game) count as a game against a *virtual opponent*
  whose points equal the player's own (FIDE's "dummy opponent" rule, simplified), and the
  opponents' points are taken as they stand.
* **Median Buchholz** (Buchholz Cut 1): Buchholz less the lowest single contribution.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from .base import Bye, Entrant, GameRecord, PlayerId, TournamentFormat, check_distinct
from .swiss import SWISS_BYE_POINTS


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
    return _TIE_BREAKS[fmt]


def bye_points_for(fmt: TournamentFormat) -> float:
    """Points a bye scores in a format: 1 in Swiss, 0 elsewhere."""
    return SWISS_BYE_POINTS if fmt is TournamentFormat.SWISS else 0.0


def standings(fmt: TournamentFormat, entrants: Sequence[Entrant], games: Sequence[GameRecord],
              byes: Sequence[Bye] = ()) -> Standings:
    """The standings of a round robin, Swiss or league division from its ``entrants`` (seed
    order; withdrawn players included, they keep their rows), every scheduled ``games``
    (pending ones with ``outcome=None`` count as games left) and ``byes``. For a knockout
    use :func:`knockout_standings`. Raises ``ValueError`` for a game or bye of a player not
    in ``entrants``, or ``fmt`` KNOCKOUT."""
    if fmt is TournamentFormat.KNOCKOUT:
        raise ValueError("knockout standings come from knockout_standings")
    order = {e.player: i for i, e in enumerate(entrants)}
    check_distinct(list(order))
    _check_known(order, games, byes)
    bye_points = bye_points_for(fmt)
    points, played, left = _tally(order, games)
    for bye in byes:
        points[bye.player] += bye_points
    breaks = tie_breaks_for(fmt)
    values = {p: tuple(_tie_break(b, p, points, games, byes) for b in breaks) for p in order}
    rating = {e.player: e.rating for e in entrants}
    return Standings(breaks, _ranked(
        order, lambda p: (points[p], values[p], rating[p]),
        lambda rank, p: StandingRow(rank, p, points[p], values[p], played[p], left[p])))


def _tally(order: Mapping[PlayerId, int], games: Sequence[GameRecord]
           ) -> tuple[dict[PlayerId, float], dict[PlayerId, int], dict[PlayerId, int]]:
    """Each player's game points, games with a result and games still to play."""
    points = dict.fromkeys(order, 0.0)
    played = dict.fromkeys(order, 0)
    left = dict.fromkeys(order, 0)
    for game in games:
        for player in (game.seat1, game.seat2):
            score = game.score(player)
            points[player] += score or 0.0
            played[player] += score is not None
            left[player] += game.outcome is None
    return points, played, left


def knockout_standings(entrants: Sequence[Entrant], games: Sequence[GameRecord],
                       eliminated: Mapping[PlayerId, int], rounds: int) -> Standings:
    """Knockout standings: ranked by the round reached (the winner, a player still in, is
    ``rounds + 1``; a player knocked out in round r reached r), then rating, then seed;
    players out in the same round share the rank. ``eliminated`` maps each knocked-out
    player to the round they lost; ``points`` are game points. Raises ``ValueError`` for an
    unknown player."""
    order = {e.player: i for i, e in enumerate(entrants)}
    check_distinct(list(order))
    _check_known(order, games, ())
    unknown = set(eliminated) - set(order)
    if unknown:
        raise ValueError(f"players not entered: {sorted(unknown)}")
    points, played, left = _tally(order, games)
    reached = {p: float(eliminated.get(p, rounds + 1)) for p in order}
    rating = {e.player: e.rating for e in entrants}
    return Standings((TieBreak.ROUND_REACHED,), _ranked(
        order, lambda p: (reached[p], (), rating[p]),
        lambda rank, p: StandingRow(rank, p, points[p], (reached[p],), played[p], left[p])))


_TIE_BREAKS = {
    TournamentFormat.ROUND_ROBIN: (TieBreak.SONNEBORN_BERGER,),
    TournamentFormat.DOUBLE_ROUND_ROBIN: (TieBreak.SONNEBORN_BERGER,),
    TournamentFormat.LEAGUE: (TieBreak.SONNEBORN_BERGER,),
    TournamentFormat.SWISS: (TieBreak.BUCHHOLZ, TieBreak.MEDIAN_BUCHHOLZ),
    TournamentFormat.KNOCKOUT: (TieBreak.ROUND_REACHED,),
}

_Key = tuple[float, tuple[float, ...], float]


def _ranked(order: Mapping[PlayerId, int], key: Callable[[PlayerId], _Key],
            row: Callable[[int, PlayerId], StandingRow]) -> tuple[StandingRow, ...]:
    """Rows sorted by ``key`` (higher first), then seed; a rank shared by equal keys."""
    players = sorted(order, key=lambda p: (_negated(key(p)), order[p]))
    rows: list[StandingRow] = []
    for i, player in enumerate(players):
        same = i > 0 and key(player) == key(players[i - 1])
        rows.append(row(rows[-1].rank if same else i + 1, player))
    return tuple(rows)


def _negated(key: _Key) -> tuple[float, tuple[float, ...], float]:
    return (-key[0], tuple(-v for v in key[1]), -key[2])


def _check_known(order: Mapping[PlayerId, int], games: Sequence[GameRecord],
                 byes: Sequence[Bye]) -> None:
    strangers = {p for g in games for p in (g.seat1, g.seat2)} | {b.player for b in byes}
    strangers -= set(order)
    if strangers:
        raise ValueError(f"players not entered: {sorted(strangers)}")


def _contributions(player: PlayerId, points: Mapping[PlayerId, float],
                   games: Sequence[GameRecord], byes: Sequence[Bye]) -> list[float]:
    """Buchholz's terms for ``player``: each finished game's opponent's points, and for each
    unplayed round (bye, forfeit either way, no result) the player's own points (FIDE's
    dummy opponent)."""
    terms = [points[player] for b in byes if b.player == player]
    for game in games:
        if player in (game.seat1, game.seat2) and game.outcome is not None:
            terms.append(points[game.opponent(player)] if game.played else points[player])
    return terms


def _tie_break(kind: TieBreak, player: PlayerId, points: Mapping[PlayerId, float],
               games: Sequence[GameRecord], byes: Sequence[Bye]) -> float:
    if kind is TieBreak.SONNEBORN_BERGER:
        return sum(points[g.opponent(player)] * (g.score(player) or 0.0)
                   for g in games if player in (g.seat1, g.seat2) and g.played)
    terms = _contributions(player, points, games, byes)
    if kind is TieBreak.BUCHHOLZ:
        return sum(terms)
    if kind is TieBreak.MEDIAN_BUCHHOLZ:
        return sum(terms) - min(terms) if terms else 0.0
    raise ValueError(f"{kind} is not a tie-break of these standings")
