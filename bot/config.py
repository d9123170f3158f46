"""Configuration of the bot process, read from environment variables.

| variable | meaning |
| --- | --- |
| ``DISCORD_TOKEN`` | the bot token (required) |
| ``STONECAST_DB`` | SQLite database file (default ``data/stonecast.db``; its folder is created) |
| ``STONECAST_GUILD`` | optional server id: commands are synced to that server at start |
| ``STONECAST_RENDER_WORKERS`` | processes drawing board images (default: one per CPU, 2 to 4; 0 = a thread) |
| ``STONECAST_API_URL`` | optional Discord REST base URL (a proxy, or a fake Discord in tests) |
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

DEFAULT_DB = Path("data") / "stonecast.db"


class ConfigError(Exception):
    """A configuration problem; ``str(e)`` is one line telling the operator what to fix."""


@dataclass(frozen=True)
class Config:
    """Settings of one bot process.

    * ``token`` -- the Discord bot token.
    * ``db_path`` -- path of the SQLite database file.
    * ``guild_id`` -- a server to sync commands to at start (instant), or ``None`` for a
      global sync (Discord may take a while to show changes).
    * ``api_url`` -- Discord REST base URL override, or ``None`` for discord.com.
    * ``render_workers`` -- processes rendering boards; ``None`` = automatic, 0 = a thread.
    """

    token: str
    db_path: Path = DEFAULT_DB
    guild_id: int | None = None
    api_url: str | None = None
    render_workers: int | None = None

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Config:
        """Read the settings from ``env`` (default ``os.environ``).

        Raises :class:`ConfigError` when ``DISCORD_TOKEN`` is missing, ``STONECAST_GUILD``
        is not a server id or ``STONECAST_RENDER_WORKERS`` not a small number.
        """
        env = os.environ if env is None else env
        token = (env.get("DISCORD_TOKEN") or "").strip()
        if not token:
            raise ConfigError(
                "DISCORD_TOKEN is not set: create a bot at https://discord.com/developers/applications, "
                "copy its token and run again with DISCORD_TOKEN=<token> (see README.md)")
        db = (env.get("STONECAST_DB") or "").strip()
        guild_text = (env.get("STONECAST_GUILD") or "").strip()
        guild_id = None
        if guild_text:
            if not guild_text.isdigit():
                raise ConfigError(f"STONECAST_GUILD must be a server id (a number), not {guild_text!r}")
            guild_id = int(guild_text)
        api_url = (env.get("STONECAST_API_URL") or "").strip().rstrip("/") or None
        workers_text = (env.get("STONECAST_RENDER_WORKERS") or "").strip()
        workers = None
        if workers_text:
            if not workers_text.isdigit() or int(workers_text) > 32:
                raise ConfigError(f"STONECAST_RENDER_WORKERS must be a number from 0 to 32, not {workers_text!r}")
            workers = int(workers_text)
        return cls(token=token, db_path=Path(db) if db else DEFAULT_DB, guild_id=guild_id,
                   api_url=api_url, render_workers=workers)
