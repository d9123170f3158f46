"""``python -m bot``: configuration from the environment, clear one-line failures, clean stop."""

import asyncio
import os
import re
import signal
import sqlite3
import sys
from pathlib import Path

import pytest
from fakediscord.fixtures import *  # noqa: F403
from fakediscord.server import FakeHTTPError

from bot.config import DEFAULT_DB, Config, ConfigError

ROOT = Path(__file__).resolve().parents[1]


def test_config_from_env():
    c = Config.from_env({"DISCORD_TOKEN": " abc ", "STONECAST_GUILD": "123", "STONECAST_DB": "/x/y.db"})
    assert (c.token, c.guild_id, c.db_path, c.api_url) == ("abc", 123, Path("/x/y.db"), None)
    c = Config.from_env({"DISCORD_TOKEN": "abc"})
    assert c.db_path == DEFAULT_DB == Path("data/stonecast.db") and c.guild_id is None
    with pytest.raises(ConfigError, match="DISCORD_TOKEN"):
        Config.from_env({"STONECAST_GUILD": "1"})
    with pytest.raises(ConfigError, match="STONECAST_GUILD"):
        Config.from_env({"DISCORD_TOKEN": "abc", "STONECAST_GUILD": "my server"})


def _env(**extra) -> dict:
    """The environment of a ``python -m bot`` child: this one without Discord or Stonecast
    settings, plus ``extra``. Boards are drawn in a thread (``STONECAST_RENDER_WORKERS=0``)
    unless ``extra`` says otherwise: these processes draw none, and the two render workers
    of the default cost a second of CPU per start (tests of the workers ask for them)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "STONECAST_"))}
    env["STONECAST_RENDER_WORKERS"] = "0"
    env.update(extra)
    return env


async def _run(env, *, until=None, timeout=30.0):
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=ROOT, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    if until is not None:
        deadline = asyncio.get_running_loop().time() + timeout
        while not until() and proc.returncode is None:
            assert asyncio.get_running_loop().time() < deadline, "the bot did not start"
            await asyncio.sleep(0.05)
        proc.send_signal(signal.SIGTERM)
    out, err = await asyncio.wait_for(proc.communicate(), timeout)
    return proc.returncode, out.decode(), err.decode()


async def test_missing_token_is_one_line_without_traceback(tmp_path):
    rc, out, err = await _run(_env(STONECAST_DB=str(tmp_path / "db.sqlite")))
    assert rc == 2
    assert "DISCORD_TOKEN" in err and len(err.strip().splitlines()) == 1
    assert "Traceback" not in err + out


async def test_rejected_token_is_one_line(fake, tmp_path):
    rc, out, err = await _run(_env(DISCORD_TOKEN="wrong", STONECAST_DB=str(tmp_path / "db.sqlite"),
                                   STONECAST_API_URL=f"{fake.base_url}/api/v10"))
    assert rc == 1 and "Traceback" not in err
    assert [line for line in err.splitlines() if line.startswith("stonecast:")] == [
        "stonecast: Discord rejected DISCORD_TOKEN; copy the token again from the developer "
        "portal (Bot page)"]


async def test_runs_and_stops_cleanly_on_sigterm(fake, tmp_path):
    db = tmp_path / "nested" / "stonecast.db"
    env = _env(DISCORD_TOKEN=fake.token, STONECAST_DB=str(db), STONECAST_GUILD=str(fake.guild_id),
               STONECAST_API_URL=f"{fake.base_url}/api/v10",
               STONECAST_RENDER_WORKERS="")  # the default: render workers, stopped with the bot
    rc, out, err = await _run(env, until=lambda: fake.identifies and len(fake.sync_calls) >= 2)
    assert rc == 0, err
    assert "Traceback" not in err, err
    # the server gets every command but /help and /rules, which stay global to work in DMs
    assert fake.sync_calls == [(fake.guild_id, 18), (None, 3)]
    assert fake.identifies[0]["intents"] & ((1 << 1) | (1 << 8) | (1 << 15)) == 0
    assert db.exists()
    with sqlite3.connect(db) as conn:  # a closed, consistent database
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)


@pytest.mark.parametrize("value", ["0", "-1", "two", "65", "1.5"])
def test_bad_ai_workers_are_a_configuration_error(value):
    with pytest.raises(ConfigError, match="STONECAST_AI_WORKERS must be a number of processes from 1 to 64"):
        Config.from_env({"DISCORD_TOKEN": "abc", "STONECAST_AI_WORKERS": value})
    assert Config.from_env({"DISCORD_TOKEN": "abc"}).ai_workers == 1
    assert Config.from_env({"DISCORD_TOKEN": "abc", "STONECAST_AI_WORKERS": " 3 "}).ai_workers == 3


async def test_zero_ai_workers_is_one_line_and_status_2(tmp_path):
    """Refused when the configuration is read, as every other bad value: before, it passed
    and the search pool raised while the bot was built (a traceback, status 1)."""
    rc, out, err = await _run(_env(DISCORD_TOKEN="abc", STONECAST_DB=str(tmp_path / "db.sqlite"),
                                   STONECAST_AI_WORKERS="0"))
    assert (rc, out) == (2, "")
    assert err.splitlines() == [
        "stonecast: STONECAST_AI_WORKERS must be a number of processes from 1 to 64, not '0'"]
    assert not (tmp_path / "db.sqlite").exists()  # refused before anything was touched


@pytest.mark.parametrize("name,value,words", [
    ("DISCORD_TOKEN", "abc\ndef", "DISCORD_TOKEN holds a space, line break or control character"),
    ("DISCORD_TOKEN", "abc def", "DISCORD_TOKEN holds a space"),
    ("STONECAST_API_URL", "not a url", "STONECAST_API_URL must be an http:// or https:// URL"),
    ("STONECAST_API_URL", "discord.com/api/v10", "STONECAST_API_URL must be an http"),
    ("STONECAST_GUILD", "0", "STONECAST_GUILD must be a server id"),
    ("STONECAST_GUILD", "9" * 20, "STONECAST_GUILD must be a server id"),
])
def test_values_that_would_fail_later_are_refused_when_read(name, value, words):
    """Each of these passed the configuration and ended in a traceback once the bot ran (a
    header with a line break, a URL aiohttp cannot request, an id Discord cannot hold)."""
    env = {"DISCORD_TOKEN": "abc", name: value}
    with pytest.raises(ConfigError, match=words):
        Config.from_env(env)


def test_a_folder_is_not_a_database_file(tmp_path):
    with pytest.raises(ConfigError, match="STONECAST_DB names the folder .*, not a file"):
        Config.from_env({"DISCORD_TOKEN": "abc", "STONECAST_DB": str(tmp_path)})
    assert Config.from_env({"DISCORD_TOKEN": "abc", "STONECAST_API_URL": "http://127.0.0.1:5/api/v10/",
                            "STONECAST_DB": str(tmp_path / "s.db")}).api_url == "http://127.0.0.1:5/api/v10"


async def test_a_database_of_a_newer_stonecast_is_one_line_and_status_2(fake, tmp_path):
    db = tmp_path / "db.sqlite"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL)")
        conn.execute("INSERT INTO alembic_version VALUES ('9999')")
    rc, out, err = await _run(_env(DISCORD_TOKEN=fake.token, STONECAST_DB=str(db),
                                   STONECAST_API_URL=f"{fake.base_url}/api/v10"))
    assert rc == 2 and "Traceback" not in err, err
    assert [line for line in err.splitlines() if line.startswith("stonecast:")] == [
        f"stonecast: the database {db} is at schema revision 9999, which this Stonecast does "
        f"not know (a newer Stonecast wrote it); upgrade Stonecast"]


async def test_an_unreachable_database_server_is_one_line_without_its_password(fake, tmp_path):
    rc, out, err = await _run(_env(DISCORD_TOKEN=fake.token,
                                   STONECAST_DB="postgresql://stonecast:s3cret@127.0.0.1:1/stonecast",
                                   STONECAST_API_URL=f"{fake.base_url}/api/v10"))
    assert rc == 1 and "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line.startswith("stonecast:")]
    assert len(lines) == 1 and lines[0].startswith(
        "stonecast: cannot open the database postgresql://stonecast:***@127.0.0.1:1/stonecast "
        "(ConnectionRefusedError: "), lines
    assert "s3cret" not in err + out


LOG_LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} (?P<level>[A-Z]+) (?P<logger>[\w.]+): (?P<message>.*)$")


def _revisions_in_order() -> list[tuple[str, str]]:
    """Every Alembic revision, base first, with the words of its file name after its id."""
    from alembic.script import ScriptDirectory

    from bot.store.migrations import alembic_config

    scripts = reversed(list(ScriptDirectory.from_config(alembic_config()).walk_revisions()))
    return [(s.revision, Path(s.path).stem.removeprefix(f"{s.revision}_").replace("_", " "))
            for s in scripts]


async def test_first_start_logs_one_line_per_event(fake, tmp_path):
    """A first start on a fresh database logs each revision applied, the commands synced and
    the connection, then (on SIGTERM) the stop: no Alembic plugin lines, no migration
    docstrings, no voice warnings, nothing else."""
    env = _env(DISCORD_TOKEN=fake.token, STONECAST_DB=str(tmp_path / "stonecast.db"),
               STONECAST_GUILD=str(fake.guild_id), STONECAST_API_URL=f"{fake.base_url}/api/v10")
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=ROOT, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    lines = []
    try:
        while not lines or "connected as" not in lines[-1]:
            line = await asyncio.wait_for(proc.stderr.readline(), 30)
            assert line, f"the bot ended before it connected: {lines}"
            lines.append(line.decode().rstrip("\n"))
        proc.send_signal(signal.SIGTERM)
        out, err = await asyncio.wait_for(proc.communicate(), 30)
    finally:
        if proc.returncode is None:
            proc.kill()
    assert (proc.returncode, out) == (0, b"")
    lines += err.decode().splitlines()
    parsed = [LOG_LINE.match(line) for line in lines]
    assert all(parsed), lines  # one line each: no tracebacks, no continued docstrings
    events = [(m["level"], m["logger"], m["message"]) for m in parsed]
    revisions = _revisions_in_order()
    assert revisions[0] == ("0001", "schema v8")
    assert events[:len(revisions)] == [
        ("INFO", "stonecast.store", f"database: applied {revision} {title}")
        for revision, title in revisions]
    rest = events[len(revisions):]
    assert [(level, logger) for level, logger, _ in rest] == [("INFO", "stonecast.bot")] * 4, lines
    assert re.fullmatch(rf"commands synced: \d+ to server {fake.guild_id}, \d+ global for direct "
                        r"messages", rest[0][2]), rest[0]
    assert re.fullmatch(r"connected as \S+ \(id \d+\) to 1 server\(s\) over shard\(s\) 0 of 1",
                        rest[1][2]), rest[1]
    assert [message for *_, message in rest[2:]] == ["signal received: closing", "stopped"]


async def test_a_server_the_bot_is_not_in_is_one_line_naming_the_setting(fake, tmp_path, monkeypatch):
    """Discord answers 403 (50001 Missing Access) to the commands of a server the bot was not
    added to: the operator reads which setting to fix (it was 'cannot reach Discord')."""
    other = fake.guild_id + 1

    async def refuse(request, app, gid):
        raise FakeHTTPError(403, 50001, "Missing Access")
    monkeypatch.setattr(fake, "_r_put_guild_commands", refuse)
    rc, out, err = await _run(_env(DISCORD_TOKEN=fake.token, STONECAST_DB=str(tmp_path / "db.sqlite"),
                                   STONECAST_GUILD=str(other), STONECAST_API_URL=f"{fake.base_url}/api/v10"))
    assert rc == 2 and "Traceback" not in err, err
    assert [line for line in err.splitlines() if line.startswith("stonecast:")] == [
        f"stonecast: Discord refused the commands for server {other} (STONECAST_GUILD): Missing "
        f"Access; the bot is not in that server or was added without the applications.commands "
        f"scope (README.md, step 3)"]


async def test_a_store_not_at_the_head_is_one_line_and_status_2(fake, tmp_path, monkeypatch, capsys):
    """The manager refuses a store that is not at the head schema (issue 20, typed
    SchemaNotAtHead): the start prints one line naming the database, its revision and the
    head, status 2. (Store.open always migrates, so the manager is handed a store kept at
    version 8 here, in process.)"""
    from bot import __main__ as cli
    from bot.manager import GameManager
    from bot.store import Store
    from bot.store.migrations import head_revision

    db = tmp_path / "db.sqlite"

    async def open_unmigrated(path, *, pool_size=None, **options):
        store = await Store.open(path, target_version=8)
        try:
            return GameManager(store, **options)
        except BaseException:
            await store.close()
            raise
    monkeypatch.setattr(GameManager, "open", open_unmigrated)
    config = Config.from_env({"DISCORD_TOKEN": fake.token, "STONECAST_DB": str(db),
                              "STONECAST_API_URL": f"{fake.base_url}/api/v10"})
    loop = asyncio.get_running_loop()
    try:
        rc = await cli.run(config)
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)
    err = capsys.readouterr().err
    assert rc == 2 and "Traceback" not in err, err
    assert [line for line in err.splitlines() if line.startswith("stonecast:")] == [
        f"stonecast: the database {db} is at schema revision none, not {head_revision()}, the only "
        f"one this Stonecast plays on; open it with Store.open, which migrates"]
