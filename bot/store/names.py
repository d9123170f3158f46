"""Players' display names as the bot last saw them (table ``player_names``, Alembic 0004)."""

from __future__ import annotations

from .repo import Repo

__all__ = ["NamesRepo"]


class NamesRepo(Repo):
    """One row per user: ``display_name`` and ``updated_at`` (UNIX seconds)."""

    async def of_users(self, user_ids: list[int]) -> dict[int, str]:
        """The stored display names of those of ``user_ids`` who have one: user id -> name."""
        if not user_ids:
            return {}
        marks = ", ".join("?" * len(user_ids))
        rows = await self.store.fetchall(
            f"SELECT user_id, display_name FROM player_names WHERE user_id IN ({marks})", list(user_ids))
        return {r["user_id"]: r["display_name"] for r in rows}

    async def put_many(self, names: list[tuple[int, str]], now: float) -> None:
        """Store each ``(user id, name)`` of ``names`` (replacing the name before; a row
        whose name is unchanged is left as it is)."""
        await self.store.executemany(
            "INSERT INTO player_names (user_id, display_name, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET display_name = excluded.display_name,"
            " updated_at = excluded.updated_at"
            " WHERE player_names.display_name <> excluded.display_name",
            [(uid, name, now) for uid, name in names])
