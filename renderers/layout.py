"""Where everything goes in an image: cell centres, stone radius, coordinates, panel box.

The board takes the image's whole width and the panel is a strip below it, so that at the
width Discord shows an attached image in chat (:data:`DISPLAY_WIDTH`) every board keeps its
coordinates at least :data:`LABEL_CAP_MIN` px high and the last-move ring at least
:data:`MARKER_MIN` px across (:attr:`Layout.display_label_height`,
:attr:`Layout.display_marker`). The image's height follows from the board's shape.

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

import engine
from engine import Board, file_letter, hex_board, square_board

from .fonts import font

__all__ = [
    "Layout", "LabelSpot", "board_for", "cap_height", "family_of", "label_size", "layout_for",
    "marker_diameter", "ring_width",
]

SQRT3 = math.sqrt(3.0)
HEX_R = 1 / SQRT3  # centre-to-corner distance of a hexagon one unit wide

#: Stone radius in units, per family.
STONE_RADIUS = {"hex": 0.43, "cells": 0.42, "points": 0.46}
#: Whirlwind's coloured edges: gap from the outermost line to the band, band width, and the
#: strip of board outside the band (so a black band never sits on a dark frame).
BAND_GAP, BAND_WIDTH, BAND_MARGIN = 0.58, 0.34, 0.2
#: Height of the panel strip below the board, in px for an image 1200 px wide (room on each
#: player card for a name on two lines, the colour or score parts, and the player's clock).
PANEL_HEIGHT = 320
#: The board area is at most this share of the image width tall (square boards reach it).
BOARD_MAX_HEIGHT = 1.0
#: Discord shows an attached image about this many px wide in chat; at that width the
#: coordinates' cap height is at least LABEL_CAP_MIN px and the last-move ring at least
#: MARKER_MIN px across, on every board.
DISPLAY_WIDTH, LABEL_CAP_MIN, MARKER_MIN = 550, 10.0, 8.0
#: The last-move ring: radius of its middle as a share of the stone radius, and its line
#: width as a share of the stone radius (never below RING_MIN_WIDTH px).
RING, RING_WIDTH, RING_MIN_WIDTH = 0.52, 0.21, 2.4
#: Width of the board's dark outer rim, in units.
EDGE = 0.07
#: Supersampling factor of cached artwork (text is measured as it is drawn).
SS = 4
#: Coordinate font size: this share of a cell width, at most LABEL_MAX px (for an image
#: 1200 px wide; it scales with the width) and never so small that the cap height falls
#: under LABEL_CAP_MIN px at DISPLAY_WIDTH.
LABEL_SHARE, LABEL_MAX = 0.5, 36
#: The characters whose ink height is the labels' cap height (Roboto's digits stand on the
#: baseline and reach the cap height).
CAP_TEXT = "0123456789"
#: Gap between the board's rim and a label; the least distance between the ink of a row
#: number and a file letter (so "1" over "l" at a corner never reads as a cell name); and
#: the least gap between them side by side on one line (so "d" beside "8" never reads "d8"):
#: shares of the label font size.
LABEL_GAP, LABEL_CLEAR, LABEL_BESIDE = 0.3, 1.5, 1.5


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
    * ``labels`` -- the coordinate labels; ``label_size`` -- their font size in pixels;
      ``label_height`` -- their cap height (ink height of a digit) in pixels.
    * ``marker`` -- outer diameter of the last-move ring in pixels.
    * ``board_box`` / ``panel_box`` -- ``(x0, y0, x1, y1)`` pixel boxes of the two areas:
      the board across the whole width, the panel strip below it.
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
    label_height: float
    marker: float
    board_box: tuple[int, int, int, int]
    panel_box: tuple[int, int, int, int]

    def px(self, u: float, v: float) -> tuple[float, float]:
        """Pixel position of the unit point ``(u, v)``."""
        return (self.ox + u * self.scale, self.oy - v * self.scale)

    @property
    def display_label_height(self) -> float:
        """Cap height (px) of the coordinates when the image is shown :data:`DISPLAY_WIDTH` wide."""
        return self.label_height * DISPLAY_WIDTH / self.width

    @property
    def display_marker(self) -> float:
        """Diameter (px) of the last-move ring when the image is shown :data:`DISPLAY_WIDTH` wide."""
        return self.marker * DISPLAY_WIDTH / self.width

    def label_box(self, spot: LabelSpot) -> tuple[float, float, float, float]:
        """Pixel box ``(x0, y0, x1, y1)`` of the ink of coordinate label ``spot`` as drawn."""
        left, top, right, bottom = _box(spot.text, self.label_size)
        return (spot.x + left, spot.y + top, spot.x + right, spot.y + bottom)


def family_of(kind: str, board: Board) -> str:
    """Drawing style for game ``kind`` (a key of :data:`engine.GAMES`) on ``board``:
    ``"hex"`` for a hex board (:attr:`engine.Board.family`), else where the game's stones
    stand (:attr:`engine.GameKind.places`): ``"points"`` (Whirlwind) or ``"cells"`` (Io, and
    any game the engine does not know)."""
    if board.family == "hex":
        return "hex"
    game = engine.GAMES.get(kind)
    return game.places if game is not None else "cells"


def board_for(shape: str, size: int) -> Board:
    """The engine's shared board of ``shape`` (``"square"``, ``"hexhex"``, ``"limping"``)."""
    return square_board(size) if shape == "square" else hex_board(shape, size)


@lru_cache(maxsize=4096)
def _box(text: str, size: int, weight: str = "medium") -> tuple[float, float, float, float]:
    """Ink box ``(left, top, right, bottom)`` of ``text`` in pixels (y down) around the point
    it is centred on (anchor ``"mm"``), measured as :mod:`renderers.board` draws it."""
    left, top, right, bottom = font(size * SS, weight).getbbox(text, anchor="mm")
    return (left / SS, top / SS, right / SS, bottom / SS)


def _reach(box: tuple[float, float, float, float], ux: float, uy: float) -> float:
    """How far ``box`` reaches from its centre towards the unit direction ``(ux, uy)``
    (units, y up) -- the support function of the box, in pixels."""
    left, top, right, bottom = box
    return max(left * ux, right * ux) + max(-top * uy, -bottom * uy)


def _apart(a: tuple[float, float, tuple[float, float, float, float]],
           b: tuple[float, float, tuple[float, float, float, float]], scale: float, size: int) -> bool:
    """True when the ink boxes of two labels ``(x, y, box)`` (units) cannot read as one label:
    at least :data:`LABEL_CLEAR` label sizes apart, and :data:`LABEL_BESIDE` apart side by side
    when they share a line."""
    (xa, ya, ba), (xb, yb, bb) = a, b
    gap_x = max(xa * scale + ba[0] - (xb * scale + bb[2]), xb * scale + bb[0] - (xa * scale + ba[2]))
    gap_y = max(-ya * scale + ba[1] - (-yb * scale + bb[3]), -yb * scale + bb[1] - (-ya * scale + ba[3]))
    if gap_y <= 0:
        return gap_x >= LABEL_BESIDE * size
    return math.hypot(max(gap_x, 0.0), gap_y) >= LABEL_CLEAR * size


def _hex_labels(board: Board, scale: float, size: int) -> list[tuple[str, float, float]]:
    """Coordinate labels of a hex board: ``(text, x, y)`` centres in units.

    Row numbers sit beyond both ends of every row; file letters (a file slants up-left) only
    where a file ends on the bottom row or the top row, so the edges where rows and files
    both end (upper-left and lower-right) carry numbers alone and no letter stands beside a
    number to read as a cell name ("b 15"). Every file reaches the bottom or the top row
    (files up to the middle one start on the bottom row, those from it end on the top row).
    Each label stands a fixed gap in pixels off the board's rim; at the corners a letter moves
    out along its own file until clear of every number (:func:`_apart`).
    """
    pts = [board.point(i) for i in range(len(board))]
    gap = LABEL_GAP * size
    rim = 0.5 + EDGE
    numbers: list[tuple[str, float, float, tuple[float, float, float, float]]] = []
    for r in range(board.rows):
        cells = board.row_cells(r)
        if not cells:
            continue
        text = str(r + 1)
        box = _box(text, size)
        for c, d in ((min(cells, key=lambda c: pts[c][0]), -1.0), (max(cells, key=lambda c: pts[c][0]), 1.0)):
            x, y = pts[c]
            dist = rim + (gap + _reach(box, -d, 0.0)) / scale
            numbers.append((text, x + d * dist, y, box))
    by_file: dict[int, list[int]] = {}
    for i, (f, _r) in enumerate(board.coords):
        by_file.setdefault(f, []).append(i)
    letters = {f: _box(file_letter(f), size) for f in by_file}
    dx, dy = 0.5, SQRT3 / 2  # one step down a file goes down-right
    # Every letter on one edge stands the same distance off the rim, so they line up.
    reach_low = max(_reach(b, dx, dy) for b in letters.values())
    reach_high = max(_reach(b, -dx, -dy) for b in letters.values())
    out = [(t, x, y) for t, x, y, _b in numbers]
    near = 2.5 + 4 * size / scale  # units: numbers further off cannot meet the letter
    top_row = max(r for _f, r in board.coords)
    for f, cells in sorted(by_file.items()):
        text, box = file_letter(f), letters[f]
        for c, ux, uy, reach in (
            (min(cells, key=lambda c: board.coords[c][1]), dx, -dy, reach_low),
            (max(cells, key=lambda c: board.coords[c][1]), -dx, dy, reach_high),
        ):
            if board.coords[c][1] not in (0, top_row):
                continue  # this end is on an edge of row numbers
            x, y = pts[c]
            t = rim + (gap + reach) / scale
            close = [(nx, ny, nb) for _n, nx, ny, nb in numbers
                     if math.hypot(nx - x - ux * t, ny - y - uy * t) < near]
            while not all(_apart((x + ux * t, y + uy * t, box), num, scale, size) for num in close):
                t += 0.02
            out.append((text, x + ux * t, y + uy * t))
    return out


def _square_labels(n: int, rim: float, scale: float, size: int) -> list[tuple[str, float, float]]:
    """Labels of an ``n x n`` board whose rim stands ``rim`` units outside the outer points:
    letters above and below every file, numbers left and right of every row, each a fixed gap
    in pixels off the rim (letters in one straight line, numbers flush towards the board)."""
    gap = LABEL_GAP * size
    letters = [_box(file_letter(f), size) for f in range(n)]
    up = rim + (gap + max(_reach(b, 0.0, -1.0) for b in letters)) / scale
    down = rim + (gap + max(_reach(b, 0.0, 1.0) for b in letters)) / scale
    out = []
    for f in range(n):
        out.append((file_letter(f), float(f), -down))
        out.append((file_letter(f), float(f), n - 1 + up))
    for r in range(n):
        box = _box(str(r + 1), size)
        out.append((str(r + 1), -rim - (gap + _reach(box, 1.0, 0.0)) / scale, float(r)))
        out.append((str(r + 1), n - 1 + rim + (gap + _reach(box, -1.0, 0.0)) / scale, float(r)))
    return out


def cap_height(size: int) -> float:
    """Cap height (px) of coordinates drawn at font size ``size`` px: the ink height of the
    digits, measured as :mod:`renderers.board` draws them."""
    _left, top, _right, bottom = _box(CAP_TEXT, size)
    return bottom - top


@lru_cache(maxsize=64)
def _least_label_size(width: int) -> int:
    """The smallest font size (px) whose cap height is at least :data:`LABEL_CAP_MIN` px once
    an image ``width`` px wide is shown :data:`DISPLAY_WIDTH` px wide."""
    need = LABEL_CAP_MIN * width / DISPLAY_WIDTH
    size = max(1, math.floor(need))
    while cap_height(size) < need:
        size += 1
    return size


def label_size(scale: float, width: int) -> int:
    """Font size (px) of the coordinates for ``scale`` pixels per unit in an image ``width`` px
    wide: :data:`LABEL_SHARE` of a cell, at most :data:`LABEL_MAX` (given for 1200 px wide),
    and never smaller than what keeps the cap height :data:`LABEL_CAP_MIN` px at
    :data:`DISPLAY_WIDTH`."""
    k = width / 1200
    least = _least_label_size(width)
    return max(least, round(min(LABEL_SHARE * scale, LABEL_MAX * k)))


def ring_width(radius: float) -> float:
    """Line width (px) of the last-move ring on a stone of ``radius`` px."""
    return max(RING_MIN_WIDTH, RING_WIDTH * radius)


def marker_diameter(radius: float) -> float:
    """Outer diameter (px) of the last-move ring on a stone of ``radius`` px (the ring's
    middle is :data:`RING` of the radius out, its line :func:`ring_width` wide)."""
    return 2 * RING * radius + ring_width(radius)


def _fit(family: str, board: Board, avail_w: float, avail_h: float, width: int
         ) -> tuple[float, int, list[tuple[str, float, float]], tuple[float, float, float, float]]:
    """Scale (px per unit), label size, labels and unit extent of a board drawn as large as
    fits ``avail_w x avail_h`` pixels with its coordinates around it."""
    pts = [board.point(i) for i in range(len(board))]
    if family == "hex":
        ext_x, ext_y = 0.5 + EDGE, HEX_R + EDGE
    elif family == "cells":
        ext_x = ext_y = 0.5 + EDGE
    else:
        ext_x = ext_y = BAND_GAP + BAND_WIDTH + BAND_MARGIN + EDGE
    bu0 = min(p[0] for p in pts) - ext_x
    bu1 = max(p[0] for p in pts) + ext_x
    bv0 = min(p[1] for p in pts) - ext_y
    bv1 = max(p[1] for p in pts) + ext_y
    scale = min(avail_w / (bu1 - bu0), avail_h / (bv1 - bv0)) * 0.85
    for _ in range(12):  # labels are sized in pixels, cells in units: settle the two
        size = label_size(scale, width)
        if family == "hex":
            labels = _hex_labels(board, scale, size)
        else:
            labels = _square_labels(board.size, ext_x, scale, size)
        u0, u1, v0, v1 = bu0, bu1, bv0, bv1
        for text, x, y in labels:
            left, top, right, bottom = _box(text, size)
            u0, u1 = min(u0, x + left / scale), max(u1, x + right / scale)
            v0, v1 = min(v0, y - bottom / scale), max(v1, y - top / scale)
        new = min(avail_w / (u1 - u0), avail_h / (v1 - v0))
        if abs(new - scale) < 0.01 and new >= scale:
            break
        scale = new if new < scale else scale + 0.7 * (new - scale)
    return scale, size, labels, (u0, u1, v0, v1)


@lru_cache(maxsize=256)
def layout_for(family: str, shape: str, size: int, width: int = 1200, height: int | None = None) -> Layout:
    """The :class:`Layout` for a board drawn in ``family`` style in an image ``width`` px wide.

    ``shape``/``size`` name the engine board (``"square"``, ``"hexhex"``, ``"limping"``).
    The board and its coordinates take the whole width (less a margin) and at most
    :data:`BOARD_MAX_HEIGHT` of it in height; the panel is a strip :data:`PANEL_HEIGHT` px
    high (at 1200 wide) below the board. ``height`` None: the image is as tall as the board
    needs plus the strip; else the board fits ``height`` less the strip. Raises ValueError
    for an unknown family or shape, or a ``height`` leaving the board no room.
    """
    if family not in STONE_RADIUS:
        raise ValueError(f"unknown board family {family!r}")
    board = board_for(shape, size)
    k = width / 1200
    margin = max(6, round(width * 0.012))
    panel_h = round(PANEL_HEIGHT * k)
    avail_w = width - 2 * margin
    if height is None:
        avail_h = round(width * BOARD_MAX_HEIGHT) - 2 * margin
    else:
        avail_h = height - panel_h - 2 * margin
        if avail_h < 0.3 * avail_w:
            raise ValueError(f"an image {width}x{height} leaves the board no room")
    scale, lsize, labels, (u0, u1, v0, v1) = _fit(family, board, avail_w, avail_h, width)
    bh = math.ceil((v1 - v0) * scale) + 2 * margin if height is None else height - panel_h
    ox = margin + (avail_w - (u1 - u0) * scale) / 2 - u0 * scale
    oy = margin + (bh - 2 * margin - (v1 - v0) * scale) / 2 + v1 * scale
    centres = tuple((ox + x * scale, oy - y * scale) for x, y in (board.point(i) for i in range(len(board))))
    spots = tuple(LabelSpot(t, ox + x * scale, oy - y * scale) for t, x, y in labels)
    radius = STONE_RADIUS[family] * scale
    return Layout(
        width=width,
        height=bh + panel_h,
        family=family,
        board=board,
        scale=scale,
        ox=ox,
        oy=oy,
        centres=centres,
        radius=radius,
        labels=spots,
        label_size=lsize,
        label_height=cap_height(lsize),
        marker=marker_diameter(round(radius, 1)),
        board_box=(0, 0, width, bh),
        panel_box=(0, bh, width, bh + panel_h),
    )
