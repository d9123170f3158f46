"""The shared vocabulary of tournaments: entrants, outcomes, pairings, rounds, game records.

Player keys are ``int`` (Discord user ids; a computer entrant is an ``int`` id the service
gives it). Seat 1 moves first (RULES.md "Seats"); "colour balance" means seat balance.
Everything here is a frozen dataclass or an enum: plain data the service stores and reads
back.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

PlayerId = int


class TournamentFormat(enum.Enum):
    """The formats of issue 21 (values are the store's spelling)."""

    ROUND_ROBIN = "round_robin"
    DOUBLE_ROUND_ROBIN = "double_round_robin"
    SWISS = "swiss"
    KNOCKOUT = "knockout"
    LEAGUE = "league"  # one round robin per division per season


class Outcome(enum.Enum):
    """How one tournament game counts (the service maps a game's ending onto these).

    * ``SEAT1_WIN`` / ``SEAT2_WIN`` -- a game won over the board: by the rules, by
      resignation, or on time; the winner scores 1, the loser 0.
    * ``DRAW`` -- ½ each (only Io on even boards can draw).
    * ``SEAT1_FORFEIT`` / ``SEAT2_FORFEIT`` -- that seat forfeits an unplayed game (withdrew,
      removed): the opponent scores 1 and the forfeiter 0, but the game counts as *unplayed*
      for tie-breaks (FIDE's rules on unplayed games, see :mod:`.standings`).
    * ``NO_RESULT`` -- the game counts nothing for either player (a moderator's abort); it
      still counts as a meeting of the two for Swiss's no-rematch rule.

    A game still in progress has no outcome (``GameRecord.outcome is None``).
    """

    SEAT1_WIN = "seat1_win"
    SEAT2_WIN = "seat2_win"
    DRAW = "draw"
    SEAT1_FORFEIT = "seat1_forfeit"
    SEAT2_FORFEIT = "seat2_forfeit"
    NO_RESULT = "no_result"


@dataclass(frozen=True)
class Entrant:
    """One player of a tournament: ``player`` (user id, or the computer entrant's id) and
    ``rating`` (Glicko-2 rating at seeding time, e.g. 1500.0). Functions take entrants as a
    sequence **in seed order** (seed 1 first): the service sorts them by rating, highest
    first, ties by join order (:func:`seed_order` does it). Seed order lists the rows
    of a standings table that share a rank."""

    player: PlayerId
    rating: float


@dataclass(frozen=True)
class Pairing:
    """One game to play: ``seat1`` moves first, ``seat2`` second (two distinct players)."""

    seat1: PlayerId
    seat2: PlayerId

    def __post_init__(self) -> None:
        if self.seat1 == self.seat2:
            raise ValueError(f"a player cannot meet themselves ({self.seat1})")

    @property
    def players(self) -> frozenset[PlayerId]:
        """Both players, in no order."""
        return frozenset((self.seat1, self.seat2))


@dataclass(frozen=True)
class Round:
    """One round: ``number`` (1-based), its games as ``pairings`` (in board order: board 1
    first, the strongest pair first where the format ranks them) and the players who sit it
    out with a ``byes`` (round robin and Swiss: at most one; knockout: the top seeds without an
    opponent in round 1). No player appears twice in a round."""

    number: int
    pairings: tuple[Pairing, ...]
    byes: tuple[PlayerId, ...] = ()

    def __post_init__(self) -> None:
        seen = [p for pairing in self.pairings for p in (pairing.seat1, pairing.seat2)]
        seen += list(self.byes)
        if len(seen) != len(set(seen)):
            raise ValueError(f"round {self.number}: a player appears twice")

    @property
    def players(self) -> frozenset[PlayerId]:
        """Everyone in the round: paired or given a bye."""
        return frozenset(p for pairing in self.pairings for p in pairing.players) | set(self.byes)


@dataclass(frozen=True)
class GameRecord:
    """One tournament game as the standings and pairing rules read it: its ``round``
    (1-based), who sat where, and its ``outcome`` (``None`` while it is still being played:
    it counts as a game left)."""

    round: int
    seat1: PlayerId
    seat2: PlayerId
    outcome: Outcome | None = None

    def score(self, player: PlayerId) -> float | None:
        """``player``'s points from this game: 1, ½ or 0, ``None`` if it is unfinished or has
        no result. Raises ``ValueError`` if ``player`` did not take part."""
        seat = self._seat(player)
        if self.outcome is None or self.outcome is Outcome.NO_RESULT:
            return None
        if self.outcome is Outcome.DRAW:
            return 0.5
        won = {Outcome.SEAT1_WIN: 1, Outcome.SEAT2_FORFEIT: 1,
               Outcome.SEAT2_WIN: 2, Outcome.SEAT1_FORFEIT: 2}[self.outcome]
        return 1.0 if won == seat else 0.0

    def opponent(self, player: PlayerId) -> PlayerId:
        """The other player. Raises ``ValueError`` if ``player`` did not take part."""
        return self.seat2 if self._seat(player) == 1 else self.seat1

    def seat_of(self, player: PlayerId) -> int:
        """``player``'s seat, 1 or 2. Raises ``ValueError`` if ``player`` did not take part."""
        return self._seat(player)

    def _seat(self, player: PlayerId) -> int:
        if player == self.seat1:
            return 1
        if player == self.seat2:
            return 2
        raise ValueError(f"player {player} did not play in this game")

    @property
    def played(self) -> bool:
        """True when the game was played to a result over the board (a win or a draw): not
        pending, not forfeited, not without result."""
        return self.outcome in (Outcome.SEAT1_WIN, Outcome.SEAT2_WIN, Outcome.DRAW)

    @property
    def forfeit(self) -> bool:
        """True when one seat forfeited it (an unplayed game with a result)."""
        return self.outcome in (Outcome.SEAT1_FORFEIT, Outcome.SEAT2_FORFEIT)


@dataclass(frozen=True)
class Bye:
    """``player`` sat out round ``round`` with a pairing-allocated bye (odd field)."""

    round: int
    player: PlayerId


class NoLegalPairing(ValueError):
    """No pairing of the round keeps the hard rules (Swiss: no rematch). Carries the
    ``round`` number. The documented answer (issue 21): the tournament ends after the last
    complete round; the service may instead call again with ``allow_rematch=True`` as a last
    resort."""

    def __init__(self, round_number: int, reason: str) -> None:
        super().__init__(f"round {round_number}: {reason}")
        self.round = round_number


def seed_order(entrants: Sequence[Entrant]) -> tuple[Entrant, ...]:
    """The entrants in seed order: highest rating first, ties kept in the given (join)
    order. Raises ``ValueError`` if a player appears twice."""
    check_distinct([e.player for e in entrants])
    return tuple(sorted(entrants, key=lambda e: -e.rating))


def check_distinct(players: Sequence[PlayerId], least: int = 0) -> None:
    """Raise ``ValueError`` if a player appears twice in ``players`` or there are fewer than
    ``least`` of them."""
    if len(set(players)) != len(players):
        twice = sorted({p for p in players if list(players).count(p) > 1})
        raise ValueError(f"players appear twice: {twice}")
    if len(players) < least:
        raise ValueError(f"at least {least} players are needed, not {len(players)}")
