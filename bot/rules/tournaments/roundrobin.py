"""Round robins, single and double, by Berger tables (the circle method).

Rules (issue 21 "Formats"):

* ``n`` players in seed order; an odd field gets a phantom player: whoever is paired with
  it has the round's bye (counts nothing, see :mod:`.standings`). A single round robin has
  ``n - 1`` rounds (``n`` for odd ``n``), every pair meets exactly once.
* Seats follow FIDE's Berger tables: every player's seat-1 and seat-2 counts differ by at
  most one (a player with a bye in an odd field: likewise over the games they play).
* A double round robin repeats the single one with every game's seats swapped, so every
  pair meets twice, once in each seat.
"""

from __future__ import annotations

from collections.abc import Sequence

from .base import PlayerId, Round


def round_robin(players: Sequence[PlayerId], *, double: bool = False) -> tuple[Round, ...]:
    """Every round of a round robin of ``players`` (seed order, at least 2, distinct):
    ``n - 1`` rounds for even ``n``, ``n`` for odd (each with one bye), twice as many when
    ``double``. Pairings within a round are in board order (Berger's table order).
    Raises ``ValueError`` for fewer than 2 players or a player given twice."""
    raise NotImplementedError


def round_count(player_count: int, *, double: bool = False) -> int:
    """How many rounds :func:`round_robin` makes for ``player_count`` players."""
    raise NotImplementedError
