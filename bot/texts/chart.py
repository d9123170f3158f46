"""A game review's chart (computer topic): every word the picture of /review draws, as a
:class:`renderers.ChartText` the bot passes to the renderer.

Part of :mod:`bot.texts` (every sentence a player reads)."""

from __future__ import annotations

from typing import Any

import engine
from renderers import ChartText, Headline, Name, SwingText

from .common import title
from .panel import DRAW, panel_options, result_detail, unnamed

__all__ = ["chart_text"]

#: The chart's fixed words: over the plot around seat 1's name, under the move numbers, the
#: words for the stone colours, the swings' heading and the line when there is none.
CHART_HEADING = ("", "'s chances of winning")
CHART_AXIS = "move"
CHART_COLOURS = ("Black", "White")
TURNING_POINTS = "Turning points"
NO_SWINGS = "No move changed the game much."
SEARCH_AGREED, SEARCH_PREFERRED = "search agreed", "search preferred"


def percent(chance: float) -> str:
    """A chance 0..1 as the chart writes it: ``"71%"``."""
    return f"{round(chance * 100)}%"


def _swing(swing: Any) -> SwingText:
    """The words of one swing (``ply``, ``seat``, ``move``, ``preferred``, the mover's
    ``before`` and ``after`` chances)."""
    better = swing.preferred if swing.preferred and swing.preferred != swing.move else ""
    return SwingText(label=f"{swing.ply}. {swing.move}",
                     heading=Headline(f"move {swing.ply}, ", Name(swing.seat), f"'s {swing.move}"),
                     short=f"move {swing.ply}, {swing.move}",
                     chances=f"{percent(swing.before)} → {percent(swing.after)}",
                     note=SEARCH_PREFERRED if better else SEARCH_AGREED, preferred=better)


def chart_text(review: Any, final: engine.Position) -> ChartText:
    """Every word of the chart of ``review`` (an ``ai.review.GameReview`` or
    ``renderers.chart.review_from_dict``'s result: ``kind``, ``plies``, ``swings``) whose game
    ended in ``final`` (the result: who won and why, :data:`bot.texts.PANEL_CAPTIONS`; or
    unfinished after so many moves)."""
    out = final.outcome
    if out is not None:
        headline = DRAW if out.winner is None else Headline("", Name(out.winner), " wins")
        detail = result_detail(out)
    else:
        headline, detail = Headline("", "Unfinished", ""), (f"after {len(review.plies)} moves",)
    return ChartText(
        title=title(review.kind), subtitle=f"review · {panel_options(final)}", heading=CHART_HEADING,
        axis=CHART_AXIS, percents=(percent(0.0), percent(0.25), percent(0.5), percent(0.75), percent(1.0)),
        colours=CHART_COLOURS, headline=headline, detail=detail, turning_points=TURNING_POINTS,
        no_swings=NO_SWINGS, swings=tuple(_swing(sw) for sw in review.swings), unnamed=(unnamed(1), unnamed(2)))
