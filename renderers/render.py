"""A position to an image: :func:`render_image`, :func:`render_png` and :func:`cell_centre`."""

from __future__ import annotations

import io
import math
import threading
from collections.abc import Iterable, Mapping, Sequence

from PIL import Image, ImageDraw

import engine

from . import english
from .board import base_image
from .fonts import font
from .layout import Layout, family_of, layout_for
from .panel import clean_name, draw_panel
from .sprites import paste, sprite
from .theme import Theme, get_theme
from .words import PanelText

__all__ = ["DEFAULT_WIDTH", "cell_centre", "encode_png", "image_size", "layout_of", "render_image", "render_png"]

#: Width of a PNG from :func:`render_png`, in pixels; its height follows from the board
#: (:func:`image_size`): the board takes the whole width, the panel is a strip below it.
DEFAULT_WIDTH = 1200
#: PNG compression: zlib level 1 without optimisation is several times faster than the
#: default and costs only a little size on these flat-coloured pictures.
PNG_OPTIONS = {"compress_level": 1, "optimize": False}
#: A board picture holds about 1,500 colours (flat fills and their anti-aliased edges), so
#: :func:`encode_png` stores it with a palette of this many: no pixel moves by more than a few
#: levels of 255, the file is half the size of the RGB one, and the encoding takes half the
#: time (Pillow tries all five PNG row filters on RGB data, none on palette data).
PALETTE_COLOURS = 256
#: :func:`encode_png` chooses the palette on every ``PALETTE_SAMPLE``-th pixel of every
#: ``PALETTE_SAMPLE``-th row (a quarter of them), then maps every pixel to its nearest entry:
#: the octree's pass over all pixels was two thirds of the encoding time, and the sample
#: holds the same flat fills and edge blends (the mapped picture is as close to the drawn one).
PALETTE_SAMPLE = 2
#: Drawing shares cached images and FreeType fonts, which are not safe to use from two
#: threads at once; the lock covers the few milliseconds of drawing, not the PNG encoding.
_DRAW_LOCK = threading.Lock()


def layout_of(position: engine.Position, width: int = DEFAULT_WIDTH, height: int | None = None) -> Layout:
    """The cached :class:`renderers.layout.Layout` used to draw ``position`` ``width`` px wide
    (``height`` None: as tall as its board needs)."""
    board = position.board
    return layout_for(family_of(position.kind, board), board.shape, board.size, width, height)


def image_size(position: engine.Position, width: int = DEFAULT_WIDTH) -> tuple[int, int]:
    """``(width, height)`` in px of the image :func:`render_png` makes of ``position``."""
    lay = layout_of(position, width)
    return lay.width, lay.height


def cell_centre(
    position: engine.Position, label: str, *, width: int = DEFAULT_WIDTH, height: int | None = None
) -> tuple[float, float]:
    """Pixel centre ``(x, y)`` (y down) of the cell or point ``label`` (e.g. ``"g7"``) in the
    image :func:`render_png` makes of ``position`` (or :func:`render_image` at this size).

    Raises :class:`engine.MoveError` when ``label`` is not a cell of the position's board.
    """
    cell = position.board.cell(label)
    return layout_of(position, width, height).centres[cell]


def _cells(board: engine.Board, labels: Iterable[str]) -> list[int]:
    out = []
    for lab in labels:
        try:
            out.append(board.cell(lab))
        except engine.MoveError:
            continue
    return out


def _names(players: Mapping[int, object] | None, unnamed: tuple[str, str]) -> dict[int, str]:
    """Seats 1 and 2 to the names the panel draws (:func:`renderers.panel.clean_name`;
    ``unnamed``: seat 1's and 2's when a name has no drawable letter)."""
    if players is not None and not isinstance(players, Mapping):
        raise TypeError("players must be a mapping {1: name, 2: name} or None")
    players = players or {}
    return {seat: clean_name(players.get(seat), unnamed[seat - 1]) for seat in (1, 2)}


def panel_words(position: engine.Position, text: PanelText | None, clock: object,
                clocks: Mapping[int, object] | None) -> PanelText:
    """``text``, or without it the English default of :mod:`renderers.english` for ``clock``
    and ``clocks``. Raises TypeError when ``text`` comes with ``clock`` or ``clocks`` (its
    own clock lines are drawn) or for a bad clock."""
    if text is None:
        return english.panel_text(position, clock, clocks)
    if not isinstance(text, PanelText):
        raise TypeError("text must be a renderers.PanelText or None")
    if clock is not None or clocks is not None:
        raise TypeError("give the clock lines in text, not as clock/clocks")
    return text


def render_image(
    position: engine.Position,
    *,
    players: Mapping[int, object] | None = None,
    text: PanelText | None = None,
    clock: object = None,
    clocks: Mapping[int, object] | None = None,
    theme: str = "default",
    cell_labels: bool = False,
    width: int = DEFAULT_WIDTH,
    height: int | None = None,
    markers: Sequence[tuple[int, str, str]] | None = None,
) -> Image.Image:
    """The picture of ``position`` as a Pillow RGB image ``width`` pixels wide.

    Arguments as :func:`render_png`; ``width`` scales everything (the GIF replay uses a
    smaller frame); ``height`` None makes the image as tall as the board needs
    (:func:`image_size`), else the board is fitted to ``height`` less the panel strip.
    Raises ValueError for an unknown theme, TypeError for bad ``players``/``text``/``clock``/``clocks``.
    """
    th = get_theme(theme)
    words = panel_words(position, text, clock, clocks)
    names = _names(players, words.unnamed)
    with _DRAW_LOCK:
        im = _draw(position, th, words, names, bool(cell_labels), width, height)
        if markers:
            _draw_markers(im, layout_of(position, width, height), position.board, th, markers)
        return im


def _draw(position: engine.Position, th: Theme, words: PanelText, names: Mapping[int, str],
          cell_labels: bool, width: int, height: int | None) -> Image.Image:
    board = position.board
    lay = layout_of(position, width, height)
    im = base_image(lay.family, board.shape, board.size, th.name, cell_labels, width, height).copy()
    radius = round(lay.radius, 1)
    hl = position.highlights
    stones = position.stones
    out = position.outcome
    over = out is not None
    cs = lay.centres

    # Under the stones: Coil's enclosed cells, bonds of the largest groups, winning halos.
    enclosed = _cells(board, hl.enclosed)
    if enclosed:
        tint = sprite("hextint" if lay.family == "hex" else "squaretint", 0, th.name, extra=round(lay.scale, 1))
        for c in enclosed:
            paste(im, tint, *cs[c])
    group_cells: set[int] = set()
    for labels in (hl.groups or {}).values():
        group_cells.update(_cells(board, labels))
    if group_cells:
        half = round(lay.scale / 2, 1)
        for c in group_cells:
            colour = stones.get(c)
            if colour is None:
                continue
            x, y = cs[c]
            for nb in board.neighbours[c]:
                if nb > c and nb in group_cells and stones.get(nb) == colour:
                    nx, ny = cs[nb]
                    angle = round(_angle(nx - x, y - ny))
                    paste(im, sprite("bond", half, th.name, colour, extra=angle), (x + nx) / 2, (y + ny) / 2)
    winning = set(_cells(board, hl.winning)) if over else set()
    # Stones that do not fade once the game is won: the structure, what it encloses, and the
    # rest of Whirlwind's winning groups (drawn plain; only one shortest path is ringed).
    keep = winning | set(enclosed) | set(_cells(board, hl.chain))
    haloed = set(winning)
    winner = out.winner if out is not None else None
    if haloed and hl.groups and winner is not None and winner in hl.groups:
        # The Corals: both largest groups score and stay bright (joined by bars, in their own
        # colour), but only the winner's carries the halo of the winning structure.
        haloed &= set(_cells(board, hl.groups[winner]))
    if haloed:
        halo = sprite("halo", radius, th.name)
        for c in sorted(haloed):  # a fixed order: overlapping halos layer the same every run
            if c in stones:
                paste(im, halo, *cs[c])
    for lab, colour in (hl.removed or {}).items():
        cells = _cells(board, [lab])
        if cells and colour in ("black", "white") and cells[0] not in stones:
            paste(im, sprite("ghost", radius, th.name, colour), *cs[cells[0]])

    # The stones; once a game is won on a structure, the rest fade so the structure stands out.
    for c, colour in stones.items():
        name = "faded" if winning and c not in keep else "stone"
        paste(im, sprite(name, radius, th.name, colour), *cs[c])

    # Marks on top: flipped stones (Io) and the last move.
    for c in _cells(board, hl.flipped):
        if c in stones:
            paste(im, sprite("dot", radius, th.name, stones[c]), *cs[c])
    for c in _cells(board, hl.placed):
        colour = stones.get(c)
        if colour is not None:
            paste(im, sprite("ring", radius, th.name, colour), *cs[c])

    draw_panel(im, lay, position, th, words, names)
    return im


def _draw_markers(im: Image.Image, lay: Layout, board: engine.Board, th: Theme,
                  markers: Sequence[tuple[int, str, str]]) -> None:
    """Numbered markers of a line of play (an analysis board's principal variation): for each
    ``(number, cell label, colour)`` a translucent disc of that stone colour on the cell with
    its number in the opposite colour. Labels that name no cell are skipped; a cell marked
    twice shows the later number."""
    overlay = Image.new("RGBA", im.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(overlay)
    r = lay.radius * 0.82
    shown: dict[int, tuple[int, str]] = {}
    for number, label, colour in markers:
        cells = _cells(board, [label])
        if cells and colour in ("black", "white"):
            shown[cells[0]] = (number, colour)
    for cell, (number, colour) in shown.items():
        x, y = lay.centres[cell]
        fill, rim = (th.black, th.black_rim) if colour == "black" else (th.white, th.white_rim)
        ink = th.white if colour == "black" else th.black
        draw.ellipse((x - r, y - r, x + r, y + r), fill=(*fill, 190), outline=(*rim, 255),
                     width=max(1, round(r / 9)))
        text = str(number)
        f = font(r * (1.15 if len(text) == 1 else 0.9), "bold")
        draw.text((x, y), text, font=f, fill=(*ink, 255), anchor="mm")
    im.paste(Image.alpha_composite(im.convert("RGBA"), overlay).convert("RGB"))


def _angle(dx: float, dy: float) -> float:
    return math.degrees(math.atan2(dy, dx)) % 180


def render_png(
    position: engine.Position,
    *,
    players: Mapping[int, object] | None = None,
    text: PanelText | None = None,
    clock: object = None,
    clocks: Mapping[int, object] | None = None,
    theme: str = "default",
    cell_labels: bool = False,
    markers: Sequence[tuple[int, str, str]] | None = None,
) -> bytes:
    """PNG bytes (1200 px wide, :func:`image_size`) showing ``position`` of any game: the
    board with its coordinates across the whole width and the panel below it.

    * ``position`` -- an :class:`engine.Position` (or any object with the same attributes).
    * ``players`` -- optional ``{1: name, 2: name}``; missing names show as "Player 1/2".
      Names are cleaned by :func:`renderers.panel.clean_name` (decorated letters folded, emoji
      dropped) and drawn in Roboto, Chinese/Japanese/Korean in the packaged Noto Sans CJK,
      other scripts in an installed fallback font, else transliterated.
    * ``players`` names that do not fit one line on the player's card take two (broken at a
      space where possible), and are cut with an ellipsis only beyond two lines.
    * ``text`` -- every word the panel draws, in the reader's language
      (:class:`renderers.words.PanelText`; the bot words it); None: the English default of
      :mod:`renderers.english`, with ``clock`` and ``clocks`` worded there. With ``text``,
      ``clock`` and ``clocks`` must be None (its own clock lines are drawn).
    * ``clock`` -- optional clock line in the game column (e.g. the time control, or the time
      left for the player to move): text shown as given (e.g. ``"2 days 4 h left"``), a
      :class:`datetime.timedelta` (time left) or a :class:`datetime.datetime` (the deadline,
      UTC), worded by :func:`renderers.english.clock_text`.
    * ``clocks`` -- optional time of each player, ``{seat: clock}`` for seats 1 and 2 (either
      may be missing; values as ``clock``: text, timedelta or datetime), drawn on that
      player's card under the name, as Little Golem shows both players' time; the player to
      move's clock is bold and in the turn colour, the other's regular and dimmed (at 550 px
      display width the text is 11-13 px high). Independent of ``clock``: pass both, either
      or neither.
    * ``theme`` -- a key of :data:`renderers.THEMES` (``"default"``, ``"light"``, ``"dark"``).
    * ``cell_labels`` -- print each empty cell's label faintly inside it.
    * ``markers`` -- optional numbered markers of a line of play (an analysis board's best
      line, issue 23): ``(number, cell label, colour)`` each, ``colour`` ``"black"`` or
      ``"white"`` (the stone that move places): a translucent disc of that colour with the
      number on it; plain data, so the picture stays a function of its arguments.

    Marks: the last move's stones carry a ring; stones flipped by it (Io) a small diamond;
    stones it removed (Branching Coral) leave a crossed ghost; Coil's enclosed cells are
    tinted; the Corals' largest groups are joined by bars; once a game is won, the winning
    stones get a halo (a dark accent band with a light edge) and the others fade (Whirlwind:
    one shortest edge-to-edge path of the winning chain is haloed, the rest of the chain
    stays plain; the Corals: both largest groups stay bright, only the winner's is haloed,
    and the panel gives each score's parts). Raises ValueError for an unknown theme, TypeError
    for bad ``players``, ``clock`` or ``clocks`` (not a mapping of seats 1 and 2).
    """
    im = render_image(position, players=players, text=text, clock=clock, clocks=clocks, theme=theme,
                      cell_labels=cell_labels, markers=markers)
    return encode_png(im)


def encode_png(im: Image.Image) -> bytes:
    """PNG bytes of ``im`` (an RGB picture from :func:`render_image`), with a palette of
    :data:`PALETTE_COLOURS` colours chosen by Pillow's fast octree on a sample of the pixels
    (:data:`PALETTE_SAMPLE`), each pixel mapped to its nearest entry without dithering, and
    zlib level 1 (:data:`PNG_OPTIONS`). Thread-safe: ``im`` is only read."""
    k = PALETTE_SAMPLE
    sample = im.resize((max(1, im.width // k), max(1, im.height // k)), Image.Resampling.NEAREST)
    palette = sample.quantize(PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    indexed = im.quantize(palette=palette, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    indexed.save(buf, "PNG", **PNG_OPTIONS)
    return buf.getvalue()
