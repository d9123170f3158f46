"""The search pool's terms (:mod:`bot.workers.search_pool`): its errors, its size from the
environment, and the time cap of a search that has a deadline (an analysis board's Engine
request, issue 23). No processes here."""

from __future__ import annotations

import os
from collections.abc import Mapping

__all__ = ["DEFAULT_MAX_QUEUE", "FLOOR_SECONDS", "OVERRUN", "QueueFull", "SearchBusy",
           "SearchFailed", "SearchPoolError", "WorkerDied", "time_cap", "workers_from_env"]

#: Jobs that may wait at once when no ``max_queue`` is given.
DEFAULT_MAX_QUEUE = 100
#: How far past its time cap a search may run, as a factor (:func:`ai.choose_move` stops
#: "within about 10% past its cap").
OVERRUN = 1.1
#: The shortest time cap a job with a deadline is given, in seconds, even once its deadline
#: has passed (a late answer of a short search beats none).
FLOOR_SECONDS = 0.5


def time_cap(seconds: float, deadline: float, now: float) -> float:
    """The time cap, in seconds, of a search that may take ``seconds`` and must end by
    ``deadline`` (same clock as ``now``, in seconds): the time left divided by
    :data:`OVERRUN`, at most ``seconds``, at least :data:`FLOOR_SECONDS`."""
    return max(FLOOR_SECONDS, min(seconds, (deadline - now) / OVERRUN))


class SearchPoolError(Exception):
    """Base of the pool's errors; the message can be shown to a player."""


class SearchBusy(SearchPoolError):
    """A search for this key (game) is already queued or running."""


class QueueFull(SearchPoolError):
    """The queue holds ``max_queue`` jobs already."""


class SearchFailed(SearchPoolError):
    """The search raised an exception in the worker (its text is the message)."""


class WorkerDied(SearchFailed):
    """The worker running the search died (it has been replaced)."""


def workers_from_env(environ: Mapping[str, str] | None = None) -> int:
    """Worker count from ``STONECAST_AI_WORKERS`` (default 1). Raises ValueError unless it
    is a whole number from 1 to 64."""
    text = (os.environ if environ is None else environ).get("STONECAST_AI_WORKERS", "").strip()
    if not text:
        return 1
    try:
        n = int(text)
    except ValueError:
        n = 0
    if not 1 <= n <= 64:
        raise ValueError(f"STONECAST_AI_WORKERS must be a whole number from 1 to 64, not {text!r}")
    return n
