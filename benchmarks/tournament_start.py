"""Tournaments at scale, part 2 (issue 21, item 6): a 20-player double round robin (380 games)
started through the fake Discord with Discord's global rate limit on (50 requests/s).

The real bot (in this process, :class:`fakediscord.harness.BotHarness`, boards drawn in a
thread) on a fresh SQLite file. The moderator creates the tournament with ``/tournament
create``, 20 members join with ``/tournament join``, the moderator starts it with
``/tournament start``. A round robin starts every game of every round at once (the
service's rule): the start's one transaction makes all 380 games, and the bot posts their
threads and first boards (the outbox, paced under the rate limit) and the 38 rounds'
pairing posts. Then every game is resigned through the manager (results at once, no
Discord traffic) and the maintenance step (``advance_tournaments``) posts the final
standings.

Prints the time from ``/tournament start`` until the reply (the start's transaction) and
until every game's first board is posted, the requests the bot made and the 429s it got,
and checks that each of the 380 games got exactly one thread, named with the tournament and
its round, and exactly one first board in it (none missing, none doubled), the 38 pairing
posts, the Join button gone from the announcement, and the final standings.

    .venv/bin/python benchmarks/tournament_start.py [--players 20] [--rate-limit 50] [--kind io]

The section ``start`` of ``benchmarks/tournament.py`` runs :func:`start` with its arguments.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import shutil
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
        [announcement] = [m for m in fake.channel_log.get(fake.general, []) if m.custom_ids]
        started = time.perf_counter()
        ex = await fake.slash(fake.mod, "tournament start", {"name": NAME}, timeout=300)
        replied = time.perf_counter() - started
        assert "rounds at once" in ex.reply.content, ex.reply.content
        info = await manager.tournament_info(t.id, guild_id=fake.guild_id)
        ids = [p.game_id for p in info.pairings if p.game_id is not None]
        games: dict[int, object] = {}

        async def boards_posted() -> bool:
            for gid in ids:
                if gid in games:
                    continue
                g = await manager.get_game(gid)
                if not g.thread_id or not any(a.filename == f"stonecast-{gid}-0.png"
                                              for m in fake.channel_log.get(g.thread_id, []) for a in m.attachments):
                    return False
                games[gid] = g
            return True

        await _until(boards_posted, 600)
        total = time.perf_counter() - started
        requests1, limited1 = fake.requests, fake.rate_limited
        for gid, g in games.items():
            await manager.resign(gid, g.players[1])
        await harness.maintenance.advance_tournaments()
        round_no = info.tournament.current_round + 1
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
              f"{round_no - 1} rounds started at once, rate limit {rate_limit or 'off'} requests/s")
        print(f"  /tournament start answered in {replied:.1f} s (every game made in one transaction)")
        print(f"  every first board posted {total:.1f} s after /tournament start")
        print(f"  requests {requests1 - requests0}, 429s {limited1 - limited0} (until the last first board)")
        print(f"  threads {len(threads)}, first boards {sum(firsts.values())}, missing {len(missing)}, "
              f"doubled {len(doubled)}, pairing posts {round_posts}, final standings {final}, "
              f"Join button {'gone' if not announcement.custom_ids else 'STILL THERE'}")
        ok = (len(games) == expected and not missing and not doubled and len(threads) == expected
              and round_posts == round_no - 1 and final == 1 and not fake.refusals and not announcement.custom_ids)
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
