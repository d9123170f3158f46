"""Tree reuse (issue 24): in a tree kept from a side's previous move, the node of the position
the game has reached since -- the kept node itself, or one turn of the opponent's below it.
Shared by :class:`ai.SearchTree` (our search) and :class:`ai.grave.GraveAgent` (Ludii's
MC-GRAVE recipe keeps its tree the same way). Imports ``engine`` only."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, Self, TypeVar

from engine import Position, SearchState

__all__ = ["TreeNode", "follows", "turn_below"]


class TreeNode(Protocol):
    """What tree reuse reads of a node: the half-move ``action`` that led to it, its visits
    ``n`` and its ``children`` (None or empty where it was not expanded)."""

    @property
    def action(self) -> int: ...

    @property
    def n(self) -> int: ...

    @property
    def children(self) -> Sequence[Self] | None: ...


N = TypeVar("N", bound=TreeNode)


def follows(after: Position, position: Position) -> bool:
    """True when ``position`` is ``after`` with one more whole turn played (its
    ``last_move``): the opponent's answer to the move that left ``after``."""
    last = position.last_move
    if last is None or position.ply != after.ply + 1 or after.outcome is not None:
        return False
    try:
        return after.play(last) == position
    except ValueError:
        return False


def turn_below(node: N, state: SearchState, move: str) -> tuple[N, SearchState] | None:
    """The node one whole turn ``move`` (text) below ``node``, whose position is ``state``,
    with the state there; None when the tree does not hold it. A turn is one half-move, or
    two of one seat (Whirlwind's pair, which the tree may hold in both orders: then the more
    visited)."""
    want = sorted(move.split())
    seat = state.to_move
    found: list[tuple[N, SearchState]] = []
    for c in node.children or []:
        s = state.copy()
        s.play(c.action)
        if s.winner is not None or not s.mid_turn or s.to_move != seat:
            if sorted(state.move_text([c.action]).split()) == want:
                found.append((c, s))
            continue
        for d in c.children or []:
            if sorted(state.move_text([c.action, d.action]).split()) == want:
                s2 = s.copy()
                s2.play(d.action)
                found.append((d, s2))
    return max(found, key=lambda x: x[0].n) if found else None
