"""Challenges (table ``challenges``): sent, answered, expired, looked up."""

from __future__ import annotations

from typing import Any

from .db import Row
from .repo import Repo

__all__ = ["ChallengeRepo"]


class ChallengeRepo(Repo):
    """The ``challenges`` table. Times are UNIX seconds; ``now`` decides what has expired."""

    async def get(self, challenge_id: int) -> Row | None:
        """The challenge row ``challenge_id``, ``None`` when there is none."""
        return await self.store.fetchone("SELECT * FROM challenges WHERE id = ?", (challenge_id,))

    async def insert(self, *, guild_id: int, channel_id: int, challenger_id: int,
                     opponent_id: int | None, kind: str, options: str, first: str, rated: bool,
                     created_at: float, expires_at: float, days_per_move: int,
                     rematch_of: int | None, clock: str | None = None) -> int:
        """Add an open challenge (``options`` as JSON text); returns its id. ``clock``: its
        time control's stored text (schema version 7; ``None``: the column's default)."""
        if clock is not None:
            return await self.store.insert(
                "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, kind,"
                " options, first, rated, status, created_at, expires_at, days_per_move,"
                " rematch_of, clock) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'open', ?, ?, ?, ?, ?)",
                (guild_id, channel_id, challenger_id, opponent_id, kind, options, first,
                 int(bool(rated)), created_at, expires_at, days_per_move, rematch_of, clock),
            )
        return await self.store.insert(
            "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, kind,"
            " options, first, rated, status, created_at, expires_at, days_per_move,"
            " rematch_of) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'open', ?, ?, ?, ?)",
            (guild_id, channel_id, challenger_id, opponent_id, kind, options, first,
             int(bool(rated)), created_at, expires_at, days_per_move, rematch_of),
        )

    async def count_open_by(self, challenger_id: int, now: float) -> int:
        """Open, unexpired challenges sent by ``challenger_id``."""
        row = await self.store.fetchone(
            "SELECT COUNT(*) FROM challenges WHERE challenger_id = ? AND status = 'open'"
            " AND expires_at > ?", (challenger_id, now),
        )
        assert row is not None  # COUNT(*) answers one row
        return int(row[0])

    async def open_duplicate(self, guild_id: int, challenger_id: int, opponent_id: int | None,
                             kind: str, now: float) -> Row | None:
        """The oldest open challenge from ``challenger_id`` to ``opponent_id`` (``None``: to
        anyone) for ``kind`` in ``guild_id``, else ``None``."""
        return await self.store.fetchone(
            "SELECT * FROM challenges WHERE guild_id = ? AND challenger_id = ? AND opponent_id IS NOT DISTINCT FROM ?"
            " AND kind = ? AND status = 'open' AND expires_at > ? ORDER BY id LIMIT 1",
            (guild_id, challenger_id, opponent_id, kind, now),
        )

    async def set_message(self, challenge_id: int, message_id: int) -> int:
        """Record the Discord message showing the challenge; rows changed (0: no such one)."""
        return await self.store.execute(
            "UPDATE challenges SET message_id = ? WHERE id = ?", (message_id, challenge_id)
        )

    async def accept(self, challenge_id: int, game_id: int, opponent_id: int, now: float) -> int:
        """Mark the challenge accepted by ``opponent_id`` with its new game, if it is still open
        and unexpired at ``now``; rows changed (0: answered meanwhile)."""
        return await self.store.execute(
            "UPDATE challenges SET status = 'accepted', game_id = ?, opponent_id = ?"
            " WHERE id = ? AND status = 'open' AND expires_at > ?",
            (game_id, opponent_id, challenge_id, now),
        )

    async def answer(self, challenge_id: int, status: str, now: float) -> int:
        """Set ``status`` (declined, cancelled) on a challenge still open at ``now``; rows
        changed (0: answered meanwhile)."""
        return await self.store.execute(
            "UPDATE challenges SET status = ? WHERE id = ? AND status = 'open' AND expires_at > ?",
            (status, challenge_id, now),
        )

    async def expire_due(self, now: float) -> list[int]:
        """Mark every open challenge past its expiry at ``now`` expired; their ids."""
        rows = await self.store.fetchall(
            "SELECT id FROM challenges WHERE status = 'open' AND expires_at <= ?", (now,)
        )
        ids = [r["id"] for r in rows]
        await self.store.executemany(
            "UPDATE challenges SET status = 'expired' WHERE id = ? AND status = 'open'",
            [(i,) for i in ids],
        )
        return ids

    async def open_for(self, user_id: int, now: float) -> list[Row]:
        """Open, unexpired challenges sent by or to ``user_id``, oldest first."""
        return await self.store.fetchall(
            "SELECT * FROM challenges WHERE status = 'open' AND expires_at > ?"
            " AND (challenger_id = ? OR opponent_id = ?) ORDER BY id",
            (now, user_id, user_id),
        )

    async def open_rematch(self, game_id: int, now: float) -> Row | None:
        """The open, unexpired rematch offer of game ``game_id``, if any."""
        return await self.store.fetchone(
            "SELECT * FROM challenges WHERE rematch_of = ? AND status = 'open' AND expires_at > ?",
            (game_id, now),
        )

    async def accepted_rematch_game(self, game_id: int) -> Any:
        """The id of the game an accepted rematch of ``game_id`` started, else ``None``."""
        row = await self.store.fetchone(
            "SELECT game_id FROM challenges WHERE rematch_of = ? AND status = 'accepted'"
            " AND game_id IS NOT NULL ORDER BY id DESC LIMIT 1", (game_id,),
        )
        return None if row is None else row["game_id"]
