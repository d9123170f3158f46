"""Conditional moves (issue 13): a player stores answers to the opponent's next moves.

Lines are stored while the opponent is to move (:mod:`bot.rules.conditionals` checks them against
the current position) in table ``conditionals``, one tree per game and seat, written under the
game's lock in a transaction that re-reads the game row, so a line is always checked against
the position it will answer. :meth:`bot.manager.play.PlayService.play_move` consumes them in the
move's own transaction. Only the player who stored the lines sees them.
"""

from __future__ import annotations

import logging

import engine

from ..rules import conditionals
from ..rules.conditionals import ConditionalError, ConditionalTree
from .core import ManagerCore, Service
from .errors import NotAllowed, Refusal, UserError, game_over_error
from .lookup import LookupService
from .values import ConditionalLines, Game

__all__ = ["ConditionalService"]

log = logging.getLogger(__name__)


class ConditionalService(Service):
    """/conditional add, list, clear and its autocomplete. Uses the shared look-up service
    (the game a command means)."""

    def __init__(self, core: ManagerCore, lookup: LookupService):
        super().__init__(core)
        self.lookup = lookup

    async def _conditional_seat(self, game: Game, user_id: int, *, running: bool = True) -> int:
        seat = game.seat_of(user_id)
        if seat is None:
            raise NotAllowed(Refusal.NOT_PLAYING, game=game)
        if running and game.status != "active":
            raise game_over_error(game)
        return seat

    async def _stored_tree(self, game_id: int, seat: int) -> ConditionalTree:
        try:
            return ConditionalTree.from_json(await self.conditionals_repo.get(game_id, seat))
        except ConditionalError:
            log.warning("ignoring damaged conditional moves of seat %s in game %s", seat, game_id)
            return ConditionalTree()

    async def add_conditional(self, game_id: int, user_id: int, line: str) -> ConditionalLines:
        """Store the typed ``line`` (``"e5; d4; c3; f6"``: the opponent's move, your reply, ...)
        for ``user_id`` in game ``game_id``, merged with the lines already stored. Checked
        against the game's current position in the transaction that stores it.

        Returns every line now stored. Raises NotFound, :class:`NotAllowed` (not a player),
        :class:`GameOver`, and :class:`UserError` with the checker's reason (a bad step named,
        it is your move, a reply that contradicts a stored one, too many lines).
        """
        gid = self._id(game_id, "game")
        async with self._lock(gid):
            async with self.store.transaction():
                game = self._game(await self._game_row(gid))
                seat = await self._conditional_seat(game, user_id)
                tree = await self._stored_tree(gid, seat)
                try:
                    tree = conditionals.add_line(tree, game.position, seat, line)
                except ConditionalError as e:
                    raise UserError(Refusal.BAD_LINE, error=e) from None
                await self.conditionals_repo.put(gid, seat, tree.to_json(), game.ply, self.clock())
        return ConditionalLines(game, seat, tuple(tuple(x) for x in tree.lines()))

    async def conditional_lines(self, game_id: int, user_id: int) -> ConditionalLines:
        """The lines ``user_id`` stored in game ``game_id`` (only theirs: the opponent's stay
        hidden); none once the game is over. Raises NotFound and :class:`NotAllowed`."""
        gid = self._id(game_id, "game")
        game = self._game(await self._game_row(gid))
        seat = await self._conditional_seat(game, user_id, running=False)
        if game.status != "active":
            return ConditionalLines(game, seat, ())
        tree = await self._stored_tree(gid, seat)
        return ConditionalLines(game, seat, tuple(tuple(x) for x in tree.lines()))

    async def conditional_end_position(self, game_id: int, user_id: int, index: int
                                       ) -> tuple[ConditionalLines, engine.Position]:
        """The position at the end of line number ``index`` (1 = first, as /conditional list
        numbers them) of ``user_id``'s stored lines in game ``game_id``, for its board.
        Raises NotFound, :class:`NotAllowed` and :class:`UserError` for a number that is not a
        stored line."""
        stored = await self.conditional_lines(game_id, user_id)
        if not stored.lines:
            raise UserError(Refusal.NO_CONDITIONALS, game=stored.game)
        if not isinstance(index, int) or not 1 <= index <= len(stored.lines):
            raise UserError(Refusal.BAD_LINE_NUMBER, lines=len(stored.lines))
        try:
            end = conditionals.end_position(stored.game.position, list(stored.lines[index - 1]))
        except engine.EngineError:  # pragma: no cover - stored lines fit the current position
            raise UserError(Refusal.STALE_LINE) from None
        return stored, end

    async def clear_conditionals(self, game_id: int, user_id: int) -> int:
        """Remove every line ``user_id`` stored in game ``game_id``; returns how many there
        were. Raises NotFound and :class:`NotAllowed`."""
        gid = self._id(game_id, "game")
        async with self._lock(gid):
            async with self.store.transaction():
                game = self._game(await self._game_row(gid))
                seat = await self._conditional_seat(game, user_id, running=False)
                count = len(await self._stored_tree(gid, seat))
                await self.conditionals_repo.delete(gid, seat)
        return count

    async def complete_conditional(self, user_id: int, typed: str, *, game_id: int | None = None,
                                   channel_id: int | None = None, guild_id: int | None = None,
                                   limit: int = 25) -> list[str]:
        """Autocomplete of /conditional add's ``line``: whole lines whose last step is a legal
        move (or first placement) after the earlier steps (:func:`bot.rules.conditionals.complete_line`)
        in the game :meth:`resolve_game` picks. Never raises: ``[]`` when no game resolves, it
        is the user's move, or anything goes wrong."""
        try:
            game = await self.lookup.resolve_game(user_id, game_id=game_id, channel_id=channel_id,
                                                  guild_id=guild_id)
            seat = game.seat_of(user_id)
            if game.status != "active" or seat is None:
                return []
            return conditionals.complete_line(game.position, seat, typed,
                                              limit=max(0, min(limit, 25)))
        except Exception:  # noqa: BLE001 - autocomplete must never fail
            log.debug("complete_conditional failed", exc_info=True)
            return []
