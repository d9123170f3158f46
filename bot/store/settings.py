"""User settings (table ``user_settings``): your-turn DMs, vacations and languages; a server's
language (table ``server_settings``, issue 22)."""

from __future__ import annotations

from .db import Row
from .repo import Repo

__all__ = ["ServerLanguageRepo", "SettingsRepo"]


class SettingsRepo(Repo):
    """One row per user who changed a setting; no row means the defaults."""

    async def get(self, user_id: int) -> Row | None:
        """The settings row of ``user_id`` (``dm``, ``vacation_until``, ``vacation_year``,
        ``vacation_used``), ``None`` for someone with the defaults."""
        return await self.store.fetchone("SELECT * FROM user_settings WHERE user_id = ?", (user_id,))

    async def of_users(self, user_ids: list[int]) -> list[Row]:
        """The settings rows of those of ``user_ids`` who have one (any order)."""
        if not user_ids:
            return []
        marks = ", ".join("?" * len(user_ids))
        return await self.store.fetchall(f"SELECT * FROM user_settings WHERE user_id IN ({marks})",
                                         list(user_ids))

    async def set_dm_mode(self, user_id: int, dm: bool, digest_hour: int | None) -> None:
        """Per-turn DMs on or off and the daily digest's UTC hour (``None``: none); schema
        version 7."""
        await self.store.execute(
            "INSERT INTO user_settings (user_id, dm, digest_hour) VALUES (?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET dm = excluded.dm, digest_hour = excluded.digest_hour",
            (user_id, int(bool(dm)), digest_hour),
        )

    async def digests_due(self, hour: int, day: int) -> list[int]:
        """Users whose daily digest hour is at or before ``hour`` (UTC) and whose last digest
        was before ``day`` (days since 1970-01-01, UTC)."""
        rows = await self.store.fetchall(
            "SELECT user_id FROM user_settings WHERE digest_hour IS NOT NULL AND digest_hour <= ?"
            " AND (digest_day IS NULL OR digest_day < ?) ORDER BY user_id", (hour, day))
        return [r[0] for r in rows]

    async def mark_digest_day(self, user_id: int, hour: int, day: int) -> int:
        """Note that ``user_id``'s digest of ``day`` is done, if it is still due (as
        :meth:`digests_due`); rows changed (0: not due any more)."""
        return await self.store.execute(
            "UPDATE user_settings SET digest_day = ? WHERE user_id = ? AND digest_hour IS NOT NULL"
            " AND digest_hour <= ? AND (digest_day IS NULL OR digest_day < ?)", (day, user_id, hour, day))

    async def set_confirm(self, user_id: int, confirm: bool) -> None:
        """Move confirmation of ``user_id`` on or off (schema version 7)."""
        await self.store.execute(
            "INSERT INTO user_settings (user_id, confirm) VALUES (?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET confirm = excluded.confirm",
            (user_id, int(bool(confirm))),
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

    async def languages_of(self, user_ids: list[int]) -> dict[int, tuple[str | None, str | None]]:
        """User id -> (the language chosen, the Discord locale last seen) of those of
        ``user_ids`` with either (one may be ``None``); schema 0009."""
        if not user_ids:
            return {}
        marks = ", ".join("?" * len(user_ids))
        chosen = {r[0]: r[1] for r in await self.store.fetchall(
            f"SELECT user_id, language FROM user_settings WHERE user_id IN ({marks})", list(user_ids))}
        seen = {r[0]: r[1] for r in await self.store.fetchall(
            f"SELECT subject_id, locale FROM seen_locales WHERE scope = 'user' AND subject_id IN ({marks})",
            list(user_ids))}
        return {u: (chosen.get(u), seen.get(u)) for u in chosen.keys() | seen.keys()}

    async def set_language(self, user_id: int, language: str | None) -> None:
        """The language ``user_id`` chose (``None``: follow Discord's locale)."""
        await self.store.execute(
            "INSERT INTO user_settings (user_id, language) VALUES (?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET language = excluded.language", (user_id, language))

    async def note_locale(self, user_id: int, locale: str) -> None:
        """The Discord locale last seen from ``user_id`` (table ``seen_locales``)."""
        await note_seen_locale(self, "user", user_id, locale)


async def note_seen_locale(repo: Repo, scope: str, subject_id: int, locale: str) -> None:
    """Store the Discord locale last seen of a user (``scope`` ``"user"``) or a server
    (``"guild"``) in ``seen_locales`` (schema 0009)."""
    await repo.store.execute(
        "INSERT INTO seen_locales (scope, subject_id, locale) VALUES (?, ?, ?)"
        " ON CONFLICT (scope, subject_id) DO UPDATE SET locale = excluded.locale", (scope, subject_id, locale))


class ServerLanguageRepo(Repo):
    """A server's language (``server_settings.language``; the guild locale last seen in
    ``seen_locales``; schema 0009)."""

    async def get(self, guild_id: int) -> tuple[str | None, str | None]:
        """(The language a moderator chose, the guild locale last seen) of ``guild_id``;
        ``(None, None)`` for a server with neither."""
        row = await self.store.fetchone(
            "SELECT language FROM server_settings WHERE guild_id = ?", (guild_id,))
        seen = await self.store.fetchone(
            "SELECT locale FROM seen_locales WHERE scope = 'guild' AND subject_id = ?", (guild_id,))
        return (None if row is None else row[0], None if seen is None else seen[0])

    async def set_language(self, guild_id: int, language: str | None) -> None:
        """The language of ``guild_id``'s public posts (``None``: follow its guild locale)."""
        await self.store.execute(
            "INSERT INTO server_settings (guild_id, language) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language", (guild_id, language))

    async def note_locale(self, guild_id: int, locale: str) -> None:
        """The guild locale last seen for ``guild_id`` (table ``seen_locales``)."""
        await note_seen_locale(self, "guild", guild_id, locale)
