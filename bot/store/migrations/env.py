"""Alembic's environment for Stonecast (see :mod:`bot.store.migrations`).

The bot passes its own connection in ``config.attributes["connection"]`` (a synchronous
facade of an async connection, inside ``AsyncConnection.run_sync``) and the migrations run on
it, in the bot's transaction. From the ``alembic`` command line, the database is
``STONECAST_DB`` (a SQLite path or a ``postgresql://`` URL), reached with an async engine.
"""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy import pool
from sqlalchemy.ext.asyncio import create_async_engine


def run_on(connection) -> None:
    """Run the pending migrations on ``connection`` (batch mode on SQLite)."""
    context.configure(connection=connection, target_metadata=None,
                      render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()


async def run_from_command_line() -> None:
    """``alembic upgrade head`` and the like: the database named by ``STONECAST_DB``."""
    from bot.config import db_target_from_env
    from bot.store.db import database_url

    engine = create_async_engine(database_url(db_target_from_env()), poolclass=pool.NullPool)
    try:
        async with engine.connect() as connection:
            await connection.run_sync(run_on)
            await connection.commit()
    finally:
        await engine.dispose()


def main(config) -> None:
    """Alembic runs this module for each command: migrate the bot's connection, or the
    database of ``STONECAST_DB`` from the command line."""
    if context.is_offline_mode():
        raise SystemExit("Stonecast's migrations run online only (they need the database)")
    if config.attributes.get("connection") is not None:
        run_on(config.attributes["connection"])
    else:
        asyncio.run(run_from_command_line())


try:
    _config = context.config
except AttributeError:  # imported outside Alembic (the docstring audit): nothing to run
    _config = None
if _config is not None:
    main(_config)
