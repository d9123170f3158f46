"""Analysis boards and private notes (issue 23): /analyze, its buttons and the Engine, /note.

Part of :mod:`bot.texts` (every sentence a player reads)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from .boards import colour_name
from .common import game_label, title

if TYPE_CHECKING:
    from ..manager.values import Game

__all__ = ["ANALYSIS_LABELS", "ANALYSIS_REFUSALS", "ENGINE_NOTES", "NOT_YOUR_ANALYSIS_BUTTON",
           "PLAY_MODAL", "analysis_alt", "analysis_source", "analysis_text", "engine_summary",
           "note_line", "note_saved", "position_text_reply", "seat_name", "share_text"]

#: The analysis board's buttons, by action.
ANALYSIS_LABELS = {"prev": "◀", "next": "▶", "play": "Play", "undo": "Undo", "engine": "Engine",
                   "share": "Share", "text": "Text"}
#: The Play button's form: its title, its field's label and the hint inside the field.
PLAY_MODAL = {"title": "Play a move on your analysis board", "label": "Your move",
              "hint": "like c3, c3 e5 or pass"}
NOT_YOUR_ANALYSIS_BUTTON = ("These buttons belong to someone else's analysis board: open your own "
                            "with /analyze.")
#: What the Engine button says while it searches, when it failed, when its queue is full.
ENGINE_NOTES = {
    "thinking": "The engine is thinking (about five seconds)…",
    "failed": "Sorry: the engine could not finish its search. Please try again in a minute.",
    "queue_full": "The engine has too many positions to think about right now: try again in a minute.",
}


def seat_name(seat: int, colour: str | None) -> str:
    """How an analysis board names a side: its colour when it has one, else its seat."""
    return colour_name(colour) if colour else f"Player {seat}"


def analysis_source(game: Game | None, kind: str) -> str:
    """What a board explores: ``"Io #12"``, or ``"an Io position"`` (pasted or new)."""
    if game is not None:
        return game_label(game.kind, game.id)
    name = title(kind)
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name} position"


def analysis_alt(game_title: str, ply: int, to_move: str | None, markers: int) -> str:
    """The description of an analysis board's picture."""
    return (f"{game_title} analysis board after {ply} moves"
            + (f", {to_move} to move" if to_move else ", game over")
            + (f", with the engine's best line as {markers} numbered markers." if markers else "."))


def analysis_text(source: str, cursor: int, length: int, own: int, to_move: str | None,
                  expires_at: float, engine: str | None, note: str | None) -> str:
    """The text of an analysis board (only its owner sees it): what it explores, the move
    shown of how many, the player's own moves, who is to move, the Engine's answer when it is
    about this position, the owner's note on the game, and when the board lapses."""
    lines = [f"**Analysis of {source}** · move {cursor} of {length}"
             + (f" · your line: {own} move{'s' * (own != 1)}" if own else "")]
    lines.append(f"{to_move} to move." if to_move else "The game is over here.")
    if engine:
        lines.append(engine)
    if note:
        lines.append(f"Your note (only you see it): {note}")
    lines.append(f"This board lasts until <t:{int(expires_at)}:f> unless you use it again.")
    return "\n".join(lines)


def engine_summary(mover: str, value: float, line: Sequence[str], proven: bool,
                   plies_to_end: int | None) -> str:
    """The Engine's answer: the chances of the side to move (``mover``), or its proven
    result, and its best line (numbered as on the board)."""
    moves = " ".join(f"{i}. {m}" for i, m in enumerate(line, 1))
    if proven and value in (0.0, 1.0):
        result = "win" if value == 1.0 else "loss"
        within = f" in {plies_to_end} move{'s' * (plies_to_end != 1)}" if plies_to_end else ""
        head = f"Engine: proven {result} for {mover}{within}."
    elif proven:
        head = f"Engine: proven draw for {mover}."
    else:
        head = f"Engine: {mover} to move wins {round(100 * value)}% of the time by its search."
    return head + (f" Best line: {moves}" if moves else "")


def share_text(user_id: int, source: str, cursor: int, engine: str | None) -> str:
    """The public post of a shared analysis board (no one is pinged)."""
    return (f"<@{user_id}> shares a position from their analysis of {source} (move {cursor})."
            + (f"\n{engine}" if engine else ""))


def position_text_reply(text: str) -> str:
    """Text's answer: the position in the engine's one-line form, to copy."""
    return f"The position's text (paste it into `/analyze position:`):\n```\n{text}\n```"


def note_saved(label: str, note: str | None) -> str:
    """/note's answer: kept (quoted back) or deleted."""
    if note is None:
        return f"Your note on {label} is deleted."
    return f"Your private note on {label} is kept (only you see it, on /board and /analyze):\n> {note}"


def note_line(note: str) -> str:
    """The owner's note under their /board."""
    return f"\nYour note (only you see it): {note}"


def _engine_running_game(game: Game, playing: bool) -> str:
    label = game_label(game.kind, game.id)
    if playing:
        return (f"No engine help during a game in progress: this position is, or may still arise "
                f"in, your game {label}. You can explore it without the engine until it ends.")
    return (f"No engine help on games in progress: this position is, or may still arise in, "
            f"{label}, which is being played in this server. Try again once it is over.")


def _bad_position_text(error: Exception | None) -> str:
    if error is None:
        return "That position text is too long: a position's text fits in 2000 characters."
    text = " ".join(str(error).split()).rstrip(".")
    return (f"I cannot read that position text ({text}). Copy it whole from an analysis "
            f"board's Text button.")


def _bad_options_text(kind: str) -> str:
    return (f"Write the options of the {title(kind)} board as name=value, separated by commas, "
            f"like `size=9`.")


def _bad_move_number(most: int) -> str:
    return f"`move:` is a number of moves played, from 0 to {most} for this game."


def _analysis_expired(hours: float) -> str:
    return (f"This analysis board has lapsed (boards last {round(hours)} hours after their last "
            f"use): open a new one with /analyze.")


def _engine_limit(most: int, wait: int) -> str:
    return (f"The engine answers at most {most} requests a minute for each player: try again in "
            f"{wait} seconds.")


def _note_too_long(length: int, most: int) -> str:
    return f"That note is {length} characters long: a note holds at most {most}. Please shorten it."


#: The wording of the analysis refusals (merged into :data:`bot.texts.errors.REFUSALS`).
ANALYSIS_REFUSALS: dict[str, Callable[..., str]] = {
    "ANALYZE_ONE_SOURCE": lambda: (
        "Give /analyze one thing to explore: `game:` (with `move:` if you like), `position:` "
        "(a position's text), or `new:` (a game, with `options:` if you like)."),
    "BAD_POSITION_TEXT": _bad_position_text,
    "BAD_OPTIONS_TEXT": _bad_options_text,
    "POSITION_OVER": lambda: (
        "That position is already finished: there is nothing left to explore or play there."),
    "BAD_MOVE_NUMBER": _bad_move_number,
    "ANALYSIS_EXPIRED": _analysis_expired,
    "NOT_YOUR_ANALYSIS": lambda: NOT_YOUR_ANALYSIS_BUTTON,
    "NOTHING_TO_UNDO": lambda: "There is no move of yours to take back on this board.",
    "ENGINE_RUNNING_GAME": _engine_running_game,
    "ENGINE_GAME_OVER": lambda: "The game is over in this position: there is nothing for the engine to search.",
    "ENGINE_LIMIT": _engine_limit,
    "ENGINE_BUSY": lambda: "The engine is still searching your last request: its answer comes first.",
    "NOTE_TOO_LONG": _note_too_long,
}
