"""Settings of a player: the your-turn DM and what is left of the vacation allowance.

(Starting and ending a vacation moves clocks: that is :mod:`.clocks`.)
"""

from __future__ import annotations

from datetime import UTC, datetime

from .core import ManagerCore
from .values import UserSettings

__all__ = ["SettingsMixin"]


class SettingsMixin(ManagerCore):
    """:meth:`settings` and :meth:`set_notify` of :class:`bot.manager.GameManager`."""

    def _year(self, t: float) -> int:
        return datetime.fromtimestamp(t, UTC).year

    def _settings(self, row, now: float) -> UserSettings:
        """The settings a ``user_settings`` row (``None``: the defaults) means at ``now``."""
        if row is None:
            return UserSettings(False, None, self.limits.vacation_days)
        used = row["vacation_used"] if row["vacation_year"] == self._year(now) else 0.0
        until = row["vacation_until"]
        return UserSettings(
            bool(row["dm"]),
            until if until is not None and until > now else None,
            max(0.0, self.limits.vacation_days - used),
        )

    async def settings(self, user_id: int) -> UserSettings:
        """``user_id``'s settings (defaults for someone never seen: no DMs, no vacation)."""
        return self._settings(await self.settings_repo.get(user_id), self.clock())

    async def set_notify(self, user_id: int, dm: bool) -> UserSettings:
        """Turn the your-turn DM for ``user_id`` on or off. Returns the new settings."""
        await self.settings_repo.set_dm(user_id, dm)
        return await self.settings(user_id)
