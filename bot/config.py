"""Configuration of the bot process, read from environment variables.

| variable | meaning |
| --- | --- |
| ``DISCORD_TOKEN`` | the bot token (required) |
| ``STONECAST_DB`` | the database: a SQLite file path (default ``data/stonecast.db``; its folder is created), or a PostgreSQL URL ``postgresql://user:password@host:5432/dbname`` (several processes may share it) |
| ``STONECAST_DB_POOL`` | PostgreSQL connections per process (default 10, 1 to 100): the most statements at once; further moves wait their turn |
| ``STONECAST_GUILD`` | optional server id: commands are synced to that server at start |
| ``STONECAST_RENDER_WORKERS`` | processes drawing board images (default: one per CPU, 2 to 4; 0 = a thread) |
| ``STONECAST_AI_WORKERS`` | processes searching the computer's moves (default 1, 1 to 64) |
| ``STONECAST_API_URL`` | optional Discord REST base URL (a proxy, or a fake Discord in tests) |
| ``STONECAST_SHARD_COUNT`` | optional: the bot's total number of shards (default: Discord's recommendation) |
| ``STONECAST_LEASE`` | optional: seconds a process's claim on outbox rows and on the computer's work lasts unless renewed (default 300): work of a process that died is taken by another after that |
| ``STONECAST_MAINTENANCE_INTERVAL`` | optional: seconds between two maintenance passes (clock sweep, outbox delivery, the computer's pending moves; default 60) |
| ``STONECAST_SHARD_IDS`` | optional: the shards this process runs, e.g. ``0-3`` or ``0,2`` (needs the count) |
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from .store.db import DEFAULT_POOL_SIZE

DEFAULT_AI_WORKERS = 1
# Highest STONECAST_AI_WORKERS accepted (search processes; more than the CPUs gains nothing).
MAX_AI_WORKERS = 64

DEFAULT_DB = Path("data") / "stonecast.db"
# Highest STONECAST_SHARD_COUNT accepted: far above any bot's need (Discord: one shard per
# 1,000-2,500 servers), low enough that a typo is caught.
MAX_SHARDS = 100_000
# Highest STONECAST_DB_POOL accepted (PostgreSQL's default max_connections is 100).
MAX_DB_POOL = 100


class ConfigError(Exception):
    """A configuration problem; ``str(e)`` is one line telling the operator what to fix."""


@dataclass(frozen=True)
class Config:
    """Settings of one bot process.

    * ``token`` -- the Discord bot token.
    * ``db_path`` -- the database: a SQLite file's :class:`Path`, or a PostgreSQL URL
      (``str``, ``postgresql://...``); see :func:`db_target_from_env`.
    * ``guild_id`` -- a server to sync commands to at start (instant), or ``None`` for a
      global sync (Discord may take a while to show changes).
    * ``api_url`` -- Discord REST base URL override, or ``None`` for discord.com.
    * ``render_workers`` -- processes rendering boards; ``None`` = automatic, 0 = a thread.
    * ``ai_workers`` -- processes searching the computer's moves (1 to
      :data:`MAX_AI_WORKERS`; ``/review`` has one more of its own).
    * ``shard_count`` -- the bot's total number of gateway shards, or ``None`` to use the
      number Discord recommends.
    * ``shard_ids`` -- the shards this process runs (ascending, each below ``shard_count``),
      or ``None`` for all of them.
    * ``lease`` -- seconds a claim of this process lasts unless renewed (outbox rows, the
      computer's work), or ``None`` for the manager's default (300).
    * ``maintenance_interval`` -- seconds between two maintenance passes, or ``None`` for
      the bot's default (60).
    * ``db_pool`` -- PostgreSQL connections of this process (ignored for SQLite).
    """

    token: str
    db_path: Path | str = DEFAULT_DB
    guild_id: int | None = None
    api_url: str | None = None
    render_workers: int | None = None
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    lease: float | None = None
    maintenance_interval: float | None = None
    db_pool: int = DEFAULT_POOL_SIZE
    ai_workers: int = DEFAULT_AI_WORKERS

    @property
    def uses_postgresql(self) -> bool:
        """Whether the database is PostgreSQL (a URL) rather than a SQLite file."""
        return isinstance(self.db_path, str)

    @property
    def syncs_commands(self) -> bool:
        """Whether this process registers the slash commands at start: the one running shard
        0 (or every shard) does, so that of several processes exactly one syncs."""
        return self.shard_ids is None or 0 in self.shard_ids

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Config:
        """Read the settings from ``env`` (default ``os.environ``).

        Raises :class:`ConfigError` when ``DISCORD_TOKEN`` is missing (or holds a space or a
        control character), ``STONECAST_API_URL`` is not an http(s) URL, ``STONECAST_GUILD``
        is not a server id, ``STONECAST_RENDER_WORKERS``, ``STONECAST_AI_WORKERS`` or
        ``STONECAST_DB_POOL`` not a number in its range,
        ``STONECAST_LEASE`` or ``STONECAST_MAINTENANCE_INTERVAL`` not a number of seconds
        from 0.1 to 86400, or the shard
        settings are malformed (see :func:`parse_shards`).
        """
        env = os.environ if env is None else env
        token = (env.get("DISCORD_TOKEN") or "").strip()
        if not token:
            raise ConfigError(
                "DISCORD_TOKEN is not set: create a bot at https://discord.com/developers/applications, "
                "copy its token and run again with DISCORD_TOKEN=<token> (see README.md)")
        if not token.isprintable() or any(c.isspace() for c in token):
            raise ConfigError("DISCORD_TOKEN holds a space, line break or control character: copy "
                              "the token again from the developer portal (Bot page)")
        guild_text = (env.get("STONECAST_GUILD") or "").strip()
        guild_id = None
        if guild_text:
            if not guild_text.isdigit() or not 0 < int(guild_text) < 2 ** 63:
                raise ConfigError(f"STONECAST_GUILD must be a server id (a number), not {guild_text!r}")
            guild_id = int(guild_text)
        api_url = (env.get("STONECAST_API_URL") or "").strip().rstrip("/") or None
        if api_url is not None:
            parts = urlsplit(api_url)
            if parts.scheme not in ("http", "https") or not parts.hostname or " " in api_url:
                raise ConfigError(f"STONECAST_API_URL must be an http:// or https:// URL, such as "
                                  f"https://discord.com/api/v10, not {api_url!r}")
        workers_text = (env.get("STONECAST_RENDER_WORKERS") or "").strip()
        workers = None
        if workers_text:
            if not workers_text.isdigit() or int(workers_text) > 32:
                raise ConfigError(f"STONECAST_RENDER_WORKERS must be a number from 0 to 32, not {workers_text!r}")
            workers = int(workers_text)
        pool_text = (env.get("STONECAST_DB_POOL") or "").strip()
        db_pool = DEFAULT_POOL_SIZE
        if pool_text:
            if not pool_text.isdigit() or not 1 <= int(pool_text) <= MAX_DB_POOL:
                raise ConfigError(f"STONECAST_DB_POOL must be a number of connections from 1 to "
                                  f"{MAX_DB_POOL}, not {pool_text!r}")
            db_pool = int(pool_text)
        ai_text = (env.get("STONECAST_AI_WORKERS") or "").strip()
        ai_workers = DEFAULT_AI_WORKERS
        if ai_text:
            if not ai_text.isdigit() or not 1 <= int(ai_text) <= MAX_AI_WORKERS:
                raise ConfigError(f"STONECAST_AI_WORKERS must be a number of processes from 1 to "
                                  f"{MAX_AI_WORKERS}, not {ai_text!r}")
            ai_workers = int(ai_text)
        shard_count, shard_ids = parse_shards(env.get("STONECAST_SHARD_COUNT") or "",
                                              env.get("STONECAST_SHARD_IDS") or "")
        return cls(token=token, db_path=db_target_from_env(env), guild_id=guild_id,
                   api_url=api_url, render_workers=workers, shard_count=shard_count,
                   shard_ids=shard_ids, lease=_seconds(env, "STONECAST_LEASE"),
                   maintenance_interval=_seconds(env, "STONECAST_MAINTENANCE_INTERVAL"),
                   db_pool=db_pool, ai_workers=ai_workers)


def _seconds(env: Mapping[str, str], name: str) -> float | None:
    """The optional duration ``env[name]`` in seconds (0.1 to 86400), ``None`` when unset.
    Raises :class:`ConfigError` for anything else."""
    text = (env.get(name) or "").strip()
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.1 <= value <= 86400:  # NaN fails too
        raise ConfigError(f"{name} must be a number of seconds from 0.1 to 86400, not {text!r}")
    return value


def db_target_from_env(env: Mapping[str, str] | None = None) -> Path | str:
    """The database named by ``STONECAST_DB`` in ``env`` (default ``os.environ``): a
    PostgreSQL URL (``postgresql://`` or ``postgres://``, returned as text), else a SQLite
    file's path (:data:`DEFAULT_DB` when unset). Needs no token: ``python -m bot backup``
    uses it alone. Raises :class:`ConfigError` for a URL of another database
    (``mysql://...``) or the path of a folder."""
    env = os.environ if env is None else env
    db = (env.get("STONECAST_DB") or "").strip()
    if not db:
        return DEFAULT_DB
    scheme, sep, _ = db.partition("://")
    if sep:
        if scheme.lower() in ("postgresql", "postgres", "postgresql+asyncpg"):
            return db
        if scheme.lower() not in ("file",) and scheme.isascii() and scheme.replace("+", "").isalnum():
            raise ConfigError(f"STONECAST_DB must be a SQLite file path or a postgresql:// URL, "
                              f"not a {scheme}:// URL")
    if Path(db).is_dir():
        raise ConfigError(f"STONECAST_DB names the folder {db}, not a file: name the database "
                          f"file, e.g. {Path(db) / 'stonecast.db'}")
    return Path(db)


def db_path_from_env(env: Mapping[str, str] | None = None) -> Path | str:
    """Former name of :func:`db_target_from_env`."""
    return db_target_from_env(env)


def parse_shards(count_text: str, ids_text: str) -> tuple[int | None, tuple[int, ...] | None]:
    """``STONECAST_SHARD_COUNT`` and ``STONECAST_SHARD_IDS`` -> ``(shard_count, shard_ids)``.

    The count is a whole number from 1 to :data:`MAX_SHARDS`; the ids a comma-separated list
    of shard numbers and ranges (``0-3``, ``0,2``, ``0-1,4``), each below the count, none
    twice; returned ascending. Both empty: ``(None, None)`` (every shard Discord recommends);
    a count alone: that many shards, all run here (``ids`` ``None``). Raises
    :class:`ConfigError` for anything else, ids without a count included.
    """
    count_text, ids_text = count_text.strip(), ids_text.strip()
    count = None
    if count_text:
        if not count_text.isdigit() or not 1 <= int(count_text) <= MAX_SHARDS:
            raise ConfigError(f"STONECAST_SHARD_COUNT must be a number from 1 to {MAX_SHARDS}, "
                              f"not {count_text!r}")
        count = int(count_text)
    if not ids_text:
        return count, None
    if count is None:
        raise ConfigError("STONECAST_SHARD_IDS needs STONECAST_SHARD_COUNT, the total number of "
                          "shards over all processes")
    ids: list[int] = []
    for part in ids_text.split(","):
        part = part.strip()
        low, dash, high = part.partition("-")
        low, high = low.strip(), high.strip()
        if not low.isdigit() or (dash and not high.isdigit()):
            raise ConfigError(f"STONECAST_SHARD_IDS must list shard numbers and ranges such as "
                              f"'0-3' or '0,2', not {ids_text!r}")
        first, last = int(low), int(high) if dash else int(low)
        if last < first:
            raise ConfigError(f"STONECAST_SHARD_IDS: the range {part!r} runs backwards")
        if last >= count:
            raise ConfigError(f"STONECAST_SHARD_IDS: shard {last} does not exist with "
                              f"STONECAST_SHARD_COUNT={count} (shards are numbered 0 to {count - 1})")
        ids.extend(range(first, last + 1))
    if len(set(ids)) != len(ids):
        raise ConfigError(f"STONECAST_SHARD_IDS names a shard twice: {ids_text!r}")
    return count, tuple(sorted(ids))
