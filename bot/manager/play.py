"""Play: moves, resignation and a moderator's abort -- the writes that change a game.

A move is validated by the engine, then its move row, the game row (guarded by its ply, the
version) and, when it ends a rated game, the ratings are one transaction, committed before
:meth:`PlayService.play_move` returns; the board and the your-turn DM are queued in the same
transaction. Moves on one game are serialised by a per-game lock; of two racing moves (also
from another process on the same file) exactly one applies, the other gets
:class:`~bot.manager.errors.NotYourTurn`.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping
from typing import cast

import engine

from ..rules import conditionals
from .core import ManagerCore, Service
from .endings import EndingsService
from .errors import (
    InvalidMove,
    NotAllowed,
    NotFound,
    NotYourTurn,
    Refusal,
    StaleAction,
    game_over_error,
)
from .lookup import LookupService
from .outbox import OutboxService
from .ratings import RatingsService
from .settings import SettingsService
from .values import Game, GameEnd, MovePlan, MovePreview, MoveRecord, MoveResult, UserSettings

__all__ = ["MovePlan", "PlayService"]

log = logging.getLogger(__name__)


class _ConfirmFirst(Exception):  # noqa: N818 - a signal, not an error
    """Raised inside :meth:`PlayService.play_move`'s transaction (so nothing is written) when
    the mover asked to confirm their moves; carries the :class:`MovePreview`."""

    def __init__(self, preview: MovePreview):
        super().__init__("the mover confirms moves first")
        self.preview = preview


class PlayService(Service):
    """Moves (with the conditional replies they trigger), resignations and aborts: the
    writes that change a running game. Uses the shared settings, outbox, ratings, endings
    and look-up services."""

    def __init__(self, core: ManagerCore, settings: SettingsService, outbox: OutboxService,
                 ratings: RatingsService, endings: EndingsService, lookup: LookupService):
        super().__init__(core)
        self.settings = settings
        self.outbox = outbox
        self.ratings = ratings
        self.endings = endings
        self.lookup = lookup

    async def set_game_thread(self, game_id: int, thread_id: int | None) -> Game:
        """Remember the thread where the game's boards are posted (``None``: none, they go to
        the channel), which settles ``thread_wanted``. Returns the game as now stored.
        Raises NotFound."""
        gid = self._id(game_id, "game")
        async with self.store.transaction():
            if await self.games_repo.set_thread(gid, thread_id) != 1:
                raise NotFound(Refusal.NO_SUCH_GAME, game_id=gid)
            return self._game(await self._game_row(gid))

    async def play(self, user_id: int, move_text: str, *, game_id: int | None = None,
                   channel_id: int | None = None, guild_id: int | None = None,
                   confirm: bool = False, expected_ply: int | None = None) -> MoveResult | MovePreview:
        """/move in one call: the game meant (:meth:`resolve_game`: ``game_id`` as seen from
        server ``guild_id``, else the user's game in ``channel_id``, else their only fitting
        game), then :meth:`play_move` there. With ``confirm`` and the mover's move
        confirmation on (issue 13, /settings confirm), nothing is played: the
        :class:`MovePreview` of the checked move is returned for the player to confirm.
        ``expected_ply``: as :meth:`play_move`'s (the Confirm button). Raises as those two do."""
        game = await self.lookup.resolve_game(user_id, game_id=game_id, channel_id=channel_id, guild_id=guild_id)
        try:
            return await self.play_move(game.id, user_id, move_text, preview_if_confirming=confirm,
                                        expected_ply=expected_ply)
        except _ConfirmFirst as ask:
            return ask.preview

    def _checked_move(self, game: Game, user_id: int, move_text: str) -> tuple[int, engine.Position]:
        """The mover's seat and the position after ``move_text`` -- the checks of
        :meth:`play_move` before anything is written."""
        seat = game.seat_of(user_id)
        if seat is None:
            raise NotAllowed(Refusal.NOT_PLAYING, game=game)
        if game.status != "active":
            raise game_over_error(game)
        pos = game.position
        if pos.to_move != seat:
            raise NotYourTurn(Refusal.NOT_YOUR_TURN, game=game)
        if not isinstance(move_text, str) or len(move_text) > self.limits.max_move_length:
            raise InvalidMove(Refusal.BAD_MOVE_TEXT)
        try:
            return seat, pos.play(move_text)
        except engine.MoveError as e:
            raise InvalidMove(Refusal.UNREADABLE_MOVE, error=e) from None
        except engine.IllegalMove as e:
            raise InvalidMove(Refusal.ILLEGAL_MOVE, error=e) from None

    async def preview_move(self, game_id: int, user_id: int, move_text: str) -> MovePreview:
        """Check ``move_text`` for ``user_id`` in game ``game_id`` exactly as :meth:`play_move`
        does, and return the position it would make without playing it (issue 13, move
        confirmation: nothing is stored). Raises as :meth:`play_move`."""
        gid = self._id(game_id, "game")
        game = self._game(await self._game_row(gid))
        seat, new = self._checked_move(game, user_id, move_text)
        return MovePreview(game, new, cast(str, new.last_move), seat)  # new follows a move

    async def play_move(self, game_id: int, user_id: int, move_text: str, *,
                        expected_ply: int | None = None,
                        preview_if_confirming: bool = False) -> MoveResult:
        """Play ``move_text`` for ``user_id`` in game ``game_id``; committed before returning.

        The engine validates the move; the canonical text (``position.last_move``) is stored.
        The move row, the game row (position cache, ply, deadline of the next player, result)
        and, when the move ends a rated game, the ratings are one transaction. The game row
        and the next player's settings are each read once (the result carries both: see
        :class:`~bot.manager.values.MoveResult`).

        Conditional moves (issue 13): in the same transaction, the opponent's stored lines
        answer the move (:meth:`_conditional_replies`); a reply is played at once with its
        own move row (flagged ``conditional``), the lines that did not match are dropped, and
        the result's ``position``, ``game`` and board are after the last reply (``replies``).
        A crash anywhere before COMMIT leaves neither the move nor the reply.

        ``expected_ply`` (a confirmed move, issue 13; the computer's move): the game's ply when the move was chosen;
        if the game has moved on or ended since, :class:`StaleAction` says so and nothing is
        played.

        Both players' settings are read in one statement at the start of the transaction (the
        player to move next needs theirs for the deadline, the vacation note and the DM); with
        ``preview_if_confirming`` and the mover's move confirmation on, the transaction is
        rolled back there and :meth:`play` returns the preview instead.

        Raises NotFound, :class:`NotAllowed` (not a player here), :class:`GameOver`,
        :class:`NotYourTurn` (including when another move got in first) and
        :class:`InvalidMove` (the engine's message: unreadable or illegal move).

        In a game against the computer its turns have no deadline (it never loses on time);
        its moves come with ``expected_ply`` too (the ply the search started from).
        """
        gid = self._id(game_id, "game")
        async with self._lock(gid):
            async with self.store.transaction():
                # the game row is read locked (SELECT ... FOR UPDATE on PostgreSQL): a move of
                # another process waits for this transaction, then finds the new ply; the
                # version-checked UPDATE of commit_move stays as the last guard
                game = self._game(await self._game_row(gid, for_update=True))
                now = self.clock()
                rows = {r["user_id"]: r for r in await self.settings_repo.of_users(list(game.players.values()))}
                settings = {uid: self.settings.from_row(rows.get(uid), now) for uid in game.players.values()}
                trees = await self.conditionals_repo.of_game(gid)
                plan = self.plan_move(game, user_id, move_text, settings=settings, trees=trees,
                                      now=now, expected_ply=expected_ply)
                if preview_if_confirming and plan.confirm:  # nothing written
                    raise _ConfirmFirst(MovePreview(game, plan.new, plan.move, plan.seat))
                result = await self.commit_move(plan)
            self._remember(gid, plan.final, plan.final.to_text())
        return result

    def plan_move(self, game: Game, user_id: int, move_text: str, *,
                  settings: Mapping[int, UserSettings], trees: Mapping[int, str], now: float,
                  expected_ply: int | None = None) -> MovePlan:
        """The move ``move_text`` of ``user_id`` in ``game`` (as read) at ``now``, worked out
        without any I/O (reads only ``limits``): the checks of :meth:`play_move`, the position
        after it, the conditional replies the stored ``trees`` (seat -> JSON text) play at once
        (:meth:`_conditional_replies`), both clocks' banks, the next deadline and the outcome
        -- everything :meth:`commit_move` writes (:class:`MovePlan`). ``settings``: both
        players' settings (user id -> :class:`UserSettings`). Raises as :meth:`play_move`
        (:class:`StaleAction` for an ``expected_ply`` the game left)."""
        if expected_ply is not None and game.seat_of(user_id) is not None and (
                game.status != "active" or game.ply != expected_ply):
            raise StaleAction(Refusal.POSITION_CHANGED, game=game)
        seat, new = self._checked_move(game, user_id, move_text)
        move = cast(str, new.last_move)  # new follows a move
        replies, final, tree_writes = self._conditional_replies(game, seat, new, trees, now)
        text = final.to_text()
        outcome = final.outcome
        to_move_settings = None
        if outcome is None:
            to_move = cast(int, final.to_move)  # not over: a seat is to move
            to_move_settings = settings[game.players[to_move]]
            banks = self._banks_after(game, seat, replies, now, settings[game.players[seat]].vacation_until)
            deadline = (None if to_move == game.ai_seat  # the computer has no clock
                        else game.time_control.deadline(banks[to_move], now,
                                                        to_move_settings.vacation_until))
            after = dataclasses.replace(game, ply=final.ply, position_text=text, position=final,
                                        updated_at=now, deadline=deadline, bank1=banks[1], bank2=banks[2])
        else:
            after = dataclasses.replace(game, ply=final.ply, position_text=text, position=final,
                                        updated_at=now, deadline=None, status="finished", winner=outcome.winner,
                                        reason=outcome.reason, finished_at=now)
        if replies:
            after = dataclasses.replace(after, conditional_ply=replies[-1].ply)
        last_seat = replies[-1].seat if replies else seat
        ping = game.players[cast(int, final.to_move)] if outcome is None else game.players[3 - last_seat]
        return MovePlan(game, seat, new, move, tuple(replies), final, after, to_move_settings, ping,
                        tree_writes, bool(settings[user_id].confirm), now)

    async def commit_move(self, plan: MovePlan) -> MoveResult:
        """Write ``plan`` (:meth:`plan_move`) inside the caller's transaction: the game row
        (guarded by the ply it was planned from), the move rows (the conditional replies
        flagged), the conditional lines left, the ratings of a rated game it ends, the board
        and the next player's your-turn DM in the outbox. Raises :class:`NotYourTurn` when
        the game moved on since it was read (nothing of the plan is then kept)."""
        game, after, final, seat, now = plan.game, plan.after, plan.final, plan.seat, plan.now
        gid, outcome, replies = game.id, final.outcome, plan.replies
        if outcome is None:
            n = await self.games_repo.update_after_move(
                gid, game.ply, ply=final.ply, position_text=after.position_text, now=now,
                deadline=after.deadline, banks=cast("tuple[float, float]", (after.bank1, after.bank2)))  # set by plan_move
        else:
            n = await self.games_repo.finish_after_move(
                gid, game.ply, ply=final.ply, position_text=after.position_text, now=now,
                winner=outcome.winner, reason=outcome.reason)
        if n != 1:
            raise NotYourTurn(Refusal.MOVED_ON, game=game)
        await self.moves_repo.add(gid, plan.new.ply, seat, plan.move, now)
        for r in replies:
            await self.moves_repo.add(gid, r.ply, r.seat, r.move, now, conditional=True)
        for responder, written in plan.trees.items():
            if written is None:
                await self.conditionals_repo.delete(gid, responder)
            else:
                await self.conditionals_repo.put(gid, responder, written[0], written[1], now)
        if replies:
            await self.games_repo.set_conditional_ply(gid, replies[-1].ply)
        changes: dict[int, tuple[float, float]] = {}
        if outcome is not None:
            await self.conditionals_repo.delete(gid)  # nothing left to answer
        if outcome is not None and game.rated:
            changes = await self.ratings.rate(game, outcome.winner)
        # the board is queued with the move: a crash before its post loses nothing
        announcement_id = await self.outbox.announce(after, "move", plan.ping, now)
        # ... and so is the DM telling the next player it is their turn
        dm_id = (await self.outbox.announce_turn_dm(after, now, plan.to_move_settings)
                 if outcome is None else None)
        return MoveResult(after, final, plan.move, seat, outcome is not None, announcement_id, dm_id,
                          plan.ping, plan.to_move_settings, changes, replies)

    def _banks_after(self, game: Game, seat: int, replies: list[MoveRecord], now: float,
                     paused: float | None) -> dict[int, float]:
        """Both players' banks (seconds) after ``seat`` moved at ``now`` and the conditional
        ``replies`` followed (issue 13, :meth:`bot.rules.timecontrol.TimeControl.bank_after_move`):
        the mover keeps what was left of their turn plus the increment, up to the maximum (a
        vacation running during the turn, until ``paused``, is not counted); a reply takes no time, so its player's bank just gains the increment.
        A per-move clock's banks are always the allowance."""
        tc = game.time_control
        banks = {1: game.bank(1), 2: game.bank(2)}
        if tc.kind != "bank":
            return {1: tc.initial_bank(), 2: tc.initial_bank()}
        deadline = game.deadline if game.deadline is not None else now + banks[seat]
        banks[seat] = tc.bank_after_move(deadline, now, paused)
        for r in replies:
            banks[r.seat] = min(tc.maximum, banks[r.seat] + tc.increment)
        return banks

    def _conditional_replies(self, game: Game, seat: int, new: engine.Position,
                             trees: Mapping[int, str], now: float
                             ) -> tuple[list[MoveRecord], engine.Position, dict[int, tuple[str, int] | None]]:
        """Without I/O: the conditional replies that answer the move ``seat`` just played
        (``new`` is the position after it) from the stored ``trees`` (seat -> JSON text), the
        position after the last of them, and what to store: seat -> (remaining tree as JSON,
        the ply it was written at), or ``None`` to remove that seat's row.

        The player to move's stored tree answers the last move (:meth:`ConditionalTree.respond`,
        legality checked in the position reached); its remaining lines are kept, or the row
        removed when none is left. A reply can itself be answered by the other player's tree,
        so this goes on while a tree answers (at most :data:`bot.rules.conditionals.MAX_STEPS` plies).
        A tree that cannot be read is dropped (logged), never fatal to the move. The replies
        are played at ``now``."""
        replies: list[MoveRecord] = []
        stored_now: dict[int, str | None] = dict(trees)
        writes: dict[int, tuple[str, int] | None] = {}
        pos, last = new, seat
        for _ in range(conditionals.MAX_STEPS):
            if pos.is_over or pos.to_move is None or pos.to_move == last:
                break
            responder = pos.to_move
            stored = stored_now.get(responder)
            if stored is None:
                break
            try:
                tree = conditionals.ConditionalTree.from_json(stored)
            except conditionals.ConditionalError:
                log.warning("dropping the damaged conditional moves of seat %s in game %s",
                            responder, game.id)
                tree = conditionals.ConditionalTree()
            reply, rest = tree.respond(cast(str, pos.last_move), pos)  # pos follows a move
            if rest:
                stored_now[responder] = rest.to_json()
                writes[responder] = (cast(str, stored_now[responder]), pos.ply + 1)  # set just above
            else:
                stored_now[responder] = writes[responder] = None
            if reply is None:
                break
            try:
                pos = pos.play(reply)
            except engine.EngineError:  # pragma: no cover - respond() checked it is legal
                stored_now[responder] = writes[responder] = None
                break
            replies.append(MoveRecord(pos.ply, responder, cast(str, pos.last_move), now))
            last = responder
        return replies, pos, writes

    async def resign(self, game_id: int, user_id: int) -> Game:
        """``user_id`` resigns game ``game_id`` wherever it is played: the finished game (see
        :meth:`resign_game`, which Discord's Resign goes through)."""
        return (await self._resign(self._id(game_id, "game"), user_id)).game

    async def resign_game(self, game_id: int, user_id: int, *, guild_id: int | None) -> GameEnd:
        """``user_id`` resigns game ``game_id`` from server ``guild_id`` (``None``: a DM; see
        :meth:`visible_game`) (on either player's turn; RULES.md "Every game"): the other
        player wins by resignation. Returns the finished game with what its final board needs
        (:class:`GameEnd`: the opponent to ping, the rating changes).

        Raises NotFound (also for another server's game), :class:`NotAllowed` (not a
        player) and :class:`GameOver`.
        """
        game = await self.lookup.visible_game(user_id, game_id, guild_id=guild_id)
        return await self._resign(game.id, user_id)

    async def _resign(self, gid: int, user_id: int) -> GameEnd:
        """The resignation of :meth:`resign_game`, for game id ``gid`` already checked."""
        async with self._lock(gid):
            for _ in range(5):
                game = self._game(await self._game_row(gid))
                seat = game.seat_of(user_id)
                if seat is None:
                    raise NotAllowed(Refusal.NOT_PLAYING_RESIGN, game=game)
                if game.status != "active":
                    raise game_over_error(game)
                final = game.position.resign(seat)
                done = await self.endings.finish(game, final, self.clock())
                if done is not None:
                    ended, changes = done
                    return GameEnd(ended, ended.position, user_id, (game.players[3 - seat],), changes)
        raise StaleAction(Refusal.RESIGN_RACE)

    async def abort(self, game_id: int, moderator_id: int) -> Game:
        """End a running game without a result: the aborted game (see :meth:`abort_game`)."""
        return (await self.abort_game(game_id, moderator_id)).game

    async def abort_game(self, game_id: int, moderator_id: int) -> GameEnd:
        """End a running game without a result or rating change (moderation; the bot layer
        checks the permission). Returns the aborted game and its players to tell
        (:class:`GameEnd`). Raises NotFound and :class:`GameOver`."""
        gid = self._id(game_id, "game")
        async with self._lock(gid):
            game = self._game(await self._game_row(gid))
            if game.status != "active":
                raise game_over_error(game)
            now = self.clock()
            async with self.store.transaction():
                if await self.games_repo.abort(gid, moderator_id, now) != 1:  # pragma: no cover
                    raise StaleAction(Refusal.ENDED_MEANWHILE, game=game)  # another process ended it
                await self.conditionals_repo.delete(gid)
                row = await self._game_row(gid)
        ended = self._game(row)
        return GameEnd(ended, ended.position, moderator_id, (ended.players[1], ended.players[2]))


