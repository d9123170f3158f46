"""End to end (issue 13): /settings, move confirmation (a confirmed, a cancelled and a stale
move), /next stepping through three games, and the daily digest arriving once a day -- through
the fake Discord, with the injectable clock."""

from pathlib import Path

import pytest
from botplay import Clock, board_post, play_move, start_game
from fakediscord.fixtures import fake  # noqa: F401
from fakediscord.harness import BotHarness

from bot import texts

DAY, HOUR = 86400.0, 3600.0
SHOTS = Path("/tmp/corr2")


@pytest.fixture
def clock():
    return Clock()  # 2027-01-15 08:00 UTC


@pytest.fixture
async def harness(fake, sqlite_db, clock):  # noqa: F811
    h = BotHarness(fake, sqlite_db("turns.db"), clock=clock)
    await h.start()
    try:
        yield h
    finally:
        await h.stop()
    assert not fake.unknown_routes


def custom_id(msg, prefix):
    return next(c for c in msg.custom_ids if c.startswith(prefix))


async def test_settings_show_and_change(fake, harness):  # noqa: F811
    ex = await fake.slash(fake.alice, "settings", {})
    assert ex.reply.ephemeral and "direct messages: off" in ex.reply.content and "confirmation: off" in ex.reply.content
    ex = await fake.slash(fake.alice, "settings", {"dm": "digest"})
    assert "hour:" in ex.reply.content  # no hour yet: said clearly, nothing changed
    assert (await harness.manager.settings(fake.alice.id)).dm_mode == "off"
    ex = await fake.slash(fake.alice, "settings", {"dm": "digest", "hour": 18, "confirm": "on"})
    assert "daily digest at 18:00 UTC" in ex.reply.content and "confirmation: on" in ex.reply.content
    ex = await fake.slash(fake.alice, "notify", {"dm": "on"})  # the old command still works
    s = await harness.manager.settings(fake.alice.id)
    assert (s.dm_mode, s.confirm) == ("on", True)


async def test_confirmed_cancelled_and_stale_moves(fake, harness):  # noqa: F811
    game, _, _ = await start_game(fake, harness, "coil", fake.alice, fake.bob)
    thread = game.thread_id
    await fake.slash(fake.alice, "settings", {"confirm": "on"})
    ex = await play_move(fake, fake.alice, "a1", channel=thread)
    preview = ex.reply
    assert preview.ephemeral and ex.posts == [] and "Nothing is played until you press **Confirm**" in preview.content
    assert preview.png().size[0] > 0
    if SHOTS.is_dir():
        preview.png().save(SHOTS / "confirm_preview.png")
    assert (await harness.manager.get_game(game.id)).ply == 0  # nothing stored
    # bob cannot press alice's buttons
    ex = await fake.click(fake.bob, preview, custom_id(preview, "stonecast:confirm:"))
    assert ex.reply.ephemeral and ex.reply.content == texts.NOT_YOUR_CONFIRMATION
    # cancelled: nothing played, the preview says so
    ex = await fake.click(fake.alice, preview, custom_id(preview, "stonecast:cancelmove:"))
    assert preview.content == texts.MOVE_CANCELLED and not preview.custom_ids and not preview.attachments
    assert (await harness.manager.get_game(game.id)).ply == 0 and ex.posts == []
    # two previews of the same turn: the first confirmed is played, the second refused
    first = (await play_move(fake, fake.alice, "b1", channel=thread)).reply
    second = (await play_move(fake, fake.alice, "c1", channel=thread)).reply
    ex = await fake.click(fake.alice, first, custom_id(first, "stonecast:confirm:"))
    board = board_post(ex)
    assert "played `b1`" in board.content and board.pings == {fake.bob.id}
    assert first.content.startswith("You played `b1`") and not first.custom_ids
    ex = await fake.click(fake.alice, second, custom_id(second, "stonecast:confirm:"))
    assert ex.posts == [] and "changed since you chose that move" in second.content
    assert [m.move for m in await harness.manager.moves(game.id)] == ["b1"]
    # a confirm after the game ended is refused too
    await fake.slash(fake.bob, "move", {"move": "d1"}, channel=thread)
    third = (await play_move(fake, fake.alice, "e1", channel=thread)).reply
    await harness.manager.resign(game.id, fake.bob.id)
    await fake.click(fake.alice, third, custom_id(third, "stonecast:confirm:"))
    assert "is over" in third.content and len(await harness.manager.moves(game.id)) == 2


async def test_next_steps_through_three_games(fake, harness, clock):  # noqa: F811
    games = []
    for kind in ("coil", "io", "whirlwind"):
        g, _, _ = await start_game(fake, harness, kind, fake.alice, fake.bob)
        games.append(g)
        clock.t += HOUR  # each game's deadline later than the one before
    await play_move(fake, fake.alice, "a1", game_id=games[0].id)  # then bob's: not in alice's queue
    ex = await fake.slash(fake.bob, "next", {})
    assert "1 of 1" in ex.reply.content and not ex.reply.custom_ids  # bob: only that one
    # alice's queue: the io and whirlwind games; a new coil game with the most urgent deadline
    clock.t -= 10 * HOUR
    g, _, _ = await start_game(fake, harness, "coil", fake.alice, fake.bob)
    order = [g.id, games[1].id, games[2].id]
    ex = await fake.slash(fake.alice, "next", {})
    msg = ex.reply
    seen = []
    for i in range(3):
        assert msg.ephemeral and msg.attachments and f"{i + 1} of 3" in msg.content
        assert "left" in msg.content and "Thread: <#" in msg.content
        seen.append(int(msg.content.split("#", 1)[1].split("*", 1)[0]))
        if i < 2:
            ex = await fake.click(fake.alice, msg, custom_id(msg, "stonecast:next:"))
            msg = ex.reply
    assert seen == order and not msg.custom_ids  # the last one has no Next
    ex = await fake.click(fake.bob, ex.message, custom_id(ex.message, "stonecast:next:"))
    assert ex.reply.content == texts.NOT_YOUR_QUEUE


async def test_digest_arrives_once_a_day_instead_of_per_move_dms(fake, harness, clock):  # noqa: F811
    await fake.slash(fake.bob, "settings", {"dm": "digest", "hour": 9})  # it is 08:00 UTC
    one, _, _ = await start_game(fake, harness, "coil", fake.alice, fake.bob)
    two, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob)
    ex = await play_move(fake, fake.alice, "a1", game_id=one.id)
    assert [m for m in ex.posts if not m.guild_id] == []  # no per-move DM to bob
    await play_move(fake, fake.alice, "c3", game_id=two.id)

    def digests():
        cid = fake.dm_channel(fake.bob)
        return [] if cid is None else [m for m in fake.channel_messages(cid) if "daily Stonecast digest" in m.content]

    clock.t += 30 * 60  # 08:30
    await harness.maintenance.sweep_clocks()
    assert digests() == []
    clock.t += 30 * 60  # 09:00: the digest
    await harness.maintenance.sweep_clocks()
    await fake.quiet(0.1)
    [digest] = digests()
    assert "2 games waiting" in digest.content and digest.pings == frozenset()
    assert f"Coil #{one.id}" in digest.content and f"Io #{two.id}" in digest.content
    assert "3 days a move, 2 d 23 h left" in digest.content
    clock.t += 5 * HOUR  # later that day: nothing more, also after a restart
    await harness.restart()
    await harness.maintenance.sweep_clocks()
    await fake.quiet(0.1)
    assert len(digests()) == 1
    await play_move(fake, fake.bob, "b2", game_id=one.id)  # one game left waiting for bob
    clock.t += 18 * HOUR  # the next day, 08:00 -- not yet
    await harness.maintenance.sweep_clocks()
    assert len(digests()) == 1
    clock.t += HOUR  # 09:00
    await harness.maintenance.sweep_clocks()
    await fake.quiet(0.1)
    assert len(digests()) == 2 and "1 game waiting" in digests()[1].content
