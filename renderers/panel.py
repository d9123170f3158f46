"""The panel strip below the board: game, options, clock; both players; whose turn or the
result, phase, last move.

It words nothing: every word it draws comes in a :class:`renderers.words.PanelText`."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from functools import cache, lru_cache
from typing import NamedTuple

from anyascii import anyascii
from PIL import Image, ImageDraw, ImageFont

import engine

from .board import font
from .fonts import drawable, runs, stroke
from .layout import Layout
from .sprites import paste, sprite
from .theme import RGB, Theme
from .words import Headline, Name, PanelText, spell

__all__ = ["clock_lines", "clean_name", "draw_panel", "player_cards"]

#: A box in pixels, ``(x0, y0, x1, y1)``.
Box = tuple[float, float, float, float]

#: Unicode categories dropped from names: symbols and emoji, surrogates, private use,
#: unassigned, format and control characters.
_DROPPED = frozenset(("So", "Sk", "Cs", "Co", "Cn", "Cf", "Cc"))

#: Font sizes of the clock line, largest first (px at 1200 wide); the last is the panel's
#: smallest text size.
CLOCK_SIZES = (28, 26, 24, 22)
#: Font sizes tried for a player's name on one line, largest first (px at 1200 wide); then
#: on two lines (:data:`NAME_WRAP_SIZES`); only a name too long for two lines at the last
#: size is cut with an ellipsis.
NAME_SIZES = (34, 32, 30, 28, 26)
NAME_WRAP_SIZES = (30, 28, 26)
#: Font sizes of the line under a player's name (colour, or a Coral's score parts) and of a
#: player's clock on the card, largest first (px at 1200 wide; at 550 px display width the
#: clock is 12-13 px, 11 px only for a text too long for the others).
SUB_SIZES = (26, 24, 22, 20)
CARD_CLOCK_SIZES = (28, 26, 24)
#: Vertical gap between the rows of a player card and its least inner margin (px at 1200 wide).
ROW_GAP, CARD_MARGIN = 5, 6

def clean_name(name: object, unnamed: str) -> str:
    """A player name the panel can draw: never ``?`` (nor a missing-glyph box) for a letter.

    * NFKC folds mathematical and full-width letters (``"𝕯𝖆𝖗𝖐"`` -> ``"Dark"``,
      ``"ｆｕｌｌ"`` -> ``"full"``) and composes ordinary accents (``"ā"`` stays);
    * combining marks left on a letter after composing (``"ọ̀"`` in ``"Adébáyọ̀"``: no single
      character holds both) are kept, at most two on a letter; on a Latin, Greek or Cyrillic
      letter a stack of more than two (a "zalgo" stack) is dropped whole, and so are overlay
      marks (strike-throughs, combining class 1); on a letter of another script the first
      two stay;
    * symbols, emoji, controls and format characters are dropped, runs of spaces shrink;
    * letters neither Roboto nor an installed fallback font draws
      (:data:`renderers.fonts.FALLBACK_FACES`) are transliterated with ``anyascii``
      (``"山田太郎"`` -> ``"ShanTianTaiLang"`` where no CJK font is installed).

    An empty result becomes ``unnamed`` (e.g. ``"Player 2"``, as the caller words it).
    """
    kept: list[str] = []
    marks: list[str] = []  # the marks after the last letter kept, not yet settled
    plain_base = True
    for ch in unicodedata.normalize("NFKC", str(name or "")) + " ":
        cat = unicodedata.category(ch)
        if cat in ("Mn", "Me"):
            if kept and kept[-1] != " ":
                marks.append(ch)
            continue
        if not ch.isspace() and cat in _DROPPED:
            continue
        kept += _settled_marks(marks, plain_base)
        marks = []
        if ch.isspace():
            kept.append(" ")
        else:
            kept.append(ch)
            cp = ord(ch)
            plain_base = cp < 0x0530 or 0x1E00 <= cp < 0x2000
    out: list[str] = []
    for cluster in _clusters(unicodedata.normalize("NFC", "".join(kept))):
        if drawable(cluster[0]):
            out.append(cluster)
        else:  # the last resort, base and marks together: letters in ASCII, never "?"
            out.append(anyascii(cluster).replace("?", ""))
    text = " ".join("".join(out).split())
    return text or unnamed


def _settled_marks(marks: list[str], plain_base: bool) -> list[str]:
    """The combining marks kept of those left on one letter (see :func:`clean_name`):
    on a Latin, Greek or Cyrillic letter (``plain_base``) all but overlays when there are at
    most two, none of a longer stack; on another script's letter the first two."""
    if not plain_base:
        return marks[:2]
    if len(marks) > 2:
        return []
    return [m for m in marks if unicodedata.combining(m) != 1]


def _clusters(text: str) -> list[str]:
    """``text`` cut into a base character each with the combining marks (``M*``) after it."""
    out: list[str] = []
    for ch in text:
        if out and unicodedata.category(ch).startswith("M"):
            out[-1] += ch
        else:
            out.append(ch)
    return out


def _len(d: ImageDraw.ImageDraw, text: str, f: ImageFont.FreeTypeFont) -> float:
    """Width in pixels of ``text`` drawn by :func:`_text` in ``f`` (fallback faces included,
    an emboldened run's stroke too) on ``d``; cached (:func:`_width`)."""
    return _width(text, f, d.mode)


@lru_cache(maxsize=16384)
def _width(text: str, f: ImageFont.FreeTypeFont, mode: str) -> float:
    """:func:`_len` of ``text`` in ``f`` on a drawing of an image of mode ``mode``, measured
    once: fitting a panel measures the same names and lines again at each size, for every
    picture of a game (``f`` comes from the cached :func:`renderers.fonts.font`, so it is the
    same object each time)."""
    d = _measuring_draw(mode)
    return sum(d.textlength(t, font=g) + 2 * stroke(g) for t, g in runs(text, f))


@cache
def _measuring_draw(mode: str) -> ImageDraw.ImageDraw:
    """A drawing on a one-pixel image of ``mode``: Pillow measures text as it would draw it on
    any image of that mode."""
    return ImageDraw.Draw(Image.new(mode, (1, 1)))


def _text(d: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, font: ImageFont.FreeTypeFont,
          fill: tuple[int, ...], anchor: str = "la") -> None:
    """``d.text`` that draws the characters ``font`` (Roboto) lacks in an installed fallback
    face (:func:`renderers.fonts.runs`), the runs on one baseline; ``anchor`` as Pillow's,
    measured on ``font``."""
    parts = runs(text, font)
    if len(parts) == 1 and parts[0][1] is font:
        d.text(xy, text, font=font, fill=fill, anchor=anchor)
        return
    x, y = xy
    total = _len(d, text, font)
    x -= {"l": 0.0, "m": total / 2, "r": total}.get(anchor[0], 0.0)
    ascent, descent = font.getmetrics()
    y += {"a": ascent, "m": (ascent - descent) / 2, "s": 0.0, "d": -descent}.get(anchor[1], ascent)
    for t, g in parts:
        width = stroke(g)
        d.text((x + width, y), t, font=g, fill=fill, anchor="ls", stroke_width=width, stroke_fill=fill)
        x += d.textlength(t, font=g) + 2 * width


def _fit(d: ImageDraw.ImageDraw, text: str, f: ImageFont.FreeTypeFont, width: float) -> str:
    """``text`` cut with an ellipsis so it fits ``width`` pixels."""
    if _len(d, text, f) <= width:
        return text
    while text and _len(d, text + "…", f) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def _sized(d: ImageDraw.ImageDraw, text: str, sizes: tuple[int, ...], k: float, weight: str,
           width: float, wrap: bool = False) -> ImageFont.FreeTypeFont:
    """The font of the first of ``sizes`` (px at 1200 wide, times ``k``) at which ``text`` fits
    ``width`` pixels on one line; if none does, the last size -- or the first when the text
    will be wrapped anyway (``wrap``)."""
    for size in sizes:
        f = font(size * k, weight)
        if _len(d, text, f) <= width:
            return f
    return font(sizes[0] * k, weight) if wrap else f


def _headline(d: ImageDraw.ImageDraw, before: str, subject: str, after: str, f: ImageFont.FreeTypeFont,
              width: float) -> list[str]:
    """``before + subject + after`` (a :class:`renderers.words.Headline` spelled) on one line
    of ``width`` px if it fits, else ``before`` on a line, the subject on one line or two
    (:func:`_two_lines`) and ``after`` on the next (empty pieces take no line)."""
    whole = f"{before}{subject}{after}"
    if _len(d, whole, f) <= width:
        return [whole]
    return [line for line in (before.strip(), *_two_lines(d, subject, f, width), after.strip()) if line]


def _two_lines(d: ImageDraw.ImageDraw, text: str, f: ImageFont.FreeTypeFont, width: float) -> list[str]:
    """``text`` on one line of ``width`` px if it fits, else on two: broken at the space that
    keeps the longer line shortest, or -- where no space gives two lines that fit -- after
    as many characters as fit on the first (a word broken, or a name written without
    spaces); a second line still too long is cut with an ellipsis (then broken at the last
    space that fits, if any)."""
    if _len(d, text, f) <= width:
        return [text]
    words = text.split(" ")
    breaks = [(" ".join(words[:i]), " ".join(words[i:])) for i in range(1, len(words))]
    fitting = [pair for pair in breaks if max(_len(d, x, f) for x in pair) <= width]
    if fitting:
        return list(min(fitting, key=lambda pair: max(_len(d, x, f) for x in pair)))
    cut = 1
    while cut < len(text) and _len(d, text[: cut + 1].rstrip(), f) <= width:
        cut += 1
    first, rest = text[:cut].rstrip(), text[cut:].lstrip()
    spaced = [pair for pair in breaks if _len(d, pair[0], f) <= width]
    if _len(d, rest, f) > width and spaced:  # cut either way: keep the words whole
        first, rest = spaced[-1]
    return [first, _fit(d, rest, f, width)]


def _wrap(d: ImageDraw.ImageDraw, text: str, f: ImageFont.FreeTypeFont, width: float) -> list[str]:
    """``text`` in lines of ``width`` px, broken between words and at every newline."""
    if "\n" in text:
        return [line for part in text.split("\n") for line in _wrap(d, part, f, width)]
    lines: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if not line or _len(d, trial, f) <= width:
            line = trial
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return [_fit(d, ln, f, width) for ln in lines]


#: The panel strip's three columns, as shares of its inner width: the game (title, options,
#: clock), the two players, the state (whose turn or the result, phase, last move).
COLUMNS = (0.25, 0.42, 0.33)
def _geometry(lay: Layout) -> tuple[Box, list[tuple[float, float]], tuple[float, float]]:
    """The panel's card box, its columns ``[(x0, x1)] * 3`` and its text's ``(top, bottom)``, px."""
    k = lay.width / 1200
    px0, py0, px1, py1 = lay.panel_box
    card = (px0 + 14 * k, py0 + 2 * k, px1 - 14 * k, py1 - 14 * k)
    pad, gap = 20 * k, 30 * k
    inner = card[2] - card[0] - 2 * pad - 2 * gap
    cols = []
    x = card[0] + pad
    for share in COLUMNS:
        cols.append((x, x + share * inner))
        x += share * inner + gap
    return card, cols, (card[1] + pad, card[3] - pad)


def player_cards(lay: Layout) -> dict[int, tuple[float, float, float, float]]:
    """The box ``(x0, y0, x1, y1)`` in px of each seat's card in the panel of layout ``lay``
    (the highlighted area of the player to move; names, colour, clock and score stay inside)."""
    k = lay.width / 1200
    _card, cols, (top, bottom) = _geometry(lay)
    x0, x1 = cols[1]
    between = 10 * k
    card_h = (bottom - top + 2 * 4 * k - between) / 2
    y = top - 4 * k
    return {seat: (x0 - 10 * k, y + i * (card_h + between), x1 + 10 * k, y + i * (card_h + between) + card_h)
            for i, seat in enumerate((1, 2))}


def draw_panel(im: Image.Image, lay: Layout, position: engine.Position, th: Theme, text: PanelText,
               names: Mapping[int, str]) -> None:
    """Draw the panel of ``position`` into ``lay.panel_box`` of ``im`` (RGB, in place): a
    strip below the board in three columns (:data:`COLUMNS`).

    ``text`` holds every word drawn (:class:`renderers.words.PanelText`: title, options,
    clock line, headline, detail, the cards' lines and clocks, last move); ``names`` maps
    seats 1 and 2 to display names (already cleaned, :func:`clean_name`), drawn on the
    cards and wherever ``text`` names a seat. The player to move's card clock is bold and
    in the turn colour.
    """
    k = lay.width / 1200
    d = ImageDraw.Draw(im)
    card, cols, (top, bottom) = _geometry(lay)
    d.rounded_rectangle(card, radius=18 * k, fill=th.panel)
    _draw_game(im, d, cols[0], top, bottom, th, text, k)
    _draw_players(im, d, cols[1], top, bottom, position, th, text, names, k)
    _draw_state(d, cols[2], top, th, text, names, k)


def _draw_game(im: Image.Image, d: ImageDraw.ImageDraw, col: tuple[float, float], top: float,
               bottom: float, th: Theme, text: PanelText, k: float) -> None:
    """Column 1: the game's title and options, and the clock at the bottom."""
    title, options, clock = text.title, text.options, text.clock
    x0, x1 = col
    width = x1 - x0
    y = top
    f_title = _sized(d, title, (46, 44, 42, 40, 38, 36, 34, 32, 30, 28), k, "bold", width)
    size = f_title.size / k
    _text(d, (x0, y + (46 - size) * k * 0.8), _fit(d, title, f_title, width), font=f_title, fill=th.text)
    y += 58 * k
    f_small = _sized(d, options, (26, 25, 24, 23, 22), k, "regular", width, wrap=True)
    for line in _wrap(d, options, f_small, width)[:2]:
        _text(d, (x0, y), line, font=f_small, fill=th.text_dim)
        y += 33 * k
    if clock:
        cr = 13 * k
        room = width - 2 * cr - 12 * k
        f_clock, lines = clock_lines(d, clock, k, room)
        step = f_clock.size * 1.2
        last = bottom - 16 * k  # the centre of the last line
        cy = last - step * (len(lines) - 1) / 2
        cx = x0 + cr
        _clock_icon(d, cx, cy, cr, th.text, k)
        for i, line in enumerate(lines):
            _text(d, (cx + cr + 12 * k, last - step * (len(lines) - 1 - i)), line, font=f_clock,
                  fill=th.text, anchor="lm")


def _clock_icon(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, colour: RGB, k: float) -> None:
    """A small clock face of radius ``r`` px centred on ``(cx, cy)``."""
    w = max(1, round(2.5 * k * min(1.0, r / (13 * k))))
    d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=colour, width=w)
    d.line((cx, cy, cx, cy - r * 0.6), fill=colour, width=w)
    d.line((cx, cy, cx + r * 0.5, cy), fill=colour, width=w)


def _row_height(f: ImageFont.FreeTypeFont) -> float:
    """Height (px) a card row in font ``f`` takes: the font size (cap height, ascenders of
    CJK ideographs and descenders together stay within it)."""
    return f.size * 1.02


class CardRows(NamedTuple):
    """How a player card's rows are set (:func:`_card_rows`): the name's lines (one or two)
    and font, the line or two of the seat's sub line (colour, or a Coral's score parts) and
    its font, and the player's clock's line or two and font (``[]`` and None for no clock)."""

    name: list[str]
    name_font: ImageFont.FreeTypeFont
    sub: list[str]
    sub_font: ImageFont.FreeTypeFont
    clock: list[str]
    clock_font: ImageFont.FreeTypeFont | None


#: How a card's sub line or clock is set: ``(lines, font, whole)``; ``whole`` is False for
#: a text cut with an ellipsis where it is drawn.
_Setting = tuple[list[str], ImageFont.FreeTypeFont, bool]


def _break(d: ImageDraw.ImageDraw, text: str, f: ImageFont.FreeTypeFont, width: float,
           at: str) -> list[str] | None:
    """``text`` on two whole lines of ``width`` px, broken at one of its ``at`` (dropped at
    the break) where the longer line is shortest, or None where no break gives two lines that
    fit; a break at a space never leaves a ``"·"`` at either side of it."""
    parts = text.split(at)
    splits = [(at.join(parts[:i]), at.join(parts[i:])) for i in range(1, len(parts))]
    fitting = [pair for pair in splits if max(_len(d, x, f) for x in pair) <= width
               and not pair[0].endswith("·") and not pair[1].startswith("·")]
    if not fitting:
        return None
    return list(min(fitting, key=lambda pair: max(_len(d, x, f) for x in pair)))


def _settings(d: ImageDraw.ImageDraw, text: str | None, sizes: tuple[int, ...], k: float, weight: str,
              width: float) -> list[_Setting | None]:
    """The ways to set a card's sub line or clock ``text`` in ``width`` px, best first: one
    line at the largest of ``sizes`` (px at 1200 wide, times ``k``) it fits; where it fits at
    none, two whole lines at each of ``sizes`` they fit, largest first, broken at a ``" · "``
    between its parts (the dot dropped: ``"largest group 9 + 5 groups"``, ``"wins"``), then
    at a space (:func:`_break`; never inside a word); then one line at the last size, cut
    where drawn. ``[None]`` for no text."""
    if not text:
        return [None]
    f = _sized(d, text, sizes, k, weight, width)
    if _len(d, text, f) <= width:
        return [([text], f, True)]
    out: list[_Setting | None] = []
    for at in (" · ", " "):
        for size in sizes:
            g = font(size * k, weight)
            lines = _break(d, text, g, width, at)
            if lines is not None:
                out.append((lines, g, True))
    return [*out, ([text], f, False)]


def _block_height(rows: list[ImageFont.FreeTypeFont], k: float) -> float:
    """Height (px) of card rows in the fonts ``rows`` (one per row, top to bottom), the
    gaps between them included."""
    return sum(_row_height(f) for f in rows) + ROW_GAP * k * (len(rows) - 1)


def _cuts(*settings: _Setting | None) -> int:
    """How many of ``settings`` are cut with an ellipsis where drawn."""
    return sum(x is not None and not x[2] for x in settings)


def _card_rows(d: ImageDraw.ImageDraw, name: str, sub: str, clock: str | None, room: float, height: float,
               k: float) -> CardRows:
    """The rows of a player card ``room`` px wide and at most ``height`` px tall. The name
    takes one line at the largest of :data:`NAME_SIZES` down to the first of
    :data:`NAME_WRAP_SIZES` it fits, else two whole lines (:func:`_two_lines`) at the largest
    of :data:`NAME_WRAP_SIZES` they fit (while all rows fit ``height``, the rows under it
    smaller if need be), else one line at a smaller size; too long for that, two lines with
    the second cut with an ellipsis (one line where two do not fit ``height``).

    A sub line or clock too long for one line at its smallest size (:data:`SUB_SIZES`,
    :data:`CARD_CLOCK_SIZES`) takes two whole lines (:func:`_settings`) where the card's
    height allows it (the name then one line or two as above, as large as all rows fit,
    fewest texts cut first); else it is one line cut with an ellipsis where drawn."""
    icon = 2 * 11 * k + 9 * k
    sets = ((SUB_SIZES, CARD_CLOCK_SIZES), (SUB_SIZES[2:], CARD_CLOCK_SIZES[1:]))
    one_line = [font(size * k, "bold") for size in NAME_SIZES]
    wrap_first = NAME_WRAP_SIZES[0] * k - 0.5
    wrapped = sorted(((s, c) for subs, clocks in sets
                      for s in _settings(d, sub, subs, k, "regular", room)
                      for c in _settings(d, clock, clocks, k, "bold", room - icon)
                      if (s is not None and len(s[0]) == 2) or (c is not None and len(c[0]) == 2)),
                     key=lambda sc: _cuts(*sc))
    if wrapped:  # a sub line or clock too long for one line: two lines, where the card has room
        names = ([([name], f) for f in one_line if f.size >= wrap_first and _len(d, name, f) <= room]
                 + [(lines, f) for f in (font(size * k, "bold") for size in NAME_WRAP_SIZES)
                    for lines in [_two_lines(d, name, f, room)] if not lines[-1].endswith("…")]
                 + [([name], f) for f in one_line if f.size < wrap_first and _len(d, name, f) <= room])
        for cuts in (0, 1):
            for lines, f in names:
                for s, c in wrapped:
                    if s is None or _cuts(s, c) != cuts:
                        continue
                    fonts = [f] * len(lines) + [s[1]] * len(s[0]) + ([c[1]] * len(c[0]) if c else [])
                    if _block_height(fonts, k) <= height:
                        return CardRows(lines, f, s[0], s[1], c[0] if c else [], c[1] if c else None)
    lines, f_name, f_sub, f_clock = _plain_rows(d, name, sub, clock, room, height, k)
    return CardRows(lines, f_name, [sub], f_sub, [clock] if clock and f_clock else [], f_clock)


def _plain_rows(d: ImageDraw.ImageDraw, name: str, sub: str, clock: str | None, room: float, height: float,
                k: float) -> tuple[list[str], ImageFont.FreeTypeFont, ImageFont.FreeTypeFont,
                                   ImageFont.FreeTypeFont | None]:
    """:func:`_card_rows` with the sub line and clock on one line each (cut where drawn if
    too long): ``(name lines, name font, sub font, clock font or None)``."""
    icon = 2 * 11 * k + 9 * k
    variants = []  # (sub font, clock font, their height): as large as fit, then smaller
    for sub_sizes, clock_sizes in ((SUB_SIZES, CARD_CLOCK_SIZES), (SUB_SIZES[2:], CARD_CLOCK_SIZES[1:])):
        f_sub = _sized(d, sub, sub_sizes, k, "regular", room)
        f_clock = _sized(d, clock, clock_sizes, k, "bold", room - icon) if clock else None
        rest = _row_height(f_sub) + (_row_height(f_clock) + ROW_GAP * k if f_clock else 0.0)
        variants.append((f_sub, f_clock, rest))
    f_sub, f_clock, _rest = variants[0]
    one_line = [font(size * k, "bold") for size in NAME_SIZES]
    for f in one_line:
        if f.size >= NAME_WRAP_SIZES[0] * k - 0.5 and _len(d, name, f) <= room:
            return [name], f, f_sub, f_clock
    two = [(f, v) for f in (font(size * k, "bold") for size in NAME_WRAP_SIZES) for v in variants
           if 2 * _row_height(f) + 2 * ROW_GAP * k + v[2] <= height]
    for f, (f_sub2, f_clock2, _r) in two:  # two whole lines
        lines = _two_lines(d, name, f, room)
        if not lines[-1].endswith("…"):
            return lines, f, f_sub2, f_clock2
    for f in one_line:  # no room for two lines: one, smaller
        if _len(d, name, f) <= room:
            return [name], f, f_sub, f_clock
    if two:
        f, (f_sub2, f_clock2, _r) = two[-1]
        return _two_lines(d, name, f, room), f, f_sub2, f_clock2
    return [_fit(d, name, one_line[-1], room)], one_line[-1], f_sub, f_clock


def _draw_players(im: Image.Image, d: ImageDraw.ImageDraw, col: tuple[float, float], top: float,
                  bottom: float, position: engine.Position, th: Theme, panel: PanelText,
                  names: Mapping[int, str], k: float) -> None:
    """Column 2: a card per player: stone, name (one line or two), the seat's line of
    ``panel.subs`` (colour, or a Coral's score parts), the player's clock when
    ``panel.clocks`` has one for the seat (the mover's in bold, in the turn colour), score at
    the right."""
    x0, x1 = col
    out = position.outcome
    over = out is not None
    winner = out.winner if out is not None else None
    scores = position.scores
    f_score = font(44 * k, "bold")
    between = 10 * k
    card_h = (bottom - top + 2 * 4 * k - between) / 2
    y = top - 4 * k
    r_icon = 22 * k
    tx = x0 + 2 * r_icon + 20 * k  # where names start, right of the colour icon
    for seat in (1, 2):
        colour = position.colour(seat)
        focus = (position.to_move == seat) if not over else (winner == seat)
        box = (x0 - 10 * k, y, x1 + 10 * k, y + card_h)
        if focus:
            d.rounded_rectangle(box, radius=14 * k, fill=th.panel_turn)
            d.rounded_rectangle((box[0], y, box[0] + 7 * k, y + card_h), radius=3 * k, fill=th.turn)
        icon_x, icon_y = x0 + r_icon + 6 * k, y + card_h / 2
        if colour in ("black", "white"):
            paste(im, sprite("stone", round(r_icon, 1), th.name, colour), icon_x, icon_y)
        else:
            # Colour not yet decided (Coil Phase I): half black, half white.
            paste(im, sprite("stone", round(r_icon, 1), th.name, "white"), icon_x, icon_y)
            half = sprite("stone", round(r_icon, 1), th.name, "black")
            w = half.width
            im.paste(half.crop((0, 0, w // 2 + 1, w)), (round(icon_x - 0.5) - w // 2, round(icon_y - 0.5) - w // 2),
                     half.crop((0, 0, w // 2 + 1, w)))
        score_w = 0.0
        if scores is not None and seat in scores:
            text = str(scores[seat])
            score_w = _len(d, text, f_score) + 12 * k
            _text(d, (x1, y + card_h / 2), text, font=f_score, fill=th.text, anchor="rm")
        room = x1 - tx - score_w
        sub = panel.subs[seat - 1]
        clock = panel.clocks[seat - 1]
        card = _card_rows(d, names[seat], sub, clock, room, card_h - 2 * CARD_MARGIN * k, k)
        rows = ([(line, card.name_font, "name") for line in card.name]
                + [(line, card.sub_font, "sub") for line in card.sub])
        if card.clock_font is not None:  # a clock font only for a clock text
            rows += [(line, card.clock_font, "clock") for line in card.clock]
        block = _block_height([f for _t, f, _r in rows], k)
        ry = y + (card_h - block) / 2  # the top of the current row
        mover = not over and position.to_move == seat
        first_clock = True
        for text, f, role in rows:
            base = ry + 0.8 * f.size  # the row's baseline: the cap height and some above it
            if role == "name":
                _text(d, (tx, base), text, font=f, fill=th.text, anchor="ls")
            elif role == "sub":
                _text(d, (tx, base), _fit(d, text, f, room), font=f,
                      fill=th.turn if focus else th.text_dim, anchor="ls")
            else:
                ink = th.turn if mover else th.text_dim
                f_row = f if mover else font(f.size, "regular")
                cr = 11 * k
                if first_clock:  # the icon before the clock's first line; a second under the text
                    _clock_icon(d, tx + cr, base - 0.36 * f.size, cr, ink, k)
                    first_clock = False
                _text(d, (tx + 2 * cr + 9 * k, base), _fit(d, text, f_row, room - 2 * cr - 9 * k),
                      font=f_row, fill=ink, anchor="ls")
            ry += _row_height(f) + ROW_GAP * k
        y += card_h + between


def _draw_state(d: ImageDraw.ImageDraw, col: tuple[float, float], top: float, th: Theme,
                text: PanelText, names: Mapping[int, str], k: float) -> None:
    """Column 3: the headline (whose turn, or the result), the detail under it (the phase, or
    why the game ended), then the last move; names spelled from ``names``."""
    x0, x1 = col
    width = x1 - x0
    y = top
    f_line = font(26 * k)
    step = 33 * k
    head: Headline = text.headline
    subject = names[head.subject.seat] if isinstance(head.subject, Name) else head.subject
    f_head = _sized(d, f"{head.before}{subject}{head.after}", (38, 36, 34, 32), k, "bold", width)
    head_lines = _headline(d, head.before, subject, head.after, f_head, width)
    for line in head_lines:
        _text(d, (x0, y), line, font=f_head, fill=th.turn)
        y += 44 * k
    detail = spell(text.detail, names)
    for line in _wrap(d, detail, f_line, width)[: 5 - len(head_lines)]:  # 5 lines in all
        _text(d, (x0, y), line, font=f_line, fill=th.text)
        y += step
    y += 6 * k
    _text(d, (x0, y), _fit(d, text.move, f_line, width), font=f_line, fill=th.text_dim)


def clock_lines(d: ImageDraw.ImageDraw, text: str, k: float, room: float) -> tuple[ImageFont.FreeTypeFont, list[str]]:
    """The font and lines of the clock text in ``room`` px: one line at the largest of
    :data:`CLOCK_SIZES` (px at 1200 wide, times ``k``) it fits at, else two lines broken
    between words where the longer line is shortest, at the largest size both fit (so
    ``"due 27 Nov 13:13 UTC"`` reads whole, never below :data:`CLOCK_SIZES`' last size);
    only text too long even for that is cut with an ellipsis."""
    for size in CLOCK_SIZES[:3]:
        f = font(size * k, "medium")
        if _len(d, text, f) <= room:
            return f, [text]
    words = text.split()
    splits = [(" ".join(words[:i]), " ".join(words[i:])) for i in range(1, len(words))]
    for size in CLOCK_SIZES:
        f = font(size * k, "medium")
        fitting = [pair for pair in splits if max(_len(d, x, f) for x in pair) <= room]
        if fitting:
            best = min(fitting, key=lambda pair: max(_len(d, x, f) for x in pair))
            return f, list(best)
    f = font(CLOCK_SIZES[-1] * k, "medium")
    if not splits:
        return f, [_fit(d, text, f, room)]
    first = max((pair for pair in splits if _len(d, pair[0], f) <= room),
                key=lambda pair: len(pair[0]), default=splits[0])
    return f, [_fit(d, first[0], f, room), _fit(d, first[1], f, room)]
