"""Small antialiased pictures pasted onto a board: stones, marks, halos, tints, bonds.

Each sprite is drawn at :data:`renderers.board.SS` times its size, shrunk with
``Image.reduce`` and cached, so a render only pastes ready-made pictures. A sprite is an RGBA
image of odd side whose centre pixel is the centre of the thing drawn; :func:`paste` puts that
centre on a pixel position.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from .board import SS, hex_corners
from .layout import HEX_R, RING, ring_width
from .theme import RGB, get_theme

__all__ = ["RING", "paste", "sprite"]


def _canvas(extent: float) -> tuple[Image.Image, ImageDraw.ImageDraw, int, float]:
    """A transparent RGBA canvas big enough for a drawing ``extent`` px from its centre."""
    half = math.ceil(extent) + 2
    side = 2 * half + 1
    im = Image.new("RGBA", (side * SS, side * SS), (0, 0, 0, 0))
    return im, ImageDraw.Draw(im), side, (half + 0.5) * SS


def _circle(d: ImageDraw.ImageDraw, c: float, r: float, fill: tuple[int, ...] | None = None,
            outline: tuple[int, ...] | None = None, width: int = 1) -> None:
    d.ellipse((c - r, c - r, c + r, c + r), fill=fill, outline=outline, width=width)


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    r, g, bl = (round(x + (y - x) * t) for x, y in zip(a, b, strict=True))
    return r, g, bl


@lru_cache(maxsize=1024)
def sprite(name: str, radius: float, theme: str, colour: str = "black", extra: float = 0.0) -> Image.Image:
    """The cached RGBA sprite ``name`` for stones of ``radius`` px in ``theme``.

    Names:

    * ``"stone"`` -- a stone of ``colour`` with a rim of the opposite lightness;
      ``"faded"`` -- the same stone washed out towards the board (losing stones once over).
    * ``"ring"`` -- the last-move ring drawn on a stone of ``colour``.
    * ``"dot"`` -- the small mark on a stone of ``colour`` flipped by the last move (Io).
    * ``"ghost"`` -- the outline left where a stone of ``colour`` was removed.
    * ``"halo"`` -- the accent ring drawn under a winning stone.
    * ``"hextint"`` / ``"squaretint"`` -- an accent-tinted cell, ``extra`` = pixels per unit.
    * ``"bond"`` -- a bar of ``colour`` joining two neighbouring stones of a group, centred
      between them; here ``radius`` is half the distance between their centres and ``extra``
      the direction from one to the other in degrees (counter-clockwise from east).

    Raises ValueError for an unknown name or theme.
    """
    th = get_theme(theme)
    r = radius * SS
    if name in ("stone", "faded"):
        im, d, side, c = _canvas(radius + 1)
        fill, rim = th.stone(colour), th.rim(colour)
        if name == "faded":
            fill, rim = _mix(fill, th.board, 0.5), _mix(rim, th.board, 0.5)
        rim_w = max(1.6 * SS, 0.085 * r)
        _circle(d, c, r, fill=rim)
        _circle(d, c, r - rim_w, fill=fill)
        if name == "stone":
            # A soft highlight towards the top-left gives the stone some body.
            hl = _mix(fill, (255, 255, 255), 0.16 if colour == "black" else 0.0)
            if colour == "black":
                _circle(d, c - 0.28 * r, 0.42 * r, fill=hl)
                _circle(d, c - 0.22 * r, 0.46 * r, fill=fill)
    elif name == "ring":
        im, d, side, c = _canvas(radius)
        w = ring_width(radius) * SS  # its outer diameter is layout.marker_diameter(radius)
        _circle(d, c, RING * r + w / 2, outline=th.contrast(colour), width=round(w))
    elif name == "dot":
        im, d, side, c = _canvas(radius)
        # A small square on its corner, in the colour the stone had before it turned.
        s = max(2.5 * SS, 0.27 * r)
        d.polygon([(c, c - s), (c + s, c), (c, c + s), (c - s, c)], fill=th.contrast(colour))
    elif name == "ghost":
        im, d, side, c = _canvas(radius + 1)
        fill = _mix(th.stone(colour), th.board, 0.7)
        w = max(2.0 * SS, 0.1 * r)
        _circle(d, c, r - w / 2, fill=fill, outline=th.rim(colour) + (230,), width=round(w))
        x = 0.32 * r
        xw = round(max(2.0 * SS, 0.09 * r))
        d.line((c - x, c - x, c + x, c + x), fill=th.rim(colour) + (230,), width=xw)
        d.line((c - x, c + x, c + x, c - x), fill=th.rim(colour) + (230,), width=xw)
    elif name == "halo":
        # A dark accent band with a light edge outside it: the band stands off light boards
        # and white stones in lightness, the edge off dark boards and black stones, so the
        # halo reads in greyscale and under colour blindness (theme.HIGHLIGHT_CONTRAST_MIN).
        im, d, side, c = _canvas(radius * 1.4 + 2)
        # 1.3 stone radii in all: inside a hex board's rim, clear of its coordinates
        w = max(3.0 * SS, 0.2 * r)
        edge = max(2.0 * SS, 0.1 * r)
        _circle(d, c, r + w + edge, fill=th.halo_edge)
        _circle(d, c, r + w, fill=th.accent)
    elif name in ("hextint", "squaretint"):
        # The tint carries diagonal stripes, so enclosed cells read by texture, not hue alone.
        sc = extra * SS
        hex_cell = name == "hextint"
        im, d, side, c = _canvas(extra * (HEX_R if hex_cell else 0.5) + 1)
        mask = Image.new("L", im.size, 0)
        md = ImageDraw.Draw(mask)
        if hex_cell:
            md.polygon(hex_corners(c, c, HEX_R * sc - 1.5 * SS), fill=255)
        else:
            h = sc / 2 - 1.5 * SS
            md.rectangle((c - h, c - h, c + h, c + h), fill=255)
        layer = Image.new("RGBA", im.size, th.accent + (110,))
        ld = ImageDraw.Draw(layer)
        step = max(5.0 * SS, 0.16 * sc)
        stripe = _mix(th.accent, (0, 0, 0), 0.45)  # darker than any board, so it shows in grey
        for i in range(-int(im.width / step) - 1, int(im.width / step) + 2):
            x = c + i * step
            ld.line((x - im.width, c + im.width, x + im.width, c - im.width), fill=stripe + (200,),
                    width=max(SS, round(0.3 * step)))
        im.paste(layer, (0, 0), mask)
    elif name == "bond":
        # Here ``radius`` is half the distance between the two stones' centres.
        im, d, side, c = _canvas(radius + 2)
        a = math.radians(extra)
        dx, dy = r * math.cos(a), -r * math.sin(a)
        d.line((c - dx, c - dy, c + dx, c + dy), fill=th.rim(colour), width=round(0.36 * r))
        d.line((c - dx, c - dy, c + dx, c + dy), fill=th.stone(colour), width=round(0.22 * r))
    else:
        raise ValueError(f"unknown sprite {name!r}")
    return im.reduce(SS)


def paste(target: Image.Image, spr: Image.Image, x: float, y: float) -> None:
    """Paste ``spr`` on ``target`` (RGB) so that its centre pixel covers pixel point ``(x, y)``."""
    half = spr.width // 2
    target.paste(spr, (round(x - 0.5) - half, round(y - 0.5) - half), spr)
