"""Ratings per server and game (tables ``ratings`` and ``rating_changes``)."""

from __future__ import annotations

from .db import Row
from .repo import Repo

__all__ = ["RatingRepo"]


class RatingRepo(Repo):
    """Glicko-2 ratings per (server, game kind, user) and the change each rated game made."""

    async def get_glicko(self, guild_id: int, kind: str, user_id: int) -> Row | None:
        """``rating, games, rd, volatility, last_played`` of ``user_id``, ``None`` before
        their first rated game."""
        return await self.store.fetchone(
            "SELECT rating, games, rd, volatility, last_played FROM ratings"
            " WHERE guild_id = ? AND kind = ? AND user_id = ?", (guild_id, kind, user_id))

    async def record_glicko(self, game_id: int, guild_id: int, kind: str, user_id: int, *,
                            before: float, rd_before: float, after: float, rd_after: float,
                            volatility: float, games: int, at: float) -> None:
        """Store the Glicko-2 rating of ``user_id`` after game ``game_id`` and the change it
        made (ratings and deviations before and after)."""
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
        """``kind, user_id, rating, games, rd, volatility, last_played`` of each game kind
        ``user_id`` has rated games of in ``guild_id``, by kind."""
        return await self.store.fetchall(
            "SELECT kind, user_id, rating, games, rd, volatility, last_played FROM ratings"
            " WHERE guild_id = ? AND user_id = ? AND games > 0 ORDER BY kind", (guild_id, user_id))

    async def changes(self, game_id: int) -> list[Row]:
        """``user_id, before, after`` for each player of a finished rated game."""
        return await self.store.fetchall(
            "SELECT user_id, before, after FROM rating_changes WHERE game_id = ?", (game_id,)
        )
