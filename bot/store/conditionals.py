"""Conditional moves (table ``conditionals``, schema version 7): one row per game and seat
holding that player's prepared lines as JSON (:meth:`bot.rules.conditionals.ConditionalTree.to_json`).

The rows are written in the transaction of the move that consumes them (or of the
/conditional command that stores them), so a crash keeps a tree and the moves it produced
together: a reply is played once or not at all.
"""

from __future__ import annotations

from .repo import Repo

__all__ = ["ConditionalRepo"]


class ConditionalRepo(Repo):
    """The ``conditionals`` table: the stored lines of one player in one game."""

    async def get(self, game_id: int, seat: int) -> str | None:
        """The stored tree (JSON text) of ``seat`` in ``game_id``, ``None`` when there is none."""
        row = await self.store.fetchone(
            "SELECT tree FROM conditionals WHERE game_id = ? AND seat = ?", (game_id, seat))
        return None if row is None else row[0]

    async def of_game(self, game_id: int) -> dict[int, str]:
        """The stored trees (JSON text) of ``game_id`` by seat, in one statement (seats with
        none left out)."""
        rows = await self.store.fetchall(
            "SELECT seat, tree FROM conditionals WHERE game_id = ?", (game_id,))
        return {row[0]: row[1] for row in rows}

    async def put(self, game_id: int, seat: int, tree: str, ply: int, now: float) -> None:
        """Store (replace) the tree of ``seat`` in ``game_id``, written at the game's ``ply``."""
        await self.store.execute(
            "INSERT INTO conditionals (game_id, seat, tree, ply, updated_at) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (game_id, seat) DO UPDATE SET tree = excluded.tree, ply = excluded.ply,"
            " updated_at = excluded.updated_at",
            (game_id, seat, tree, ply, now))

    async def delete(self, game_id: int, seat: int | None = None) -> int:
        """Remove the tree of ``seat`` in ``game_id`` (both seats when ``None``); rows removed."""
        if seat is None:
            return await self.store.execute("DELETE FROM conditionals WHERE game_id = ?", (game_id,))
        return await self.store.execute(
            "DELETE FROM conditionals WHERE game_id = ? AND seat = ?", (game_id, seat))
