"""The refusals of the manager: :class:`UserError` and its family.

Every refusal is a :class:`UserError` whose text is a complete sentence for the player, and a
refused action changes nothing in the database.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import engine

from .. import texts

if TYPE_CHECKING:
    from ..rules.timecontrol import TimeControl
    from .values import Challenge, Game

__all__ = [
    "ClockConflict",
    "DuplicateChallenge",
    "GameOver",
    "InvalidMove",
    "LimitReached",
    "NotAllowed",
    "NotFound",
    "NotYourTurn",
    "StaleAction",
    "UserError",
    "game_over_error",
]


class UserError(Exception):
    """A refusal to show the player; ``str(e)`` is a complete sentence saying what to do."""


class NotFound(UserError):
    """Unknown (or foreign) game or challenge id, or no game to act on."""


class NotAllowed(UserError):
    """The user may not do this: a stranger to the game or challenge, a self-challenge, a bot
    opponent."""


class NotYourTurn(UserError):
    """A move by the player who is not to move (also the loser of a race between two moves)."""


class GameOver(UserError):
    """An action on a finished or aborted game."""


class InvalidMove(UserError):
    """The engine refused the move: unreadable (``engine.MoveError``) or forbidden
    (``engine.IllegalMove``); the engine's message is kept."""


class LimitReached(UserError):
    """Too many open challenges or active games (see :class:`Limits`)."""


class DuplicateChallenge(UserError):
    """The same challenge (same challenger, opponent and game) is already open; ``challenge``
    is the open one."""

    def __init__(self, message: str, challenge: Challenge):
        super().__init__(message)
        self.challenge = challenge


class ClockConflict(UserError):
    """A challenge (or a game against the computer) given both ``days`` per move and a
    different ``clock`` (issue 19): refused rather than one of them dropped. The sentence is
    :func:`bot.texts.days_with_clock`."""

    def __init__(self, days: int, clock: TimeControl):
        super().__init__(texts.days_with_clock(days, clock.name))
        self.days = days
        self.clock = clock


class StaleAction(UserError):
    """The challenge or game is no longer in the state the action needs (answered, expired,
    changed meanwhile)."""


def game_over_error(game: Game) -> GameOver:
    """The refusal for acting in ``game`` once it is over: its result in words, players as
    mentions (``"Io #3 is over: <@1> beats <@2> by resignation. ..."``), never seat numbers."""
    label = game.label
    if game.status == "aborted":
        return GameOver(f"{label} was aborted by a moderator: nothing more can be played in it.")
    try:
        outcome = game.position.outcome
    except engine.EngineError:  # pragma: no cover - a broken cache
        outcome = None
    names = {seat: f"<@{uid}>" for seat, uid in game.players.items()}
    result = f": {texts.result_text(game.kind, outcome, names)}" if outcome is not None else "."
    return GameOver(f"{label} is over{result} Use `/board game:{game.id}` to see the final "
                    f"position, or `/challenge` to start a new game.")

