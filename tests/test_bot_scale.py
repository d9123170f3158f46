"""Discord's global rate limit in the fake Discord, honoured by the real client; guilds spread
over shards; several real ``python -m bot`` processes against one fake (issue 14)."""

import asyncio
import json
import random

import aiohttp
import pytest
from fakediscord import FakeDiscord
from fakediscord.cluster import BotProcesses, seed_games, shard_block, shard_ids_text
from fakediscord.fixtures import *  # noqa: F401,F403
from fakediscord.harness import BotHarness

# ---------------------------------------------------------------- the fake's global limit


async def test_fake_answers_429_past_the_global_limit_and_spares_interaction_endpoints():
    fake = FakeDiscord(global_rate_limit=50)
    await fake.start()
    try:
        auth = {"Authorization": f"Bot {fake.token}"}
        async with aiohttp.ClientSession() as http:
            statuses = []
            for _ in range(50):
                async with http.get(f"{fake.base_url}/api/v10/users/@me", headers=auth) as r:
                    statuses.append(r.status)
            assert statuses == [200] * 50
            async with http.get(f"{fake.base_url}/api/v10/users/@me", headers=auth) as r:
                assert r.status == 429
                assert r.headers["X-RateLimit-Global"] == "true"
                assert r.headers["X-RateLimit-Scope"] == "global"
                assert int(r.headers["Retry-After"]) >= 1
                assert "Via" in r.headers  # else discord.py takes it for a Cloudflare ban
                body = json.loads(await r.text())
                assert body["global"] is True and 0 < body["retry_after"] <= 1.0
                assert body["message"]
            assert fake.rate_limited == 1
            # interaction endpoints are not bound by it: an unknown token is a 404, not a 429
            async with http.post(f"{fake.base_url}/api/v10/interactions/1/nope/callback",
                                 json={"type": 4}) as r:
                assert r.status == 404
            await asyncio.sleep(1.05)  # the window ends: requests go through again
            async with http.get(f"{fake.base_url}/api/v10/users/@me", headers=auth) as r:
                assert r.status == 200
    finally:
        await fake.stop()


async def test_the_limit_is_off_by_default(fake):
    auth = {"Authorization": f"Bot {fake.token}"}
    async with aiohttp.ClientSession() as http:
        for _ in range(80):
            async with http.get(f"{fake.base_url}/api/v10/users/@me", headers=auth) as r:
                assert r.status == 200
    assert fake.rate_limited == 0


async def test_discord_py_waits_and_retries_on_the_global_limit(harness, fake):
    """120 posts at once through the bot's own client: past 50 in a second Discord answers
    429; discord.py waits and retries, and every post arrives exactly once."""
    fake.global_rate_limit = 50
    channel = harness.bot.get_partial_messageable(fake.general, guild_id=fake.guild_id)
    sent = await asyncio.gather(*(channel.send(f"post {i}") for i in range(120)))
    assert len(sent) == 120
    posts = [m.content for m in fake.channel_messages(fake.general)]
    assert sorted(posts) == sorted(f"post {i}" for i in range(120))
    assert fake.rate_limited > 0
    times = sorted(m.created_perf for m in fake.channel_messages(fake.general))
    assert times[-1] - times[0] >= 1.0  # 120 requests need three one-second windows
    assert not fake.errors


async def test_moves_through_the_limit_each_post_their_board_once(harness, fake):
    """60 /move at once in 60 games (set up through the manager) with the limit on: every
    move is acknowledged and committed, and its board posted exactly once."""
    games = await seed_games(harness.manager, fake, [(fake.guild_id, fake.general)], 60)
    fake.global_rate_limit = 50
    moves = [g.position.random_move(random.Random(g.id)) for g in games]
    expected = [fake.expect_post(g.thread_id, lambda m, mv=mv: m.source == "channel" and f"`{mv}`" in m.content)
                for g, mv in zip(games, moves, strict=True)]
    exchanges = await asyncio.gather(*(fake.slash(g.to_move, "move", {"move": mv}, channel=g.thread_id,
                                                  timeout=60)
                                       for g, mv in zip(games, moves, strict=True)))
    boards = await asyncio.wait_for(asyncio.gather(*expected), 60)
    for g, mv, ex, board in zip(games, moves, exchanges, boards, strict=True):
        assert ex.reply.ephemeral and ex.acknowledged is not None
        assert (await harness.manager.get_game(g.id)).ply == 1
        assert board.attachments and board.channel_id == g.thread_id and f"`{mv}`" in board.content
        assert [m for m in fake.channel_messages(g.thread_id) if m.source == "channel"] == [board]
    assert not fake.errors


# ---------------------------------------------------------------- guilds over shards


def test_shard_blocks_split_every_shard_once():
    assert [shard_block(k, 3, 3) for k in range(3)] == [[0], [1], [2]]
    assert [shard_block(k, 3, 8) for k in range(3)] == [[0, 1, 2], [3, 4, 5], [6, 7]]
    assert shard_ids_text([3, 4, 5]) == "3-5" and shard_ids_text([2]) == "2"
    with pytest.raises(ValueError):
        shard_block(0, 3, 2)


async def test_each_shard_gets_its_own_guilds(fake, tmp_path):
    """Two guilds on two shards run by two bots (one shard each, one database each here):
    each bot is told of its guild only, and an interaction in a guild reaches its shard."""
    other, other_channel = fake.add_guild("second", shard=(1 - fake.guild_shard(2), 2))
    assert fake.guild_shard(2, other) != fake.guild_shard(2)
    bots = [BotHarness(fake, tmp_path / f"b{k}.db",
                       config_options={"shard_count": 2, "shard_ids": (k,)})
            for k in range(2)]
    for h in bots:
        await h.start()
    try:
        mine = {k: [g.id for g in h.bot.guilds] for k, h in enumerate(bots)}
        assert mine[fake.guild_shard(2)] == [fake.guild_id]
        assert mine[fake.guild_shard(2, other)] == [other]
        ex = await fake.slash(fake.alice, "help", channel=other_channel)
        assert ex.reply.ephemeral
        owner = bots[fake.guild_shard(2, other)]
        game_ex = await fake.slash(fake.alice, "challenge io", {"opponent": fake.bob, "size": 5},
                                   channel=other_channel)
        [msg] = game_ex.posts
        await fake.click(fake.bob, msg, msg.custom_ids[0])
        [game] = await owner.manager.active_games(fake.alice.id)
        assert game.guild_id == other
        thread = fake.channels[game.thread_id]
        assert thread["guild_id"] == str(other) and thread["parent_id"] == str(other_channel)
    finally:
        for h in bots:
            await h.stop()


# ---------------------------------------------------------------- real processes


async def test_a_python_m_bot_process_plays_against_the_fake(tmp_path):
    """``python -m bot`` as a child process, pointed at the fake over 127.0.0.1 with its
    shards: it connects, syncs, answers /move on a game set up beforehand and posts the
    board; SIGTERM stops it cleanly."""
    from bot.manager import GameManager

    fake = FakeDiscord(global_rate_limit=50, timeout=30)
    await fake.start()
    try:
        places = [fake.add_guild(f"g{k}", shard=(k, 2)) for k in range(2)]
        db = tmp_path / "stonecast.db"
        manager = await GameManager.open(db)
        games = await seed_games(manager, fake, places, 2, kinds=["io"])
        await manager.close()
        procs = BotProcesses(fake, db, processes=1, shard_count=2, render_workers=0)
        await procs.start()
        try:
            assert sorted(d["shard"][0] for d in fake.identifies) == [0, 1]
            [(rss, _workers)] = procs.rss()
            assert rss > 10_000  # KiB: a real Python process with discord.py loaded
            for g in games:
                move = g.position.random_move(random.Random(1))
                board = fake.expect_post(g.thread_id, lambda m, mv=move: m.source == "channel" and f"`{mv}`" in m.content)
                ex = await fake.slash(g.to_move, "move", {"move": move}, channel=g.thread_id)
                assert ex.reply.ephemeral, ex.reply.content
                assert (await asyncio.wait_for(board, 30)).attachments
        finally:
            assert await procs.stop() == [0], procs.log_tail(0)
    finally:
        await fake.stop()

