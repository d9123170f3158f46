"""Files of older schemas, with data, for the store's migration tests.

The manager works on the head schema only (issue 20), so an old file's rows are written at
the head by a manager on a scratch database (real games, moves, ratings, settings) and
copied into a file kept at the old version (:meth:`bot.store.Store.open` with
``target_version``): each row with the columns that version has, as a bot of that version
wrote them. Whatever an old bot wrote that today's does not (a reminder already sent, an
outbox row of an old kind) the test adds with SQL on the old file.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from bot.store import Store

__all__ = ["columns_of", "copy_rows"]


async def columns_of(store: Store, table: str) -> list[str]:
    """The columns of ``table`` in the SQLite ``store``, in order (``[]``: no such table)."""
    return [r[1] for r in await store.fetchall(f"PRAGMA table_info({table})")]


async def copy_rows(source: Store, target: Store, tables: Iterable[str],
                    where: Mapping[str, str] | None = None) -> dict[str, int]:
    """Copy every row of ``tables`` from ``source`` (SQLite, at the head) into ``target``
    (SQLite, an older schema), in one transaction of ``target`` (foreign keys checked at its
    commit, so games and challenges, which name each other, may come in any order).

    Each row takes the columns both have (ids kept). A table ``target`` lacks is skipped.
    ``where``: table -> SQL condition choosing the rows to copy (e.g. the outbox kinds an
    old version accepts). Returns table -> rows copied."""
    where = where or {}
    copied = {}
    async with target.transaction():
        await target.execute("PRAGMA defer_foreign_keys = ON")
        for table in tables:
            have = set(await columns_of(target, table))
            if not have:
                continue
            cols = [c for c in await columns_of(source, table) if c in have]
            cond = f" WHERE {where[table]}" if table in where else ""
            rows = await source.fetchall(f"SELECT {', '.join(cols)} FROM {table}{cond} ORDER BY 1, 2")
            await target.executemany(
                f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})",
                [tuple(r) for r in rows])
            copied[table] = len(rows)
    return copied
