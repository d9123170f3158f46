"""Tournaments and leagues (Alembic revision 0007): tables ``tournaments``,
``tournament_entrants``, ``tournament_pairings``, ``tournament_posts`` (their outbox) and
``server_settings`` (the organiser role).

Exactly once: a round's start is guarded by :meth:`TournamentRepo.advance_round` (``UPDATE
... WHERE current_round = ?``) in the transaction that inserts its pairings (UNIQUE
(tournament, round, board, game_no), UNIQUE (game_id)) and creates its games; a league's next
season by UNIQUE (parent_id). A tournament is claimed for an advance step with a lease, as
the computer's work is (:class:`bot.store.ClaimRepo`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy.exc import IntegrityError

from .db import Row
from .repo import Repo

__all__ = ["Conflict", "TournamentRepo"]


class Conflict(Exception):  # noqa: N818 - named for what happened
    """A unique constraint refused a row (a live name taken; a board, game or season made
    already). Raised inside the caller's transaction, which must end (roll back)."""

_TOURNAMENT = ("SELECT t.*, (SELECT COUNT(*) FROM tournament_entrants e WHERE e.tournament_id = t.id"
               " AND e.status = 'active') AS entrants FROM tournaments t")


class TournamentRepo(Repo):
    """Every statement about tournaments, their entrants, pairings and posts."""

    # ---- server settings -------------------------------------------------------------------
    async def organiser_role(self, guild_id: int) -> int | None:
        """The organiser role of ``guild_id``, ``None`` when not set."""
        row = await self.store.fetchone("SELECT organiser_role_id FROM server_settings WHERE guild_id = ?",
                                        (guild_id,))
        return None if row is None else row["organiser_role_id"]

    async def set_organiser_role(self, guild_id: int, role_id: int | None) -> None:
        """Set (or clear) the organiser role of ``guild_id``."""
        await self.store.execute(
            "INSERT INTO server_settings (guild_id, organiser_role_id) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET organiser_role_id = excluded.organiser_role_id",
            (guild_id, role_id))

    # ---- tournaments -----------------------------------------------------------------------
    async def insert(self, values: dict[str, Any]) -> int:
        """Add a tournament (``values``: column -> value); its id. Raises the database's
        :class:`Conflict` for a live name taken in the server, or a season's second successor."""
        cols = list(values)
        try:
            return await self.store.insert(
                f"INSERT INTO tournaments ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})",
                [values[c] for c in cols])
        except IntegrityError as e:
            raise Conflict(str(e.orig)) from None

    async def get(self, tournament_id: int) -> Row | None:
        """The tournament row (with ``entrants``, the active count), ``None`` if none."""
        return await self.store.fetchone(_TOURNAMENT + " WHERE t.id = ?", (tournament_id,))

    async def live_named(self, guild_id: int, name_key: str) -> Row | None:
        """The live tournament of ``guild_id`` whose case-folded name is ``name_key``."""
        return await self.store.fetchone(
            _TOURNAMENT + " WHERE t.guild_id = ? AND t.name_key = ? AND t.status IN ('signup', 'running')",
            (guild_id, name_key))

    async def named(self, guild_id: int, name_key: str) -> Row | None:
        """The newest tournament of ``guild_id`` named ``name_key`` (case-folded)."""
        return await self.store.fetchone(
            _TOURNAMENT + " WHERE t.guild_id = ? AND t.name_key = ? ORDER BY t.id DESC LIMIT 1",
            (guild_id, name_key))

    async def of_guild(self, guild_id: int, *, live_only: bool, limit: int = 500) -> list[Row]:
        """The tournaments of ``guild_id``: live first, then newest first."""
        live = " AND t.status IN ('signup', 'running')" if live_only else ""
        return await self.store.fetchall(
            _TOURNAMENT + f" WHERE t.guild_id = ?{live} ORDER BY CASE WHEN t.status IN ('signup', 'running')"
            " THEN 0 ELSE 1 END, t.id DESC LIMIT ?", (guild_id, limit))

    async def to_advance(self, now: float) -> list[int]:
        """Ids of the tournaments an advance step may have work in: running ones, and
        sign-ups whose ``starts_at`` passed."""
        rows = await self.store.fetchall(
            "SELECT id FROM tournaments WHERE status = 'running'"
            " OR (status = 'signup' AND starts_at IS NOT NULL AND starts_at <= ?) ORDER BY id", (now,))
        return [r["id"] for r in rows]

    async def set_status(self, tournament_id: int, status: str, *, was: Sequence[str]) -> int:
        """Set the status when it is one of ``was``; rows changed (0 or 1)."""
        marks = ", ".join("?" * len(was))
        return await self.store.execute(
            f"UPDATE tournaments SET status = ? WHERE id = ? AND status IN ({marks})",
            (status, tournament_id, *was))

    async def advance_round(self, tournament_id: int, round_number: int, *, rounds: int | None = None) -> int:
        """Make ``round_number`` the current round (and running), if the current round is
        the one before it: the guard of a round's start. ``rounds`` (Swiss: fixed at the
        start) is stored when given. Rows changed (0: started already)."""
        return await self.store.execute(
            "UPDATE tournaments SET current_round = ?, status = 'running', rounds = COALESCE(?, rounds)"
            " WHERE id = ? AND current_round = ? AND status IN ('signup', 'running')",
            (round_number, rounds, tournament_id, round_number - 1))

    async def claim(self, tournament_id: int, owner: str, now: float, lease_until: float) -> bool:
        """Claim ``tournament_id`` for an advance step (its own transaction, committed when
        this returns): True when nobody else holds it at ``now`` (never claimed, released,
        lease over, or ``owner``'s own); PostgreSQL skips a row another holds (``FOR UPDATE
        SKIP LOCKED``)."""
        sql = ("SELECT id FROM tournaments WHERE id = ?"
               " AND (lease_until IS NULL OR lease_until <= ? OR claimed_by = ?)")
        if self.store.dialect == "postgresql":
            sql += " FOR UPDATE SKIP LOCKED"
        async with self.store.transaction():
            if await self.store.fetchone(sql, (tournament_id, now, owner)) is None:
                return False
            await self.store.execute("UPDATE tournaments SET claimed_by = ?, lease_until = ? WHERE id = ?",
                                     (owner, lease_until, tournament_id))
        return True

    async def release(self, tournament_id: int, owner: str) -> bool:
        """Clear ``owner``'s claim on ``tournament_id``; False when it did not hold it."""
        n = await self.store.execute(
            "UPDATE tournaments SET claimed_by = NULL, lease_until = NULL WHERE id = ? AND claimed_by = ?",
            (tournament_id, owner))
        return n == 1

    async def holder(self, tournament_id: int) -> tuple[str | None, float | None]:
        """``(claimed_by, lease_until)`` of ``tournament_id``."""
        row = await self.store.fetchone("SELECT claimed_by, lease_until FROM tournaments WHERE id = ?",
                                        (tournament_id,))
        return (None, None) if row is None else (row["claimed_by"], row["lease_until"])

    async def child(self, tournament_id: int) -> Row | None:
        """The next season of league season ``tournament_id``, if started."""
        row = await self.store.fetchone("SELECT id FROM tournaments WHERE parent_id = ?", (tournament_id,))
        return None if row is None else await self.get(row["id"])

    # ---- entrants --------------------------------------------------------------------------
    async def entrants(self, tournament_id: int) -> list[Row]:
        """Every entrant (withdrawn too): highest seed rating first, then by joining."""
        return await self.store.fetchall(
            "SELECT * FROM tournament_entrants WHERE tournament_id = ?"
            " ORDER BY seed_rating DESC, joined_at, user_id", (tournament_id,))

    async def entrant(self, tournament_id: int, user_id: int) -> Row | None:
        """One entrant's row."""
        return await self.store.fetchone(
            "SELECT * FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?", (tournament_id, user_id))

    async def add_entrant(self, tournament_id: int, user_id: int, *, rating: float, now: float,
                          computer_level: int | None = None, division: int | None = None) -> int:
        """Add an active entrant unless they are in already; rows added (0 or 1)."""
        return await self.store.execute(
            "INSERT INTO tournament_entrants (tournament_id, user_id, computer_level, seed_rating, status,"
            " division, joined_at) VALUES (?, ?, ?, ?, 'active', ?, ?)"
            " ON CONFLICT (tournament_id, user_id) DO NOTHING",
            (tournament_id, user_id, computer_level, rating, division, now))

    async def remove_entrant(self, tournament_id: int, user_id: int) -> int:
        """Take an entrant out of a field in sign-up; rows removed."""
        return await self.store.execute(
            "DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?", (tournament_id, user_id))

    async def withdraw_entrant(self, tournament_id: int, user_id: int) -> int:
        """Mark an active entrant withdrawn; rows changed (0: not active)."""
        return await self.store.execute(
            "UPDATE tournament_entrants SET status = 'withdrawn' WHERE tournament_id = ? AND user_id = ?"
            " AND status = 'active'", (tournament_id, user_id))

    async def set_seed(self, tournament_id: int, user_id: int, rating: float, division: int | None) -> None:
        """Record an entrant's seed rating and division at the start."""
        await self.store.execute(
            "UPDATE tournament_entrants SET seed_rating = ?, division = ? WHERE tournament_id = ? AND user_id = ?",
            (rating, division, tournament_id, user_id))

    # ---- pairings --------------------------------------------------------------------------
    async def add_pairing(self, tournament_id: int, round_number: int, board: int, seat1: int,
                          seat2: int | None, *, game_no: int = 1, division: int | None = None,
                          game_id: int | None = None, result: str | None = None, forfeit: bool = False) -> int:
        """Insert a pairing; its id. Raises :class:`Conflict` for a board paired already or
        a game given twice (the UNIQUE constraints)."""
        try:
            return await self._insert_pairing(tournament_id, round_number, board, seat1, seat2, game_no,
                                              division, game_id, result, forfeit)
        except IntegrityError as e:
            raise Conflict(str(e.orig)) from None

    async def _insert_pairing(self, tournament_id: int, round_number: int, board: int, seat1: int,
                              seat2: int | None, game_no: int, division: int | None, game_id: int | None,
                              result: str | None, forfeit: bool) -> int:
        return await self.store.insert(
            "INSERT INTO tournament_pairings (tournament_id, round, board, game_no, division, seat1, seat2,"
            " game_id, result, forfeit) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (tournament_id, round_number, board, game_no, division, seat1, seat2, game_id, result,
             int(forfeit)))

    async def pairings(self, tournament_id: int, round_number: int | None = None) -> list[Row]:
        """The pairings of a tournament (of one round when given), by round, board, game."""
        if round_number is None:
            return await self.store.fetchall(
                "SELECT * FROM tournament_pairings WHERE tournament_id = ? ORDER BY round, board, game_no",
                (tournament_id,))
        return await self.store.fetchall(
            "SELECT * FROM tournament_pairings WHERE tournament_id = ? AND round = ? ORDER BY board, game_no",
            (tournament_id, round_number))

    async def set_game(self, pairing_id: int, game_id: int) -> int:
        """Give a scheduled pairing its game, once; rows changed."""
        return await self.store.execute(
            "UPDATE tournament_pairings SET game_id = ? WHERE id = ? AND game_id IS NULL AND result IS NULL",
            (game_id, pairing_id))

    async def set_result(self, pairing_id: int, result: str, *, forfeit: bool = False) -> int:
        """Record a pairing's result, once; rows changed."""
        return await self.store.execute(
            "UPDATE tournament_pairings SET result = ?, forfeit = ? WHERE id = ? AND result IS NULL",
            (result, int(forfeit), pairing_id))

    async def of_game(self, game_id: int) -> Row | None:
        """The pairing of ``game_id`` with its tournament's name and season and format."""
        return await self.store.fetchone(
            "SELECT p.*, t.name, t.season, t.format FROM tournament_pairings p"
            " JOIN tournaments t ON t.id = p.tournament_id WHERE p.game_id = ?", (game_id,))

    async def game_rows(self, tournament_id: int) -> list[Row]:
        """The games of a tournament's pairings (``SELECT games.*``)."""
        return await self.store.fetchall(
            "SELECT g.* FROM games g JOIN tournament_pairings p ON p.game_id = g.id"
            " WHERE p.tournament_id = ? ORDER BY g.id", (tournament_id,))

    # ---- posts (the tournaments' outbox) ---------------------------------------------------
    async def add_post(self, tournament_id: int, kind: str, round_number: int, now: float,
                       user_id: int | None = None) -> int:
        """Queue a tournament post; its id."""
        return await self.store.insert(
            "INSERT INTO tournament_posts (tournament_id, kind, round, user_id, created_at) VALUES (?, ?, ?, ?, ?)",
            (tournament_id, kind, round_number, user_id, now))

    async def due_posts(self, limit: int, *, now: float, owner: str) -> list[Row]:
        """Undelivered posts no other process holds, oldest first (inside a transaction;
        PostgreSQL: ``FOR UPDATE SKIP LOCKED``)."""
        sql = ("SELECT * FROM tournament_posts WHERE delivered_at IS NULL"
               " AND (lease_until IS NULL OR lease_until <= ? OR claimed_by = ?) ORDER BY id LIMIT ?")
        if self.store.dialect == "postgresql":
            sql += " FOR UPDATE SKIP LOCKED"
        return await self.store.fetchall(sql, (now, owner, limit))

    async def claim_posts(self, post_ids: list[int], owner: str, lease_until: float) -> None:
        """Claim posts for ``owner`` until ``lease_until``."""
        await self.store.executemany(
            "UPDATE tournament_posts SET claimed_by = ?, lease_until = ? WHERE id = ?",
            [(owner, lease_until, i) for i in post_ids])

    async def mark_post(self, post_id: int, now: float, error: str | None, message_id: int | None) -> int:
        """Mark a post delivered (or given up), once; rows changed."""
        return await self.store.execute(
            "UPDATE tournament_posts SET delivered_at = ?, last_error = COALESCE(?, last_error),"
            " message_id = COALESCE(?, message_id) WHERE id = ? AND delivered_at IS NULL",
            (now, error, message_id, post_id))

    async def post_failed(self, post_id: int, error: str) -> int | None:
        """Count a failed post; the failures so far, ``None`` for an unknown id."""
        n = await self.store.execute(
            "UPDATE tournament_posts SET attempts = attempts + 1, last_error = ? WHERE id = ?", (error, post_id))
        if n != 1:
            return None
        row = await self.store.fetchone("SELECT attempts FROM tournament_posts WHERE id = ?", (post_id,))
        return None if row is None else int(row["attempts"])

    async def announcement_message(self, tournament_id: int) -> int | None:
        """The message that delivered the tournament's ``"opened"`` post (its announcement),
        ``None`` while not delivered (or given up)."""
        row = await self.store.fetchone(
            "SELECT message_id FROM tournament_posts WHERE tournament_id = ? AND kind = 'opened'"
            " AND message_id IS NOT NULL ORDER BY id LIMIT 1", (tournament_id,))
        return None if row is None else int(row["message_id"])

    async def withdrawn_since(self, tournament_id: int, post_id: int) -> list[int]:
        """The players who withdrew after post ``post_id`` was queued (their ``"withdrawn"``
        posts, queued with the withdrawal, come after it)."""
        rows = await self.store.fetchall(
            "SELECT user_id FROM tournament_posts WHERE tournament_id = ? AND kind = 'withdrawn' AND id > ?"
            " AND user_id IS NOT NULL", (tournament_id, post_id))
        return [int(r["user_id"]) for r in rows]

    async def post_exists(self, post_id: int) -> bool:
        """Whether post ``post_id`` was ever queued."""
        return await self.store.fetchone("SELECT 1 FROM tournament_posts WHERE id = ?", (post_id,)) is not None

    async def posts(self, tournament_id: int) -> list[Row]:
        """Every post of a tournament, in order (tests and the record)."""
        return await self.store.fetchall(
            "SELECT * FROM tournament_posts WHERE tournament_id = ? ORDER BY id", (tournament_id,))
