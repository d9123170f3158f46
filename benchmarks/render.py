"""Board image speed: ``python benchmarks/render.py``.

For every game at its default board and at its largest board, a middle-game position
(random moves over about half the cells, fixed seed) is rendered repeatedly; printed:

* ``render`` -- median wall time of ``renderers.render_png`` with warm caches (ms);
* ``encode`` -- median time of the PNG encoding alone of the same image, same settings (ms);
* ``ratio`` -- render / encode (target: at most 2);
* ``cold`` -- the first render, which draws and caches the board (ms); ``KiB`` -- PNG size.

Then GIF replays: a 100-move game (target under 2 s) and, per game, a whole random game on
the largest board (the longest realistic replays), with time, frames and size (Discord's
upload limit is 10 MiB). Targets on a 2-core machine: render median <= 50 ms at default
sizes, <= 100 ms at the largest.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
import renderers  # noqa: E402
from renderers.render import encode_png  # noqa: E402

REPEATS = 21


def largest(kind: engine.GameKind) -> dict:
    """The options giving the board with the most cells."""
    specs = {o.name: o for o in kind.options}
    shapes = specs["shape"].choices if "shape" in specs else (None,)
    best, cells = {}, -1
    for shape in shapes:
        for n in range(specs["size"].minimum, specs["size"].maximum + 1):
            opts = {"size": n} if shape is None else {"shape": shape, "size": n}
            try:
                kind.validate(opts)
            except engine.OptionError:
                continue
            c = len(kind.new(**opts).board)
            if c > cells:
                best, cells = opts, c
    return best


def middle(kind: str, opts: dict, seed: int = 1):
    rng = random.Random(seed)
    pos = engine.new_game(kind, **opts)
    target = len(pos.board) // 2
    while pos.outcome is None and len(pos.stones) < target:
        nxt = pos.play(pos.random_move(rng))
        if nxt.outcome is not None:
            break
        pos = nxt
    return pos


def ms_pair(first, second, repeats: int = REPEATS) -> tuple[float, float]:
    """Median times (ms) of ``first`` and ``second``, run alternately ``repeats`` times each."""
    a, b = [], []
    for _ in range(repeats):
        for fn, out in ((first, a), (second, b)):
            t = time.perf_counter()
            fn()
            out.append(time.perf_counter() - t)
    return statistics.median(a) * 1000, statistics.median(b) * 1000


def game_moves(kind: str, opts: dict, limit: int | None, seed: int = 1) -> list[str]:
    rng = random.Random(seed)
    pos = engine.new_game(kind, **opts)
    moves: list[str] = []
    while pos.outcome is None and (limit is None or len(moves) < limit):
        mv = pos.random_move(rng)
        moves.append(mv)
        pos = pos.play(mv)
    return moves


def main() -> None:
    print(f"{'game':<16}{'board':<22}{'render':>9}{'encode':>9}{'ratio':>7}{'cold':>9}{'KiB':>7}")
    for key, kind in engine.GAMES.items():
        for label, opts in (("default", {}), ("largest", largest(kind))):
            pos = middle(key, opts)
            board = f"{label} {pos.board.shape} {pos.board.size}"
            t = time.perf_counter()
            png = renderers.render_png(pos)
            cold = (time.perf_counter() - t) * 1000
            im = renderers.render_image(pos)

            def encode(im=im):
                encode_png(im)

            # Interleaved, so a burst of load on a shared machine hits both alike.
            render, enc = ms_pair(lambda pos=pos: renderers.render_png(pos), encode)
            print(f"{key:<16}{board:<22}{render:>7.1f}ms{enc:>7.1f}ms{render / enc:>7.2f}"
                  f"{cold:>7.0f}ms{len(png) // 1024:>7}")

    print()
    print("GIF replays")
    for key, kind in engine.GAMES.items():
        opts = largest(kind)
        for limit in (100, None):
            moves = game_moves(key, opts, limit)
            if limit is not None and len(moves) < limit:
                continue
            t = time.perf_counter()
            gif = renderers.render_gif(key, opts, moves)
            dt = time.perf_counter() - t
            what = f"{len(moves)} moves" + (" (whole game)" if limit is None else "")
            board = f"{kind.new(**opts).board.shape} {kind.new(**opts).board.size}"
            print(f"{key:<16}{board:<12}{what:<22}{dt:>6.2f} s{len(gif) / 2**20:>8.2f} MiB")


if __name__ == "__main__":
    main()
