"""The board picture's panel (boards topic): every word it draws, as a
:class:`renderers.PanelText` the bot passes to the renderer -- title, options, whose turn or
the result and why, each card's colour or score parts, the last move, the clocks.

Part of :mod:`bot.texts` (every sentence a player reads). The renderers word nothing: what
is written here is what the picture shows, in the current language (:mod:`bot.texts.i18n`);
constants are English message ids, translated where they are used."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime

from babel import dates

import engine
from renderers import Headline, Name, PanelText
from renderers.words import Piece

from .boards import colour_name
from .common import title
from .i18n import N_, _, babel_locale, current_locale, ngettext

__all__ = ["PANEL_CAPTIONS", "PHASE_CAPTIONS", "panel_due", "panel_text", "phase_caption"]

#: The line under "Ann wins" on the board picture, by why the game ended (every
#: :class:`engine.Termination`); ``{loser}`` is where the losing player's name goes. Shorter
#: than a result sentence's :data:`bot.texts.TERMINATION_PHRASES` ("Ann beats Bo with a
#: coil"): the panel's line stands under the headline, not after a verb.
PANEL_CAPTIONS: dict[engine.Termination, str] = {
    engine.Termination.COIL: N_("by closing a coil"),
    engine.Termination.BOARD_FULL: N_("board full, no coil"),
    engine.Termination.STONES: N_("on stones"),
    engine.Termination.SCORE: N_("on score"),
    engine.Termination.CONNECTION: N_("by joining both edges"),
    engine.Termination.NO_MOVES: N_("{loser} had no legal turn"),
    engine.Termination.RESIGNATION: N_("by resignation"),
    engine.Termination.TIMEOUT: N_("on time"),
}
#: The loser's place in a caption when the game has no winner to set them apart.
NOBODY_LOST = N_("the player to move")
#: Under the score of a win on equal scores, on a line of its own (the Corals: the last
#: stone placed decides, RULES.md "Brain Coral" Winner).
TIE_BROKEN = N_("tie broken by the last stone placed")
#: The line under each name on its card before Coil's colours are settled (RULES.md "Coil").
UNDECIDED = N_("Undecided")
#: Added to the winner's card line after " · ".
CARD_WINS = N_("wins")

#: The panel's line under "… to move", by the engine's :class:`engine.Stage` (the phase and
#: what may be played in it); None for a game with one phase (RULES.md, each game's turns).
PHASE_CAPTIONS: dict[engine.Stage, str | None] = {
    engine.Stage.ONE_STONE: None,
    engine.Stage.TWO_STONES: None,
    engine.Stage.COIL_PHASE_I: N_("Phase I · place a black stone or pass"),
    engine.Stage.COIL_PHASE_II: N_("Phase II"),
    engine.Stage.IO_FIRST_STONE: N_("Opening · one stone, not in a corner"),
    engine.Stage.IO_BOUND_THEN_FREE: N_("Opening · bound stone, then free"),
    engine.Stage.IO_MAIN: N_("Main phase"),
    engine.Stage.WHIRLWIND_FIRST_TURN: N_("First turn: one stone"),
    engine.Stage.WHIRLWIND_TWO_STONES: N_("One or two stones a turn"),
}

#: The panel's words for a game option's value, by (option, value); another reads "name: value".
_OPTION_WORDS = {
    ("bonus", "own"): N_("bonus: own groups"),
    ("bonus", "opponent"): N_("bonus: opponent's groups"),
    ("bonus", "captures"): N_("bonus: captures"),
    ("bonus", "none"): N_("no bonus"),
}


def phase_caption(position: engine.Position) -> str | None:
    """The phase and what may be played in it, the panel's line under "… to move" and a
    sentence of the board's alt text: ``"Phase I · place a black stone or pass"``
    (:data:`PHASE_CAPTIONS` by :attr:`engine.Position.stage`); None for a game with one phase."""
    caption = PHASE_CAPTIONS[position.stage]
    return _(caption) if caption else None


def split_at(message: str, name: str) -> tuple[str, str]:
    """A worded ``message`` cut at its ``{name}`` placeholder (the text before it, after it)
    for a :class:`renderers.Headline` that draws a name between two pieces; a message
    without the placeholder is all before."""
    before, _found, after = message.partition("{" + name + "}")
    return before, after


def wins_headline(seat: int) -> Headline:
    """The headline of a won game: ``"Ann wins"`` (``seat``: the winner's)."""
    before, after = split_at(_("{name} wins"), "name")
    return Headline(before, Name(seat), after)


def draw_headline() -> Headline:
    """The panel's headline for a drawn game: ``"Draw"``."""
    return Headline("", _("Draw"), "")


def panel_options(position: engine.Position) -> str:
    """The game's options in a few words: ``"hexhex 7"``, ``"9×9"``, ``"limping 4 · no bonus"``,
    ``"set-up A"``."""
    board = position.board
    parts = [f"{board.size}×{board.size}" if board.shape == "square" else f"{board.shape} {board.size}"]
    for name, value in position.options.items():
        if name in ("size", "shape"):
            continue
        if name == "setup":
            parts.append(_("set-up {name}").format(name=str(value).upper()))
        else:
            words = _OPTION_WORDS.get((name, value))
            parts.append(_(words) if words else f"{name}: {value}")
    return " · ".join(parts)


def panel_due(when: datetime) -> str:
    """A player's deadline on their card: ``"due 3 May 14:00 UTC"`` (naive means UTC), the
    date as the language writes a day and month (Babel: ``"3. Mai"``, ``"5月3日"``)."""
    when = when if when.tzinfo is None else when.astimezone(UTC).replace(tzinfo=None)
    if current_locale() == "en":
        day = f"{when.day} {when:%b}"
    else:
        day = dates.format_skeleton("MMMd", when, locale=babel_locale())
    return _("due {date} {time} UTC").format(date=day, time=f"{when:%H:%M}")


def unnamed(seat: int) -> str:
    """The name drawn for a seat whose player's name has no drawable letter: ``"Player 2"``."""
    return _("Player {seat}").format(seat=seat)


def score_parts(position: engine.Position, seat: int) -> str | None:
    """The parts of ``seat``'s score where the game adds them up (the Corals: the largest
    group, ``len(position.highlights.groups[seat])``, plus the bonus option's points, the
    rest of ``position.scores[seat]``; RULES.md "Brain Coral"): ``"largest group 8 + 5
    groups"``; None for the other games."""
    scores = position.scores
    groups = position.highlights.groups or {}
    if not scores or seat not in groups or seat not in scores:
        return None
    largest = len(groups[seat])
    text = _("largest group {n}").format(n=largest)
    bonus = scores[seat] - largest
    kind = position.options.get("bonus", "")
    if kind == "own":
        words = ngettext("{n} group", "{n} groups", bonus)
    elif kind == "opponent":
        words = ngettext("{n} opponent group", "{n} opponent groups", bonus)
    elif kind == "captures":
        words = ngettext("{n} capture", "{n} captures", bonus)
    else:
        return text
    return f"{text} + {words.format(n=bonus)}"


def result_detail(outcome: engine.Outcome) -> tuple[Piece, ...]:
    """Why the game ended (:data:`PANEL_CAPTIONS`, the loser by seat), then the winner's score
    first where scores decided it; a win on equal scores adds :data:`TIE_BROKEN`."""
    ending = engine.Termination.read(outcome.reason)
    if ending is None:
        pieces: list[Piece] = [str(outcome.reason)]
    else:
        before, named, after = _(PANEL_CAPTIONS[ending]).partition("{loser}")
        loser: Piece = Name(3 - outcome.winner) if outcome.winner in (1, 2) else _(NOBODY_LOST)
        pieces = [before, loser, after] if named else [before]
    if outcome.scores and ending is not None and ending.on_scores:
        first = outcome.winner if outcome.winner in (1, 2) else 1
        won, lost = outcome.scores[first], outcome.scores[3 - first]
        pieces.append(f" {won}–{lost}")
        if outcome.winner is not None and won == lost:
            pieces.append("\n" + _(TIE_BROKEN))
    return tuple(p for p in pieces if p != "")


def panel_text(position: engine.Position, *, clock: str | None = None,
               clocks: Mapping[int, str] | None = None) -> PanelText:
    """Every word of the panel of ``position``'s picture: ``clock`` is the game column's clock
    line (the time control's short name); ``clocks`` each seat's time on its card, already
    worded (:func:`panel_due`, :func:`bot.texts.panel_bank`)."""
    out = position.outcome
    subs: list[str] = []
    for seat in (1, 2):
        colour = position.colour(seat)
        sub = score_parts(position, seat) or (colour_name(colour) if colour else _(UNDECIDED))
        subs.append(f"{sub} · {_(CARD_WINS)}" if out is not None and out.winner == seat else sub)
    if out is not None:
        headline = draw_headline() if out.winner is None else wins_headline(out.winner)
        detail = result_detail(out)
    else:
        mover = position.to_move
        assert mover is not None  # the game goes on: someone is to move
        colour = position.colour(mover)
        before, after = split_at(_("{player} to move"), "player")
        headline = Headline(before, colour_name(colour) if colour else Name(mover), after)
        phase = phase_caption(position)
        detail = (phase,) if phase else ()
    if not position.ply:
        move = _("No moves yet")
    elif position.last_move:
        move = _("Move {ply}: {move}").format(ply=position.ply, move=position.last_move)
    else:
        move = _("Move {ply}").format(ply=position.ply)
    seat_clocks = clocks or {}
    return PanelText(title=title(position.kind), options=panel_options(position), headline=headline,
                     detail=detail, subs=(subs[0], subs[1]), move=move, unnamed=(unnamed(1), unnamed(2)),
                     clock=clock or None, clocks=(seat_clocks.get(1) or None, seat_clocks.get(2) or None))
