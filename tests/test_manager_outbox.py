"""Game manager, issue 5: the announcement outbox (schema version 3).

A timeout or reminder decided by the sweep is queued in the same transaction that settles it,
stays pending until the bot marks it delivered, survives a process that dies before the post,
and is never queued twice. Clocks are driven by an injected clock.
"""

from __future__ import annotations

import asyncio
import random

import pytest
from manager_support import ALICE, BOB, CAROL, DAVE, FakeClock, start_game

from bot.manager import BOARD_GRACE, DAY, GameManager, NotFound

HOUR = 3600.0


@pytest.fixture
def clock():
    return FakeClock(1_704_067_200.0)


@pytest.fixture
async def mgr(db, clock):
    m = await GameManager.open(db("outbox.db"), clock=clock, rng=random.Random(5))
    yield m
    await m.close()


async def disk_full(*args, **kwargs):
    """Stands in for the outbox insert when the write fails."""
    raise RuntimeError("disk full")


def summary(pending):
    return [(a.kind, a.game.id, a.user_id, a.ply, a.attempts) for a in pending]


async def test_timeout_is_pending_until_marked_delivered(mgr, clock):
    g = await start_game(mgr, "coil", {"size": 5}, days_per_move=1)  # Alice to move
    assert await mgr.pending_announcements() == []
    clock.advance(DAY)
    [event] = await mgr.sweep()
    assert (event.kind, event.user_id) == ("timeout", ALICE)
    [a] = await mgr.pending_announcements()
    assert summary([a]) == [("timeout", g.id, ALICE, 0, 0)]
    assert a.created_at == clock.t and not a.stale
    assert a.game.status == "finished" and a.game.reason == "timeout" and a.game.winner == 2
    assert await mgr.mark_delivered(a.id) is True
    assert await mgr.pending_announcements() == []
    assert await mgr.mark_delivered(a.id) is False  # a second mark changes nothing
    # nothing is settled or announced again, however many sweeps follow
    clock.advance(5 * DAY)
    assert await mgr.sweep() == []
    assert await mgr.pending_announcements() == []
    row = await mgr.store.fetchone("SELECT delivered_at, last_error FROM announcements WHERE id = ?", (a.id,))
    assert tuple(row) == (clock.t - 5 * DAY, None)


async def test_reminder_then_timeout_are_queued_oldest_first(mgr, clock):
    g = await start_game(mgr, "coil", {"size": 5}, days_per_move=2)
    other = await start_game(mgr, "coil", {"size": 5}, a=CAROL, b=DAVE, days_per_move=14)
    clock.advance(2 * DAY - 11 * HOUR)  # within the 12-hour window of a 2-day clock
    assert [e.kind for e in await mgr.sweep()] == ["reminder"]
    assert await mgr.sweep() == []
    clock.advance(11 * HOUR)
    assert [e.kind for e in await mgr.sweep()] == ["timeout"]
    pending = await mgr.pending_announcements()
    assert summary(pending) == [("reminder", g.id, ALICE, 0, 0), ("timeout", g.id, ALICE, 0, 0)]
    assert [a.id for a in pending] == sorted(a.id for a in pending)
    # the reminder waited past the end of the game: nothing left to remind of
    assert [a.stale for a in pending] == [True, False]
    assert summary(await mgr.pending_announcements(limit=1)) == summary(pending[:1])
    assert all(a.game.id != other.id for a in pending)


async def test_reminder_goes_stale_when_the_player_moves(mgr, clock):
    g = await start_game(mgr, "coil", {"size": 5}, days_per_move=1)
    clock.advance(DAY - HOUR)
    await mgr.sweep()
    [a] = await mgr.pending_announcements()
    assert a.kind == "reminder" and not a.stale
    await mgr.play_move(g.id, ALICE, next(a.game.position.legal_moves()))
    [a] = await mgr.pending_announcements()
    assert a.stale and a.game.ply == 1 and a.ply == 0


async def test_crash_between_settling_and_posting_keeps_the_announcement(db, clock):
    path = db("crash.db")
    m = await GameManager.open(path, clock=clock)
    g = await start_game(m, "coil", {"size": 5}, days_per_move=1)
    clock.advance(DAY + 1)
    [event] = await m.sweep()
    # The process dies here, before posting: the first connection is never closed or
    # checkpointed; a new process opens the file next to it.
    m2 = await GameManager.open(path, clock=clock)
    try:
        [a] = await m2.pending_announcements()
        assert (a.kind, a.game.id, a.user_id) == ("timeout", g.id, event.user_id)
        assert a.game.status == "finished" and a.game.reason == "timeout"
        assert await m2.sweep() == []  # settled once: no second timeout, no second row
        assert [x.id for x in await m2.pending_announcements()] == [a.id]
        assert await m2.mark_delivered(a.id)
    finally:
        await m2.close()
        await m.close()
    m3 = await GameManager.open(path, clock=clock)
    try:
        assert await m3.pending_announcements() == []
    finally:
        await m3.close()


async def test_announcement_is_written_in_the_settling_transaction(mgr, clock, monkeypatch):
    g = await start_game(mgr, "coil", {"size": 5}, days_per_move=1)
    clock.advance(DAY)
    monkeypatch.setattr(mgr.services.outbox, "announce", disk_full)
    assert await mgr.sweep() == []  # logged, not raised
    game = await mgr.get_game(g.id)
    assert game.status == "active" and game.deadline is not None  # the timeout rolled back
    assert (await mgr.rating_changes(g.id)) == {}
    monkeypatch.undo()
    assert [e.kind for e in await mgr.sweep()] == ["timeout"]
    assert summary(await mgr.pending_announcements()) == [("timeout", g.id, ALICE, 0, 0)]


async def test_reminder_mark_rolls_back_without_its_announcement(mgr, clock, monkeypatch):
    g = await start_game(mgr, "coil", {"size": 5}, days_per_move=1)
    clock.advance(DAY - HOUR)
    monkeypatch.setattr(mgr.services.outbox, "announce", disk_full)
    assert await mgr.sweep() == []
    row = await mgr.store.fetchone("SELECT reminded_ply FROM games WHERE id = ?", (g.id,))
    assert row["reminded_ply"] is None
    monkeypatch.undo()
    assert [e.kind for e in await mgr.sweep()] == ["reminder"]
    assert summary(await mgr.pending_announcements()) == [("reminder", g.id, ALICE, 0, 0)]


async def test_failed_posts_are_counted(mgr, clock):
    await start_game(mgr, "coil", {"size": 5}, days_per_move=1)
    clock.advance(DAY)
    await mgr.sweep()
    [a] = await mgr.pending_announcements()
    assert await mgr.record_failed_post(a.id, "503 Service Unavailable") == 1
    assert await mgr.record_failed_post(a.id, "503 again") == 2
    [a] = await mgr.pending_announcements()
    assert a.attempts == 2
    assert await mgr.mark_delivered(a.id, error="gave up after 2 failed posts")
    row = await mgr.store.fetchone("SELECT attempts, last_error FROM announcements WHERE id = ?", (a.id,))
    assert tuple(row) == (2, "gave up after 2 failed posts")


async def test_unknown_announcements_are_refused(mgr):
    for bad in (999, 0, -1, "x"):
        with pytest.raises(NotFound):
            await mgr.mark_delivered(bad)
        with pytest.raises(NotFound):
            await mgr.record_failed_post(bad, "boom")
    assert await mgr.pending_announcements() == []


async def test_resignation_queues_nothing(mgr):
    g = await start_game(mgr, "coil", {"size": 5}, a=ALICE, b=BOB)
    await mgr.resign(g.id, BOB)
    assert await mgr.pending_announcements() == []


# ---- boards in the outbox (schema version 5): kind 'move' ------------------------------------
async def test_a_move_queues_its_board_until_marked(mgr, clock):
    g = await start_game(mgr, "coil", {"size": 5})  # Alice to move
    res = await mgr.play_move(g.id, ALICE, next(g.position.legal_moves()))
    assert res.announcement_id is not None
    # within the grace period the /move handler is expected to post it: not offered yet
    assert await mgr.pending_announcements() == []
    [a] = await mgr.pending_announcements(board_grace=0)
    assert (a.id, a.kind, a.user_id, a.ply, a.created_at) == (res.announcement_id, "move", BOB, 1, clock.t)
    assert not a.stale and a.game.ply == 1
    clock.advance(59)
    assert await mgr.pending_announcements() == []
    clock.advance(1)
    assert [x.id for x in await mgr.pending_announcements()] == [a.id]
    assert await mgr.mark_delivered(res.announcement_id) is True
    assert await mgr.pending_announcements(board_grace=0) == []
    assert await mgr.mark_delivered(res.announcement_id) is False


async def test_a_board_is_superseded_by_the_next_move_and_by_a_resignation(mgr, clock):
    g = await start_game(mgr, "coil", {"size": 5})
    first = await mgr.play_move(g.id, ALICE, next(g.position.legal_moves()))
    second = await mgr.play_move(g.id, BOB, next(first.position.legal_moves()))
    pending = await mgr.pending_announcements(board_grace=0)
    assert summary(pending) == [("move", g.id, BOB, 1, 0), ("move", g.id, ALICE, 2, 0)]
    assert [a.stale for a in pending] == [True, False]  # the board of ply 1 is out of date
    assert [a.id for a in pending] == [first.announcement_id, second.announcement_id]
    await mgr.resign(g.id, ALICE)
    assert [a.stale for a in await mgr.pending_announcements(board_grace=0)] == [True, True]


async def test_the_final_move_pings_the_player_who_did_not_make_it(mgr, clock):
    g = await start_game(mgr, "io", {"size": 5})
    rng = random.Random(3)
    while True:
        pos = g.position
        mover = g.to_move_user
        res = await mgr.play_move(g.id, mover, pos.random_move(rng))
        g = res.game
        if res.finished:
            break
        assert await mgr.mark_delivered(res.announcement_id)
    [a] = await mgr.pending_announcements(board_grace=0)
    assert (a.kind, a.ply, a.user_id) == ("move", g.ply, g.opponent_of(mover))
    assert a.game.status == "finished" and not a.stale
    assert (await mgr.move_at(g.id, g.ply)).seat == g.seat_of(mover)


async def test_a_move_and_its_board_commit_together(mgr, clock, monkeypatch):
    g = await start_game(mgr, "coil", {"size": 5})
    move = next(g.position.legal_moves())
    monkeypatch.setattr(mgr.services.outbox, "announce", disk_full)
    with pytest.raises(RuntimeError, match="disk full"):
        await mgr.play_move(g.id, ALICE, move)
    assert (await mgr.get_game(g.id)).ply == 0 and await mgr.moves(g.id) == []
    monkeypatch.undo()
    res = await mgr.play_move(g.id, ALICE, move)
    assert res.game.ply == 1
    assert [a.id for a in await mgr.pending_announcements(board_grace=0)] == [res.announcement_id]


async def test_move_at(mgr):
    g = await start_game(mgr, "coil", {"size": 5})
    move = next(g.position.legal_moves())
    await mgr.play_move(g.id, ALICE, move)
    assert (await mgr.move_at(g.id, 1)).move == move and (await mgr.move_at(g.id, 1)).seat == 1
    assert await mgr.move_at(g.id, 0) is None and await mgr.move_at(g.id, 2) is None
    with pytest.raises(NotFound):
        await mgr.move_at(999, 1)


# ---- the first board (ply 0) in the outbox: queued with the game by accept_challenge ---------
async def accept(mgr, *, first="challenger"):
    ch = await mgr.create_challenge(guild_id=900, channel_id=901, challenger_id=ALICE, opponent_id=BOB,
                                    kind="coil", options={"size": 5}, first=first, days_per_move=1)
    return ch, await mgr.accept_challenge(ch.id, BOB)


@pytest.mark.parametrize(("first", "to_move"), [("challenger", ALICE), ("opponent", BOB)])
async def test_accept_queues_the_first_board_until_marked(mgr, clock, first, to_move):
    _, g = await accept(mgr, first=first)
    assert g.to_move_user == to_move
    # within the grace period the Accept handler is expected to post it: not offered yet
    assert await mgr.pending_announcements() == []
    [a] = await mgr.pending_announcements(board_grace=0)
    assert summary([a]) == [("move", g.id, to_move, 0, 0)]  # pings the player to move
    assert a.created_at == clock.t and not a.stale and a.game.ply == 0
    assert await mgr.pending_board(g.id, 0) == a.id
    assert await mgr.pending_board(g.id, 1) is None
    clock.advance(60)
    assert [x.id for x in await mgr.pending_announcements()] == [a.id]
    assert await mgr.mark_delivered(a.id) is True
    assert await mgr.pending_board(g.id, 0) is None
    assert await mgr.pending_announcements(board_grace=0) == []
    with pytest.raises(NotFound):
        await mgr.pending_board(999, 0)


async def test_the_first_board_is_superseded_by_the_first_move(mgr, clock):
    _, g = await accept(mgr)
    board = await mgr.pending_board(g.id, 0)
    res = await mgr.play_move(g.id, ALICE, next(g.position.legal_moves()))
    pending = await mgr.pending_announcements(board_grace=0)
    assert summary(pending) == [("move", g.id, ALICE, 0, 0), ("move", g.id, BOB, 1, 0)]
    assert [a.id for a in pending] == [board, res.announcement_id]
    assert [a.stale for a in pending] == [True, False]
    # and a game lost on time before its first move has no first board left to post
    _, other = await accept(mgr)
    assert await mgr.pending_board(other.id, 0) is not None
    clock.advance(DAY)
    assert sorted((e.kind, e.game.id) for e in await mgr.sweep()) == [("timeout", g.id), ("timeout", other.id)]
    [first_board] = [a for a in await mgr.pending_announcements(board_grace=0)
                     if a.kind == "move" and a.game.id == other.id]
    assert first_board.game.reason == "timeout" and first_board.stale


async def test_a_game_and_its_first_board_commit_together(mgr, monkeypatch):
    ch = await mgr.create_challenge(guild_id=900, channel_id=901, challenger_id=ALICE, opponent_id=BOB,
                                    kind="coil", options={"size": 5})
    monkeypatch.setattr(mgr.services.outbox, "announce", disk_full)
    with pytest.raises(RuntimeError, match="disk full"):
        await mgr.accept_challenge(ch.id, BOB)
    assert (await mgr.get_challenge(ch.id)).status == "open"
    assert (await mgr.store.fetchone("SELECT COUNT(*) FROM games"))[0] == 0
    monkeypatch.undo()
    g = await mgr.accept_challenge(ch.id, BOB)
    assert [a.id for a in await mgr.pending_announcements(board_grace=0)] == [await mgr.pending_board(g.id, 0)]


# ---- your-turn DMs in the outbox (schema version 6): kind 'dm' -------------------------------
async def test_a_move_queues_the_dm_of_a_player_who_asked_for_dms(mgr, clock):
    await mgr.set_notify(BOB, True)
    g = await start_game(mgr, "coil", {"size": 5})  # Alice to move: she asked for no DM
    assert await mgr.pending_dm(g.id, 0) is None
    res = await mgr.play_move(g.id, ALICE, next(g.position.legal_moves()))
    assert res.dm_id is not None and res.dm_id == await mgr.pending_dm(g.id, 1)
    assert await mgr.pending_announcements() == []  # within the grace period: the handler's
    pending = await mgr.pending_announcements(board_grace=0)
    assert summary(pending) == [("move", g.id, BOB, 1, 0), ("dm", g.id, BOB, 1, 0)]
    assert [a.stale for a in pending] == [False, False]
    # Bob's reply makes it Alice's turn: no DM for her, and Bob's is out of date
    second = await mgr.play_move(g.id, BOB, next(res.position.legal_moves()))
    assert second.dm_id is None
    [dm] = [a for a in await mgr.pending_announcements(board_grace=0) if a.kind == "dm"]
    assert dm.id == res.dm_id and dm.stale
    with pytest.raises(NotFound):
        await mgr.pending_dm(999, 0)


async def test_the_dm_is_written_with_the_move_or_not_at_all(mgr, clock, monkeypatch):
    await mgr.set_notify(BOB, True)
    g = await start_game(mgr, "coil", {"size": 5})
    monkeypatch.setattr(mgr.services.outbox, "announce_turn_dm", disk_full)
    with pytest.raises(RuntimeError):
        await mgr.play_move(g.id, ALICE, next(g.position.legal_moves()))
    assert (await mgr.get_game(g.id)).ply == 0  # the move was rolled back with it
    assert await mgr.pending_announcements(board_grace=0) == []


async def test_accept_queues_the_first_players_dm_and_wants_a_thread(mgr, clock):
    await mgr.set_notify(ALICE, True)
    ch = await mgr.create_challenge(guild_id=900, channel_id=901, challenger_id=ALICE, opponent_id=BOB,
                                    kind="io", options={"size": 5}, first="challenger")
    game = await mgr.accept_challenge(ch.id, BOB)
    assert game.thread_wanted and game.thread_id is None
    dm = await mgr.pending_dm(game.id, 0)
    [a] = [x for x in await mgr.pending_announcements(board_grace=0) if x.kind == "dm"]
    assert (a.id, a.user_id, a.ply, a.stale) == (dm, ALICE, 0, False)
    await mgr.set_game_thread(game.id, None)  # the channel: settled all the same
    assert not (await mgr.get_game(game.id)).thread_wanted


# ---- what each announcement's post needs, read with it (issue 11) ------------------------------
async def test_announcements_carry_settings_rating_changes_and_the_move(mgr, clock):
    await mgr.set_notify(BOB, True)
    await mgr.set_vacation(BOB, 1)
    g = await start_game(mgr, "coil", {"size": 5}, days_per_move=1)
    first = next(g.position.legal_moves())
    res = await mgr.play_move(g.id, ALICE, first)
    clock.advance(BOARD_GRACE)
    board, dm = await mgr.pending_announcements()
    assert (board.kind, dm.kind) == ("move", "dm")
    assert board.settings == dm.settings == await mgr.settings(BOB)
    assert board.vacation_until == dm.vacation_until == clock.t - BOARD_GRACE + DAY
    assert board.move_record == await mgr.move_at(g.id, 1) and board.move_record.move == res.move
    # the DM names the move too ("move 1: <@alice> played ..."): it carries the record
    assert dm.move_record == board.move_record and board.rating_changes == {} == dm.rating_changes
    for a in (board, dm):
        await mgr.mark_delivered(a.id)
    clock.advance(3 * DAY)  # Bob's turn runs out (his vacation day included)
    [event] = await mgr.sweep()
    [timeout] = await mgr.pending_announcements()
    assert (event.kind, timeout.kind, timeout.user_id) == ("timeout", "timeout", BOB)
    assert timeout.settings is None and timeout.vacation_until is None
    assert timeout.rating_changes == await mgr.rating_changes(g.id) != {}


# ---- several processes on one database (issue 14): rows claimed with a lease -------------

async def _timeouts(m: GameManager, clock: FakeClock, n: int) -> None:
    """``n`` games timed out by ``m``'s sweep: ``n`` timeout rows in the outbox."""
    for i in range(n):
        await start_game(m, "coil", {"size": 5}, a=10_000 + 2 * i, b=10_001 + 2 * i)
    clock.advance(4 * DAY)
    assert len(await m.sweep()) == n


async def test_a_process_that_died_mid_post_leaves_its_rows_after_the_lease(db, clock, backend):
    """PostgreSQL: the rows one manager took are claimed (committed) for OUTBOX_LEASE seconds:
    another manager on the database does not get them; the first gets them again (a retry);
    once the lease is over, another manager takes them and delivers them, once. SQLite: one
    process per file, so a new manager (a restarted bot) takes them at once."""
    from bot.manager import OUTBOX_LEASE

    m1 = await GameManager.open(db("lease.db"), clock=clock)
    m2 = await GameManager.open(db("lease.db"), clock=clock)
    try:
        await _timeouts(m1, clock, 3)
        taken = await m1.pending_announcements()
        assert len(taken) == 3
        row = await m2.store.fetchone("SELECT claimed_by, lease_until FROM announcements WHERE id = ?",
                                      (taken[0].id,))
        assert tuple(row) == (m1.process_id, clock.t + OUTBOX_LEASE)
        if backend == "sqlite":
            assert [a.id for a in await m2.pending_announcements()] == [a.id for a in taken]
            return
        assert m1.process_id != m2.process_id
        assert await m2.pending_announcements() == []  # held by m1
        assert [a.id for a in await m1.pending_announcements()] == [a.id for a in taken]
        await m1.mark_delivered(taken[0].id)  # m1 posts one, then dies
        clock.advance(OUTBOX_LEASE - 1)
        assert await m2.pending_announcements() == []
        clock.advance(1)
        rest = await m2.pending_announcements()
        assert [a.id for a in rest] == [a.id for a in taken[1:]]
        for a in rest:
            assert await m2.mark_delivered(a.id)
        assert await m1.pending_announcements() == [] and await m2.pending_announcements() == []
    finally:
        await m1.close()
        await m2.close()


async def test_two_processes_claiming_at_once_take_different_rows(db, clock, backend):
    """PostgreSQL: two managers claim at the same moment (FOR UPDATE SKIP LOCKED): no row is
    taken by both, and between them every row is delivered exactly once."""
    if backend != "postgresql":
        pytest.skip("SQLite: one process per file")
    ms = [await GameManager.open(db("claims.db"), clock=clock) for _ in range(3)]
    try:
        await _timeouts(ms[0], clock, 12)
        delivered: list[int] = []
        for _ in range(6):
            batches = await asyncio.gather(*(m.pending_announcements(limit=3) for m in ms))
            ids = [a.id for batch in batches for a in batch]
            assert len(ids) == len(set(ids)), batches
            for m, batch in zip(ms, batches, strict=True):
                for a in batch:
                    assert await m.mark_delivered(a.id)
            delivered += ids
        assert sorted(delivered) == sorted(set(delivered)) and len(delivered) == 12
    finally:
        for m in ms:
            await m.close()


# ---- issue 18: the note with a vacation's new deadline is an announcement -----------------

async def test_a_vacation_queues_the_deadline_note_of_each_game_it_moved(mgr, clock):
    waiting = await start_game(mgr, "coil", {"size": 5}, a=BOB, b=ALICE)  # Bob to move
    await start_game(mgr, "coil", {"size": 5}, a=ALICE, b=BOB)  # Alice to move: untouched
    change = await mgr.vacation(BOB, 2)
    [moved] = change.games
    assert moved.id == waiting.id and len(change.note_ids) == 1 and change.note_ids[0] is not None
    # like a board, it waits for the /vacation handler to post it during the grace
    assert await mgr.pending_announcements() == []
    clock.advance(BOARD_GRACE)
    [note] = await mgr.pending_announcements()
    assert (note.id, note.kind, note.game.id, note.user_id, note.ply) == (
        change.note_ids[0], "deadline", waiting.id, BOB, 0)
    assert note.game.deadline == moved.deadline and note.vacation_until == change.settings.vacation_until
    assert not note.stale
    # ended: a second note; a move of Bob's makes both stale (the board shows the deadline)
    ended = await mgr.vacation(BOB, 0)
    clock.advance(BOARD_GRACE)
    assert [a.id for a in await mgr.pending_announcements()] == [note.id, ended.note_ids[0]]
    await mgr.play_move(waiting.id, BOB, next(waiting.position.legal_moves()))
    notes = [a for a in await mgr.pending_announcements() if a.kind == "deadline"]
    assert len(notes) == 2 and all(a.stale for a in notes)


async def test_a_vacation_and_its_deadline_notes_commit_together(mgr, clock, monkeypatch):
    waiting = await start_game(mgr, "coil", {"size": 5}, a=BOB, b=ALICE)
    monkeypatch.setattr(mgr.services.outbox, "announce", disk_full)
    with pytest.raises(RuntimeError, match="disk full"):
        await mgr.vacation(BOB, 2)
    assert (await mgr.get_game(waiting.id)).deadline == waiting.deadline
    assert (await mgr.settings(BOB)).vacation_until is None
    monkeypatch.undo()
    change = await mgr.vacation(BOB, 2)
    clock.advance(BOARD_GRACE)
    assert [a.id for a in await mgr.pending_announcements()] == list(change.note_ids)


async def test_rows_that_may_have_been_posted_already_are_rechecked(db, clock, backend):
    """Issue 18: a row a delivery pass claimed before (its process may have died after
    posting), one whose post failed, and one older than the nonce window come with
    ``recheck``; a fresh one does not. The message of each post is recorded."""
    from bot.manager import NONCE_WINDOW, OUTBOX_LEASE

    m1 = await GameManager.open(db("recheck.db"), clock=clock)
    m2 = await GameManager.open(db("recheck.db"), clock=clock)
    try:
        await _timeouts(m1, clock, 3)
        first = await m1.pending_announcements()
        assert [a.recheck for a in first] == [False] * 3
        assert await m1.mark_delivered(first[0].id, message_id=1_234_567_890_123_456_789)
        await m1.record_failed_post(first[1].id, "503")
        clock.advance(OUTBOX_LEASE)  # m1 died: its claims lapse
        again = await m2.pending_announcements()
        assert [(a.id, a.recheck) for a in again] == [(first[1].id, True), (first[2].id, True)]
        assert await m2.recorded_messages([1_234_567_890_123_456_789, 42]) == {1_234_567_890_123_456_789}
        for a in again:
            await m2.mark_delivered(a.id)
        await _timeouts(m1, clock, 1)
        clock.advance(NONCE_WINDOW)  # never claimed, but Discord's nonce may have lapsed
        [old] = await m2.pending_announcements()
        assert old.recheck
    finally:
        await m1.close()
        await m2.close()
