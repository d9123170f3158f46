"""User settings (table ``user_settings``): your-turn DMs and vacations."""

from __future__ import annotations

import sqlite3

from .repo import Repo

__all__ = ["SettingsRepo"]


class SettingsRepo(Repo):
    """One row per user who changed a setting; no row means the defaults."""

    async def get(self, user_id: int) -> sqlite3.Row | None:
        """The settings row of ``user_id`` (``dm``, ``vacation_until``, ``vacation_year``,
        ``vacation_used``), ``None`` for someone with the defaults."""
        return await self.store.fetchone("SELECT * FROM user_settings WHERE user_id = ?", (user_id,))

    async def of_users(self, user_ids: list[int]) -> list[sqlite3.Row]:
        """The settings rows of those of ``user_ids`` who have one (any order)."""
        if not user_ids:
            return []
        marks = ", ".join("?" * len(user_ids))
        return await self.store.fetchall(f"SELECT * FROM user_settings WHERE user_id IN ({marks})",
                                         list(user_ids))

    async def set_dm(self, user_id: int, dm: bool) -> None:
        """Turn the your-turn DM of ``user_id`` on or off."""
        await self.store.execute(
            "INSERT INTO user_settings (user_id, dm) VALUES (?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET dm = excluded.dm",
            (user_id, int(bool(dm))),
        )

    async def set_vacation(self, user_id: int, until: float | None, year: int, used_days: float) -> None:
        """Store the vacation of ``user_id``: running ``until`` (``None``: none), and
        ``used_days`` of the allowance of calendar ``year``."""
        await self.store.execute(
            "INSERT INTO user_settings (user_id, vacation_until, vacation_year, vacation_used)"
            " VALUES (?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET"
            " vacation_until = excluded.vacation_until, vacation_year = excluded.vacation_year,"
            " vacation_used = excluded.vacation_used",
            (user_id, until, year, used_days),
        )
