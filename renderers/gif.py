"""Animated replay of a whole game: :func:`render_gif`.

Each frame is the same picture :func:`renderers.render_image` draws, at a smaller size, with
the last move marked. Frames are mapped to one fixed palette (made once from the first and
last frames), and every frame after the first stores only the rectangle that changed, with
unchanged pixels in it set to a transparent index -- so a long game costs a few kilobytes a
move. Frames are encoded one by one as they are drawn; memory stays at two frames.
"""

from __future__ import annotations

import io
import struct
from collections.abc import Iterable, Iterator, Mapping, Sequence

from PIL import GifImagePlugin, Image, ImageChops

import engine

from .render import render_image
from .words import PanelText

__all__ = ["GIF_WIDTH", "render_gif"]

#: Frame width of a replay, in pixels (60 % of the PNG's: about as many pixels per frame as
#: the earlier 900x675 frames); the height follows from the board as in
#: :func:`renderers.render.image_size`. Shown 550 px wide, the frames keep the PNG's
#: legibility (coordinates and rings are sized for the display width, whatever the width).
GIF_WIDTH = 720
#: Palette index left unused by the frames and declared transparent in delta frames.
TRANSPARENT = 255
#: How long the first frame, each move and the final position stay on screen (ms).
FIRST_MS, FINAL_MS = 1200, 5000
MOVE_MS_RANGE = (250, 900)
#: Total length the per-move time aims at, before clamping to MOVE_MS_RANGE (ms).
TARGET_MS = 60_000


def _positions(kind: str, options: Mapping[str, object] | None, moves: Iterable[str]) -> Iterator[engine.Position]:
    pos = engine.new_game(kind, **dict(options or {}))
    yield pos
    for i, mv in enumerate(moves, 1):
        try:
            pos = pos.play(mv)
        except (engine.MoveError, engine.IllegalMove) as e:
            raise e.at_move(i, mv) from None
        yield pos


def _palette(first: Image.Image, last: Image.Image) -> Image.Image:
    """A P-mode image carrying 255 colours that suit both frames; index 255 stays unused."""
    w, h = first.size
    sample = Image.new("RGB", (w * 2, h))
    sample.paste(first, (0, 0))
    sample.paste(last, (w, 0))
    q = sample.quantize(255, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    pal = (q.getpalette() or [])[: 255 * 3]
    pal += [0, 0, 0] * (255 - len(pal) // 3)
    pal += [255, 0, 255]  # the reserved index: a colour no picture uses
    out = Image.new("P", (1, 1))
    out.putpalette(pal)
    return out


def _frame_bytes(im: Image.Image, offset: tuple[int, int], duration: int, delta: bool) -> bytes:
    params = {"duration": duration, "disposal": 1}
    if delta:
        params["transparency"] = TRANSPARENT
    return b"".join(GifImagePlugin.getdata(im, offset=offset, **params))


def render_gif(
    kind: str,
    options: Mapping[str, object] | None,
    moves: Iterable[str],
    *,
    players: Mapping[int, object] | None = None,
    theme: str = "default",
    texts: Sequence[PanelText] | None = None,
) -> bytes:
    """An animated GIF (looping) replaying the game ``kind`` with ``options`` move by move.

    One frame for the starting position and one per move in ``moves`` (move strings as
    :meth:`engine.Position.play` takes them), each with the last move marked and the panel
    showing move number, turn or result; :data:`GIF_WIDTH` pixels wide. The first frame shows for
    1.2 s, each move for 0.25-0.9 s (shorter in long games, about a minute in all) and the
    final frame for 5 s. ``players`` and ``theme`` as :func:`renderers.render_png`;
    ``texts``: the panel's words of every frame (:class:`renderers.words.PanelText`, one per
    position: the start, then after each move), None for the English default.

    Raises GameError / OptionError for a bad game or options and MoveError / IllegalMove
    (message prefixed with the move number) for a move that does not play; ValueError for
    an unknown theme or ``texts`` of another length than the frames.
    """
    moves = list(moves)
    positions = list(_positions(kind, options, moves))  # positions are small; frames are not
    words = list(texts) if texts is not None else [None] * len(positions)
    if len(words) != len(positions):
        raise ValueError(f"texts gives {len(words)} panels for {len(positions)} frames")
    w = GIF_WIDTH

    def draw(i: int) -> Image.Image:
        return render_image(positions[i], players=players, text=words[i], theme=theme, width=w)

    first = draw(0)
    h = first.height
    pal = _palette(first, draw(len(positions) - 1))
    per_move = max(MOVE_MS_RANGE[0], min(MOVE_MS_RANGE[1], TARGET_MS // max(1, len(moves))))
    per_move = per_move // 10 * 10

    out = io.BytesIO()
    palette = pal.getpalette()
    assert palette is not None  # _palette gave it one
    palette_bytes = bytes(palette[: 256 * 3])
    out.write(b"GIF89a" + struct.pack("<HHBBB", w, h, 0xF7, 0, 0) + palette_bytes)
    out.write(b"!\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00")  # loop forever

    def quant(im: Image.Image) -> Image.Image:
        return im.quantize(palette=pal, dither=Image.Dither.NONE)

    prev = quant(first)
    count = len(moves)
    out.write(_frame_bytes(prev, (0, 0), FINAL_MS if count == 0 else FIRST_MS, delta=False))
    for i in range(1, len(positions)):
        cur = quant(draw(i))
        changed = ImageChops.difference(prev, cur)
        bbox = changed.getbbox()
        duration = FINAL_MS if i == count else per_move
        if bbox is None:
            bbox = (0, 0, 1, 1)
        part = cur.crop(bbox)
        unchanged = changed.crop(bbox).point([255] + [0] * 255, "1")
        part.paste(TRANSPARENT, mask=unchanged)
        out.write(_frame_bytes(part, bbox[:2], duration, delta=True))
        prev = cur
    out.write(b";")
    return out.getvalue()
