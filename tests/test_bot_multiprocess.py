"""Several bots on one PostgreSQL database (issue 14), in this process through the fake Discord:
the computer's moves searched once whatever bot asks, and a delivery pass slowed past its
lease keeping its rows. (Real ``python -m bot`` processes: tests/test_bot_cluster.py.)"""

import asyncio
import time

import pytest
from botplay import SMALL
from fakediscord.cluster import seed_games
from fakediscord.fixtures import *  # noqa: F403
from fakediscord.harness import BotHarness

from bot.config import Config, ConfigError
from bot.manager import GameManager

# tiny searches, as in tests/test_bot_computer.py
COMPUTER = {"playouts": 8, "review_options": {"level": 1, "playouts": 8, "seed": 1}}


def test_the_lease_and_the_maintenance_interval_come_from_the_environment():
    c = Config.from_env({"DISCORD_TOKEN": "t", "STONECAST_LEASE": " 2.5 ",
                         "STONECAST_MAINTENANCE_INTERVAL": "0.5"})
    assert (c.lease, c.maintenance_interval) == (2.5, 0.5)
    c = Config.from_env({"DISCORD_TOKEN": "t"})
    assert (c.lease, c.maintenance_interval) == (None, None)
    for bad in ("0", "-3", "soon", "nan", "1e9"):
        with pytest.raises(ConfigError, match="STONECAST_LEASE must be a number of seconds"):
            Config.from_env({"DISCORD_TOKEN": "t", "STONECAST_LEASE": bad})
    with pytest.raises(ConfigError, match="STONECAST_MAINTENANCE_INTERVAL"):
        Config.from_env({"DISCORD_TOKEN": "t", "STONECAST_MAINTENANCE_INTERVAL": "x"})


async def test_two_bots_on_one_database_search_each_computer_move_once(fake, pg_url):
    """Two bots (two shards, one each) on one PostgreSQL database; Alice plays the computer in
    the guild of one of them while both keep asking for the computer's pending moves (as
    their maintenance passes do): every move of the computer is searched by one bot only,
    played once, and its board posted once."""
    bots = [BotHarness(fake, pg_url, computer_options=dict(COMPUTER),
                       config_options={"shard_count": 2, "shard_ids": (k,)}) for k in range(2)]
    for h in bots:
        await h.start()
    searches: list[tuple[int, int, int]] = []  # (bot, game, ply)
    for k, h in enumerate(bots):
        def spy(original, k=k):
            async def search(game, level):
                searches.append((k, game.id, game.ply))
                return await original(game, level)
            return search
        h.bot.computer._search = spy(h.bot.computer._search)
    stop = asyncio.Event()

    async def keep_waking(h):
        while not stop.is_set():
            await h.bot.computer.wake()
            await asyncio.sleep(0.01)

    wakers = [asyncio.create_task(keep_waking(h)) for h in bots]
    try:
        owner = bots[fake.guild_shard(2)]
        ex = await fake.slash(fake.alice, "challenge io", {"opponent": fake.bot_user, **SMALL["io"],
                                                            "first": "me", "level": 1})
        assert "against the computer has started" in ex.reply.content, ex.reply.content
        gid = int(ex.reply.content.split("#", 1)[1].split(",", 1)[0])
        game = await owner.manager.get_game(gid)
        while game.status == "active" and game.ply < 12:
            move = next(iter(game.position.legal_moves()))
            ex = await fake.slash(fake.alice, "move", {"move": move}, channel=game.thread_id)
            assert ex.reply.ephemeral and "Illegal" not in ex.reply.content, ex.reply.content
            end = time.monotonic() + 30
            while True:
                game = await owner.manager.get_game(gid)
                if game.status != "active" or game.position.to_move == 1:
                    break
                assert time.monotonic() < end, "the computer never moved"
                await asyncio.sleep(0.02)
        stop.set()
        await asyncio.gather(*wakers)
        await fake.quiet()
        end = time.monotonic() + 10
        while any(h.bot.computer.searching for h in bots):  # requests of the last wakes end
            assert time.monotonic() < end
            await asyncio.sleep(0.02)
        moves = await owner.manager.moves(gid)
        computer_plies = [m.ply - 1 for m in moves if m.seat == 2]  # the ply each was chosen at
        assert len(computer_plies) >= 3
        searched = sorted((g, ply) for _, g, ply in searches)
        assert searched == [(gid, p) for p in computer_plies], searches
        assert len({k for k, _, _ in searches}) >= 1
        boards = [m for m in fake.channel_messages(game.thread_id) if m.attachments]
        assert len(boards) == 1 + len(moves)  # one board per move, none twice
        assert fake.nonce_hits == 0
        rows = await owner.manager.store.fetchall("SELECT claimed_by FROM computer_work")
        assert [r["claimed_by"] for r in rows] == [None]  # released after each move
    finally:
        stop.set()
        for task in wakers:
            task.cancel()
        for h in bots:
            await h.stop()


async def test_a_delivery_pass_slowed_past_its_lease_keeps_its_rows(fake, pg_url):
    """A bot whose lease is 0.6 s posts six announcements at 0.3 s each (Discord's rate limit
    slows it down): the pass outlasts the lease, renews it while it posts, and another
    process polling the outbox all along gets none of its rows; each is posted once. (Without
    the renewal the other process took the last rows after 0.6 s.)"""
    h = BotHarness(fake, pg_url, lease=0.6)
    await h.start()
    other = await GameManager.open(pg_url)
    try:
        games = await seed_games(h.manager, fake, [(fake.guild_id, fake.general)], 2, kinds=["io"])
        ids = [await h.manager.outbox_repo.add(g.id, "reminder", g.to_move.id, 0, time.time())
               for g in games for _ in range(3)]
        original = h.bot.announcer.post_announcement

        async def slow_post(a):
            await asyncio.sleep(0.3)
            await original(a)

        h.bot.announcer.post_announcement = slow_post
        stolen = []
        delivery = asyncio.create_task(h.bot.announcer.deliver())
        while len(await other.store.fetchall(  # the pass has claimed its rows
                "SELECT id FROM announcements WHERE claimed_by = ?", (h.manager.process_id,))) < 6:
            await asyncio.sleep(0.01)
        while not delivery.done():
            stolen += await other.pending_announcements(board_grace=0)
            await asyncio.sleep(0.05)
        await delivery
        assert stolen == []
        assert await other.pending_announcements(board_grace=0) == []
        nonces = [m.nonce for m in fake.messages.values() if m.nonce]
        assert sorted(nonces) == sorted(f"stonecast-{i}" for i in ids)
        assert fake.nonce_hits == 0
    finally:
        await other.close()
        await h.stop()


async def test_a_bot_that_dies_mid_search_leaves_the_move_to_another_after_its_lease(fake, pg_url):
    """Bot A (lease 1.5 s) starts a long search of the computer's move, then dies without a
    word (no renewal, no release). Bot B, asking all along, does not search it while A's
    lease lasts; then it claims it, searches and plays the move, once."""
    a = BotHarness(fake, pg_url, lease=1.5, computer_options={"playouts": None})
    b = BotHarness(fake, pg_url, lease=1.5, computer_options=dict(COMPUTER),
                   config_options={"shard_count": 2, "shard_ids": (1,)})  # no guild of its own
    await a.start()
    try:
        ex = await fake.slash(fake.alice, "challenge io", {"opponent": fake.bot_user, **SMALL["io"],
                                                            "first": "opponent", "level": 5})
        assert "against the computer has started" in ex.reply.content, ex.reply.content
        gid = int(ex.reply.content.split("#", 1)[1].split(",", 1)[0])
        assert a.bot.computer.thinking(gid)
        end = time.monotonic() + 10  # the search's task claims the move in the database first
        while (claim := await a.manager.claims_repo.holder(gid, "move"))[0] is None:
            assert time.monotonic() < end, "A never claimed the move it is thinking about"
            await asyncio.sleep(0.01)
        holder, lease_until = claim
        assert holder == a.manager.process_id
        await b.start()  # its first maintenance pass asks for the move: A holds it
        assert not b.bot.computer.thinking(gid)

        async def dead(*_args):  # A dies: it renews and releases nothing any more
            return False
        a.bot.manager.renew_computer_work = a.bot.manager.release_computer_work = dead
        await a.stop()
        searched_at = []
        original = b.bot.computer._search

        async def spy(game, level):
            searched_at.append(time.time())
            return await original(game, level)
        b.bot.computer._search = spy
        end = time.monotonic() + 30
        while (await b.manager.get_game(gid)).ply == 0:
            await b.bot.computer.wake()
            assert time.monotonic() < end, "B never played the move"
            await asyncio.sleep(0.05)
        assert len(searched_at) == 1 and searched_at[0] >= lease_until
        [move] = await b.manager.moves(gid)
        assert move.seat == 1
    finally:
        await b.stop()
        await a.stop()


async def test_a_review_another_process_is_computing_is_not_computed_twice(fake, tmp_path):
    """/review of a game whose review another process has claimed: the player is told it is
    being reviewed already and nothing is searched here; once that claim is released, /review
    computes it."""
    from botplay import start_game

    h = BotHarness(fake, tmp_path / "r.db", computer_options=dict(COMPUTER))
    await h.start()
    try:
        game, _, _ = await start_game(fake, h, "io", fake.alice, fake.bob)
        while game.status == "active":
            user = fake.alice if game.position.to_move == 1 else fake.bob
            await fake.slash(user, "move", {"move": next(iter(game.position.legal_moves()))},
                             channel=game.thread_id)
            game = await h.manager.get_game(game.id)
        now = time.time()
        assert await h.manager.claims_repo.take(game.id, "review", "another-process", now, now + 300)
        ex = await fake.slash(fake.alice, "review", {"game": game.id})
        assert "being reviewed already" in ex.reply.content, ex.reply.content
        assert await h.manager.cached_review(game.id) is None
        assert await h.manager.claims_repo.release(game.id, "review", "another-process")
        await fake.slash(fake.alice, "review", {"game": game.id})
        end = time.monotonic() + 60
        while await h.manager.cached_review(game.id) is None:  # searched here now
            assert time.monotonic() < end, "the review was never made"
            await asyncio.sleep(0.1)
        assert await h.manager.claims_repo.holder(game.id, "review") == (None, None)
    finally:
        await h.stop()
