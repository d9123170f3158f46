"""The store's errors: what :class:`bot.store.db.Store` raises when a database cannot be used,
and what :mod:`bot.manager` raises when handed a store whose schema is not at Alembic's head.

Each carries one line for the operator (:class:`StoreError`, :class:`DatabaseUnreachable`) or
data and no sentence (:class:`SchemaNotAtHead`). Re-exported by :mod:`bot.store.db`.
"""

from __future__ import annotations

__all__ = ["DatabaseUnreachable", "SchemaNotAtHead", "StoreError"]


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
