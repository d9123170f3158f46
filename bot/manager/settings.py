"""Settings of a player: the your-turn DM and what is left of the vacation allowance; the
players' display names the bot saw (for board images); the languages of players and servers
(issue 22: the one chosen, and the Discord locale last seen).

(Starting and ending a vacation moves clocks: that is :mod:`.clocks`.)
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import cast

from ..store.db import Row
from ..store.names import NamesRepo
from ..store.settings import ServerLanguageRepo
from .core import DAY, Service
from .errors import Refusal, UserError
from .values import UserSettings

__all__ = ["DM_MODES", "SettingsService"]

DM_MODES = ("off", "on", "digest")
# a language (a catalog's name: "de", "pt_BR") or a Discord locale ("pt-BR", "es-419")
_LANGUAGE = re.compile(r"[a-z]{2,3}([_-][A-Za-z0-9]{2,4})?")


class SettingsService(Service):
    """A player's settings (shared: every use case that reads a player's DM choice, vacation
    or move confirmation goes through :meth:`from_row` or :meth:`get`), and the display names
    the bot saw."""

    def year(self, t: float) -> int:
        """The calendar year (UTC) at UNIX time ``t``: the vacation allowance's period."""
        return datetime.fromtimestamp(t, UTC).year

    def from_row(self, row: Row | None, now: float) -> UserSettings:
        """The settings a ``user_settings`` row (``None``: the defaults) means at ``now``."""
        if row is None:
            return UserSettings(False, None, self.limits.vacation_days)
        used = row["vacation_used"] if row["vacation_year"] == self.year(now) else 0.0
        until = row["vacation_until"]
        return UserSettings(
            bool(row["dm"]),
            until if until is not None and until > now else None,
            max(0.0, self.limits.vacation_days - used),
            bool(row["confirm"]),
            row["digest_hour"],
        )

    async def get(self, user_id: int) -> UserSettings:
        """``user_id``'s settings (defaults for someone never seen: no DMs, no vacation)."""
        return self.from_row(await self.settings_repo.get(user_id), self.clock())

    async def set_notify(self, user_id: int, dm: bool) -> UserSettings:
        """Turn the your-turn DM for ``user_id`` on or off (the old /notify; ends a daily
        digest). Returns the new settings."""
        return await self.set_dm_mode(user_id, "on" if dm else "off")

    async def set_dm_mode(self, user_id: int, mode: str, hour: int | None = None) -> UserSettings:
        """Direct messages for ``user_id`` (issue 13, /settings dm:): ``"off"``, ``"on"`` (one
        when it becomes their turn) or ``"digest"`` (one a day at ``hour`` UTC, 0..23, listing
        every game waiting for them, instead of one per turn; ``hour`` may be left out when a
        digest hour is set already). Returns the new settings. Raises :class:`UserError` for
        another mode or a bad or missing hour."""
        if mode not in DM_MODES:
            raise UserError(Refusal.BAD_DM_MODE)
        if hour is not None and (isinstance(hour, bool) or not isinstance(hour, int) or not 0 <= hour <= 23):
            raise UserError(Refusal.BAD_DIGEST_HOUR)
        async with self.store.transaction():
            if mode == "digest" and hour is None:
                hour = self.from_row(await self.settings_repo.get(user_id), self.clock()).digest_hour
                if hour is None:
                    raise UserError(Refusal.DIGEST_HOUR_MISSING)
            await self.settings_repo.set_dm_mode(user_id, mode == "on", hour if mode == "digest" else None)
            now = self.clock()
            if mode == "digest" and datetime.fromtimestamp(now, UTC).hour >= cast(int, hour):  # set for a digest
                # today's hour has passed: the first digest comes tomorrow at that hour
                await self.settings_repo.mark_digest_day(user_id, 23, int(now // DAY))
        return await self.get(user_id)

    async def set_confirm(self, user_id: int, on: bool) -> UserSettings:
        """Move confirmation for ``user_id`` (issue 13, /settings confirm:): when on, /move
        shows the board after the move with Confirm and Cancel, and nothing is played before
        Confirm. Returns the new settings."""
        await self.settings_repo.set_confirm(user_id, bool(on))
        return await self.get(user_id)

    # ---- display names (issue 14: a process that never saw a player reads the name here) ----
    async def display_names(self, user_ids: list[int]) -> dict[int, str]:
        """The display names stored for those of ``user_ids`` the bot saw (user id -> name)."""
        return await NamesRepo(self.store).of_users(list(user_ids))

    async def remember_name(self, user_id: int, name: str) -> None:
        """Store ``name`` (non-empty text, cut to 100 characters) as ``user_id``'s display
        name. Raises :class:`UserError` for an empty name or a bad id."""
        user_id = self._id(user_id, "user")
        name = str(name).strip()[:100]
        if not name:
            raise UserError(Refusal.EMPTY_NAME)
        await self.remember_names({user_id: name})

    async def remember_names(self, names: dict[int, str]) -> None:
        """Store several display names (user id -> name) in one transaction; names as for
        :meth:`remember_name` (empty ones are left out). Raises NotFound for a bad id."""
        rows = [(self._id(uid, "user"), str(name).strip()[:100]) for uid, name in names.items()]
        rows = [(uid, name) for uid, name in rows if name]
        if rows:
            async with self.store.transaction():
                await NamesRepo(self.store).put_many(rows, self.clock())

    # ---- languages (issue 22) --------------------------------------------------------------
    @staticmethod
    def _language(value: str | None, what: str) -> str | None:
        if value is not None and (not isinstance(value, str) or not _LANGUAGE.fullmatch(value)):
            raise ValueError(f"not a {what}: {value!r}")
        return value

    async def languages(self, user_ids: list[int]) -> dict[int, tuple[str | None, str | None]]:
        """User id -> (the language chosen with /settings, the Discord locale last seen) for
        those of ``user_ids`` with a settings row; either may be ``None``."""
        return await self.settings_repo.languages_of(list(user_ids))

    async def set_language(self, user_id: int, language: str | None) -> None:
        """``user_id``'s language: a catalog name (``"de"``, ``"pt_BR"``; the front offers
        the supported ones) or ``None`` to follow Discord's locale. ValueError for anything
        that is not a language identifier (nothing changes)."""
        await self.settings_repo.set_language(self._id(user_id, "user"), self._language(language, "language"))

    async def note_locale(self, user_id: int, locale: str) -> None:
        """Store the Discord locale last seen from ``user_id`` (``"pt-BR"``; the language of
        their DMs when they are not interacting). ValueError for a malformed locale."""
        await self.settings_repo.note_locale(self._id(user_id, "user"), str(self._language(locale, "locale")))

    async def server_language(self, guild_id: int) -> tuple[str | None, str | None]:
        """(The language chosen with /settings server-language, the guild locale last seen)
        of ``guild_id``: either may be ``None``."""
        return await ServerLanguageRepo(self.store).get(guild_id)

    async def set_server_language(self, guild_id: int, language: str | None) -> None:
        """The language of ``guild_id``'s public posts (``None``: its guild locale), as
        :meth:`set_language`. The front checks the caller may manage the server."""
        await ServerLanguageRepo(self.store).set_language(guild_id, self._language(language, "language"))

    async def note_guild_locale(self, guild_id: int, locale: str) -> None:
        """Store the guild locale last seen for ``guild_id``, as :meth:`note_locale`."""
        await ServerLanguageRepo(self.store).note_locale(guild_id, str(self._language(locale, "locale")))
