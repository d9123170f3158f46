"""Time to review a game (issue 12): ai.review.review_game on a 60-ply game of each kind.

Run: ``.venv/bin/python benchmarks/review.py [--level 3] [--playouts 1000] [--plies 60]
[--save DIR]``. Each record is a game the search played against itself (level 2, fixed
seeds, default sizes), cut to ``--plies`` moves where it ran longer; the review's wall
time, positions searched and simulations are printed per kind. ``--save DIR`` also
writes each whole game's review (JSON, ``ai.review.GameReview.to_dict``) there, for the
sample charts.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import ai  # noqa: E402
import engine  # noqa: E402
from ai.review import DEFAULT_LEVEL, DEFAULT_PLAYOUTS, review_game  # noqa: E402


def self_play(kind: str, seed: int, limit: int = 400) -> list[str]:
    """A game of ``kind`` (default options) played by level 2 against level 2."""
    pos = engine.new_game(kind)
    moves = []
    while not pos.is_over and len(moves) < limit:
        d = ai.choose_move(pos, level=2, playouts=200, seed=seed + len(moves))
        moves.append(d.move)
        pos = pos.play(d.move)
    return moves


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--level", type=int, default=DEFAULT_LEVEL)
    ap.add_argument("--playouts", type=int, default=DEFAULT_PLAYOUTS)
    ap.add_argument("--plies", type=int, default=60)
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--kinds", default=",".join(engine.GAMES))
    ap.add_argument("--save", type=Path, default=None)
    args = ap.parse_args()
    print(f"review at level {args.level}, {args.playouts} playouts per position")
    for kind in args.kinds.split(","):
        t0 = time.perf_counter()
        moves = self_play(kind, args.seed)
        made = time.perf_counter() - t0
        cut = moves[:args.plies]
        t0 = time.perf_counter()
        r = review_game(kind, {}, cut, level=args.level, playouts=args.playouts, seed=1)
        took = time.perf_counter() - t0
        print(f"{kind:15s} {len(cut):3d} plies: {took:6.1f} s  ({took / len(cut):.2f} s/ply, "
              f"{r.playouts} simulations)  [whole game {len(moves)} plies, made in {made:.0f} s]",
              flush=True)
        if args.save:
            args.save.mkdir(parents=True, exist_ok=True)
            whole = r if len(cut) == len(moves) else review_game(
                kind, {}, moves, level=args.level, playouts=args.playouts, seed=1)
            (args.save / f"{kind}.json").write_text(json.dumps(
                {"moves": moves, "review": whole.to_dict()}))


if __name__ == "__main__":
    main()
