"""Play: moves, resignation and a moderator's abort -- the writes that change a game.

A move is validated by the engine, then its move row, the game row (guarded by its ply, the
version) and, when it ends a rated game, the ratings are one transaction, committed before
:meth:`PlayMixin.play_move` returns; the board and the your-turn DM are queued in the same
transaction. Moves on one game are serialised by a per-game lock; of two racing moves (also
from another process on the same file) exactly one applies, the other gets
:class:`~bot.manager.errors.NotYourTurn`.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

import engine

from .. import texts
from ..rules import conditionals
from .core import ManagerCore, _sentence
from .errors import InvalidMove, NotAllowed, NotFound, NotYourTurn, StaleAction, game_over_error
from .values import Game, GameEnd, MovePreview, MoveRecord, MoveResult

__all__ = ["PlayMixin"]

log = logging.getLogger(__name__)


class _ConfirmFirst(Exception):  # noqa: N818 - a signal, not an error
    """Raised inside :meth:`PlayMixin.play_move`'s transaction (so nothing is written) when
    the mover asked to confirm their moves; carries the :class:`MovePreview`."""

    def __init__(self, preview: MovePreview):
        super().__init__("the mover confirms moves first")
        self.preview = preview


class PlayMixin(ManagerCore):
    """Moves, resignations and aborts of :class:`bot.manager.GameManager`."""

    async def get_game(self, game_id: int) -> Game:
        """The game ``game_id``. Raises NotFound."""
        gid = self._id(game_id, "game")
        return self._game(await self._game_row(gid))

    async def set_game_thread(self, game_id: int, thread_id: int | None) -> Game:
        """Remember the thread where the game's boards are posted (``None``: none, they go to
        the channel), which settles ``thread_wanted``. Returns the game as now stored.
        Raises NotFound."""
        gid = self._id(game_id, "game")
        async with self.store.transaction():
            if await self.games_repo.set_thread(gid, thread_id) != 1:
                raise NotFound(texts.no_such_game(gid))
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
        game = await self.resolve_game(user_id, game_id=game_id, channel_id=channel_id, guild_id=guild_id)
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
            raise NotAllowed(f"You are not playing in {game.label}.")
        if game.status != "active":
            raise game_over_error(game)
        pos = game.position
        if pos.to_move != seat:
            raise NotYourTurn(f"It is not your turn in {game.label}: your opponent is to move.")
        if not isinstance(move_text, str) or len(move_text) > self.limits.max_move_length:
            raise InvalidMove("Type a move such as e5 (cells separated by spaces, or pass).")
        try:
            return seat, pos.play(move_text)
        except engine.MoveError as e:
            raise InvalidMove(_sentence(f"Cannot read that move: {e}")) from None
        except engine.IllegalMove as e:
            raise InvalidMove(_sentence(f"Illegal move: {e}")) from None

    async def preview_move(self, game_id: int, user_id: int, move_text: str) -> MovePreview:
        """Check ``move_text`` for ``user_id`` in game ``game_id`` exactly as :meth:`play_move`
        does, and return the position it would make without playing it (issue 13, move
        confirmation: nothing is stored). Raises as :meth:`play_move`."""
        gid = self._id(game_id, "game")
        game = self._game(await self._game_row(gid))
        seat, new = self._checked_move(game, user_id, move_text)
        return MovePreview(game, new, new.last_move, seat)

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
            to_move_settings = None
            changes: dict[int, tuple[float, float]] = {}
            async with self.store.transaction():
                # the game row is read locked (SELECT ... FOR UPDATE on PostgreSQL): a move of
                # another process waits for this transaction, then finds the new ply; the
                # version-checked UPDATE below stays as the last guard
                game = self._game(await self._game_row(gid, for_update=True))
                if expected_ply is not None and game.seat_of(user_id) is not None and (
                        game.status != "active" or game.ply != expected_ply):
                    raise StaleAction(texts.position_changed(game))
                seat, new = self._checked_move(game, user_id, move_text)
                move = new.last_move
                now = self.clock()
                rows = {r["user_id"]: r for r in await self.settings_repo.of_users(list(game.players.values()))}
                settings = {uid: self._settings(rows.get(uid), now) for uid in game.players.values()}
                if preview_if_confirming and settings[user_id].confirm:
                    raise _ConfirmFirst(MovePreview(game, new, move, seat))  # nothing written
                # conditional replies are decided and played in the move's own transaction
                replies, final = await self._conditional_replies(game, seat, new, now)
                text = final.to_text()
                outcome = final.outcome
                if outcome is None:
                    to_move_settings = settings[game.players[final.to_move]]
                    banks = self._banks_after(game, seat, replies, now,
                                              settings[game.players[seat]].vacation_until)
                    deadline = (None if final.to_move == game.ai_seat  # the computer has no clock
                                else game.time_control.deadline(banks[final.to_move], now,
                                                                to_move_settings.vacation_until))
                    n = await self.games_repo.update_after_move(
                        gid, game.ply, ply=final.ply, position_text=text, now=now, deadline=deadline,
                        banks=(banks[1], banks[2]))
                    after = dataclasses.replace(game, ply=final.ply, position_text=text, position=final,
                                                updated_at=now, deadline=deadline, bank1=banks[1],
                                                bank2=banks[2])
                else:
                    n = await self.games_repo.finish_after_move(
                        gid, game.ply, ply=final.ply, position_text=text, now=now,
                        winner=outcome.winner, reason=outcome.reason)
                    after = dataclasses.replace(game, ply=final.ply, position_text=text, position=final,
                                                updated_at=now, deadline=None, status="finished", winner=outcome.winner,
                                                reason=outcome.reason, finished_at=now)
                if n != 1:
                    raise NotYourTurn(
                        f"{game.label} moved on while you were moving: it is not your turn any more."
                    )
                await self.moves_repo.add(gid, new.ply, seat, move, now)
                for r in replies:
                    await self.moves_repo.add(gid, r.ply, r.seat, r.move, now, conditional=True)
                if replies:
                    await self.games_repo.set_conditional_ply(gid, replies[-1].ply)
                    after = dataclasses.replace(after, conditional_ply=replies[-1].ply)
                if outcome is not None:
                    await self.conditionals_repo.delete(gid)  # nothing left to answer
                if outcome is not None and game.rated:
                    changes = await self._rate(game, outcome.winner)
                # the board is queued with the move: a crash before its post loses nothing
                last_seat = replies[-1].seat if replies else seat
                ping = game.players[final.to_move] if outcome is None else game.players[3 - last_seat]
                announcement_id = await self._announce(after, "move", ping, now)
                # ... and so is the DM telling the next player it is their turn
                dm_id = (await self._announce_turn_dm(after, now, to_move_settings)
                         if outcome is None else None)
            self._remember(gid, final, text)
        return MoveResult(after, final, move, seat, outcome is not None, announcement_id, dm_id,
                          ping, to_move_settings, changes, tuple(replies))

    def _banks_after(self, game: Game, seat: int, replies: list[MoveRecord], now: float,
                     paused: float | None) -> dict[int, float]:
        """Both players' banks (seconds) after ``seat`` moved at ``now`` and the conditional
        ``replies`` followed (issue 13, :meth:`bot.timecontrol.TimeControl.bank_after_move`):
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

    async def _conditional_replies(self, game: Game, seat: int, new: engine.Position, now: float
                                   ) -> tuple[list[MoveRecord], engine.Position]:
        """Inside play_move's transaction: the conditional replies that answer the move ``seat``
        just played (``new`` is the position after it), and the position after the last of them.

        The player to move's stored tree answers the last move (:meth:`ConditionalTree.respond`,
        legality checked in the position reached); its remaining lines are stored, or the row
        removed when none is left. A reply can itself be answered by the other player's tree,
        so this goes on while a tree answers (at most :data:`bot.conditionals.MAX_STEPS` plies).
        A tree that cannot be read is dropped (logged), never fatal to the move."""
        replies: list[MoveRecord] = []
        pos, last = new, seat
        for _ in range(conditionals.MAX_STEPS):
            if pos.is_over or pos.to_move is None or pos.to_move == last:
                break
            responder = pos.to_move
            stored = await self.conditionals_repo.get(game.id, responder)
            if stored is None:
                break
            try:
                tree = conditionals.ConditionalTree.from_json(stored)
            except conditionals.ConditionalError:
                log.warning("dropping the damaged conditional moves of seat %s in game %s",
                            responder, game.id)
                tree = conditionals.ConditionalTree()
            reply, rest = tree.respond(pos.last_move, pos)
            if rest:
                await self.conditionals_repo.put(game.id, responder, rest.to_json(), pos.ply + 1, now)
            else:
                await self.conditionals_repo.delete(game.id, responder)
            if reply is None:
                break
            try:
                pos = pos.play(reply)
            except engine.EngineError:  # pragma: no cover - respond() checked it is legal
                await self.conditionals_repo.delete(game.id, responder)
                break
            replies.append(MoveRecord(pos.ply, responder, pos.last_move, now))
            last = responder
        return replies, pos

    async def _finish(self, game: Game, new: engine.Position, now: float, *,
                      announce: tuple[str, int] | None = None, claim: bool = False,
                      ) -> tuple[Game, dict[int, tuple[float, float]]] | None:
        """End ``game`` with the forced outcome of ``new`` (resignation / timeout) in one
        transaction with the ratings and, when ``announce`` is ``(kind, user id)``, the
        outbox row that announces it. Returns the finished game and the rating changes
        (``{}`` for an unrated game); ``None`` when the game row changed meanwhile, or, with
        ``claim`` (the clock sweep), when another transaction holds it (PostgreSQL: ``FOR
        UPDATE SKIP LOCKED``; a move under way, or another process settling it)."""
        async with self.store.transaction():
            done = await self._finish_in_transaction(game, new, now, announce=announce, claim=claim)
        return None if done is None else self._finished(game, new, *done)

    async def _finish_in_transaction(self, game: Game, new: engine.Position, now: float, *,
                                     announce: tuple[str, int] | None = None, claim: bool = False,
                                     ) -> tuple[Any, dict[int, tuple[float, float]]] | None:
        """The statements of :meth:`_finish`, inside the caller's transaction: the game row
        as now stored and the rating changes, or ``None`` (nothing written). Call
        :meth:`_finished` once the transaction committed."""
        outcome = new.outcome
        if claim and not await self.games_repo.claim(game.id, game.ply):
            return None
        n = await self.games_repo.finish(game.id, game.ply, position_text=new.to_text(),
                                         winner=outcome.winner, reason=outcome.reason, now=now)
        if n != 1:
            return None
        changes = await self._rate(game, outcome.winner) if game.rated else {}
        await self.conditionals_repo.delete(game.id)  # nothing left to answer
        if announce is not None:
            await self._announce(game, *announce, now)
        return await self._game_row(game.id), changes

    def _finished(self, game: Game, new: engine.Position, row,
                  changes: dict[int, tuple[float, float]]) -> tuple[Game, dict[int, tuple[float, float]]]:
        """After :meth:`_finish_in_transaction` committed: remember the final position and
        return the finished game and the rating changes."""
        self._remember(game.id, new, new.to_text())
        log.info("game %s ended by %s", game.id, new.outcome.reason)
        return self._game(row), changes

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
        game = await self.visible_game(user_id, game_id, guild_id=guild_id)
        return await self._resign(game.id, user_id)

    async def _resign(self, gid: int, user_id: int) -> GameEnd:
        """The resignation of :meth:`resign_game`, for game id ``gid`` already checked."""
        async with self._lock(gid):
            for _ in range(5):
                game = self._game(await self._game_row(gid))
                seat = game.seat_of(user_id)
                if seat is None:
                    raise NotAllowed(f"You are not playing in {game.label}, so you cannot resign it.")
                if game.status != "active":
                    raise game_over_error(game)
                final = game.position.resign(seat)
                done = await self._finish(game, final, self.clock())
                if done is not None:
                    ended, changes = done
                    return GameEnd(ended, ended.position, user_id, (game.players[3 - seat],), changes)
        raise StaleAction("The game kept changing while you resigned: please try again.")

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
                    raise StaleAction(f"{game.label} ended a moment ago.")  # another process ended it
                await self.conditionals_repo.delete(gid)
                row = await self._game_row(gid)
        ended = self._game(row)
        return GameEnd(ended, ended.position, moderator_id, (ended.players[1], ended.players[2]))


