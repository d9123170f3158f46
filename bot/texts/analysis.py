"""Analysis boards and private notes (issue 23): /analyze, its buttons and the Engine, /note.

Part of :mod:`bot.texts` (every sentence a player reads), in the current language
(:mod:`bot.texts.i18n`); constants are English message ids, translated where they are used.
Code spans players copy (``/analyze position:``, ``size=9``) and move notation stay as they
are in every language."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from babel.numbers import format_decimal

from .boards import colour_name
from .common import game_label, title
from .i18n import N_, _, babel_locale, ngettext

if TYPE_CHECKING:
    from ..manager.values import Game

__all__ = ["ANALYSIS_LABELS", "ANALYSIS_REFUSALS", "ENGINE_NOTES", "NOT_YOUR_ANALYSIS_BUTTON",
           "PLAY_MODAL", "analysis_alt", "analysis_label", "analysis_source", "analysis_text",
           "engine_note", "engine_summary", "not_your_analysis", "note_line", "note_saved", "play_modal",
           "position_text_reply", "privacy_notes", "seat_name", "share_text"]

#: The analysis board's buttons, by action (message ids; :func:`analysis_label` words them).
ANALYSIS_LABELS = {"prev": "◀", "next": "▶", "play": N_("Play"), "undo": N_("Undo"),
                   "engine": N_("Engine"), "share": N_("Share"), "text": N_("Text")}
#: The Play button's form: its title, its field's label and the hint inside the field
#: (message ids; :func:`play_modal` words them).
PLAY_MODAL = {"title": N_("Play a move on your analysis board"), "label": N_("Your move"),
              "hint": N_("like c3, c3 e5 or pass")}
#: Someone else pressed a board's button (a message id).
NOT_YOUR_ANALYSIS_BUTTON = N_("These buttons belong to someone else's analysis board: open your own "
                              "with /analyze.")
#: What the Engine button says while it searches, when it failed, when its queue is full
#: (message ids; :func:`engine_note` words them).
ENGINE_NOTES = {
    "thinking": N_("The engine is thinking (about five seconds)…"),
    "failed": N_("Sorry: the engine could not finish its search. Please try again in a minute."),
    "queue_full": N_("The engine has too many positions to think about right now: try again in a minute."),
}


def analysis_label(action: str) -> str:
    """The label of the board's button ``action`` (a key of :data:`ANALYSIS_LABELS`)."""
    label = ANALYSIS_LABELS[action]
    return label if action in ("prev", "next") else _(label)


def not_your_analysis() -> str:
    """What someone pressing another player's board button is told (:data:`NOT_YOUR_ANALYSIS_BUTTON`)."""
    return _(NOT_YOUR_ANALYSIS_BUTTON)


def play_modal(part: str) -> str:
    """The Play form's ``part``: ``"title"``, ``"label"`` or ``"hint"`` (:data:`PLAY_MODAL`)."""
    return _(PLAY_MODAL[part])


def engine_note(key: str) -> str:
    """The Engine's note ``key``: ``"thinking"``, ``"failed"``, ``"queue_full"`` (:data:`ENGINE_NOTES`)."""
    return _(ENGINE_NOTES[key])


def _number(n: int) -> str:
    """``n`` as the current language writes a number in prose."""
    return format_decimal(n, locale=babel_locale())


def seat_name(seat: int, colour: str | None) -> str:
    """How an analysis board names a side: its colour when it has one, else its seat."""
    return colour_name(colour) if colour else _("Player {seat}").format(seat=seat)


def analysis_source(game: Game | None, kind: str) -> str:
    """What a board explores: ``"Io #12"``, or ``"an Io position"`` (pasted or new)."""
    if game is not None:
        return game_label(game.kind, game.id)
    name = title(kind)
    if name[:1].lower() in "aeiou":
        return _("an {game} position").format(game=name)
    return _("a {game} position").format(game=name)


def analysis_alt(game_title: str, ply: int, to_move: str | None, markers: int) -> str:
    """The description of an analysis board's picture."""
    board = ngettext("{game} analysis board after {n} move", "{game} analysis board after {n} moves",
                     ply).format(game=game_title, n=ply)
    board = (_("{board}, {mover} to move").format(board=board, mover=to_move) if to_move
             else _("{board}, game over").format(board=board))
    if not markers:
        return _("{board}.").format(board=board)
    return ngettext("{board}, with the engine's best line as {n} numbered marker.",
                    "{board}, with the engine's best line as {n} numbered markers.",
                    markers).format(board=board, n=markers)


def analysis_text(source: str, cursor: int, length: int, own: int, to_move: str | None,
                  expires_at: float, engine: str | None, note: str | None) -> str:
    """The text of an analysis board (only its owner sees it): what it explores, the move
    shown of how many, the player's own moves, who is to move, the Engine's answer when it is
    about this position, the owner's note on the game, and when the board lapses."""
    head = _("**Analysis of {source}** · move {cursor} of {length}").format(
        source=source, cursor=cursor, length=length)
    if own:
        head = ngettext("{head} · your line: {n} move", "{head} · your line: {n} moves",
                        own).format(head=head, n=own)
    lines = [head, _("{mover} to move.").format(mover=to_move) if to_move else _("The game is over here.")]
    if engine:
        lines.append(engine)
    if note:
        lines.append(_("Your note (only you see it): {note}").format(note=note))
    lines.append(_("This board lasts until {when} unless you use it again.").format(
        when=f"<t:{int(expires_at)}:f>"))
    return "\n".join(lines)


def engine_summary(mover: str, value: float, steps: Sequence[tuple[int | None, str]], proven: bool,
                   plies_to_end: int | None) -> str:
    """The Engine's answer: the chances of the side to move (``mover``), or its proven
    result, and its best line, ``steps`` as :func:`bot.rules.analysis.line_steps` gives it
    (each move with the number of its markers on the board; a pass, which places no marker,
    is listed without a number)."""
    moves = " ".join(move if number is None else f"{number}. {move}" for number, move in steps)
    if proven and value in (0.0, 1.0) and plies_to_end:
        head = (ngettext("Engine: proven win for {mover} in {n} move.",
                         "Engine: proven win for {mover} in {n} moves.", plies_to_end) if value == 1.0
                else ngettext("Engine: proven loss for {mover} in {n} move.",
                              "Engine: proven loss for {mover} in {n} moves.", plies_to_end)
                ).format(mover=mover, n=plies_to_end)
    elif proven and value in (0.0, 1.0):
        head = (_("Engine: proven win for {mover}.") if value == 1.0
                else _("Engine: proven loss for {mover}.")).format(mover=mover)
    elif proven:
        head = _("Engine: proven draw for {mover}.").format(mover=mover)
    else:
        head = _("Engine: {mover} to move wins {percent}% of the time by its search.").format(
            mover=mover, percent=_number(round(100 * value)))
    return _("{summary} Best line: {moves}").format(summary=head, moves=moves) if moves else head


def share_text(user_id: int, source: str, cursor: int, engine: str | None) -> str:
    """The public post of a shared analysis board (no one is pinged)."""
    text = _("{user} shares a position from their analysis of {source} (move {cursor}).").format(
        user=f"<@{user_id}>", source=source, cursor=cursor)
    return text + (f"\n{engine}" if engine else "")


def position_text_reply(text: str) -> str:
    """Text's answer: the position in the engine's one-line form, to copy."""
    head = _("The position's text (paste it into {command}):").format(command="`/analyze position:`")
    return f"{head}\n```\n{text}\n```"


def note_saved(label: str, note: str | None) -> str:
    """/note's answer: kept (quoted back) or deleted."""
    if note is None:
        return _("Your note on {label} is deleted.").format(label=label)
    head = _("Your private note on {label} is kept (only you see it, on /board and /analyze):").format(label=label)
    return f"{head}\n> {note}"


def note_line(note: str) -> str:
    """The owner's note under their /board."""
    return "\n" + _("Your note (only you see it): {note}").format(note=note)


def privacy_notes(n: int) -> str:
    """/privacy show's line on the player's private notes (``n`` > 0: games with one). Short:
    the worst case of /privacy show has about 100 characters left in one message."""
    return ngettext("• Private notes ({command}) on {n} game, seen only by you.",
                    "• Private notes ({command}) on {n} games, seen only by you.", n).format(
        command="`/note`", n=_number(n))


def _engine_running_game(game: Game, playing: bool) -> str:
    label = game_label(game.kind, game.id)
    if playing:
        return _("No engine help during a game in progress: this position is, or may still arise "
                 "in, your game {game}. You can explore it without the engine until it ends.").format(game=label)
    return _("No engine help on games in progress: this position is, or may still arise in, "
             "{game}, which is being played in this server. Try again once it is over.").format(game=label)


def _bad_position_text(error: Exception | None) -> str:
    if error is None:
        return _("That position text is too long: a position's text fits in 2000 characters.")
    # the engine's own words name the fault exactly ("bad ply in position text"); the
    # worded engine errors say only that a stored position could not be read
    text = " ".join(str(error).split()).rstrip(".")
    return _("I cannot read that position text ({error}). Copy it whole from an analysis "
             "board's Text button.").format(error=text)


def _bad_options_text(kind: str) -> str:
    return _("Write the options of the {game} board as name=value, separated by commas, "
             "like {example}.").format(game=title(kind), example="`size=9`")


def _bad_move_number(most: int) -> str:
    return _("{option} is a number of moves played, from 0 to {most} for this game.").format(
        option="`move:`", most=most)


def _analysis_expired(hours: float) -> str:
    n = round(hours)
    return ngettext("This analysis board has lapsed (boards last {n} hour after their last "
                    "use): open a new one with /analyze.",
                    "This analysis board has lapsed (boards last {n} hours after their last "
                    "use): open a new one with /analyze.", n).format(n=n)


def _engine_limit(most: int, wait: int) -> str:
    return ngettext("The engine answers at most {most} requests a minute for each player: try again in "
                    "{n} second.",
                    "The engine answers at most {most} requests a minute for each player: try again in "
                    "{n} seconds.", wait).format(most=most, n=wait)


def _note_too_long(length: int, most: int) -> str:
    return _("That note is {length} characters long: a note holds at most {most}. Please "
             "shorten it.").format(length=length, most=most)


#: The wording of the analysis refusals (merged into :data:`bot.texts.errors.REFUSALS`).
ANALYSIS_REFUSALS: dict[str, Callable[..., str]] = {
    "ANALYZE_ONE_SOURCE": lambda: _(
        "Give /analyze one thing to explore: {game} (with {move} if you like), {position} "
        "(a position's text), or {new} (a game, with {options} if you like).").format(
        game="`game:`", move="`move:`", position="`position:`", new="`new:`", options="`options:`"),
    "BAD_POSITION_TEXT": _bad_position_text,
    "BAD_OPTIONS_TEXT": _bad_options_text,
    "POSITION_OVER": lambda: _(
        "That position is already finished: there is nothing left to explore or play there."),
    "BAD_MOVE_NUMBER": _bad_move_number,
    "ANALYSIS_EXPIRED": _analysis_expired,
    "NOT_YOUR_ANALYSIS": not_your_analysis,
    "NOTHING_TO_UNDO": lambda: _("There is no move of yours to take back on this board."),
    "ENGINE_RUNNING_GAME": _engine_running_game,
    "ENGINE_GAME_OVER": lambda: _(
        "The game is over in this position: there is nothing for the engine to search."),
    "ENGINE_LIMIT": _engine_limit,
    "ENGINE_BUSY": lambda: _("The engine is still searching your last request: its answer comes first."),
    "NOTE_TOO_LONG": _note_too_long,
}
