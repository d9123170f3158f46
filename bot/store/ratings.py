"""Ratings per server and game (tables ``ratings`` and ``rating_changes``)."""

from __future__ import annotations

from .db import Row
from .repo import Repo

__all__ = ["RatingRepo"]


class RatingRepo(Repo):
    """Ratings per (server, game kind, user) and the change each rated game made: Glicko-2
    from schema version 7 (the ``*_glicko`` methods), Elo before."""

    async def get(self, guild_id: int, kind: str, user_id: int) -> Row | None:
        """``rating, games`` of ``user_id``, ``None`` before their first rated game."""
        return await self.store.fetchone(
            "SELECT rating, games FROM ratings WHERE guild_id = ? AND kind = ? AND user_id = ?",
            (guild_id, kind, user_id),
        )

    async def get_glicko(self, guild_id: int, kind: str, user_id: int) -> Row | None:
        """``rating, games, rd, volatility, last_played`` of ``user_id`` (schema version 7),
        ``None`` before their first rated game."""
        return await self.store.fetchone(
            "SELECT rating, games, rd, volatility, last_played FROM ratings"
            " WHERE guild_id = ? AND kind = ? AND user_id = ?", (guild_id, kind, user_id))

    async def record_glicko(self, game_id: int, guild_id: int, kind: str, user_id: int, *,
                            before: float, rd_before: float, after: float, rd_after: float,
                            volatility: float, games: int, at: float) -> None:
        """Store the Glicko-2 rating of ``user_id`` after game ``game_id`` (schema version 7)
        and the change it made (ratings and deviations before and after)."""
        await self.store.execute(
            "INSERT INTO ratings (guild_id, kind, user_id, rating, games, rd, volatility, last_played)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, kind, user_id) DO UPDATE SET"
            " rating = excluded.rating, games = excluded.games, rd = excluded.rd,"
            " volatility = excluded.volatility, last_played = excluded.last_played",
            (guild_id, kind, user_id, after, games, rd_after, volatility, at))
        await self.store.execute(
            "INSERT INTO rating_changes (game_id, user_id, before, after, rd_before, rd_after)"
            " VALUES (?, ?, ?, ?, ?, ?)", (game_id, user_id, before, after, rd_before, rd_after))

    async def all_rated(self, guild_id: int, kind: str) -> list[Row]:
        """Every rated player of ``kind`` in ``guild_id`` (``user_id, rating, games, rd,
        volatility, last_played``), for the Glicko-2 leaderboard sorted by the caller."""
        return await self.store.fetchall(
            "SELECT user_id, rating, games, rd, volatility, last_played FROM ratings"
            " WHERE guild_id = ? AND kind = ? AND games > 0", (guild_id, kind))

    async def of_player_glicko(self, guild_id: int, user_id: int) -> list[Row]:
        """Like :meth:`of_player`, with ``rd, volatility, last_played`` (schema version 7)."""
        return await self.store.fetchall(
            "SELECT kind, user_id, rating, games, rd, volatility, last_played FROM ratings"
            " WHERE guild_id = ? AND user_id = ? AND games > 0 ORDER BY kind", (guild_id, user_id))

    async def record(self, game_id: int, guild_id: int, kind: str, user_id: int,
                     before: float, after: float) -> None:
        """Set the rating of ``user_id`` to ``after`` (one more rated game) and keep the change
        ``before -> after`` that game ``game_id`` made."""
        await self.store.execute(
            "INSERT INTO ratings (guild_id, kind, user_id, rating, games) VALUES (?, ?, ?, ?, 1)"
            " ON CONFLICT (guild_id, kind, user_id) DO UPDATE SET rating = excluded.rating,"
            " games = games + 1",
            (guild_id, kind, user_id, after),
        )
        await self.store.execute(
            "INSERT INTO rating_changes (game_id, user_id, before, after) VALUES (?, ?, ?, ?)",
            (game_id, user_id, before, after),
        )

    async def changes(self, game_id: int) -> list[Row]:
        """``user_id, before, after`` for each player of a finished rated game."""
        return await self.store.fetchall(
            "SELECT user_id, before, after FROM rating_changes WHERE game_id = ?", (game_id,)
        )

    async def top(self, guild_id: int, kind: str, limit: int) -> list[Row]:
        """The leaderboard: rated players, highest first (then most games, then user id)."""
        return await self.store.fetchall(
            "SELECT user_id, rating, games FROM ratings WHERE guild_id = ? AND kind = ?"
            " AND games > 0 ORDER BY rating DESC, games DESC, user_id LIMIT ?",
            (guild_id, kind, limit),
        )

    async def ranked(self, guild_id: int, kind: str, user_id: int) -> Row | None:
        """``user_id, rating, games`` of a player with rated games, else ``None``."""
        return await self.store.fetchone(
            "SELECT user_id, rating, games FROM ratings WHERE guild_id = ? AND kind = ?"
            " AND user_id = ? AND games > 0", (guild_id, kind, user_id),
        )

    async def count_ahead(self, guild_id: int, kind: str, rating: float, games: int, user_id: int) -> int:
        """Players above one with ``rating``, ``games`` and ``user_id`` in the :meth:`top` order."""
        row = await self.store.fetchone(
            "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND kind = ? AND games > 0 AND"
            " (rating > ? OR (rating = ? AND (games > ? OR (games = ? AND user_id < ?))))",
            (guild_id, kind, rating, rating, games, games, user_id),
        )
        return int(row[0])

    async def of_player(self, guild_id: int, user_id: int) -> list[Row]:
        """``kind, user_id, rating, games`` of each game kind ``user_id`` has rated games of."""
        return await self.store.fetchall(
            "SELECT kind, user_id, rating, games FROM ratings WHERE guild_id = ? AND user_id = ?"
            " AND games > 0 ORDER BY kind", (guild_id, user_id),
        )
