"""End to end: bad inputs get an ephemeral message that says what to do, and change nothing."""

import asyncio
import logging

import pytest
from botplay import Clock, play_move, start_game, wait_for
from fakediscord.fixtures import *  # noqa: F403

import engine

pytestmark = pytest.mark.skipif("io" not in engine.GAMES, reason="Io engine missing")


def assert_refused(ex, *words):
    """The bot answered only the acting user, posted nothing and said something with ``words``."""
    assert ex.reply.ephemeral, ex.reply.content
    assert ex.posts == [], [m.content for m in ex.posts]
    text = ex.reply.content.lower()
    for w in words:
        assert w.lower() in text, ex.reply.content


async def test_malformed_illegal_and_out_of_turn_moves(fake, harness):
    game, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob)
    t = game.thread_id
    assert_refused(await play_move(fake, fake.alice, "hello", channel=t), "cannot read")
    assert_refused(await play_move(fake, fake.alice, "z99", channel=t), "cannot read")
    assert_refused(await play_move(fake, fake.alice, "a1", channel=t), "illegal")  # corner on move 1
    assert_refused(await play_move(fake, fake.bob, "c3", channel=t), "not your turn")
    assert (await harness.manager.get_game(game.id)).ply == 0
    ex = await play_move(fake, fake.alice, "c3", channel=t)
    assert len(ex.posts) == 1
    assert_refused(await play_move(fake, fake.alice, "b2 d4", channel=t), "not your turn")
    # bob's bound stone must touch c3: e5 alone (a free-looking cell) is refused
    assert_refused(await play_move(fake, fake.bob, "a5 e1", channel=t), "illegal")
    assert_refused(await play_move(fake, fake.carol, "b2 e5", channel=t), "not playing")
    assert (await harness.manager.get_game(game.id)).ply == 1


async def test_unknown_and_unresolvable_games(fake, harness):
    assert_refused(await play_move(fake, fake.alice, "c3", game_id=999), "no game is numbered 999")
    assert_refused(await fake.slash(fake.alice, "board", {"game": 999}), "no game is numbered 999")
    assert_refused(await fake.slash(fake.alice, "resign", {"game": 999}), "no game is numbered 999")
    assert_refused(await play_move(fake, fake.alice, "c3"), "no games")
    # two games waiting for alice: /move outside a thread must say which
    await start_game(fake, harness, "io", fake.alice, fake.bob)
    await start_game(fake, harness, "io", fake.alice, fake.mod)
    assert_refused(await play_move(fake, fake.alice, "c3"), "game:")


async def test_challenge_refusals(fake, harness):
    assert_refused(await fake.slash(fake.alice, "challenge io", {"opponent": fake.alice}), "yourself")
    assert_refused(await fake.slash(fake.alice, "challenge io", {"opponent": fake.otherbot}), "bot")
    assert not any(m.source == "channel" for m in fake.messages.values())
    assert await harness.manager.open_challenges(fake.alice.id) == []


async def test_strangers_and_stale_buttons(fake, harness):
    ex = await fake.slash(fake.alice, "challenge io", {"opponent": fake.bob, "size": 5})
    [msg] = ex.posts
    cid = int(msg.custom_ids[0].rsplit(":", 1)[1])
    accept, decline, cancel = msg.custom_ids
    assert_refused(await fake.click(fake.carol, msg, accept), "someone else")
    assert_refused(await fake.click(fake.carol, msg, decline), "someone else")
    assert_refused(await fake.click(fake.carol, msg, cancel), "only the player who sent")
    assert_refused(await fake.click(fake.alice, msg, accept), "your own challenge")
    assert_refused(await fake.click(fake.bob, msg, cancel), "only the player who sent")
    assert (await harness.manager.get_challenge(cid)).status == "open"
    assert msg.custom_ids == [accept, decline, cancel]  # refusals leave the message alone
    # a stale copy of the buttons: the challenge is cancelled, then someone presses Accept
    stale = fake.messages[msg.id]
    snapshot = list(stale.components)
    ex = await fake.click(fake.alice, msg, cancel)
    assert ex.posts == [] and msg.components == [] and "withdrawn" in msg.content.lower()
    stale.components = snapshot  # e.g. a client that still shows the old buttons
    assert_refused(await fake.click(fake.bob, stale, accept), "no longer open")
    assert stale.components == [] and "Withdrawn" in stale.content  # the stale buttons are gone
    assert (await harness.manager.get_challenge(cid)).status == "cancelled"
    assert fake.threads() == []


async def test_decline(fake, harness):
    ex = await fake.slash(fake.alice, "challenge coil", {"opponent": fake.bob})
    [msg] = ex.posts
    ex = await fake.click(fake.bob, msg, msg.custom_ids[1])
    assert ex.posts == [] and msg.components == [] and "declined" in msg.content
    assert msg in ex.edited


async def test_resign_button_refusals(fake, harness):
    game, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob)
    assert_refused(await fake.slash(fake.carol, "resign", {"game": game.id}), "not playing")
    ex = await fake.slash(fake.bob, "resign", {}, channel=game.thread_id)
    confirm = ex.reply
    assert confirm.ephemeral and confirm.custom_ids == [f"stonecast:resign:{game.id}:{fake.bob.id}"]
    assert_refused(await fake.click(fake.carol, confirm, confirm.custom_ids[0]), "someone else")
    assert (await harness.manager.get_game(game.id)).status == "active"


async def test_unexpected_error_hides_internals(fake, harness, monkeypatch, caplog):
    game, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob)

    async def broken(*args, **kwargs):
        raise RuntimeError("database exploded: secret internals")

    monkeypatch.setattr(harness.manager.services.play, "play_move", broken)  # where /move lands
    with caplog.at_level(logging.ERROR, logger="stonecast.bot"):
        ex = await play_move(fake, fake.alice, "c3", channel=game.thread_id)
    assert_refused(ex, "went wrong")
    assert "secret" not in ex.reply.content and "RuntimeError" not in ex.reply.content
    assert any("secret internals" in (r.exc_text or "") or
               (r.exc_info and "secret internals" in str(r.exc_info[1])) for r in caplog.records)



async def test_challenge_lapses_after_a_day(fake, sqlite_db):
    from fakediscord.harness import BotHarness

    clock = Clock()
    harness = BotHarness(fake, sqlite_db("clock.db"), clock=clock)
    await harness.start()
    try:
        ex = await fake.slash(fake.alice, "challenge io", {"opponent": fake.bob})
        [msg] = ex.posts
        accept = msg.custom_ids[0]
        clock.t += 23 * 3600
        assert await harness.maintenance.expire_challenges() == 0 and msg.custom_ids
        clock.t += 2 * 3600
        assert await harness.maintenance.expire_challenges() == 1
        assert msg.components == [] and "lapsed" in msg.content
        msg.components = [{"type": 1, "components": [{"type": 2, "style": 3, "label": "Accept",
                                                      "custom_id": accept}]}]
        assert_refused(await fake.click(fake.bob, msg, accept), "no longer open")
        assert fake.threads() == []
    finally:
        await harness.stop()


async def test_a_board_that_cannot_be_drawn_never_hides_a_saved_action(fake, harness, monkeypatch, caplog):
    # Once the manager committed an acceptance, a move or a resignation, a failure drawing the
    # board must not produce "nothing was changed": the reply says what was saved.
    async def broken(*args, **kwargs):
        raise RuntimeError("renderer exploded")

    game, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob)
    monkeypatch.setattr(harness.bot.renderer, "render", broken)
    with caplog.at_level(logging.WARNING, logger="stonecast.bot"):
        ex = await play_move(fake, fake.alice, "c3", channel=game.thread_id)
        assert (await harness.manager.get_game(game.id)).ply == 1
        assert ex.reply.ephemeral and ex.posts == []
        text = ex.reply.content
        assert "You played `c3`" in text and "saved" in text and "nothing was changed" not in text
        assert "renderer exploded" not in text

        confirm = (await fake.slash(fake.alice, "resign", {"game": game.id})).reply
        ex = await fake.click(fake.alice, confirm, confirm.custom_ids[0])
        assert (await harness.manager.get_game(game.id)).status == "finished"
        assert "You resigned" in confirm.content and ex.posts == []
        assert ex.reply is None or "nothing was changed" not in ex.reply.content

        ex = await fake.slash(fake.alice, "challenge io", {"opponent": fake.bob, "size": 5})
        [msg] = ex.posts
        ex = await fake.click(fake.bob, msg, msg.custom_ids[0])
        assert "Accepted by" in msg.content and msg.components == []
        assert "nothing was changed" not in (ex.reply.content if ex.reply else "")
    assert any("renderer exploded" in str(r.exc_info[1]) for r in caplog.records if r.exc_info)


async def test_the_maintenance_loop_survives_failing_steps(fake, sqlite_db, monkeypatch, caplog):
    from fakediscord.harness import BotHarness

    import bot.front.client

    monkeypatch.setattr(bot.front.client, "MAINTENANCE_INTERVAL", 0.01)
    harness = BotHarness(fake, sqlite_db("loop.db"))
    calls = {"expire": 0, "sweep": 0}
    await harness.start()
    try:
        async def expire():
            calls["expire"] += 1
            raise RuntimeError("expiry exploded")

        async def sweep(now=None):
            calls["sweep"] += 1
            raise RuntimeError("sweep exploded")

        monkeypatch.setattr(harness.manager, "expire_challenges", expire)
        monkeypatch.setattr(harness.manager, "sweep", sweep)
        with caplog.at_level(logging.ERROR, logger="stonecast.bot"):
            for _ in range(500):
                if min(calls.values()) >= 3:
                    break
                await asyncio.sleep(0.01)
        assert calls["expire"] >= 3 and calls["sweep"] >= 3  # every step ran again and again
        assert harness.maintenance.maintenance.is_running()
        assert any("sweep exploded" in str(r.exc_info[1]) for r in caplog.records if r.exc_info)
    finally:
        await harness.stop()


async def test_a_failure_after_the_move_was_committed_does_not_say_nothing_changed(fake, harness, monkeypatch,
                                                                                  caplog):
    game, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob)

    async def broken(*args, **kwargs):
        raise RuntimeError("the board post failed")

    monkeypatch.setattr(harness.bot.announcer, "publish", broken)  # after the manager committed
    with caplog.at_level(logging.ERROR, logger="stonecast.bot"):
        ex = await play_move(fake, fake.alice, "c3", channel=game.thread_id)
    assert_refused(ex, "went wrong")
    assert "nothing was changed" not in ex.reply.content and "/games" in ex.reply.content
    assert (await harness.manager.get_game(game.id)).ply == 1  # the move was played


async def test_a_command_cut_short_by_the_bots_shutdown_is_not_an_error(fake, harness, monkeypatch, caplog):
    """A command still running when the bot closes (a long /review at a restart) can no longer
    be answered: Discord's session is gone. Its failure is a warning, not an unexpected error,
    no reply is tried (which would fail again, unretrieved), and the new bot works."""
    game, _, _ = await start_game(fake, harness, "io", fake.alice, fake.bob)
    entered, release = asyncio.Event(), asyncio.Event()

    async def held(*args, **kwargs):
        entered.set()
        await release.wait()
        raise RuntimeError("Session is closed")  # what the old bot's first request raises

    monkeypatch.setattr(harness.manager.services.play, "play_move", held)
    waiting = asyncio.create_task(play_move(fake, fake.alice, "c3", channel=game.thread_id))
    await entered.wait()
    with caplog.at_level(logging.WARNING):
        await harness.restart()
        release.set()
        await wait_for(lambda: any("cut short" in r.getMessage() for r in caplog.records))
    waiting.cancel()
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert any("cut short" in r.getMessage() and r.levelno == logging.WARNING for r in caplog.records)
    ex = await play_move(fake, fake.alice, "c3", channel=game.thread_id)
    assert (await harness.manager.get_game(game.id)).ply == 1, ex.reply  # the new bot played it
