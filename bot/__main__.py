"""``python -m bot``: run Stonecast until SIGINT or SIGTERM; and its operator commands.

* ``python -m bot`` (or ``python -m bot run``) -- run the bot. On a SQLite database it first
  takes the file's lock (:func:`bot.store.lock.lock_database`): a second process on the same
  file stops at once with one line (status 2). Several processes may share a PostgreSQL
  database (``STONECAST_DB=postgresql://...``).
* ``python -m bot backup FILE [--force]`` -- write a consistent copy of the database (the
  bot may be running) to ``FILE`` (:func:`bot.store.backup.backup_database`); an existing
  ``FILE`` is replaced only with ``--force``. Needs no ``DISCORD_TOKEN``. Refused (no
  database, ``FILE`` exists, its folder missing or unwritable): one line, status 2; the copy
  failing midway (a full disk): one line, status 1, ``FILE`` untouched. SQLite only: on a
  PostgreSQL database it says to use ``pg_dump`` (status 2).
* ``python -m bot sync`` -- register the slash commands with Discord and exit (for
  deployments where no process runs shard 0, or after an upgrade).

Configuration comes from environment variables (see :mod:`bot.config`). A configuration,
database or login problem prints one line to stderr and exits with status 2 (configuration, or
a database this Stonecast cannot use) or 1 (Discord or the database server refused us or
cannot be reached); a clean stop exits 0.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sqlite3
import sys

from .config import Config, ConfigError, db_target_from_env
from .store import SchemaNotAtHead, StoreError
from .store.backup import backup_database
from .store.db import DatabaseUnreachable
from .store.lock import lock_database

log = logging.getLogger("stonecast.bot")


async def run(config: Config) -> int:
    """Start the bot and wait for it to stop or for SIGINT/SIGTERM; returns the exit status."""
    import discord  # here, not at the top: a configuration error or a backup needs neither

    from .front.client import StartRefused, StonecastBot

    bot = StonecastBot(config)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    runner = asyncio.create_task(bot.start(config.token), name="stonecast-bot")
    stopper = asyncio.create_task(stop.wait())
    await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
    if stop.is_set():
        log.info("signal received: closing")
    stopper.cancel()
    await bot.close()
    try:
        await runner
    except discord.LoginFailure:
        print("stonecast: Discord rejected DISCORD_TOKEN; copy the token again from the "
              "developer portal (Bot page)", file=sys.stderr)
        return 1
    except discord.PrivilegedIntentsRequired:
        print("stonecast: Discord refused the gateway intents requested", file=sys.stderr)
        return 1
    except StartRefused as e:
        print(f"stonecast: {e}", file=sys.stderr)
        return 2
    except DatabaseUnreachable as e:  # before OSError: the database, not Discord
        print(f"stonecast: {e}", file=sys.stderr)
        return 1
    except StoreError as e:  # e.g. a database written by a newer Stonecast
        print(f"stonecast: {e}", file=sys.stderr)
        return 2
    except SchemaNotAtHead as e:  # the manager was handed a store Store.open did not migrate
        print(f"stonecast: the database {e.path} is at schema revision {e.revision or 'none'}, "
              f"not {e.head}, the only one this Stonecast plays on; open it with Store.open, "
              f"which migrates", file=sys.stderr)
        return 2
    except (OSError, discord.HTTPException, discord.GatewayNotFound) as e:
        print(f"stonecast: cannot reach Discord ({e.__class__.__name__}: {e})", file=sys.stderr)
        return 1
    log.info("stopped")
    return 0


async def sync(config: Config) -> int:
    """Log in over HTTP only (no gateway), register the slash commands, exit; the status."""
    import discord

    from .front.client import StartRefused, StonecastBot

    bot = StonecastBot(config, sync_only=True)
    try:
        async with bot:
            await bot.login(config.token)
    except discord.LoginFailure:
        print("stonecast: Discord rejected DISCORD_TOKEN; copy the token again from the "
              "developer portal (Bot page)", file=sys.stderr)
        return 1
    except StartRefused as e:
        print(f"stonecast: {e}", file=sys.stderr)
        return 2
    except (OSError, discord.HTTPException) as e:
        print(f"stonecast: cannot reach Discord ({e.__class__.__name__}: {e})", file=sys.stderr)
        return 1
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot", description="Run Stonecast (settings from environment variables, "
        "see README.md).")
    commands = parser.add_subparsers(dest="command", metavar="{run,backup,sync}")
    commands.add_parser("run", help="run the bot (the default)")
    backup = commands.add_parser(
        "backup", help="copy the database (STONECAST_DB) to FILE; safe while the bot runs")
    backup.add_argument("file", metavar="FILE", help="the backup file to write")
    backup.add_argument("--force", action="store_true", help="replace FILE if it exists")
    commands.add_parser("sync", help="register the slash commands with Discord and exit")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point: parse the command line and the configuration, do the command (run the
    bot by default), return the exit status."""
    args = _parser().parse_args(argv)
    if args.command == "backup":
        try:
            source = db_target_from_env()
        except ConfigError as e:
            print(f"stonecast: {e}", file=sys.stderr)
            return 2
        if isinstance(source, str):
            print("stonecast: STONECAST_DB is a PostgreSQL database: back it up with pg_dump "
                  "(e.g. pg_dump --format=custom --file=stonecast.dump \"$STONECAST_DB\"), "
                  "restore with pg_restore; `python -m bot backup` copies SQLite files only",
                  file=sys.stderr)
            return 2
        try:
            info = backup_database(source, args.file, force=args.force)
        except StoreError as e:
            print(f"stonecast: {e}", file=sys.stderr)
            return 2
        except (OSError, sqlite3.Error) as e:  # e.g. the disk filled up
            print(f"stonecast: the backup failed ({e.__class__.__name__}: {e}); {args.file} "
                  f"was not written", file=sys.stderr)
            return 1
        print(f"stonecast: backed up {source} (schema version {info.schema_version}, "
              f"{info.size / 1024:.0f} KiB) to {args.file}")
        return 0
    try:
        config = Config.from_env()
    except ConfigError as e:
        print(f"stonecast: {e}", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("discord").setLevel(logging.WARNING)
    if args.command == "sync":
        return asyncio.run(sync(config))
    if config.uses_postgresql:  # PostgreSQL serves several processes: no file lock
        return asyncio.run(run(config))
    try:
        lock = lock_database(config.db_path)  # held until this process ends
    except StoreError as e:
        print(f"stonecast: {e}", file=sys.stderr)
        return 2
    try:
        return asyncio.run(run(config))
    finally:
        lock.release()


if __name__ == "__main__":
    sys.exit(main())
