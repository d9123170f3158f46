"""The worker side of :mod:`bot.workers.search_pool`: what runs in a search process.

A worker (:func:`worker_main`) reads ``(kind, args)`` jobs from its pipe and answers
``("ok", result)`` or ``("error", text)``, sending ``("progress", done, total)`` on the way;
the kinds are ``"move"`` (:func:`ai.choose_move`), ``"review"``
(:func:`ai.review.review_game`) and ``"call"`` (any picklable callable; tests use it).

Tree reuse (issue 24): a worker keeps the search tree of the last move it chose in each of
the :data:`KEPT_TREES` games it searched most recently, keyed by the pool's key (the game),
and a level that keeps its tree (:attr:`ai.Level.keep_tree`) starts its next move in that
game from it when the position follows (the tree holds the position and its ply). A game's
next move searched by another worker, or after a worker was replaced, starts afresh.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any

from .procs import die_with_parent

if TYPE_CHECKING:
    import ai

__all__ = ["KEPT_TREES", "worker_main"]

#: How many games' search trees a worker keeps (the most recently searched; a level-5 tree
#: of Io is a few megabytes).
KEPT_TREES = 8

_trees: OrderedDict[Hashable, ai.SearchTree] = OrderedDict()


# --- in the worker ----------------------------------------------------------------------

def _job_move(key: Hashable, text: str, level: int, seconds: float | None, seed: int | None,
              playouts: int | None, send: Callable[[object], object]) -> Any:
    import ai
    import engine
    tree = _trees.pop(key, None) or ai.SearchTree()
    decision = ai.choose_move(engine.from_text(text), level=level, seconds=seconds, seed=seed,
                              playouts=playouts, tree=tree)
    if tree.node is not None:  # kept only where the level keeps its tree
        _trees[key] = tree
        while len(_trees) > KEPT_TREES:
            _trees.popitem(last=False)
    return decision


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
