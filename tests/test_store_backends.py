"""The store over both backends (SQLite file, PostgreSQL database): rows, placeholders,
ids, transactions, Alembic's history; and, SQLite only, a file of the old schema version 8
upgraded in place with its data."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest
from manager_support import ALICE, BOB, CAROL, FakeClock, start_game
from old_schema import copy_rows
from sqlalchemy.exc import IntegrityError

from bot.manager import GameManager
from bot.store import Store, StoreError
from bot.store.db import bind, database_url, is_postgresql
from bot.store.migrations import BASE_REVISION, alembic_config, head_revision

KIND, OPTS = "coil", {"size": 5}
SNOWFLAKE = 1_234_567_890_123_456_789  # a Discord id: past 2**31 and 2**53


@pytest.fixture
async def store(db_url):
    s = await Store.open(db_url)
    yield s
    await s.close()


def test_placeholders_are_bound_once_and_quoted_text_is_left_alone():
    clause, n = bind("SELECT '?:x' AS a, ? AS b -- what? 12:00\n WHERE c = ?")
    assert n == 2
    assert str(clause) == "SELECT '?:x' AS a, :p0 AS b -- what  12:00\n WHERE c = :p1"
    assert bind("SELECT ?")[0] is bind("SELECT ?")[0]  # cached


def test_database_urls():
    assert is_postgresql("postgresql://u:p@h/db") and is_postgresql("postgres://h/db")
    assert not is_postgresql("data/stonecast.db")
    assert database_url("postgresql://u:p@h:5433/db").drivername == "postgresql+asyncpg"
    assert database_url("postgres://h/db").drivername == "postgresql+asyncpg"
    assert database_url("data/x.db").drivername == "sqlite+aiosqlite"
    assert dict(database_url("postgresql://h/db?sslmode=require").query) == {"ssl": "require"}


async def test_rows_ids_and_big_snowflakes(store, backend):
    assert store.dialect == backend
    async with store.transaction():
        await store.execute("INSERT INTO user_settings (user_id, dm) VALUES (?, ?)", (SNOWFLAKE, 1))
    row = await store.fetchone("SELECT user_id, dm, vacation_used FROM user_settings WHERE user_id = ?",
                               (SNOWFLAKE,))
    assert row["user_id"] == row[0] == SNOWFLAKE and row["dm"] == 1 and row["vacation_used"] == 0
    user, dm, used = row
    assert (user, dm, used) == (SNOWFLAKE, 1, 0) and row.keys() == ["user_id", "dm", "vacation_used"]
    assert dict(row) == {"user_id": SNOWFLAKE, "dm": 1, "vacation_used": 0}
    assert await store.fetchone("SELECT * FROM user_settings WHERE user_id = ?", (1,)) is None
    # insert returns the new ids, one after the other
    ids = [await store.insert(
        "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, kind, options,"
        " first, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (SNOWFLAKE, SNOWFLAKE + 1, ALICE, None, KIND, "{}", "random", 1.25, 2.5)) for _ in range(3)]
    assert ids == [ids[0], ids[0] + 1, ids[0] + 2]
    ch = await store.fetchone("SELECT * FROM challenges WHERE id = ?", (ids[0],))
    assert (ch["guild_id"], ch["created_at"], ch["status"], ch["rated"]) == (SNOWFLAKE, 1.25, "open", 1)
    await store.executemany("UPDATE challenges SET status = 'expired' WHERE id = ?", [(i,) for i in ids[:2]])
    assert [r[0] for r in await store.fetchall("SELECT status FROM challenges ORDER BY id")] == [
        "expired", "expired", "open"]


async def test_times_keep_their_precision(store):
    t = 1_700_000_000.123456
    await store.execute("INSERT INTO user_settings (user_id, vacation_until) VALUES (?, ?)", (1, t))
    assert (await store.fetchone("SELECT vacation_until FROM user_settings"))[0] == t


async def test_transactions_roll_back_do_not_nest_and_check_constraints(store):
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
    with pytest.raises(IntegrityError):  # CHECK (dm IN (0, 1))
        await store.execute("INSERT INTO user_settings (user_id, dm) VALUES (1, 2)")
    with pytest.raises(IntegrityError):  # a move of a game that does not exist
        await store.execute("INSERT INTO moves (game_id, ply, seat, move, played_at) VALUES (42, 1, 1, 'a1', 0)")
    # the store is usable after a failed statement
    await store.execute("INSERT INTO user_settings (user_id, dm) VALUES (1, 1)")
    assert (await store.fetchone("SELECT COUNT(*) FROM user_settings"))[0] == 1


async def test_a_second_store_sees_committed_writes_only(db_url):
    a, b = await Store.open(db_url), await Store.open(db_url)
    try:
        await a.execute("INSERT INTO user_settings (user_id, dm) VALUES (1, 1)")  # autocommits
        assert (await b.fetchone("SELECT dm FROM user_settings WHERE user_id = 1"))[0] == 1
        async with a.transaction():
            await a.execute("UPDATE user_settings SET dm = 0 WHERE user_id = 1")
            assert (await b.fetchone("SELECT dm FROM user_settings WHERE user_id = 1"))[0] == 1
        assert (await b.fetchone("SELECT dm FROM user_settings WHERE user_id = 1"))[0] == 0
    finally:
        await a.close()
        await b.close()


async def test_postgresql_transactions_of_two_tasks_run_at_once(store, backend):
    if backend != "postgresql":
        pytest.skip("SQLite runs one transaction at a time (one connection, BEGIN IMMEDIATE)")
    inside, release = asyncio.Event(), asyncio.Event()

    async def slow():
        async with store.transaction():
            await store.execute("INSERT INTO user_settings (user_id, dm) VALUES (1, 1)")
            inside.set()
            await release.wait()

    task = asyncio.create_task(slow())
    await inside.wait()
    async with store.transaction():  # does not wait for the open one
        await store.execute("INSERT INTO user_settings (user_id, dm) VALUES (2, 1)")
        assert [r[0] for r in await store.fetchall("SELECT user_id FROM user_settings")] == [2]
    release.set()
    await task
    assert [r[0] for r in await store.fetchall("SELECT user_id FROM user_settings ORDER BY 1")] == [1, 2]


# ---- Alembic ------------------------------------------------------------------------------

def _head() -> str:
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def test_one_history_with_one_head():
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(alembic_config())
    assert len(script.get_heads()) == 1  # no branches: every revision follows the one before
    assert script.get_base() == BASE_REVISION
    # each file is its revision, numbered after the one before: head_revision() reads the
    # head off the file names without loading Alembic
    for rev in script.walk_revisions():
        assert Path(rev.path).name.startswith(f"{rev.revision}_"), rev.path
        if rev.down_revision is not None:
            assert int(rev.revision) == int(str(rev.down_revision)) + 1, rev.revision
    assert head_revision() == script.get_current_head()


_REVISION_0099 = '''
"""test only: a column after the head"""
import sqlalchemy as sa
from alembic import op

revision = "0099"
down_revision = {head!r}
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("note", sa.Text, nullable=False, server_default="none"))


def downgrade():
    with op.batch_alter_table("games") as batch:
        batch.drop_column("note")
'''


async def test_a_new_revision_applies_on_open_and_keeps_the_data(db_url, tmp_path):
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    mgr = await GameManager.open(db_url, clock=FakeClock())
    try:
        game = await start_game(mgr, KIND, OPTS)
        await mgr.play_move(game.id, ALICE, "a1")
        before = [tuple(r) for r in await mgr.store.fetchall("SELECT * FROM games ORDER BY id")]
    finally:
        await mgr.close()
    extra = tmp_path / "versions"
    extra.mkdir()
    (extra / "0099_note.py").write_text(_REVISION_0099.format(head=head))
    store = await Store.open(db_url)
    try:
        assert await store.upgrade(config=alembic_config([extra])) == "0099"
        rows = await store.fetchall("SELECT * FROM games ORDER BY id")
        assert [tuple(r)[:-1] for r in rows] == before and rows[0]["note"] == "none"
    finally:
        await store.close()
    # a database at a revision this code does not know is refused
    with pytest.raises(StoreError, match="does not know"):
        await Store.open(db_url)


# ---- SQLite: a file of the old schema version 8 ---------------------------------------------

async def test_a_version_8_file_with_data_is_upgraded_in_place(tmp_path):
    """A file of today's schema (PRAGMA user_version 8, no Alembic) with games, moves, ratings
    and announcements: opened, it is stamped with the first revision; every row kept."""
    path = tmp_path / "v8.db"
    clock = FakeClock()
    tables = ("challenges", "games", "moves", "ratings", "rating_changes", "announcements",
              "user_settings", "conditionals", "reviews")
    head = await GameManager.open(tmp_path / "head.db", clock=clock)  # the rows, played today
    old = await Store.open(path, target_version=8)
    try:
        done = await start_game(head, KIND, OPTS)
        await head.play_move(done.id, ALICE, "a1")
        await head.resign(done.id, BOB)
        running = await start_game(head, KIND, OPTS, a=CAROL, b=ALICE)
        await head.play_move(running.id, CAROL, "b2")
        await head.set_notify(ALICE, True)
        await copy_rows(head.store, old, tables)
        before = {t: [tuple(r) for r in await old.fetchall(f"SELECT * FROM {t} ORDER BY 1, 2")]
                  for t in tables}
        assert await old.alembic_revision() is None
    finally:
        await head.close()
        await old.close()
    assert before["moves"] and before["ratings"] and before["announcements"]

    mgr = await GameManager.open(path, clock=clock)
    try:
        # stamped with the first revision (the schema it had), then upgraded to the head
        assert await mgr.store.alembic_revision() == _head() != BASE_REVISION
        assert await mgr.store.version() == 8
        for t in tables:  # every row kept (later revisions add columns at the end, unset)
            after = [tuple(r) for r in await mgr.store.fetchall(f"SELECT * FROM {t} ORDER BY 1, 2")]
            assert [r[:len(b)] for r, b in zip(after, before[t], strict=True)] == before[t]
        res = await mgr.play_move(running.id, ALICE, "c3")  # play goes on
        assert res.game.ply == 2
    finally:
        await mgr.close()
    con = sqlite3.connect(path)
    try:
        assert con.execute("PRAGMA user_version").fetchone()[0] == 8
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        con.close()


async def test_a_task_cancelled_inside_a_transaction_leaves_the_store_usable(store):
    """A task cancelled inside its transaction -- between two statements, or while a slow
    statement runs -- has it rolled back, and the store's next transactions work (SQLAlchemy
    replaces a connection cut off mid-statement; on SQLite the old one lets go of the file
    once its statement ends, within the busy timeout)."""
    slow = ("SELECT pg_sleep(3)" if store.dialect == "postgresql" else
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000000)"
            " SELECT COUNT(*) FROM n")  # about a second
    inside = asyncio.Event()

    async def writer(uid, then):
        async with store.transaction():
            await store.execute("INSERT INTO user_settings (user_id, dm) VALUES (?, 1)", (uid,))
            inside.set()
            await then()

    for uid, then in ((1, lambda: asyncio.sleep(30)), (2, lambda: store.fetchone(slow))):
        inside.clear()
        task = asyncio.create_task(writer(uid, then))
        await inside.wait()
        await asyncio.sleep(0.1)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        async with store.transaction():
            await store.execute("INSERT INTO user_settings (user_id, dm) VALUES (?, 1)", (uid + 10,))
    assert [r[0] for r in await store.fetchall("SELECT user_id FROM user_settings ORDER BY 1")] == [11, 12]


# ---- revision 0005: the outbox's kind 'deadline' (issue 18) --------------------------------

async def _down_to_0004(store: Store) -> None:
    """Take ``store`` (at the head) back down to revision 0004, keeping its rows."""
    from alembic import command

    await store._alembic(lambda cfg: command.downgrade(cfg, "0004"), alembic_config())
    store.revision = await store.alembic_revision()
    assert store.revision == "0004"


def _add_announcement(kind: str, game_id: int, attempts: int = 0) -> tuple[str, tuple]:
    return ("INSERT INTO announcements (game_id, kind, user_id, ply, created_at, attempts)"
            " VALUES (?, ?, ?, 0, 1.5, ?)", (game_id, kind, ALICE, attempts))


async def test_revision_0005_upgrades_a_database_at_0004_holding_data(db_url, backend):
    """A database at revision 0004 with games, moves and announcements of every old kind is
    upgraded to the head: every row kept, the kind 'deadline' accepted, the other checks and
    the reference to the game kept, no id given twice, message ids (snowflakes) stored;
    downgraded, its 'deadline' rows and message ids go."""
    from alembic import command

    clock = FakeClock()
    head = await GameManager.open(db_url, clock=clock)  # the rows, played at the head
    tables = ("games", "moves", "announcements", "user_settings")
    try:
        running = await start_game(head, KIND, OPTS)
        await head.set_notify(BOB, True)
        await head.play_move(running.id, ALICE, "a1")  # a board and a DM
        done = await start_game(head, KIND, OPTS, a=CAROL, b=BOB)
        await head.resign(done.id, BOB)
        store = head.store
        await _down_to_0004(store)  # then the database at 0004, its rows kept
        for kind in ("reminder", "timeout", "digest"):
            await store.insert(*_add_announcement(kind, running.id, attempts=2))
        with pytest.raises(IntegrityError):  # not a kind at revision 0004
            await store.insert(*_add_announcement("deadline", running.id))
        newest = await store.insert(*_add_announcement("reminder", running.id))
        await store.execute("DELETE FROM announcements WHERE id = ?", (newest,))
        before = {t: [tuple(r) for r in await store.fetchall(f"SELECT * FROM {t} ORDER BY 1, 2")]
                  for t in tables}
    finally:
        await head.close()
    assert {r[2] for r in before["announcements"]} == {"move", "dm", "reminder", "timeout", "digest"}

    store = await Store.open(db_url)  # opening upgrades to the head
    try:
        assert store.revision >= "0005"
        for t in tables:  # every row kept; announcements get message_id at the end, unset
            after = [tuple(r) for r in await store.fetchall(f"SELECT * FROM {t} ORDER BY 1, 2")]
            assert [r[:len(b)] for r, b in zip(after, before[t], strict=True)] == before[t]
        assert {r["message_id"] for r in await store.fetchall("SELECT message_id FROM announcements")} == {None}
        await store.execute("UPDATE announcements SET message_id = ? WHERE kind = 'move'", (SNOWFLAKE,))
        assert (await store.fetchone("SELECT message_id FROM announcements WHERE kind = 'move'"))[0] == SNOWFLAKE
        note = await store.insert(*_add_announcement("deadline", running.id))
        assert note > newest  # the id of the deleted row is not given again (its nonce neither)
        with pytest.raises(IntegrityError):
            await store.insert(*_add_announcement("telegram", running.id))
        with pytest.raises(IntegrityError):
            await store.insert(*_add_announcement("move", running.id, attempts=-1))
        with pytest.raises(IntegrityError):
            await store.insert(*_add_announcement("move", 4242))  # no such game
        # back down to 0004: the deadline note and message_id go, the rest stays, the kind is
        # refused again
        await store._alembic(lambda cfg: command.downgrade(cfg, "0004"), alembic_config())
        assert [tuple(r) for r in await store.fetchall(
            "SELECT * FROM announcements ORDER BY 1, 2")] == before["announcements"]
        with pytest.raises(IntegrityError):
            await store.insert(*_add_announcement("deadline", running.id))
    finally:
        await store.close()
    if backend == "sqlite":
        con = sqlite3.connect(db_url)
        try:
            assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            assert con.execute("PRAGMA foreign_key_check").fetchall() == []
        finally:
            con.close()
