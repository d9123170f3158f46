"""Analysis boards and private notes (issue 23, Alembic revision 0008): tables
``analysis_sessions`` (one row per board opened with /analyze) and ``game_notes`` (one private
note per game and player). Rows only: what they mean is :mod:`bot.manager.analysis`'s."""

from __future__ import annotations

from .db import Row
from .repo import Repo

__all__ = ["AnalysisRepo"]

_SESSION = ("id, user_id, guild_id, game_id, start_text, record, kept, own, cursor, engine,"
            " created_at, used_at")


class AnalysisRepo(Repo):
    """The ``analysis_sessions`` and ``game_notes`` tables."""

    async def insert_session(self, *, user_id: int, guild_id: int | None, game_id: int | None,
                             start_text: str, record: str, kept: int, own: str, cursor: int,
                             now: float) -> int:
        """Store a new board (``record``/``own``: JSON lists of move texts); its id."""
        return await self.store.insert(
            "INSERT INTO analysis_sessions (user_id, guild_id, game_id, start_text, record, kept,"
            " own, cursor, engine, created_at, used_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)",
            (user_id, guild_id, game_id, start_text, record, kept, own, cursor, now, now))

    async def session(self, session_id: int) -> Row | None:
        """The row of board ``session_id`` (``None``: no such board, or deleted)."""
        return await self.store.fetchone(
            f"SELECT {_SESSION} FROM analysis_sessions WHERE id = ?", (session_id,))

    async def update_session(self, session_id: int, *, kept: int, own: str, cursor: int,
                             engine: str | None, now: float, lapsed: float) -> int:
        """Store a board's new state and mark it used at ``now``, unless it was last used at
        or before ``lapsed`` (UNIX seconds: it lapsed meanwhile) or is gone; rows changed (0:
        not stored)."""
        return await self.store.execute(
            "UPDATE analysis_sessions SET kept = ?, own = ?, cursor = ?, engine = ?, used_at = ?"
            " WHERE id = ? AND used_at > ?", (kept, own, cursor, engine, now, session_id, lapsed))

    async def delete_unused_since(self, before: float) -> int:
        """Remove the boards last used at or before ``before`` (UNIX seconds); rows removed.
        One statement: each row is removed by exactly one caller, and only if it still
        qualifies when removed (a board used meanwhile stays), so callers in several
        processes may run it at once."""
        return await self.store.execute("DELETE FROM analysis_sessions WHERE used_at <= ?", (before,))

    async def note(self, game_id: int, user_id: int) -> str | None:
        """``user_id``'s note on ``game_id`` (``None``: none)."""
        row = await self.store.fetchone(
            "SELECT text FROM game_notes WHERE game_id = ? AND user_id = ?", (game_id, user_id))
        return None if row is None else str(row[0])

    async def put_note(self, game_id: int, user_id: int, text: str, now: float) -> None:
        """Store (replace) ``user_id``'s note on ``game_id``."""
        await self.store.execute(
            "INSERT INTO game_notes (game_id, user_id, text, updated_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (game_id, user_id) DO UPDATE SET text = excluded.text,"
            " updated_at = excluded.updated_at", (game_id, user_id, text, now))

    async def delete_note(self, game_id: int, user_id: int) -> int:
        """Remove ``user_id``'s note on ``game_id``; rows removed."""
        return await self.store.execute(
            "DELETE FROM game_notes WHERE game_id = ? AND user_id = ?", (game_id, user_id))
