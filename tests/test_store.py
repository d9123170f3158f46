"""SQLite store: pragmas, migrations from the first schema version, crashes between statements."""

from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from manager_support import ALICE, BOB, FakeClock, replay_of, start_game
from old_schema import copy_rows
from sqlalchemy.exc import IntegrityError

import engine
from bot.manager import DAY, GameManager
from bot.store import LATEST_VERSION, MIGRATIONS, Store, StoreError

KIND = "coil"
OPTS = {"size": 5}
ROOT = Path(__file__).resolve().parents[1]



class SimulatedCrash(BaseException):
    """Raised in place of the process dying."""


async def test_new_file_is_wal_with_foreign_keys_at_latest_version(tmp_path):
    store = await Store.open(tmp_path / "sub" / "dir" / "s.db")  # folders are created
    try:
        assert (await store.fetchone("PRAGMA journal_mode"))[0] == "wal"
        assert (await store.fetchone("PRAGMA foreign_keys"))[0] == 1
        assert await store.version() == LATEST_VERSION == MIGRATIONS[-1].version
        with pytest.raises(IntegrityError):  # a move of a game that does not exist
            await store.execute("INSERT INTO moves (game_id, ply, seat, move, played_at) VALUES (42, 1, 1, 'a1', 0)")
    finally:
        await store.close()


async def test_transactions_roll_back_and_do_not_nest(tmp_path):
    store = await Store.open(tmp_path / "t.db")
    try:
        with pytest.raises(ZeroDivisionError):
            async with store.transaction():
                await store.execute("INSERT INTO user_settings (user_id, dm) VALUES (1, 1)")
                assert (await store.fetchone("SELECT COUNT(*) FROM user_settings"))[0] == 1
                raise ZeroDivisionError
        assert (await store.fetchone("SELECT COUNT(*) FROM user_settings"))[0] == 0
        async with store.transaction():
            with pytest.raises(RuntimeError, match="do not nest"):
                async with store.transaction():
                    pass
    finally:
        await store.close()


async def test_newer_database_is_refused(tmp_path):
    path = tmp_path / "future.db"
    con = sqlite3.connect(path)
    con.execute(f"PRAGMA user_version = {LATEST_VERSION + 1}")
    con.close()
    with pytest.raises(StoreError, match="newer"):
        await Store.open(path)


async def test_the_manager_refuses_a_store_not_at_the_head(tmp_path):
    """The manager works on the head schema only (issue 20): a store kept at an old version
    (not under Alembic) or an older revision is refused with :class:`SchemaNotAtHead`,
    which carries the database, where it is and the head; opened by Store.open, the same
    file is migrated and taken."""
    from bot.store import SchemaNotAtHead
    from bot.store.migrations import head_revision

    path = tmp_path / "old.db"
    for old in (await Store.open(path, target_version=6), await Store.open(tmp_path / "r2.db", target_version=8)):
        try:
            if await old.version() == 8:
                assert await old.upgrade("0002") == "0002"
            with pytest.raises(SchemaNotAtHead) as refused:
                GameManager(old)
            assert (refused.value.path, refused.value.revision, refused.value.head) == (
                str(old.path), old.revision, head_revision())
        finally:
            await old.close()
    mgr = await GameManager.open(path)
    try:
        assert mgr.store.revision == head_revision()
    finally:
        await mgr.close()


def _columns(path) -> dict[str, set[str]]:
    con = sqlite3.connect(path)
    try:
        tables = [r[0] for r in con.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        return {t: {r[1] for r in con.execute(f"PRAGMA table_info({t})")} for t in tables}
    finally:
        con.close()


async def test_migration_from_version_1_keeps_the_data(tmp_path):
    path = tmp_path / "old.db"
    v1 = await Store.open(path, target_version=1)
    assert await v1.version() == 1
    # a version-1 database as the issue-4 bot left it: a game with two moves, a challenge, a setting
    start = engine.new_game(KIND, **OPTS)
    moves = [next(start.legal_moves())]
    moves.append(next(start.play(moves[0]).legal_moves()))
    pos = engine.replay(KIND, start.options, moves)
    t0 = 1_700_000_000.0
    async with v1.transaction():
        await v1.execute(
            "INSERT INTO challenges (id, guild_id, channel_id, challenger_id, opponent_id, kind,"
            " options, first, rated, status, created_at, expires_at)"
            " VALUES (1, 9, 8, ?, ?, ?, ?, 'challenger', 1, 'accepted', ?, ?)",
            (ALICE, BOB, KIND, json.dumps(start.options), t0, t0 + 86400),
        )
        await v1.execute(
            "INSERT INTO games (id, guild_id, channel_id, kind, options, player1_id, player2_id,"
            " status, ply, position_text, rated, created_at, updated_at, challenge_id)"
            " VALUES (1, 9, 8, ?, ?, ?, ?, 'active', 2, ?, 1, ?, ?, 1)",
            (KIND, json.dumps(start.options), ALICE, BOB, pos.to_text(), t0, t0 + 100),
        )
        await v1.execute("UPDATE challenges SET game_id = 1 WHERE id = 1")
        for ply, mv in enumerate(moves, 1):
            await v1.execute("INSERT INTO moves VALUES (1, ?, ?, ?, ?)", (ply, 2 - ply % 2, mv, t0 + ply))
        await v1.execute("INSERT INTO user_settings (user_id, dm) VALUES (?, 1)", (BOB,))
    await v1.close()
    assert "deadline" not in _columns(path)["games"]

    clock = FakeClock(t0 + 200)
    mgr = await GameManager.open(path, clock=clock)
    try:
        assert await mgr.store.version() == LATEST_VERSION
        game = await mgr.get_game(1)
        assert game.players == {1: ALICE, 2: BOB} and game.ply == 2 and game.status == "active"
        assert game.position == pos
        assert game.days_per_move == 3 and game.deadline == t0 + 100 + 3 * 86400
        assert [m.move for m in await mgr.moves(1)] == moves
        ch = await mgr.get_challenge(1)
        assert ch.game_id == 1 and ch.days_per_move == 3 and ch.status == "accepted"
        assert (await mgr.settings(BOB)).dm is True
        assert (await mgr.settings(BOB)).vacation_left_days == 14
        # and play goes on
        res = await mgr.play_move(1, ALICE, next(game.position.legal_moves()))
        assert res.game.ply == 3
        assert replay_of(res.game, await mgr.moves(1)).to_text() == res.game.position_text
    finally:
        await mgr.close()
    # the migrated file has the same tables and columns as a new one
    fresh = await Store.open(tmp_path / "fresh.db")
    await fresh.close()
    assert _columns(path) == _columns(tmp_path / "fresh.db")
    # reopening does not migrate again
    store = await Store.open(path)
    assert await store.version() == LATEST_VERSION
    await store.close()


async def test_migration_from_version_2_adds_the_outbox_and_keeps_the_data(tmp_path):
    """A version-2 file (issue-5 bot before the outbox) with a finished rated game, a running
    game already reminded this turn and a vacation: all kept; the outbox starts empty."""
    path = tmp_path / "v2.db"
    clock = FakeClock()
    tables = ("challenges", "games", "moves", "ratings", "rating_changes", "user_settings")
    head = await GameManager.open(tmp_path / "head.db", clock=clock)  # the rows, played today
    old = await Store.open(path, target_version=2)
    try:
        assert await old.version() == 2
        done = await start_game(head, KIND, OPTS)
        await head.play_move(done.id, ALICE, next(done.position.legal_moves()))
        done = await head.resign(done.id, BOB)
        running = await start_game(head, KIND, OPTS, days_per_move=1)
        await head.set_vacation(BOB, 2)
        await copy_rows(head.store, old, tables)  # the outbox is not in version 2
        await old.execute("UPDATE games SET reminded_ply = 0 WHERE id = ?", (running.id,))
        before = {t: [tuple(r) for r in await old.fetchall(f"SELECT * FROM {t} ORDER BY 1, 2")]
                  for t in tables}
    finally:
        await head.close()
        await old.close()
    assert all(before.values())
    assert "announcements" not in _columns(path)

    mgr = await GameManager.open(path, clock=clock)
    try:
        assert await mgr.store.version() == LATEST_VERSION
        for table, rows in before.items():
            after = [tuple(r) for r in await mgr.store.fetchall(f"SELECT * FROM {table} ORDER BY 1, 2")]
            # later versions only add columns at the end (games.thread_wanted, version 6) --
            # and version 7 recomputes the ratings with Glicko-2 (the same rows, new values)
            if table in ("ratings", "rating_changes"):
                rows, after = [r[:3] for r in rows], [r[:3] for r in after]
            assert [row[:len(old)] for row, old in zip(after, rows, strict=True)] == rows
        assert await mgr.pending_announcements() == []
        assert (await mgr.get_game(done.id)).reason == "resignation"
        assert (await mgr.rating_changes(done.id))[ALICE][1] > 1500
        assert (await mgr.settings(BOB)).vacation_left_days == 12
        # the clocks go on: no second reminder for this turn, then the timeout is queued
        clock.advance(DAY - 60)
        assert await mgr.sweep() == []
        clock.advance(60)
        assert [e.kind for e in await mgr.sweep()] == ["timeout"]
        [a] = await mgr.pending_announcements()
        assert (a.kind, a.game.id, a.user_id) == ("timeout", running.id, ALICE)
    finally:
        await mgr.close()
    fresh = await Store.open(tmp_path / "fresh3.db")
    await fresh.close()
    assert _columns(path) == _columns(tmp_path / "fresh3.db")


async def test_crash_between_move_insert_and_commit(tmp_path, monkeypatch):
    """Die after the move row is written but before COMMIT: what is on disk at that moment
    (copied aside) is the game before the move, whole; the live database rolls back too."""
    path = tmp_path / "crash.db"
    snap = tmp_path / "snapshot"
    snap.mkdir()
    clock = FakeClock()
    mgr = await GameManager.open(path, clock=clock)
    game = await start_game(mgr, KIND, OPTS)
    first = await mgr.play_move(game.id, ALICE, next(game.position.legal_moves()))

    conn = mgr.store  # every statement of the repositories goes through Store.execute
    real_execute = conn.execute

    async def crashing_execute(sql, params=()):
        cur = await real_execute(sql, params)
        if sql.startswith("INSERT INTO moves"):
            for suffix in ("", "-wal"):
                src = Path(str(path) + suffix)
                if src.exists():
                    shutil.copy(src, snap / ("crash.db" + suffix))
            raise SimulatedCrash
        return cur

    monkeypatch.setattr(conn, "execute", crashing_execute)
    reply = next(first.position.legal_moves())
    with pytest.raises(SimulatedCrash):
        await mgr.play_move(game.id, BOB, reply)
    monkeypatch.setattr(conn, "execute", real_execute)
    live = await mgr.get_game(game.id)
    assert live == first.game and len(await mgr.moves(game.id)) == 1
    await mgr.close()

    for db in (snap / "crash.db", path):
        m = await GameManager.open(db, clock=clock)
        try:
            g = await m.get_game(game.id)
            moves = await m.moves(game.id)
            assert g.ply == 1 and [x.move for x in moves] == [first.move]
            assert replay_of(g, moves).to_text() == g.position_text
            assert (await m.play_move(game.id, BOB, reply)).game.ply == 2
        finally:
            await m.close()


_KILL_SCRIPT = textwrap.dedent(
    """
    import asyncio, os, sys
    sys.path[:0] = [{tests!r}, {root!r}]
    from bot.manager import DAY, GameManager

    async def main(path, game_id, user, move, mode):
        mgr = await GameManager.open(path)
        if mode == "before-commit":
            conn = mgr.store  # every statement of the repositories goes through Store.execute
            real = conn.execute
            async def dying(sql, params=()):
                cur = await real(sql, params)
                if sql.startswith("INSERT INTO moves"):
                    os._exit(9)  # the process dies here: no rollback, no close
                return cur
            conn.execute = dying
        await mgr.play_move(game_id, user, move)
        print("acknowledged", flush=True)
        os._exit(7)  # killed right after the move was acknowledged

    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]))
    """
)


async def test_process_killed_mid_move_and_after_acknowledging(tmp_path):
    path = tmp_path / "killed.db"
    script = tmp_path / "kill.py"
    script.write_text(_KILL_SCRIPT.format(tests=str(ROOT / "tests"), root=str(ROOT)))
    mgr = await GameManager.open(path)
    game = await start_game(mgr, KIND, OPTS)
    await mgr.close()
    move = next(game.position.legal_moves())

    def run(mode):
        return subprocess.run(
            [sys.executable, str(script), str(path), str(game.id), str(ALICE), move, mode],
            capture_output=True, text=True, timeout=60,
        )

    proc = run("before-commit")
    assert proc.returncode == 9, proc.stderr
    mgr = await GameManager.open(path)
    g = await mgr.get_game(game.id)
    assert g.ply == 0 and await mgr.moves(game.id) == [] and g.position == game.position
    await mgr.close()

    proc = run("acknowledged")
    assert proc.returncode == 7 and "acknowledged" in proc.stdout, proc.stderr
    mgr = await GameManager.open(path)
    try:
        g = await mgr.get_game(game.id)
        moves = await mgr.moves(game.id)
        assert g.ply == 1 and [m.move for m in moves] == [move]
        assert replay_of(g, moves).to_text() == g.position_text
    finally:
        await mgr.close()


async def test_crash_while_accepting_leaves_no_game(tmp_path, monkeypatch):
    """Accepting writes the game row and the challenge's new status together or not at all."""
    path = tmp_path / "accept.db"
    mgr = await GameManager.open(path)
    ch = await mgr.create_challenge(guild_id=1, channel_id=2, challenger_id=ALICE, opponent_id=BOB,
                                    kind=KIND, options=OPTS)
    conn = mgr.store  # every statement of the repositories goes through Store.execute
    real_execute = conn.execute

    async def crashing_execute(sql, params=()):
        if sql.startswith("UPDATE challenges SET status = 'accepted'"):
            raise SimulatedCrash  # the game row is already inserted at this point
        return await real_execute(sql, params)

    monkeypatch.setattr(conn, "execute", crashing_execute)
    with pytest.raises(SimulatedCrash):
        await mgr.accept_challenge(ch.id, BOB)
    monkeypatch.setattr(conn, "execute", real_execute)
    await mgr.close()
    mgr = await GameManager.open(path)
    try:
        assert (await mgr.store.fetchone("SELECT COUNT(*) FROM games"))[0] == 0
        assert (await mgr.get_challenge(ch.id)).status == "open"
        game = await mgr.accept_challenge(ch.id, BOB)
        assert (await mgr.get_challenge(ch.id)).game_id == game.id
    finally:
        await mgr.close()


async def test_a_task_cancelled_while_beginning_leaves_no_transaction_open(tmp_path):
    # aiosqlite still runs a BEGIN whose awaiting task was cancelled (e.g. the maintenance loop
    # stopped by close()): the store must undo it, or every later write on the connection is
    # swallowed by a transaction nobody commits.
    path = tmp_path / "cancel.db"
    store = await Store.open(path)
    try:
        async def write():
            async with store.transaction():
                await store.execute("INSERT INTO user_settings (user_id, dm) VALUES (1, 1)")

        task = asyncio.create_task(write())
        await asyncio.sleep(0)  # the task now waits for its BEGIN IMMEDIATE
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        async with store.transaction():
            await store.execute("INSERT INTO user_settings (user_id, dm) VALUES (2, 1)")
        await store.execute("INSERT INTO user_settings (user_id, dm) VALUES (3, 0)")
    finally:
        await store.close()
    with sqlite3.connect(path) as db:  # another connection sees exactly the committed writes
        assert [r[0] for r in db.execute("SELECT user_id FROM user_settings ORDER BY user_id")] == [2, 3]


async def test_close_lets_a_running_transaction_finish(tmp_path):
    path = tmp_path / "close.db"
    store = await Store.open(path)
    inside, go = asyncio.Event(), asyncio.Event()

    async def write():
        async with store.transaction():
            await store.execute("INSERT INTO user_settings (user_id, dm) VALUES (1, 1)")
            inside.set()
            await go.wait()  # e.g. the engine or another await between two statements
            await store.execute("INSERT INTO user_settings (user_id, dm) VALUES (2, 1)")

    task = asyncio.create_task(write())
    await inside.wait()
    closing = asyncio.create_task(store.close())
    await asyncio.sleep(0)  # close() is under way
    go.set()
    await task  # the transaction completes and commits ...
    await closing  # ... then the connection closes
    with sqlite3.connect(path) as db:
        assert [r[0] for r in db.execute("SELECT user_id FROM user_settings ORDER BY user_id")] == [1, 2]


async def test_the_channel_lookup_uses_an_index(tmp_path):
    """resolve_game's channel fallback query is answered from an index, not a table scan."""
    store = await Store.open(tmp_path / "idx.db")
    try:
        plan = await store.fetchall(
            "EXPLAIN QUERY PLAN SELECT * FROM games WHERE thread_id = ?"
            " OR (thread_id IS NULL AND channel_id = ?)",
            (1, 2),
        )
        steps = [r[3] for r in plan]
        assert any("USING INDEX games_by_channel" in st for st in steps), steps
        assert not any(st.startswith("SCAN") for st in steps), steps
    finally:
        await store.close()


async def test_migration_from_version_4_widens_the_outbox_and_keeps_its_rows(tmp_path):
    """Version 5 rebuilds the outbox to accept boards (kind 'move'): a version-4 file's rows,
    delivered or pending, come through unchanged, ids keep counting on, and the pending index
    is back."""
    path = tmp_path / "v4.db"
    clock = FakeClock()
    head = await GameManager.open(tmp_path / "head.db", clock=clock)  # the game, played today
    old = await Store.open(path, target_version=4)
    try:
        game = await start_game(head, KIND, OPTS)
        # a version-4 bot queued no boards: the outbox holds clock events only
        await copy_rows(head.store, old, ("challenges", "games", "moves", "user_settings"))
        async with old.transaction():
            for kind, delivered, error in (("reminder", clock.t + 5, None), ("timeout", None, "503 x"),
                                           ("reminder", None, None)):
                await old.execute(
                    "INSERT INTO announcements (game_id, kind, user_id, ply, created_at, attempts,"
                    " last_error, delivered_at) VALUES (?, ?, ?, 0, ?, 1, ?, ?)",
                    (game.id, kind, ALICE, clock.t, error, delivered),
                )
            await old.execute("DELETE FROM announcements WHERE id = 3")  # high-water mark 3
        with pytest.raises(IntegrityError):
            await old.execute(
                "INSERT INTO announcements (game_id, kind, user_id, ply, created_at)"
                " VALUES (?, 'move', ?, 0, ?)", (game.id, ALICE, clock.t))
        before = [tuple(r) for r in await old.fetchall("SELECT * FROM announcements ORDER BY id")]
    finally:
        await head.close()
        await old.close()
    assert len(before) == 2

    mgr = await GameManager.open(path, clock=clock)
    try:
        assert await mgr.store.version() == LATEST_VERSION
        # the rows kept (Alembic revision 0002 adds the lease columns after them, unset)
        after = [tuple(r) for r in await mgr.store.fetchall("SELECT * FROM announcements ORDER BY id")]
        assert [r[:len(b)] for r, b in zip(after, before, strict=True)] == before
        [pending] = await mgr.pending_announcements()
        assert (pending.id, pending.kind, pending.attempts) == (2, "timeout", 1)
        res = await mgr.play_move(game.id, ALICE, next(game.position.legal_moves()))
        assert res.announcement_id == 4  # AUTOINCREMENT: id 3 is never given out again
        with pytest.raises(IntegrityError):
            await mgr.store.execute(
                "INSERT INTO announcements (game_id, kind, user_id, ply, created_at)"
                " VALUES (?, 'gossip', ?, 0, ?)", (game.id, ALICE, clock.t))
        indexes = {r[0] for r in await mgr.store.fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'announcements'")}
        assert "announcements_pending" in indexes
    finally:
        await mgr.close()
    fresh = await Store.open(tmp_path / "fresh.db")
    await fresh.close()
    assert _columns(path) == _columns(tmp_path / "fresh.db")


async def test_migration_from_version_5_takes_dms_in_the_outbox_and_keeps_its_rows(tmp_path):
    """Version 6 rebuilds the outbox to accept your-turn DMs (kind 'dm') and adds
    games.thread_wanted: a version-5 file's outbox rows (boards, clock events; delivered or
    pending) and games come through unchanged, ids keep counting on, the games already there
    want no thread, and a game accepted from now on does until its thread is recorded."""
    path = tmp_path / "v5.db"
    clock = FakeClock()
    head = await GameManager.open(tmp_path / "head.db", clock=clock)  # the rows, played today
    old = await Store.open(path, target_version=5)
    try:
        await head.set_notify(BOB, True)
        game = await start_game(head, KIND, OPTS)  # its first board is marked delivered
        waiting = await start_game(head, KIND, OPTS)
        res = await head.play_move(waiting.id, ALICE, next(waiting.position.legal_moves()))  # board pending
        assert res.dm_id is not None  # today's bot queues bob's DM; a version-5 bot wrote none
        await copy_rows(head.store, old, ("challenges", "games", "moves", "user_settings", "announcements"),
                        where={"announcements": "kind <> 'dm'"})
        await old.execute("UPDATE games SET thread_id = 4242 WHERE id = ?", (game.id,))
        async with old.transaction():
            await old.execute(
                "INSERT INTO announcements (game_id, kind, user_id, ply, created_at, attempts, last_error)"
                " VALUES (?, 'timeout', ?, 1, ?, 2, '503 x')", (waiting.id, BOB, clock.t))
        with pytest.raises(IntegrityError):
            await old.execute(
                "INSERT INTO announcements (game_id, kind, user_id, ply, created_at)"
                " VALUES (?, 'dm', ?, 1, ?)", (waiting.id, BOB, clock.t))
        before = [tuple(r) for r in await old.fetchall("SELECT * FROM announcements ORDER BY id")]
        games = [tuple(r) for r in await old.fetchall("SELECT * FROM games ORDER BY id")]
    finally:
        await head.close()
        await old.close()
    assert [r[2] for r in before] == ["move", "move", "move", "timeout"]
    assert "thread_wanted" not in _columns(path)["games"]

    v6 = await Store.open(path, target_version=6)  # the store alone: version 6 as a new file has it
    try:
        assert await v6.version() == 6
        assert [tuple(r) for r in await v6.fetchall("SELECT * FROM announcements ORDER BY id")] == before
    finally:
        await v6.close()
    fresh = await Store.open(tmp_path / "fresh6.db", target_version=6)
    await fresh.close()
    assert _columns(path) == _columns(tmp_path / "fresh6.db")

    mgr = await GameManager.open(path, clock=clock)  # on through version 7 (its own test) to the head
    try:
        assert await mgr.store.version() == LATEST_VERSION
        after = [tuple(r) for r in await mgr.store.fetchall("SELECT * FROM announcements ORDER BY id")]
        assert [r[:len(b)] for r, b in zip(after, before, strict=True)] == before  # + later columns, unset
        width = len(games[0])  # thread_wanted comes right after version 5's columns
        after = [tuple(r) for r in await mgr.store.fetchall("SELECT * FROM games ORDER BY id")]
        assert [r[:width] for r in after] == games and [r[width] for r in after] == [0, 0]
        assert not (await mgr.get_game(waiting.id)).thread_wanted
        pending = await mgr.pending_announcements(board_grace=0)
        assert [(a.kind, a.game.id) for a in pending] == [("move", waiting.id), ("timeout", waiting.id)]
        assert pending[0].id == res.announcement_id
        # bob asked for DMs: his turn now queues one, with an id after the old rows
        res = await mgr.play_move(waiting.id, BOB, next((await mgr.get_game(waiting.id)).position.legal_moves()))
        assert res.dm_id is None  # alice did not ask for DMs
        new = await start_game(mgr, KIND, OPTS, first="opponent")  # BOB accepts and moves first
        assert (await mgr.get_game(new.id)).thread_wanted  # until the bot records its thread
        await mgr.set_game_thread(new.id, 4343)
        assert not (await mgr.get_game(new.id)).thread_wanted
        dm = await mgr.pending_dm(new.id, 0)
        assert dm is not None and dm > max(r[0] for r in before)
        [row] = await mgr.store.fetchall("SELECT kind, user_id, ply FROM announcements WHERE id = ?", (dm,))
        assert tuple(row) == ("dm", BOB, 0)
    finally:
        await mgr.close()
    fresh = await Store.open(tmp_path / "fresh.db")
    await fresh.close()
    assert _columns(path) == _columns(tmp_path / "fresh.db")
