"""End to end (issue 13 "Time banks"): a bank clock chosen on /challenge, shown on the
challenge, the board and /games, reminding and timing out through the maintenance sweep
across a restart -- with the injectable clock."""

from pathlib import Path

import pytest
from botplay import Clock, board_post, play_move, start_game
from fakediscord.fixtures import fake  # noqa: F401
from fakediscord.harness import BotHarness
from test_bot_correspondence import posts_with, wait_for

from bot import timecontrol

DAY, HOUR = 86400.0, 3600.0
SHOTS = Path("/tmp/corr2")


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
async def harness(fake, tmp_path, clock):  # noqa: F811
    h = BotHarness(fake, tmp_path / "bank.db", clock=clock)
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
