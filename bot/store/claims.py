"""Claims on the computer opponent's background work (table ``computer_work``, Alembic
revision 0003): which process searches the computer's move in a game, or reviews a finished
game, and until when (its lease).

A claim is taken in a transaction of its own, committed before the work starts: the row is
made if missing, read with the lease condition (``FOR UPDATE SKIP LOCKED`` on PostgreSQL, so
two processes claiming at once never both get it, and neither waits), and updated. The holder
renews it while the work runs and releases it when done.
"""

from __future__ import annotations

from .repo import Repo

__all__ = ["ClaimRepo", "COMPUTER_TASKS"]

#: What ``computer_work.task`` holds: the computer's move in a game, or a game's review.
COMPUTER_TASKS = ("move", "review")


class ClaimRepo(Repo):
    """Rows of ``computer_work``: ``(game_id, task)`` -> ``claimed_by``, ``lease_until``."""

    async def take(self, game_id: int, task: str, owner: str, now: float, lease_until: float) -> bool:
        """Claim ``task`` of game ``game_id`` for ``owner`` until ``lease_until`` when nobody
        else holds it at ``now`` (never claimed, released, its lease over, or ``owner``'s
        own). Runs its own transaction (committed when this returns). Returns whether
        ``owner`` holds it now. Raises ValueError for an unknown ``task``."""
        if task not in COMPUTER_TASKS:
            raise ValueError(f"unknown computer task {task!r}")
        sql = ("SELECT game_id FROM computer_work WHERE game_id = ? AND task = ?"
               " AND (lease_until IS NULL OR lease_until <= ? OR claimed_by = ?)")
        if self.store.dialect == "postgresql":
            sql += " FOR UPDATE SKIP LOCKED"
        async with self.store.transaction():
            await self.store.execute(
                "INSERT INTO computer_work (game_id, task) VALUES (?, ?)"
                " ON CONFLICT (game_id, task) DO NOTHING", (game_id, task))
            if await self.store.fetchone(sql, (game_id, task, now, owner)) is None:
                return False
            await self.store.execute(
                "UPDATE computer_work SET claimed_by = ?, lease_until = ? WHERE game_id = ? AND task = ?",
                (owner, lease_until, game_id, task))
        return True

    async def renew(self, game_id: int, task: str, owner: str, lease_until: float) -> bool:
        """Extend ``owner``'s claim on ``task`` of ``game_id`` to ``lease_until``; False when
        ``owner`` no longer holds it (released, or taken by another after its lease)."""
        n = await self.store.execute(
            "UPDATE computer_work SET lease_until = ? WHERE game_id = ? AND task = ? AND claimed_by = ?",
            (lease_until, game_id, task, owner))
        return n == 1

    async def release(self, game_id: int, task: str, owner: str) -> bool:
        """Clear ``owner``'s claim on ``task`` of ``game_id`` (the work is done or given up);
        False when ``owner`` did not hold it."""
        n = await self.store.execute(
            "UPDATE computer_work SET claimed_by = NULL, lease_until = NULL"
            " WHERE game_id = ? AND task = ? AND claimed_by = ?", (game_id, task, owner))
        return n == 1

    async def holder(self, game_id: int, task: str) -> tuple[str | None, float | None]:
        """``(claimed_by, lease_until)`` of ``task`` of ``game_id`` (``(None, None)``: free)."""
        row = await self.store.fetchone(
            "SELECT claimed_by, lease_until FROM computer_work WHERE game_id = ? AND task = ?",
            (game_id, task))
        return (None, None) if row is None else (row["claimed_by"], row["lease_until"])
