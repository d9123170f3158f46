"""Tournaments at scale, part 2 (issue 21, item 6): a 20-player double round robin (380 games)
started through the fake Discord with Discord's global rate limit on (50 requests/s).

The real bot (in this process, :class:`fakediscord.harness.BotHarness`, boards drawn in a
thread) on a fresh SQLite file. The moderator creates the tournament with ``/tournament
create``, 20 members join with ``/tournament join``, the moderator starts it with
``/tournament start``. A round robin is played round by round (the service's rule), so its
38 rounds start one after another: as soon as a round's games have their first boards, each
of its games is resigned through the manager (a result at once, no Discord traffic) and the
maintenance step (``advance_tournaments``: what the bot's loop runs every minute, and what a
game's end triggers) starts the next round, whose threads and first boards the bot posts.

Prints the time from ``/tournament start`` until every game's first board is posted (in all,
and the part spent posting, without the simulated results), per round (median, slowest), the
requests the bot made and the 429s it got, and checks that each of the 380 games got exactly
one thread, named with the tournament and round, and exactly one first board in it (none
missing, none doubled), and the tournament's 38 pairing posts and its final standings.

    .venv/bin/python benchmarks/tournament_start.py [--players 20] [--rate-limit 50] [--kind io]

The section ``start`` of ``benchmarks/tournament.py`` runs :func:`start` with its arguments.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from fakediscord import FakeDiscord  # noqa: E402
from fakediscord.harness import BotHarness  # noqa: E402

NAME = "Benchmark Double"
SMALL = {"io": {"size": 5}, "coil": {"size": 5}, "braincoral": {"shape": "limping", "size": 2}}


async def _until(check, timeout: float) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not await check():
        if loop.time() > end:
            raise TimeoutError("the bot did not post in time")
        await asyncio.sleep(0.05)


async def _run(players: int, rate_limit: int | None, kind: str, db: Path) -> bool:
    fake = FakeDiscord(global_rate_limit=rate_limit)
    await fake.start()
    restore = fake.patch_discord()
    harness = BotHarness(fake, db)
    ok = True
    try:
        await harness.start()
        users = [fake.add_user(f"player{i:02d}") for i in range(players)]
        ex = await fake.slash(fake.mod, "tournament create", {
            "name": NAME, "game": kind, "format": "double_round_robin", **SMALL.get(kind, {}),
            "min_players": players, "max_players": players, "rated": False}, timeout=120)
        assert ex.reply.ephemeral and NAME in ex.reply.content, ex.reply.content
        for user in users:
            ex = await fake.slash(user, "tournament join", {"name": NAME}, timeout=120)
            assert "You are in" in ex.reply.content, ex.reply.content
        manager = harness.manager
        t = await manager.get_tournament(NAME, guild_id=fake.guild_id)
        requests0, limited0 = fake.requests, fake.rate_limited
        posted_in: list[float] = []  # seconds from a round's start to its last first board
        games: dict[int, object] = {}
        started = time.perf_counter()
        results_time = 0.0
        ex = await fake.slash(fake.mod, "tournament start", {"name": NAME}, timeout=300)
        assert "round 1" in ex.reply.content, ex.reply.content
        round_no, round_began = 1, started
        while True:
            info = await manager.tournament_info(t.id, guild_id=fake.guild_id)
            if info.tournament.status != "running":
                break
            ids = [p.game_id for p in info.pairings if p.round == round_no and p.game_id is not None]

            async def boards_posted(ids=ids) -> bool:
                for gid in ids:
                    g = await manager.get_game(gid)
                    if not g.thread_id or not any(a.filename == f"stonecast-{gid}-0.png"
                                                  for m in fake.channel_log.get(g.thread_id, []) for a in m.attachments):
                        return False
                return True

            await _until(boards_posted, 300)
            posted_in.append(time.perf_counter() - round_began)
            resigning = time.perf_counter()
            for gid in ids:
                g = await manager.get_game(gid)
                games[gid] = g
                await manager.resign(gid, g.players[1])
            results_time += time.perf_counter() - resigning
            round_began = time.perf_counter()
            await harness.maintenance.advance_tournaments()
            round_no += 1
        total = time.perf_counter() - started
        await fake.quiet(0.5)
        # ---- the checks
        expected = players * (players - 1)
        threads = [c for c in fake.channels.values() if c.get("type") == 11 and c["name"].startswith(f"{NAME} R")]
        by_game = Counter(int(c["name"].split("#", 1)[1].split(":", 1)[0]) for c in threads)
        firsts = Counter(a.filename for msgs in fake.channel_log.values() for m in msgs for a in m.attachments
                         if a.filename.endswith("-0.png") and m.source == "channel")
        missing = [gid for gid in games if firsts[f"stonecast-{gid}-0.png"] == 0]
        doubled = [gid for gid in games if firsts[f"stonecast-{gid}-0.png"] > 1 or by_game[gid] > 1]
        posts = [m for m in fake.channel_log.get(fake.general, []) if m.source == "channel"]
        round_posts = sum(1 for m in posts if f"**{NAME}** — round " in m.content)
        final = sum(1 for m in posts if f"**{NAME}** is over" in m.content)
        print(f"start: {players}-player double round robin of {kind}, {len(games)} games in "
              f"{round_no - 1} rounds, rate limit {rate_limit or 'off'} requests/s")
        print(f"  every first board posted {total:.1f} s after /tournament start "
              f"({total - results_time:.1f} s of it posting; the rest: simulated results)")
        print(f"  per round (start to its last first board): median {statistics.median(posted_in):.2f} s, "
              f"slowest {max(posted_in):.2f} s")
        print(f"  requests {fake.requests - requests0}, 429s {fake.rate_limited - limited0}")
        print(f"  threads {len(threads)}, first boards {sum(firsts.values())}, missing {len(missing)}, "
              f"doubled {len(doubled)}, pairing posts {round_posts}, final standings {final}")
        ok = (len(games) == expected and not missing and not doubled and len(threads) == expected
              and round_posts == round_no - 1 and final == 1 and not fake.refusals)
        print(f"  checks: {'ok' if ok else 'FAILED'}" + (f" (refusals {fake.refusals[:3]})" if fake.refusals else ""))
    finally:
        await harness.stop()
        restore()
        await fake.stop()
    return ok


def start(args: argparse.Namespace) -> bool:
    """The section: :func:`_run` on a temporary SQLite file migrated afresh. Returns whether
    every check passed."""
    tmp = Path(tempfile.mkdtemp(prefix="stonecast-tournament-"))
    try:
        return asyncio.run(_run(args.start_players, args.rate_limit or None, args.kind, tmp / "stonecast.db"))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """This section's options."""
    parser.add_argument("--start-players", type=int, default=20, help="round robin field size")
    parser.add_argument("--rate-limit", type=int, default=50, help="Discord's global limit (0: off)")
    parser.add_argument("--kind", default="io", help="the game played")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_arguments(parser)
    logging.basicConfig(level=logging.WARNING)
    return 0 if start(parser.parse_args()) else 1


if __name__ == "__main__":
    sys.exit(main())
