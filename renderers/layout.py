"""Where everything goes in an image: cell centres, stone radius, coordinates, panel box.

A :class:`Layout` depends only on the board drawing style (``family``), the board shape and
size, and the image size -- never on a position -- so it is computed once and cached.

Families:

* ``"hex"`` -- pointy-top hexagons (Coil, the Corals); a cell ``(f, r)`` sits at
  ``x = f - r/2``, ``y = r*sqrt(3)/2`` cell widths (RULES.md "Hex boards").
* ``"cells"`` -- a square grid whose stones sit inside the squares (Io).
* ``"points"`` -- grid lines whose stones sit on the intersections (Whirlwind).

All "units" below are cell widths with y growing upwards, as ``Board.point`` gives them;
pixels have y growing downwards.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from engine.geometry import Board, HexBoard, file_letter, hex_board, square_board

__all__ = ["Layout", "LabelSpot", "family_of", "layout_for", "board_for"]

SQRT3 = math.sqrt(3.0)
HEX_R = 1 / SQRT3  # centre-to-corner distance of a hexagon one unit wide

#: Stone radius in units, per family.
STONE_RADIUS = {"hex": 0.43, "cells": 0.42, "points": 0.46}
#: Whirlwind's coloured edges: gap from the outermost line to the band, band width, and the
#: strip of board outside the band (so a black band never sits on a dark frame).
BAND_GAP, BAND_WIDTH, BAND_MARGIN = 0.58, 0.34, 0.2
#: Share of the image width given to the side panel.
PANEL_SHARE = 0.28
#: How much further out a hex file letter goes where a row number wants the same spot.
HEX_PUSH = 0.5


@dataclass(frozen=True)
class LabelSpot:
    """One coordinate label: its text and its centre in output pixels."""

    text: str
    x: float
    y: float


@dataclass(frozen=True)
class Layout:
    """Geometry of one image (see the module docstring for families and units).

    * ``width``, ``height`` -- image size in pixels.
    * ``family``, ``board`` -- drawing style and the engine board.
    * ``scale`` -- pixels per unit; ``ox``, ``oy`` -- pixel position of unit point (0, 0).
    * ``centres[i]`` -- pixel centre ``(x, y)`` of cell (or point) ``i``.
    * ``radius`` -- stone radius in pixels.
    * ``labels`` -- the coordinate labels; ``label_size`` -- their font size in pixels.
    * ``board_box`` / ``panel_box`` -- ``(x0, y0, x1, y1)`` pixel boxes of the two areas.
    """

    width: int
    height: int
    family: str
    board: Board
    scale: float
    ox: float
    oy: float
    centres: tuple[tuple[float, float], ...]
    radius: float
    labels: tuple[LabelSpot, ...]
    label_size: int
    board_box: tuple[int, int, int, int]
    panel_box: tuple[int, int, int, int]

    def px(self, u: float, v: float) -> tuple[float, float]:
        """Pixel position of the unit point ``(u, v)``."""
        return (self.ox + u * self.scale, self.oy - v * self.scale)


def family_of(kind: str, board: Board) -> str:
    """Drawing style for game ``kind`` on ``board``: ``"hex"``, ``"points"`` or ``"cells"``."""
    if isinstance(board, HexBoard):
        return "hex"
    return "points" if kind == "whirlwind" else "cells"


def board_for(shape: str, size: int) -> Board:
    """The engine's shared board of ``shape`` (``"square"``, ``"hexhex"``, ``"limping"``)."""
    return square_board(size) if shape == "square" else hex_board(shape, size)


def _hex_labels(board: Board, dist: float, push: float) -> list[tuple[str, float, float]]:
    """Coordinate labels of a hex board in units.

    Row numbers sit beyond both ends of every row, file letters beyond both ends of every
    file (a file slants up-left). Where a row's end and a file's end want the same spot (the
    upper-left and lower-right edges), both labels move a little further out along their
    own line, so each still lines up with its row or file.

    ``dist`` -- distance of a label from the centre of the cell it follows (units);
    ``push`` -- how much further than the shared spot a file letter goes there.
    """
    pts = [board.point(i) for i in range(len(board))]
    wanted: list[tuple[str, float, float, float, float]] = []  # text, spot, direction
    for r in range(board.rows):
        cells = board.row_cells(r)
        if not cells:
            continue
        left = min(cells, key=lambda c: pts[c][0])
        right = max(cells, key=lambda c: pts[c][0])
        for c, d in ((left, -1.0), (right, 1.0)):
            x, y = pts[c]
            wanted.append((str(r + 1), x + d, y, d, 0.0))
    by_file: dict[int, list[int]] = {}
    for i, (f, _r) in enumerate(board.coords):
        by_file.setdefault(f, []).append(i)
    dx, dy = 0.5, SQRT3 / 2  # one step down a file goes down-right
    for f, cells in sorted(by_file.items()):
        low = min(cells, key=lambda c: board.coords[c][1])
        high = max(cells, key=lambda c: board.coords[c][1])
        x, y = pts[low]
        wanted.append((file_letter(f), x + dx, y - dy, dx, -dy))
        x, y = pts[high]
        wanted.append((file_letter(f), x - dx, y + dy, -dx, dy))
    counts: dict[tuple[int, int], int] = {}
    for _t, x, y, _dx, _dy in wanted:
        key = (round(x * 4), round(y * 4))
        counts[key] = counts.get(key, 0) + 1
    out = []
    for t, x, y, ddx, ddy in wanted:
        shared = counts[(round(x * 4), round(y * 4))] > 1
        step = push if shared and t.isalpha() else dist - 1.0
        out.append((t, x + ddx * step, y + ddy * step))
    return out


def _square_labels(n: int, gap: float) -> list[tuple[str, float, float]]:
    out = []
    for f in range(n):
        out.append((file_letter(f), float(f), -gap))
        out.append((file_letter(f), float(f), n - 1 + gap))
    for r in range(n):
        out.append((str(r + 1), -gap, float(r)))
        out.append((str(r + 1), n - 1 + gap, float(r)))
    return out


@lru_cache(maxsize=256)
def layout_for(family: str, shape: str, size: int, width: int = 1200, height: int = 900) -> Layout:
    """The :class:`Layout` for a board drawn in ``family`` style in a ``width x height`` image.

    ``shape``/``size`` name the engine board (``"square"``, ``"hexhex"``, ``"limping"``).
    Raises ValueError for an unknown family or shape.
    """
    if family not in STONE_RADIUS:
        raise ValueError(f"unknown board family {family!r}")
    board = board_for(shape, size)
    pts = [board.point(i) for i in range(len(board))]
    k = width / 1200
    panel_w = round(width * PANEL_SHARE)
    bw = width - panel_w
    margin = max(6, round(width * 0.012))
    avail_w, avail_h = bw - 2 * margin, height - 2 * margin
    # Square boards keep their coordinates about one label's height from the board, so the
    # gap depends on the scale; two rounds settle it.
    gap, dist, push = 0.95, 0.88, HEX_PUSH
    for _ in range(2):
        if family == "hex":
            labels = _hex_labels(board, dist, push)
            ext_x, ext_y = 0.5, HEX_R
        elif family == "cells":
            labels = _square_labels(size, gap)
            ext_x = ext_y = 0.5
        else:
            labels = _square_labels(size, BAND_GAP + BAND_WIDTH + BAND_MARGIN + gap - 0.5)
            ext_x = ext_y = BAND_GAP + BAND_WIDTH + BAND_MARGIN
        pad = 0.34  # room for a label's own width and height around its centre
        xs = [p[0] - ext_x for p in pts] + [p[0] + ext_x for p in pts]
        ys = [p[1] - ext_y for p in pts] + [p[1] + ext_y for p in pts]
        xs += [x - pad for _t, x, _y in labels] + [x + pad for _t, x, _y in labels]
        ys += [y - pad for _t, _x, y in labels] + [y + pad for _t, _x, y in labels]
        u0, u1, v0, v1 = min(xs), max(xs), min(ys), max(ys)
        scale = min(avail_w / (u1 - u0), avail_h / (v1 - v0))
        label_size = round(min(max(0.44 * scale, 13 * k), 32 * k))
        gap = min(0.95, 0.5 + 1.1 * label_size / scale)
        # Hex: labels about one label's height off the board. A file letter that shares its
        # spot with a row number goes half a cell further out along its file, which puts it
        # diagonally away from the number, never beside it.
        dist = min(0.88, 0.5 + 0.95 * label_size / scale)
    ox = margin + (avail_w - (u1 - u0) * scale) / 2 - u0 * scale
    oy = margin + (avail_h - (v1 - v0) * scale) / 2 + v1 * scale
    centres = tuple((ox + x * scale, oy - y * scale) for x, y in pts)
    spots = tuple(LabelSpot(t, ox + x * scale, oy - y * scale) for t, x, y in labels)
    return Layout(
        width=width,
        height=height,
        family=family,
        board=board,
        scale=scale,
        ox=ox,
        oy=oy,
        centres=centres,
        radius=STONE_RADIUS[family] * scale,
        labels=spots,
        label_size=label_size,
        board_box=(0, 0, bw, height),
        panel_box=(bw, 0, width, height),
    )
