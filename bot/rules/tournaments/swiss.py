"""Swiss pairing by maximum-weight matching (networkx's ``max_weight_matching``).

Rules (issue 21 "Formats"), in priority order:

1. **No rematch**: two players who met (any earlier game between them, whatever its
   outcome) are not paired again -- no edge between them in the graph. If no pairing
   without a rematch exists, :class:`~.base.NoLegalPairing` is raised (or, with
   ``allow_rematch=True``, rematches are allowed at a heavy cost, as a last resort).
2. **One bye** for an odd field, to the lowest-ranked player who has not had a bye yet
   (nor a forfeit win); a bye scores 1 point (:data:`SWISS_BYE_POINTS`).
3. **Score groups**: players are ranked by score, then rating (seed order); the matching
   maximises the number of pairs within one score group, then minimises how far apart the
   scores of mixed pairs are.
4. **Seats**: no player gets the same seat three times in a row when avoidable; then each
   player's preference (the seat they had fewer times; with equal counts, the other seat
   than last time) is met as often as possible. In a pair the seat goes to the player with
   the stronger preference; if both want the same seat with equal strength, the higher
   ranked player gets it.
5. Within a score group, the top half meets the bottom half (1 v n/2+1, ...) where the
   other rules leave a choice.

Round 1 pairs by seed: the top half against the bottom half, seeds 1, 3, 5... taking seat 1.

Performance: the graph only has edges between players whose ranks are within a window that
widens until a perfect matching exists; 256 players pair in well under a second
(``benchmarks/tournament.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from .base import Bye, Entrant, GameRecord, Round

SWISS_BYE_POINTS = 1.0
"""Points for a Swiss bye (FIDE's default for a pairing-allocated bye)."""


def pair_swiss(
    entrants: Sequence[Entrant],
    games: Sequence[GameRecord],
    byes: Sequence[Bye],
    round_number: int,
    *,
    allow_rematch: bool = False,
) -> Round:
    """Pair Swiss round ``round_number`` (1-based) of the ``entrants`` still playing (seed
    order; withdrawn players left out), given every earlier game (``games``, all finished:
    every ``outcome`` set, possibly ``NO_RESULT``) and ``byes``. Games and byes of players
    no longer entered still count for their opponents' history.

    Returns the :class:`~.base.Round`: pairings on boards ordered by the higher score (then
    rank) of each pair, and at most one bye. Raises ``ValueError`` for fewer than 2 entrants,
    a duplicate entrant, or a game of an earlier round still unfinished; raises
    :class:`~.base.NoLegalPairing` when no pairing without a rematch exists and
    ``allow_rematch`` is False.
    """
    raise NotImplementedError


def swiss_scores(
    entrants: Sequence[Entrant], games: Sequence[GameRecord], byes: Sequence[Bye]
) -> dict[int, float]:
    """Each entrant's Swiss score: 1 a win or forfeit win, ½ a draw, :data:`SWISS_BYE_POINTS`
    a bye, 0 otherwise (pending games and no-result games count nothing)."""
    raise NotImplementedError
