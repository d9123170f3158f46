"""Worker processes that never outlive the bot (DESIGN.md: every process the bot starts dies with it).

Use :func:`process_pool` for every pool of worker processes (board rendering, the computer
opponent's search, ...). Each worker it starts runs :func:`die_with_parent` first, so it
exits within moments of the bot's process going, however the bot died (SIGKILL included):

* on Linux the kernel sends the worker SIGKILL when its parent goes
  (``prctl(PR_SET_PDEATHSIG)``);
* everywhere, a daemon thread in the worker waits for the parent to go -- on a pidfd of the
  parent where the platform has one (woken by the kernel, no polling), else by watching
  ``os.getppid()`` change -- and ends the worker.

multiprocessing's resource tracker (started for the pool's semaphores) needs nothing of its
own: it exits when its pipe reaches end of file, i.e. once the bot and every worker, the
only holders of the pipe's write end, are gone.

Caveat of ``PR_SET_PDEATHSIG``: the signal follows the *thread* that started the worker.
Create the pool and submit to it from a thread that lives as long as the bot (the event
loop's), never from a short-lived thread such as ``asyncio.to_thread``'s.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import select
import signal
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
# How often the portable fallback looks at os.getppid() (seconds); used only where the
# platform has neither prctl nor pidfds.
PPID_POLL_INTERVAL = 0.5


def die_with_parent(parent_pid: int) -> None:
    """Make this process end when process ``parent_pid`` (its parent) ends.

    Meant as (the start of) a pool's initializer, called in the new worker with the pid of
    the process that created the pool. Exits at once if that parent is already gone.
    """
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # no usable libc: the watcher thread still works
            pass
    if os.getppid() != parent_pid:  # the parent died before the line above took effect
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent_pid,), name="stonecast-parent-watch",
                     daemon=True).start()


def _watch_parent(parent_pid: int) -> None:
    """Block until ``parent_pid`` ends, then end this process (runs in a daemon thread)."""
    fd = None
    if hasattr(os, "pidfd_open"):
        try:
            fd = os.pidfd_open(parent_pid)
        except OSError:
            fd = None
    if fd is not None and os.getppid() == parent_pid:  # the pidfd is of our parent, not a reused pid
        while True:
            readable, _, _ = select.select([fd], [], [])
            if readable:
                break
    else:
        while os.getppid() == parent_pid:
            time.sleep(PPID_POLL_INTERVAL)
    os._exit(1)


def _init_worker(parent_pid: int, initializer: Callable[..., object] | None,
                 initargs: tuple[Any, ...]) -> None:
    """The initializer of every worker of :func:`process_pool`."""
    die_with_parent(parent_pid)
    if initializer is not None:
        initializer(*initargs)


def process_pool(workers: int, *, initializer: Callable[..., object] | None = None,
                 initargs: tuple[Any, ...] = ()) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes (started with "spawn") that end with this process.

    ``initializer(*initargs)`` runs in each worker after :func:`die_with_parent`. Create it
    and submit to it from a long-lived thread (see the module docstring).
    """
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_init_worker, initargs=(os.getpid(), initializer, initargs))
