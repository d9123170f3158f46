"""A tournament's standings as a picture: a table of rank, player, rating, points, tie-breaks
and games left.

:func:`render_standings_png` draws, :data:`STANDINGS_WIDTH` pixels wide (twice what Discord
shows in a channel, so the text stays sharp when Discord scales it to about 550 px):

* the title (the tournament's name and round, worded by the caller) on top, and a second line
  (``subtitle``, e.g. the game and the format) under it. A long title is fitted
  (:func:`title_lines`): a smaller size, then two lines broken between words, and only then
  the tournament's name (``title_name``) shortened at a word boundary with an ellipsis, the
  rest of the title (the round, the state) kept whole;
* a header row with the column words the caller gives (the texts layer words them: this
  module writes no sentence of its own);
* one row per player: rank, name (any script: characters Roboto lacks are drawn in a fallback
  face, :func:`renderers.fonts.runs`; a name too long for its column is cut with an
  ellipsis), rating, points, each tie-break value and games left, numbers right-aligned;
  rows alternate in two shades so a long table reads across; a row may carry a movement
  (``+1`` promoted, ``-1`` relegated in a league) shown as a small triangle beside the rank;
  the leader's rank is drawn in the accent colour;
* sections: consecutive rows with the same ``section`` label (a league's divisions, worded
  by the caller, e.g. "Division 1") are drawn under that label, each ranked on its own (its
  leader in the accent colour, its own movement marks); rows without a label form no section.

The frame is opaque and painted in one of the boards' themes (:data:`renderers.THEMES`), so
it reads on Discord's dark and light themes alike. The input is plain data
(:class:`StandingsRow`); only Pillow is used. Deterministic: the same rows give the same bytes.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from .fonts import font
from .panel import _fit, _len, _text, clean_name
from .theme import RGB, Theme, get_theme

__all__ = ["MAX_ROWS", "STANDINGS_WIDTH", "TITLE_SIZES", "StandingsHeader", "StandingsRow",
           "render_standings_image", "render_standings_png", "title_lines"]

#: Width of the picture in pixels (Discord shows it at about half, 550 px, in a channel).
STANDINGS_WIDTH = 1100
#: Most rows one picture draws (ValueError beyond: the caller pages a larger field); section
#: labels come on top of them.
MAX_ROWS = 64
#: Heights in pixels: the title block (a one-line title), the header row, a player's row, a
#: section's label, the margins; a title's second line adds :data:`_TITLE_LINE_H`.
_TITLE_H, _HEADER_H, _ROW_H, _SECTION_H, _MARGIN = 112, 52, 50, 50, 28
_TITLE_LINE_H = 42
#: Sizes of the fonts in pixels.
_TITLE_SIZE, _SUBTITLE_SIZE, _HEADER_SIZE, _ROW_SIZE, _SECTION_SIZE = 40, 26, 24, 29, 28
#: Sizes tried for the title on one line, largest first; the last is also the size of a
#: title on two lines (at 550 px display width: 20 px, then 18 and 16).
TITLE_SIZES = (40, 36, 32)
#: Gap in pixels between two columns.
_GAP = 26


@dataclass(frozen=True)
class StandingsRow:
    """One player's line of the table.

    * ``rank`` -- 1 for the leader (players level on everything may share a rank);
    * ``name`` -- the player's display name, any script (cleaned as the boards' names are:
      :func:`renderers.panel.clean_name`);
    * ``rating`` -- the rating shown, already as text (``"1523"``, ``"1500?"``, ``""`` for none);
    * ``points`` -- points scored (a win 1, a draw or a bye as the rules count it);
    * ``tie_breaks`` -- the tie-break values, in the order of the header's ``tie_breaks``;
    * ``games_left`` -- games still to play;
    * ``movement`` -- ``+1`` promoted, ``-1`` relegated (a league's final standings), ``0`` none;
    * ``section`` -- the label of the section the row is drawn in (a league's division,
      e.g. ``"Division 2"``), ``""`` for none; rows of one section come one after another.
    """

    rank: int
    name: str
    rating: str
    points: float
    tie_breaks: tuple[float, ...] = ()
    games_left: int = 0
    movement: int = 0
    section: str = ""


@dataclass(frozen=True)
class StandingsHeader:
    """The words of the header row, given by the caller (worded in :mod:`bot.texts`):
    ``rank``, ``player``, ``rating``, ``points``, one short word per tie-break
    (``tie_breaks``, e.g. ``("SB",)`` or ``("Buch", "Med")``) and ``games_left``."""

    rank: str
    player: str
    rating: str
    points: str
    tie_breaks: tuple[str, ...]
    games_left: str


def number_text(value: float) -> str:
    """A score as the table shows it: ``3``, ``2.5``, ``10.25`` (no trailing zeros)."""
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.2f}".rstrip("0").rstrip(".")


def render_standings_image(rows: Sequence[StandingsRow], header: StandingsHeader, *, title: str,
                           subtitle: str = "", theme: str | Theme = "default",
                           title_name: str = "") -> Image.Image:
    """The standings table as an RGB image, :data:`STANDINGS_WIDTH` wide and as tall as its
    title, rows and section labels need (``_TITLE_H + _HEADER_H + len(rows) * _ROW_H``
    plus margins, plus :data:`_SECTION_H` per section and :data:`_TITLE_LINE_H` for a
    title on two lines). ``title_name``: the part of ``title`` that may be shortened when
    it does not fit (the tournament's name; :func:`title_lines`).

    Raises ValueError when ``rows`` is empty or longer than :data:`MAX_ROWS` (page it), or a
    row's tie-breaks do not match the header's; ValueError for an unknown theme name.
    """
    if not rows:
        raise ValueError("no rows: a standings table needs at least one player")
    if len(rows) > MAX_ROWS:
        raise ValueError(f"{len(rows)} rows: at most {MAX_ROWS} in one picture, page the rest")
    for row in rows:
        if len(row.tie_breaks) != len(header.tie_breaks):
            raise ValueError(f"row {row.rank} has {len(row.tie_breaks)} tie-breaks, the header "
                             f"{len(header.tie_breaks)}")
    th = get_theme(theme)
    measure = ImageDraw.Draw(Image.new("RGB", (8, 8)))
    f_title, lines = title_lines(measure, title, title_name)
    labels = _section_starts(rows)
    top = _MARGIN + _TITLE_H + (len(lines) - 1) * _TITLE_LINE_H
    height = top + _HEADER_H + len(rows) * _ROW_H + len(labels) * _SECTION_H + _MARGIN
    im = Image.new("RGB", (STANDINGS_WIDTH, height), th.frame)
    d = ImageDraw.Draw(im)
    d.rectangle((0, 0, STANDINGS_WIDTH - 1, height - 1), outline=th.border, width=2)
    _draw_title(d, th, f_title, lines, subtitle)
    columns = _columns(d, rows, header)
    f_head = font(_HEADER_SIZE, "medium")
    d.rounded_rectangle((_MARGIN, top, STANDINGS_WIDTH - _MARGIN, top + _HEADER_H - 6), radius=8,
                        fill=th.panel_turn)
    cells = [header.rank, header.player, header.rating, header.points, *header.tie_breaks, header.games_left]
    for (x0, x1, align), word in zip(columns, cells, strict=True):
        _cell(d, (x0, x1, align), top + (_HEADER_H - 6) / 2, word, f_head, th.text)
    f_row, f_bold, f_section = font(_ROW_SIZE), font(_ROW_SIZE, "bold"), font(_SECTION_SIZE, "bold")
    y = top + _HEADER_H
    shade = 0  # rows since the last section label: the shading restarts under each
    for i, row in enumerate(rows):
        if i in labels:
            _draw_section(d, th, row.section, y, f_section)
            y += _SECTION_H
            shade = 0
        if shade % 2 == 0:
            d.rounded_rectangle((_MARGIN, y, STANDINGS_WIDTH - _MARGIN, y + _ROW_H - 4), radius=8, fill=th.panel)
        mid = y + (_ROW_H - 4) / 2
        values = [str(row.rank), clean_name(row.name, f"#{row.rank}"), row.rating, number_text(row.points),
                  *(number_text(v) for v in row.tie_breaks), str(row.games_left)]
        for c, (column, value) in enumerate(zip(columns, values, strict=True)):
            colour = th.text if c in (0, 1, 3) else th.text_dim
            if c == 0 and row.rank == 1:
                colour = th.turn
            _cell(d, column, mid, value, f_bold if c in (1, 3) and row.rank == 1 or c == 3 else f_row, colour)
        if row.movement:
            _triangle(d, columns[0][0], mid, up=row.movement > 0, th=th)
        y += _ROW_H
        shade += 1
    return im


def render_standings_png(rows: Sequence[StandingsRow], header: StandingsHeader, *, title: str,
                         subtitle: str = "", theme: str | Theme = "default", title_name: str = "") -> bytes:
    """PNG bytes of :func:`render_standings_image` (same arguments and errors)."""
    buf = io.BytesIO()
    render_standings_image(rows, header, title=title, subtitle=subtitle, theme=theme,
                           title_name=title_name).save(buf, "PNG", compress_level=6)
    return buf.getvalue()


def _section_starts(rows: Sequence[StandingsRow]) -> set[int]:
    """The indices of the rows that open a labelled section (the first of a run of rows
    with the same non-empty ``section``)."""
    return {i for i, row in enumerate(rows) if row.section and (i == 0 or rows[i - 1].section != row.section)}


def _draw_section(d: ImageDraw.ImageDraw, th: Theme, label: str, y: float, f: ImageFont.FreeTypeFont) -> None:
    """A section's label on the band from ``y`` (``_SECTION_H`` tall): bold, left, on a thin
    rule that runs to the right edge."""
    mid = y + _SECTION_H / 2 + 2
    x = _MARGIN + 14
    text = _fit(d, clean_name(label, ""), f, STANDINGS_WIDTH / 2)
    _text(d, (x, mid), text, f, th.text, anchor="lm")
    rule_x = x + _len(d, text, f) + 18
    d.line((rule_x, mid, STANDINGS_WIDTH - _MARGIN - 14, mid), fill=th.text_dim, width=2)


def title_lines(d: ImageDraw.ImageDraw, title: str, name: str = "", width: float = STANDINGS_WIDTH - 2 * _MARGIN - 8
                ) -> tuple[ImageFont.FreeTypeFont, list[str]]:
    """The title fitted to ``width`` pixels: the bold font it is drawn in and its lines (one
    or two). In order: one line at the first of :data:`TITLE_SIZES` it fits; two lines
    broken between words at the last size (after the tournament's ``name`` where that
    fits, else as late as fits); and only then ``name`` (a part of ``title``) shortened
    word by word, an ellipsis after the last word kept (a name of one long word: cut
    letter by letter), every other word of the title kept whole. Without ``name`` (or
    ``name`` not in ``title``) the title's end is cut at a word boundary instead. The
    title and name are cleaned as names are (:func:`renderers.panel.clean_name`)."""
    title, name = clean_name(title, ""), clean_name(name, "")
    for size in TITLE_SIZES:
        f = font(size, "bold")
        if _len(d, title, f) <= width:
            return f, [title]
    lines = _two_lines(d, title, name, f, width)
    if lines:
        return f, lines
    start = title.find(name) if name else -1
    if start < 0:  # nothing marked as the name: cut the end of the title at a word
        start, name = 0, title
    head, tail = title[:start], title[start + len(name):]
    words = name.split(" ")
    shorter = [" ".join(words[:k]) for k in range(len(words) - 1, 0, -1)]
    shorter += [name[:k] for k in range(len(words[0]) - 1, 0, -1)] if len(words) == 1 else []
    for strict in (True, False):  # the rest of the title on a line of its own if it can be
        for part in shorter:
            short = part.rstrip(" ,;:·—–-") + "…"
            lines = _two_lines(d, head + short + tail, short, f, width, strict=strict)
            if lines:
                return f, lines
    return f, [_fit(d, title, f, width)]  # not even one letter of the name fits: cut the end


def _two_lines(d: ImageDraw.ImageDraw, text: str, name: str, f: ImageFont.FreeTypeFont, width: float, *,
               strict: bool = False) -> list[str] | None:
    """``text`` on two lines of ``width`` px broken at a space, ``None`` when no break fits.
    The break: after ``name`` (at the first space there that a word -- not a dash alone --
    follows) when both lines fit; else just before ``name``; else (unless ``strict``) the
    latest that fits."""
    spaces = [i for i, ch in enumerate(text) if ch == " "]
    fits = [i for i in spaces if _len(d, text[:i], f) <= width and _len(d, text[i + 1:], f) <= width]
    if not fits:
        return None
    start = text.find(name) if name else -1
    after = [i for i in fits if start >= 0 and i >= start + len(name)
             and any(ch.isalnum() for ch in text[i + 1:].split(" ")[0])]
    before = [i for i in fits if 0 <= i < start]
    if strict and not (after or before):
        return None
    i = after[0] if after else before[-1] if before else fits[-1]
    return [text[:i].rstrip(), text[i + 1:].lstrip()]


def _draw_title(d: ImageDraw.ImageDraw, th: Theme, f_title: ImageFont.FreeTypeFont, lines: list[str],
                subtitle: str) -> None:
    """The title's lines (fitted by :func:`title_lines`) and the subtitle under them."""
    room = STANDINGS_WIDTH - 2 * _MARGIN - 8
    lift = (_TITLE_SIZE - f_title.size) / 2 if len(lines) == 1 else 0  # a smaller line: centred on its band
    for k, line in enumerate(lines):
        _text(d, (_MARGIN + 4, _MARGIN + 6 + lift + k * _TITLE_LINE_H), line, f_title, th.text)
    if subtitle:
        f_sub = font(_SUBTITLE_SIZE)
        _text(d, (_MARGIN + 4, _MARGIN + 62 + (len(lines) - 1) * _TITLE_LINE_H), _fit(d, subtitle, f_sub, room),
              f_sub, th.text_dim)


#: A column: its left and right edges in pixels and its alignment (``"l"`` or ``"r"``).
_Column = tuple[float, float, str]


def _columns(d: ImageDraw.ImageDraw, rows: Sequence[StandingsRow], header: StandingsHeader) -> list[_Column]:
    """The columns' edges: the numeric ones as wide as their widest entry (header or value),
    the name column taking what is left (at least a third of the width)."""
    f_head, f_bold = font(_HEADER_SIZE, "medium"), font(_ROW_SIZE, "bold")

    def width(word: str, values: list[str]) -> float:
        return max([_len(d, word, f_head), *(_len(d, v, f_bold) for v in values)])

    rank_w = width(header.rank, [str(r.rank) for r in rows]) + 30  # room for a movement mark
    numeric = [width(header.rating, [r.rating for r in rows]),
               width(header.points, [number_text(r.points) for r in rows]),
               *(width(word, [number_text(r.tie_breaks[i]) for r in rows])
                 for i, word in enumerate(header.tie_breaks)),
               width(header.games_left, [str(r.games_left) for r in rows])]
    left, right = _MARGIN + 14, STANDINGS_WIDTH - _MARGIN - 14
    name_w = right - left - rank_w - _GAP - sum(w + _GAP for w in numeric)
    if name_w < STANDINGS_WIDTH / 3:  # too many or too wide columns: share what is left
        raise ValueError("the table's numeric columns leave too little room for the names")
    out: list[_Column] = [(left, left + rank_w, "r")]
    x = left + rank_w + _GAP
    out.append((x, x + name_w, "l"))
    x += name_w
    for w in numeric:
        x += _GAP
        out.append((x, x + w, "r"))
        x += w
    return out


def _cell(d: ImageDraw.ImageDraw, column: _Column, mid: float, value: str, f: ImageFont.FreeTypeFont,
          colour: RGB) -> None:
    """``value`` in ``column``, centred on ``mid`` vertically, cut to the column's width."""
    x0, x1, align = column
    value = _fit(d, value, f, x1 - x0)
    if align == "r":
        _text(d, (x1, mid), value, f, colour, anchor="rm")
    else:
        _text(d, (x0, mid), value, f, colour, anchor="lm")


def _triangle(d: ImageDraw.ImageDraw, x: float, mid: float, *, up: bool, th: Theme) -> None:
    """A small triangle with its left point at ``x``: pointing up (promoted, in the turn
    colour) or down (relegated, in the accent colour)."""
    s = 9
    if up:
        d.polygon([(x, mid + s * 0.7), (x + 2 * s, mid + s * 0.7), (x + s, mid - s * 0.9)], fill=th.turn)
    else:
        d.polygon([(x, mid - s * 0.7), (x + 2 * s, mid - s * 0.7), (x + s, mid + s * 0.9)],
                  fill=th.accent if not th.dark_frame else th.text_dim)
