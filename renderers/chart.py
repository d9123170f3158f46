"""A game review as a picture: the first player's chances after every move, and the swings.

:func:`render_review_png` draws, at 1200x900 in the boards' themes and fonts:

* on the left, seat 1's winning chances (0-100 %) after each move on a board-coloured plot:
  the area between the curve and the 50 % line is filled with the stone colour of the
  player who is ahead (dark or light: it reads by lightness, not hue), grid lines at 25/50/75 %,
  axis labels in %, move numbers below;
* each of the biggest swings marked on the curve (its segment drawn thick in the accent
  colour, a numbered badge, the move as label, such as ``"23. f6"``);
* on the right, a panel like the board's: the game, both players with their stones, the
  result, and the numbered swings, each with its mover by name (``"move 23, Ann's f6"``),
  the mover's own chances (``"71% → 32%"``) and the move the search preferred (wrapped,
  never cut).

The input is plain data (a review with ``plies``, ``start`` and ``swings``, e.g.
:class:`ai.review.GameReview` or :func:`review_from_dict` of its dict); only ``engine`` is
used besides Pillow. Drawn at twice the size and reduced for smooth edges; the empty frame
per theme is cached, and so are the fonts.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from functools import lru_cache
from types import SimpleNamespace
from typing import Any, Protocol

from PIL import Image, ImageChops, ImageDraw, ImageFont

import engine

from . import english
from .fonts import font
from .panel import Box, _fit, _len, _sized, _text, _wrap, clean_name
from .sprites import paste, sprite
from .theme import HIGHLIGHT_CONTRAST_MIN, RGB, Theme, contrast_ratio, get_theme
from .words import ChartText, Headline, Name, SwingText, spell

__all__ = ["CHART_SIZE", "ChartReview", "ReviewedPly", "ReviewedSwing", "render_review_image",
           "render_review_png", "review_from_dict", "swing_boxes", "swing_heading",
           "swing_label_boxes"]


class ReviewedPly(Protocol):
    """A move of a review as the chart reads it (:class:`ai.review.PlyReview`, or a ply of
    :func:`review_from_dict`): ``move`` (its text) and ``after`` (seat 1's chances after it,
    0..1). Renderers may not import ``ai``: this is its shape, not its class."""

    @property
    def move(self) -> str:
        """The move's text."""

    @property
    def after(self) -> float:
        """Seat 1's chances after the move (0..1)."""


class ReviewedSwing(Protocol):
    """A swing of a review as the chart reads it (:class:`ai.review.Swing`, or a swing of
    :func:`review_from_dict`): ``ply`` (move number, from 1), ``seat`` (1 or 2, the mover),
    ``move``, ``preferred`` (the search's choice, may equal ``move``; empty or None when
    unknown) and the mover's chances ``before``/``after`` the move (0..1)."""

    @property
    def ply(self) -> int:
        """Move number, from 1."""

    @property
    def seat(self) -> int:
        """The mover's seat (1 or 2)."""

    @property
    def move(self) -> str:
        """The move's text."""

    @property
    def preferred(self) -> str | None:
        """The search's choice (may equal ``move``; empty or None when unknown)."""

    @property
    def before(self) -> float:
        """The mover's chances before the move (0..1)."""

    @property
    def after(self) -> float:
        """The mover's chances after the move (0..1)."""


class ChartReview(Protocol):
    """The review the chart draws (:class:`ai.review.GameReview`, or
    :func:`review_from_dict`'s result): ``kind`` (a key of :data:`engine.GAMES`),
    ``options``, ``start`` (seat 1's chances before move 1, 0..1), ``plies`` and ``swings``."""

    @property
    def kind(self) -> str:
        """The game's key in :data:`engine.GAMES`."""

    @property
    def options(self) -> Mapping[str, object]:
        """The game's options."""

    @property
    def start(self) -> float:
        """Seat 1's chances before move 1 (0..1)."""

    @property
    def plies(self) -> Sequence[ReviewedPly]:
        """The reviewed moves, in order."""

    @property
    def swings(self) -> Sequence[ReviewedSwing]:
        """The biggest swings, biggest first."""


#: A point in pixels, ``(x, y)``.
Point = tuple[float, float]
#: A swing as drawn: ``(number, label, badge x, badge y, label box, segment of the curve)``.
_Mark = tuple[int, str, float, float, Box, tuple[Point, Point]]

#: Width and height of the chart, in pixels.
CHART_SIZE = (1200, 900)
#: Supersampling factor: drawn this many times larger, then reduced.
_S = 2
#: The plot area at 1200x900 (left, top, right, bottom) and the panel card.
_PLOT = (98, 92, 852, 792)
_CARD = (892, 14, 1186, 886)
#: Width (px at 1200x900) of the light outline round a stone as dark as what it stands on.
OUTLINE = 2.5


def review_from_dict(data: Mapping[str, Any]) -> ChartReview:
    """A review from plain data (e.g. JSON kept in a database): ``{"kind", "options",
    "start", "plies": [{"ply", "seat", "move", "preferred", "before", "after"}, ...],
    "swings": [{"ply", "seat", "move", "preferred", "before", "after"}, ...]}`` -- the
    fields of :class:`ai.review.GameReview` (swing chances are the mover's), as a
    :class:`types.SimpleNamespace` of them. Raises KeyError/TypeError for missing fields."""
    plies = [SimpleNamespace(**p) for p in data["plies"]]
    swings = [SimpleNamespace(**s) for s in data["swings"]]
    return SimpleNamespace(kind=data["kind"], options=dict(data.get("options") or {}),
                           start=float(data["start"]), plies=plies, swings=swings)


@lru_cache(maxsize=8)
def _frame(theme_name: str) -> Image.Image:
    """The empty picture of ``theme_name`` at the supersampled size: frame, plot, panel card."""
    th = get_theme(theme_name)
    w, h = CHART_SIZE
    im = Image.new("RGB", (w * _S, h * _S), th.frame)
    d = ImageDraw.Draw(im)
    s = _S
    d.rounded_rectangle([c * s for c in _CARD], radius=18 * s, fill=th.panel)
    x0, y0, x1, y1 = _PLOT
    d.rectangle((x0 * s, y0 * s, x1 * s, y1 * s), fill=th.board, outline=th.board_edge, width=2 * s)
    return im


def _outlined_stone(im: Image.Image, d: ImageDraw.ImageDraw, th: Theme, colour: str, r: float, x: float,
                    y: float, ground: RGB, s: int) -> None:
    """A stone of ``colour`` and radius ``r`` centred at ``(x, y)``; where its fill is close in
    lightness to ``ground`` (a black stone on a dark frame) it gets an outline of the
    opposite lightness, :data:`OUTLINE` px wide (times ``s``), so it does not disappear."""
    if contrast_ratio(th.stone(colour), ground) < HIGHLIGHT_CONTRAST_MIN:
        w = OUTLINE * s
        line = th.text_dim if th.dark_frame else th.text
        d.ellipse((x - r - w, y - r - w, x + r + w, y + r + w), fill=line)
    paste(im, sprite("stone", r, th.name, colour), x, y)


def _tick_step(n: int) -> int:
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000):
        if n / step <= 12:
            return step
    return 1000


def _seat_colours(final: engine.Position | None) -> dict[int, str]:
    out: dict[int, str] = {}
    for seat in (1, 2):
        colour = final.colour(seat) if final is not None else None
        out[seat] = colour or ("black" if seat == 1 else "white")
    if out[1] == out[2]:  # pragma: no cover - no game gives both seats one colour
        out = {1: "black", 2: "white"}
    return out


def render_review_image(review: ChartReview, *, players: Mapping[int, object] | None = None,
                        theme: str | Theme = "default", final: engine.Position | None = None,
                        text: ChartText | None = None) -> Image.Image:
    """The review chart as a Pillow RGB image of :data:`CHART_SIZE`.

    * ``review`` -- an :class:`ai.review.GameReview` or :func:`review_from_dict`'s result:
      ``kind``, ``options``, ``start`` (seat 1's chances before move 1), ``plies`` (each
      with ``ply``, ``seat``, ``move``, ``preferred``, ``after``) and ``swings`` (each with
      ``ply``, ``seat``, ``move``, ``preferred``, and the mover's ``before``/``after``).
    * ``players`` -- optional ``{1: name, 2: name}`` ("Player 1/2" where missing).
    * ``theme`` -- a key of :data:`renderers.THEMES` or a Theme.
    * ``final`` -- the game's last position (an :class:`engine.Position`, e.g. after a
      resignation, which is no move); default: the moves replayed. Gives the result line
      and the stone colours.
    * ``text`` -- every word drawn (:class:`renderers.words.ChartText`, one
      :class:`~renderers.words.SwingText` per swing; the bot words it); None: the English of
      :func:`renderers.english.chart_text`.

    Raises ValueError for an unknown theme or a ``text`` with another number of swings,
    TypeError for a ``text`` that is no ChartText, engine errors for moves that do not replay.
    """
    th = get_theme(theme)
    if final is None:
        final = engine.replay(review.kind, review.options, [p.move for p in review.plies])
    if text is None:
        text = english.chart_text(review, final)
    if not isinstance(text, ChartText):
        raise TypeError("text must be a renderers.ChartText or None")
    if len(text.swings) != len(review.swings):
        raise ValueError(f"text words {len(text.swings)} swings, the review has {len(review.swings)}")
    names = {seat: clean_name((players or {}).get(seat), text.unnamed[seat - 1]) for seat in (1, 2)}
    colours = _seat_colours(final)
    s = _S
    im = _frame(th.name).copy()
    d = ImageDraw.Draw(im)
    _draw_plot(im, d, review, th, text, names, colours, s)
    _draw_side(im, d, review, th, text, names, colours, s)
    return im.resize(CHART_SIZE, Image.Resampling.LANCZOS)


def render_review_png(review: ChartReview, *, players: Mapping[int, object] | None = None,
                      theme: str | Theme = "default", final: engine.Position | None = None,
                      text: ChartText | None = None) -> bytes:
    """PNG bytes (1200x900) of :func:`render_review_image` (same arguments and errors)."""
    buf = io.BytesIO()
    render_review_image(review, players=players, theme=theme, final=final, text=text).save(
        buf, "PNG", compress_level=6)
    return buf.getvalue()


def _draw_plot(im: Image.Image, d: ImageDraw.ImageDraw, review: ChartReview, th: Theme, text: ChartText,
               names: Mapping[int, str], colours: Mapping[int, str], s: int) -> None:
    x0, y0, x1, y1 = (c * s for c in _PLOT)
    values = [review.start] + [p.after for p in review.plies]
    n = max(1, len(values) - 1)

    def X(i: float) -> float:
        return x0 + (x1 - x0) * i / n

    def Y(v: float) -> float:
        return y1 - (y1 - y0) * v

    ymid = Y(0.5)
    pts = _curve(review, (x0, y0, x1, y1))
    # The lead: the area between the curve and the 50 % line, in the leader's stone colour.
    mask = Image.new("L", im.size, 0)
    ImageDraw.Draw(mask).polygon([(X(0), ymid), *pts, (X(len(values) - 1), ymid)], fill=255)
    top = Image.new("L", im.size, 0)
    ImageDraw.Draw(top).rectangle((0, 0, im.width, ymid), fill=255)
    upper = ImageChops.multiply(mask, top)
    lower = ImageChops.subtract(mask, upper)
    im.paste(th.stone(colours[1]), (0, 0, im.width, im.height), upper)
    im.paste(th.stone(colours[2]), (0, 0, im.width, im.height), lower)

    # Grid and axes over the fill.
    f_axis = font(22 * s)
    for v, label in zip((0.0, 0.25, 0.5, 0.75, 1.0), text.percents, strict=True):
        y = Y(v)
        if v == 0.5:
            _dashed(d, x0, x1, y, th.board_edge, 3 * s, 14 * s)
        elif 0 < v < 1:
            _dashed(d, x0, x1, y, th.line, 1 * s, 6 * s)
        _text(d, (x0 - 12 * s, y), label, f_axis, th.coord, "rm")
    step = _tick_step(n)
    for i in range(0, n + 1, step):
        if i == 0:
            continue
        x = X(i)
        d.line((x, y1, x, y1 + 8 * s), fill=th.coord, width=2 * s)
        _text(d, (x, y1 + 12 * s), str(i), f_axis, th.coord, "ma")
    _text(d, ((x0 + x1) / 2, y1 + 44 * s), text.axis, font(22 * s), th.text_dim, "ma")
    d.rectangle((x0, y0, x1, y1), outline=th.board_edge, width=2 * s)
    # The curve.
    d.line(pts, fill=th.board_edge, width=3 * s, joint="curve")

    # Heading over the plot, with the stone of seat 1.
    f_head = font(30 * s, "bold")
    r = 13 * s
    _outlined_stone(im, d, th, colours[1], r, x0 + r, 46 * s, th.frame, s)
    room = x1 - x0 - 2 * r - 12 * s
    lead, tail = text.heading  # a long name is shortened, never the words around it
    head = lead + _fit(d, names[1], f_head, room - _len(d, lead + tail, f_head)) + tail
    _text(d, (x0 + 2 * r + 12 * s, 46 * s), _fit(d, head, f_head, room), f_head, th.text, "lm")

    # The swings: thick accent segment, numbered badge, the move as label (its chances are
    # in the panel, in the mover's own terms: one perspective per number on the picture).
    f_label = font(22 * s, "medium")
    f_badge = font(20 * s, "bold")
    rb = 15 * s
    marks = _swing_marks(d, review, [w.label for w in text.swings], pts, (x0, y0, x1, y1), s)
    for *_, (a, b) in marks:
        d.line((a, b), fill=th.halo_edge, width=11 * s)
        d.line((a, b), fill=th.accent, width=6 * s)
    for _, _, bx, by, _box, (_a, b) in marks:  # a badge moved off its point: a leader to it
        if (bx, by) != b:
            d.line((b, (bx, by)), fill=th.halo_edge, width=5 * s)
            d.line((b, (bx, by)), fill=th.accent, width=2 * s)
    # leaders from badge to label, then the labels, then the badges over everything
    for _, _, bx, by, box, _seg in marks:
        d.line((bx, by, (box[0] + box[2]) / 2, (box[1] + box[3]) / 2), fill=th.accent, width=2 * s)
    for _, label, _, _, box, _seg in marks:
        d.rounded_rectangle(box, radius=8 * s, fill=th.panel, outline=th.accent, width=2 * s)
        _text(d, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), label, f_label, th.text, "mm")
    for k, _, bx, by, _box, _seg in marks:
        d.ellipse((bx - rb - 2 * s, by - rb - 2 * s, bx + rb + 2 * s, by + rb + 2 * s), fill=th.halo_edge)
        d.ellipse((bx - rb, by - rb, bx + rb, by + rb), fill=th.accent)
        _text(d, (bx, by), str(k), f_badge, th.halo_edge, "mm")


def _curve(review: ChartReview, plot: Box) -> list[Point]:
    """The points of seat 1's chances (start, then after each move) on ``plot`` (pixels)."""
    x0, y0, x1, y1 = plot
    values = [review.start] + [p.after for p in review.plies]
    n = max(1, len(values) - 1)
    return [(x0 + (x1 - x0) * i / n, y1 - (y1 - y0) * v) for i, v in enumerate(values)]


def _swing_marks(d: ImageDraw.ImageDraw, review: ChartReview, labels: Sequence[str], pts: Sequence[Point],
                 plot: Box, s: int) -> list[_Mark]:
    """Each drawable swing as ``(number, label, badge x, badge y, label box, segment)`` in the
    drawing's pixels (``s`` times the output). A badge sits on the point after its move, or,
    where that would cover an earlier badge (swings on neighbouring moves of a long game), at
    the nearest free spot (:func:`_free_badge`; a leader joins it to its point); the label
    (``"23. f6"``) is placed clear of every other label and badge (:func:`_place_label`)."""
    f_label = font(22 * s, "medium")
    rb = 15 * s
    n = len(pts) - 1
    marks: list[tuple[int, str, float, float, tuple[Point, Point]]] = []
    badges: list[Box] = []
    for k, (sw, label) in enumerate(zip(review.swings, labels, strict=True), 1):
        i = sw.ply
        if not 1 <= i <= n:
            continue
        bx, by = _free_badge(*pts[i], badges, rb, plot, s)
        badges.append((bx - rb - 3 * s, by - rb - 3 * s, bx + rb + 3 * s, by + rb + 3 * s))
        marks.append((k, label, bx, by, (pts[i - 1], pts[i])))
    boxes: list[Box] = []
    for _, label, bx, by, _ in marks:
        boxes.append(_place_label(d, label, f_label, bx, by, rb, boxes, badges, plot, s))
    return [(k, label, bx, by, box, seg) for (k, label, bx, by, seg), box in zip(marks, boxes, strict=True)]


def _free_badge(x: float, y: float, badges: Sequence[Box], rb: float, plot: Box, s: int) -> Point:
    """Where the badge of the point ``(x, y)`` goes: on it if clear of ``badges``, else the
    nearest spot inside ``plot`` (moved in whole badge steps) that is."""
    x0, y0, x1, y1 = plot
    step = 2 * rb + 8 * s
    tries = sorted(((dx, dy) for dx in range(-3, 4) for dy in range(-6, 7)),
                   key=lambda t: (abs(t[0]) + abs(t[1]), abs(t[0]), t))
    for dx, dy in tries:
        bx, by = x + dx * step, y + dy * step
        if not (x0 + rb <= bx <= x1 - rb and y0 + rb <= by <= y1 - rb) and (dx, dy) != (0, 0):
            continue
        box = (bx - rb - 3 * s, by - rb - 3 * s, bx + rb + 3 * s, by + rb + 3 * s)
        if not any(_overlap(box, o) for o in badges):
            return bx, by
    return x, y


def swing_label_boxes(review: ChartReview) -> list[Box]:
    """The pixel boxes ``(x0, y0, x1, y1)`` of the swings' move labels on the plot of
    :func:`render_review_image` (at :data:`CHART_SIZE`), in the order of ``review.swings``
    (swings outside the game's moves left out)."""
    return [label for label, _badge in swing_boxes(review)]


def swing_boxes(review: ChartReview, labels: Sequence[str] | None = None) -> list[tuple[Box, Box]]:
    """``(label box, badge box)`` of each swing drawn on the plot of
    :func:`render_review_image`, in output pixels ``(x0, y0, x1, y1)``, in the order of
    ``review.swings`` (swings outside the game's moves left out); ``labels``: the swings'
    labels as drawn (:attr:`renderers.words.SwingText.label`; None: the English default's)."""
    if labels is None:
        labels = [english.swing_label(sw) for sw in review.swings]
    d = ImageDraw.Draw(Image.new("L", (1, 1)))
    x0, y0, x1, y1 = _PLOT
    plot = (x0 * _S, y0 * _S, x1 * _S, y1 * _S)
    rb = 15 * _S

    def output(b: Box) -> Box:  # drawing pixels to output pixels
        return (b[0] / _S, b[1] / _S, b[2] / _S, b[3] / _S)

    out = []
    for *_, bx, by, box, _seg in _swing_marks(d, review, labels, _curve(review, plot), plot, _S):
        badge = (bx - rb, by - rb, bx + rb, by + rb)
        out.append((output(box), output(badge)))
    return out


def _place_label(d: ImageDraw.ImageDraw, label: str, f: ImageFont.FreeTypeFont, bx: float, by: float,
                 rb: float, placed: list[Box], badges: list[Box], plot: Box, s: int) -> Box:
    """A box for ``label`` near the badge at ``(bx, by)``, inside ``plot``, clear of the
    boxes in ``placed`` and ``badges``: tried ever further above and below the badge (the
    roomier side first), also shifted left and right; failing that, the free spot of the
    plot nearest the badge (a leader line joins them); only a plot too full for any free
    spot gets the first try, overlapping."""
    x0, y0, x1, y1 = plot
    tw = _len(d, label, f) + 20 * s
    h = 34 * s
    gap = 12 * s
    first = 1 if by < (y0 + y1) / 2 else -1   # below a high point, above a low one
    fallback: Box | None = None

    def free(box: Box) -> bool:
        return not any(_overlap(box, o) for o in placed + badges)

    for step in range(12):
        for sign in (first, -first):
            off = rb + gap + step * (h / 2 + 4 * s)
            ly = by + off if sign > 0 else by - off - h
            if ly < y0 + 4 * s or ly + h > y1 - 4 * s:
                continue
            for dx in (0.0, -0.6, 0.6, -1.2, 1.2):
                lx = min(max(bx - tw / 2 + dx * tw, x0 + 6 * s), x1 - tw - 6 * s)
                box = (lx, ly, lx + tw, ly + h)
                if fallback is None:
                    fallback = box
                if free(box):
                    return box
    spots: list[tuple[float, Box]] = []
    for ly in _steps(y0 + 4 * s, y1 - 4 * s - h, h / 2):
        for lx in _steps(x0 + 6 * s, x1 - 6 * s - tw, tw / 4):
            box = (lx, ly, lx + tw, ly + h)
            if free(box):
                spots.append((abs(lx + tw / 2 - bx) + abs(ly + h / 2 - by), box))
    if spots:
        return min(spots)[1]
    return fallback or (x0 + 6 * s, y0 + 4 * s, x0 + 6 * s + tw, y0 + 4 * s + h)


def _steps(a: float, b: float, step: float) -> list[float]:
    """``a``, ``a + step``, ... up to ``b`` (inclusive; ``[a]`` when ``b < a``)."""
    out = [a]
    while out[-1] + step <= b:
        out.append(out[-1] + step)
    return out


def _overlap(a: Box, b: Box) -> bool:
    return not (a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1])


def _dashed(d: ImageDraw.ImageDraw, x0: float, x1: float, y: float, fill: RGB, width: int, dash: float) -> None:
    x = x0
    while x < x1:
        d.line((x, y, min(x + dash, x1), y), fill=fill, width=width)
        x += dash * 1.8


def _draw_side(im: Image.Image, d: ImageDraw.ImageDraw, review: ChartReview, th: Theme, text: ChartText,
               names: Mapping[int, str], colours: Mapping[int, str], s: int) -> None:
    cx0, cy0, cx1, cy1 = (c * s for c in _CARD)
    pad = 22 * s
    x0, x1 = cx0 + pad, cx1 - pad
    width = x1 - x0
    y = cy0 + pad
    title = text.title
    f_title = _sized(d, title, (42, 40, 38, 36, 34, 32, 30, 28), s, "bold", width)
    _text(d, (x0, y + (42 * s - f_title.size) * 0.8), _fit(d, title, f_title, width), f_title, th.text)
    y += 54 * s
    sub = text.subtitle
    f_sub = font(23 * s)
    for line in _wrap(d, sub, f_sub, width)[:2]:
        _text(d, (x0, y), line, f_sub, th.text_dim)
        y += 30 * s
    y += 14 * s

    # Players with their stones (the fills of the plot).
    r = 18 * s
    f_name = font(28 * s, "bold")
    f_small = font(22 * s)
    for seat in (1, 2):
        _outlined_stone(im, d, th, colours[seat], r, x0 + r, y + r + 4 * s, th.panel, s)
        tx = x0 + 2 * r + 16 * s
        _text(d, (tx, y), _fit(d, names[seat], f_name, x1 - tx), f_name, th.text)
        _text(d, (tx, y + 34 * s), text.colours[colours[seat] == "white"], f_small, th.text_dim)
        y += 76 * s

    # The result.
    y += 4 * s
    h = text.headline
    head = f"{h.before}{names[h.subject.seat] if isinstance(h.subject, Name) else h.subject}{h.after}"
    reason = spell(text.detail, names)
    f_res = font(30 * s, "bold")
    _text(d, (x0, y), _fit(d, head, f_res, width), f_res, th.turn)
    y += 40 * s
    for line in _wrap(d, reason, f_small, width)[:3]:
        _text(d, (x0, y), line, f_small, th.text_dim)
        y += 28 * s
    y += 18 * s
    d.line((x0, y, x1, y), fill=th.panel_turn, width=2 * s)
    y += 18 * s

    # The swings, in the mover's own chances.
    f_h = font(28 * s, "bold")
    _text(d, (x0, y), text.turning_points, f_h, th.text)
    y += 44 * s
    if not review.swings:
        for line in _wrap(d, text.no_swings, f_small, width):
            _text(d, (x0, y), line, f_small, th.text_dim)
            y += 28 * s
        return
    f_move = font(24 * s, "bold")
    f_line = font(22 * s)
    rb = 15 * s
    tx = x0 + 2 * rb + 12 * s
    for k, words in enumerate(text.swings, 1):
        note = [words.note]
        if words.preferred:  # the move on a line of its own rather than split ("f6" / "g6")
            note = [f"{words.note} {words.preferred}"]
            if _len(d, note[0], f_line) > x1 - tx:
                note = [words.note, *_wrap(d, words.preferred, f_line, x1 - tx)]
        if y + 2 * rb + (8 + 28 + 28 * len(note)) * s > cy1 - pad:
            break
        d.ellipse((x0, y, x0 + 2 * rb, y + 2 * rb), fill=th.accent)
        _text(d, (x0 + rb, y + rb), str(k), font(20 * s, "bold"), th.halo_edge, "mm")
        # "move 6, Ann's e5": a long name is cut, never the move
        _text(d, (tx, y + rb), swing_heading(d, words, names, f_move, x1 - tx), f_move, th.text, "lm")
        y += 2 * rb + 8 * s
        # the mover's own chances before and after the move
        _text(d, (tx, y), _fit(d, words.chances, f_line, x1 - tx), f_line, th.text)
        y += 28 * s
        for line in note:  # wrapped, never cut: a Coil move of two stones reads whole
            _text(d, (tx, y), line, f_line, th.text_dim)
            y += 28 * s
        y += 14 * s


def swing_heading(d: ImageDraw.ImageDraw, words: SwingText, names: Mapping[int, str], f: ImageFont.FreeTypeFont,
                  width: float) -> str:
    """A swing's line (``words.heading``: ``"move 6, Ann's e5"``) with the mover's name cut
    with an ellipsis when the line would not fit ``width`` px in font ``f`` -- never the words
    around it; ``words.short`` (``"move 6, e5"``, cut if need be) when not even that fits."""
    h: Headline = words.heading
    name = names[h.subject.seat] if isinstance(h.subject, Name) else h.subject
    room = width - _len(d, h.before + h.after, f)
    if room < _len(d, "W…", f):
        return _fit(d, words.short, f, width)
    return h.before + _fit(d, name, f, room) + h.after
