"""The part of an image that does not change between moves, drawn once and cached.

:func:`base_image` paints the frame, the board (hexagons, square cells or grid lines with
Whirlwind's coloured edges), the coordinates and, if asked, faint labels in every cell. It
draws at :data:`SS` times the output size and shrinks with ``Image.reduce`` for smooth edges;
the result is cached per drawing family, board shape and size, theme, cell-label choice and
image size. Callers copy it before drawing stones.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from .fonts import font
from .layout import BAND_GAP, BAND_MARGIN, BAND_WIDTH, EDGE, HEX_R, SS, Layout, layout_for
from .theme import RGB, Theme, get_theme

__all__ = ["SS", "base_image", "font", "hex_corners"]

def hex_corners(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """The six corners of a pointy-top hexagon centred at pixel ``(cx, cy)``, radius ``r``."""
    return [
        (cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a)))
        for a in (30, 90, 150, 210, 270, 330)
    ]


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    r, g, bl = (round(x + (y - x) * t) for x, y in zip(a, b, strict=True))
    return r, g, bl


def _draw_hex(d: ImageDraw.ImageDraw, lay: Layout, th: Theme, s: int) -> None:
    sc = lay.scale * s
    edge = max(2.0, EDGE * sc)
    line = max(1, round(0.028 * sc))
    cs = [(x * s, y * s) for x, y in lay.centres]
    # The union of slightly enlarged hexagons gives the board its outer rim.
    for cx, cy in cs:
        d.polygon(hex_corners(cx, cy, HEX_R * sc + edge), fill=th.board_edge)
    # Each cell's outline is drawn inward, ``line`` wide: a hexagon of the line's colour
    # under a smaller one of the board's (Pillow's polygon outline wider than one pixel
    # allocates a mask the size of the whole canvas per polygon: most of a first render).
    inset = line  # the corners' inset that Pillow's inward outline of this width gives
    for cx, cy in cs:
        d.polygon(hex_corners(cx, cy, HEX_R * sc), fill=th.line)
        d.polygon(hex_corners(cx, cy, HEX_R * sc - inset), fill=th.board)


def _draw_cells(d: ImageDraw.ImageDraw, lay: Layout, th: Theme, s: int) -> None:
    n = lay.board.size
    sc = lay.scale * s
    x0, y0 = lay.px(-0.5, n - 0.5)
    x1, y1 = lay.px(n - 0.5, -0.5)
    x0, y0, x1, y1 = x0 * s, y0 * s, x1 * s, y1 * s
    edge = max(2.0, EDGE * sc)
    d.rectangle((x0 - edge, y0 - edge, x1 + edge, y1 + edge), fill=th.board_edge)
    d.rectangle((x0, y0, x1, y1), fill=th.board)
    # Corners are special in Io's opening: a slightly darker fill marks them.
    for f, r in ((0, 0), (n - 1, 0), (0, n - 1), (n - 1, n - 1)):
        cx, cy = lay.px(f, r)
        h = sc / 2
        d.rectangle((cx * s - h, cy * s - h, cx * s + h, cy * s + h), fill=th.board_alt)
    line = max(1, round(0.03 * sc))
    for i in range(1, n):
        x = (lay.ox + (i - 0.5) * lay.scale) * s
        d.line((x, y0, x, y1), fill=th.line, width=line)
        y = (lay.oy - (i - 0.5) * lay.scale) * s
        d.line((x0, y, x1, y), fill=th.line, width=line)


def _draw_points(d: ImageDraw.ImageDraw, lay: Layout, th: Theme, s: int) -> None:
    n = lay.board.size
    sc = lay.scale * s
    g = BAND_GAP
    out = BAND_GAP + BAND_WIDTH + BAND_MARGIN
    wx0, wy0 = lay.px(-out, n - 1 + out)
    wx1, wy1 = lay.px(n - 1 + out, -out)
    edge = max(2.0, EDGE * sc)
    d.rectangle((wx0 * s - edge, wy0 * s - edge, wx1 * s + edge, wy1 * s + edge), fill=th.board_edge)
    d.rectangle((wx0 * s, wy0 * s, wx1 * s, wy1 * s), fill=th.board)
    bx0, by0 = lay.px(-g, n - 1 + g)
    bx1, by1 = lay.px(n - 1 + g, -g)
    w = BAND_WIDTH * sc
    rim = max(1, round(0.025 * sc))
    x0, y0, x1, y1 = bx0 * s, by0 * s, bx1 * s, by1 * s
    # Top and bottom edges belong to Black, left and right to White (RULES.md Whirlwind).
    # Each band is a trapezoid so the four meet on the diagonals at the corners.
    top = [(x0 - w, y0 - w), (x1 + w, y0 - w), (x1, y0), (x0, y0)]
    bottom = [(x0, y1), (x1, y1), (x1 + w, y1 + w), (x0 - w, y1 + w)]
    left = [(x0 - w, y0 - w), (x0, y0), (x0, y1), (x0 - w, y1 + w)]
    right = [(x1, y0), (x1 + w, y0 - w), (x1 + w, y1 + w), (x1, y1)]
    for poly in (left, right):
        d.polygon(poly, fill=th.white, outline=th.white_rim, width=rim)
    for poly in (top, bottom):
        d.polygon(poly, fill=th.black, outline=th.black, width=rim)
    line = max(1, round(0.03 * sc))
    for i in range(n):
        x, _ = lay.px(i, 0)
        _, yt = lay.px(0, n - 1)
        _, yb = lay.px(0, 0)
        d.line((x * s, yt * s, x * s, yb * s), fill=th.line, width=line)
        _, y = lay.px(0, i)
        xl, _ = lay.px(0, 0)
        xr, _ = lay.px(n - 1, 0)
        d.line((xl * s, y * s, xr * s, y * s), fill=th.line, width=line)


@lru_cache(maxsize=12)  # about 4-5 MB each at 1200 wide
def base_image(
    family: str,
    shape: str,
    size: int,
    theme: str,
    cell_labels: bool = False,
    width: int = 1200,
    height: int | None = None,
) -> Image.Image:
    """The cached background of an image: frame with its border, board, coordinates (RGB,
    ``width`` px wide; ``height`` as :func:`renderers.layout.layout_for`, None: as the board needs).

    ``family``/``shape``/``size`` as :func:`renderers.layout.layout_for`; ``theme`` a theme
    name; ``cell_labels`` prints every cell's label faintly inside it (stones cover it).
    Do not draw on the returned image: copy it. Raises ValueError for an unknown theme,
    family or shape.
    """
    th = get_theme(theme)
    lay = layout_for(family, shape, size, width, height)
    height = lay.height
    s = SS
    im = Image.new("RGB", (width * s, height * s), th.frame)
    d = ImageDraw.Draw(im)
    {"hex": _draw_hex, "cells": _draw_cells, "points": _draw_points}[family](d, lay, th, s)
    f = font(lay.label_size * s, "medium")
    for spot in lay.labels:
        d.text((spot.x * s, spot.y * s), spot.text, font=f, fill=th.coord, anchor="mm")
    # A thin border in the theme's border colour marks the image's edge on any page.
    bw = max(1, round(2 * width / 1200)) * s
    d.rectangle((0, 0, width * s - 1, height * s - 1), outline=th.border, width=bw)
    if cell_labels:
        size_px = max(9, min(0.3 * lay.scale, 24))
        small = font(size_px * s)
        for i, (x, y) in enumerate(lay.centres):
            d.text((x * s, y * s), lay.board.labels[i], font=small, fill=th.cell_label, anchor="mm")
    return im.reduce(s)
