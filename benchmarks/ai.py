"""The computer opponent's speed, memory and strength (issue 10).

Run: ``.venv/bin/python benchmarks/ai.py [--quick | --full] [options]``. Prints:

(a) per game at default size: simulations per second of the level-5 search (from the
    starting position and from a position a quarter into a random game) beside the engine's
    random playout rates (``Position.random_playout`` and ``search_state().playout``), and
    whether the search keeps at least a third of the state's playout rate;
(b) the peak memory (``ru_maxrss`` of a fresh child process) of a level-5 search;
(c) the ladder: each level against the level below, per game kind;
(d) level 5 against the plain UCT baseline (``ai.uct``) at equal time per move.

Win rates come with 95% Wilson intervals; a draw counts half. Seats alternate between
games. Games run in worker processes (``--workers``, default 2) that die with this process.
A game ends early (adjudicated) when the search of the side to move has *proved* it wins
(MCTS-Solver): that side would play the proof out, so the result is the same.

The ladder gives each level its simulation budget (``ai.LEVELS[L].playouts``) with no time
cap, so it does not depend on the machine's load; ``--scale`` multiplies those budgets (the
full budgets make level 5 games last minutes: see the README for what was run).
"""

from __future__ import annotations

import argparse
import ctypes
import dataclasses
import math
import multiprocessing as mp
import random
import resource
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import ai  # noqa: E402
import engine  # noqa: E402
from ai.mcts import Search  # noqa: E402
from ai.uct import uct_turn  # noqa: E402

KINDS = ["coil", "io", "braincoral", "branchingcoral", "whirlwind"]


def _die_with_parent() -> None:
    """Pool initializer: ask Linux to SIGTERM this worker when the parent dies
    (prctl(PR_SET_PDEATHSIG)), so an interrupted benchmark leaves no busy workers behind.
    (The bot has ``bot.workers.procs.process_pool`` for this; the benchmark keeps to ``ai``/``engine``.)"""
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # 1 = PR_SET_PDEATHSIG
    except OSError:  # not Linux: nothing to do
        pass


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate ``wins / n`` (draws counted as half)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


# -- (a) speed ----------------------------------------------------------------------------
def rate(fn, seconds: float) -> float:
    n = 0
    t0 = time.perf_counter()
    while True:
        fn()
        n += 1
        el = time.perf_counter() - t0
        if el >= seconds:
            return n / el


def search_rate(pos: engine.Position, seconds: float) -> float:
    """Simulations per second of the level-5 search settings (for ``pos``'s game) from
    ``pos``."""
    from ai import knowledge

    lv = ai.LEVELS[5]
    state = pos.search_state()
    if lv.tactics and hasattr(state, "tactics"):
        state.tactics = True  # the game's playout tactics, as level 5 plays
    prior = knowledge.prior_for(state) if lv.use_knowledge else None
    s = Search(state, rng=random.Random(1), prior=prior,
               prior_weight=knowledge.PRIOR_WEIGHT if prior else 0.0, use_amaf=lv.use_amaf,
               explore=ai.kind_setting(pos.kind, "explore", lv.explore),
               ref=int(ai.kind_setting(pos.kind, "ref", lv.ref)), bias=lv.bias)
    t0 = time.perf_counter()
    s.run(deadline=t0 + seconds)
    return s.playouts / (time.perf_counter() - t0)


def bench_speed(seconds: float, kinds: list[str]) -> None:
    print("(a) simulations per second at default sizes (single thread)")
    print(f"{'game':16s}{'Position.random_playout':>25s}{'state.playout':>15s}"
          f"{'search (start)':>16s}{'search (1/4 in)':>17s}{'ratio':>7s}  target >= 1/3")
    for key in kinds:
        pos = engine.new_game(key)
        rng = random.Random(1)
        st = pos.search_state()
        r_pos = rate(lambda p=pos, r=rng: p.random_playout(r), seconds)
        r_state = rate(lambda s=st, r=rng: s.copy().playout(r), seconds)
        mid = pos
        plies = max(1, len(pos.board) // 4)
        while mid.ply < plies and mid.outcome is None:
            mid = mid.play(mid.random_move(rng))
        r_s0 = search_rate(pos, seconds)
        r_s1 = search_rate(mid, seconds) if mid.outcome is None else float("nan")
        ratio = min(r_s0, r_s1) / max(r_pos, r_state)
        ok = "yes" if ratio >= 1 / 3 else "NO"
        print(f"{key:16s}{r_pos:25.0f}{r_state:15.0f}{r_s0:16.0f}{r_s1:17.0f}{ratio:7.2f}  {ok}")
    print()


# -- (b) memory ----------------------------------------------------------------------------
def _memory_child(key: str, seconds: float, q) -> None:
    pos = engine.new_game(key)
    d = ai.choose_move(pos, level=5, seconds=seconds, seed=1)
    q.put((d.playouts, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024))


def bench_memory(seconds: float) -> None:
    print(f"(b) peak memory of a level-5 search ({seconds:g} s, fresh process, ru_maxrss)")
    ctx = mp.get_context("spawn")
    for key in KINDS:
        q = ctx.Queue()
        p = ctx.Process(target=_memory_child, args=(key, seconds, q))
        p.start()
        playouts, mb = q.get()
        p.join()
        print(f"  {key:16s}{mb:8.0f} MB after {playouts} simulations  (limit 500 MB)")
    print()


# -- games ----------------------------------------------------------------------------------
def _player_move(pos, spec, seed):
    """One move of a player ``spec``: ("level", L, scale) or ("uct", seconds) or
    ("level_t", L, seconds). Returns (move, proved_win)."""
    if spec[0] == "uct":
        move, _ = uct_turn(pos, seconds=spec[1], seed=seed)
        return move, False
    if spec[0] == "level":
        _, level, scale = spec
        lv = ai.LEVELS[level]
        if lv.playouts:
            # the level's simulation budget alone (its time cap is a safeguard for slow
            # machines): load-independent, so the ladder measures what players get
            d = ai.choose_move(pos, level=level, playouts=max(8, int(lv.playouts * scale)),
                               seed=seed)
        else:
            d = ai.choose_move(pos, level=level, seed=seed,
                               seconds=min(ai.MAX_SECONDS, lv.seconds * scale))
    elif spec[0] == "level_t":
        _, level, seconds = spec
        d = ai.choose_move(pos, level=level, seconds=seconds, seed=seed)
    elif spec[0] == "variant_p":  # ("variant_p", Level, simulations): load-independent
        _, lv, playouts = spec
        d = ai.search_move(pos, lv, playouts=playouts, seed=seed)
    else:  # ("variant", Level, seconds)
        _, lv, seconds = spec
        d = ai.search_move(pos, lv, seconds=seconds, seed=seed)
    return d.move, d.proven and d.value == 1.0


def play_game(task):
    """Play one game: task = (key, spec_a, spec_b, a_seat, seed). Returns
    (key, label, score of A: 1, 0.5 or 0, plies, adjudicated)."""
    key, label, spec_a, spec_b, a_seat, seed = task
    pos = engine.new_game(key)
    rng = random.Random(seed)
    adjudicated = False
    while pos.outcome is None:
        spec = spec_a if pos.to_move == a_seat else spec_b
        mover = pos.to_move
        move, proved = _player_move(pos, spec, rng.randrange(1 << 30))
        if proved:
            winner = mover
            adjudicated = True
            break
        pos = pos.play(move)
    else:
        winner = pos.outcome.winner or 0
    score = 0.5 if winner == 0 else (1.0 if winner == a_seat else 0.0)
    return key, label, score, pos.ply, adjudicated


def run_matches(title: str, tasks: list, workers: int) -> None:
    print(title)
    results: dict[tuple[str, str], list] = {}
    t0 = time.perf_counter()
    ctx = mp.get_context("fork")
    with ctx.Pool(workers, initializer=_die_with_parent) as pool:
        for key, label, score, _plies, adj in pool.imap_unordered(play_game, tasks):
            r = results.setdefault((label, key), [0.0, 0, 0])
            r[0] += score
            r[1] += 1
            r[2] += adj
    for (label, key), (wins, n, adj) in sorted(results.items()):
        lo, hi = wilson(wins, n)
        print(f"  {label:14s}{key:16s} {wins:5.1f}/{n:<3d} = {wins / n:4.0%}  "
              f"95% CI {lo:4.0%}-{hi:4.0%}  ({adj} adjudicated)")
    print(f"  ({time.perf_counter() - t0:.0f} s)\n")


def ladder_tasks(games: int, scale: float, kinds: list[str],
                 steps: tuple[int, ...] = (2, 3, 4, 5)) -> list:
    """Ladder games: for each upper level in ``steps``, that level against the one below."""
    tasks = []
    for hi in steps:
        lo = hi - 1
        for key in kinds:
            for g in range(games):
                a_seat = 1 + g % 2
                tasks.append((key, f"L{hi} vs L{lo}", ("level", hi, scale), ("level", lo, scale),
                              a_seat, 1000 * hi + g))
    return tasks


def uct_tasks(games: int, seconds: float, kinds: list[str]) -> list:
    return [(key, "L5 vs UCT", ("level_t", 5, seconds), ("uct", seconds), 1 + g % 2, 77 + g)
            for key in kinds for g in range(games)]


#: What each technique is measured by: level 5 against level 5 without it.
VARIANTS = {
    "GRAVE": dict(use_amaf=False, explore=0.5),
    "solver": dict(solver=False),
    "decisive": dict(decisive_turns=-1),
    "knowledge": dict(use_knowledge=False),
}


def ablation_tasks(games: int, seconds: float, kinds: list[str], names: list[str]) -> list:
    full = ai.LEVELS[5]
    tasks = []
    for name in names:
        weaker = dataclasses.replace(full, **VARIANTS[name])
        for key in kinds:
            for g in range(games):
                tasks.append((key, f"L5 vs -{name}", ("variant", full, seconds),
                              ("variant", weaker, seconds), 1 + g % 2, 500 + g))
    return tasks


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--quick", action="store_true", help="a small version (a few minutes)")
    mode.add_argument("--full", action="store_true", help="the issue's game counts")
    ap.add_argument("--ladder-games", type=int, help="games per kind per adjacent pair")
    ap.add_argument("--uct-games", type=int, help="games per kind, level 5 against UCT")
    ap.add_argument("--scale", type=float, help="multiplier of the levels' budgets in the ladder")
    ap.add_argument("--uct-seconds", type=float, default=0.5, help="time per move against UCT")
    ap.add_argument("--speed-seconds", type=float, help="seconds per speed measurement")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("--steps", default="2,3,4,5",
                    help="ladder steps to play, by the upper level (2 = level 2 vs 1)")
    ap.add_argument("--skip", default="", help="comma list of parts to skip: speed,memory,ladder,uct")
    ap.add_argument("--ablation", default="", help="comma list of techniques to measure, "
                    f"level 5 against level 5 without each ({', '.join(VARIANTS)})")
    ap.add_argument("--ablation-games", type=int, default=10, help="games per kind per technique")
    ap.add_argument("--ablation-seconds", type=float, default=0.5, help="time per move")
    args = ap.parse_args(argv)
    kinds = [k for k in args.kinds.split(",") if k]
    if args.full:
        defaults = dict(ladder=30, uct=40, scale=0.1, speed=3.0)
    elif args.quick:
        defaults = dict(ladder=4, uct=4, scale=0.05, speed=1.0)
    else:
        defaults = dict(ladder=6, uct=6, scale=0.1, speed=2.0)
    ladder = args.ladder_games if args.ladder_games is not None else defaults["ladder"]
    uct = args.uct_games if args.uct_games is not None else defaults["uct"]
    scale = args.scale if args.scale is not None else defaults["scale"]
    speed = args.speed_seconds if args.speed_seconds is not None else defaults["speed"]
    skip = set(args.skip.split(","))
    t0 = time.perf_counter()
    if "speed" not in skip:
        bench_speed(speed, kinds)
    if "memory" not in skip:
        bench_memory(ai.LEVELS[5].seconds)
    if "ladder" not in skip and ladder:
        run_matches(f"(c) ladder: {ladder} games per kind per pair, budgets x{scale:g}",
                    ladder_tasks(ladder, scale, kinds,
                                 tuple(int(x) for x in args.steps.split(",") if x)),
                    args.workers)
    if "uct" not in skip and uct:
        run_matches(f"(d) level 5 against plain UCT, {args.uct_seconds:g} s per move, "
                    f"{uct} games per kind", uct_tasks(uct, args.uct_seconds, kinds), args.workers)
    names = [n for n in args.ablation.split(",") if n]
    if names:
        run_matches(f"(e) each technique: level 5 against level 5 without it, "
                    f"{args.ablation_seconds:g} s per move",
                    ablation_tasks(args.ablation_games, args.ablation_seconds, kinds, names),
                    args.workers)
    print(f"total {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
