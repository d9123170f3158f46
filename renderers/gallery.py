"""Sample images of every game: ``python -m renderers.gallery DIR``.

Writes, for every game the engine registers, PNGs of an opening, a middle game and a finished
game (and a capture, for games that remove stones) at the default board, plus the smallest and largest boards (and each board shape), a
few pictures in the other themes, and one short GIF replay. Games are played by seeded
random moves, so the same engine gives the same pictures. Prints each file written.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Mapping
from pathlib import Path

import engine

from .gif import render_gif
from .render import render_png

PLAYERS = {1: "Ann", 2: "Bartholomew"}


#: The game of the gallery's sample replay: Io, whose flips show well in a short GIF.
REPLAY_GAME = "io"


def _boards(kind: engine.GameKind) -> list[dict[str, object]]:
    """Default options, then the smallest and largest size of every shape."""
    specs = {o.name: o for o in kind.options}
    out: list[dict[str, object]] = [{}]
    shapes = specs["shape"].choices if "shape" in specs else None
    size = specs["size"]
    if size.minimum is None or size.maximum is None:  # pragma: no cover - every game's is bounded
        raise ValueError(f"{kind.title}: the size option has no bounds")
    for shape in shapes or (None,):
        ok: list[dict[str, object]] = []
        for n in range(size.minimum, size.maximum + 1):
            opts: dict[str, object] = {"size": n} if shape is None else {"shape": shape, "size": n}
            try:
                kind.validate(opts)
            except engine.OptionError:
                continue
            ok.append(opts)
        out += [ok[0], ok[-1]] if ok else []
    return out


def _play(pos: engine.Position, plies: int, rng: random.Random) -> engine.Position:
    for _ in range(plies):
        if pos.outcome is not None:
            break
        pos = pos.play(pos.random_move(rng))
    return pos


def _marked(pos: engine.Position, rng: random.Random, plies: int = 12) -> engine.Position:
    """``pos``, or a position up to ``plies`` random moves on whose last move turned over or
    removed stones (so the picture shows those marks), if one comes up."""
    later = pos
    for _ in range(plies):
        if later.outcome is not None:
            break
        later = later.play(later.random_move(rng))
        if later.outcome is None and (later.highlights.flipped or later.highlights.removed):
            return later
    return pos


def _finished(start: engine.Position, seed: int) -> engine.Position:
    """A finished random game, preferably not one that ended on a full board (for Coil, one
    won by a coil: the more interesting picture)."""
    first = start.random_playout(random.Random(seed))
    for s in range(seed, seed + 40):
        pos = first if s == seed else start.random_playout(random.Random(s))
        if pos.outcome is not None and pos.outcome.reason is not engine.Termination.BOARD_FULL:
            return pos
    return first


def _first_capture(start: engine.Position, seed: int) -> engine.Position | None:
    """The first position of a random game whose last move removed stones, if any."""
    for s in range(seed, seed + 20):
        rng = random.Random(s)
        pos = start
        while pos.outcome is None:
            pos = pos.play(pos.random_move(rng))
            if pos.highlights.removed:
                return pos
    return None


def _name(key: str, opts: Mapping[str, object], state: str) -> str:
    shape = opts.get("shape", "")
    size = opts.get("size", "")
    return f"{key}-{shape}{size}-{state}".replace("--", "-") if opts else f"{key}-{state}"


def write_gallery(out: Path, seed: int = 1) -> list[Path]:
    """Write the gallery into directory ``out`` (created if missing); returns the paths."""
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []

    def save(name: str, data: bytes) -> None:
        path = out / name
        path.write_bytes(data)
        written.append(path)
        print(path)

    for key, kind in engine.GAMES.items():
        for i, opts in enumerate(_boards(kind)):
            rng = random.Random(seed + i)
            start = kind.new(**opts)
            cells = len(start.board)
            states = {"opening": _play(start, 3, rng), "middle": _marked(_play(start, cells // 3, rng), rng)}
            if i == 0:
                states["finished"] = _finished(start, seed)
                captured = _first_capture(start, seed)
                if captured is not None:
                    states["capture"] = captured
            for state, pos in states.items():
                clock = "2 days 4 h left" if pos.outcome is None else None
                save(_name(key, opts, state) + ".png", render_png(pos, players=PLAYERS, clock=clock))
        mid = _play(kind.new(), len(kind.new().board) // 3, random.Random(seed))
        save(f"{key}-light.png", render_png(mid, players=PLAYERS, theme="light"))
        save(f"{key}-dark-labels.png", render_png(mid, players=PLAYERS, theme="dark", cell_labels=True))

    key = REPLAY_GAME
    rng = random.Random(seed)
    pos = engine.new_game(key)
    moves: list[str] = []
    while pos.outcome is None and len(moves) < 40:
        mv = pos.random_move(rng)
        moves.append(mv)
        pos = pos.play(mv)
    save(f"{key}-replay.gif", render_gif(key, {}, moves, players=PLAYERS))
    return written


def main(argv: list[str] | None = None) -> int:
    """Command line: ``python -m renderers.gallery DIR [--seed N]``."""
    ap = argparse.ArgumentParser(prog="python -m renderers.gallery", description=__doc__.splitlines()[0])
    ap.add_argument("dir", type=Path, help="folder to write the images into")
    ap.add_argument("--seed", type=int, default=1, help="seed of the random games (default 1)")
    args = ap.parse_args(argv)
    write_gallery(args.dir, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
