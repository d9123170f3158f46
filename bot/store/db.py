"""The connection to Stonecast's database (SQLite or PostgreSQL) and its transactions: :class:`Store`.

The store is a thin layer over SQLAlchemy 2's async Core (:func:`create_async_engine` and
:func:`~sqlalchemy.text`; no ORM). The repositories of :mod:`bot.store` keep writing SQL text
with ``?`` placeholders, bound by :func:`bind`, and rows come back as :class:`Row`; those and
the database targets (:func:`database_url`, :func:`is_postgresql`, :func:`database_name`)
are in :mod:`bot.store.sql`, the errors in :mod:`bot.store.errors`, the migration runs in
:mod:`bot.store.migrate` -- all re-exported here.

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
first revision (:meth:`Store.upgrade`, :mod:`bot.store.migrate`). :mod:`bot.manager` decides
what to write.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import Connection, event, pool, text
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from .errors import DatabaseUnreachable, SchemaNotAtHead, StoreError
from .migrate import log_steps, migrate_old_steps, quiet_alembic, run_alembic, upgrade_schema
from .schema import LATEST_VERSION
from .sql import Row, _params, _rows, bind, database_name, database_url, is_postgresql

if TYPE_CHECKING:
    from alembic.config import Config

_T = TypeVar("_T")

# the names of errors.py, sql.py and migrate.py that were defined here are still found here
__all__ = ["DEFAULT_POOL_SIZE", "DatabaseUnreachable", "Row", "SchemaNotAtHead", "Store", "StoreError", "bind",
           "database_name", "database_url", "is_postgresql", "log_steps", "quiet_alembic"]

# PostgreSQL connections per process by default (``STONECAST_DB_POOL``).
DEFAULT_POOL_SIZE = 10
# Seconds SQLAlchemy's pool waits for a connection before failing. The store's semaphore
# keeps checkouts within the pool, so only a connection lost without being returned meets it.
POOL_TIMEOUT = 120.0


async def _first_connection(engine: AsyncEngine, target: str | Path) -> AsyncConnection:
    """``await engine.connect()``, its failure raised as :class:`DatabaseUnreachable`."""
    try:
        return await engine.connect()
    except (OSError, SQLAlchemyError) as e:
        reason = getattr(e, "orig", None) or e
        first = (str(reason).strip().splitlines() or [""])[0]
        raise DatabaseUnreachable(f"cannot open the database {database_name(target)} "
                                  f"({type(reason).__name__}: {first})") from e


# The task currently inside a transaction: (store, its connection), so its own statements
# join the transaction (and, on SQLite, skip the lock).
_in_tx: contextvars.ContextVar[tuple[Store, AsyncConnection] | None] = contextvars.ContextVar(
    "stonecast_in_tx", default=None)


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
        self._trace: Callable[..., None] | None = None  # the before_cursor_execute listener
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
        def _on_connect(dbapi_connection: Any, _record: Any) -> None:
            dbapi_connection.isolation_level = None
            cur = dbapi_connection.cursor()
            for pragma in ("busy_timeout = 10000", "journal_mode = WAL", "synchronous = FULL",
                           "foreign_keys = ON"):
                cur.execute(f"PRAGMA {pragma}")
            cur.close()

        @event.listens_for(engine.sync_engine, "begin")
        def _on_begin(conn: Connection) -> None:
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
        assert row is not None  # the pragma always answers one row
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
        """SQLite only: apply the old ``PRAGMA user_version`` steps up to ``target_version``
        (default: 8, where Alembic takes over); returns the new version. Raises
        :class:`StoreError` for a file newer than those steps
        (:func:`bot.store.migrate.migrate_old_steps`)."""
        return await migrate_old_steps(self, target_version)

    async def upgrade(self, revision: str = "head", *, config: Config | None = None) -> str | None:
        """Bring the schema to Alembic ``revision`` (default ``head``), an old SQLite file
        first through :meth:`migrate`; returns the revision reached. ``config``: an Alembic
        :class:`~alembic.config.Config` (default :func:`bot.store.migrations.alembic_config`).
        Raises :class:`StoreError` for a revision this code does not know
        (:func:`bot.store.migrate.upgrade_schema`)."""
        return await upgrade_schema(self, revision, config=config)

    async def _alembic(self, run: Callable[[Config], object], config: Config) -> None:
        """Run the Alembic command ``run(config)`` in one transaction of this store, then log
        the revisions it applied (:func:`bot.store.migrate.run_alembic`)."""
        await run_alembic(self, run, config)

    async def set_trace_callback(self, callback: Callable[[str], object] | None) -> None:
        """Call ``callback(sql)`` with every statement sent to the database from now on
        (``None``: stop), as :meth:`sqlite3.Connection.set_trace_callback` did; the SQL is
        the driver's (``?`` placeholders on SQLite, ``$1`` on PostgreSQL)."""
        if self._trace is not None:
            event.remove(self.engine.sync_engine, "before_cursor_execute", self._trace)
            self._trace = None
        if callback is not None:
            def trace(conn: Any, cursor: Any, statement: str, parameters: Any, context: Any,
                      executemany: bool) -> None:
                callback(statement)

            self._trace = trace
            event.listen(self.engine.sync_engine, "before_cursor_execute", trace)

    # ---- statements -----------------------------------------------------------------------
    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Store]:
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

    async def _run(self, operation: Awaitable[_T]) -> _T:
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
    async def _connection(self) -> AsyncIterator[AsyncConnection]:
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
    async def _slot(self) -> AsyncIterator[None]:
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
