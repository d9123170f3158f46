"""How well a static evaluation predicts Io's results, against random playouts (issue 24 item 2).

Run: ``.venv/bin/python benchmarks/io_eval.py [--games N] [--simulations S] [--workers W]``.

Level 5 plays Io against itself at ``--simulations`` a move (RULES.md "Io"; 9 x 9). Every
main-phase position with 13-66 empty cells is kept, labelled 1 when the player to move went
on to win, with the share of 64 uniform random playouts from it that the player to move won
(``SearchState.playout``). A logistic model is fitted on six differences seen from the
player to move -- stones / cells, corners, non-corner edge stones / 8, stones on a cell
diagonal to an empty corner, stones next to an empty cell / cells, and parity (+1 when the
mover places the last stone) -- each also times the share of empty cells, plus a constant
and that share (maximum likelihood by Newton's method, numpy, L2 1e-3). It is fitted on the
first 70% of the games and scored on the rest: log loss and accuracy by empty cells, beside
the 64 playouts' and the constant guess's. Prints the coefficients fitted on all games last.

The session of 27 November used such a model inside level 5's search, mixed into each
playout's result, and it did not make level 5 stronger
(benchmarks/results/io-screens-2026-11-27.txt); this script measures the model alone.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import random
import sys
from functools import cache
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import ai  # noqa: E402
import engine  # noqa: E402
from ai.knowledge import _file_masks  # noqa: E402
from engine import IoState  # noqa: E402

BANDS = ((13, 20), (21, 30), (31, 45), (46, 66))


@cache
def _masks(n: int) -> tuple[int, int, dict[int, int]]:
    """Bitboards of an n x n board: cells off the first file, off the last file
    (``ai.knowledge._file_masks``), and each corner's diagonal neighbour (corner cell -> that
    cell)."""
    not_first, not_last = _file_masks(n)
    cells = n * n
    return not_first, not_last, {0: n + 1, n - 1: 2 * n - 2, n * (n - 1): (n - 2) * n + 1,
                                 cells - 1: cells - n - 2}


def features(state: IoState) -> list[float]:
    """The model's inputs for ``state`` (main phase), from the player to move's side."""
    t = state.tables
    n = t.n
    cells = n * n
    full, corner_mask = t.full, t.corners
    edge = t.board.perimeter & ~corner_mask
    not_first, not_last, corners = _masks(n)
    me, opp = state.own, state.opp
    empty = full & ~(me | opp)
    row = empty | ((empty & not_last) << 1) | ((empty & not_first) >> 1)
    near_empty = (row | (row << n) | (row >> n)) & full
    x_cells = sum(1 << x for c, x in corners.items() if empty >> c & 1)
    e = empty.bit_count()

    def diff(mask: int) -> int:
        return (me & mask).bit_count() - (opp & mask).bit_count()

    base = [diff(full) / cells, diff(corner_mask), diff(edge) / 8, diff(x_cells),
            diff(near_empty) / cells, 1.0 if e % 2 else -1.0]
    share = e / cells
    return [1.0, share] + base + [b * share for b in base]


def game(seed_sims: tuple[int, int]) -> list[tuple[list[float], float, int, int]]:
    """One game of level 5 against itself: (features, playout share, empty cells, won) per
    kept position."""
    seed, sims = seed_sims
    rng = random.Random(seed)
    pos = engine.new_game("io")
    kept: list[tuple[list[float], float, int, int]] = []
    while pos.outcome is None:
        s = pos.search_state()
        if isinstance(s, IoState) and not s.opening and not s.mid_turn:
            e = s.empty.bit_count()
            if 13 <= e <= 66:
                wins = sum(s.copy().playout(rng)[0] == s.to_move for _ in range(64))
                kept.append((features(s), wins / 64, e, s.to_move))
        pos = pos.play(ai.search_move(pos, ai.LEVELS[5], playouts=sims,
                                      seed=rng.randrange(1 << 30)).move)
    winner = pos.outcome.winner
    return [(f, p, e, int(seat == winner)) for f, p, e, seat in kept]


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1e-3) -> np.ndarray:
    """Logistic regression coefficients by Newton's method."""
    w = np.zeros(x.shape[1])
    for _ in range(30):
        p = 1 / (1 + np.exp(-x @ w))
        h = (x * (p * (1 - p))[:, None]).T @ x + l2 * np.eye(x.shape[1])
        w -= np.linalg.solve(h, x.T @ (p - y) + l2 * w)
    return w


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 0.02, 0.98)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=250)
    ap.add_argument("--simulations", type=int, default=600)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    with mp.get_context("fork").Pool(args.workers) as pool:
        games = pool.map(game, [(5000 + g, args.simulations) for g in range(args.games)])
    cut = int(len(games) * 0.7)
    rows = [r for g in games for r in g]
    train = sum(len(g) for g in games[:cut])
    x = np.array([r[0] for r in rows])
    playouts = np.array([r[1] for r in rows])
    empties = np.array([r[2] for r in rows])
    y = np.array([r[3] for r in rows], dtype=float)
    w = fit(x[:train], y[:train])
    p = 1 / (1 + np.exp(-x[train:] @ w))
    yt, pt, et = y[train:], playouts[train:], empties[train:]
    print(f"{len(games)} games, {len(rows)} positions; fitted on the first {cut} games "
          f"({train} positions), scored on the rest (log loss, accuracy)")
    for lo, hi in BANDS:
        k = (et >= lo) & (et <= hi)
        if not k.any():
            continue
        const = np.full(int(k.sum()), yt[k].mean())
        print(f"  empty {lo:2d}-{hi:2d}: {int(k.sum()):5d} positions   model {log_loss(p[k], yt[k]):.3f}"
              f" {np.mean((p[k] > 0.5) == yt[k]):.3f}   64 playouts {log_loss(pt[k], yt[k]):.3f}"
              f" {np.mean((pt[k] > 0.5) == yt[k]):.3f}   constant {log_loss(const, yt[k]):.3f}")
    print("coefficients, all games:", tuple(round(float(v), 4) for v in fit(x, y)))


if __name__ == "__main__":
    main()
