"""Stonecast's rules engine: Coil, Io, Brain Coral, Branching Coral and Whirlwind.

Pure Python, no I/O. The whole public surface::

    import engine
    engine.GAMES["io"]                       # GameKind: title, options (OptionSpec), summary
    pos = engine.new_game("io", size=9)      # OptionError / GameError on bad input
    pos.to_move, pos.phase, pos.colour(1)
    list(pos.legal_moves()); pos.complete("c3")
    pos = pos.play("c3 e5")                  # MoveError (unreadable) / IllegalMove (forbidden)
    pos.outcome, pos.scores, pos.highlights, pos.last_move, pos.ply, pos.stones
    engine.from_text(pos.to_text()) == pos
    engine.replay("io", {"size": 9}, ["e5", "d4 b2"])

Every error is a subclass of :class:`EngineError`, itself a ValueError, with a message a
player can read. Rules are those of ``RULES.md`` in the shared project folder.
"""

from . import coil, coral, io, whirlwind  # noqa: F401  (registers the games)
from .base import (
    GAMES,
    GameKind,
    Highlights,
    OptionSpec,
    Outcome,
    Position,
    from_text,
    new_game,
    replay,
)
from .errors import EngineError, GameError, IllegalMove, MoveError, OptionError, PositionError
from .geometry import Board, HexBoard, SquareBoard, hex_board, square_board

# Menus list the games in this order (imports above register them alphabetically).
for _key in ("coil", "io", "braincoral", "branchingcoral", "whirlwind"):
    GAMES[_key] = GAMES.pop(_key)
del _key

__all__ = [
    "GAMES",
    "Board",
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
    "SquareBoard",
    "from_text",
    "hex_board",
    "new_game",
    "replay",
    "square_board",
]
