"""The manager's side of issue 13's turn features: move previews and confirmed moves, the
DM mode and digest hour, the queue of games waiting (/next) and the daily digest's queueing
(once a day at its hour, none with nothing waiting), with the injectable clock."""

from __future__ import annotations

import pytest
from manager_support import ALICE, BOB, CAROL, FakeClock, refused, start_game

from bot.manager import DAY, HOUR, GameManager, InvalidMove, NotYourTurn, StaleAction, UserError

KIND, OPTS = "coil", {"size": 5}
MIDNIGHT = 1_704_067_200.0  # 2024-01-01 00:00 UTC


@pytest.fixture
def clock():
    return FakeClock(MIDNIGHT + 8 * HOUR)


@pytest.fixture
async def mgr(db, clock):
    m = await GameManager.open(db("t.db"), clock=clock)
    yield m
    await m.close()


async def digests(mgr):
    return [tuple(r) for r in await mgr.store.fetchall(
        "SELECT user_id, game_id FROM announcements WHERE kind = 'digest' ORDER BY id")]


async def test_preview_changes_nothing_and_a_confirm_needs_the_same_position(mgr):
    game = await start_game(mgr, KIND, OPTS)
    p = await mgr.preview_move(game.id, ALICE, "A1")
    assert (p.move, p.seat, p.position.ply, p.game.ply) == ("a1", 1, 1, 0)
    assert (await mgr.get_game(game.id)).ply == 0 and await mgr.moves(game.id) == []
    with pytest.raises(NotYourTurn):
        await mgr.preview_move(game.id, BOB, "a1")
    with pytest.raises(InvalidMove):
        await mgr.preview_move(game.id, ALICE, "z99")
    await mgr.play_move(game.id, ALICE, "a1", expected_ply=0)
    with refused(StaleAction, "changed since you chose"):
        await mgr.play_move(game.id, ALICE, "b1", expected_ply=0)
    await mgr.resign(game.id, BOB)
    with refused(StaleAction, "is over"):
        await mgr.play_move(game.id, BOB, "b1", expected_ply=1)


async def test_dm_modes_and_confirmation(mgr):
    s = await mgr.settings(ALICE)
    assert (s.dm_mode, s.confirm) == ("off", False)
    assert (await mgr.set_dm_mode(ALICE, "on")).dm_mode == "on"
    with refused(UserError, "hour"):
        await mgr.set_dm_mode(ALICE, "digest")
    for bad in (24, -1, True):
        with refused(UserError, "0 to 23"):
            await mgr.set_dm_mode(ALICE, "digest", bad)
    with refused(UserError, "off, on"):
        await mgr.set_dm_mode(ALICE, "loud")
    assert (await mgr.settings(ALICE)).dm_mode == "on"  # refusals changed nothing
    s = await mgr.set_dm_mode(ALICE, "digest", 7)
    assert (s.dm_mode, s.digest_hour, s.dm) == ("digest", 7, False)  # no per-turn DMs
    assert (await mgr.set_dm_mode(ALICE, "digest")).digest_hour == 7  # the hour kept
    assert (await mgr.set_notify(ALICE, False)).dm_mode == "off"  # /notify ends the digest
    assert (await mgr.set_confirm(ALICE, True)).confirm


async def test_the_queue_puts_the_least_time_left_first(mgr, clock):
    a = await start_game(mgr, KIND, OPTS)                 # alice to move, due in 3 days
    clock.advance(HOUR)
    b = await start_game(mgr, KIND, OPTS, days_per_move=1)  # due in 1 day: first
    clock.advance(HOUR)
    c = await start_game(mgr, KIND, OPTS, a=CAROL, b=ALICE)  # carol to move: not alice's
    d = await start_game(mgr, KIND, OPTS, a=ALICE, b=CAROL, clock="bank 7d + 1d (max 10d)")
    assert [g.id for g in await mgr.waiting_games(ALICE)] == [b.id, a.id, d.id]
    assert [g.id for g in await mgr.waiting_games(CAROL)] == [c.id]
    await mgr.play_move(b.id, ALICE, "a1")
    assert [g.id for g in await mgr.waiting_games(ALICE)] == [a.id, d.id]
    assert await mgr.waiting_games(ALICE, guild_id=12345) == []


async def test_the_digest_is_queued_once_a_day_at_its_hour(mgr, clock):
    await mgr.set_dm_mode(BOB, "digest", 9)     # 08:00 now: today's comes at 09:00
    await mgr.set_dm_mode(CAROL, "digest", 6)   # 06:00 has passed: hers starts tomorrow
    game = await start_game(mgr, KIND, OPTS)
    res = await mgr.play_move(game.id, ALICE, "a1")
    assert res.dm_id is None  # a digest instead of a DM per turn
    other = await start_game(mgr, KIND, OPTS, a=CAROL, b=BOB, first="opponent")  # bob to move
    await mgr.sweep()
    assert await digests(mgr) == []
    clock.advance(HOUR)  # 09:00
    await mgr.sweep()
    assert await digests(mgr) == [(BOB, game.id)]  # anchored on the least time left
    [a] = [x for x in await mgr.pending_announcements() if x.kind == "digest"]
    assert [g.id for g in a.games] == [game.id, other.id] and not a.stale
    await mgr.mark_delivered(a.id)
    clock.advance(14 * HOUR)  # 23:00: nothing more today
    await mgr.sweep()
    assert len(await digests(mgr)) == 1
    clock.advance(7 * HOUR)  # 06:00 next day: carol's hour, but nothing waits for her
    await mgr.sweep()
    assert len(await digests(mgr)) == 1
    await mgr.play_move(game.id, BOB, "b2")
    await mgr.play_move(other.id, BOB, "c3")
    clock.advance(3 * HOUR)  # 09:00: nothing waits for bob either
    await mgr.sweep()
    assert len(await digests(mgr)) == 1
    clock.advance(DAY)  # the day after: carol's game waits for her since bob's move
    await mgr.sweep()
    assert (await digests(mgr))[1:] == [(CAROL, other.id)]
