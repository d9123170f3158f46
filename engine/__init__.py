"""Stonecast's rules engine: Coil, Io, Brain Coral, Branching Coral and Whirlwind.

Pure Python, no I/O. The whole public surface::

    import engine
    engine.GAMES["io"]                       # GameKind: title, options, move_format, ends...
    engine.MENU_ORDER                        # the games' keys as menus list them (GAMES's order)
    pos = engine.new_game("io", size=9)      # OptionError / GameError on bad input
    pos.to_move, pos.phase, pos.colour(1)
    list(pos.legal_moves()); pos.complete("c3")
    pos = pos.play("c3 e5")                  # MoveError (unreadable) / IllegalMove (forbidden)
    pos.outcome, pos.scores, pos.highlights, pos.last_move, pos.ply, pos.stones
    pos.outcome.reason                       # a Termination: .caption(loser), .by_rules
    pos.stage                                # a Stage: the phase, what may be played (.hint, .caption: English)
    pos.turn_hint, pos.phase_caption, pos.last_move_settled_colours
    pos.board.family, pos.board.labels       # "hex" / "square"; engine.file_letter(0) == "a"
    engine.from_text(pos.to_text()) == pos
    engine.replay("io", {"size": 9}, ["e5", "d4 b2"])
    state = pos.search_state()               # SearchState: integer half-moves for tree search

Every error is a subclass of :class:`EngineError`, itself a ValueError, carrying data: its
``reason`` (an :class:`ErrorReason` naming the rule) and ``fields`` (cells, options...);
``str(e)`` is an English sentence for library users (the bot words the reason itself). Rules are those of ``RULES.md`` in the shared project folder.
"""

from . import coil, coral, io, whirlwind  # noqa: F401  (registers the games)
from .base import (
    GAMES,
    MENU_ORDER,
    GameKind,
    Highlights,
    OptionSpec,
    Outcome,
    Position,
    Stage,
    Termination,
    from_text,
    new_game,
    replay,
)
from .coil import CoilState
from .errors import (
    EngineError,
    ErrorReason,
    GameError,
    IllegalMove,
    MoveError,
    OptionError,
    PositionError,
)
from .geometry import Board, HexBoard, SquareBoard, cells_of, file_letter, hex_board, square_board
from .io import IoState, IoTables
from .state import PositionState, SearchState
from .whirlwind import WhirlwindState

# GAMES in MENU_ORDER (the imports above register the games alphabetically).
for _key in MENU_ORDER:
    GAMES[_key] = GAMES.pop(_key)
del _key

__all__ = [
    "ErrorReason",
    "GAMES",
    "MENU_ORDER",
    "Board",
    "CoilState",
    "IoState",
    "IoTables",
    "WhirlwindState",
    "cells_of",
    "EngineError",
    "GameError",
    "GameKind",
    "HexBoard",
    "Highlights",
    "IllegalMove",
    "MoveError",
    "OptionError",
    "OptionSpec",
    "Outcome",
    "Position",
    "PositionError",
    "PositionState",
    "SearchState",
    "SquareBoard",
    "Stage",
    "Termination",
    "file_letter",
    "from_text",
    "hex_board",
    "new_game",
    "replay",
    "square_board",
]
