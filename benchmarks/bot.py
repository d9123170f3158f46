"""Bot latency under load: 20 games in play at once, driven through the fake Discord.

Runs the real bot (discord.py client, game manager on a temporary SQLite file, renderer)
against the test suite's fake Discord on 127.0.0.1 -- both in this one process, so the fake's
own work is included in the figures. Each turn the player to move thinks for a
moment (``--think``, default 1-3 s), types into ``/move`` (an autocomplete request), then
sends the move; all 20 games run at once. ``--think 0 0`` plays flat out (a saturation test:
latency is then queueing, about games / throughput).

Prints p50/p99 of
* autocomplete: interaction sent -> suggestions received;
* /move: interaction sent -> the new board message posted in the game's thread.

Targets (issue 4): autocomplete p99 <= 50 ms, /move p99 <= 300 ms.

With ``--computer N`` (issue 12), N more people each play the computer (``--level``, default 1)
at the same time, in games of the five kinds: their searches run in the bot's search workers
(``STONECAST_AI_WORKERS``, default 1) while the games between people go on. It also prints
p50/p99 from a person's /move against the computer to the computer's board posted (queueing
for a worker included), and the two figures above are then measured meanwhile.

    .venv/bin/python benchmarks/bot.py [--games 20] [--turns 12] [--seed 1] [--computer 20]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from fakediscord import FakeDiscord  # noqa: E402
from fakediscord.harness import BotHarness  # noqa: E402

import engine  # noqa: E402

KINDS = list(engine.GAMES)  # every game, in menu order


def pct(values: list[float], q: float) -> float:
    """The q-th percentile (0..100) of ``values`` in milliseconds, nearest-rank."""
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[k] * 1000


async def start_games(fake: FakeDiscord, harness: BotHarness, n: int):
    """n games of the five kinds (default options) between n distinct pairs of members."""
    games = []
    for i in range(n):
        kind = KINDS[i % len(KINDS)]
        a, b = fake.add_user(f"p{i}a"), fake.add_user(f"p{i}b")
        ex = await fake.slash(a, f"challenge {kind}", {"opponent": b, "first": "me"})
        [msg] = ex.posts
        await fake.click(b, msg, msg.custom_ids[0])
        game = (await harness.manager.active_games(a.id))[0]
        games.append((game, engine.new_game(kind)))
    return games


async def play(fake: FakeDiscord, game, position, turns: int, seed: int, think: tuple[float, float],
               ac_times: list[float], move_times: list[float]) -> None:
    """Play ``turns`` turns of one game, recording both latencies."""
    rng = random.Random(seed)
    for _ in range(turns):
        if position.outcome is not None:
            return
        await asyncio.sleep(rng.uniform(*think))
        user = fake.users[game.players[position.to_move]]
        move = position.random_move(rng)
        ex = await fake.autocomplete(user, "move", {"move": move[:1]}, focused="move",
                                     channel=game.thread_id)
        assert ex.choices, f"no suggestions for {move[:1]!r} in game {game.id}"
        ac_times.append(ex.latency)
        ex = await fake.slash(user, "move", {"move": move}, channel=game.thread_id)
        posts = [m for m in fake.channel_messages(game.thread_id)
                 if m.source == "channel" and m.created_perf >= ex.started
                 and f"`{move}`" in m.content]
        assert posts and ex.reply.ephemeral, ex.reply.content
        move_times.append(posts[0].created_perf - ex.started)
        position = position.play(move)


async def start_computer_games(fake: FakeDiscord, harness: BotHarness, n: int, level: int):
    """n games against the computer at ``level``, one per new member, the member first."""
    games = []
    for i in range(n):
        kind = KINDS[i % len(KINDS)]
        a = fake.add_user(f"c{i}")
        await fake.slash(a, f"challenge {kind}", {"opponent": fake.bot_user, "first": "me",
                                                   "level": level})
        games.append((await harness.manager.active_games(a.id))[0])
    return games


async def play_computer(fake: FakeDiscord, harness: BotHarness, game, turns: int, seed: int,
                        think: tuple[float, float], reply_times: list[float]) -> None:
    """Play ``turns`` turns of one game against the computer: the person moves (at random),
    then waits for the computer's board; records /move sent -> the computer's board posted."""
    rng = random.Random(seed)
    user = fake.users[game.players[3 - game.ai_seat]]
    position = game.position
    for _ in range(turns):
        if position.outcome is not None:
            return
        await asyncio.sleep(rng.uniform(*think))
        move = position.random_move(rng)
        ex = await fake.slash(user, "move", {"move": move}, channel=game.thread_id)
        assert ex.reply.ephemeral, ex.reply.content
        ply = position.ply + 1
        while True:  # the computer's board: the first board after the person's
            g = await harness.manager.get_game(game.id)
            boards = [m for m in fake.channel_messages(game.thread_id)
                      if m.attachments and m.created_perf >= ex.started]
            if g.status != "active" and g.ply == ply:
                return
            if g.ply > ply and len(boards) >= 2:
                reply_times.append(boards[1].created_perf - ex.started)
                position = g.position
                break
            await asyncio.sleep(0.01)


async def main() -> None:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--turns", type=int, default=12, help="turns played in each game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--think", type=float, nargs=2, default=(1.0, 3.0), metavar=("MIN", "MAX"),
                        help="seconds a player waits before typing a move (uniform); 0 0 = flat out")
    parser.add_argument("--computer", type=int, default=0,
                        help="people who each play the computer meanwhile (issue 12: 20)")
    parser.add_argument("--level", type=int, default=1, help="the computer's level (1-5)")
    parser.add_argument("--render-workers", type=int, default=None,
                        help="render processes (default: automatic; 0 = a thread)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)

    fake = FakeDiscord(settle=0.0, timeout=60.0)
    await fake.start()
    restore = fake.patch_discord()
    with tempfile.TemporaryDirectory() as tmp:
        harness = BotHarness(fake, Path(tmp) / "bench.db", render_workers=args.render_workers)
        await harness.start()
        harness.bot_render_workers = harness.bot.renderer.workers
        try:
            t0 = time.perf_counter()
            games = await start_games(fake, harness, args.games)
            versus = await start_computer_games(fake, harness, args.computer, args.level)
            setup = time.perf_counter() - t0
            ac_times: list[float] = []
            move_times: list[float] = []
            reply_times: list[float] = []
            t0 = time.perf_counter()
            await asyncio.gather(*(play(fake, g, p, args.turns, args.seed + i, tuple(args.think),
                                        ac_times, move_times)
                                   for i, (g, p) in enumerate(games)),
                                 *(play_computer(fake, harness, g, args.turns, args.seed + 1000 + i,
                                                 tuple(args.think), reply_times)
                                   for i, g in enumerate(versus)))
            ai_workers = harness.bot.computer.moves.size
            wall = time.perf_counter() - t0
        finally:
            await harness.stop()
            restore()
            await fake.stop()
    print(f"{args.games} games in play at once ({', '.join(KINDS)}), default options; "
          f"think {args.think[0]:g}-{args.think[1]:g} s; render workers "
          f"{harness.bot_render_workers}; set-up {setup:.1f} s, play {wall:.1f} s")
    print(f"autocomplete  n={len(ac_times):4d}  p50 {pct(ac_times, 50):6.1f} ms  "
          f"p99 {pct(ac_times, 99):6.1f} ms  max {max(ac_times) * 1000:6.1f} ms  (target p99 <= 50 ms)")
    print(f"/move         n={len(move_times):4d}  p50 {pct(move_times, 50):6.1f} ms  "
          f"p99 {pct(move_times, 99):6.1f} ms  max {max(move_times) * 1000:6.1f} ms  (target p99 <= 300 ms)")
    print(f"mean /move {statistics.fmean(move_times) * 1000:.1f} ms; "
          f"{len(move_times) / wall:.1f} moves/s overall")
    if reply_times:
        print(f"{args.computer} people playing the computer at level {args.level} meanwhile, "
              f"{ai_workers} search worker(s)")
        print(f"computer      n={len(reply_times):4d}  p50 {pct(reply_times, 50):6.1f} ms  "
              f"p99 {pct(reply_times, 99):6.1f} ms  max {max(reply_times) * 1000:6.1f} ms  "
              f"(a person's /move -> the computer's board posted)")


if __name__ == "__main__":
    asyncio.run(main())
