"""The board picture's panel (boards topic): every word it draws, as a
:class:`renderers.PanelText` the bot passes to the renderer -- title, options, whose turn or
the result and why, each card's colour or score parts, the last move, the clocks.

Part of :mod:`bot.texts` (every sentence a player reads). The renderers word nothing: what
is written here is what the picture shows."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime

import engine
from renderers import Headline, Name, PanelText
from renderers.words import Piece

from .boards import colour_name
from .common import title

__all__ = ["PANEL_CAPTIONS", "panel_due", "panel_text"]

#: The line under "Ann wins" on the board picture, by why the game ended (every
#: :class:`engine.Termination`); ``{loser}`` is where the losing player's name goes. Shorter
#: than a result sentence's :data:`bot.texts.TERMINATION_PHRASES` ("Ann beats Bo with a
#: coil"): the panel's line stands under the headline, not after a verb.
PANEL_CAPTIONS: dict[engine.Termination, str] = {
    engine.Termination.COIL: "by closing a coil",
    engine.Termination.BOARD_FULL: "board full, no coil",
    engine.Termination.STONES: "on stones",
    engine.Termination.SCORE: "on score",
    engine.Termination.CONNECTION: "by joining both edges",
    engine.Termination.NO_MOVES: "{loser} had no legal turn",
    engine.Termination.RESIGNATION: "by resignation",
    engine.Termination.TIMEOUT: "on time",
}
#: The loser's place in a caption when the game has no winner to set them apart.
NOBODY_LOST = "the player to move"
#: The panel's headline for a drawn game.
DRAW = Headline("", "Draw", "")
#: Under the score of a win on equal scores (the Corals: the last stone placed decides,
#: RULES.md "Brain Coral" Winner).
TIE_BROKEN = "\ntie broken by the last stone placed"
#: The line under each name on its card before Coil's colours are settled (RULES.md "Coil").
UNDECIDED = "Undecided"
#: Added to the winner's card line.
CARD_WINS = " · wins"

#: The panel's words for a game option's value, by (option, value); another reads "name: value".
_OPTION_WORDS = {
    ("bonus", "own"): "bonus: own groups",
    ("bonus", "opponent"): "bonus: opponent's groups",
    ("bonus", "captures"): "bonus: captures",
    ("bonus", "none"): "no bonus",
}
#: A Coral's bonus points by the ``bonus`` option (RULES.md "Brain Coral", "Branching Coral":
#: score = largest group + bonus), singular and plural.
_BONUS_WORDS = {"own": ("group", "groups"), "opponent": ("opponent group", "opponent groups"),
                "captures": ("capture", "captures")}


def panel_options(position: engine.Position) -> str:
    """The game's options in a few words: ``"hexhex 7"``, ``"9×9"``, ``"limping 4 · no bonus"``,
    ``"set-up A"``."""
    board = position.board
    parts = [f"{board.size}×{board.size}" if board.shape == "square" else f"{board.shape} {board.size}"]
    for name, value in position.options.items():
        if name in ("size", "shape"):
            continue
        if name == "setup":
            parts.append(f"set-up {str(value).upper()}")
        else:
            parts.append(_OPTION_WORDS.get((name, value), f"{name}: {value}"))
    return " · ".join(parts)


def panel_due(when: datetime) -> str:
    """A player's deadline on their card: ``"due 3 May 14:00 UTC"`` (naive means UTC)."""
    when = when if when.tzinfo is None else when.astimezone(UTC).replace(tzinfo=None)
    return f"due {when.day} {when:%b %H:%M} UTC"


def unnamed(seat: int) -> str:
    """The name drawn for a seat whose player's name has no drawable letter: ``"Player 2"``."""
    return f"Player {seat}"


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
    text = f"largest group {largest}"
    words = _BONUS_WORDS.get(position.options.get("bonus", ""))
    if words is None:
        return text
    bonus = scores[seat] - largest
    return f"{text} + {bonus} {words[bonus != 1]}"


def result_detail(outcome: engine.Outcome) -> tuple[Piece, ...]:
    """Why the game ended (:data:`PANEL_CAPTIONS`, the loser by seat), then the winner's score
    first where scores decided it; a win on equal scores adds :data:`TIE_BROKEN`."""
    ending = engine.Termination.read(outcome.reason)
    if ending is None:
        pieces: list[Piece] = [str(outcome.reason)]
    else:
        before, named, after = PANEL_CAPTIONS[ending].partition("{loser}")
        loser: Piece = Name(3 - outcome.winner) if outcome.winner in (1, 2) else NOBODY_LOST
        pieces = [before, loser, after] if named else [before]
    if outcome.scores and ending is not None and ending.on_scores:
        first = outcome.winner if outcome.winner in (1, 2) else 1
        won, lost = outcome.scores[first], outcome.scores[3 - first]
        pieces.append(f" {won}–{lost}")
        if outcome.winner is not None and won == lost:
            pieces.append(TIE_BROKEN)
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
        sub = score_parts(position, seat) or (colour_name(colour) if colour else UNDECIDED)
        subs.append(sub + CARD_WINS if out is not None and out.winner == seat else sub)
    if out is not None:
        headline = DRAW if out.winner is None else Headline("", Name(out.winner), " wins")
        detail = result_detail(out)
    else:
        mover = position.to_move
        assert mover is not None  # the game goes on: someone is to move
        colour = position.colour(mover)
        headline = Headline("", colour_name(colour) if colour else Name(mover), " to move")
        phase = position.phase_caption  # the engine's words still (issue 22 words the phases here)
        detail = (phase,) if phase else ()
    if not position.ply:
        move = "No moves yet"
    else:
        move = f"Move {position.ply}: {position.last_move}" if position.last_move else f"Move {position.ply}"
    seat_clocks = clocks or {}
    return PanelText(title=title(position.kind), options=panel_options(position), headline=headline,
                     detail=detail, subs=(subs[0], subs[1]), move=move, unnamed=(unnamed(1), unnamed(2)),
                     clock=clock or None, clocks=(seat_clocks.get(1) or None, seat_clocks.get(2) or None))
