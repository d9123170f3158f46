"""A game review's chart (computer topic): every word the picture of /review draws, as a
:class:`renderers.ChartText` the bot passes to the renderer.

Part of :mod:`bot.texts` (every sentence a player reads), in the current language
(:mod:`bot.texts.i18n`); constants are English message ids, translated where they are used."""

from __future__ import annotations

from typing import Any

import engine
from renderers import ChartText, Headline, Name, SwingText

from .common import title
from .i18n import N_, _, ngettext
from .panel import draw_headline, panel_options, result_detail, split_at, unnamed, wins_headline

__all__ = ["chart_text"]

#: The chart's fixed words: over the plot around seat 1's name (``{name}``), under the move
#: numbers, the words for the stone colours, the swings' heading and the line when there is none.
CHART_HEADING = N_("{name}'s chances of winning")
CHART_AXIS = N_("move")
CHART_COLOURS = (N_("Black"), N_("White"))
TURNING_POINTS = N_("Turning points")
NO_SWINGS = N_("No move changed the game much.")
SEARCH_AGREED, SEARCH_PREFERRED = N_("search agreed"), N_("search preferred")


def percent(chance: float) -> str:
    """A chance 0..1 as the chart writes it: ``"71%"``."""
    return f"{round(chance * 100)}%"


def _swing(swing: Any) -> SwingText:
    """The words of one swing (``ply``, ``seat``, ``move``, ``preferred``, the mover's
    ``before`` and ``after`` chances)."""
    better = swing.preferred if swing.preferred and swing.preferred != swing.move else ""
    before, after = split_at(_("move {ply}, {name}'s {move}"), "name")
    return SwingText(label=f"{swing.ply}. {swing.move}",
                     heading=Headline(before.format(ply=swing.ply, move=swing.move), Name(swing.seat),
                                      after.format(ply=swing.ply, move=swing.move)),
                     short=_("move {ply}, {move}").format(ply=swing.ply, move=swing.move),
                     chances=f"{percent(swing.before)} → {percent(swing.after)}",
                     note=_(SEARCH_PREFERRED) if better else _(SEARCH_AGREED), preferred=better)


def chart_text(review: Any, final: engine.Position) -> ChartText:
    """Every word of the chart of ``review`` (an ``ai.review.GameReview`` or
    ``renderers.chart.review_from_dict``'s result: ``kind``, ``plies``, ``swings``) whose game
    ended in ``final`` (the result: who won and why, :data:`bot.texts.PANEL_CAPTIONS`; or
    unfinished after so many moves)."""
    out = final.outcome
    if out is not None:
        headline = draw_headline() if out.winner is None else wins_headline(out.winner)
        detail = result_detail(out)
    else:
        plies = len(review.plies)
        headline = Headline("", _("Unfinished"), "")
        detail = (ngettext("after {n} move", "after {n} moves", plies).format(n=plies),)
    return ChartText(
        title=title(review.kind), subtitle=_("review · {options}").format(options=panel_options(final)),
        heading=split_at(_(CHART_HEADING), "name"), axis=_(CHART_AXIS),
        percents=(percent(0.0), percent(0.25), percent(0.5), percent(0.75), percent(1.0)),
        colours=(_(CHART_COLOURS[0]), _(CHART_COLOURS[1])), headline=headline, detail=detail,
        turning_points=_(TURNING_POINTS), no_swings=_(NO_SWINGS),
        swings=tuple(_swing(sw) for sw in review.swings), unnamed=(unnamed(1), unnamed(2)))
