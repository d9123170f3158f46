"""Tournaments at scale (issue 21, item 6): how fast a big Swiss pairs, and (another
section) how fast a big round robin starts through the fake Discord.

Sections (run all by default; name some to run only those, or ``--skip`` some):

* ``swiss`` -- a 256-player, 9-round Swiss paired round by round by
  :func:`bot.rules.tournaments.pair_swiss` (networkx's ``max_weight_matching``) with
  simulated results: ratings drawn once from a fixed seed, the stronger player more likely to
  win (Elo expectancy), a few draws. Prints the pairing time of each round, their mean and
  maximum (target: < 1 s a round), and checks that no pair met twice, that everyone was
  paired or had the bye once a round, and that nobody had two byes.
* ``start`` -- a 20-player double round robin (380 games) started through the fake Discord
  with its global rate limit on: :mod:`benchmarks.tournament_start` (its docstring says what
  it prints and checks).

    .venv/bin/python benchmarks/tournament.py [swiss ...] [--skip swiss] [--players 256]
        [--rounds 9] [--seed 21] [--start-players 20] [--rate-limit 50] [--kind io]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "benchmarks")]

import tournament_start  # noqa: E402  (this folder's section "start", issue 21 part 2)

from bot.rules.tournaments import (  # noqa: E402
    Bye,
    Entrant,
    GameRecord,
    Outcome,
    pair_swiss,
    seed_order,
)

DRAW_SHARE = 0.05  # of games drawn (Io on even boards), whatever the ratings


def simulated_outcome(rng: random.Random, rating1: float, rating2: float) -> Outcome:
    """Seat 1 wins with the Elo expectancy of its rating over seat 2's (less the draws)."""
    roll = rng.random()
    if roll < DRAW_SHARE:
        return Outcome.DRAW
    expected = 1 / (1 + 10 ** ((rating2 - rating1) / 400))
    return Outcome.SEAT1_WIN if rng.random() < expected else Outcome.SEAT2_WIN


def swiss(args: argparse.Namespace) -> bool:
    """The Swiss section; True when every check passed."""
    rng = random.Random(args.seed)
    entrants = seed_order([Entrant(10_000 + i, rng.gauss(1500, 300)) for i in range(args.players)])
    rating = {e.player: e.rating for e in entrants}
    games: list[GameRecord] = []
    byes: list[Bye] = []
    times = []
    ok = True
    print(f"swiss: {args.players} players, {args.rounds} rounds, seed {args.seed}")
    for number in range(1, args.rounds + 1):
        started = time.perf_counter()
        result = pair_swiss(entrants, games, byes, number)
        elapsed = time.perf_counter() - started
        times.append(elapsed)
        everyone = Counter(p for pairing in result.pairings for p in pairing.players)
        everyone.update(result.byes)
        once = set(everyone) == set(rating) and set(everyone.values()) == {1}
        ok &= once
        print(f"  round {number}: {elapsed:6.3f} s  {len(result.pairings)} games, "
              f"byes {list(result.byes)}{'' if once else '  NOT everyone once'}")
        games += [GameRecord(number, p.seat1, p.seat2,
                             simulated_outcome(rng, rating[p.seat1], rating[p.seat2]))
                  for p in result.pairings]
        byes += [Bye(number, p) for p in result.byes]
    meetings = Counter(frozenset((g.seat1, g.seat2)) for g in games)
    rematches = sum(count - 1 for count in meetings.values() if count > 1)
    double_byes = sum(1 for count in Counter(b.player for b in byes).values() if count > 1)
    print(f"  pairing time per round: mean {statistics.mean(times):.3f} s, "
          f"max {max(times):.3f} s (target < 1 s)")
    print(f"  rematches: {rematches}; players with two byes: {double_byes}")
    return ok and rematches == 0 and double_byes == 0


SECTIONS: dict[str, Callable[[argparse.Namespace], bool]] = {"swiss": swiss, "start": tournament_start.start}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sections", nargs="*", choices=[[], *SECTIONS], default=[],
                        help="sections to run (default: all)")
    parser.add_argument("--skip", nargs="*", choices=list(SECTIONS), default=[],
                        help="sections not to run")
    parser.add_argument("--players", type=int, default=256, help="Swiss field size")
    parser.add_argument("--rounds", type=int, default=9, help="Swiss rounds")
    parser.add_argument("--seed", type=int, default=21, help="seed of ratings and results")
    tournament_start.add_arguments(parser)
    args = parser.parse_args()
    chosen = [s for s in (args.sections or SECTIONS) if s not in args.skip]
    failed = [name for name in chosen if not SECTIONS[name](args)]
    print("all checks passed" if not failed else f"checks FAILED in: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
