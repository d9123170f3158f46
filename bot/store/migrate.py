"""Running the schema's migrations on an open :class:`bot.store.db.Store`: Alembic's revisions
(:mod:`bot.store.migrations` holds them) and, before them on an old SQLite file, the
``PRAGMA user_version`` steps of :mod:`bot.store.schema`.

* :func:`upgrade_schema` -- what :meth:`Store.upgrade <bot.store.db.Store.upgrade>` does:
  bring a database to an Alembic revision (``head`` when a store opens);
* :func:`migrate_old_steps` -- what :meth:`Store.migrate <bot.store.db.Store.migrate>` does:
  the old steps up to version 8, where Alembic takes over;
* :func:`run_alembic` -- one Alembic command in one transaction of the store, each revision it
  applied logged once committed (:func:`log_steps`; the store's ``_alembic``);
* :func:`quiet_alembic` -- Alembic's own INFO lines silenced (an operator sees ours instead).

These are the store's schema methods written as functions taking the store (its
:class:`~bot.store.db.Store` methods call them); they use its connection the way its own
statements do. The names are re-exported by :mod:`bot.store.db`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from sqlalchemy import text

from .errors import StoreError
from .schema import LATEST_VERSION, MIGRATIONS

if TYPE_CHECKING:
    from alembic.config import Config
    from sqlalchemy import Connection

    from .db import Store

__all__ = ["ALEMBIC_CHATTER", "log_steps", "migrate_old_steps", "quiet_alembic", "run_alembic",
           "upgrade_schema"]

log = logging.getLogger("stonecast.store")

# Alembic's loggers whose INFO lines are not news to an operator: the plugins set up when
# Alembic is imported, and "Context impl", "Will assume ...", "Running upgrade A -> B,
# <the revision's docstring>" -- replaced by one line of ours per revision (log_steps).
ALEMBIC_CHATTER = ("alembic.runtime.plugins", "alembic.runtime.migration")

# PostgreSQL advisory lock key held while migrating ("stonecast" in ASCII, as a number).
_MIGRATION_LOCK = int.from_bytes(b"stonecst", "big") >> 1


def quiet_alembic() -> None:
    """Raise :data:`ALEMBIC_CHATTER`'s loggers to WARNING (Alembic's warnings still show).
    Called before Alembic is first imported (its plugin lines are logged at import)."""
    for name in ALEMBIC_CHATTER:
        logging.getLogger(name).setLevel(logging.WARNING)


def log_steps(config: Config) -> None:
    """Log the migration steps noted in the Alembic ``config`` (and forget them), one INFO
    line each: ``database: applied 0004 player names``."""
    for verb, revision, title in config.attributes.pop("steps", []):
        log.info("database: %s %s %s", verb, revision, title)


async def migrate_old_steps(store: Store, target_version: int | None = None) -> int:
    """SQLite only: apply the old ``PRAGMA user_version`` steps (:data:`MIGRATIONS`) to
    ``store`` up to ``target_version`` (default: 8, where Alembic takes over).

    Each step runs in one transaction with its version bump. Returns the new version.
    Raises :class:`StoreError` when the file is newer than those steps (and not under
    Alembic).
    """
    target = LATEST_VERSION if target_version is None else target_version
    current = await store.version()
    if current > LATEST_VERSION:
        raise StoreError(
            f"the database {store.path} has schema version {current}, newer than this "
            f"Stonecast understands ({LATEST_VERSION}); upgrade Stonecast"
        )
    for step in MIGRATIONS:
        if current < step.version <= target:
            async with store.transaction():
                # Re-check inside the write lock: another process may have migrated.
                if await store.version() >= step.version:
                    current = await store.version()
                    continue
                for sql in step.statements:
                    await store.execute(sql)
                if step.data is not None:
                    await step.data(store)
                await store.execute(f"PRAGMA user_version = {step.version}")
            current = step.version
    return current


async def upgrade_schema(store: Store, revision: str = "head", *, config: Config | None = None) -> str | None:
    """Bring ``store``'s schema to Alembic ``revision`` (default ``head``); returns the
    revision reached (also set as ``store.revision``). A new database is created by the
    revisions; a SQLite file of the old numbering (versions 1-7) is first migrated to version
    8 by :func:`migrate_old_steps`, and a file at 8 is stamped with revision ``0001`` (the
    schema it already has). ``config``: an Alembic :class:`~alembic.config.Config` (default
    :func:`bot.store.migrations.alembic_config`; tests add revisions through it).
    Raises :class:`StoreError` when the database is at a revision this code does not
    know (a newer Stonecast wrote it)."""
    from .migrations import BASE_REVISION, alembic_config, head_revision

    current = await store.alembic_revision()
    if config is None and revision == "head" and current == head_revision():
        store.revision = current  # at the head already: nothing for Alembic to load or run
        return current
    quiet_alembic()  # before Alembic's import, which logs its plugins
    from alembic import command
    from alembic.script import ScriptDirectory
    from alembic.util import CommandError

    config = config or alembic_config()
    known = {s.revision for s in ScriptDirectory.from_config(config).walk_revisions()}
    if current is not None and current not in known:
        raise StoreError(
            f"the database {store.path} is at schema revision {current}, which this "
            f"Stonecast does not know (a newer Stonecast wrote it); upgrade Stonecast")
    if current is None and store.dialect == "sqlite":
        old = await store.version()
        if old > LATEST_VERSION:
            raise StoreError(
                f"the database {store.path} has schema version {old}, newer than this "
                f"Stonecast understands ({LATEST_VERSION}); upgrade Stonecast")
        if old > 0:
            await migrate_old_steps(store)
            await run_alembic(store, lambda cfg: command.stamp(cfg, BASE_REVISION), config)
    try:
        await run_alembic(store, lambda cfg: command.upgrade(cfg, revision), config)
    except CommandError as e:
        raise StoreError(f"cannot migrate the database {store.path}: {e}") from e
    store.revision = await store.alembic_revision()
    return store.revision


async def run_alembic(store: Store, run: Callable[[Config], object], config: Config) -> None:
    """Run the Alembic command ``run(config)`` on a connection of ``store``, in one
    transaction (``BEGIN IMMEDIATE`` on SQLite; on PostgreSQL under an advisory lock, so two
    processes starting at once migrate in turn); once committed, log each revision it
    applied (:func:`log_steps`). Errors of the command propagate, the transaction rolled
    back."""
    def on(sync_conn: Connection) -> None:
        config.attributes["connection"] = sync_conn
        try:
            run(config)
        finally:
            config.attributes.pop("connection", None)

    config.attributes.pop("steps", None)
    try:
        async with store.transaction(), store._connection() as conn:  # the transaction's own
            if store.dialect == "postgresql":  # two processes starting at once migrate in turn
                await conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK})
            await conn.run_sync(on)
    except BaseException:
        config.attributes.pop("steps", None)  # rolled back: nothing was applied
        raise
    log_steps(config)  # committed
