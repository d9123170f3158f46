"""The analysis board's rule against help during a running game (issue 23), by content.

The engine must never help a game in progress: no Engine on a position that equals a running
game's current position *or may still arise from it*. Game ids are not enough (a position can
be pasted as text, or played out on a new board), so positions are compared by what is on
the board. Deciding exactly which positions a game can still reach is a search; the rule
below is a **necessary condition** of reachability, so it blocks every position that can
arise from a running game (sound) and, at worst, some that cannot:

``position`` may follow ``running`` when both are of the same game with the same options
and the stones of ``running`` are still there in ``position`` (RULES.md, per game):

* Coil, Brain Coral, Whirlwind -- stones are only ever added, never moved, removed or
  recoloured: every stone of ``running`` must stand on the same cell, same colour;
* Io -- captures turn stones over but never empty a cell: every cell occupied in ``running``
  must be occupied (either colour);
* Branching Coral -- captures remove stones of either colour, so any cell may be empty again
  and no stone of ``running`` is sure to stay: every position of the same board and options
  may follow (blocked while such a game runs).

The move counter, last move and side to move written in a position text are not used: a
pasted text can say anything there. The ply and side to move only matter for equality,
which the rule covers (an equal position keeps every stone).
"""

from __future__ import annotations

import engine

__all__ = ["line_markers", "may_follow"]


def may_follow(position: engine.Position, running: engine.Position) -> bool:
    """Whether ``position`` equals or may arise from ``running`` (a running game's current
    position), by the module's content rule: True blocks the Engine on ``position``. Never
    raises."""
    if position.kind != running.kind or position.options != running.options:
        return False
    if running.kind == "branchingcoral":
        return True
    mine, theirs = position.stones, running.stones
    if running.kind == "io":
        return all(cell in mine for cell in theirs)
    return all(mine.get(cell) == colour for cell, colour in theirs.items())


def line_markers(position: engine.Position, line: list[str] | tuple[str, ...]
                 ) -> list[tuple[int, str, str]]:
    """The numbered markers of ``line`` (whole moves, as the search gives them) played from
    ``position``: ``(number, cell label, colour)`` for each stone each move places, numbered
    from 1 by move (a two-stone move gives two markers of one number), the colour that of the
    stone on the cell right after the move. Stops at the first move that does not play (a
    line is the search's guess; it is never trusted blindly); passes mark nothing."""
    out: list[tuple[int, str, str]] = []
    pos = position
    for number, move in enumerate(line, 1):
        try:
            after = pos.play(move)
        except engine.EngineError:
            break
        for label in (after.last_move or "").split():
            try:
                colour = after.stones.get(after.board.cell(label))
            except engine.EngineError:
                continue
            if colour is not None:
                out.append((number, label, colour))
        pos = after
    return out
