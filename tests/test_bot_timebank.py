"""End to end (issue 13 "Time banks"): a bank clock chosen on /challenge, shown on the
challenge, the board and /games, reminding and timing out through the maintenance sweep
across a restart -- with the injectable clock."""

from datetime import UTC, datetime
from pathlib import Path

import pytest
from botplay import Clock, board_post, play_move, start_game
from fakediscord.fixtures import fake  # noqa: F401
from fakediscord.harness import BotHarness
from test_bot_correspondence import posts_with, wait_for

from bot import texts
from bot.rules import timecontrol

DAY, HOUR = 86400.0, 3600.0
SHOTS = Path("/tmp/corr2")


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
async def harness(fake, sqlite_db, clock):  # noqa: F811
    h = BotHarness(fake, sqlite_db("bank.db"), clock=clock)
    await h.start()
    try:
        yield h
    finally:
        await h.stop()
    assert not fake.unknown_routes


async def test_clock_option_offers_the_presets(fake, harness):  # noqa: F811
    sub = next(o for o in fake.command("challenge")["options"] if o["name"] == "coil")
    clock_opt = next(o for o in sub["options"] if o["name"] == "clock")
    assert [c["name"] for c in clock_opt["choices"]] == list(timecontrol.PRESETS)
    assert [timecontrol.parse(c["value"]) for c in clock_opt["choices"]] == list(timecontrol.PRESETS.values())


async def test_a_bank_clock_reminds_then_times_out(fake, harness, clock):  # noqa: F811
    game, challenge, first = await start_game(
        fake, harness, "coil", fake.alice, fake.bob,
        options={"size": 5, "clock": "bank 3d+1d max 5d"})  # the choice "bank 3d + 1d (max 5d)"
    assert "bank 3d + 1d (max 5d)" in challenge.content
    assert game.clock == "bank 3d+1d max 5d" and "(bank 3d+1d)" in first.content
    clock.t += 2 * DAY + 12 * HOUR  # alice keeps 12 hours, plus a day
    ex = await play_move(fake, fake.alice, "a1", channel=game.thread_id)
    board = board_post(ex)
    if SHOTS.is_dir():  # to look at
        board.png().save(SHOTS / "bank_clock_board.png")
    g = await harness.manager.get_game(game.id)
    assert g.bank(1) == 36 * HOUR and g.deadline == clock.t + 3 * DAY  # bob's turn on his 3 days
    assert f"<t:{int(g.deadline)}:R> (bank 3d+1d)" in board.content
    ex = await fake.slash(fake.bob, "games", {})
    assert "(bank 3d+1d)" in ex.reply.content and "**your move**" in ex.reply.content
    # bob takes 2 days: 1 day left + 1 day; alice's turn runs on her 36 hours
    clock.t += 2 * DAY
    await play_move(fake, fake.bob, "b2", channel=game.thread_id)
    g = await harness.manager.get_game(game.id)
    assert g.bank(2) == 2 * DAY and g.deadline == clock.t + 36 * HOUR
    # the reminder: a quarter of the 36 hours her turn started with (9 hours) before the deadline
    clock.t = g.deadline - 9 * HOUR - 60
    assert await harness.maintenance.sweep_clocks() == []
    await harness.restart()  # nothing is lost or repeated across a restart
    clock.t += 60
    [event] = await harness.maintenance.sweep_clocks()
    assert (event.kind, event.user_id) == ("reminder", fake.alice.id)
    assert await harness.maintenance.sweep_clocks() == []
    await fake.quiet(0.1)
    [reminder] = posts_with(fake, game.thread_id, "reminder")
    assert reminder.pings == {fake.alice.id}
    clock.t = g.deadline
    [event] = await harness.maintenance.sweep_clocks()
    assert (event.kind, event.user_id) == ("timeout", fake.alice.id)
    await wait_for(lambda: posts_with(fake, game.thread_id, "ran out of time"))
    g = await harness.manager.get_game(game.id)
    assert (g.status, g.reason, g.winner) == ("finished", "timeout", 2)


async def test_days_with_a_bank_clock_are_refused(fake, harness):  # noqa: F811
    """Issue 19: ``days:5`` with ``clock:bank 7d+1d`` dropped the days; now the pair is
    refused in a sentence naming both, privately, for a person and for the computer, and
    nothing is posted or stored."""
    terms = {"size": 5, "days": 5, "clock": "bank 7d+1d max 10d"}  # "bank 7d + 1d (max 10d)"
    for opponent in (fake.bob, fake.bot_user):
        ex = await fake.slash(fake.alice, "challenge io", {"opponent": opponent, **terms})
        assert ex.reply.ephemeral and ex.reply.content == texts.days_with_clock(5, "bank 7d + 1d (max 10d)")
        assert not ex.posts
    assert await harness.manager.store.fetchall("SELECT * FROM challenges") == []
    assert await harness.manager.store.fetchall("SELECT * FROM games") == []


async def test_both_banks_on_the_board_and_the_clock_on_the_preview(fake, harness, clock):  # noqa: F811
    """Issue 19: the board names the waiting player's bank beside the mover's deadline and
    hands the renderer both players' time (the panel text's ``clocks``, a card each); a move's preview (Confirm)
    shows the mover's clock."""
    calls = []
    render = harness.bot.renderer.render

    async def spy(position, **kw):
        calls.append(kw)
        return await render(position, **kw)

    harness.bot.renderer.render = spy
    game, _, _ = await start_game(fake, harness, "coil", fake.alice, fake.bob,
                                  options={"size": 5, "clock": "bank 3d+1d max 5d"})
    board = board_post(await play_move(fake, fake.alice, "a1", channel=game.thread_id))
    g = await harness.manager.get_game(game.id)  # alice moved at once: 3 days + 1
    assert f"(bank 3d+1d).{texts.others_bank(fake.alice.id, '4 d left')}" in board.content
    # bob to move: his deadline; alice waits with her bank
    assert calls[-1]["text"].clocks == (texts.panel_bank("4 d left"),
                                        texts.panel_due(datetime.fromtimestamp(g.deadline, UTC)))

    await fake.slash(fake.bob, "settings", {"confirm": "on"})
    clock.t += DAY + HOUR
    ex = await play_move(fake, fake.bob, "b2", channel=game.thread_id)
    assert ex.reply.content.endswith(texts.confirm_clock("bank 3d+1d, 1 d 23 h left", g.deadline))
    assert ex.reply.custom_ids and not ex.posts  # a preview: nothing played yet
