"""Typed errors of the rules engine. Every message is written for a player to read."""

__all__ = ["EngineError", "GameError", "IllegalMove", "MoveError", "OptionError", "PositionError"]


class EngineError(ValueError):
    """Base of every error the engine raises on bad input (a ValueError)."""


class GameError(EngineError):
    """An unknown game name."""


class OptionError(EngineError):
    """A game option that does not exist or whose value is out of range."""


class MoveError(EngineError):
    """Move text that cannot be read as a move on this board (e.g. ``z99``, ``hello``)."""


class IllegalMove(EngineError):
    """A well-formed move that the rules forbid in this position (e.g. an occupied cell)."""


class PositionError(EngineError):
    """Position text that cannot be read back into a position."""
