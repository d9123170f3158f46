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

__all__ = ["line_markers", "line_steps", "may_follow"]


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


def line_steps(position: engine.Position, line: list[str] | tuple[str, ...]
               ) -> list[tuple[int | None, str]]:
    """The moves of ``line`` (whole moves, as the search gives them) that play from
    ``position``, each with its number on the board: ``(number, move)``, numbered from 1 by
    the moves that place a stone; a move that places none (a pass) gets ``None``, so the text
    and the picture number the same moves (a pass has no cell to mark). Stops at the first
    move that does not play (a line is the search's guess; it is never trusted blindly)."""
    out: list[tuple[int | None, str]] = []
    pos, number = position, 0
    for move in line:
        try:
            after = pos.play(move)
        except engine.EngineError:
            break
        placed = after.last_move is not None and any(
            _stone_at(after, label) is not None for label in after.last_move.split())
        if placed:
            number += 1
        out.append((number if placed else None, move))
        pos = after
    return out


def line_markers(position: engine.Position, line: list[str] | tuple[str, ...]
                 ) -> list[tuple[int, str, str]]:
    """The numbered markers of ``line`` played from ``position``: ``(number, cell label,
    colour)`` for each stone each move places, numbered as :func:`line_steps` numbers the
    moves (a two-stone move gives two markers of one number; a pass marks nothing and takes
    no number), the colour that of the stone on the cell right after the move."""
    out: list[tuple[int, str, str]] = []
    pos = position
    for number, move in line_steps(position, line):
        after = pos.play(move)  # line_steps played it
        if number is not None:
            for label in (after.last_move or "").split():
                colour = _stone_at(after, label)
                if colour is not None:
                    out.append((number, label, colour))
        pos = after
    return out


def _stone_at(position: engine.Position, label: str) -> str | None:
    """The colour of the stone on cell ``label`` (``None``: empty, or no such cell)."""
    try:
        return position.stones.get(position.board.cell(label))
    except engine.EngineError:
        return None
