"""Knockout brackets: seeding, byes, matches of 1 or 2 games, tie-breaks, advancement.

Rules (issue 21 "Formats"):

* **Bracket**: the field (seed order, seed 1 the highest rated) is placed in a bracket of
  size ``B``, the next power of two, in the standard order (1 v B, 2 v B-1, ... placed so
  that seeds 1 and 2 can meet only in the final, 1-4 only in the semi-finals, ...). The
  ``B - n`` missing seeds are byes: the top seeds advance from round 1 without playing.
* **A match** has 1 or 2 games. In game 1 the higher seed (lower seed number; in later rounds
  the better seed of the two) takes seat 1; in game 2 the seats are swapped. The match
  score is the sum of game points (forfeits count as wins; a no-result game counts nothing).
* **Tie-break**: a level match (including a single drawn or no-result game) gets **one
  extra game** with the seats reversed from the match's last game. The player who wins it
  advances; if it is level too (a draw or no result), the higher seed advances.
* **Advancement**: the winners of matches ``2i`` and ``2i + 1`` of a round meet in match
  ``i`` of the next round, until one player is left.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from .base import GameRecord, Pairing, PlayerId


@dataclass(frozen=True)
class Match:
    """One knockout match: ``round`` (1-based), ``slot`` (0-based position in that round's
    bracket, top to bottom), ``high`` (the better seed of the two) and ``low`` (``None``:
    ``high`` has a bye and advances without playing)."""

    round: int
    slot: int
    high: PlayerId
    low: PlayerId | None


class MatchStatus(enum.Enum):
    """Where a match stands (see :class:`MatchState`)."""

    PLAYING = "playing"  # a scheduled game is not finished yet
    NEEDS_GAME = "needs_game"  # the next game (regular or tie-break) is to be started
    DECIDED = "decided"  # ``winner`` advances


@dataclass(frozen=True)
class MatchState:
    """A match's state after its games: ``status``; ``winner`` when decided; ``next_game``,
    the pairing of the game to start when ``NEEDS_GAME``; ``score``: (high's points, low's
    points) over all its games so far."""

    status: MatchStatus
    winner: PlayerId | None
    next_game: Pairing | None
    score: tuple[float, float]


def first_round(seeds: Sequence[PlayerId]) -> tuple[Match, ...]:
    """Round 1 of a knockout of ``seeds`` (seed order, at least 2, distinct): ``B / 2``
    matches for a bracket of ``B`` (the next power of two), the top ``B - n`` seeds with a bye
    (``low is None``). Raises ``ValueError`` for fewer than 2 players or a duplicate."""
    raise NotImplementedError


def bracket_order(size: int) -> tuple[int, ...]:
    """The standard seed order of a bracket of ``size`` (a power of two, at least 2) slots:
    ``(1, 8, 4, 5, 2, 7, 3, 6)`` for 8 -- consecutive pairs meet in round 1, and seeds 1 and 2
    are in opposite halves. Raises ``ValueError`` if ``size`` is not a power of two >= 2."""
    raise NotImplementedError


def match_state(match: Match, games: Sequence[GameRecord], games_per_match: int) -> MatchState:
    """The state of ``match`` given its ``games`` so far (those between its two players in its
    round, in the order they were started). ``games_per_match`` is 1 or 2. A bye is decided
    at once for ``high``. Raises ``ValueError`` for a bad ``games_per_match`` or a game of
    other players."""
    raise NotImplementedError


def next_round(matches: Sequence[Match], winners: Sequence[PlayerId],
               seeds: Sequence[PlayerId]) -> tuple[Match, ...]:
    """The next round's matches from a round's ``matches`` (all of one round, in slot order)
    and their ``winners`` (same order). ``seeds`` (seed order) decides who is ``high``.
    Raises ``ValueError`` if the round had a single match (it was the final), a winner is
    not one of its match's players, or the counts differ."""
    raise NotImplementedError


def round_count(player_count: int) -> int:
    """Rounds of a knockout of ``player_count`` players (>= 2): log2 of the bracket size."""
    raise NotImplementedError
