"""Calibrate the evaluation of Coil's Phase I pass (issue 24 item 5; ``ai.knowledge``).

Run: ``.venv/bin/python benchmarks/coil_pass.py [--samples N] [--simulations S] [--sizes 5,6,7]``.

Passing in Phase I makes the passer Black, with White to move in Phase II (RULES.md "Coil").
So the pass is worth, to the passer, the chance that Black wins the Phase II that follows
from this board with White to move. This script estimates that chance on random Phase I
positions -- ``k`` random legal black stones, ``k`` uniform in ``[0, 0.4 * cells]`` -- by a
short search of the position after the pass (``ai.mcts.Search``, ``--simulations`` a
position, playouts with Coil's tactics and loops as level 5 plays; its value for Black is
the label), and fits a logistic model of it on features read at a glance:

* ``size`` (the board's side), ``stones`` (black stones), ``inner`` (black stones off the
  perimeter: the ones a loop can use on both sides), and ``one`` (1 when exactly one empty
  cell would close a coil: White must spend its first stone blocking it).

Two or more such cells make the pass a proven win (White blocks one, Black closes another),
so those positions are left out of the fit (the evaluation says 1 there). The fit is
maximum likelihood with the search values as soft labels (Newton's method, numpy). It
prints the coefficients for ``ai.knowledge.COIL_PASS_MODEL`` and a calibration table:
predicted against measured, by bins of the prediction, on a second, held-out set of
positions.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from ai import knowledge  # noqa: E402
from ai.mcts import Search  # noqa: E402


def sample(size: int, rng: random.Random, simulations: int) -> tuple[list[float], float] | None:
    """One random Phase I position on hexhex ``size``: (its features, the search's value of
    the pass for Black), or None when two or more cells close a coil (a proven pass)."""
    st = engine.new_game("coil", size=size).search_state()
    for _ in range(rng.randrange(int(st.n_cells * 0.4) + 1)):
        cells = st.actions()[:-1]
        if not cells:
            break
        st.play(rng.choice(cells))
    feats = knowledge.coil_pass_features(st, st.actions())
    if feats is None:
        return None
    after = st.copy()
    after.play(after.pass_action)
    after.tactics = after.loops = True
    s = Search(after, rng=rng, candidates=knowledge.decisive_candidates)
    s.run(playouts=simulations)
    return feats, 1.0 - s.value()  # value() is White's (to move); the label is Black's


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1e-3) -> np.ndarray:
    """Logistic regression with soft labels ``y`` in [0, 1] by Newton's method (a tiny
    ridge term keeps it finite when a feature separates the data)."""
    w = np.zeros(x.shape[1])
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-x @ w))
        grad = x.T @ (p - y) + l2 * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + l2 * np.eye(x.shape[1])
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


def collect(sizes: list[int], n: int, simulations: int, rng: random.Random):
    rows, labels = [], []
    for size in sizes:
        got = 0
        while got < n:
            r = sample(size, rng, simulations)
            if r is None:
                continue
            rows.append([1.0, *r[0]])
            labels.append(r[1])
            got += 1
    return np.array(rows), np.array(labels)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--samples", type=int, default=80, help="positions per size (fit; as many held out)")
    ap.add_argument("--simulations", type=int, default=300, help="search simulations per position")
    ap.add_argument("--sizes", default="5,6,7")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    rng = random.Random(args.seed)
    x, y = collect(sizes, args.samples, args.simulations, rng)
    w = fit(x, y)
    names = ["bias", *knowledge.COIL_PASS_FEATURES]
    print(f"fit on {len(y)} positions (sizes {args.sizes}, {args.simulations} simulations each)")
    print("COIL_PASS_MODEL = (" + ", ".join(f"{v:.3f}" for v in w) + ")  # " + ", ".join(names))
    xt, yt = collect(sizes, args.samples, args.simulations, rng)
    pt = 1.0 / (1.0 + np.exp(-xt @ w))
    current = np.array([knowledge.coil_pass_value_of(list(r[1:])) for r in xt])
    print(f"held out: {len(yt)} positions; mean |predicted - measured| "
          f"{np.abs(pt - yt).mean():.3f} (this fit), {np.abs(current - yt).mean():.3f} "
          f"(the model in ai.knowledge); a constant 0.5: {np.abs(0.5 - yt).mean():.3f}")
    print("calibration (held out, this fit): predicted bin, positions, mean predicted, mean measured")
    for lo in np.arange(0.0, 1.0, 0.2):
        sel = (pt >= lo) & (pt < lo + 0.2 + (1e-9 if lo >= 0.8 else 0))
        if sel.any():
            print(f"  {lo:.1f}-{lo + 0.2:.1f} {int(sel.sum()):4d}  {pt[sel].mean():.2f}  {yt[sel].mean():.2f}")


if __name__ == "__main__":
    main()
