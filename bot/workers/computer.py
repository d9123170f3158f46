"""The computer opponent in Discord (issue 12): its moves and reviews of finished games, searched
in worker processes off the event loop.

:class:`Computer` owns two :class:`bot.workers.search_pool.SearchPool`\\ s:

* ``moves`` (``STONECAST_AI_WORKERS`` workers, default 1): the computer's moves, first come
  first served, one search per game, a bounded queue;
* ``reviews`` (one worker): ``/review``, which may take a minute, so it never delays a move.

Both start on first use (a bot nobody plays starts no process) and die with the bot.

The database is the truth. :meth:`Computer.request` queues the search for a game where the
computer is to move (the announcer calls it after each board that leaves the computer to move);
:meth:`Computer.wake` -- on start and on every maintenance pass -- requests every such game
that has no search running, so a restart loses nothing. The chosen move is played with the ply
it was chosen at (:meth:`bot.manager.GameManager.computer_move`): it applies exactly once, and
its board is posted through ``on_move`` (the announcer) like a person's, pinging the human. While the search runs
the ``show_thinking`` context it was built with shows it (the typing indicator in the game's
thread). A failed search is logged and tried once more a
level lower; when that fails too the game is aborted with an apology.

Several processes on one database (issue 14): each search of a move, and each review, is first
claimed in the database (:meth:`bot.manager.GameManager.claim_computer_work`, committed before
the search starts); the claim is renewed every third of the lease while the search runs and
released when it ends. A process that finds the work claimed by another leaves it; should that
one die, its lease runs out and the next maintenance pass of another process claims the move.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING, Any

from bot import texts
from bot.manager import UserError
from bot.manager.leases import renewing
from bot.texts.i18n import _

from .search_pool import DEFAULT_MAX_QUEUE, SearchBusy, SearchFailed, SearchPool, SearchPoolError

if TYPE_CHECKING:
    from contextlib import AbstractAsyncContextManager

    import ai
    import engine
    from bot.manager import Game, GameEnd, GameManager, MoveResult, ReviewInput

log = logging.getLogger("stonecast.computer")

__all__ = ["Computer"]


@contextlib.asynccontextmanager
async def _not_shown(game: Game) -> AsyncIterator[None]:
    """No sign that the computer thinks (a :class:`Computer` built without ``show_thinking``)."""
    yield


class Computer:
    """The computer player and reviewer (see the module), playing through ``manager``.

    ``on_move``: posts what a move of the computer committed (its board, or the end of a game
    it gave up) and returns the note for a player (the announcer's
    :meth:`~bot.front.announcer.Announcer.publish`); ``show_thinking(game)``: an async context
    shown while a move is searched (the typing indicator in the game's thread); none by
    default. ``workers``: processes for moves (default ``STONECAST_AI_WORKERS``);
    ``max_queue``: moves that may wait; ``playouts``: a cap on every search's playouts (tests
    and benchmarks use it to keep searches short; ``None``: the level's own budget);
    ``review_options``: keyword arguments for :func:`ai.review.review_game` (level, seconds,
    playouts).
    """

    def __init__(self, manager: GameManager, *, on_move: Callable[[MoveResult | GameEnd], Awaitable[str]],
                 show_thinking: Callable[[Game], AbstractAsyncContextManager[None]] | None = None,
                 workers: int | None = None, max_queue: int = DEFAULT_MAX_QUEUE,
                 playouts: int | None = None, review_options: dict[str, Any] | None = None):
        self.manager = manager
        self.on_move = on_move
        self._show_thinking = show_thinking or _not_shown
        self.moves = SearchPool(workers, max_queue=max_queue)
        self.reviews = SearchPool(1, max_queue=max_queue)
        self.playouts = playouts
        self.review_options = dict(review_options or {"level": 2})
        self._started: set[int] = set()
        self._tasks: dict[int, asyncio.Task[Game | None]] = {}
        self._review_tasks: dict[int, asyncio.Task[Any]] = {}
        self._closed = False

    async def _pool(self, pool: SearchPool) -> SearchPool:
        if id(pool) not in self._started:
            self._started.add(id(pool))
            await pool.start()
        return pool

    async def close(self) -> None:
        """Stop every search and end the worker processes."""
        self._closed = True
        for task in (*self._tasks.values(), *self._review_tasks.values()):
            task.cancel()
        for task in (*self._tasks.values(), *self._review_tasks.values()):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for pool in (self.moves, self.reviews):
            if id(pool) in self._started:
                await pool.close()

    # ------------------------------------------------------------------ moves

    def thinking(self, game_id: int) -> bool:
        """True while the computer's move in ``game_id`` is queued or searched."""
        return game_id in self._tasks

    @property
    def searching(self) -> int:
        """How many of the computer's moves are queued or being searched now."""
        return len(self._tasks)

    def request(self, game: Game) -> str:
        """Queue the computer's move in ``game`` (where it is to move) unless it is already
        being searched. Returns ``""``, or a sentence for the player when the queue is full
        (the move is then asked for again by the next maintenance pass)."""
        if self._closed or game.id in self._tasks:
            return ""
        waiting = max(self.moves.queued, len(self._tasks) - self.moves.running)  # not yet submitted too
        if waiting >= self.moves.max_queue:
            log.warning("search queue full: game %s waits for the next pass", game.id)
            return _(texts.COMPUTER_QUEUE_FULL)
        task = asyncio.create_task(self._play(game), name=f"computer move {game.id}")
        self._tasks[game.id] = task
        task.add_done_callback(self._done)
        return ""

    def _done(self, task: asyncio.Task[Game | None]) -> None:
        """A move's task ended: forget it; when the game came back to the computer at once
        (the human's conditional move answered it), ask for the next move."""
        gid = next((g for g, t in self._tasks.items() if t is task), None)
        if gid is not None:
            del self._tasks[gid]
        again = None if task.cancelled() or task.exception() is not None else task.result()
        if again is not None:
            self.request(again)

    def forget(self, game_id: int) -> None:
        """Drop the search of game ``game_id`` (it ended: resigned, aborted)."""
        task = self._tasks.get(game_id)
        if task is not None:
            task.cancel()

    async def wake(self) -> int:
        """Request the move of every running game where the computer is to move and no
        search is running (on start and each maintenance pass). Returns how many were
        queued now."""
        n = 0
        for game in await self.manager.computer_turns():
            if game.id not in self._tasks and not self.request(game):
                n += game.id in self._tasks
        return n

    async def _search(self, game: Game, level: int) -> ai.Decision:
        pool = await self._pool(self.moves)
        return await pool.choose_move(game.id, game.position, level=level, playouts=self.playouts)

    async def _play(self, game: Game) -> Game | None:
        """Search, play and publish the computer's move in ``game`` (see the module). Returns
        the game when it is the computer's move again right after (a conditional reply)."""
        try:
            # read again: a request from a list read a moment ago may come after the move
            game = await self.manager.get_game(game.id)
            if game.status != "active" or game.position.to_move != game.ai_seat:
                return None
            async with self._claim(game.id, "move") as claimed:
                if not claimed:  # another process searches it (or will, after its lease)
                    log.debug("the move in game %s is claimed by another process", game.id)
                    return None
                # read once more under the claim: another process may have just played it
                game = await self.manager.get_game(game.id)
                if game.status != "active" or game.position.to_move != game.ai_seat:
                    return None
                decision = None
                assert game.ai_level is not None  # a game the computer plays has its level
                levels = (game.ai_level, max(1, game.ai_level - 1))
                async with self._show_thinking(game):
                    for attempt, level in enumerate(levels):
                        try:
                            decision = await self._search(game, level)
                            break
                        except SearchBusy:
                            return None
                        except SearchFailed as e:
                            log.warning("search for game %s at level %s failed (attempt %d): %s",
                                        game.id, level, attempt + 1, e)
                        except SearchPoolError as e:  # queue full or pool closed: the next pass retries
                            log.warning("no search for game %s now: %s", game.id, e)
                            return None
                if decision is None:
                    await self._give_up(game)
                    return None
                try:
                    result: MoveResult = await self.manager.computer_move(game.id, decision.move, game.ply)
                except UserError as e:  # the game moved on or ended meanwhile: nothing to play
                    log.info("computer move %s in game %s dropped: %s", decision.move, game.id, e)
                    return None
            await self.on_move(result)
            if result.game.status == "active" and result.position.to_move == game.ai_seat:
                return result.game  # a conditional reply gave the move back: see _done
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - a background task must log, not vanish
            log.exception("computer move in game %s failed", game.id)
        return None

    async def _give_up(self, game: Game) -> None:
        """Both searches failed: abort the game with an apology (never left hanging)."""
        try:
            end = await self.manager.computer_gives_up(game.id)
        except UserError as e:
            log.info("game %s not aborted: %s", game.id, e)
            return
        log.error("game %s aborted: the computer could not find a move", game.id)
        await self.on_move(end)

    @contextlib.asynccontextmanager
    async def _claim(self, game_id: int, task: str) -> AsyncIterator[bool]:
        """``async with self._claim(game_id, task) as claimed:`` -- claim ``task`` (``"move"``
        or ``"review"``) of ``game_id`` in the database (issue 14: one process computes each;
        :meth:`bot.manager.GameManager.claim_computer_work`); ``claimed`` says whether this
        process got it. While the body runs the claim is renewed every third of the
        manager's lease; it is released when the body ends, however it ends."""
        manager = self.manager
        if not await manager.claim_computer_work(game_id, task):
            yield False
            return
        try:
            async with renewing(lambda: manager.renew_computer_work(game_id, task), manager.lease,
                                what=f"the {task} of game {game_id}", stop_when_lost=True):
                yield True
        finally:
            try:
                await asyncio.shield(manager.release_computer_work(game_id, task))
            except (asyncio.CancelledError, Exception):  # noqa: BLE001 - the lease ends anyway
                log.info("claim on the %s of game %s not released; its lease will end", task, game_id)

    # ------------------------------------------------------------------ reviews

    async def analyse(self, user_id: int, position: engine.Position, *, level: int = 5,
                      seconds: float | None = None, deadline: float | None = None) -> ai.Decision:
        """An analysis board's Engine request (issue 23) by ``user_id``: :func:`ai.choose_move`
        on ``position`` at ``level`` (default 5) in the moves' pool, in its analysis lane
        (:mod:`bot.workers.search_pool`: on the first worker that frees, ahead of queued
        computer moves, but never delaying one by more than one search), one request per
        user at a time. ``seconds`` caps the search (default: the level's cap);
        ``deadline`` (the event loop's clock) is when it must end: the search gets the time
        left then (:func:`bot.workers.search_pool.time_cap`, at most ``seconds``). Raises
        :class:`SearchBusy` (this user's previous request still runs), QueueFull,
        SearchFailed (e.g. a finished position), ValueError (a deadline without seconds)."""
        pool = await self._pool(self.moves)
        return await pool.choose_move(("analysis", user_id), position, level=level, seconds=seconds,
                                      playouts=self.playouts, lane="analysis", deadline=deadline)

    def reviewing(self, game_id: int) -> bool:
        """True while a review of ``game_id`` runs."""
        return game_id in self._review_tasks

    async def review(self, item: ReviewInput,
                     progress: Callable[[int, int], Any] | None = None) -> dict[str, Any]:
        """The review of a finished game (``GameReview.to_dict()``): ``item.cached`` when
        there is one, else searched in the reviews worker -- ``progress(done, total)`` as the
        positions are searched; a failed search is tried once more a level lower -- and
        cached in the database. Raises :class:`bot.workers.search_pool.SearchBusy` while a review of
        the game runs already, and the pool's errors when both searches fail."""
        if item.cached is not None:
            return item.cached
        game = item.game
        if game.id in self._review_tasks:
            raise SearchBusy(texts.REVIEW_BUSY)
        task = asyncio.current_task()
        assert task is not None  # a coroutine runs in a task
        self._review_tasks[game.id] = task
        try:
            async with self._claim(game.id, "review") as claimed:
                if not claimed:  # another process reviews it now
                    raise SearchBusy(texts.REVIEW_BUSY)
                cached: dict[str, Any] | None = await self.manager.cached_review(game.id)
                if cached is not None:  # it finished while this one waited
                    return cached
                return await self._review(item, progress)
        finally:
            self._review_tasks.pop(game.id, None)

    async def _review(self, item: ReviewInput, progress: Callable[[int, int], Any] | None) -> dict[str, Any]:
        """Search the review of ``item.game`` (claimed) and cache it; see :meth:`review`."""
        game = item.game
        pool = await self._pool(self.reviews)
        options = dict(self.review_options)
        level = options.pop("level", 2)
        for attempt, lv in enumerate((level, max(1, level - 1))):
            try:
                result = await pool.review(("review", game.id), game.kind, game.options,
                                           list(item.moves), progress=progress, level=lv, **options)
                break
            except SearchFailed as e:
                if attempt:
                    raise
                log.warning("review of game %s at level %s failed: %s", game.id, lv, e)
        data = result.to_dict()
        await self.manager.save_review(game.id, data)
        return data
