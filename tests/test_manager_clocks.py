"""Game manager: clocks -- deadlines, reminders, losses on time, vacations. Clocks are driven by an
injected clock.

Every test runs against each backend: a SQLite file and a PostgreSQL database (the
``db`` fixture of conftest.py).
"""

from __future__ import annotations

import asyncio
import random

import pytest
from manager_support import (
    ALICE,
    BOB,
    CAROL,
    DAVE,
    FakeClock,
    first_move,
    game_for,
    pause_inside_move,
    refused,
    replay_of,
)

import engine
from bot.manager import (
    DAY,
    GameManager,
    GameOver,
    LimitReached,
    UserError,
)

HOUR = 3600.0
KIND = "coil"
OPTS = {"size": 5}
TITLE = engine.GAMES[KIND].title


@pytest.fixture
def clock():
    return FakeClock(1_704_067_200.0 + 40 * DAY)  # 2024-02-10 00:00 UTC


@pytest.fixture
async def mgr(db, clock):
    m = await GameManager.open(db("stonecast.db"), clock=clock, rng=random.Random(11))
    yield m
    await m.close()


async def test_deadline_is_last_move_plus_days(mgr, clock):
    g = await game_for(mgr, days_per_move=2)
    assert g.days_per_move == 2 and g.deadline == clock.t + 2 * DAY
    clock.advance(30 * HOUR)
    res = await first_move(mgr, g)
    assert res.game.deadline == clock.t + 2 * DAY
    done = await mgr.resign(g.id, ALICE)
    assert done.deadline is None


@pytest.mark.parametrize("days, window", [(1, 6 * HOUR), (3, 18 * HOUR), (4, 24 * HOUR), (14, 24 * HOUR)])
async def test_reminder_once_per_turn(mgr, clock, days, window):
    assert GameManager.reminder_window(days) == window
    g = await game_for(mgr, days_per_move=days)
    start = clock.t
    assert await mgr.sweep(start + days * DAY - window - 1) == []
    events = await mgr.sweep(start + days * DAY - window)
    assert [(e.kind, e.game.id, e.user_id) for e in events] == [("reminder", g.id, ALICE)]
    assert await mgr.sweep(start + days * DAY - window + 60) == []
    assert await mgr.sweep(start + days * DAY - 1) == []
    # the next turn gets its own reminder, for the other player
    clock.advance(days * DAY - 2)
    res = await first_move(mgr, g)
    assert await mgr.sweep(clock.t + days * DAY - window - 1) == []
    events = await mgr.sweep(clock.t + days * DAY - window)
    assert [(e.kind, e.user_id, e.game.ply) for e in events] == [("reminder", BOB, res.game.ply)]


async def test_reminder_not_repeated_after_reopening(db, clock):
    path = db("r.db")
    m = await GameManager.open(path, clock=clock)
    g = await game_for(m)
    clock.advance(3 * DAY - 10 * HOUR)
    assert [e.kind for e in await m.sweep()] == ["reminder"]
    await m.close()
    m = await GameManager.open(path, clock=clock)
    try:
        assert await m.sweep() == []
        assert (await m.get_game(g.id)).status == "active"
    finally:
        await m.close()


async def test_timeout_settled_exactly_once(mgr, clock):
    g = await game_for(mgr, days_per_move=1)
    res = await first_move(mgr, g)          # Bob to move from now
    clock.advance(DAY - 1)
    assert [e.kind for e in await mgr.sweep()] == ["reminder"]
    clock.advance(1)
    events = await mgr.sweep()
    assert [(e.kind, e.user_id) for e in events] == [("timeout", BOB)]
    done = events[0].game
    assert done.status == "finished" and done.reason == "timeout" and done.winner == 1
    assert done.deadline is None and done.finished_at == clock.t
    assert done.position.outcome.reason == "timeout"
    assert done.position_text == res.position.time_out(2).to_text()
    assert done.position_text == replay_of(done, await mgr.moves(g.id)).to_text()
    assert await mgr.sweep() == []
    clock.advance(10 * DAY)
    assert await mgr.sweep() == []
    with pytest.raises(GameOver):
        await mgr.play_move(g.id, BOB, next(res.position.legal_moves()))


async def test_a_sweep_passes_over_a_game_another_process_holds(db, clock, backend):
    """Two processes: the first is inside a move transaction on a game whose deadline has
    passed by the second's clock; the second's sweep does not wait for that game's row
    (PostgreSQL: claimed FOR UPDATE SKIP LOCKED) and settles nothing; the move stands, and
    the game's new turn is not timed out."""
    if backend != "postgresql":
        pytest.skip("SQLite: one writer at a time (BEGIN IMMEDIATE); a sweep waits its turn")
    m1 = await GameManager.open(db("held.db"), clock=clock)
    late = FakeClock(clock.t)
    m2 = await GameManager.open(db("held.db"), clock=late)
    try:
        g = await game_for(m1)
        move = next(g.position.legal_moves())
        inside, release = pause_inside_move(m1)
        moving = asyncio.create_task(m1.play_move(g.id, ALICE, move))
        await inside.wait()
        late.advance(4 * DAY)  # past the 3-day deadline by the second process's clock
        swept = await asyncio.wait_for(m2.sweep(), 5)
        assert swept == []
        release.set()
        assert (await moving).game.ply == 1
        assert (await m2.get_game(g.id)).status == "active"
    finally:
        release.set()
        await m1.close()
        await m2.close()


async def test_timeout_after_being_offline_settled_once_by_racing_processes(db, clock):
    path = db("offline.db")
    m = await GameManager.open(path, clock=clock)
    g = await game_for(m)
    other = await game_for(m, a=CAROL, b=DAVE, days_per_move=14)
    await m.close()
    clock.advance(5 * DAY)  # the bot was down past the 3-day deadline
    m1 = await GameManager.open(path, clock=clock)
    m2 = await GameManager.open(path, clock=clock)
    try:
        found = await asyncio.gather(m1.sweep(), m2.sweep())
        events = [e for batch in found for e in batch]
        assert [(e.kind, e.game.id, e.user_id) for e in events] == [("timeout", g.id, ALICE)]
        assert (await m1.get_game(other.id)).status == "active"
        assert await m1.sweep() == [] and await m2.sweep() == []
    finally:
        await m1.close()
        await m2.close()
    m = await GameManager.open(path, clock=clock)
    try:
        assert await m.sweep() == []
        assert (await m.get_game(g.id)).reason == "timeout"
    finally:
        await m.close()


async def test_a_failing_game_does_not_stop_the_sweep(mgr, clock):
    g1 = await game_for(mgr)
    g2 = await game_for(mgr, a=CAROL, b=DAVE)
    await mgr.store.execute("UPDATE games SET position_text = 'garbage' WHERE id = ?", (g1.id,))
    clock.advance(4 * DAY)
    events = await mgr.sweep()
    assert [(e.kind, e.game.id) for e in events] == [("timeout", g2.id)]


async def test_vacation_pauses_the_players_clocks(mgr, clock):
    mine = await game_for(mgr)                      # Alice to move
    theirs = await game_for(mgr, a=BOB, b=ALICE)    # Bob to move
    later = await game_for(mgr, a=CAROL, b=ALICE)   # Carol to move, then Alice
    assert (await mgr.settings(ALICE)).vacation_left_days == 14
    clock.advance(DAY)
    s = await mgr.set_vacation(ALICE, 5)
    assert s.vacation_until == clock.t + 5 * DAY and s.vacation_left_days == 9
    assert (await mgr.get_game(mine.id)).deadline == mine.deadline + 5 * DAY
    assert (await mgr.get_game(theirs.id)).deadline == theirs.deadline
    # a turn that starts during the vacation gets the rest of it added
    clock.advance(DAY)
    res = await first_move(mgr, later)
    assert res.game.to_move_user == ALICE
    assert res.game.deadline == clock.t + 3 * DAY + 4 * DAY
    # past the old deadline, nothing times out for Alice; Bob's clock ran on
    clock.advance(2 * DAY)
    events = await mgr.sweep()
    assert [(e.kind, e.game.id) for e in events] == [("timeout", theirs.id)]
    # extending a running vacation
    s = await mgr.set_vacation(ALICE, 2)
    assert s.vacation_until == mine.created_at + DAY + 7 * DAY and s.vacation_left_days == 7
    assert (await mgr.get_game(mine.id)).deadline == mine.deadline + 7 * DAY
    # ending early gives back the unused days and brings the deadlines back
    s = await mgr.set_vacation(ALICE, 0)
    assert s.vacation_until is None
    assert s.vacation_left_days == pytest.approx(14 - 3)  # 3 of the 7 days were used
    assert (await mgr.get_game(mine.id)).deadline == pytest.approx(mine.deadline + 3 * DAY)
    with refused(UserError, "not on vacation"):
        await mgr.set_vacation(ALICE, 0)


async def test_vacation_allowance_and_bad_input(mgr, clock):
    with refused(LimitReached, "14 days of vacation left"):
        await mgr.set_vacation(ALICE, 15)
    for bad in (-1, "3", True, float("nan")):
        with pytest.raises(UserError):
            await mgr.set_vacation(ALICE, bad)
    assert (await mgr.settings(ALICE)).vacation_until is None
    await mgr.set_vacation(ALICE, 10)
    clock.advance(11 * DAY)
    s = await mgr.settings(ALICE)
    assert s.vacation_until is None and s.vacation_left_days == 4
    with refused(LimitReached, "4 days of vacation left"):
        await mgr.set_vacation(ALICE, 5)
    clock.advance(366 * DAY)  # a new calendar year: a new allowance
    assert (await mgr.settings(ALICE)).vacation_left_days == 14


async def test_vacation_time_is_charged_by_the_hour(mgr, clock):
    """Issue 9, item 16: ending a vacation seconds after starting it costs an hour, not a day;
    what is left stays usable (a request for the last, partly used day gets what is left)."""
    await mgr.set_vacation(ALICE, 3)
    clock.advance(10)
    s = await mgr.set_vacation(ALICE, 0)
    assert s.vacation_left_days == pytest.approx(14 - 1 / 24)  # one started hour
    clock.advance(3600 * 2.5)
    await mgr.set_vacation(ALICE, 1)
    clock.advance(3600 * 2.5)  # three started hours
    s = await mgr.set_vacation(ALICE, 0)
    assert s.vacation_left_days == pytest.approx(14 - 4 / 24)
    # 13 days 20 hours left: 14 is granted and lasts what is left; 15 is refused
    with refused(LimitReached, "13 days and 20 hours of vacation left.*ask for 14 or fewer"):
        await mgr.set_vacation(ALICE, 15)
    s = await mgr.set_vacation(ALICE, 14)
    assert s.vacation_until == pytest.approx(clock.t + 14 * DAY - 4 * 3600)
    assert s.vacation_left_days == pytest.approx(0)
    with refused(LimitReached, "used your 14 vacation days"):
        await mgr.set_vacation(ALICE, 1)


async def test_vacation_returns_the_games_whose_deadline_moved(mgr, clock):
    mine = await game_for(mgr)                      # Alice to move
    await game_for(mgr, a=BOB, b=ALICE)             # Bob to move: his clock does not move
    before = await mgr.settings(ALICE)
    change = await mgr.vacation(ALICE, 2)
    assert change.user_id == ALICE and change.before == before
    assert change.settings == await mgr.settings(ALICE) and change.settings.vacation_until == clock.t + 2 * DAY
    assert change.games == (await mgr.get_game(mine.id),)
    assert change.games[0].deadline == mine.deadline + 2 * DAY
    assert (await mgr.vacation(ALICE, 0)).games[0].deadline == pytest.approx(mine.deadline)  # back again
