"""The render pool: board PNGs and replay GIFs drawn off the event loop.

Rendering never runs on the event loop: :class:`BoardRenderer` sends it to worker processes
(so Pillow's work does not even compete with the loop for the GIL), or to a thread when
configured with no workers. The bot owns one (``bot.renderer``); the announcer renders the
boards it posts through it.

Languages (issue 22): a board's panel is worded by the caller (:func:`bot.texts.panel_text`, in
the post's language) and drawn as given; what a worker words itself (a replay's frames, a
review's chart) it words in the ``language`` passed along explicitly -- the caller's current
language when it asked (:func:`bot.texts.i18n.current_locale`), since neither a process nor an
executor's thread inherits the caller's context.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

import engine
import renderers
from bot import texts
from bot.texts import i18n
from renderers.chart import review_from_dict

from .procs import process_pool

log = logging.getLogger("stonecast.bot")

_T = TypeVar("_T")


def render_text(position_text: str, players: Mapping[int, str] | None, text: renderers.PanelText,
                markers: list[tuple[int, str, str]] | None = None) -> bytes:
    """PNG bytes of the position given as its one-line text, its panel drawing ``text``, with
    an analysis board's numbered ``markers`` (runs in a worker)."""
    return renderers.render_png(engine.from_text(position_text), players=players, text=text,
                                markers=markers)


def replay_texts(kind: str, options: Mapping[str, object], moves: list[str]) -> list[renderers.PanelText]:
    """The panel's words of every frame of a replay (:func:`bot.texts.panel_text`): the
    start, then after each move. Raises the engine's errors for a bad game or move."""
    position = engine.new_game(kind, **dict(options))
    out = [texts.panel_text(position)]
    for move in moves:
        position = position.play(move)
        out.append(texts.panel_text(position))
    return out


def render_gif(kind: str, options: Mapping[str, object], moves: list[str], players: Mapping[int, str] | None,
               language: str = i18n.DEFAULT) -> bytes:
    """GIF bytes replaying a game, each frame's panel worded by :func:`replay_texts` in
    ``language`` (runs in a worker)."""
    with i18n.speaking(language):
        words = replay_texts(kind, options, moves)
    return renderers.render_gif(kind, options, moves, players=players, texts=words)


def render_review(review: dict[str, Any], players: Mapping[int, str] | None, final_text: str | None,
                  language: str = i18n.DEFAULT) -> bytes:
    """PNG bytes of a review's chart from its plain data (``GameReview.to_dict()``) and the
    game's last position as text (None: the moves replayed), its words from
    :func:`bot.texts.chart_text` in ``language`` (runs in a worker)."""
    chart = review_from_dict(review)
    final = (engine.from_text(final_text) if final_text
             else engine.replay(chart.kind, chart.options, [p.move for p in chart.plies]))
    with i18n.speaking(language):
        words = texts.chart_text(chart, final)
    return renderers.render_review_png(chart, players=players, final=final, text=words)


def _warm_up() -> int:
    """Import and exercise the renderer once (the first game of the menu, its default board)
    so the first real board is fast."""
    position = engine.new_game(engine.MENU_ORDER[0])
    return len(render_text(position.to_text(), None, texts.panel_text(position)))


def default_workers() -> int:
    """Render processes to use: one per CPU, at least 2, at most 4 (benchmarks/bot.py)."""
    return max(2, min(4, os.cpu_count() or 2))


class BoardRenderer:
    """Renders positions off the event loop.

    ``workers`` > 0: a pool of that many processes (:func:`bot.workers.procs.process_pool`: they end
    with the bot however it dies; warmed up by :meth:`start`); 0: a thread
    (``asyncio.to_thread``). :meth:`close` stops the pool.
    """

    def __init__(self, workers: int | None = None):
        self.workers = default_workers() if workers is None else workers
        self._pool: ProcessPoolExecutor | None = None

    def start(self) -> None:
        """Start the worker processes and warm each one up in the background."""
        if self.workers > 0 and self._pool is None:
            self._pool = process_pool(self.workers)
            for _ in range(self.workers):
                self._pool.submit(_warm_up)

    async def render(self, position: engine.Position, players: Mapping[int, str] | None = None,
                     text: renderers.PanelText | None = None,
                     markers: list[tuple[int, str, str]] | None = None) -> bytes:
        """PNG bytes of ``position`` (see ``renderers.render_png``), its panel drawing ``text``
        (:func:`bot.texts.panel_text`: the players' time too, issue 19; None: the words of a
        panel without clocks); ``markers``: an analysis board's numbered line (issue 23)."""
        words = texts.panel_text(position) if text is None else text
        if self.workers <= 0:
            return await asyncio.to_thread(renderers.render_png, position, players=players, text=words,
                                           markers=markers)
        return await self._in_pool(render_text, position.to_text(), dict(players) if players else None,
                                   words, markers)

    async def render_gif(self, kind: str, options: Mapping[str, object], moves: list[str],
                         players: Mapping[int, str] | None = None) -> bytes:
        """An animated GIF replay of a game (see ``renderers.render_gif``), its panels in the
        current language."""
        args = (kind, dict(options), list(moves), dict(players) if players else None, i18n.current_locale())
        if self.workers <= 0:
            return await asyncio.to_thread(render_gif, *args)
        return await self._in_pool(render_gif, *args)

    async def render_review(self, review: dict[str, Any], players: Mapping[int, str] | None = None,
                            final: engine.Position | None = None) -> bytes:
        """The chart of a review (``GameReview.to_dict()``; see ``renderers.render_review_png``);
        ``final``: the game's last position (after a resignation or timeout, which is no move).
        Its words in the current language."""
        args = (review, dict(players) if players else None, final.to_text() if final else None,
                i18n.current_locale())
        if self.workers <= 0:
            return await asyncio.to_thread(render_review, *args)
        return await self._in_pool(render_review, *args)

    async def _in_pool(self, fn: Callable[..., _T], *args: Any) -> _T:
        """``fn(*args)`` in a worker process. A pool broken by a dead worker (killed by the
        OS, a crash in native code) is replaced and the call tried once more."""
        for attempt in (1, 2):
            self.start()
            pool = self._pool
            assert pool is not None  # start() made it (workers > 0 here)
            try:
                return await asyncio.get_running_loop().run_in_executor(pool, fn, *args)
            except BrokenProcessPool:
                if attempt == 2:
                    raise
                log.warning("a render worker died; starting new ones", exc_info=True)
                if self._pool is pool:  # not yet replaced by a concurrent render
                    self._pool = None
                    pool.shutdown(wait=False, cancel_futures=True)
        raise AssertionError("unreachable: the second attempt returns or raises")

    def close(self) -> None:
        """Stop the worker processes (pending renders are cancelled)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
