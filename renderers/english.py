"""ENGLISH DEFAULT ONLY: the panel's words in English for the renderers' own gallery,
benchmarks and library users who give none (:func:`panel_text`).

The bot never relies on these: it words every panel in its texts layer
(``bot.texts.panel_text``) and passes the :class:`renderers.words.PanelText`; a test there
checks that its English equals these words, so the pictures stay the same.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Mapping
from typing import Any

import engine

from .words import ChartText, Headline, Name, PanelText, Piece, SwingText, spell

__all__ = ["chart_text", "clock_text", "options_text", "panel_text", "percent", "result_text", "score_parts",
           "swing_label", "unnamed"]

_OPTION_WORDS = {
    ("bonus", "own"): "bonus: own groups",
    ("bonus", "opponent"): "bonus: opponent's groups",
    ("bonus", "captures"): "bonus: captures",
    ("bonus", "none"): "no bonus",
}
#: Words for a Coral's bonus points by the ``bonus`` option (RULES.md "Brain Coral",
#: "Branching Coral": score = largest group + bonus); one word each, singular and plural.
_BONUS_WORDS = {"own": ("group", "groups"), "opponent": ("opponent group", "opponent groups"),
                "captures": ("capture", "captures")}


def unnamed(seat: int) -> str:
    """The name shown for a seat whose player has none: ``"Player 2"``."""
    return f"Player {seat}"


def options_text(options: Mapping[str, Any], board: engine.Board) -> str:
    """The options of a game in a few words: ``"hexhex 7"``, ``"9×9"``, ``"limping 4 · no bonus"``."""
    parts = []
    if board.shape == "square":
        parts.append(f"{board.size}×{board.size}")
    else:
        parts.append(f"{board.shape} {board.size}")
    for name, value in options.items():
        if name in ("size", "shape"):
            continue
        if name == "setup":
            parts.append(f"set-up {str(value).upper()}")
        else:
            parts.append(_OPTION_WORDS.get((name, value), f"{name}: {value}"))
    return " · ".join(parts)


def clock_text(clock: object) -> str | None:
    """Text for a clock line: ``None`` stays ``None``; a string is shown as given.

    A :class:`datetime.timedelta` (time left to move) becomes e.g. ``"2 days 4 h left"``; a
    :class:`datetime.datetime` (the deadline) becomes ``"due 3 May 14:00 UTC"`` (naive means
    UTC). Raises TypeError for anything else.
    """
    if clock is None or isinstance(clock, str):
        return clock
    if isinstance(clock, _dt.timedelta):
        secs = int(clock.total_seconds())
        if secs <= 0:
            return "time is up"
        days, rest = divmod(secs, 86400)
        hours, rest = divmod(rest, 3600)
        minutes = rest // 60
        if days:
            return f"{days} day{'s' if days != 1 else ''} {hours} h left"
        if hours:
            return f"{hours} h {minutes} min left"
        return f"{max(minutes, 1)} min left"
    if isinstance(clock, _dt.datetime):
        when = clock if clock.tzinfo is None else clock.astimezone(_dt.UTC).replace(tzinfo=None)
        return f"due {when.day} {when:%b %H:%M} UTC"
    raise TypeError("clock must be None, text, a timedelta or a datetime")


def _detail(position: engine.Position) -> tuple[Piece, ...]:
    """Why a finished game ended, with the scores where it ended on them (see
    :func:`result_text`), the loser named by seat."""
    out = position.outcome
    assert out is not None, "a result needs a finished game"
    ending = engine.Termination.read(out.reason)
    if ending is None:
        pieces: list[Piece] = [str(out.reason)]
    else:
        loser: Piece = Name(3 - out.winner) if out.winner in (1, 2) else "the player to move"
        before, named, after = ending.caption("\0").partition("\0")  # the loser's place, if any
        pieces = [before, loser, after] if named else [before]
    if out.scores and ending is not None and ending.on_scores:
        first = out.winner if out.winner in (1, 2) else 1
        won, lost = out.scores[first], out.scores[3 - first]
        pieces.append(f" {won}–{lost}")
        if out.winner is not None and won == lost:
            pieces.append("\ntie broken by the last stone placed")
    return tuple(p for p in pieces if p != "")


def result_text(position: engine.Position, names: Mapping[int, str]) -> tuple[str, str]:
    """Headline and detail of a finished game, e.g. ``("Ann wins", "by closing a coil")``.

    ``names`` maps seats 1 and 2 to display names. Scores follow the reason where the game
    ends on them, the winner's score first (``"on stones 42–39"``); a win on equal scores
    names the tie-break on a line of its own (the Corals: the player who placed the last
    stone wins, RULES.md "Brain Coral"): ``"on score 12–12\\ntie broken by the last stone
    placed"``. The reason is worded by :meth:`engine.Termination.caption`; an unknown
    reason is shown as given.
    """
    out = position.outcome
    assert out is not None, "result_text needs a finished game"
    head = "Draw" if out.winner is None else f"{names[out.winner]} wins"
    return head, spell(_detail(position), names)


def score_parts(position: engine.Position, seat: int) -> str | None:
    """The parts of ``seat``'s score where the game adds them up (the Corals: the largest
    group plus the bonus option's points, RULES.md "Brain Coral"), e.g.
    ``"largest group 8 + 5 groups"``; None for other games (no ``groups`` highlight).

    The largest group's size is the length of ``position.highlights.groups[seat]``; the
    bonus is the rest of ``position.scores[seat]``.
    """
    scores = position.scores
    groups = position.highlights.groups or {}
    if not scores or seat not in groups or seat not in scores:
        return None
    largest = len(groups[seat])
    text = f"largest group {largest}"
    words = _BONUS_WORDS.get(position.options.get("bonus", ""))
    if words is None:
        return text
    bonus = scores[seat] - largest
    return f"{text} + {bonus} {words[bonus != 1]}"


def _title(position: engine.Position) -> str:
    kind = engine.GAMES.get(position.kind)
    return kind.title if kind is not None else str(position.kind).title()


def _clocks(clocks: Mapping[int, object] | None) -> tuple[str | None, str | None]:
    """Each seat's clock as the text its card shows (:func:`clock_text`; empty: none).
    Raises TypeError for anything but a mapping of seats 1 and 2 to clocks."""
    if clocks is None:
        return None, None
    if not isinstance(clocks, Mapping):
        raise TypeError("clocks must be a mapping {seat: clock} or None")
    if any(seat not in (1, 2) for seat in clocks):
        raise TypeError("clocks must map seats 1 and 2")
    out = {seat: clock_text(clock) for seat, clock in clocks.items()}
    return out.get(1) or None, out.get(2) or None


def panel_text(position: engine.Position, clock: object = None,
               clocks: Mapping[int, object] | None = None) -> PanelText:
    """The panel's words for ``position`` in English; ``clock`` and ``clocks`` as
    :func:`renderers.render_png` takes them (worded by :func:`clock_text`). Raises
    TypeError for a bad clock."""
    out = position.outcome
    subs: list[str] = []
    for seat in (1, 2):
        colour = position.colour(seat)
        sub = score_parts(position, seat) or (colour.capitalize() if colour else "Undecided")
        if out is not None and out.winner == seat:
            sub += " · wins"
        subs.append(sub)
    if out is not None:
        headline = (Headline("", "Draw", "") if out.winner is None
                    else Headline("", Name(out.winner), " wins"))
        detail = _detail(position)
    else:
        mover = position.to_move
        assert mover is not None  # the game goes on: someone is to move
        colour = position.colour(mover)
        headline = Headline("", colour.capitalize() if colour else Name(mover), " to move")
        phase = position.phase_caption
        detail = (phase,) if phase else ()
    if position.ply:
        last = position.last_move or ""
        move = f"Move {position.ply}: {last}" if last else f"Move {position.ply}"
    else:
        move = "No moves yet"
    return PanelText(title=_title(position), options=options_text(position.options, position.board),
                     headline=headline, detail=detail, subs=(subs[0], subs[1]), move=move,
                     unnamed=(unnamed(1), unnamed(2)), clock=clock_text(clock), clocks=_clocks(clocks))


def percent(v: float) -> str:
    """A chance 0..1 as the chart writes it: ``"71%"``."""
    return f"{round(v * 100)}%"


def swing_label(swing: Any) -> str:
    """A swing's label on the chart's curve: ``"23. f6"`` (its ply and move)."""
    return f"{swing.ply}. {swing.move}"


def chart_text(review: Any, final: engine.Position) -> ChartText:
    """A review chart's words in English (:class:`renderers.words.ChartText`): ``review`` as
    :func:`renderers.render_review_png` takes it (``kind``, ``plies``, ``swings``), ``final``
    the game's last position (the result)."""
    out = final.outcome
    if out is not None:
        headline = Headline("", "Draw", "") if out.winner is None else Headline("", Name(out.winner), " wins")
        detail = _detail(final)
    else:
        plies = len(review.plies)
        headline, detail = Headline("", "Unfinished", ""), (f"after {plies} move{'' if plies == 1 else 's'}",)
    swings = []
    for sw in review.swings:
        better = sw.preferred if sw.preferred and sw.preferred != sw.move else None
        swings.append(SwingText(label=swing_label(sw), heading=Headline(f"move {sw.ply}, ", Name(sw.seat),
                                                                              f"'s {sw.move}"),
                                short=f"move {sw.ply}, {sw.move}", chances=f"{percent(sw.before)} → {percent(sw.after)}",
                                note="search preferred" if better else "search agreed", preferred=better or ""))
    kind = engine.GAMES.get(review.kind)
    return ChartText(
        title=kind.title if kind is not None else str(review.kind).title(),
        subtitle="review · " + options_text(final.options, final.board),
        heading=("", "'s chances of winning"), axis="move",
        percents=(percent(0.0), percent(0.25), percent(0.5), percent(0.75), percent(1.0)),
        colours=("Black", "White"), headline=headline, detail=detail, turning_points="Turning points",
        no_swings="No move changed the game much.", swings=tuple(swings), unnamed=(unnamed(1), unnamed(2)))
