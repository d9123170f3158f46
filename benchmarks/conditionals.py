"""Cost of conditional moves (bot/rules/conditionals.py) per game, for issue 13's play_move budget.

For each game at default options: a mid-game position (random plies), ten random lines of
six steps stored by the player not to move. Prints p50/p99 in microseconds of
* answer: what play_move adds per opponent's move -- read the stored tree (JSON), respond
  (with the legality check of the reply), write the rest back;
* add: /conditional add of one six-step line (parse, check every step, merge);
* complete: autocomplete of a line with two steps typed and a third begun.

    .venv/bin/python benchmarks/conditionals.py [--runs 200] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from bot.rules.conditionals import ConditionalError, ConditionalTree, add_line, complete_line  # noqa: E402

LINES, STEPS = 10, 6


def _quantiles(samples: list[float]) -> tuple[float, float]:
    cuts = statistics.quantiles(samples, n=100)
    return cuts[49] * 1e6, cuts[98] * 1e6


def _random_line(pos: engine.Position, rng: random.Random) -> list[str] | None:
    line = []
    for _ in range(STEPS):
        if pos.is_over:
            return None
        move = pos.random_move(rng)
        line.append(move)
        pos = pos.play(move)
    return line


def bench(kind: str, runs: int, rng: random.Random) -> None:
    pos = engine.new_game(kind)
    for _ in range(rng.randrange(6, 12)):
        pos = pos.play(pos.random_move(rng))
    seat = 3 - pos.to_move
    tree = ConditionalTree()
    first = None
    while len(tree) < LINES:
        line = _random_line(pos, rng)
        if line is None:
            continue
        try:
            tree = add_line(tree, pos, seat, "; ".join(line))
        except ConditionalError:  # another reply to a move some line already answers
            continue
        first = first or line
    stored = tree.to_json()
    after = pos.play(first[0])
    answer, add, complete = [], [], []
    typed = f"{first[0]}; {first[1]}; {first[2][:1]}"
    text = "; ".join(first)
    for _ in range(runs):
        t = time.perf_counter()
        reply, rest = ConditionalTree.from_json(stored).respond(after.last_move, after)
        rest.to_json()
        answer.append(time.perf_counter() - t)
        t = time.perf_counter()
        add_line(ConditionalTree(), pos, seat, text)
        add.append(time.perf_counter() - t)
        t = time.perf_counter()
        complete_line(pos, seat, typed)
        complete.append(time.perf_counter() - t)
    assert reply == first[1]
    figures = "  ".join(
        f"{name} p50 {p50:7.0f} p99 {p99:7.0f}"
        for name, (p50, p99) in (("answer", _quantiles(answer)), ("add", _quantiles(add)),
                                 ("complete", _quantiles(complete))))
    print(f"{kind:15s} {len(stored):5d} B  {figures}  (µs)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(f"{LINES} lines of {STEPS} steps per game; stored JSON size, then times")
    for kind in engine.GAMES:
        bench(kind, args.runs, rng)


if __name__ == "__main__":
    main()
