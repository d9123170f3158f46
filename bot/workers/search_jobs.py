"""The worker side of :mod:`bot.workers.search_pool`: what runs in a search process.

A worker (:func:`worker_main`) reads ``(kind, args)`` jobs from its pipe and answers
``("ok", result)`` or ``("error", text)``, sending ``("progress", done, total)`` on the way;
the kinds are ``"move"`` (:func:`ai.choose_move`), ``"review"``
(:func:`ai.review.review_game`) and ``"call"`` (any picklable callable; tests use it).
"""

from __future__ import annotations

from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

from .procs import die_with_parent

__all__ = ["worker_main"]


# --- in the worker ----------------------------------------------------------------------

def _job_move(text: str, level: int, seconds: float | None, seed: int | None,
              playouts: int | None, send: Callable[[object], object]) -> Any:
    import ai
    import engine
    return ai.choose_move(engine.from_text(text), level=level, seconds=seconds, seed=seed,
                          playouts=playouts)


def _job_review(kind: str, options: dict[str, Any], moves: list[str], kwargs: dict[str, Any],
                send: Callable[[object], object]) -> Any:
    from ai.review import review_game
    return review_game(kind, options, moves, progress=lambda d, t: send(("progress", d, t)),
                       **kwargs)


def _job_call(func: Callable[..., Any], args: tuple[Any, ...], send: Callable[[object], object]) -> Any:
    """Any picklable callable (tests use it to make a worker misbehave)."""
    return func(*args)


_JOBS: dict[str, Callable[..., Any]] = {"move": _job_move, "review": _job_review, "call": _job_call}


def worker_main(conn: Connection, parent_pid: int) -> None:
    """A worker: read ``(kind, args)`` jobs, answer ``("ok", result)`` or
    ``("error", text)``, sending ``("progress", done, total)`` on the way."""
    die_with_parent(parent_pid)
    while True:
        try:
            kind, args = conn.recv()
        except EOFError:
            return
        try:
            result = _JOBS[kind](*args, conn.send)
        except Exception as e:  # noqa: BLE001 - any failure of the search goes back to the caller
            conn.send(("error", f"{type(e).__name__}: {e}"))
        else:
            conn.send(("ok", result))
