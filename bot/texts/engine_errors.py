"""The engine's errors (errors topic): an illegal move, a move that cannot be read, a bad game
option, worded from the error's reason and fields (:class:`engine.ErrorReason`,
:attr:`engine.EngineError.fields`), never from the engine's own English; and a conditional
line that cannot be stored, worded from its :class:`bot.rules.conditionals.LineProblem`.

Part of :mod:`bot.texts` (every sentence a player reads)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import engine

from ..rules.conditionals import LineProblem
from .i18n import N_, _

if TYPE_CHECKING:
    from ..rules.conditionals import ConditionalError

__all__ = ["ENGINE_ERRORS", "LINE_PROBLEMS", "conditional_error", "engine_error"]

R = engine.ErrorReason

#: Every engine error's sentence, by reason; ``{field}`` is where its field goes (several
#: values are joined with ", "; ``{field!r}`` quotes it).
ENGINE_ERRORS: dict[engine.ErrorReason, str] = {
    R.OPTION_NOT_WHOLE: N_("{option} must be a whole number, not {value!r}"),
    R.OPTION_NOT_TEXT: N_("{option} must be one of {choices}"),
    R.OPTION_NOT_A_CHOICE: N_("{option} must be one of {choices}, not {value}"),
    R.OPTION_OUT_OF_RANGE: N_("{option} must be {range}, not {value}"),
    R.OPTION_TOO_SMALL: N_("{option} must be at least {minimum}"),
    R.OPTION_TOO_LARGE: N_("{option} must be at most {maximum}"),
    R.UNKNOWN_OPTION: N_("{game} has no option {option!r} (options: {options})"),
    R.SIZE_FOR_SHAPE: N_("size for a {shape} board must be from {low} to {high}, not {size}"),
    R.ODD_SIZE: N_("Whirlwind is played on an even board size (8, 10, ... 24)"),
    R.GAME_NOT_TEXT: N_("the game name must be text"),
    R.UNKNOWN_GAME: N_("unknown game {name!r}; games: {games}"),
    R.MOVE_NOT_TEXT: N_("a move must be text"),
    R.EMPTY_MOVE: N_("empty move: name a cell, e.g. d4"),
    R.COIL_MOVE_FORM: N_("a Coil move is one cell (e.g. g7) or pass"),
    R.IO_MOVE_FORM: N_("an Io move is one cell (e.g. e5) or, in the opening, two (bound then free, e.g. c3 e5)"),
    R.CORAL_MOVE_FORM: N_("a {game} move is one cell, e.g. {example}"),
    R.WHIRLWIND_MOVE_FORM: N_("a Whirlwind move is one or two points, e.g. e5 or e5 f6"),
    R.OFF_BOARD: N_("{text} is not on this board"),
    R.NOT_A_CELL: N_("{text} is not a cell name (expected something like {example})"),
    R.GAME_OVER: N_("the game is over"),
    R.NO_PASSING: N_("passing is not allowed in {game}"),
    R.OCCUPIED: N_("{cell} is occupied"),
    R.COIL_PASS_PHASE: N_("passing is only allowed in Phase I"),
    R.COIL_EARLY_COIL: N_("{cell} would close a coil, which is not allowed before someone passes"),
    R.IO_NO_PASSING: N_("there is no passing in Io: place a stone"),
    R.IO_OPENING_OVER: N_("the opening is over: a turn is now a single stone"),
    R.IO_FIRST_SINGLE: N_("White's first turn is a single stone"),
    R.IO_FIRST_CORNER: N_("corners are not allowed for White's first stone"),
    R.IO_BOUND_TOUCHES: N_("the bound stone must touch {anchor}"),
    R.IO_FREE_MUST_FOLLOW: N_("a free stone must follow the bound stone while a free cell exists (e.g. {cell} {example})"),
    R.IO_NO_FREE_CELL: N_("no cell is free after {cell}: play {cell} alone, which ends the opening"),
    R.IO_SAME_CELL: N_("{cell} is named twice: the bound and the free stone need two different cells"),
    R.IO_FREE_CORNER: N_("{cell} is a corner: corners cannot take a free stone"),
    R.IO_NOT_FREE: N_("{cell} is not free: a free stone needs all its neighbours (up to eight) empty"),
    R.CORAL_TWO_EMPTY: N_("{cell} needs at least two empty neighbours"),
    R.CORAL_NO_EMPTY_NEIGHBOUR: N_("a stone on {cell} would have no empty neighbour"),
    R.CORAL_SMOTHERS: N_("a stone on {cell} would leave the stone on {other} with no empty neighbour"),
    R.CORAL_CUTS_OFF: N_("a stone on {cell} would cut empty cells off from the edge"),
    R.WHIRLWIND_SAME_POINT: N_("{cell} is named twice: the two stones need two different points"),
    R.WHIRLWIND_FIRST_TURN: N_("Black's first turn places exactly one stone"),
    R.DIAGONAL: N_("{cell} and {other} would touch diagonally without an orthogonal neighbour of your "
                   "colour between them (diagonal rule)"),
    R.POSITION_TEXT: N_("a stored position could not be read"),
}
#: Before an error of a replay's move: which move it was.
AT_MOVE = N_("move {number} ({move}): {error}")
#: Several values of a field, and none.
LIST_SEPARATOR, NONE = ", ", N_("none")
#: One case of an option's range that depends on another option (``OptionSpec.ranges``).
RANGE_CASE = N_("from {low} to {high} on a {value} board")
#: The last of several cases, after the others (joined with ", ").
RANGE_LAST = N_("{cases}, or {last}")


def _spelled(fields: Mapping[str, object]) -> dict[str, object]:
    """An error's fields ready for its sentence: several values joined, others as they are."""
    return {k: LIST_SEPARATOR.join(map(str, v)) or _(NONE) if isinstance(v, tuple) else v
            for k, v in fields.items()}


def _range(kind: str | None, option: object) -> str | None:
    """The allowed range of ``option`` of game ``kind`` in words, from the engine's data
    (``OptionSpec.ranges``: ``"from 2 to 10 on a limping board, or from 3 to 11 on a hexhex
    board"``); ``None`` when the game or its ranges are not known."""
    game = engine.GAMES.get(kind) if kind is not None else None
    spec = next((o for o in game.options if o.name == option), None) if game is not None else None
    if spec is None or not spec.ranges:
        return None
    cases = [_(RANGE_CASE).format(low=low, high=high, value=value) for _other, value, low, high in spec.ranges]
    return cases[0] if len(cases) == 1 else _(RANGE_LAST).format(cases=", ".join(cases[:-1]), last=cases[-1])


def engine_error(error: engine.EngineError, kind: str | None = None) -> str:
    """The sentence for an engine error (:data:`ENGINE_ERRORS` of its reason, filled with its
    fields; a replay's move named first, :data:`AT_MOVE`), lower-case first as the engine's
    message was: the callers quote it after their own words. ``kind`` (the game) lets an
    option's range be worded from the engine's data rather than quoted in English."""
    fields = _spelled(error.fields)
    if error.reason is R.OPTION_OUT_OF_RANGE:
        fields["range"] = _range(kind, fields.get("option")) or fields.get("range")
    text = _(ENGINE_ERRORS[error.reason]).format(**fields)
    if error.move_number is not None:
        text = _(AT_MOVE).format(number=error.move_number, move=error.move, error=text)
    return text


# ---- conditional lines (bot.rules.conditionals.ConditionalError) ---------------------------
LP = LineProblem
#: Every conditional line's problem, by :class:`~bot.rules.conditionals.LineProblem`; ``{step}``
#: is the step named by :data:`STEP_NAMES`, ``{error}`` the engine's error.
LINE_PROBLEMS: dict[LineProblem, str] = {
    LP.NOT_TEXT: N_("a line must be text like 'e5; d4; c3; f6'"),
    LP.EMPTY_LINE: N_("the line is empty: give their move and your reply, separated by ';' (e.g. 'e5; d4')"),
    LP.EMPTY_STEP: N_("step {number} is empty: put one move between each pair of ';'"),
    LP.TOO_MANY_STEPS: N_("a line has at most {most} steps; this one has {count}"),
    LP.BAD_SEAT: N_("seat must be 1 or 2"),
    LP.GAME_OVER: N_("the game is over: there is nothing left to prepare"),
    LP.YOUR_MOVE: N_("it is your move: conditional moves answer your opponent's moves, so play your "
                    "move first"),
    LP.AFTER_END: N_("{step} ends the game, so nothing can follow it"),
    LP.BAD_STEP: N_("{step}: {error}"),
    LP.ENDS_WITH_THEIR_MOVE: N_("the line ends with their move `{text}`: add your reply to it after a ';'"),
    LP.NOT_PAIRS: N_("a line is pairs of their move and your reply"),
    LP.TOO_MANY_LINES: N_("you can store at most {most} lines in a game: clear some with /conditional clear"),
    LP.OTHER_REPLY: N_("{step}: another line already answers `{move}` with `{stored}`; clear your lines "
                      "first to change it"),
    LP.DAMAGED: N_("stored conditional moves are damaged"),
}
#: A step named in a line's problem: the opponent's move (odd steps) or the player's reply.
STEP_NAMES = (N_("step {number} (their move `{text}`)"), N_("step {number} (your reply `{text}`)"))


def conditional_error(error: ConditionalError) -> str:
    """The sentence for a conditional line that cannot be stored (``error``: its
    ConditionalError, worded from its reason and fields; the engine's error of a bad step by
    :func:`engine_error`), lower-case first: the caller quotes it after its own words."""
    fields = dict(error.fields)
    if "number" in fields and "text" in fields:
        fields["step"] = _(STEP_NAMES[(fields["number"] - 1) % 2]).format(**fields)
    if isinstance(fields.get("error"), engine.EngineError):
        fields["error"] = engine_error(fields["error"])
    return _(LINE_PROBLEMS[error.reason]).format(**fields)
