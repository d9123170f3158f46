"""Bank clocks through the manager (issue 13 "Time banks"), with the injectable clock:
banks after moves, the reminder window from the bank the turn started with, timeouts,
vacations and restarts; per-move clocks unchanged."""

from __future__ import annotations

import pytest
from manager_support import ALICE, BOB, FakeClock, refused, start_game

from bot import texts
from bot.manager import DAY, HOUR, ClockConflict, GameManager, UserError
from bot.rules import timecontrol

KIND, OPTS = "coil", {"size": 5}
BANK = "bank 3d + 1d (max 5d)"


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
async def mgr(db, clock):
    m = await GameManager.open(db("b.db"), clock=clock)
    yield m
    await m.close()


async def test_a_challenge_names_its_clock_and_the_game_keeps_banks(mgr, clock):
    game = await start_game(mgr, KIND, OPTS, clock=BANK)
    assert game.time_control == timecontrol.TimeControl.bank(3, 1, 5)
    assert game.clock == "bank 3d+1d max 5d" and game.bank(1) == game.bank(2) == 3 * DAY
    assert game.deadline == clock.t + 3 * DAY
    ch = await mgr.get_challenge(game.challenge_id)
    assert ch.clock == "bank 3d+1d max 5d" and ch.days_per_move == 3
    with refused(UserError, "Bad clock"):
        await mgr.create_challenge(guild_id=1, channel_id=2, challenger_id=ALICE, opponent_id=BOB,
                                   kind=KIND, clock="whenever")
    plain = await start_game(mgr, KIND, OPTS, days_per_move=2)  # no clock: days per move
    assert plain.clock == "move 2d" and plain.deadline == clock.t + 2 * DAY


async def test_banks_after_moves_are_capped_and_deadlines_follow(mgr, clock):
    game = await start_game(mgr, KIND, OPTS, clock=BANK)
    clock.advance(1 * DAY)
    res = await mgr.play_move(game.id, ALICE, "a1")  # 3d - 1d + 1d
    g = res.game
    assert g.bank(1) == 3 * DAY and g.deadline == clock.t + 3 * DAY  # bob's turn: his 3d bank
    clock.advance(1 * HOUR)
    g = (await mgr.play_move(game.id, BOB, "b2")).game  # 3d - 1h + 1d
    assert g.bank(2) == 4 * DAY - HOUR and g.deadline == clock.t + 3 * DAY
    g = (await mgr.play_move(game.id, ALICE, "c3")).game  # at once: 3d + 1d
    assert g.bank(1) == 4 * DAY and g.deadline == clock.t + 4 * DAY - HOUR
    g = (await mgr.play_move(game.id, BOB, "d4")).game  # at once: 4d-1h + 1d
    assert g.bank(2) == 5 * DAY - HOUR and g.deadline == clock.t + 4 * DAY
    g = (await mgr.play_move(game.id, ALICE, "e5")).game  # 4d + 1d: the maximum
    assert g.bank(1) == 5 * DAY
    g = (await mgr.play_move(game.id, BOB, "a2")).game  # 5d-1h + 1d: capped at 5d
    assert g.bank(2) == 5 * DAY and g.deadline == clock.t + 5 * DAY
    assert (await mgr.get_game(game.id)) == g  # as stored


async def test_a_conditional_reply_takes_no_time_and_gains_the_increment(mgr, clock):
    game = await start_game(mgr, KIND, OPTS, clock=BANK)
    await mgr.add_conditional(game.id, BOB, "a1; b2")
    clock.advance(2 * DAY)
    res = await mgr.play_move(game.id, ALICE, "a1")
    assert [r.move for r in res.replies] == ["b2"]
    assert res.game.bank(1) == 2 * DAY and res.game.bank(2) == 4 * DAY
    assert res.game.deadline == clock.t + 2 * DAY  # alice's turn, on her 2d bank


async def test_reminder_then_timeout_from_the_bank_the_turn_started_with(db, clock):
    path = db("r.db")
    mgr = await GameManager.open(path, clock=clock)
    game = await start_game(mgr, KIND, OPTS, clock="bank 7d+1d max 10d")
    clock.advance(6 * DAY + 12 * HOUR)
    g = (await mgr.play_move(game.id, ALICE, "a1")).game  # alice: 12h + 1d = 1d12h
    clock.advance(1 * HOUR)
    g = (await mgr.play_move(game.id, BOB, "b2")).game  # alice's turn on a 1d12h bank
    assert g.deadline == clock.t + 36 * HOUR
    window = 9 * HOUR  # a quarter of 36 hours (less than 24 hours)
    clock.advance(36 * HOUR - window - 60)
    assert await mgr.sweep() == []
    await mgr.close()
    mgr = await GameManager.open(path, clock=clock)  # a restart changes nothing
    try:
        clock.advance(60)
        [event] = await mgr.sweep()
        assert (event.kind, event.user_id) == ("reminder", ALICE)
        assert await mgr.sweep() == []  # once a turn
        clock.advance(window - 1)
        assert await mgr.sweep() == []
        clock.advance(1)
        [event] = await mgr.sweep()
        assert (event.kind, event.user_id) == ("timeout", ALICE)
        g = await mgr.get_game(game.id)
        assert (g.status, g.winner, g.reason) == ("finished", 2, "timeout")
        assert [a.kind for a in await mgr.pending_announcements(board_grace=0)][-2:] == ["reminder", "timeout"]
    finally:
        await mgr.close()


async def test_a_vacation_pauses_a_bank_without_burning_it(mgr, clock):
    game = await start_game(mgr, KIND, OPTS, clock=BANK)
    start = clock.t
    await mgr.set_vacation(ALICE, 2)  # her turn: the deadline moves by 2 days
    g = await mgr.get_game(game.id)
    assert g.deadline == start + 5 * DAY
    assert g.clock_text(clock.t, (await mgr.settings(ALICE)).vacation_until) == \
        "bank 3d+1d, 3 d left, paused (vacation)"
    clock.advance(1 * DAY)  # moving while away: the vacation's days are not taken
    g = (await mgr.play_move(game.id, ALICE, "a1")).game
    assert g.bank(1) == 4 * DAY
    # bob's turn begins while alice is away: his clock is not paused
    assert g.deadline == clock.t + 3 * DAY
    assert g.clock_text(clock.t) == "bank 3d+1d, 3 d left"


async def test_a_record_names_a_bank_clock_and_reads_back(mgr):
    from bot.rules.records import read_record

    bank = await start_game(mgr, KIND, OPTS, clock=BANK)
    text = await mgr.record_text(bank.id)
    assert "Clock: bank 3d + 1d (max 5d)" in text and "Days per move" not in text
    rec = read_record(text)
    assert rec.kind == KIND and rec.headers["clock"] == "bank 3d + 1d (max 5d)"
    plain = await start_game(mgr, KIND, OPTS, days_per_move=2)
    text = await mgr.record_text(plain.id)
    assert "Days per move: 2" in text and "Clock:" not in text


async def _rows(mgr) -> list:
    """Every challenge and game row, to see that a refusal wrote nothing."""
    return [tuple(r) for table in ("challenges", "games")
            for r in await mgr.store.fetchall(f"SELECT * FROM {table} ORDER BY id")]


async def test_days_with_another_clock_are_refused_and_nothing_is_written(mgr, clock):
    """Issue 19: ``days:5`` with ``clock:bank 7d+1d`` dropped the days silently; now the pair
    is refused with both named (the error carries them), for a challenge and against the
    computer, and nothing is stored. Days matching a per-move clock are no conflict."""
    bank = timecontrol.TimeControl.bank(7, 1, 10)
    before = await _rows(mgr)
    terms = dict(guild_id=1, channel_id=2, challenger_id=ALICE, kind=KIND, options=OPTS,
                 days_per_move=5, clock=bank.to_text())
    with pytest.raises(ClockConflict) as refused:
        await mgr.create_challenge(opponent_id=BOB, **terms)
    assert (refused.value.days, refused.value.clock) == (5, bank)
    assert texts.refusal_text(refused.value) == texts.days_with_clock(5, "bank 7d + 1d (max 10d)")
    with pytest.raises(ClockConflict):
        await mgr.start_computer_game(computer_id=4242, level=1, **terms)
    with pytest.raises(ClockConflict):  # a per-move clock of other days too
        await mgr.create_challenge(opponent_id=BOB, **(terms | {"clock": "3 days a move"}))
    assert await _rows(mgr) == before
    same = await mgr.create_challenge(opponent_id=BOB, **(terms | {"clock": "5 days a move"}))
    assert same.time_control == timecontrol.TimeControl.per_move(days=5)
    # a rematch keeps its clock (it names no days)
    game = await start_game(mgr, KIND, OPTS, clock=bank.to_text())
    await mgr.resign_game(game.id, ALICE, guild_id=game.guild_id)
    again = await mgr.rematch(game.id, BOB)
    assert again.time_control == bank
