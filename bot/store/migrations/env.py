"""Alembic's environment for Stonecast (see :mod:`bot.store.migrations`).

The bot passes its own connection in ``config.attributes["connection"]`` (a synchronous
facade of an async connection, inside ``AsyncConnection.run_sync``) and the migrations run on
it, in the bot's transaction. From the ``alembic`` command line, the database is
``STONECAST_DB`` (a SQLite path or a ``postgresql://`` URL), reached with an async engine.
Either way each revision applied is noted and logged as one line once committed
(``database: applied 0004 player names``), in place of Alembic's own lines.
"""

from __future__ import annotations

import asyncio
import logging

from alembic import context
from alembic.config import Config
from sqlalchemy import Connection, pool
from sqlalchemy.ext.asyncio import create_async_engine

from bot.store.migrate import log_steps, quiet_alembic


def run_on(connection: Connection) -> None:
    """Run the pending migrations on ``connection`` (batch mode on SQLite), noting each step
    in ``config.attributes["steps"]`` (:func:`bot.store.migrations.note_step`)."""
    from bot.store.migrations import note_step

    config = context.config
    context.configure(connection=connection, target_metadata=None,
                      render_as_batch=connection.dialect.name == "sqlite",
                      on_version_apply=lambda *, step, **_: note_step(config, step))
    with context.begin_transaction():
        context.run_migrations()


async def run_from_command_line() -> None:
    """``alembic upgrade head`` and the like: the database named by ``STONECAST_DB``."""
    from bot.config import db_target_from_env
    from bot.store.sql import database_url

    engine = create_async_engine(database_url(db_target_from_env()), poolclass=pool.NullPool)
    try:
        async with engine.connect() as connection:
            await connection.run_sync(run_on)
            await connection.commit()
    finally:
        await engine.dispose()
    log_steps(context.config)


def main(config: Config) -> None:
    """Alembic runs this module for each command: migrate the bot's connection, or the
    database of ``STONECAST_DB`` from the command line."""
    quiet_alembic()
    if context.is_offline_mode():
        raise SystemExit("Stonecast's migrations run online only (they need the database)")
    if config.attributes.get("connection") is not None:
        run_on(config.attributes["connection"])
    else:
        if not logging.getLogger().handlers:  # the command line: show our lines, bare
            logging.basicConfig(level=logging.INFO, format="%(message)s")
        asyncio.run(run_from_command_line())


try:
    _config: Config | None = context.config
except AttributeError:  # imported outside Alembic (the docstring audit): nothing to run
    _config = None
if _config is not None:
    main(_config)
