"""One player's own data across the tables (issue 18, /privacy): what is stored about a
user, deleting it, and the record of that deletion (table ``forgotten_players``, Alembic
revision 0006).

What names a user: ``player_names`` (their display name), ``user_settings`` (DMs, digest,
confirmation, vacation), ``conditionals`` (their prepared lines, by game and seat),
``ratings`` (per server and game kind), ``challenges`` (sent or received), ``announcements``
(the outbox: DMs and digests written to them; reminders, board pings and losses on time of
their games), ``games`` and ``moves`` (their games), ``rating_changes`` (what each rated
game did to their rating), ``game_notes`` and ``analysis_sessions`` (their private notes and
analysis boards, issue 23). ``computer_work`` and ``reviews`` are about games only.
"""

from __future__ import annotations

from .db import Row
from .repo import Repo

__all__ = ["PrivacyRepo"]

class PrivacyRepo(Repo):
    """Statements about everything stored of one user (``user_id``: a Discord snowflake)."""

    # ---- the record of deletions -------------------------------------------------------------
    async def forgotten(self, user_ids: list[int]) -> dict[int, float]:
        """Those of ``user_ids`` whose data was deleted: user id -> when (UNIX seconds)."""
        if not user_ids:
            return {}
        marks = ", ".join("?" * len(user_ids))
        rows = await self.store.fetchall(
            f"SELECT user_id, forgotten_at FROM forgotten_players WHERE user_id IN ({marks})",
            list(user_ids))
        return {r["user_id"]: r["forgotten_at"] for r in rows}

    async def mark_forgotten(self, user_id: int, now: float) -> None:
        """Record that ``user_id``'s data was deleted at ``now`` (a later deletion replaces
        the time)."""
        await self.store.execute(
            "INSERT INTO forgotten_players (user_id, forgotten_at) VALUES (?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET forgotten_at = excluded.forgotten_at",
            (user_id, now))

    # ---- what is stored ------------------------------------------------------------------------
    async def name(self, user_id: int) -> Row | None:
        """``display_name, updated_at`` stored for ``user_id`` (``None``: none)."""
        return await self.store.fetchone(
            "SELECT display_name, updated_at FROM player_names WHERE user_id = ?", (user_id,))

    async def conditional_games(self, user_id: int) -> list[int]:
        """Ids of the games where ``user_id`` has conditional lines stored, in order."""
        rows = await self.store.fetchall(
            "SELECT c.game_id FROM conditionals c JOIN games g ON g.id = c.game_id"
            " WHERE (c.seat = 1 AND g.player1_id = ?) OR (c.seat = 2 AND g.player2_id = ?)"
            " ORDER BY c.game_id", (user_id, user_id))
        return [r[0] for r in rows]

    async def ratings(self, user_id: int) -> list[Row]:
        """``guild_id, kind, rating, rd, games`` of every rating row of ``user_id`` (every
        server), by server then kind."""
        return await self.store.fetchall(
            "SELECT guild_id, kind, rating, rd, games FROM ratings WHERE user_id = ?"
            " ORDER BY guild_id, kind", (user_id,))

    async def challenges(self, user_id: int) -> list[Row]:
        """``id, status, sent`` (1: ``user_id`` challenged; 0: they were challenged) of each
        challenge naming ``user_id`` that never became a game, by id."""
        return await self.store.fetchall(
            "SELECT id, status, CASE WHEN challenger_id = ? THEN 1 ELSE 0 END AS sent"
            " FROM challenges WHERE (challenger_id = ? OR opponent_id = ?) AND game_id IS NULL"
            " ORDER BY id", (user_id, user_id, user_id))

    async def count_dms(self, user_id: int) -> Row:
        """``queued, sent``: the direct messages (and digests) to ``user_id`` in the outbox,
        still to send and sent (or given up)."""
        row = await self.store.fetchone(
            "SELECT COALESCE(SUM(CASE WHEN delivered_at IS NULL THEN 1 ELSE 0 END), 0) AS queued,"
            " COALESCE(SUM(CASE WHEN delivered_at IS NULL THEN 0 ELSE 1 END), 0) AS sent"
            " FROM announcements WHERE user_id = ? AND kind IN ('dm', 'digest')", (user_id,))
        assert row is not None  # an aggregate without GROUP BY answers one row
        return row

    async def games(self, user_id: int) -> list[Row]:
        """``id, status`` of every game ``user_id`` plays or played (every server), by id."""
        return await self.store.fetchall(
            "SELECT id, status FROM games WHERE player1_id = ? OR player2_id = ? ORDER BY id",
            (user_id, user_id))

    # ---- deleting ------------------------------------------------------------------------------
    async def delete_name(self, user_id: int) -> int:
        """Remove ``user_id``'s stored display name; rows removed."""
        return await self.store.execute("DELETE FROM player_names WHERE user_id = ?", (user_id,))

    async def delete_settings(self, user_id: int) -> int:
        """Remove ``user_id``'s settings row (the defaults apply again) and the Discord
        locale last seen from them (``seen_locales``); rows removed."""
        removed = await self.store.execute("DELETE FROM user_settings WHERE user_id = ?", (user_id,))
        return removed + await self.store.execute(
            "DELETE FROM seen_locales WHERE scope = 'user' AND subject_id = ?", (user_id,))

    async def delete_conditionals(self, user_id: int) -> int:
        """Remove every conditional line ``user_id`` stored, in any game; rows removed."""
        return await self.store.execute(
            "DELETE FROM conditionals WHERE (seat = 1 AND game_id IN"
            " (SELECT id FROM games WHERE player1_id = ?)) OR (seat = 2 AND game_id IN"
            " (SELECT id FROM games WHERE player2_id = ?))", (user_id, user_id))

    async def delete_ratings(self, user_id: int) -> int:
        """Remove ``user_id``'s ratings in every server and game kind; rows removed. (Each
        finished game's ``rating_changes`` stay with the game.)"""
        return await self.store.execute("DELETE FROM ratings WHERE user_id = ?", (user_id,))

    async def delete_challenges(self, user_id: int) -> int:
        """Remove every challenge naming ``user_id`` that never became a game (open ones,
        and declined, withdrawn or lapsed ones); rows removed."""
        return await self.store.execute(
            "DELETE FROM challenges WHERE (challenger_id = ? OR opponent_id = ?) AND game_id IS NULL",
            (user_id, user_id))

    async def delete_dms(self, user_id: int) -> int:
        """Remove the direct messages and digests to ``user_id`` from the outbox, queued or
        sent (a process posting one finds it gone and marks nothing); rows removed."""
        return await self.store.execute(
            "DELETE FROM announcements WHERE user_id = ? AND kind IN ('dm', 'digest')", (user_id,))

    async def count_notes(self, user_id: int) -> int:
        """How many private notes on games ``user_id`` keeps (issue 23)."""
        row = await self.store.fetchone("SELECT COUNT(*) FROM game_notes WHERE user_id = ?", (user_id,))
        return int(row[0]) if row is not None else 0

    async def delete_notes(self, user_id: int) -> int:
        """Remove every private note of ``user_id`` (issue 23); rows removed."""
        return await self.store.execute("DELETE FROM game_notes WHERE user_id = ?", (user_id,))

    async def delete_analysis_boards(self, user_id: int) -> int:
        """Remove every analysis board of ``user_id`` (issue 23); rows removed."""
        return await self.store.execute("DELETE FROM analysis_sessions WHERE user_id = ?", (user_id,))
