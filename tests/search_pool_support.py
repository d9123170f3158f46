"""Picklable jobs for tests/test_search_pool.py (run in the pool's worker processes)."""

from __future__ import annotations

import os
import signal
import time


def sleep_then(seconds: float, value):
    """Sleep ``seconds``, then return ``value``."""
    time.sleep(seconds)
    return value


def pid_of_worker() -> int:
    """The worker's process id."""
    return os.getpid()


def die() -> None:
    """Kill this worker as the kernel's OOM killer would (SIGKILL)."""
    os.kill(os.getpid(), signal.SIGKILL)


def fail(text: str) -> None:
    """Raise ValueError(text) in the worker."""
    raise ValueError(text)
