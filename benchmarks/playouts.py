"""Random-playout speed of every game at default options, plus move listing and completion.

Run: ``.venv/bin/python benchmarks/playouts.py [seconds-per-game]``. Prints playouts per
second and plies per second per game, then the time to list ``legal_moves()`` and to answer
``complete()`` on a mid-game position at each game's largest size.

``benchmarks/playouts.py --states [seconds]`` instead prints, per game at default options,
``Position.random_playout`` beside the search state's ``playout`` (engine/state.py), in
playouts per second (the state's figure includes ``search_state()`` and ``copy()``).
"""

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402

TARGETS = {  # playouts per second on a 2-core machine (issue 2)
    "coil": 300,
    "braincoral": 550,
    "branchingcoral": 400,
    "io": 550,
    "whirlwind": 30,
}


def bench_playouts(key: str, seconds: float) -> tuple[float, float]:
    rng = random.Random(1)
    start = engine.new_game(key)
    games = plies = 0
    t0 = time.perf_counter()
    while True:
        end = start.random_playout(rng)
        games += 1
        plies += end.ply
        el = time.perf_counter() - t0
        if el >= seconds:
            return games / el, plies / el


def largest_options(kind: engine.GameKind) -> dict:
    out = {}
    for spec in kind.options:
        if spec.name == "size":
            out["size"] = spec.maximum if spec.choices is None else max(spec.choices)
    if kind.key in ("braincoral", "branchingcoral"):
        out["size"] = 11
        out["shape"] = "hexhex"
    return out


def bench_listing(key: str) -> tuple[dict, float, float]:
    kind = engine.GAMES[key]
    opts = largest_options(kind)
    rng = random.Random(2)
    pos = kind.new(**opts)
    target = max(1, len(pos.board) // 4)
    while pos.ply < target and pos.outcome is None:
        pos = pos.play(pos.random_move(rng))
    t_list, t_comp = [], []
    text = pos.to_text()
    for _ in range(7):
        fresh = engine.from_text(text)  # no per-position caches carried over between runs
        t0 = time.perf_counter()
        n = sum(1 for _ in fresh.legal_moves())
        t_list.append(time.perf_counter() - t0)
        for prefix in ("", "c", "d1", "e"):
            fresh = engine.from_text(text)
            t0 = time.perf_counter()
            fresh.complete(prefix, limit=25)
            t_comp.append(time.perf_counter() - t0)
    return {**opts, "moves": n}, statistics.median(t_list) * 1000, statistics.median(t_comp) * 1000


def bench_state_playouts(key: str, seconds: float) -> float:
    """Playouts per second of ``search_state().playout`` from the start at default options,
    each on a fresh ``copy()`` of one state (as a search does)."""
    rng = random.Random(1)
    root = engine.new_game(key).search_state()
    games = 0
    t0 = time.perf_counter()
    while True:
        root.copy().playout(rng)
        games += 1
        el = time.perf_counter() - t0
        if el >= seconds:
            return games / el


HEX_STATE_GAMES = ("coil", "braincoral", "branchingcoral")


def hex_state_rows(seconds: float) -> None:
    """Rows of the --states table for the hex games' states (Coil and the Corals)."""
    for key in HEX_STATE_GAMES:
        po, _ = bench_playouts(key, seconds)
        so = bench_state_playouts(key, seconds)
        print(f"{key:16} {po:16.1f} {so:16.1f} {so / po:7.2f}")


def states_main(seconds: float) -> None:
    """The --states table: Position.random_playout beside SearchState.playout."""
    print(f"{'game':16} {'random_playout/s':>16} {'state playout/s':>16} {'ratio':>7}")
    hex_state_rows(seconds)


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--states":
        states_main(float(sys.argv[2]) if len(sys.argv) > 2 else 3.0)
        return
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    print(f"{'game':16} {'playouts/s':>11} {'plies/s':>10} {'target':>7}")
    for key in engine.GAMES:
        po, pl = bench_playouts(key, seconds)
        ok = "ok" if po >= TARGETS.get(key, 0) else "BELOW"
        print(f"{key:16} {po:11.1f} {pl:10.0f} {TARGETS.get(key, 0):7} {ok}")
    print()
    print("legal-move listing and completion on a fresh position a quarter of the way in:")
    print(f"{'game (largest)':16} {'options':44} {'legal_moves() ms':>17} {'complete() ms':>14}")
    for key in engine.GAMES:
        info, tl, tc = bench_listing(key)
        print(f"{key:16} {str(info):44} {tl:17.2f} {tc:14.2f}")


if __name__ == "__main__":
    main()
