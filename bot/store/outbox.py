"""The announcement outbox (table ``announcements``): posts decided, still to deliver.

A row is written in the transaction of the change it announces, and taken out
(``delivered_at`` set) once posted or given up.
"""

from __future__ import annotations

from .db import Row
from .repo import Repo

__all__ = ["OutboxRepo"]


class OutboxRepo(Repo):
    """Rows of kind ``reminder``, ``timeout``, ``move`` (a board), ``dm``, ``digest`` and
    ``deadline`` (the note of a vacation's new deadline; Alembic revision 0005)."""

    async def add(self, game_id: int, kind: str, user_id: int, ply: int, now: float) -> int:
        """Queue an announcement; returns its id."""
        return await self.store.insert(
            "INSERT INTO announcements (game_id, kind, user_id, ply, created_at) VALUES (?, ?, ?, ?, ?)",
            (game_id, kind, user_id, ply, now),
        )

    async def pending_id(self, game_id: int, kind: str, ply: int) -> int | None:
        """The newest undelivered announcement of ``kind`` for ``game_id`` at ``ply``, if any."""
        row = await self.store.fetchone(
            "SELECT id FROM announcements WHERE game_id = ? AND kind = ? AND ply = ?"
            " AND delivered_at IS NULL ORDER BY id DESC LIMIT 1", (game_id, kind, ply),
        )
        return None if row is None else row["id"]

    async def due(self, created_before: float, limit: int, *, now: float, owner: str) -> list[Row]:
        """Undelivered rows, oldest first: every reminder, timeout and digest, and boards,
        DMs and deadline notes created at or before ``created_before`` -- only those no other
        process holds (inside a transaction): never claimed, their lease over at ``now``, or
        claimed by ``owner``; on PostgreSQL locked ``FOR UPDATE SKIP LOCKED`` so two processes
        claiming at once take different rows (claim them with :meth:`claim`)."""
        sql = ("SELECT * FROM announcements WHERE delivered_at IS NULL"
               " AND (kind NOT IN ('move', 'dm', 'deadline') OR created_at <= ?)"
               " AND (lease_until IS NULL OR lease_until <= ? OR claimed_by = ?) ORDER BY id LIMIT ?")
        if self.store.dialect == "postgresql":
            sql += " FOR UPDATE SKIP LOCKED"
        return await self.store.fetchall(sql, (created_before, now, owner, limit))

    async def claim(self, announcement_ids: list[int], owner: str, lease_until: float) -> None:
        """Claim rows for ``owner`` until ``lease_until`` (Alembic revision 0002)."""
        await self.store.executemany(
            "UPDATE announcements SET claimed_by = ?, lease_until = ? WHERE id = ?",
            [(owner, lease_until, i) for i in announcement_ids])

    async def renew(self, announcement_ids: list[int], owner: str, lease_until: float) -> int:
        """Extend ``owner``'s claim on the undelivered rows among ``announcement_ids`` to
        ``lease_until``; rows another process holds now are left alone. Rows changed."""
        n = 0
        for start in range(0, len(announcement_ids), 500):
            chunk = announcement_ids[start:start + 500]
            n += await self.store.execute(
                "UPDATE announcements SET lease_until = ? WHERE claimed_by = ? AND delivered_at IS NULL"
                f" AND id IN ({', '.join('?' * len(chunk))})", (lease_until, owner, *chunk))
        return n

    async def mark_delivered(self, announcement_id: int, now: float, error: str | None,
                             message_id: int | None = None) -> int:
        """Set ``delivered_at`` (and ``last_error`` when given; ``message_id``, the Discord
        message that delivered it, when given: Alembic revision 0005) unless already set;
        rows changed."""
        if message_id is None:
            return await self.store.execute(
                "UPDATE announcements SET delivered_at = ?, last_error = COALESCE(?, last_error)"
                " WHERE id = ? AND delivered_at IS NULL", (now, error, announcement_id),
            )
        return await self.store.execute(
            "UPDATE announcements SET delivered_at = ?, last_error = COALESCE(?, last_error),"
            " message_id = ? WHERE id = ? AND delivered_at IS NULL",
            (now, error, message_id, announcement_id),
        )

    async def recorded_messages(self, message_ids: list[int]) -> set[int]:
        """Which of the Discord ``message_ids`` delivered an announcement (Alembic revision
        0005)."""
        found: set[int] = set()
        for start in range(0, len(message_ids), 500):
            chunk = message_ids[start:start + 500]
            rows = await self.store.fetchall(
                f"SELECT message_id FROM announcements WHERE message_id IN ({', '.join('?' * len(chunk))})",
                tuple(chunk))
            found.update(int(r["message_id"]) for r in rows)
        return found

    async def exists(self, announcement_id: int) -> bool:
        """Whether announcement ``announcement_id`` was ever queued."""
        row = await self.store.fetchone("SELECT 1 FROM announcements WHERE id = ?", (announcement_id,))
        return row is not None

    async def record_failure(self, announcement_id: int, error: str) -> int | None:
        """Count one failed post (``error`` kept); the failures so far, ``None`` for an unknown id."""
        n = await self.store.execute(
            "UPDATE announcements SET attempts = attempts + 1, last_error = ? WHERE id = ?",
            (error, announcement_id),
        )
        if n != 1:
            return None
        row = await self.store.fetchone("SELECT attempts FROM announcements WHERE id = ?", (announcement_id,))
        assert row is not None  # the row just updated
        return int(row["attempts"])
