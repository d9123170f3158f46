"""The SQL side of the store that needs no connection: database targets, rows and placeholders.

* database targets (a ``STONECAST_DB`` value: a SQLite file path or a ``postgresql://`` URL):
  :func:`is_postgresql`, :func:`database_url` (the SQLAlchemy URL, with the async driver) and
  :func:`database_name` (as a log may show it, the password hidden);
* :class:`Row`, one result row (by column name, by index, ``keys()``, tuple unpacking -- as
  :class:`sqlite3.Row` did);
* ``?``-placeholder binding: :func:`bind` turns a statement of the repositories once into a
  :class:`TextClause` with named parameters (cached); ``_params`` pairs it with a statement's
  values and ``_rows`` turns a result into rows, for :class:`bot.store.db.Store`.

Re-exported by :mod:`bot.store.db`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, SupportsIndex

from sqlalchemy import make_url, text
from sqlalchemy.engine import URL, Result
from sqlalchemy.sql.elements import TextClause

__all__ = ["Row", "bind", "database_name", "database_url", "is_postgresql"]


def database_name(target: str | Path) -> str:
    """``target`` (a ``STONECAST_DB`` value) as it may be shown in a log: a PostgreSQL URL
    with its password hidden (``***``), a SQLite path as it is."""
    if is_postgresql(target):
        return make_url(str(target)).render_as_string(hide_password=True)
    return str(target)


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


class Row(tuple[Any, ...]):
    """One result row: ``row["col"]``, ``row[0]``, ``row.keys()``, unpacking, ``dict(row)``."""

    _index: dict[str, int]  # column name -> position

    def __new__(cls, values: Iterable[Any], index: dict[str, int]) -> Row:
        row = super().__new__(cls, values)
        row._index = index
        return row

    def __getitem__(self, key: str | SupportsIndex | slice) -> Any:
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


def _rows(result: Result[Any]) -> list[Row]:
    index = {k: i for i, k in enumerate(result.keys())}
    return [Row(r, index) for r in result]
