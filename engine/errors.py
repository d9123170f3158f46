"""Typed errors of the rules engine, carrying data: a reason and its fields.

Every error has a :class:`ErrorReason` (``e.reason``: which rule of RULES.md, or which
reading of text, refused the input) and the values that say where (``e.fields``: the cell,
the option, the game...). ``str(e)`` is a readable English sentence for library users; a
program that speaks to players words the reason and fields itself (the bot's texts layer
does, in the player's language).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from types import MappingProxyType

__all__ = ["EngineError", "ErrorReason", "GameError", "IllegalMove", "MoveError", "OptionError",
           "PositionError", "spell_fields"]

#: A field's value: a cell label, a number, a name, or several (joined when spelled out).
Field = str | int | float | tuple[str, ...] | None


class ErrorReason(enum.Enum):
    """Why the engine refused its input, as python-chess's ``Termination`` says why a game
    ended. Each member's docstring names the RULES.md rule (or the reading of text) that
    refuses; :attr:`english` is its sentence for ``str(e)``, with ``{field}`` placeholders
    for the error's :attr:`EngineError.fields` (``{field!r}`` quoted)."""

    english: str

    def __new__(cls, value: str, doc: str, english: str) -> ErrorReason:
        member = object.__new__(cls)
        member._value_ = value
        member.__doc__ = doc
        member.english = english
        return member

    # ---- options (OptionError) -----------------------------------------------------------
    OPTION_NOT_WHOLE = ("option not whole", "An option that takes a whole number was given something "
                        "else (fields: option, value).", "{option} must be a whole number, not {value!r}")
    OPTION_NOT_TEXT = ("option not text", "An option that takes one of its choices was given no text "
                       "(fields: option, choices).", "{option} must be one of {choices}")
    OPTION_NOT_A_CHOICE = ("option not a choice", "An option's value is none of its choices (fields: "
                           "option, choices, value).", "{option} must be one of {choices}, not {value}")
    OPTION_OUT_OF_RANGE = ("option out of range", "An option's value is outside the range the game "
                           "allows (fields: option, range -- the engine's words --, value).",
                           "{option} must be {range}, not {value}")
    OPTION_TOO_SMALL = ("option too small", "An option's value is below its least (fields: option, "
                        "minimum).", "{option} must be at least {minimum}")
    OPTION_TOO_LARGE = ("option too large", "An option's value is above its most (fields: option, "
                        "maximum).", "{option} must be at most {maximum}")
    UNKNOWN_OPTION = ("unknown option", "The game has no option of that name (fields: game -- its "
                      "title --, option, options).", "{game} has no option {option!r} (options: {options})")
    SIZE_FOR_SHAPE = ("size for shape", 'The Corals\' board size is out of range for its shape '
                      '(RULES.md "Boards and coordinates", hex boards; fields: shape, low, high, size).',
                      "size for a {shape} board must be from {low} to {high}, not {size}")
    ODD_SIZE = ("odd size", 'Whirlwind is played on an even board (RULES.md "Whirlwind"; no fields).',
                "Whirlwind is played on an even board size (8, 10, ... 24)")
    # ---- games (GameError) ------------------------------------------------------------------
    GAME_NOT_TEXT = ("game not text", "The game's name was not text (no fields).", "the game name must be text")
    UNKNOWN_GAME = ("unknown game", "No game has that name (fields: name, games).",
                    "unknown game {name!r}; games: {games}")
    # ---- reading a move (MoveError; RULES.md "Moves and notation") ---------------------------
    MOVE_NOT_TEXT = ("move not text", 'A move was not text (RULES.md "Moves and notation"; no fields).',
                     "a move must be text")
    EMPTY_MOVE = ("empty move", 'The move names nothing (RULES.md "Moves and notation"; no fields).',
                  "empty move: name a cell, e.g. d4")
    COIL_MOVE_FORM = ("coil move form", 'A Coil move is one cell or pass (RULES.md "Coil"; no fields).',
                      "a Coil move is one cell (e.g. g7) or pass")
    IO_MOVE_FORM = ("io move form", 'An Io move is one cell, or two in the opening (RULES.md "Io"; no '
                    'fields).', "an Io move is one cell (e.g. e5) or, in the opening, two (bound then free, "
                    "e.g. c3 e5)")
    CORAL_MOVE_FORM = ("coral move form", 'A Coral move is one cell (RULES.md "Brain Coral", "Branching '
                       'Coral"; fields: game -- its title --, example).', "a {game} move is one cell, e.g. {example}")
    WHIRLWIND_MOVE_FORM = ("whirlwind move form", 'A Whirlwind move is one or two points (RULES.md '
                           '"Whirlwind" Turns; no fields).', "a Whirlwind move is one or two points, e.g. e5 or e5 f6")
    OFF_BOARD = ("off board", 'A cell name of the right form that is not on this board (RULES.md '
                 '"Boards and coordinates"; fields: text).', "{text} is not on this board")
    NOT_A_CELL = ("not a cell", 'Text that is no cell name (RULES.md "Boards and coordinates"; fields: '
                  'text, example).', "{text} is not a cell name (expected something like {example})")
    # ---- the rules (IllegalMove) ---------------------------------------------------------------
    GAME_OVER = ("game over", 'No move after the end (RULES.md "Every game"; no fields).', "the game is over")
    NO_PASSING = ("no passing", 'The game has no pass (RULES.md "Brain Coral", "Branching Coral", '
                  '"Whirlwind"; fields: game -- its title).', "passing is not allowed in {game}")
    OCCUPIED = ("occupied", 'A stone goes on an empty cell only (every game\'s placement rule; fields: '
                'cell).', "{cell} is occupied")
    COIL_PASS_PHASE = ("coil pass phase", 'Passing ends Phase I and is allowed only then (RULES.md "Coil" '
                       'Phase I; no fields).', "passing is only allowed in Phase I")
    COIL_EARLY_COIL = ("coil early coil", 'No coil may be closed in Phase I (RULES.md "Coil" Phase I; '
                       'fields: cell).', "{cell} would close a coil, which is not allowed before someone passes")
    IO_NO_PASSING = ("io no passing", 'Io has no pass (RULES.md "Io"; no fields).',
                     "there is no passing in Io: place a stone")
    IO_OPENING_OVER = ("io opening over", 'After the opening a turn is one stone (RULES.md "Io" Opening; '
                       'no fields).', "the opening is over: a turn is now a single stone")
    IO_FIRST_SINGLE = ("io first single", 'White\'s first turn is one stone (RULES.md "Io" Opening; no '
                       'fields).', "White's first turn is a single stone")
    IO_FIRST_CORNER = ("io first corner", 'White\'s first stone is not in a corner (RULES.md "Io" Opening; '
                       'no fields).', "corners are not allowed for White's first stone")
    IO_BOUND_TOUCHES = ("io bound touches", 'The bound stone touches the last stone placed (RULES.md "Io" '
                        'Opening; fields: anchor).', "the bound stone must touch {anchor}")
    IO_FREE_MUST_FOLLOW = ("io free must follow", 'A free stone follows the bound one while a free cell '
                           'exists (RULES.md "Io" Opening; fields: cell, example).',
                           "a free stone must follow the bound stone while a free cell exists (e.g. {cell} {example})")
    IO_NO_FREE_CELL = ("io no free cell", 'No free cell is left after the bound stone: it is played alone '
                       '(RULES.md "Io" Opening; fields: cell).',
                       "no cell is free after {cell}: play {cell} alone, which ends the opening")
    IO_SAME_CELL = ("io same cell", 'The bound and the free stone go on two cells (RULES.md "Io" Opening; '
                    'fields: cell).', "{cell} is named twice: the bound and the free stone need two different cells")
    IO_FREE_CORNER = ("io free corner", 'A free stone is never in a corner (RULES.md "Io" Opening; fields: '
                      'cell).', "{cell} is a corner: corners cannot take a free stone")
    IO_NOT_FREE = ("io not free", 'A free stone needs all its neighbours empty (RULES.md "Io" Opening; '
                   'fields: cell).', "{cell} is not free: a free stone needs all its neighbours (up to eight) empty")
    CORAL_TWO_EMPTY = ("coral two empty", 'A Branching Coral stone needs two empty neighbours (RULES.md '
                       '"Branching Coral"; fields: cell).', "{cell} needs at least two empty neighbours")
    CORAL_NO_EMPTY_NEIGHBOUR = ("coral no empty neighbour", 'Every Brain Coral stone keeps an empty '
                                'neighbour (RULES.md "Brain Coral" Placement; fields: cell).',
                                "a stone on {cell} would have no empty neighbour")
    CORAL_SMOTHERS = ("coral smothers", 'A placement may not leave a stone without an empty neighbour '
                      '(RULES.md "Brain Coral" Placement; fields: cell, other).',
                      "a stone on {cell} would leave the stone on {other} with no empty neighbour")
    CORAL_CUTS_OFF = ("coral cuts off", 'Every empty cell stays connected to the edge (RULES.md "Brain '
                      'Coral", "Branching Coral" Placement; fields: cell).',
                      "a stone on {cell} would cut empty cells off from the edge")
    WHIRLWIND_SAME_POINT = ("whirlwind same point", 'A turn\'s two stones go on two points (RULES.md '
                            '"Whirlwind" Turns; fields: cell).',
                            "{cell} is named twice: the two stones need two different points")
    WHIRLWIND_FIRST_TURN = ("whirlwind first turn", 'Black\'s first turn is one stone (RULES.md "Whirlwind" '
                            'Turns; no fields).', "Black's first turn places exactly one stone")
    DIAGONAL = ("diagonal", 'Two stones of a colour touching diagonally need an orthogonal neighbour of '
                'that colour between them (RULES.md "Whirlwind" diagonal rule; fields: cell, other).',
                "{cell} and {other} would touch diagonally without an orthogonal neighbour of your colour "
                "between them (diagonal rule)")
    # ---- position text (PositionError: the engine's own format, never typed by players) -------
    POSITION_TEXT = ("position text", "Position text that cannot be read back (fields: detail, the "
                     "engine's English for developers).", "{detail}")


def spell_fields(fields: Mapping[str, Field]) -> dict[str, object]:
    """``fields`` ready for ``str.format``: several values joined with ``", "`` (``"none"``
    for none), others as they are."""
    return {k: (", ".join(v) or "none") if isinstance(v, tuple) else v for k, v in fields.items()}


class EngineError(ValueError):
    """Base of every error the engine raises on bad input (a ValueError): ``reason`` (an
    :class:`ErrorReason`) and ``fields`` (read-only, the values its sentence names);
    ``move_number`` and ``move`` say which move of a replay failed (None otherwise).
    ``str(e)`` is the English sentence (:attr:`ErrorReason.english`)."""

    def __init__(self, reason: ErrorReason, /, **fields: Field) -> None:
        if not isinstance(reason, ErrorReason):
            raise TypeError(f"an engine error needs an ErrorReason, not {reason!r}")
        self.reason = reason
        self.fields: Mapping[str, Field] = MappingProxyType(dict(fields))
        self.move_number: int | None = None
        self.move: str | None = None
        super().__init__(reason.english.format(**spell_fields(self.fields)))

    def __str__(self) -> str:
        text = self.reason.english.format(**spell_fields(self.fields))
        return text if self.move_number is None else f"move {self.move_number} ({self.move}): {text}"

    def __reduce__(self) -> tuple[object, ...]:  # pickles across processes with its data
        return (_rebuild, (type(self), self.reason, dict(self.fields), self.move_number, self.move))

    def at_move(self, number: int, move: str) -> EngineError:
        """The same error (type, reason, fields) said of move ``number`` (``move`` as typed) of a
        replay: ``str`` reads ``"move 3 (c3): c3 is occupied"``."""
        out = type(self)(self.reason, **self.fields)
        out.move_number, out.move = number, move
        return out


def _rebuild(cls: type[EngineError], reason: ErrorReason, fields: dict[str, Field], move_number: int | None,
             move: str | None) -> EngineError:
    out = cls(reason, **fields)
    out.move_number, out.move = move_number, move
    return out


class GameError(EngineError):
    """An unknown game name."""


class OptionError(EngineError):
    """A game option that does not exist or whose value is out of range."""


class MoveError(EngineError):
    """Move text that cannot be read as a move on this board (e.g. ``z99``, ``hello``)."""


class IllegalMove(EngineError):
    """A well-formed move that the rules forbid in this position (e.g. an occupied cell)."""


class PositionError(EngineError):
    """Position text that cannot be read back into a position (the engine's own format):
    reason :attr:`ErrorReason.POSITION_TEXT`, ``detail`` in English for developers."""

    def __init__(self, detail: str | ErrorReason, /, **fields: Field) -> None:
        if isinstance(detail, ErrorReason):  # rebuilt from its reason and fields
            super().__init__(detail, **fields)
        else:
            super().__init__(ErrorReason.POSITION_TEXT, detail=detail)
