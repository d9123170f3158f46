"""Random-playout speed of every game at default options, plus move listing and completion.

Run: ``.venv/bin/python benchmarks/playouts.py [seconds-per-game]``. Prints playouts per
second and plies per second per game, then the time to list ``legal_moves()`` and to answer
``complete()`` on a mid-game position at each game's largest size.

``benchmarks/playouts.py --states [seconds]`` instead prints, per game at default options,
``Position.random_playout`` beside the search state's ``playout`` (engine/state.py), in
playouts per CPU second (the state's figure includes a ``copy()`` per playout).
"""

import functools
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


def _cpu_rate(run, seconds: float) -> float:
    """Calls of ``run()`` per CPU second of this process (``time.process_time``, so that
    other work on a shared machine does not count), over about ``seconds``."""
    n = 0
    t0 = time.process_time()
    while True:
        run()
        n += 1
        el = time.process_time() - t0
        if el >= seconds:
            return n / el


# the games by board family (:attr:`engine.Board.family`), each family's search state measured apart
HEX_STATE_GAMES = tuple(k for k in engine.GAMES if engine.new_game(k).board.family == "hex")


def hex_state_rows(seconds: float) -> None:
    """Rows of the --states table for the hex games' states (Coil and the Corals): from the
    start at default options, ``Position.random_playout`` beside ``playout`` on a fresh
    ``copy()`` of one search state (as a search runs it), both in CPU time, alternated in
    three rounds (the best round of each printed)."""
    for key in HEX_STATE_GAMES:
        rng = random.Random(1)
        start = engine.new_game(key)
        root = start.search_state()
        po = so = 0.0
        for _ in range(3):
            po = max(po, _cpu_rate(functools.partial(start.random_playout, rng), seconds / 3))
            so = max(so, _cpu_rate(lambda r=root, g=rng: r.copy().playout(g), seconds / 3))
        print(f"{key:16} {po:16.1f} {so:16.1f} {so / po:7.2f}")


SQUARE_STATE_GAMES = tuple(k for k in engine.GAMES if engine.new_game(k).board.family == "square")


def square_state_rows(seconds: float, rounds: int = 6) -> None:
    """Rows of the --states table for the square games' states (Io and Whirlwind).

    The two figures are measured in alternating slices (``rounds`` each, CPU time), so
    that load from other processes on a shared machine falls on both alike."""
    for key in SQUARE_STATE_GAMES:
        pos = engine.new_game(key)
        root = pos.search_state()
        rng_p, rng_s = random.Random(1), random.Random(1)
        counts = [0, 0]
        spent = [0.0, 0.0]
        for _ in range(rounds):
            for which in (0, 1):
                t0 = time.process_time()
                while time.process_time() - t0 < seconds / rounds:
                    if which:
                        root.copy().playout(rng_s)
                    else:
                        pos.random_playout(rng_p)
                    counts[which] += 1
                spent[which] += time.process_time() - t0
        po, so = counts[0] / spent[0], counts[1] / spent[1]
        print(f"{key:16} {po:16.1f} {so:16.1f} {so / po:7.2f}")


def states_main(seconds: float) -> None:
    """The --states table: Position.random_playout beside SearchState.playout."""
    print(f"{'game':16} {'random_playout/s':>16} {'state playout/s':>16} {'ratio':>7}")
    hex_state_rows(seconds)
    square_state_rows(seconds)


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
