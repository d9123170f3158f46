"""The computer opponent's searches, off the event loop: one fair queue, worker processes.

:class:`SearchPool` runs :func:`ai.choose_move` and :func:`ai.review.review_game` in
worker processes (``STONECAST_AI_WORKERS``, default 1) through ONE queue shared by every
game::

    pool = SearchPool()                 # inside the running event loop
    await pool.start()
    d = await pool.choose_move(game_id, position, level=3)        # -> ai.Decision
    r = await pool.review(("review", game_id), "coil", {}, moves,
                          progress=lambda done, total: ...)       # -> ai.review.GameReview
    pool.cancel(game_id)                # drop that game's search, queued or running
    await pool.close()

Rules of the queue:

* first come, first served: a free worker takes the oldest queued job -- with one exception,
  the **analysis lane** (issue 23): a job submitted with ``lane="analysis"`` (an Engine request
  of an analysis board) waits in its own FIFO and the first worker that frees takes it
  *before* the computer moves queued ahead of it, unless one of those has already been
  overtaken by an analysis search. A computer move is thus delayed by at most ONE analysis
  search, ever (each move counts the analysis searches submitted after it that a worker took
  before it; see :meth:`SearchPool._next_job`), and an analysis request waits for no more
  than the rest of the running search that ends first -- unless another analysis request
  overtook the same moves a moment before (two requests in one search's time: then the
  second waits for those moves, which fairness puts first);
* a job with a ``deadline`` (an Engine request: its answer is due a few seconds after the
  press) gets, when a worker takes it, the time left until then as its search's time cap
  (:func:`time_cap`: less the search's overrun, at most its own ``seconds``, at least
  :data:`FLOOR_SECONDS`): the longer it waited, the shorter it searches;
* at most one search per key (a game) at a time: a second request for a key that is queued
  or running is **refused** with :class:`SearchBusy` (not coalesced -- the database says
  whose turn it is, so the caller simply has nothing to add; refusing keeps one answer per
  request);
* at most ``max_queue`` jobs wait (running ones not counted); one more raises
  :class:`QueueFull` at once;
* :meth:`SearchPool.cancel` drops a key's queued job, or ends the worker running it (a
  fresh one replaces it); its caller gets ``asyncio.CancelledError``. Cancelling the task
  that awaits a job does the same.
* a worker that dies (killed, out of memory) is replaced at once and its job fails with
  :class:`WorkerDied`; an exception raised by the search fails the job with
  :class:`SearchFailed`. Either way the caller decides (the issue: retry once at a lower
  level, then abort the game).

Workers are plain ``multiprocessing`` processes ("spawn"), one job at a time each, that run
:func:`bot.workers.procs.die_with_parent` first: they end with the bot whatever kills it. The pool
talks to them over pipes watched by the event loop (``add_reader``): no threads. No
Discord and no database here.
"""

from __future__ import annotations

import asyncio
import collections
import multiprocessing
import os
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from .search_jobs import worker_main
from .search_terms import (
    DEFAULT_MAX_QUEUE,
    FLOOR_SECONDS,
    OVERRUN,
    QueueFull,
    SearchBusy,
    SearchFailed,
    SearchPoolError,
    WorkerDied,
    time_cap,
    workers_from_env,
)

if TYPE_CHECKING:
    import ai
    import engine
    from ai.review import GameReview

__all__ = ["DEFAULT_MAX_QUEUE", "FLOOR_SECONDS", "OVERRUN", "QueueFull", "SearchBusy",
           "SearchFailed", "SearchPool", "SearchPoolError", "WorkerDied", "time_cap",
           "workers_from_env"]

# --- in the bot -------------------------------------------------------------------------

@dataclass(eq=False)
class _Job:
    key: Hashable
    kind: str
    args: tuple[Any, ...]
    future: asyncio.Future[Any]
    progress: Callable[[int, int], object] | None = None
    lane: str = "main"
    seq: int = 0  # order of submission, both lanes
    passed: int = 0  # analysis searches submitted after this main-lane job, taken before it
    deadline: float | None = None  # loop time by which a "move" job's search must end


@dataclass(eq=False)
class _Worker:
    process: Any
    conn: Any
    job: _Job | None = None
    readers: list[int] = field(default_factory=list)


class SearchPool:
    """One FIFO queue of searches served by ``workers`` processes (see the module).

    ``workers`` defaults to :func:`workers_from_env`; ``max_queue`` (waiting jobs, default
    :data:`DEFAULT_MAX_QUEUE`) bounds the queue. Create and use it on the bot's event loop.
    Raises ValueError for a worker count or bound below 1.
    """

    def __init__(self, workers: int | None = None, *, max_queue: int = DEFAULT_MAX_QUEUE):
        workers = workers_from_env() if workers is None else workers
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise ValueError(f"workers must be a whole number of at least 1, not {workers!r}")
        if isinstance(max_queue, bool) or not isinstance(max_queue, int) or max_queue < 1:
            raise ValueError(f"max_queue must be a whole number of at least 1, not {max_queue!r}")
        self.size = workers
        self.max_queue = max_queue
        self._queue: collections.deque[_Job] = collections.deque()
        self._analysis: collections.deque[_Job] = collections.deque()  # the analysis lane
        self._keys: dict[Hashable, _Job] = {}
        self._workers: list[_Worker] = []
        self._workers_gone: list[_Worker] = []   # ended, not yet joined
        self._ctx = multiprocessing.get_context("spawn")
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closed = False
        self._seq = 0
        #: Workers started since :meth:`start` (replacements included), for tests and logs.
        self.started = 0

    # public ---------------------------------------------------------------------------

    async def start(self) -> None:
        """Start the worker processes (on the running loop's thread, which must outlive
        them; see :mod:`bot.workers.procs`)."""
        self._loop = asyncio.get_running_loop()
        while len(self._workers) < self.size:
            self._spawn()

    async def close(self) -> None:
        """Fail every queued job (CancelledError), end the workers and wait for them."""
        self._closed = True
        for queue in (self._queue, self._analysis):
            while queue:
                self._drop(queue.popleft())
        for w in list(self._workers):
            self._retire(w, cancel=True)
        for w in self._workers_gone:
            await asyncio.to_thread(w.process.join, 5)
            w.process.close()
        self._workers_gone.clear()

    async def __aenter__(self) -> SearchPool:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def queued(self) -> int:
        """Jobs waiting for a worker (both lanes)."""
        return len(self._queue) + len(self._analysis)

    @property
    def running(self) -> int:
        """Jobs a worker is running now."""
        return sum(1 for w in self._workers if w.job is not None)

    def busy(self, key: Hashable) -> bool:
        """True while a job for ``key`` is queued or running."""
        return key in self._keys

    async def choose_move(self, key: Hashable, position: engine.Position, *, level: int = 3,
                          seconds: float | None = None, seed: int | None = None,
                          playouts: int | None = None, lane: str = "main",
                          deadline: float | None = None) -> ai.Decision:
        """:func:`ai.choose_move` on ``position`` in a worker; returns the ``ai.Decision``.

        ``key`` is the game (any hashable); ``lane`` ``"main"`` (the computer's moves) or
        ``"analysis"`` (an analysis board's Engine request: see the module for the order).
        ``deadline`` (the event loop's clock, :meth:`asyncio.AbstractEventLoop.time`): when the
        search must end; the search's time cap is then :func:`time_cap` of ``seconds`` (needed
        with a deadline) when a worker takes it. Raises :class:`SearchBusy`,
        :class:`QueueFull`, :class:`SearchFailed` (e.g. the search's ValueError for a finished
        position), :class:`WorkerDied`, CancelledError when cancelled, and ValueError for an
        unknown lane or a deadline without ``seconds``.
        """
        if deadline is not None and seconds is None:
            raise ValueError("a deadline needs seconds (the longest the search may take)")
        decision = await self._submit(key, "move", (position.to_text(), level, seconds, seed, playouts),
                                      lane=lane, deadline=deadline)
        return cast("ai.Decision", decision)  # what _job_move returned, back through the pipe

    async def review(self, key: Hashable, kind: str, options: Mapping[str, Any] | None,
                     moves: Sequence[str], *, progress: Callable[[int, int], object] | None = None,
                     **kwargs: Any) -> GameReview:
        """:func:`ai.review.review_game` in a worker; returns its ``GameReview``.

        ``progress(done, total)`` is called on the event loop as positions are searched;
        ``kwargs`` go to ``review_game`` (level, seconds, playouts, seed, swings). Raises as
        :meth:`choose_move` (a record that does not replay fails with SearchFailed).
        """
        review = await self._submit(key, "review", (kind, dict(options or {}), list(moves), kwargs),
                                    progress)
        return cast("GameReview", review)  # what _job_review returned, back through the pipe

    async def call(self, key: Hashable, func: Callable[..., Any], *args: Any, lane: str = "main") -> Any:
        """``func(*args)`` in a worker (both picklable), under the same queue rules (``lane``
        as in :meth:`choose_move`)."""
        return await self._submit(key, "call", (func, args), lane=lane)

    def cancel(self, key: Hashable) -> bool:
        """Drop ``key``'s job: remove it from the queue, or end the worker running it (a
        new worker replaces it). Its caller gets CancelledError. False when ``key`` has no
        job."""
        job = self._keys.get(key)
        if job is None:
            return False
        for queue in (self._queue, self._analysis):
            if job in queue:
                queue.remove(job)
                self._drop(job)
                return True
        for w in self._workers:
            if w.job is job:
                self._retire(w, cancel=True)
                if not self._closed:
                    self._spawn()
                self._dispatch()
                return True
        return False  # pragma: no cover - a key always has a queued or running job

    # inside ---------------------------------------------------------------------------

    async def _submit(self, key: Hashable, kind: str, args: tuple[Any, ...],
                      progress: Callable[[int, int], object] | None = None, *, lane: str = "main",
                      deadline: float | None = None) -> Any:
        if lane not in ("main", "analysis"):
            raise ValueError(f"lane must be 'main' or 'analysis', not {lane!r}")
        if self._loop is None or self._closed:
            raise SearchPoolError("the search pool is not running")
        if key in self._keys:
            raise SearchBusy("the computer is already thinking about this game")
        if self.queued >= self.max_queue:
            raise QueueFull("the computer has too many games to think about right now; "
                            "try again in a minute")
        self._seq += 1
        job = _Job(key, kind, args, self._loop.create_future(), progress, lane, self._seq,
                   deadline=deadline)
        self._keys[key] = job
        (self._analysis if lane == "analysis" else self._queue).append(job)
        self._dispatch()
        try:
            return await asyncio.shield(job.future)
        except asyncio.CancelledError:
            if not job.future.done() and self._keys.get(key) is job:  # our caller was cancelled
                self.cancel(key)
            raise

    def _spawn(self) -> None:
        assert self._loop is not None  # start() set it before any worker
        parent, child = self._ctx.Pipe()
        proc = self._ctx.Process(target=worker_main, args=(child, os.getpid()),
                                 name="stonecast-search", daemon=True)
        proc.start()
        child.close()
        w = _Worker(proc, parent)
        self._workers.append(w)
        self.started += 1
        self._loop.add_reader(parent.fileno(), self._on_message, w)
        self._loop.add_reader(proc.sentinel, self._on_exit, w)
        w.readers = [parent.fileno(), proc.sentinel]

    def _next_job(self) -> _Job:
        """The job a free worker takes: the oldest of the analysis lane unless a computer
        move queued before it has already been overtaken by an analysis search (each move
        queued before it then counts this one; moves queued after it are not overtaken:
        it came first), else the oldest computer move (the module's rules). Overtaken
        moves are always the oldest ones, so the oldest move is one of them."""
        if self._analysis:
            first = self._analysis[0]
            ahead = [j for j in self._queue if j.seq < first.seq]
            if not any(j.passed for j in ahead):
                for j in ahead:
                    j.passed += 1
                return self._analysis.popleft()
        return self._queue.popleft() if self._queue else self._analysis.popleft()

    def _message(self, job: _Job) -> tuple[str, tuple[Any, ...]]:
        """What a worker is sent for ``job``: a search goes with its key (the worker keeps the
        game's tree under it), and one with a deadline gets its time cap now."""
        if job.kind != "move":
            return job.kind, job.args
        if job.deadline is None:
            return job.kind, (job.key, *job.args)
        assert self._loop is not None  # jobs exist only once start() set it
        text, level, seconds, seed, playouts = job.args
        cap = time_cap(seconds, job.deadline, self._loop.time())
        return job.kind, (job.key, text, level, cap, seed, playouts)

    def _dispatch(self) -> None:
        for w in self._workers:
            if not self._queue and not self._analysis:
                return
            if w.job is None:
                job = self._next_job()
                w.job = job
                try:
                    w.conn.send(self._message(job))
                except Exception as e:  # noqa: BLE001 - unpicklable arguments or a dead pipe
                    w.job = None
                    self._finish(job, SearchFailed(f"the search could not start: {e}"))

    def _on_message(self, w: _Worker) -> None:
        try:
            msg = w.conn.recv()
        except (EOFError, OSError):
            self._on_exit(w)
            return
        job = w.job
        if job is None:  # pragma: no cover - a worker only speaks while it has a job
            return
        if msg[0] == "progress":
            if job.progress is not None:
                try:
                    job.progress(msg[1], msg[2])
                except Exception:  # noqa: BLE001 - a caller's callback must not break the pool
                    pass
            return
        w.job = None
        if msg[0] == "ok":
            self._finish(job, result=msg[1])
        else:
            self._finish(job, SearchFailed(msg[1]))
        self._dispatch()

    def _on_exit(self, w: _Worker) -> None:
        if w not in self._workers:
            return
        job = w.job
        self._retire(w, cancel=False)
        if job is not None:
            self._finish(job, WorkerDied("the search's worker process died; try again"))
        if not self._closed:
            self._spawn()
            self._dispatch()

    def _retire(self, w: _Worker, *, cancel: bool) -> None:
        """Stop watching ``w``, end its process and (``cancel``) cancel its job."""
        assert self._loop is not None  # a worker exists only once start() set it
        for fd in w.readers:
            self._loop.remove_reader(fd)
        w.readers = []
        self._workers.remove(w)
        if w.process.is_alive():
            w.process.kill()
        w.conn.close()
        self._workers_gone.append(w)
        if cancel and w.job is not None:
            self._drop(w.job)
        w.job = None
        self._reap()

    def _reap(self) -> None:
        """Join workers that have exited (no zombies left behind)."""
        still = []
        for w in self._workers_gone:
            if w.process.is_alive():
                still.append(w)
            else:
                w.process.join(0)
                w.process.close()
        self._workers_gone[:] = still

    def _drop(self, job: _Job) -> None:
        self._keys.pop(job.key, None)
        if not job.future.done():
            job.future.cancel()

    def _finish(self, job: _Job, error: BaseException | None = None, result: Any = None) -> None:
        self._keys.pop(job.key, None)
        if job.future.done():
            return
        if error is not None:
            job.future.set_exception(error)
        else:
            job.future.set_result(result)
