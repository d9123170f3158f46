"""The engine's errors (errors topic): an illegal move, a move that cannot be read, a bad game
option, worded from the error's reason and fields (:class:`engine.ErrorReason`,
:attr:`engine.EngineError.fields`), never from the engine's own English.

Part of :mod:`bot.texts` (every sentence a player reads)."""

from __future__ import annotations

from collections.abc import Mapping

import engine

__all__ = ["ENGINE_ERRORS", "engine_error"]

R = engine.ErrorReason

#: Every engine error's sentence, by reason; ``{field}`` is where its field goes (several
#: values are joined with ", "; ``{field!r}`` quotes it).
ENGINE_ERRORS: dict[engine.ErrorReason, str] = {
    R.OPTION_NOT_WHOLE: "{option} must be a whole number, not {value!r}",
    R.OPTION_NOT_TEXT: "{option} must be one of {choices}",
    R.OPTION_NOT_A_CHOICE: "{option} must be one of {choices}, not {value}",
    R.OPTION_OUT_OF_RANGE: "{option} must be {range}, not {value}",
    R.OPTION_TOO_SMALL: "{option} must be at least {minimum}",
    R.OPTION_TOO_LARGE: "{option} must be at most {maximum}",
    R.UNKNOWN_OPTION: "{game} has no option {option!r} (options: {options})",
    R.SIZE_FOR_SHAPE: "size for a {shape} board must be from {low} to {high}, not {size}",
    R.ODD_SIZE: "Whirlwind is played on an even board size (8, 10, ... 24)",
    R.GAME_NOT_TEXT: "the game name must be text",
    R.UNKNOWN_GAME: "unknown game {name!r}; games: {games}",
    R.MOVE_NOT_TEXT: "a move must be text",
    R.EMPTY_MOVE: "empty move: name a cell, e.g. d4",
    R.COIL_MOVE_FORM: "a Coil move is one cell (e.g. g7) or pass",
    R.IO_MOVE_FORM: "an Io move is one cell (e.g. e5) or, in the opening, two (bound then free, e.g. c3 e5)",
    R.CORAL_MOVE_FORM: "a {game} move is one cell, e.g. {example}",
    R.WHIRLWIND_MOVE_FORM: "a Whirlwind move is one or two points, e.g. e5 or e5 f6",
    R.OFF_BOARD: "{text} is not on this board",
    R.NOT_A_CELL: "{text} is not a cell name (expected something like {example})",
    R.GAME_OVER: "the game is over",
    R.NO_PASSING: "passing is not allowed in {game}",
    R.OCCUPIED: "{cell} is occupied",
    R.COIL_PASS_PHASE: "passing is only allowed in Phase I",
    R.COIL_EARLY_COIL: "{cell} would close a coil, which is not allowed before someone passes",
    R.IO_NO_PASSING: "there is no passing in Io: place a stone",
    R.IO_OPENING_OVER: "the opening is over: a turn is now a single stone",
    R.IO_FIRST_SINGLE: "White's first turn is a single stone",
    R.IO_FIRST_CORNER: "corners are not allowed for White's first stone",
    R.IO_BOUND_TOUCHES: "the bound stone must touch {anchor}",
    R.IO_FREE_MUST_FOLLOW: "a free stone must follow the bound stone while a free cell exists (e.g. {cell} {example})",
    R.IO_NO_FREE_CELL: "no cell is free after {cell}: play {cell} alone, which ends the opening",
    R.IO_SAME_CELL: "{cell} is named twice: the bound and the free stone need two different cells",
    R.IO_FREE_CORNER: "{cell} is a corner: corners cannot take a free stone",
    R.IO_NOT_FREE: "{cell} is not free: a free stone needs all its neighbours (up to eight) empty",
    R.CORAL_TWO_EMPTY: "{cell} needs at least two empty neighbours",
    R.CORAL_NO_EMPTY_NEIGHBOUR: "a stone on {cell} would have no empty neighbour",
    R.CORAL_SMOTHERS: "a stone on {cell} would leave the stone on {other} with no empty neighbour",
    R.CORAL_CUTS_OFF: "a stone on {cell} would cut empty cells off from the edge",
    R.WHIRLWIND_SAME_POINT: "{cell} is named twice: the two stones need two different points",
    R.WHIRLWIND_FIRST_TURN: "Black's first turn places exactly one stone",
    R.DIAGONAL: ("{cell} and {other} would touch diagonally without an orthogonal neighbour of your "
                 "colour between them (diagonal rule)"),
    R.POSITION_TEXT: "a stored position could not be read",
}
#: Before an error of a replay's move: which move it was.
AT_MOVE = "move {number} ({move}): {error}"
#: Several values of a field, and none.
LIST_SEPARATOR, NONE = ", ", "none"


def _spelled(fields: Mapping[str, object]) -> dict[str, object]:
    """An error's fields ready for its sentence: several values joined, others as they are."""
    return {k: LIST_SEPARATOR.join(map(str, v)) or NONE if isinstance(v, tuple) else v for k, v in fields.items()}


def engine_error(error: engine.EngineError) -> str:
    """The sentence for an engine error (:data:`ENGINE_ERRORS` of its reason, filled with its
    fields; a replay's move named first, :data:`AT_MOVE`), lower-case first as the engine's
    message was: the callers quote it after their own words."""
    text = ENGINE_ERRORS[error.reason].format(**_spelled(error.fields))
    if error.move_number is not None:
        text = AT_MOVE.format(number=error.move_number, move=error.move, error=text)
    return text
