"""The connection to Stonecast's database (SQLite or PostgreSQL) and its transactions.

The store is a thin layer over SQLAlchemy 2's async Core (:func:`create_async_engine` and
:func:`~sqlalchemy.text`; no ORM). The repositories of :mod:`bot.store` keep writing SQL text
with ``?`` placeholders; :func:`bind` turns each statement once into a :class:`TextClause`
with named parameters (cached), and rows come back as :class:`Row` (by column name, by
index, ``keys()``, tuple unpacking -- as :class:`sqlite3.Row` did).

Two backends, picked by :meth:`Store.open` from its target (:func:`database_url`):

* **SQLite** (a file path; ``sqlite+aiosqlite``): one connection for the process, in WAL
  mode with foreign keys on and ``synchronous=FULL`` (a committed transaction survives a
  killed process and a power cut). pysqlite's own transaction handling is switched off and
  the store emits ``BEGIN IMMEDIATE`` itself (SQLAlchemy's documented recipe: the
  ``connect`` and ``begin`` events). One asyncio lock serialises the statements of the
  connection, so two tasks never interleave statements inside one transaction; reads made
  inside a transaction by the task that opened it see its own writes.
* **PostgreSQL** (a ``postgresql://`` URL; ``postgresql+asyncpg``): a pool of connections.
  :meth:`Store.transaction` takes a connection from the pool for the task (a context
  variable), so transactions of different tasks (and processes) run concurrently; the
  statements of a task outside a transaction autocommit, each on a pooled connection. At
  most ``pool_size`` connections are out at once: further tasks wait their turn in order
  (an asyncio semaphore), never for the pool's own timeout, so a burst of moves queues
  instead of failing.

The schema is managed by Alembic (:mod:`bot.store.migrations`, one history for both
backends); on SQLite a file of the older ``PRAGMA user_version`` schema (versions 1-8,
:data:`bot.store.schema.MIGRATIONS`) is first brought to version 8 and stamped with Alembic's
first revision. :mod:`bot.manager` decides what to write.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import logging
from collections.abc import Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import event, make_url, pool, text
from sqlalchemy.engine import URL
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.sql.elements import TextClause

from .schema import LATEST_VERSION, MIGRATIONS

__all__ = ["DEFAULT_POOL_SIZE", "DatabaseUnreachable", "Row", "SchemaNotAtHead", "Store", "StoreError", "bind",
           "database_url", "is_postgresql"]

# PostgreSQL connections per process by default (``STONECAST_DB_POOL``).
DEFAULT_POOL_SIZE = 10
# Seconds SQLAlchemy's pool waits for a connection before failing. The store's semaphore
# keeps checkouts within the pool, so only a connection lost without being returned meets it.
POOL_TIMEOUT = 120.0


class StoreError(RuntimeError):
    """The database cannot be used (e.g. written by a newer Stonecast); ``str(e)`` is one
    line for the operator."""


class DatabaseUnreachable(StoreError):
    """The first connection to the database failed (the server is down or refuses the user or
    password, the file cannot be opened); ``str(e)`` is one line naming the database (its
    password hidden) and the driver's reason."""


class SchemaNotAtHead(RuntimeError):  # noqa: N818 - named for the state it reports
    """A store whose schema is not at Alembic's head was handed to :mod:`bot.manager`, which
    works on the head schema only (:func:`bot.store.migrations.head_revision`; open stores
    with :meth:`Store.open`, which migrates). Carries data, no sentence: ``path`` (the
    database, its password hidden), ``revision`` (where the store is; ``None``: not under
    Alembic, e.g. a SQLite file kept at an old ``PRAGMA user_version``) and ``head``."""

    def __init__(self, path: str, revision: str | None, head: str):
        super().__init__(path, revision, head)
        self.path = path
        self.revision = revision
        self.head = head


def database_name(target: str | Path) -> str:
    """``target`` (a ``STONECAST_DB`` value) as it may be shown in a log: a PostgreSQL URL
    with its password hidden (``***``), a SQLite path as it is."""
    if is_postgresql(target):
        return make_url(str(target)).render_as_string(hide_password=True)
    return str(target)


async def _first_connection(engine: AsyncEngine, target: str | Path) -> AsyncConnection:
    """``await engine.connect()``, its failure raised as :class:`DatabaseUnreachable`."""
    try:
        return await engine.connect()
    except (OSError, SQLAlchemyError) as e:
        reason = getattr(e, "orig", None) or e
        first = (str(reason).strip().splitlines() or [""])[0]
        raise DatabaseUnreachable(f"cannot open the database {database_name(target)} "
                                  f"({type(reason).__name__}: {first})") from e


log = logging.getLogger("stonecast.store")

# Alembic's loggers whose INFO lines are not news to an operator: the plugins set up when
# Alembic is imported, and "Context impl", "Will assume ...", "Running upgrade A -> B,
# <the revision's docstring>" -- replaced by one line of ours per revision (log_steps).
ALEMBIC_CHATTER = ("alembic.runtime.plugins", "alembic.runtime.migration")


def quiet_alembic() -> None:
    """Raise :data:`ALEMBIC_CHATTER`'s loggers to WARNING (Alembic's warnings still show).
    Called before Alembic is first imported (its plugin lines are logged at import)."""
    for name in ALEMBIC_CHATTER:
        logging.getLogger(name).setLevel(logging.WARNING)


def log_steps(config) -> None:
    """Log the migration steps noted in the Alembic ``config`` (and forget them), one INFO
    line each: ``database: applied 0004 player names``."""
    for verb, revision, title in config.attributes.pop("steps", []):
        log.info("database: %s %s %s", verb, revision, title)


# PostgreSQL advisory lock key held while migrating ("stonecast" in ASCII, as a number).
_MIGRATION_LOCK = int.from_bytes(b"stonecst", "big") >> 1

# The task currently inside a transaction: (store, its connection), so its own statements
# join the transaction (and, on SQLite, skip the lock).
_in_tx: contextvars.ContextVar[tuple[Store, AsyncConnection] | None] = contextvars.ContextVar(
    "stonecast_in_tx", default=None)


def is_postgresql(target: str | Path) -> bool:
    """Whether ``target`` (a ``STONECAST_DB`` value) names a PostgreSQL database (a
    ``postgresql://``, ``postgres://`` or ``postgresql+asyncpg://`` URL)."""
    return isinstance(target, str) and target.split("://", 1)[0].lower() in (
        "postgresql", "postgres", "postgresql+asyncpg")


def database_url(target: str | Path) -> URL:
    """The SQLAlchemy URL of ``target``: a ``postgresql://`` URL becomes
    ``postgresql+asyncpg://`` (libpq's ``sslmode=`` becomes asyncpg's ``ssl=``); anything else is a SQLite file path (``sqlite+aiosqlite``;
    ``:memory:`` too)."""
    if is_postgresql(target):
        url = make_url(str(target).replace("postgres://", "postgresql://", 1))
        if "sslmode" in url.query:  # libpq's name (managed databases hand out such URLs)
            mode = url.query["sslmode"]
            url = url.difference_update_query(["sslmode"]).update_query_dict({"ssl": mode})
        return url.set(drivername="postgresql+asyncpg")
    return URL.create("sqlite+aiosqlite", database=str(target))


class Row(tuple):
    """One result row: ``row["col"]``, ``row[0]``, ``row.keys()``, unpacking, ``dict(row)``."""

    def __new__(cls, values: Iterable[Any], index: dict[str, int]) -> Row:
        row = super().__new__(cls, values)
        row._index = index
        return row

    def __getitem__(self, key):
        if isinstance(key, str):
            try:
                key = self._index[key]
            except KeyError:
                raise IndexError(f"no column named {key!r}") from None
        return tuple.__getitem__(self, key)

    def keys(self) -> list[str]:
        """The column names, in order."""
        return list(self._index)


@functools.lru_cache(maxsize=1024)
def bind(sql: str) -> tuple[TextClause, int]:
    """``sql`` with ``?`` placeholders -> ``(text clause with :p0, :p1, ..., count)``.

    Question marks inside quoted strings or ``--`` comments are left alone, and every colon
    of ``sql`` is escaped so that only the placeholders become bind parameters. Cached: each
    statement of the repositories is translated once.
    """
    out: list[str] = []
    n = 0
    i, size = 0, len(sql)
    while i < size:
        ch = sql[i]
        if ch in "'\"":
            j = sql.find(ch, i + 1)
            j = size - 1 if j < 0 else j
            out.append(sql[i:j + 1].replace(":", "\\:"))
            i = j + 1
            continue
        if ch == "-" and sql.startswith("--", i):
            j = sql.find("\n", i)
            j = size if j < 0 else j
            out.append(sql[i:j].replace(":", "\\:").replace("?", " "))
            i = j
            continue
        if ch == "?":
            out.append(f":p{n}")
            n += 1
        elif ch == ":":
            out.append("\\:")
        else:
            out.append(ch)
        i += 1
    return text("".join(out)), n


def _params(sql: str, params: Sequence[Any]) -> tuple[TextClause, dict[str, Any]]:
    clause, n = bind(sql)
    if len(params) != n:
        raise ValueError(f"the statement takes {n} parameters, {len(params)} given: {sql!r}")
    return clause, {f"p{i}": v for i, v in enumerate(params)}


def _rows(result) -> list[Row]:
    index = {k: i for i, k in enumerate(result.keys())}
    return [Row(r, index) for r in result]


class Store:
    """One database, opened through :meth:`open`; ``dialect`` is ``"sqlite"`` or
    ``"postgresql"``.

    All methods are coroutines. Rows come back as :class:`Row`. :meth:`open` raises
    :class:`StoreError` for a database newer than this code; database errors
    (:class:`sqlalchemy.exc.DBAPIError`, e.g. a constraint violated) go through.
    """

    def __init__(self, engine: AsyncEngine, target: str, *, conn: AsyncConnection | None = None):
        self.engine = engine
        self.path = target  # the file (SQLite) or the URL (PostgreSQL), for messages
        self.dialect: str = engine.dialect.name
        self._conn = conn          # SQLite: the one connection
        self._lock = asyncio.Lock()  # SQLite: one statement or transaction at a time
        self._begin_sql: str | None = None  # SQLite: what the "begin" event emits
        self._autocommit = engine.execution_options(isolation_level="AUTOCOMMIT")
        self._trace = None
        # PostgreSQL: one permit per pooled connection; tasks beyond wait here, in order
        self._slots: asyncio.Semaphore | None = None
        # the Alembic revision reached by open() (None: a SQLite file kept at an old version)
        self.revision: str | None = None

    @classmethod
    async def open(cls, target: str | Path, *, target_version: int | None = None,
                   pool_size: int = DEFAULT_POOL_SIZE) -> Store:
        """Open (creating it if needed) and migrate the database ``target``: a SQLite file
        path (its folder is created) or a ``postgresql://`` URL (the database must exist).

        The schema is brought to Alembic's head (:meth:`upgrade`). ``target_version``
        (SQLite only; tests use it to build an old file) instead stops the old ``PRAGMA
        user_version`` migrations at that version and leaves Alembic out. ``pool_size``:
        PostgreSQL connections of this process (at least 1; ignored for SQLite): the most
        statements or transactions it runs at once, the others waiting their turn. Raises
        ValueError for a ``pool_size`` below 1, :class:`DatabaseUnreachable` when the first
        connection fails and :class:`StoreError` when the database cannot be migrated.
        """
        if pool_size < 1:
            raise ValueError(f"pool_size must be at least 1, not {pool_size}")
        url = database_url(target)
        if url.get_backend_name() == "postgresql":
            if target_version is not None:
                raise ValueError("target_version is for SQLite files only")
            # no overflow: the semaphore keeps checkouts within the pool, so its timeout
            # (kept as a guard) is never what a waiting move meets
            engine = create_async_engine(url, pool_size=pool_size, max_overflow=0,
                                         pool_timeout=POOL_TIMEOUT, pool_pre_ping=True)
            store = cls(engine, str(target))
            store._slots = asyncio.Semaphore(pool_size)
            try:
                await (await _first_connection(engine, target)).close()  # reached: back to the pool
                await store.upgrade()
            except BaseException:
                await engine.dispose()
                raise
            return store
        path = str(target)
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_async_engine(url, poolclass=pool.NullPool if path != ":memory:" else pool.StaticPool)
        holder: list[Store] = []
        # SQLAlchemy's recipe for pysqlite/aiosqlite: switch the driver's own BEGIN off and
        # emit ours (BEGIN IMMEDIATE for a transaction, nothing for a lone statement).

        @event.listens_for(engine.sync_engine, "connect")
        def _on_connect(dbapi_connection, _record):
            dbapi_connection.isolation_level = None
            cur = dbapi_connection.cursor()
            for pragma in ("busy_timeout = 10000", "journal_mode = WAL", "synchronous = FULL",
                           "foreign_keys = ON"):
                cur.execute(f"PRAGMA {pragma}")
            cur.close()

        @event.listens_for(engine.sync_engine, "begin")
        def _on_begin(conn):
            sql = holder[0]._begin_sql if holder else None
            if sql:
                conn.exec_driver_sql(sql)

        try:
            conn = await _first_connection(engine, path)
        except BaseException:
            await engine.dispose()
            raise
        store = cls(engine, path, conn=conn)
        holder.append(store)
        try:
            if target_version is not None:
                await store.migrate(target_version)
            else:
                await store.upgrade()
        except BaseException:
            await store.close()
            raise
        return store

    async def close(self) -> None:
        """Close the database once the transaction or statement under way (if any) is done,
        so a write that has begun is committed or rolled back as a whole, never cut off."""
        if self._conn is not None:
            async with self._lock:
                await self._conn.close()
        await self.engine.dispose()

    # ---- schema ---------------------------------------------------------------------------
    async def version(self) -> int:
        """The schema version in the old numbering (``PRAGMA user_version`` on SQLite; 0 for
        a new file); a database under Alembic is at :data:`LATEST_VERSION` (8) or later."""
        if self.dialect != "sqlite":
            return LATEST_VERSION if await self.alembic_revision() is not None else 0
        row = await self.fetchone("PRAGMA user_version")
        return int(row[0])

    async def alembic_revision(self) -> str | None:
        """The Alembic revision the database is at (``alembic_version``), ``None`` before."""
        from sqlalchemy import inspect

        async with self._connection() as conn:
            has = await conn.run_sync(lambda c: inspect(c).has_table("alembic_version"))
            if not has:
                return None
            rows = (await conn.execute(text("SELECT version_num FROM alembic_version"))).all()
        return rows[0][0] if rows else None

    async def migrate(self, target_version: int | None = None) -> int:
        """SQLite only: apply the old ``PRAGMA user_version`` steps (:data:`MIGRATIONS`) up
        to ``target_version`` (default: 8, where Alembic takes over).

        Each step runs in one transaction with its version bump. Returns the new version.
        Raises :class:`StoreError` when the file is newer than those steps (and not under
        Alembic).
        """
        target = LATEST_VERSION if target_version is None else target_version
        current = await self.version()
        if current > LATEST_VERSION:
            raise StoreError(
                f"the database {self.path} has schema version {current}, newer than this "
                f"Stonecast understands ({LATEST_VERSION}); upgrade Stonecast"
            )
        for step in MIGRATIONS:
            if current < step.version <= target:
                async with self.transaction():
                    # Re-check inside the write lock: another process may have migrated.
                    if await self.version() >= step.version:
                        current = await self.version()
                        continue
                    for sql in step.statements:
                        await self.execute(sql)
                    if step.data is not None:
                        await step.data(self)
                    await self.execute(f"PRAGMA user_version = {step.version}")
                current = step.version
        return current

    async def upgrade(self, revision: str = "head", *, config=None) -> str | None:
        """Bring the schema to Alembic ``revision`` (default ``head``); returns the revision
        reached. A new database is created by the revisions; a SQLite file of the old
        numbering (versions 1-7) is first migrated to version 8 by :meth:`migrate`, and a
        file at 8 is stamped with revision ``0001`` (the schema it already has).
        ``config``: an Alembic :class:`~alembic.config.Config` (default
        :func:`bot.store.migrations.alembic_config`; tests add revisions through it).
        Raises :class:`StoreError` when the database is at a revision this code does not
        know (a newer Stonecast wrote it)."""
        quiet_alembic()  # before Alembic's import, which logs its plugins
        from alembic import command
        from alembic.script import ScriptDirectory
        from alembic.util import CommandError

        from .migrations import BASE_REVISION, alembic_config

        config = config or alembic_config()
        known = {s.revision for s in ScriptDirectory.from_config(config).walk_revisions()}
        current = await self.alembic_revision()
        if current is not None and current not in known:
            raise StoreError(
                f"the database {self.path} is at schema revision {current}, which this "
                f"Stonecast does not know (a newer Stonecast wrote it); upgrade Stonecast")
        if current is None and self.dialect == "sqlite":
            old = await self.version()
            if old > LATEST_VERSION:
                raise StoreError(
                    f"the database {self.path} has schema version {old}, newer than this "
                    f"Stonecast understands ({LATEST_VERSION}); upgrade Stonecast")
            if old > 0:
                await self.migrate()
                await self._alembic(lambda cfg: command.stamp(cfg, BASE_REVISION), config)
        try:
            await self._alembic(lambda cfg: command.upgrade(cfg, revision), config)
        except CommandError as e:
            raise StoreError(f"cannot migrate the database {self.path}: {e}") from e
        self.revision = await self.alembic_revision()
        return self.revision

    async def _alembic(self, run, config) -> None:
        """Run the Alembic command ``run(config)`` on a connection of this store, in one
        transaction (``BEGIN IMMEDIATE`` on SQLite); once committed, log each revision it
        applied (:func:`log_steps`)."""
        def on(sync_conn):
            config.attributes["connection"] = sync_conn
            try:
                run(config)
            finally:
                config.attributes.pop("connection", None)

        config.attributes.pop("steps", None)
        try:
            async with self.transaction():
                conn = _in_tx.get()[1]
                if self.dialect == "postgresql":  # two processes starting at once migrate in turn
                    await conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK})
                await conn.run_sync(on)
        except BaseException:
            config.attributes.pop("steps", None)  # rolled back: nothing was applied
            raise
        log_steps(config)  # committed

    async def set_trace_callback(self, callback) -> None:
        """Call ``callback(sql)`` with every statement sent to the database from now on
        (``None``: stop), as :meth:`sqlite3.Connection.set_trace_callback` did; the SQL is
        the driver's (``?`` placeholders on SQLite, ``$1`` on PostgreSQL)."""
        if self._trace is not None:
            event.remove(self.engine.sync_engine, "before_cursor_execute", self._trace)
            self._trace = None
        if callback is not None:
            def trace(conn, cursor, statement, parameters, context, executemany):
                callback(statement)

            self._trace = trace
            event.listen(self.engine.sync_engine, "before_cursor_execute", trace)

    # ---- statements -----------------------------------------------------------------------
    @asynccontextmanager
    async def transaction(self):
        """``async with store.transaction():`` -- a write transaction.

        Commits when the block ends normally, rolls back on any exception (which propagates).
        Statements the same task issues inside the block belong to the transaction. On
        SQLite it is ``BEGIN IMMEDIATE`` and other tasks wait; on PostgreSQL it holds a
        pooled connection of its own. Not re-entrant.
        """
        held = _in_tx.get()
        if held is not None and held[0] is self:
            raise RuntimeError("transactions do not nest")
        if self._conn is None:
            async with self._slot(), self.engine.connect() as conn:
                token = _in_tx.set((self, conn))
                try:
                    async with conn.begin():
                        yield self
                finally:
                    _in_tx.reset(token)
            return
        conn = self._conn
        async with self._lock:
            token = _in_tx.set((self, conn))
            try:
                try:
                    self._begin_sql = "BEGIN IMMEDIATE"
                    try:
                        await self._run(conn.begin())
                    finally:
                        self._begin_sql = None
                    yield self
                except BaseException:
                    await self._rollback(conn)
                    raise
                try:
                    await self._run(conn.commit())
                except BaseException:
                    await self._rollback(conn)
                    raise
            finally:
                _in_tx.reset(token)

    async def _run(self, operation):
        """Await ``operation`` (a coroutine on the connection); on SQLite, to its end even if
        the calling task is cancelled meanwhile (then the cancellation is raised after it).
        SQLAlchemy treats a cancellation inside a statement as a broken connection and drops
        it, which on SQLite would leave the file's write lock with the statement's thread;
        letting the statement finish keeps the one connection, and the transaction is then
        rolled back on it (as aiosqlite's own queue did before SQLAlchemy)."""
        if self._conn is None:
            return await operation
        task = asyncio.ensure_future(operation)
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            try:
                await task
            except BaseException:  # noqa: BLE001 - the cancellation is what the caller gets
                pass
            raise

    @staticmethod
    async def _rollback(conn: AsyncConnection) -> None:
        """Roll back ``conn``'s open transaction, if there is one (shielded: a cancelled task
        still leaves the connection clean)."""
        await asyncio.shield(conn.rollback())

    @asynccontextmanager
    async def _connection(self):
        """The connection a statement runs on: the task's transaction's, else (SQLite) the
        one connection under the lock, committed after, or (PostgreSQL) a pooled one in
        autocommit mode."""
        held = _in_tx.get()
        if held is not None and held[0] is self:
            yield held[1]
        elif self._conn is not None:
            async with self._lock:
                try:
                    yield self._conn
                    await self._run(self._conn.commit())  # ends SQLAlchemy's transaction; no BEGIN was sent
                except BaseException:
                    await self._rollback(self._conn)
                    raise
        else:
            async with self._slot(), self._autocommit.connect() as conn:
                yield conn

    @asynccontextmanager
    async def _slot(self):
        """Hold one of the pool's permits (PostgreSQL) while a connection is out."""
        if self._slots is None:
            yield
            return
        async with self._slots:
            yield

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; returns the number of rows it changed (``rowcount``)."""
        clause, values = _params(sql, params)
        async with self._connection() as conn:
            result = await self._run(conn.execute(clause, values))
            return result.rowcount

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one INSERT into a table with an ``id`` column; returns the new row's id
        (``RETURNING id`` on PostgreSQL)."""
        if self.dialect == "postgresql":
            clause, values = _params(sql + " RETURNING id", params)
        else:
            clause, values = _params(sql, params)
        async with self._connection() as conn:
            result = await self._run(conn.execute(clause, values))
            if self.dialect == "postgresql":
                return int(result.scalar_one())
            return int(result.lastrowid)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement for each parameter row."""
        rows = list(rows)
        if not rows:
            return
        clause, _ = bind(sql)
        values = [_params(sql, r)[1] for r in rows]
        async with self._connection() as conn:
            await self._run(conn.execute(clause, values))

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        """The first row of a query, or ``None``."""
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Every row of a query."""
        clause, values = _params(sql, params)
        async with self._connection() as conn:
            result = await self._run(conn.execute(clause, values))
            return _rows(result)
