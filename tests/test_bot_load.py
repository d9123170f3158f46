"""The bot under load (issue 14, scale): a delivery pass goes on while the outbox has due
rows, and a move in a game whose players this process never saw asks Discord for no user
(their display names are stored in the database)."""

from __future__ import annotations

import asyncio
import random

from botplay import play_move
from fakediscord.cluster import seed_games
from fakediscord.fixtures import *  # noqa: F403

from bot.front import client, delivery
from bot.manager import DAY


async def test_one_delivery_pass_posts_more_than_one_batch(fake, harness, monkeypatch):
    # batches of 10 rows: the pass reads the outbox a batch at a time whatever its size, and
    # the real 100 would draw 107 final boards (5 s of CPU) to show the same
    monkeypatch.setattr(delivery, "DELIVERY_BATCH", 10)
    n = 2 * delivery.DELIVERY_BATCH + 7
    games = await seed_games(harness.manager, fake, [(fake.guild_id, fake.general)], n,
                             kinds=["io"], started_ago=4 * DAY, days_per_move=3)
    events = await harness.manager.sweep()
    assert sorted(e.game.id for e in events if e.kind == "timeout") == [g.id for g in games]
    assert await harness.bot.announcer.deliver() == n
    assert await harness.manager.pending_announcements(board_grace=0) == []
    for g in games:
        notes = [m for m in fake.channel_messages(g.thread_id) if m.source == "channel"]
        assert len(notes) == 1, g


async def test_a_move_by_players_this_process_never_saw_asks_discord_for_no_user(fake, harness):
    (game,) = await seed_games(harness.manager, fake, [(fake.guild_id, fake.general)], 1, kinds=["io"])
    before = dict(fake.route_counts)
    move = game.position.random_move(random.Random(1))
    ex = await play_move(fake, game.to_move, move, channel=game.thread_id)
    await harness.settle()  # the board posted (rendered with both names)
    assert f"`{move}`" in ex.reply.content or any(f"`{move}`" in m.content for m in ex.posts)
    assert fake.route_counts.get("get_user", 0) == before.get("get_user", 0)
    opponent = next(u for u in game.players if u.id != game.to_move.id)
    assert harness.bot.cached_name(opponent.id) == opponent.name.title()


async def test_a_player_seen_is_stored_for_other_processes(fake, harness):
    await harness.bot.manager.remember_name(fake.bob.id, "Bobby")
    real, writes = harness.manager.remember_names, []

    async def counting(names):
        writes.append(dict(names))
        await real(names)

    harness.manager.remember_names = counting
    harness.bot.remember(_user(fake.alice.id, "Alice A."))
    harness.bot.remember(_user(fake.carol.id, "Caroline"))
    harness.bot.remember(_user(fake.alice.id, "Alice A."))  # known: not written again
    await asyncio.sleep(client.NAME_FLUSH_DELAY + 0.5)
    names = await harness.manager.display_names([fake.alice.id, fake.bob.id, fake.carol.id, 42])
    assert names == {fake.alice.id: "Alice A.", fake.bob.id: "Bobby", fake.carol.id: "Caroline"}
    assert writes == [{fake.alice.id: "Alice A.", fake.carol.id: "Caroline"}]  # one write for the burst


def _user(uid: int, name: str):
    class U:
        id = uid
        display_name = name
    return U()


async def test_names_noted_just_before_the_bot_closes_are_stored(fake, tmp_path, caplog):
    from fakediscord.harness import BotHarness

    h = BotHarness(fake, tmp_path / "names.db")
    await h.start()
    h.bot.remember(_user(fake.alice.id, "Alice at closing time"))  # its write waits NAME_FLUSH_DELAY
    await h.stop()  # closes the manager within that delay
    assert not [r for r in caplog.records if "display names" in r.getMessage()]
    await h.start()
    try:
        assert await h.manager.display_names([fake.alice.id]) == {fake.alice.id: "Alice at closing time"}
    finally:
        await h.stop()
