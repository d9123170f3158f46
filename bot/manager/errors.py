"""The refusals of the manager: :class:`UserError` and its family, carrying data, not words.

Every refusal is a :class:`UserError` (or a subclass saying its family) with a
:class:`Refusal` member saying why and the values a player needs to hear it (the game, a
count, the engine's error...) as keyword fields in :attr:`UserError.values`. The sentence is
worded by the texts layer (:func:`bot.texts.refusal_text`, one wording function per
:class:`Refusal`), which the reply path (:func:`bot.front.replies.report_error`) calls; ``str(e)``
is a short description for logs, not for players. A refused action changes nothing in the
database.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Any

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
    "Refusal",
    "StaleAction",
    "UserError",
    "game_over_error",
]


class Refusal(enum.Enum):
    """Why an action is refused. Each member names, in its comment, the values its
    :class:`UserError` carries (the keyword parameters of its wording function in
    :mod:`bot.texts.errors`, which a test checks)."""

    # ---- look-up (NotFound)
    NO_SUCH_GAME = "no such game"  # game_id: int | str (as typed)
    NO_SUCH_CHALLENGE = "no such challenge"
    NO_SUCH_ANNOUNCEMENT = "no such announcement"  # announcement_id: int | None
    NO_SUCH_USER = "no such user"
    NO_GAMES = "no games in progress"
    CHOOSE_GAME = "choose a game"  # games: list[Game], waiting: bool (they wait for the caller)
    # ---- terms of a new game or challenge (UserError)
    UNKNOWN_KIND = "unknown game"  # kind: object (as given)
    BAD_OPTION = "bad option"  # kind: str, error: engine.OptionError
    BAD_FIRST = "bad first"
    BAD_DAYS_PER_MOVE = "bad days per move"
    BAD_CLOCK = "bad clock"  # error: TimeControlError
    CLOCK_CONFLICT = "days with another clock"  # ClockConflict: days, clock
    BAD_LEVEL = "bad computer level"
    LEVEL_WITHOUT_COMPUTER = "level without the computer"
    # ---- challenges
    SELF_CHALLENGE = "self challenge"
    BOT_OPPONENT = "bot opponent"
    COMPUTER_SELF = "the computer plays itself"
    TOO_MANY_CHALLENGES = "too many challenges"  # count: int, most: int
    TOO_MANY_GAMES = "too many games"  # count: int, most: int
    TOO_MANY_GAMES_TO_ACCEPT = "too many games to accept"  # count, most, challenger: bool
    DUPLICATE_CHALLENGE = "duplicate challenge"  # DuplicateChallenge: challenge
    OWN_CHALLENGE_ACCEPT = "accepting one's own challenge"
    OWN_CHALLENGE_DECLINE = "declining one's own challenge"
    NOT_ADDRESSEE = "challenge addressed to someone else"  # declining: bool
    OPEN_CHALLENGE_DECLINE = "declining an open challenge"
    NOT_CHALLENGER = "cancelling someone else's challenge"
    CHALLENGE_ANSWERED = "challenge answered meanwhile"  # challenge: Challenge
    CHALLENGE_CLOSED = "challenge no longer open"  # challenge: Challenge
    CHALLENGE_EXPIRED = "challenge expired"  # challenge: Challenge, lasts_hours: float
    CHALLENGE_NOT_POSTED = "challenge not posted"
    ALREADY_ACCEPTED = "accepted already by the caller"  # game: Game
    # ---- rematches
    REMATCH_NOT_PLAYER = "rematch by a stranger"  # game: Game
    GAME_STILL_RUNNING = "rematch of a running game"  # game: Game
    REMATCH_TAKEN = "rematch accepted already"  # game: Game, rematch_id: int
    REMATCH_OFFERED = "rematch offered already"  # game: Game, opponent_id: int, channel_id: int
    REMATCH_OFFERED_TO_YOU = "rematch offered by the opponent"  # game: Game, channel_id: int
    REMATCH_NOT_POSTED = "rematch not posted"
    # ---- play
    NOT_PLAYING = "not playing"  # game: Game
    NOT_PLAYING_RESIGN = "resigning a stranger's game"  # game: Game
    GAME_OVER = "game over"  # game: Game (finished or aborted)
    NOT_YOUR_TURN = "not your turn"  # game: Game
    MOVED_ON = "moved on meanwhile"  # game: Game
    POSITION_CHANGED = "position changed since chosen"  # game: Game (as now stored)
    ENDED_MEANWHILE = "ended meanwhile"  # game: Game
    RESIGN_RACE = "game kept changing"
    BAD_MOVE_TEXT = "no move text"
    UNREADABLE_MOVE = "unreadable move"  # error: engine.MoveError
    ILLEGAL_MOVE = "illegal move"  # error: engine.IllegalMove
    MOVE_TOO_LONG_TO_CONFIRM = "move too long to confirm"
    MOVE_NAMES_ANOTHER_GAME = "move names another game"  # chosen: int, game_id: int
    ABORT_NOT_ALLOWED = "abort without permission"
    # ---- the computer and reviews
    NOT_COMPUTER_GAME = "not a game against the computer"  # game: Game
    REVIEW_RUNNING = "review of a running game"  # game: Game
    REVIEW_EMPTY = "review of a game without moves"  # game: Game
    REVIEW_BUSY = "review running already"
    # ---- conditional moves
    BAD_LINE = "line cannot be stored"  # error: ConditionalError
    NO_CONDITIONALS = "no conditional moves"  # game: Game
    BAD_LINE_NUMBER = "no such line"  # lines: int (how many are stored)
    STALE_LINE = "line no longer fits"
    # ---- vacations and settings
    BAD_VACATION_DAYS = "bad vacation days"
    NOT_ON_VACATION = "not on vacation"
    VACATION_USED_UP = "vacation used up"  # allowance: float (days a year)
    VACATION_SHORT = "not enough vacation"  # left_days: float, days: float, most: int
    BAD_DM_MODE = "bad dm mode"
    BAD_DIGEST_HOUR = "bad digest hour"
    DIGEST_HOUR_MISSING = "digest hour missing"
    EMPTY_NAME = "empty display name"
    # ---- analysis boards and notes (issue 23)
    ANALYZE_ONE_SOURCE = "analysis of several things at once"
    BAD_POSITION_TEXT = "unreadable position text"  # error: engine.EngineError | None (too long)
    BAD_OPTIONS_TEXT = "options not written name=value"  # kind: str
    POSITION_OVER = "analysis of a finished position"
    BAD_MOVE_NUMBER = "no such move number"  # most: int (moves in the game)
    ANALYSIS_EXPIRED = "analysis board expired"  # hours: float (how long a board lasts unused)
    NOT_YOUR_ANALYSIS = "someone else's analysis board"
    NOTHING_TO_UNDO = "nothing to take back"
    ENGINE_RUNNING_GAME = "engine on a running game"  # game: Game, playing: bool (the caller plays it)
    ENGINE_GAME_OVER = "engine on a finished position"
    ENGINE_LIMIT = "engine requests over the cap"  # most: int (a minute), wait: int (seconds)
    ENGINE_BUSY = "engine request running already"
    NOTE_TOO_LONG = "note too long"  # length: int, most: int
    # ---- privacy
    GAMES_RUNNING = "forgetting a player with games running"  # games: list[Game]
    # ---- tournaments (issue 21)
    NO_SUCH_TOURNAMENT = "no such tournament"  # name: str (as typed)
    NOT_ORGANISER = "managing a tournament without the right"  # tournament: Tournament | None
    TOURNAMENT_NAME_LENGTH = "tournament name too long or empty"  # most: int
    TOURNAMENT_NAME_TAKEN = "tournament name taken"  # name: str
    BAD_FORMAT = "bad tournament format"  # formats: tuple[str, ...]
    BAD_FIELD_SIZE = "bad field size"  # least: int, most: int (the bounds allowed)
    BAD_ROUNDS = "bad number of Swiss rounds"  # most: int
    BAD_GAMES_PER_MATCH = "bad games per knockout match"
    BAD_DIVISION = "bad league division size or promotion"  # least: int, most: int
    BAD_START = "bad sign-up end"  # most_days: int
    ALREADY_ENTERED = "joining twice"  # tournament: Tournament
    NOT_ENTERED = "not in the tournament"  # tournament: Tournament
    SIGNUP_CLOSED = "sign-up closed"  # tournament: Tournament
    TOURNAMENT_FULL = "tournament full"  # tournament: Tournament, most: int
    TOO_FEW_PLAYERS = "too few players to start"  # tournament: Tournament, count: int, least: int
    TOURNAMENT_NOT_RUNNING = "tournament not running"  # tournament: Tournament
    TOURNAMENT_OVER = "tournament over"  # tournament: Tournament
    ALREADY_WITHDRAWN = "withdrawn already"  # tournament: Tournament
    COMPUTER_ENTERED = "computer entered already"  # tournament: Tournament


def _short(value: Any) -> str:
    """A value as a log line shows it: games and challenges by their id."""
    if type(value).__name__ in ("Game", "Challenge") and hasattr(value, "id"):
        return f"{type(value).__name__.lower()} {value.id}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(map(_short, value)) + "]"
    return repr(value)


class UserError(Exception):
    """A refusal to show the player: ``reason`` (a :class:`Refusal`) and the ``values`` its
    wording needs (keyword fields, also readable as attributes: ``e.game``). The sentence is
    :func:`bot.texts.refusal_text` ``(e)``; ``str(e)`` describes it for logs."""

    def __init__(self, reason: Refusal, **values: Any):
        super().__init__(reason, values)
        self.reason = reason
        self.values = values

    def __getattr__(self, name: str) -> Any:
        values = self.__dict__.get("values", {})
        if name in values:
            return values[name]
        raise AttributeError(name)

    def __str__(self) -> str:
        fields = ", ".join(f"{k}={_short(v)}" for k, v in self.values.items())
        return f"{self.reason.value}" + (f" ({fields})" if fields else "")

    def __reduce__(self) -> tuple[Any, ...]:
        # rebuilt from its reason and values, whatever the subclass's constructor takes
        return _restore, (type(self), self.reason, self.values)


def _restore(cls: type[UserError], reason: Refusal, values: dict[str, Any]) -> UserError:
    error = cls.__new__(cls)
    UserError.__init__(error, reason, **values)
    return error


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
    (``engine.IllegalMove``); the engine's error is kept in ``error``."""


class LimitReached(UserError):
    """Too many open challenges or active games (see :class:`Limits`)."""


class DuplicateChallenge(UserError):
    """The same challenge (same challenger, opponent and game) is already open; ``challenge``
    is the open one (:attr:`Refusal.DUPLICATE_CHALLENGE`)."""

    def __init__(self, challenge: Challenge):
        super().__init__(Refusal.DUPLICATE_CHALLENGE, challenge=challenge)


class ClockConflict(UserError):
    """A challenge (or a game against the computer) given both ``days`` per move and a
    different ``clock`` (issue 19): refused rather than one of them dropped
    (:attr:`Refusal.CLOCK_CONFLICT`, worded by :func:`bot.texts.days_with_clock`)."""

    def __init__(self, days: int, clock: TimeControl):
        super().__init__(Refusal.CLOCK_CONFLICT, days=days, clock=clock)


class StaleAction(UserError):
    """The challenge or game is no longer in the state the action needs (answered, expired,
    changed meanwhile)."""


def game_over_error(game: Game) -> GameOver:
    """The refusal for acting in ``game`` once it is over (:attr:`Refusal.GAME_OVER`): worded
    with its result, players as mentions (``"Io #3 is over: <@1> beats <@2> by resignation.
    ..."``), never seat numbers."""
    return GameOver(Refusal.GAME_OVER, game=game)
