"""bot.workers.search_pool: one FIFO queue of searches in worker processes (small searches)."""

from __future__ import annotations

import asyncio
import collections
import os
import time

import pytest
from search_pool_support import die, fail, pid_of_worker, sleep_then

import ai
import engine
from ai.review import review_game
from bot.workers import search_jobs
from bot.workers.search_pool import (
    FLOOR_SECONDS,
    OVERRUN,
    QueueFull,
    SearchBusy,
    SearchFailed,
    SearchPool,
    SearchPoolError,
    WorkerDied,
    time_cap,
    workers_from_env,
)


def test_a_worker_keeps_each_games_tree_for_its_next_move(monkeypatch):
    """Tree reuse in the worker (issue 24): the tree of a level that keeps it (level 5 in
    Io) is kept under the game's key, and that game's next move starts from it; a level that
    keeps none stores nothing; beyond KEPT_TREES games the least recently searched goes."""
    monkeypatch.setattr(search_jobs, "_trees", collections.OrderedDict())
    monkeypatch.setattr(search_jobs, "KEPT_TREES", 2)
    trees = search_jobs._trees
    pos = engine.new_game("io", size=7).play("d4")

    def move(key: str, position: engine.Position, level: int, playouts: int) -> ai.Decision:
        return search_jobs._job_move(key, position.to_text(), level, None, 1, playouts,
                                     lambda _message: None)

    d = move("g1", pos, 5, 800)
    assert trees["g1"].after == pos.play(d.move) and trees["g1"].reused == 0
    reply = pos.play(d.move).play(d.line[1])
    move("g1", reply, 5, 100)
    assert trees["g1"].reused > 0
    move("g2", pos, 3, 100)
    assert list(trees) == ["g1"]
    move("g3", pos, 5, 100)
    move("g4", pos, 5, 100)
    assert list(trees) == ["g3", "g4"]


async def test_choose_move_and_review_give_the_same_results_as_in_process():
    pos = engine.replay("coil", {"size": 5}, ["c3", "d4"])
    moves = ["c3", "d4", "e5", "b2"]
    async with SearchPool(1) as pool:
        d = await pool.choose_move("g1", pos, level=2, playouts=60, seed=4)
        seen = []
        r = await pool.review("g2", "coil", {"size": 5}, moves, playouts=30, seed=3,
                              progress=lambda done, total: seen.append((done, total)))
    here = ai.choose_move(pos, level=2, playouts=60, seed=4)
    assert (d.move, d.value, d.playouts, d.line) == (here.move, here.value, here.playouts, here.line)
    assert r == review_game("coil", {"size": 5}, moves, playouts=30, seed=3)
    assert seen == [(i, 5) for i in range(1, 6)]


async def test_first_come_first_served_across_games():
    async with SearchPool(1) as pool:
        finished = []

        async def job(key, delay):
            await pool.call(key, sleep_then, delay, key)
            finished.append(key)

        tasks = []
        for i, key in enumerate(["a", "b", "c", "d", "e"]):
            tasks.append(asyncio.create_task(job(key, 0.2 if i == 0 else 0.01)))
            await asyncio.sleep(0)  # each submits in turn
        await asyncio.gather(*tasks)
    # a long first job does not let the later ones overtake the queue's order
    assert finished == ["a", "b", "c", "d", "e"]


async def test_analysis_lane_goes_first_but_delays_a_computer_move_by_one_search_at_most():
    """Issue 23: an Engine request (lane "analysis") takes the next free worker ahead of the
    computer moves queued before it, unless one of them has already been overtaken by an
    analysis search; so each computer move waits through at most one analysis search, and a
    move queued after an Engine request does not hold it back (it came first)."""
    async with SearchPool(1) as pool:
        finished = []

        async def job(key, delay, lane="main"):
            await pool.call(key, sleep_then, delay, key, lane=lane)
            finished.append(key)

        tasks = []
        for key, delay, lane in [("m0", 0.2, "main"), ("m1", 0.01, "main"), ("m2", 0.01, "main"),
                                 ("e1", 0.2, "analysis"), ("e2", 0.01, "analysis"),
                                 ("e3", 0.01, "analysis")]:
            tasks.append(asyncio.create_task(job(key, delay, lane)))
            await asyncio.sleep(0)
        await asyncio.sleep(0.3)  # e1 runs now: a move queued meanwhile waits for it only
        tasks.append(asyncio.create_task(job("m3", 0.01)))
        await asyncio.sleep(0)
        tasks.append(asyncio.create_task(job("e4", 0.01, "analysis")))
        await asyncio.gather(*tasks)
        with pytest.raises(ValueError):
            await pool.call("x", sleep_then, 0, 1, lane="fast")
    # e1 overtakes m1 and m2 once; they then go before e2 and e3 (queued before e2, so it
    # cannot overtake them again); m3 came after e2 and e3, so they go first as they would
    # in plain order; e4 came after m3 and overtakes it, once
    assert finished == ["m0", "e1", "m1", "m2", "e2", "e3", "e4", "m3"]


def test_time_cap_is_the_time_left_less_the_overrun_within_bounds():
    assert time_cap(5.0, deadline=100.0, now=94.0) == 5.0  # 6 s left: the search's own cap
    assert time_cap(5.0, deadline=100.0, now=97.8) == pytest.approx(2.0)  # 2.2 s left, 10% overrun
    assert time_cap(5.0, deadline=100.0, now=101.0) == FLOOR_SECONDS  # past due: the floor


async def test_a_search_with_a_deadline_gets_the_time_left_when_a_worker_takes_it():
    """An Engine request's time cap is fixed when a worker takes it, from its deadline: the
    longer it waited, the shorter it searches (no deadline: the caller's seconds as given)."""
    async with SearchPool(1) as pool:
        [worker] = pool._workers
        sent, pipe = [], worker.conn

        class Spy:  # records what the worker is sent
            def __getattr__(self, name):
                return getattr(pipe, name)

            def send(self, message):
                sent.append(message)
                pipe.send(message)

        worker.conn = Spy()
        loop = asyncio.get_running_loop()
        pos = engine.replay("coil", {"size": 5}, ["c3"])
        busy = asyncio.create_task(pool.call("m", sleep_then, 0.3, 1))
        await asyncio.sleep(0)
        queued = loop.time()
        due = queued + 3.0
        search = asyncio.create_task(pool.choose_move("e", pos, level=2, seconds=5.0, playouts=30, seed=1,
                                                      lane="analysis", deadline=due))
        await busy
        taken = loop.time()  # the worker took the search when busy's answer came, before this
        await search
        kind, (key, _, level, seconds, _, playouts) = sent[-1]
        assert (kind, key, level, playouts) == ("move", "e", 2, 30)
        assert (due - taken) / OVERRUN <= seconds <= (due - queued - 0.3) / OVERRUN < 5.0
        await pool.choose_move("e", pos, level=2, seconds=5.0, playouts=30, deadline=loop.time() - 1)
        assert sent[-1][1][3] == FLOOR_SECONDS
        await pool.choose_move("e", pos, level=2, seconds=5.0, playouts=30)
        assert sent[-1][1][3] == 5.0
        with pytest.raises(ValueError, match="needs seconds"):
            await pool.choose_move("e", pos, level=2, deadline=loop.time())


async def test_one_search_per_game_second_request_is_refused():
    async with SearchPool(1) as pool:
        first = asyncio.create_task(pool.call("game", sleep_then, 0.3, 1))
        await asyncio.sleep(0)
        assert pool.busy("game")
        with pytest.raises(SearchBusy):
            await pool.call("game", sleep_then, 0, 2)
        assert await first == 1
        assert not pool.busy("game")
        # once done, the game may search again
        assert await pool.call("game", sleep_then, 0, 3) == 3


async def test_queue_bound_raises_queue_full():
    async with SearchPool(1, max_queue=2) as pool:
        running = asyncio.create_task(pool.call("r", sleep_then, 0.4, "r"))
        await asyncio.sleep(0.05)  # "r" goes to the worker, the queue is empty
        waiting = [asyncio.create_task(pool.call(k, sleep_then, 0, k)) for k in ("q1", "q2")]
        await asyncio.sleep(0)
        assert pool.queued == 2
        with pytest.raises(QueueFull, match="too many games"):
            await pool.call("q3", sleep_then, 0, "q3")
        assert not pool.busy("q3")
        assert await running == "r"
        assert await asyncio.gather(*waiting) == ["q1", "q2"]


async def test_worker_death_fails_its_job_and_the_worker_is_replaced():
    async with SearchPool(1) as pool:
        first_pid = await pool.call("p", pid_of_worker)
        queued = asyncio.create_task(pool.call("next", sleep_then, 0, "after"))
        with pytest.raises(WorkerDied):
            await pool.call("dies", die)
        await asyncio.sleep(0)
        # the queued job runs on the replacement, which is a new process
        assert await queued == "after"
        second_pid = await pool.call("p", pid_of_worker)
        assert second_pid != first_pid
        assert pool.started == 2
        assert await pool.call("p", sleep_then, 0, 7) == 7


async def test_an_exception_in_the_search_fails_the_job_only():
    async with SearchPool(1) as pool:
        with pytest.raises(SearchFailed, match="ValueError: no good"):
            await pool.call("x", fail, "no good")
        finished = engine.replay("coil", {"size": 5}, ["c3"]).resign(1)
        with pytest.raises(SearchFailed, match="game is over"):
            await pool.choose_move("x", finished, level=1)
        with pytest.raises(SearchFailed, match="move 2"):
            await pool.review("x", "coil", {"size": 5}, ["c3", "c3"], playouts=10)
        assert pool.started == 1  # the worker survived
        assert await pool.call("x", sleep_then, 0, "fine") == "fine"


async def test_cancel_a_pending_and_a_running_search():
    async with SearchPool(1) as pool:
        running = asyncio.create_task(pool.call("run", sleep_then, 30, "never"))
        await asyncio.sleep(0.05)
        pending = asyncio.create_task(pool.call("wait", sleep_then, 30, "never"))
        later = asyncio.create_task(pool.call("later", sleep_then, 0, "later"))
        await asyncio.sleep(0)
        assert pool.cancel("wait")
        with pytest.raises(asyncio.CancelledError):
            await pending
        assert not pool.cancel("wait")
        assert pool.cancel("run")  # the worker is ended and replaced (not left sleeping 30 s)
        with pytest.raises(asyncio.CancelledError):
            await running
        assert await later == "later"
        assert pool.started == 2
        # cancelling the awaiting task cancels its search too
        task = asyncio.create_task(pool.call("t", sleep_then, 0.5, 1))
        await asyncio.sleep(0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert not pool.busy("t")


async def test_two_workers_run_two_games_at_once():
    async with SearchPool(2) as pool:
        pids = await asyncio.gather(pool.call("a", pid_of_worker), pool.call("b", pid_of_worker))
        both = asyncio.gather(pool.call("a", sleep_then, 0.3, 1), pool.call("b", sleep_then, 0.3, 2))
        await asyncio.sleep(0)
        assert (pool.running, pool.queued) == (2, 0)
        assert await both == [1, 2]
    assert len(set(pids)) == 2


async def test_close_ends_the_workers():
    pool = SearchPool(1)
    await pool.start()
    pid = await pool.call("a", pid_of_worker)
    waiting = asyncio.create_task(pool.call("b", sleep_then, 30, 0))
    await asyncio.sleep(0.05)
    await pool.close()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    with pytest.raises(SearchPoolError):
        await pool.call("c", pid_of_worker)


def test_worker_count_from_the_environment():
    assert workers_from_env({}) == 1
    assert workers_from_env({"STONECAST_AI_WORKERS": " 3 "}) == 3
    for bad in ("0", "-1", "two", "65"):
        with pytest.raises(ValueError, match="STONECAST_AI_WORKERS"):
            workers_from_env({"STONECAST_AI_WORKERS": bad})
    with pytest.raises(ValueError):
        SearchPool(0)
    with pytest.raises(ValueError):
        SearchPool(1, max_queue=0)


BOT_SCRIPT = """
import asyncio, sys
sys.path[:0] = {paths!r}
from search_pool_support import pid_of_worker
from bot.workers.search_pool import SearchPool

async def main():
    pool = SearchPool(2)
    await pool.start()
    pids = await asyncio.gather(pool.call(1, pid_of_worker), pool.call(2, pid_of_worker))
    print(*pids, flush=True)
    await asyncio.sleep(60)

asyncio.run(main())
"""


def test_workers_die_with_the_bot_when_it_is_killed():
    import signal
    import subprocess
    import sys

    here = os.path.dirname(__file__)
    paths = [here, os.path.dirname(here)]
    proc = subprocess.Popen([sys.executable, "-c", BOT_SCRIPT.format(paths=paths)],
                            stdout=subprocess.PIPE, text=True)
    try:
        pids = [int(p) for p in proc.stdout.readline().split()]
        assert len(pids) == 2
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        deadline = time.monotonic() + 10
        alive = pids
        while alive and time.monotonic() < deadline:
            alive = [p for p in pids if _alive(p)]
            time.sleep(0.05)
        assert alive == []
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
