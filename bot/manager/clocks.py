"""Clocks of correspondence play: deadlines, the sweep (reminders and losses on time) and
vacations, which pause a player's clocks.

Each reminder or timeout is queued in the outbox in the transaction that makes it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
from collections.abc import Awaitable, Callable
from typing import cast

import engine  # noqa: TC002 - in the signatures

from ..store.db import Row
from .core import DAY, HOUR, ManagerCore, Service
from .endings import EndingsService
from .errors import LimitReached, Refusal, UserError
from .outbox import OutboxService
from .settings import SettingsService
from .turns import TurnsService
from .values import ClockEvent, Game, UserSettings, VacationChange

__all__ = ["ClocksService"]

log = logging.getLogger(__name__)

# Games settled (or reminded) per transaction by a sweep: one commit for each batch.
SWEEP_BATCH = 50


class ClocksService(Service):
    """The clocks: the sweep (reminders, losses on time, the daily digests) and vacations.
    Uses the shared settings, outbox and endings services, and the turns service for the
    digests."""

    def __init__(self, core: ManagerCore, settings: SettingsService, outbox: OutboxService,
                 endings: EndingsService, turns: TurnsService):
        super().__init__(core)
        self.settings = settings
        self.outbox = outbox
        self.endings = endings
        self.turns = turns

    @staticmethod
    def reminder_window(days_per_move: int) -> float:
        """Seconds before the deadline when the reminder goes out: 24 hours, or a quarter of
        the time per move if that is less."""
        return min(DAY, days_per_move * DAY / 4)

    async def sweep(self, now: float | None = None) -> list[ClockEvent]:
        """Check every running clock at ``now`` (default ``clock()``).

        * A game past its deadline ends: the player to move loses on time
          (``position.time_out``), ratings updated in the same transaction -- exactly once,
          however many sweeps or processes run.
        * A game within its clock's reminder window of its deadline gets one reminder per turn
          (marked in the database before it is returned): 24 hours, or a quarter of the
          turn's time (the bank the turn started with) when that is less
          (:meth:`bot.rules.timecontrol.TimeControl.reminder_window`).

        Each event is written to the outbox in the transaction that makes it, so its
        announcement survives a crash before the post: the bot posts
        :meth:`pending_announcements` and then calls :meth:`mark_delivered`.

        The daily digests whose hour has come are queued too (:mod:`.turns`; not events).

        Returns the events made by this call (each once, also across processes). Games are
        settled :data:`SWEEP_BATCH` to a transaction, reminders likewise. Problems with one
        game are logged and do not stop the sweep.
        """
        now = self.clock() if now is None else now
        rows = await self.games_repo.due_by(now + DAY)
        late: list[Game] = []
        remind: list[Game] = []
        for row in rows:
            try:
                game = self._game(row)
                if cast(float, game.deadline) <= now:  # due_by: every game has a deadline
                    late.append(game)
                elif (
                    cast(float, game.deadline) - now <= game.time_control.reminder_window(
                        game.bank(cast(int, game.position.to_move)))
                    and row["reminded_ply"] != game.ply
                ):
                    remind.append(game)
            except Exception:  # noqa: BLE001 - one bad game must not stop the clocks
                log.exception("sweep failed for game %s", row["id"])
        events: list[ClockEvent] = []
        for k in range(0, len(late), SWEEP_BATCH):
            events += await self._time_out_batch(late[k:k + SWEEP_BATCH], now)
        for k in range(0, len(remind), SWEEP_BATCH):
            events += await self._remind_batch(remind[k:k + SWEEP_BATCH], now)
        try:  # issue 13: the daily digests whose hour has come (not clock events)
            await self.turns.queue_digests(now)
        except Exception:  # noqa: BLE001 - the digests must not stop the clocks
            log.exception("queueing the daily digests failed")
        return events

    async def _time_out(self, game_id: int, now: float) -> ClockEvent | None:
        async with self._lock(game_id):
            game = self._game(await self._game_row(game_id))
            if game.status != "active" or game.deadline is None or game.deadline > now:
                return None
            seat = cast(int, game.position.to_move)  # running: a seat is to move
            loser = game.players[seat]
            done = await self.endings.finish(game, game.position.time_out(seat), now,
                                      announce=("timeout", loser), claim=True)
            return None if done is None else ClockEvent("timeout", done[0], loser)

    async def _time_out_in_transaction(
            self, game: Game, now: float,
    ) -> tuple[Game, engine.Position, Row, dict[int, tuple[float, float]], int] | None:
        """Inside the caller's transaction: settle ``game`` (as read by the sweep) lost on
        time if it is still running at that ply, held by no other transaction and past its
        deadline as stored now. Returns ``(position, row, changes, loser)`` for
        :meth:`EndingsService.finished`, or ``None``."""
        row = await self.games_repo.claim_row(game.id, game.ply)
        if row is None:
            return None  # moved on, or held by another transaction (a move, another sweep)
        game = self._game(row)  # the deadline as stored now (a vacation may have moved it)
        if game.deadline is None or game.deadline > now:
            return None
        seat = cast(int, game.position.to_move)  # running: a seat is to move
        loser = game.players[seat]
        final = game.position.time_out(seat)
        done = await self.endings.finish_in_transaction(game, final, now, announce=("timeout", loser))
        return None if done is None else (game, final, *done, loser)

    async def _time_out_batch(self, games: list[Game], now: float) -> list[ClockEvent]:
        """Settle the games of ``games`` past their deadline in one transaction (one commit
        for the batch, the cost of a sweep at scale); each game's lock is held meanwhile
        (taken in id order, before the transaction, as a move takes it). If the batch fails,
        each game is tried alone, and a failing one is logged and left for the next sweep."""
        settled = []
        try:
            async with contextlib.AsyncExitStack() as locks:
                for game in sorted(games, key=lambda g: g.id):
                    await locks.enter_async_context(self._lock(game.id))
                async with self.store.transaction():
                    for game in games:
                        done = await self._time_out_in_transaction(game, now)
                        if done is not None:
                            settled.append(done)
        except Exception:  # noqa: BLE001 - then one at a time
            log.warning("sweeping %d games at once failed; one at a time", len(games), exc_info=True)
            return await self._one_at_a_time(games, lambda g: self._time_out(g.id, now))
        return [ClockEvent("timeout", self.endings.finished(game, final, row, changes)[0], loser)
                for game, final, row, changes, loser in settled]

    async def _remind_batch(self, games: list[Game], now: float) -> list[ClockEvent]:
        """Remind the players to move in ``games`` in one transaction; if it fails, each
        game alone (:meth:`_remind`), a failing one logged and left for the next sweep."""
        try:
            async with self.store.transaction():
                return [e for game in games if (e := await self._remind_in_transaction(game, now))]
        except Exception:  # noqa: BLE001 - then one at a time
            log.warning("reminding %d games at once failed; one at a time", len(games), exc_info=True)
        return await self._one_at_a_time(games, lambda g: self._remind(g, now))

    @staticmethod
    async def _one_at_a_time(games: list[Game],
                             step: Callable[[Game], Awaitable[ClockEvent | None]]) -> list[ClockEvent]:
        """The fallback of a failed batch: ``await step(game)`` for each of ``games`` in its
        own transaction; the events it returned (``None`` skipped). A failing game is logged
        and left for the next sweep."""
        events: list[ClockEvent] = []
        for game in games:
            try:
                event = await step(game)
            except Exception:  # noqa: BLE001 - one bad game must not stop the clocks
                log.exception("sweep failed for game %s", game.id)
                continue
            if event is not None:
                events.append(event)
        return events

    async def _remind(self, game: Game, now: float) -> ClockEvent | None:
        async with self.store.transaction():
            return await self._remind_in_transaction(game, now)

    async def _remind_in_transaction(self, game: Game, now: float) -> ClockEvent | None:
        if not await self.games_repo.claim(game.id, game.ply):
            return None  # moved on, or held by another transaction (a move, another sweep)
        if await self.games_repo.mark_reminded(game.id, game.ply) != 1:
            return None
        to_move_user = cast(int, game.to_move_user)  # claimed at its ply: still running
        await self.outbox.announce(game, "reminder", to_move_user, now)
        return ClockEvent("reminder", game, to_move_user)

    async def set_vacation(self, user_id: int, days: int) -> UserSettings:
        """``user_id``'s settings after :meth:`vacation` (which see)."""
        return (await self.vacation(user_id, days)).settings

    async def vacation(self, user_id: int, days: int) -> VacationChange:
        """Start (or extend) a vacation of ``days`` days for ``user_id``; ``days=0`` ends a
        running vacation now and gives back the unused days.

        While on vacation the user's clocks are paused: the deadline of each game where it is
        their turn moves later by the vacation, and a turn that starts during it gets the
        rest of the vacation added. The allowance is ``limits.vacation_days`` per calendar
        year (UTC), counted by the hour: ending a vacation gives back its unused whole hours,
        so the time used is charged rounded up to the hour (ending it seconds after starting
        costs one hour, not a day). Days are asked for whole; a request for more than is left
        is granted when only part of its last day is missing, and then lasts what is left
        (13 days 23 hours for ``days=14``). Raises :class:`UserError` for a bad number or when
        ending a vacation that is not running, and :class:`LimitReached` when the allowance
        does not cover ``days``.

        Returns the settings before and after and the games whose deadline moved (where it is
        ``user_id``'s move), as now stored (:class:`VacationChange`), read in the transaction.
        Each of those games gets a note with its new deadline queued in the outbox (kind
        ``"deadline"``), in the same transaction: posted by the /vacation handler, or else by
        the delivery pass.
        """
        if isinstance(days, bool) or not isinstance(days, int | float) or days < 0 or days != days:
            raise UserError(Refusal.BAD_VACATION_DAYS)
        now = self.clock()
        year = self.settings.year(now)
        async with self.store.transaction():
            current = self.settings.from_row(await self.settings_repo.get(user_id), now)
            used = self.limits.vacation_days - current.vacation_left_days
            until = current.vacation_until
            if days == 0:
                if until is None:
                    raise UserError(Refusal.NOT_ON_VACATION)
                shift = -(until - now)
                unused_hours = int((until - now) / HOUR + 1e-6)  # a started hour counts whole
                used = max(0.0, used - unused_hours * HOUR / DAY)
                new_until = None
            else:
                left_hours = round(current.vacation_left_days * 24)
                if days * 24 - left_hours >= 24 or left_hours < 1:
                    if left_hours < 1:
                        raise LimitReached(Refusal.VACATION_USED_UP, allowance=self.limits.vacation_days)
                    raise LimitReached(Refusal.VACATION_SHORT, left_days=left_hours / 24, days=days,
                                       most=-(-left_hours // 24))
                hours = min(days * 24, left_hours)  # the last day may be cut short
                shift = hours * HOUR
                used += hours / 24
                new_until = (until if until is not None else now) + shift
            await self.settings_repo.set_vacation(user_id, new_until, year, used)
            moved, notes = [], []
            for r in await self.games_repo.running_with_deadline_after(user_id, now):
                game = self._game(r)
                if game.to_move_user == user_id:
                    # Never before now: ending a vacation must not time anyone out at once
                    # for time that passed while paused.
                    deadline = max(cast(float, game.deadline) + shift, now + 60.0) if shift < 0 else cast(float, game.deadline) + shift  # running_with_deadline_after: set
                    await self.games_repo.set_deadline(game.id, game.ply, deadline)
                    moved.append(dataclasses.replace(game, deadline=deadline))
                    # its note with the new deadline, in the outbox (kind 'deadline', revision 0005)
                    notes.append(await self.outbox.announce(moved[-1], "deadline", user_id, now))
            row = await self.settings_repo.get(user_id)
        return VacationChange(user_id, current, self.settings.from_row(row, now), tuple(moved), tuple(notes))

