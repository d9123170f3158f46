"""Tuning matches for the search at fixed simulation counts (repeatable, load-independent).

Run: ``.venv/bin/python benchmarks/ai_tune.py A_SETTINGS A_SIMS B_SETTINGS B_SIMS
[--games 20] [--kinds coil,whirlwind] [--workers 2]``, where a SETTINGS is ``5`` (level 5's
settings) or ``5:bias=1e-3,explore=0.3`` (level 5's settings with fields of ``ai.Level``
replaced, in every game). Prints A's win rate per game kind with a 95% Wilson interval, the
Elo difference it means and the rate from each seat; seats alternate.
Example: ``ai_tune.py 5 2000 5 400`` asks whether five times the simulations pays.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import ai  # noqa: E402
from benchmarks.ai import KINDS, run_matches  # noqa: E402


def parse_settings(text: str) -> ai.Level:
    """``"5"`` or ``"5:field=value,..."`` -> an ``ai.Level`` (values parsed as Python
    literals: numbers, True/False, None). A field given here holds in every game: the
    level's own setting of it for one game (``ai.Level.per_kind``, e.g. level 5's ``ref``
    in Io and Whirlwind) is dropped (``ai.Level.changed``). Raises KeyError for an unknown
    level, TypeError for a name that is no field."""
    import ast

    level, _, rest = text.partition(":")
    lv = ai.LEVELS[int(level)]
    changes = {}
    for item in filter(None, rest.split(",")):
        k, _, v = item.partition("=")
        changes[k] = ast.literal_eval(v)
    return lv.changed(**changes)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("a")
    ap.add_argument("a_sims", type=int)
    ap.add_argument("b")
    ap.add_argument("b_sims", type=int)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=900)
    args = ap.parse_args(argv)
    a, b = parse_settings(args.a), parse_settings(args.b)
    label = "A vs B"
    tasks = [(key, label, ("variant_p", a, args.a_sims), ("variant_p", b, args.b_sims),
              1 + g % 2, args.seed + g)
             for key in args.kinds.split(",") for g in range(args.games)]
    run_matches(f"A = {args.a} x{args.a_sims} against B = {args.b} x{args.b_sims}, "
                f"{args.games} games per kind", tasks, args.workers, by_seat=True)


if __name__ == "__main__":
    main()
