"""Operating the bot (issue 14): ``python -m bot backup``, one process per SQLite file,
gateway shards and who syncs the slash commands, ``python -m bot sync``."""

import asyncio
import os
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from fakediscord.fixtures import *  # noqa: F403
from fakediscord.harness import BotHarness
from test_bot_main import ROOT, _env, _run

from bot.config import Config, ConfigError, parse_shards
from bot.front.client import StonecastBot
from bot.store import Store
from bot.store.backup import BackupError, backup_database
from bot.store.lock import DatabaseInUse, lock_database, lock_path

# ---------------------------------------------------------------- configuration of shards


def test_shard_settings_parse():
    assert parse_shards("", "") == (None, None)
    assert parse_shards("4", "") == (4, None)
    assert parse_shards("4", "0-3") == (4, (0, 1, 2, 3))
    assert parse_shards(" 8 ", "6, 0,2-3") == (8, (0, 2, 3, 6))
    c = Config.from_env({"DISCORD_TOKEN": "t", "STONECAST_SHARD_COUNT": "4", "STONECAST_SHARD_IDS": "2-3"})
    assert (c.shard_count, c.shard_ids, c.syncs_commands) == (4, (2, 3), False)
    c = Config.from_env({"DISCORD_TOKEN": "t"})
    assert (c.shard_count, c.shard_ids, c.syncs_commands) == (None, None, True)
    assert Config(token="t", shard_count=2, shard_ids=(0,)).syncs_commands


@pytest.mark.parametrize("count, ids, words", [
    ("0", "", "STONECAST_SHARD_COUNT must be a number from 1"),
    ("two", "", "STONECAST_SHARD_COUNT must be a number"),
    ("", "0-1", "STONECAST_SHARD_IDS needs STONECAST_SHARD_COUNT"),
    ("4", "4", "shard 4 does not exist with STONECAST_SHARD_COUNT=4"),
    ("4", "3-1", "runs backwards"),
    ("4", "0,,1", "shard numbers and ranges"),
    ("4", "a-b", "shard numbers and ranges"),
    ("4", "-1", "shard numbers and ranges"),
    ("4", "0-2,2", "names a shard twice"),
])
def test_bad_shard_settings_are_refused(count, ids, words):
    env = {"DISCORD_TOKEN": "t", "STONECAST_SHARD_COUNT": count, "STONECAST_SHARD_IDS": ids}
    with pytest.raises(ConfigError, match=words):
        Config.from_env(env)


# ---------------------------------------------------------------- backup


async def _stonecast_db(path: Path) -> None:
    """A Stonecast database (current schema) with a probe table the tests write to."""
    store = await Store.open(path)
    await store.execute("CREATE TABLE probe (txn INTEGER, part INTEGER, payload BLOB)")
    await store.close()


def _write_pairs(path: Path, first: int, count: int, stop: threading.Event | None = None) -> int:
    """Commit transactions ``first``, ``first + 1``, ... each inserting two rows (parts 0 and
    1) of 4 KiB, from a connection of its own; until ``stop`` is set or ``count`` are done.
    Returns the next transaction number."""
    conn = sqlite3.connect(path, isolation_level=None, timeout=30)
    conn.execute("PRAGMA journal_mode = WAL")
    txn = first
    try:
        while txn < first + count and not (stop is not None and stop.is_set()):
            conn.execute("BEGIN IMMEDIATE")
            for part in (0, 1):
                conn.execute("INSERT INTO probe VALUES (?, ?, ?)", (txn, part, os.urandom(4096)))
            conn.execute("COMMIT")
            txn += 1
    finally:
        conn.close()
    return txn


async def test_backup_while_another_connection_writes(tmp_path):
    db = tmp_path / "live.db"
    await _stonecast_db(db)
    _write_pairs(db, 0, 300)  # ~2.4 MB committed before the backup (much of it still in the WAL)
    stop = threading.Event()
    result: list[int] = []
    writer = threading.Thread(target=lambda: result.append(_write_pairs(db, 300, 10**9, stop)))
    writer.start()
    try:
        copies = []
        for i in range(3):  # several backups while the writer commits
            copy = tmp_path / f"copy{i}.db"
            info = backup_database(db, copy)
            copies.append((copy, info))
    finally:
        stop.set()
        writer.join()
    assert result[0] > 300, "the writer committed nothing while the backups ran"
    for copy, info in copies:
        assert not Path(f"{copy}-wal").exists() and not Path(f"{copy}-shm").exists()
        assert not list(tmp_path.glob(f".{copy.name}.*"))  # no temporary file left behind
        with sqlite3.connect(copy) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
            assert conn.execute("PRAGMA journal_mode").fetchone() == ("delete",)
            assert conn.execute("PRAGMA user_version").fetchone()[0] == info.schema_version > 0
            rows = conn.execute("SELECT txn, count(*) FROM probe GROUP BY txn ORDER BY txn").fetchall()
        # every transaction committed before the backup, then a gapless run of whole ones
        txns = [txn for txn, _ in rows]
        assert txns == list(range(len(txns))) and len(txns) >= 300
        assert all(n == 2 for _, n in rows), "a transaction was copied in half"
    # the live database goes on, and a copy opens as a Stonecast store
    store = await Store.open(copies[-1][0])
    await store.close()


def test_backup_refuses_and_writes_nothing(tmp_path):
    db = tmp_path / "live.db"
    asyncio.run(_stonecast_db(db))
    with pytest.raises(BackupError, match="no database at"):
        backup_database(tmp_path / "missing.db", tmp_path / "b.db")
    assert not (tmp_path / "missing.db").exists() and not (tmp_path / "b.db").exists()
    not_db = tmp_path / "notes.txt"
    not_db.write_text("hello " * 200)
    with pytest.raises(BackupError, match="not a SQLite database"):
        backup_database(not_db, tmp_path / "b.db")
    empty = tmp_path / "empty.db"
    sqlite3.connect(empty).close()
    empty.write_bytes(b"")
    with pytest.raises(BackupError, match="not a Stonecast database"):
        backup_database(empty, tmp_path / "b.db")
    with pytest.raises(BackupError, match="is the database itself"):
        backup_database(db, db, force=True)
    with pytest.raises(BackupError, match="does not exist"):
        backup_database(db, tmp_path / "no" / "b.db")
    with pytest.raises(BackupError, match="is a folder"):
        backup_database(db, tmp_path)
    existing = tmp_path / "b.db"
    existing.write_text("keep me")
    with pytest.raises(BackupError, match="already exists.*--force"):
        backup_database(db, existing)
    assert existing.read_text() == "keep me"
    assert not list(tmp_path.glob(".*partial"))
    backup_database(db, existing, force=True)
    with sqlite3.connect(existing) as conn:
        assert conn.execute("SELECT count(*) FROM probe").fetchone() == (0,)


def test_backup_refuses_an_unwritable_folder(tmp_path):
    db = tmp_path / "live.db"
    asyncio.run(_stonecast_db(db))
    if os.geteuid() != 0:
        folder = tmp_path / "readonly"
        folder.mkdir(mode=0o500)
    elif Path("/proc").is_dir():
        folder = Path("/proc")  # not writable even for root
    else:  # pragma: no cover
        pytest.skip("no unwritable folder for root here")
    with pytest.raises(BackupError, match=f"cannot write in {folder}"):
        backup_database(db, folder / "b.db")


def _cli(*args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=ROOT, env=_env(**env),
                          capture_output=True, text=True, timeout=60)


def test_backup_command(tmp_path):
    db = tmp_path / "live.db"
    asyncio.run(_stonecast_db(db))
    _write_pairs(db, 0, 5)
    out = tmp_path / "backup.db"
    # no DISCORD_TOKEN needed
    r = _cli("backup", str(out), STONECAST_DB=str(db))
    assert r.returncode == 0, r.stderr
    assert f"backed up {db}" in r.stdout and str(out) in r.stdout
    with sqlite3.connect(out) as conn:
        assert conn.execute("SELECT count(*) FROM probe").fetchone() == (10,)
    r = _cli("backup", str(out), STONECAST_DB=str(db))
    assert r.returncode == 2 and r.stderr.strip().splitlines() == [
        f"stonecast: {out} already exists: name another file, or add --force to replace it"]
    _write_pairs(db, 5, 1)
    r = _cli("backup", str(out), "--force", STONECAST_DB=str(db))
    assert r.returncode == 0, r.stderr
    with sqlite3.connect(out) as conn:
        assert conn.execute("SELECT count(*) FROM probe").fetchone() == (12,)
    r = _cli("backup", str(tmp_path / "b2.db"), STONECAST_DB=str(tmp_path / "nope.db"))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.strip().splitlines() == [
        f"stonecast: no database at {tmp_path / 'nope.db'}: set STONECAST_DB to the bot's database file"]
    r = _cli("backup")  # FILE is required
    assert r.returncode == 2 and "FILE" in r.stderr


# ---------------------------------------------------------------- one process per file


def test_lock_is_exclusive_and_released(tmp_path):
    db = tmp_path / "sub" / "stonecast.db"
    lock = lock_database(db)
    assert lock_path(db) == tmp_path / "sub" / "stonecast.db.lock" and lock.held
    with pytest.raises(DatabaseInUse, match=f"in use by another Stonecast process \\(pid {os.getpid()}\\)"):
        lock_database(db)
    lock.release()
    lock.release()  # once only
    lock_database(db).release()


def test_lock_of_a_killed_process_is_released(tmp_path):
    db = tmp_path / "stonecast.db"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from bot.store.lock import lock_database; "
         "lock = lock_database(sys.argv[1]); print('locked', flush=True); time.sleep(60)", str(db)],
        cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        with pytest.raises(DatabaseInUse, match=f"pid {holder.pid}"):
            lock_database(db)
    finally:
        holder.kill()
        holder.wait()
    lock_database(db).release()  # SIGKILL released it


async def test_second_process_on_one_database_refuses_to_start(fake, tmp_path):
    db = tmp_path / "stonecast.db"
    env = _env(DISCORD_TOKEN=fake.token, STONECAST_DB=str(db), STONECAST_GUILD=str(fake.guild_id),
               STONECAST_API_URL=f"{fake.base_url}/api/v10")
    second_done = asyncio.Event()
    first = asyncio.create_task(_run(env, until=lambda: len(fake.sync_calls) >= 2 and second_done.is_set()))
    while not fake.identifies:
        assert not first.done(), first.result()
        await asyncio.sleep(0.05)
    second = asyncio.create_task(_run(env))
    rc, out, err = await second
    second_done.set()
    assert rc == 2, err
    assert err.strip().splitlines() == [
        f"stonecast: the database {db} is in use by another Stonecast process (pid "
        f"{lock_path(db).read_text().strip()}): SQLite allows one process per database file; "
        f"stop that process first, or set STONECAST_DB to another file"]
    assert len(fake.identifies) == 1  # the second never reached Discord
    rc, out, err = await first  # the first ran on and stops cleanly
    assert rc == 0 and "Traceback" not in err, err
    # once the first is gone, a new process starts on the file
    rc, out, err = await _run(env, until=lambda: len(fake.identifies) == 2)
    assert rc == 0, err


# ---------------------------------------------------------------- shards and sync


async def _no_identify_wait(self, shard_id, *, initial=False):
    """discord.py waits 5 s between two IDENTIFYs (Discord's rate); the fake needs no wait."""


async def test_two_shards_identify_and_play(fake, tmp_path, monkeypatch):
    monkeypatch.setattr(StonecastBot, "before_identify_hook", _no_identify_wait)
    h = BotHarness(fake, tmp_path / "stonecast.db", config_options={"shard_count": 2, "shard_ids": (0, 1)})
    await h.start()
    try:
        assert [d["shard"] for d in fake.identifies] == [[0, 2], [1, 2]]
        assert sorted(h.bot.shards) == [0, 1]
        guild = h.bot.get_guild(fake.guild_id)
        assert guild is not None and guild.shard_id == fake.guild_shard(2)
        assert fake.sync_calls == [(fake.guild_id, 18), (None, 3)]  # runs shard 0: syncs
        ex = await fake.slash(fake.alice, "help")  # through the guild's shard
        assert ex.reply is not None and ex.reply.ephemeral
    finally:
        await h.stop()
    assert not fake.unknown_routes


async def test_process_without_shard_0_does_not_sync(fake, tmp_path):
    h = BotHarness(fake, tmp_path / "stonecast.db", config_options={"shard_count": 3, "shard_ids": (2,)})
    await h.start()
    try:
        assert [d["shard"] for d in fake.identifies] == [[2, 3]]
        assert fake.sync_calls == []
    finally:
        await h.stop()


async def test_default_runs_every_shard_discord_recommends(fake, tmp_path, monkeypatch):
    monkeypatch.setattr(StonecastBot, "before_identify_hook", _no_identify_wait)
    fake.recommended_shards = 2
    h = BotHarness(fake, tmp_path / "stonecast.db")
    await h.start()
    try:
        assert [d["shard"] for d in fake.identifies] == [[0, 2], [1, 2]]
        assert len(fake.sync_calls) == 2
    finally:
        await h.stop()


async def test_sync_command_syncs_and_exits(fake, tmp_path):
    db = tmp_path / "stonecast.db"
    env = _env(DISCORD_TOKEN=fake.token, STONECAST_DB=str(db), STONECAST_GUILD=str(fake.guild_id),
               STONECAST_API_URL=f"{fake.base_url}/api/v10", STONECAST_SHARD_COUNT="2",
               STONECAST_SHARD_IDS="1")
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "sync", cwd=ROOT, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode == 0, err.decode()
    assert "Traceback" not in err.decode()
    assert fake.sync_calls == [(fake.guild_id, 18), (None, 3)]
    assert fake.identifies == []  # no gateway connection
    assert not db.exists() and not lock_path(db).exists()  # the database is not touched
