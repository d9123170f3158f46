"""Games and their move lists (tables ``games`` and ``moves``).

Every write that changes a running game is guarded by its version: ``WHERE id = ? AND ply = ?
AND status = 'active'``, so of two racing writers exactly one changes the row (the methods
return the rows changed, 0 or 1).
"""

from __future__ import annotations

from typing import Any

from .db import Row
from .repo import Repo

__all__ = ["GameRepo", "MoveRepo"]


class GameRepo(Repo):
    """The ``games`` table: one row per game, its position cache, clock and result."""

    async def get(self, game_id: int, *, for_update: bool = False) -> Row | None:
        """The game row ``game_id``, ``None`` when there is none. ``for_update`` (inside a
        transaction): the row is locked until the transaction ends (``SELECT ... FOR
        UPDATE`` on PostgreSQL; SQLite's ``BEGIN IMMEDIATE`` already holds the whole file)."""
        if for_update and self.store.dialect == "postgresql":
            return await self.store.fetchone("SELECT * FROM games WHERE id = ? FOR UPDATE", (game_id,))
        return await self.store.fetchone("SELECT * FROM games WHERE id = ?", (game_id,))

    async def claim(self, game_id: int, ply: int) -> bool:
        """Inside a transaction: lock the row of ``game_id`` if it is still running at ``ply``
        and no other transaction holds it (``FOR UPDATE SKIP LOCKED`` on PostgreSQL, so a
        process sweeping the clocks passes over a game another process is moving or settling,
        without waiting; on SQLite ``BEGIN IMMEDIATE`` already holds the file). Whether it
        was claimed."""
        sql = "SELECT id FROM games WHERE id = ? AND ply = ? AND status = 'active'"
        if self.store.dialect == "postgresql":
            sql += " FOR UPDATE SKIP LOCKED"
        return await self.store.fetchone(sql, (game_id, ply)) is not None

    async def claim_row(self, game_id: int, ply: int) -> Row | None:
        """:meth:`claim`, returning the game's row as stored now (``None``: not claimed) --
        one statement where a claim and a read would be two."""
        sql = "SELECT * FROM games WHERE id = ? AND ply = ? AND status = 'active'"
        if self.store.dialect == "postgresql":
            sql += " FOR UPDATE SKIP LOCKED"
        return await self.store.fetchone(sql, (game_id, ply))

    async def insert(self, *, guild_id: int, channel_id: int, kind: str, options: str,
                     player1_id: int, player2_id: int, position_text: str, rated: bool,
                     now: float, challenge_id: int, days_per_move: int, deadline: float | None,
                     clock: str | None = None, bank: float | None = None,
                     ai_seat: int | None = None, ai_level: int | None = None) -> int:
        """Add a running game at ply 0 (``options`` as JSON text); returns its id. ``clock``
        and ``bank`` (schema version 7): the time control's stored text and each player's
        bank at the start, in seconds. ``ai_seat``/``ai_level`` (version 8): the seat the
        computer plays and its level (None: two people)."""
        # columns of later versions only when set: a game of two people with a default clock
        # is written the same way as before them
        columns = ["guild_id", "channel_id", "kind", "options", "player1_id", "player2_id",
                   "position_text", "rated", "created_at", "updated_at", "challenge_id",
                   "days_per_move", "deadline"]
        values = [guild_id, channel_id, kind, options, player1_id, player2_id, position_text,
                  int(bool(rated)), now, now, challenge_id, days_per_move, deadline]
        if clock is not None:
            columns += ["clock", "bank1", "bank2"]
            values += [clock, bank, bank]
        if ai_seat is not None:
            columns += ["ai_seat", "ai_level"]
            values += [ai_seat, ai_level]
        return await self.store.insert(
            f"INSERT INTO games (status, ply, {', '.join(columns)})"
            f" VALUES ('active', 0, {', '.join('?' * len(values))})", values)

    async def computer_games(self) -> list[Row]:
        """Running games against the computer (``ai_seat`` set), oldest first."""
        return await self.store.fetchall(
            "SELECT * FROM games WHERE status = 'active' AND ai_seat IS NOT NULL ORDER BY id")

    async def computer_records(self, user_id: int, guild_id: int | None = None) -> list[Row]:
        """``user_id``'s finished games against the computer by level (in ``guild_id`` if
        given): rows of ``ai_level``, ``as_computer`` (1: ``user_id`` is the computer itself,
        these are its own results; 0: a person's record against it), ``wins``, ``losses``,
        ``draws`` -- each from ``user_id``'s seat (aborted games left out)."""
        where, params = ("", (user_id,) * 3) if guild_id is None else (
            " AND guild_id = ?", (*(user_id,) * 3, guild_id))
        return await self.store.fetchall(
            "SELECT ai_level, CASE WHEN ai_seat = seat THEN 1 ELSE 0 END AS as_computer,"
            " SUM(CASE WHEN winner = seat THEN 1 ELSE 0 END) AS wins,"
            " SUM(CASE WHEN winner IS NOT NULL AND winner <> seat THEN 1 ELSE 0 END) AS losses,"
            " SUM(CASE WHEN winner IS NULL THEN 1 ELSE 0 END) AS draws"
            " FROM (SELECT ai_level, ai_seat, winner, CASE WHEN player1_id = ? THEN 1 ELSE 2 END AS seat"
            " FROM games WHERE status = 'finished' AND ai_seat IS NOT NULL"
            " AND (player1_id = ? OR player2_id = ?)" + where + ") AS finished"
            " GROUP BY ai_level, CASE WHEN ai_seat = seat THEN 1 ELSE 0 END"
            " ORDER BY as_computer, ai_level", params)

    async def get_review(self, game_id: int) -> str | None:
        """The cached review of ``game_id`` (JSON text), or None."""
        row = await self.store.fetchone("SELECT review FROM reviews WHERE game_id = ?", (game_id,))
        return None if row is None else row[0]

    async def put_review(self, game_id: int, review: str, now: float) -> None:
        """Cache the review of ``game_id`` (JSON text), replacing any older one."""
        await self.store.execute(
            "INSERT INTO reviews (game_id, review, created_at) VALUES (?, ?, ?) ON CONFLICT (game_id)"
            " DO UPDATE SET review = excluded.review, created_at = excluded.created_at",
            (game_id, review, now))

    async def count_active_of(self, user_id: int) -> int:
        """Games in progress that ``user_id`` plays."""
        row = await self.store.fetchone(
            "SELECT COUNT(*) FROM games WHERE status = 'active' AND (player1_id = ? OR player2_id = ?)",
            (user_id, user_id),
        )
        assert row is not None  # COUNT(*) answers one row
        return int(row[0])

    async def set_thread(self, game_id: int, thread_id: int | None) -> int:
        """Record where the game's boards go (settles ``thread_wanted``); rows changed."""
        return await self.store.execute(
            "UPDATE games SET thread_id = ?, thread_wanted = 0 WHERE id = ?", (thread_id, game_id)
        )

    async def update_after_move(self, game_id: int, old_ply: int, *, ply: int, position_text: str,
                                now: float, deadline: float | None,
                                banks: tuple[float, float]) -> int:
        """A move that leaves the game running: new ply, position, deadline and both players'
        ``banks`` in seconds, if the row is still at ``old_ply``; rows changed."""
        return await self.store.execute(
            "UPDATE games SET ply = ?, position_text = ?, updated_at = ?, deadline = ?,"
            " bank1 = ?, bank2 = ? WHERE id = ? AND ply = ? AND status = 'active'",
            (ply, position_text, now, deadline, banks[0], banks[1], game_id, old_ply),
        )

    async def finish_after_move(self, game_id: int, old_ply: int, *, ply: int, position_text: str,
                                now: float, winner: int | None, reason: str) -> int:
        """A move that ends the game (winner seat or ``None`` for a draw), if the row is still
        at ``old_ply``; rows changed."""
        return await self.store.execute(
            "UPDATE games SET ply = ?, position_text = ?, updated_at = ?,"
            " deadline = NULL, status = 'finished', winner = ?, reason = ?,"
            " finished_at = ? WHERE id = ? AND ply = ? AND status = 'active'",
            (ply, position_text, now, winner, reason, now, game_id, old_ply),
        )

    async def finish(self, game_id: int, ply: int, *, position_text: str, winner: int | None,
                     reason: str, now: float) -> int:
        """End the game without a move (resignation, timeout), if still at ``ply``; rows changed."""
        return await self.store.execute(
            "UPDATE games SET status = 'finished', position_text = ?, winner = ?, reason = ?,"
            " finished_at = ?, updated_at = ?, deadline = NULL"
            " WHERE id = ? AND ply = ? AND status = 'active'",
            (position_text, winner, reason, now, now, game_id, ply),
        )

    async def abort(self, game_id: int, moderator_id: int, now: float) -> int:
        """End a running game without a result; rows changed."""
        return await self.store.execute(
            "UPDATE games SET status = 'aborted', winner = NULL, reason = 'aborted',"
            " aborted_by = ?, finished_at = ?, updated_at = ?, deadline = NULL"
            " WHERE id = ? AND status = 'active'",
            (moderator_id, now, now, game_id),
        )

    async def set_conditional_ply(self, game_id: int, ply: int) -> int:
        """Note that the move that made ``ply`` was played from a conditional move (schema
        version 7); rows changed."""
        return await self.store.execute(
            "UPDATE games SET conditional_ply = ? WHERE id = ?", (ply, game_id))

    async def mark_reminded(self, game_id: int, ply: int) -> int:
        """Note that the reminder of the turn at ``ply`` went out, unless it already did or the
        game moved on; rows changed."""
        return await self.store.execute(
            "UPDATE games SET reminded_ply = ply WHERE id = ? AND ply = ? AND status = 'active'"
            " AND (reminded_ply IS NULL OR reminded_ply <> ply)",
            (game_id, ply),
        )

    async def set_deadline(self, game_id: int, ply: int, deadline: float) -> int:
        """Move the deadline of the turn at ``ply`` of a running game; rows changed."""
        return await self.store.execute(
            "UPDATE games SET deadline = ? WHERE id = ? AND ply = ? AND status = 'active'",
            (deadline, game_id, ply),
        )

    async def active_of(self, user_id: int, guild_id: int | None = None) -> list[Row]:
        """Games in progress that ``user_id`` plays (in ``guild_id`` if given), oldest first."""
        sql = "SELECT * FROM games WHERE status = 'active' AND (player1_id = ? OR player2_id = ?)"
        params: list[Any] = [user_id, user_id]
        if guild_id is not None:
            sql += " AND guild_id = ?"
            params.append(guild_id)
        return await self.store.fetchall(sql + " ORDER BY id", params)

    async def finished_of(self, user_id: int, guild_id: int | None, limit: int) -> list[Row]:
        """The latest ``limit`` finished or aborted games of ``user_id``, newest first."""
        sql = "SELECT * FROM games WHERE status <> 'active' AND (player1_id = ? OR player2_id = ?)"
        params: list[Any] = [user_id, user_id]
        if guild_id is not None:
            sql += " AND guild_id = ?"
            params.append(guild_id)
        return await self.store.fetchall(sql + " ORDER BY id DESC LIMIT ?", [*params, limit])

    async def reviewable_in_server(self, guild_id: int, limit: int) -> list[Row]:
        """The latest ``limit`` games of ``guild_id`` that are over (finished or aborted)
        after at least one move -- those /review can chart -- newest first."""
        return await self.store.fetchall(
            "SELECT * FROM games WHERE status <> 'active' AND ply > 0 AND guild_id = ?"
            " ORDER BY id DESC LIMIT ?", (guild_id, limit))

    async def active_in_server(self, guild_id: int, *, by_last_move: bool = False) -> list[Row]:
        """Games in progress in ``guild_id``: newest first, or the most recently moved first
        when ``by_last_move``."""
        order = "updated_at DESC, id DESC" if by_last_move else "id DESC"
        return await self.store.fetchall(
            f"SELECT * FROM games WHERE status = 'active' AND guild_id = ? ORDER BY {order}",
            (guild_id,),
        )

    async def posted_in(self, channel_id: int) -> list[Row]:
        """Games whose boards go to ``channel_id`` (their thread, or the channel of a game
        without one), running ones first, then newest first."""
        return await self.store.fetchall(
            "SELECT * FROM games WHERE thread_id = ? OR (thread_id IS NULL AND channel_id = ?)"
            " ORDER BY status = 'active' DESC, id DESC",
            (channel_id, channel_id),
        )

    async def due_by(self, t: float) -> list[Row]:
        """Running games whose deadline is at or before ``t``, the earliest first."""
        return await self.store.fetchall(
            "SELECT * FROM games WHERE status = 'active' AND deadline IS NOT NULL"
            " AND deadline <= ? ORDER BY deadline", (t,),
        )

    async def running_with_deadline_after(self, user_id: int, now: float) -> list[Row]:
        """Running games of ``user_id`` whose deadline is after ``now``."""
        return await self.store.fetchall(
            "SELECT * FROM games WHERE status = 'active' AND deadline > ?"
            " AND (player1_id = ? OR player2_id = ?)", (now, user_id, user_id),
        )

    async def results_of(self, guild_id: int, user_id: int) -> list[Row]:
        """``kind``, ``winner`` and ``player1_id`` of every finished game of ``user_id`` in
        ``guild_id``."""
        return await self.store.fetchall(
            "SELECT kind, winner, player1_id FROM games WHERE guild_id = ? AND status = 'finished'"
            " AND (player1_id = ? OR player2_id = ?)", (guild_id, user_id, user_id),
        )


class MoveRepo(Repo):
    """The ``moves`` table: the record of truth, one row per ply."""

    async def add(self, game_id: int, ply: int, seat: int, move: str, played_at: float,
                  *, conditional: bool = False) -> None:
        """Append the move that made ply ``ply`` (canonical text) by ``seat``;
        ``conditional``: played from a conditional move (schema version 7)."""
        if conditional:
            await self.store.execute(
                "INSERT INTO moves (game_id, ply, seat, move, played_at, conditional)"
                " VALUES (?, ?, ?, ?, ?, 1)", (game_id, ply, seat, move, played_at))
            return
        await self.store.execute(
            "INSERT INTO moves (game_id, ply, seat, move, played_at) VALUES (?, ?, ?, ?, ?)",
            (game_id, ply, seat, move, played_at),
        )

    async def of_game(self, game_id: int) -> list[Row]:
        """``ply, seat, move, played_at`` of every move of ``game_id`` in order."""
        return await self.store.fetchall(
            "SELECT ply, seat, move, played_at FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
        )

    async def at(self, game_id: int, ply: int) -> Row | None:
        """The move that made ply ``ply`` of ``game_id``, ``None`` when there is none."""
        return await self.store.fetchone(
            "SELECT ply, seat, move, played_at FROM moves WHERE game_id = ? AND ply = ?", (game_id, ply)
        )

    async def answered_run(self, game_id: int, ply: int) -> list[Row]:
        """``ply, seat, move, played_at`` of the moves that led to ply ``ply`` of ``game_id``
        in one go, in order (issue 18): the last move at or before ``ply`` not played from a
        conditional move, and the conditional replies after it up to ``ply``. ``[]`` when
        the game has no such move. Schema version 7 (the ``conditional`` column)."""
        return await self.store.fetchall(
            "SELECT ply, seat, move, played_at FROM moves WHERE game_id = ? AND ply <= ? AND ply >="
            " (SELECT MAX(ply) FROM moves WHERE game_id = ? AND ply <= ? AND conditional = 0)"
            " ORDER BY ply", (game_id, ply, game_id, ply)
        )
