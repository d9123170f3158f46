"""Shared helpers for the engine tests (not a test module)."""

from __future__ import annotations

from collections.abc import Mapping

from engine import Board


def rows_diagram(board: Board, marks: Mapping[str, str]) -> str:
    """The board part of position text, written independently of the engine's own writer:
    rows top to bottom joined by ``/``, each row left to right, a cell shown as
    its mark (``"x"`` black, ``"o"`` white) or ``.`` when it has none. ``marks`` maps
    labels, in any case, to marks; a label not on ``board`` raises ``engine.MoveError``."""
    by_cell = {board.cell(label): mark for label, mark in marks.items()}
    return "/".join(
        "".join(by_cell.get(c, ".") for c in board.row_cells(r))
        for r in range(board.rows - 1, -1, -1)
    )
