"""The announcement outbox: what the bot must still post (boards, DMs, reminders, timeouts).

A row is queued in the transaction of the change it announces, so a process that dies before
posting finds it again; the bot posts it and calls :meth:`OutboxService.mark_delivered`.
Delivery is at least once.
"""

from __future__ import annotations

from .core import DEFAULT_LEASE, ManagerCore, Service
from .errors import NotFound, Refusal
from .settings import SettingsService
from .values import Announcement, Game, MoveRecord, UserSettings

__all__ = ["BOARD_GRACE", "NONCE_WINDOW", "OUTBOX_LEASE", "OutboxService"]

# Seconds a queued board ('move' announcement) waits before the delivery loop may post it: the
# /move (or Accept) handler that made it normally posts it within that time and marks it delivered.
BOARD_GRACE = 60.0
# Seconds a delivery pass holds the rows it took by default (its lease, Alembic revision 0002;
# a manager's ``lease``): another process takes them only after that, so a process that dies
# mid-post leaves them to another. The pass renews it while it posts (renew_announcements).
OUTBOX_LEASE = DEFAULT_LEASE
# Seconds after its row was queued during which a post is trusted to Discord's nonce alone: a
# second post with the same nonce returns the first message "within the past few minutes"
# (Discord's words, no figure). An announcement older than this is looked for among its
# channel's recent messages before it is posted (Announcement.recheck).
NONCE_WINDOW = 120.0


class OutboxService(Service):
    """Queueing announcements (shared: every use case that changes a game queues its
    announcement here, inside its own transaction) and delivering them."""

    def __init__(self, core: ManagerCore, settings: SettingsService):
        super().__init__(core)
        self.settings = settings

    async def announce(self, game: Game, kind: str, user_id: int, now: float) -> int:
        """Queue an announcement of ``kind`` about ``game`` at its ply for ``user_id`` at
        ``now`` (inside the caller's transaction); returns its id."""
        return await self.outbox_repo.add(game.id, kind, user_id, game.ply, now)

    async def announce_turn_dm(self, game: Game, now: float,
                                settings: UserSettings | None = None) -> int | None:
        """Queue the your-turn DM (kind ``"dm"``) to the player to move in ``game`` if they
        turned DMs on (inside the caller's transaction); its id, else ``None``. ``settings``:
        that player's settings when the caller has read them already."""
        uid = game.to_move_user
        if uid is None:
            return None
        if settings is None:
            settings = self.settings.from_row(await self.settings_repo.get(uid), now)
        if not settings.dm:
            return None
        return await self.announce(game, "dm", uid, now)

    async def pending_dm(self, game_id: int, ply: int) -> int | None:
        """The id of the your-turn DM of game ``game_id`` at ply ``ply`` still waiting in the
        outbox, like :meth:`pending_board`; ``None`` when there is none (delivered, given up,
        or the player did not ask for DMs). Raises NotFound for an unknown game."""
        gid = self._id(game_id, "game")
        await self._game_row(gid)
        return await self.outbox_repo.pending_id(gid, "dm", ply)

    async def pending_board(self, game_id: int, ply: int) -> int | None:
        """The id of the board of game ``game_id`` at ply ``ply`` (0: the first board, queued
        on accept) still waiting in the outbox, for :meth:`mark_delivered`; ``None`` when it
        was delivered (or given up) already or never queued. Raises NotFound for an unknown
        game."""
        gid = self._id(game_id, "game")
        await self._game_row(gid)
        return await self.outbox_repo.pending_id(gid, "move", ply)

    async def pending_announcements(self, limit: int = 100, *,
                                    board_grace: float = BOARD_GRACE) -> list[Announcement]:
        """Announcements not yet delivered, oldest first (at most ``limit``), each with its
        game as it is now.

        A board (kind ``"move"``), a your-turn DM (kind ``"dm"``) or a deadline note (kind
        ``"deadline"``) is left out until it is ``board_grace`` seconds old (by the manager's
        clock): until then the /move, Accept or /vacation handler that queued it is still
        expected to post it and mark it, and a delivery pass must not race it.

        Delivery is at least once: the bot posts one, then calls :meth:`mark_delivered`; a
        crash between the two posts it again on the next start -- unless the bot finds the
        first post: an announcement that may have been posted beyond the reach of Discord's
        nonce comes with :attr:`~Announcement.recheck` set (claimed before by a delivery pass,
        a failed post, or older than :data:`NONCE_WINDOW`).

        Each comes with what its post needs, read in one transaction with it: the settings of
        its ``user_id`` (boards, DMs, reminders), the rating changes of a finished rated game
        and the move record of a board or a DM (see :class:`Announcement`).

        Several processes on one database (issue 14): the rows returned are claimed for this
        manager (:attr:`process_id`) for :attr:`lease` seconds, in that transaction,
        committed before this returns (so before any post); rows another process holds are
        left out (on PostgreSQL skipped without waiting, ``FOR UPDATE SKIP LOCKED``) until its
        lease ends.
        """
        now = self.clock()
        out = []
        async with self.store.transaction():  # each announcement and what its post needs, at once
            rows = await self.outbox_repo.due(now - max(0.0, board_grace), max(0, limit),
                                              now=now, owner=self.process_id)
            await self.outbox_repo.claim([r["id"] for r in rows], self.process_id, now + self.lease)
            for r in rows:
                game = self._game(await self._game_row(r["game_id"]))
                settings = (self.settings.from_row(await self.settings_repo.get(r["user_id"]), now)
                            if r["kind"] in ("move", "dm", "reminder", "digest", "deadline") else None)
                changes = ({c["user_id"]: (c["before"], c["after"])
                            for c in await self.ratings_repo.changes(game.id)}
                           if game.status == "finished" and game.rated else {})
                plies = (await self._announced_plies(game.id, r["ply"])
                         if r["kind"] in ("move", "dm") and r["ply"] > 0 else ())
                record = plies[-1] if plies else None
                waiting = (tuple(self._waiting(await self.games_repo.active_of(r["user_id"]), r["user_id"]))
                           if r["kind"] == "digest" else ())
                # posted already, perhaps, and beyond the nonce's reach: the bot looks first
                recheck = (r["claimed_by"] is not None or r["attempts"] > 0
                           or now - r["created_at"] >= NONCE_WINDOW)
                out.append(Announcement(r["id"], r["kind"], game, r["user_id"], r["ply"],
                                        r["created_at"], r["attempts"], settings, changes, record, waiting,
                                        recheck, plies=plies))
        return out

    async def _announced_plies(self, game_id: int, ply: int) -> tuple[MoveRecord, ...]:
        """The moves a board (or DM) at ply ``ply`` of game ``game_id`` announces, in order
        (issue 18): the player's own move and the conditional replies played at once after it,
        the last making ``ply`` (:meth:`bot.store.MoveRepo.answered_run`). ``()`` when the
        move row is missing."""
        rows = await self.moves_repo.answered_run(game_id, ply)
        if not rows or rows[-1]["ply"] != ply:
            return ()
        return tuple(MoveRecord(m["ply"], m["seat"], m["move"], m["played_at"]) for m in rows)

    async def renew_announcements(self, announcement_ids: list[int]) -> int:
        """Extend this manager's claim on the outbox rows ``announcement_ids`` (taken by
        :meth:`pending_announcements`, not yet delivered) to :attr:`lease` seconds from now:
        a delivery pass slowed by Discord's rate limits calls it while it posts, so no other
        process takes its rows meanwhile. Rows delivered already, or held by another process
        (this one's lease lapsed), are left alone. Returns how many were renewed."""
        if not announcement_ids:
            return 0
        return await self.outbox_repo.renew(list(announcement_ids), self.process_id,
                                            self.clock() + self.lease)

    async def mark_delivered(self, announcement_id: int, *, error: str | None = None,
                             message_id: int | None = None) -> bool:
        """Take announcement ``announcement_id`` out of the outbox: posted, or given up
        (then ``error`` says why and is kept in ``last_error``). ``message_id``: the Discord
        message that delivered it, recorded (Alembic revision 0005; see
        :meth:`recorded_messages`).

        Returns ``False`` when it was already delivered. Raises NotFound for an unknown id.
        """
        aid = self._id(announcement_id, "announcement")
        n = await self.outbox_repo.mark_delivered(aid, self.clock(),
                                                  None if error is None else str(error)[:500],
                                                  None if message_id is None else int(message_id))
        if n == 1:
            return True
        if not await self.outbox_repo.exists(aid):
            raise NotFound(Refusal.NO_SUCH_ANNOUNCEMENT, announcement_id=aid)
        return False

    async def recorded_messages(self, message_ids: list[int]) -> set[int]:
        """Which of the Discord ``message_ids`` are recorded as the post of an announcement
        (:meth:`mark_delivered`): such a message is not another announcement's post (issue
        18; the bot's :meth:`~bot.front.delivery.PostPolicy.find_post`). Empty on a file older than
        Alembic revision 0005."""
        if not message_ids:
            return set()
        return await self.outbox_repo.recorded_messages([int(m) for m in message_ids])

    async def record_failed_post(self, announcement_id: int, error: str) -> int:
        """Count one failed post of announcement ``announcement_id`` (``error`` says why; it
        stays pending). Returns the failures so far. Raises NotFound for an unknown id."""
        aid = self._id(announcement_id, "announcement")
        async with self.store.transaction():
            attempts = await self.outbox_repo.record_failure(aid, str(error)[:500])
            if attempts is None:
                raise NotFound(Refusal.NO_SUCH_ANNOUNCEMENT, announcement_id=aid)
        return attempts
