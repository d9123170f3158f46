"""Game endings (shared): a game ended by a forced outcome -- resignation, loss on time --
is written here, with its ratings and its announcement, in one transaction.

:meth:`EndingsService.finish` is the whole ending in its own transaction;
:meth:`EndingsService.finish_in_transaction` its statements inside a caller's transaction
(the clock sweep settles a batch in one), followed by :meth:`EndingsService.finished` once
that committed.
"""

from __future__ import annotations

import logging
from typing import cast

import engine  # noqa: TC002 - in the signatures

from ..store.db import Row
from .core import ManagerCore, Service
from .outbox import OutboxService
from .ratings import RatingsService
from .values import Game

__all__ = ["EndingsService"]

log = logging.getLogger(__name__)


class EndingsService(Service):
    """Ending a game with a forced outcome (resignation, timeout): the game row, the ratings
    (:class:`~bot.manager.ratings.RatingsService`) and the announcement
    (:class:`~bot.manager.outbox.OutboxService`) in one transaction."""

    def __init__(self, core: ManagerCore, ratings: RatingsService, outbox: OutboxService):
        super().__init__(core)
        self.ratings = ratings
        self.outbox = outbox

    async def finish(self, game: Game, new: engine.Position, now: float, *,
                      announce: tuple[str, int] | None = None, claim: bool = False,
                      ) -> tuple[Game, dict[int, tuple[float, float]]] | None:
        """End ``game`` with the forced outcome of ``new`` (resignation / timeout) in one
        transaction with the ratings and, when ``announce`` is ``(kind, user id)``, the
        outbox row that announces it. Returns the finished game and the rating changes
        (``{}`` for an unrated game); ``None`` when the game row changed meanwhile, or, with
        ``claim`` (the clock sweep), when another transaction holds it (PostgreSQL: ``FOR
        UPDATE SKIP LOCKED``; a move under way, or another process settling it)."""
        async with self.store.transaction():
            done = await self.finish_in_transaction(game, new, now, announce=announce, claim=claim)
        return None if done is None else self.finished(game, new, *done)

    async def finish_in_transaction(self, game: Game, new: engine.Position, now: float, *,
                                     announce: tuple[str, int] | None = None, claim: bool = False,
                                     ) -> tuple[Row, dict[int, tuple[float, float]]] | None:
        """The statements of :meth:`finish`, inside the caller's transaction: the game row
        as now stored and the rating changes, or ``None`` (nothing written). Call
        :meth:`finished` once the transaction committed."""
        outcome = cast(engine.Outcome, new.outcome)  # a forced ending: ``new`` is over
        if claim and not await self.games_repo.claim(game.id, game.ply):
            return None
        n = await self.games_repo.finish(game.id, game.ply, position_text=new.to_text(),
                                         winner=outcome.winner, reason=outcome.reason, now=now)
        if n != 1:
            return None
        changes = await self.ratings.rate(game, outcome.winner) if game.rated else {}
        await self.conditionals_repo.delete(game.id)  # nothing left to answer
        if announce is not None:
            await self.outbox.announce(game, *announce, now)
        return await self._game_row(game.id), changes

    def finished(self, game: Game, new: engine.Position, row: Row,
                  changes: dict[int, tuple[float, float]]) -> tuple[Game, dict[int, tuple[float, float]]]:
        """After :meth:`finish_in_transaction` committed: remember the final position and
        return the finished game and the rating changes."""
        self._remember(game.id, new, new.to_text())
        log.info("game %s ended by %s", game.id, cast(engine.Outcome, new.outcome).reason)
        return self._game(row), changes
