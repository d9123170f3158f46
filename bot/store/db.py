"""The connection to Stonecast's SQLite database and its transactions.

The store is a thin layer over one :mod:`aiosqlite` connection:

* the database runs in WAL mode with foreign keys on and ``synchronous=FULL``, so a committed
  transaction survives a killed process (and a power cut);
* the schema is versioned with ``PRAGMA user_version``; :data:`bot.store.schema.MIGRATIONS`
  lists the forward steps, each applied in its own transaction together with the version bump,
  so a database is always at exactly one version;
* writes go through :meth:`Store.transaction` (``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back
  on any exception). One asyncio lock serialises the statements of this connection, so two
  tasks never interleave statements inside one transaction; reads made inside a transaction by
  the task that opened it see its own writes.

The statements themselves live in the repositories of :mod:`bot.store` (one per table or
concern); :mod:`bot.manager` decides what to write.
"""

from __future__ import annotations

import asyncio
import contextvars
import sqlite3
from collections.abc import Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from .schema import LATEST_VERSION, MIGRATIONS

__all__ = ["Store", "StoreError"]


class StoreError(RuntimeError):
    """The database file cannot be used (e.g. written by a newer Stonecast)."""


# The task currently inside a transaction of a given store (so its own reads skip the lock).
_in_tx: contextvars.ContextVar[Store | None] = contextvars.ContextVar("stonecast_in_tx", default=None)


class Store:
    """One SQLite database file, opened through :meth:`open`.

    All methods are coroutines. Rows come back as :class:`sqlite3.Row` (access by column
    name). Raises :class:`StoreError` for a database newer than this code, and lets
    :class:`sqlite3.Error` through for I/O problems.
    """

    def __init__(self, conn: aiosqlite.Connection, path: str):
        self.conn = conn
        self.path = path
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path, *, target_version: int | None = None) -> Store:
        """Open (creating it and its folder if needed) and migrate the database at ``path``.

        ``target_version`` stops migrating at that version (tests use it to build an old file);
        by default the schema is brought to :data:`LATEST_VERSION`.
        """
        path = str(path)
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(path, isolation_level=None)  # we issue BEGIN ourselves
        try:
            conn.row_factory = sqlite3.Row
            await conn.execute("PRAGMA busy_timeout = 10000")
            await conn.execute("PRAGMA journal_mode = WAL")
            await conn.execute("PRAGMA synchronous = FULL")
            await conn.execute("PRAGMA foreign_keys = ON")
            store = cls(conn, path)
            await store.migrate(target_version)
        except BaseException:
            await conn.close()
            raise
        return store

    async def close(self) -> None:
        """Close the connection once the transaction or statement under way (if any) is done,
        so a write that has begun is committed or rolled back as a whole, never cut off."""
        async with self._lock:
            await self.conn.close()

    # ---- schema ---------------------------------------------------------------------------
    async def version(self) -> int:
        """The schema version of the file (``PRAGMA user_version``; 0 for a new file)."""
        row = await self.fetchone("PRAGMA user_version")
        return int(row[0])

    async def migrate(self, target_version: int | None = None) -> int:
        """Apply the pending :data:`MIGRATIONS` up to ``target_version`` (default: latest).

        Each step runs in one transaction with its version bump. Returns the new version.
        Raises :class:`StoreError` when the file is newer than this code.
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

    # ---- statements -----------------------------------------------------------------------
    @asynccontextmanager
    async def transaction(self):
        """``async with store.transaction():`` -- a write transaction (``BEGIN IMMEDIATE``).

        Commits when the block ends normally, rolls back on any exception (which propagates).
        Statements the same task issues inside the block belong to the transaction; other tasks
        wait. Not re-entrant.
        """
        if _in_tx.get() is self:
            raise RuntimeError("transactions do not nest")
        async with self._lock:
            token = _in_tx.set(self)
            try:
                try:
                    # A task cancelled while awaiting BEGIN does not stop aiosqlite from
                    # running it: the rollback below (queued after it) undoes it too.
                    await self.conn.execute("BEGIN IMMEDIATE")
                    yield self
                except BaseException:
                    await self._rollback()
                    raise
                try:
                    await self.conn.execute("COMMIT")
                except sqlite3.Error:
                    await self._rollback()
                    raise
            finally:
                _in_tx.reset(token)

    async def _rollback(self) -> None:
        """Roll back the connection's open transaction, if there is one. Statements run in the
        order they were queued, so this also undoes a BEGIN still on its way."""
        try:
            await self.conn.execute("ROLLBACK")
        except sqlite3.OperationalError:
            if self.conn.in_transaction:  # pragma: no cover - a rollback that failed
                raise

    @asynccontextmanager
    async def _access(self):
        if _in_tx.get() is self:
            yield
        else:
            async with self._lock:
                yield

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; returns the number of rows it changed (``rowcount``)."""
        async with self._access():
            cur = await self.conn.execute(sql, params)
            try:
                return cur.rowcount
            finally:
                await cur.close()

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one INSERT; returns the new row's id."""
        async with self._access():
            cur = await self.conn.execute(sql, params)
            try:
                return int(cur.lastrowid)
            finally:
                await cur.close()

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement for each parameter row."""
        async with self._access():
            await self.conn.executemany(sql, rows)

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        """The first row of a query, or ``None``."""
        async with self._access():
            cur = await self.conn.execute(sql, params)
            try:
                return await cur.fetchone()
            finally:
                await cur.close()

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        """Every row of a query."""
        async with self._access():
            cur = await self.conn.execute(sql, params)
            try:
                return list(await cur.fetchall())
            finally:
                await cur.close()
