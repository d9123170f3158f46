"""Stonecast's game manager: the rules of game flow, by concern.

The manager is the only writer of the database and the only caller of the engine on behalf of
players. It knows nothing of Discord: it takes plain ids (Discord snowflakes as ints) and
returns the frozen values of :mod:`.values`; the bot turns them into messages. Every refusal is
a :class:`UserError` (:mod:`.errors`) carrying a :class:`Refusal` and its values -- data,
worded for the player by :func:`bot.texts.refusal_text` -- and a
refused action changes nothing in the database. Every SQL statement lives in the repositories
of :mod:`bot.store`.

Map (each concern a mixin over :class:`~.core.ManagerCore`, composed by :class:`GameManager`):

* :mod:`.core` -- the store and its repositories, clock, per-game locks, position cache, rows
  to values;
* :mod:`.errors` -- :class:`UserError` and its family; :mod:`.values` -- :class:`Game`,
  :class:`Challenge`, :class:`MoveResult`, :class:`Announcement`, ...;
* :mod:`.challenges` -- send, accept (creates the game), decline, cancel, expire, rematch;
* :mod:`.play` -- moves (and the conditional replies they trigger), resignation, abort;
* :mod:`.conditional` -- conditional moves: store, list, clear, autocomplete (issue 13);
* :mod:`.lookup` -- move lists, replays, which game a command means, autocomplete, records;
* :mod:`.clocks` -- deadlines, the sweep (reminders, losses on time), vacations;
* :mod:`.ratings` -- Glicko-2 updates, leaderboards (established first), ranks, profiles;
* :mod:`.outbox` -- announcements queued with the change they announce, delivered at least once;
* :mod:`.settings` -- the your-turn DM (or daily digest), move confirmation, the vacation allowance;
* :mod:`.turns` -- the games waiting for a player (/next) and the daily digest (issue 13);
* :mod:`.computer` -- games against the computer (started at once, its turns and moves, the
  record by level) and cached reviews of finished games;
* :mod:`.privacy` -- a player's own data: what is stored about them, deleting it (issue 18).

Consistency rules (DESIGN.md "Manager and store"):

* The move list (table ``moves``) is the record of truth; ``games.position_text`` is a cache
  equal to replaying the moves (plus a resignation or timeout, which is not a move).
* A move is validated by the engine, then its move row and the game row are written in one
  transaction that is committed before :meth:`GameManager.play_move` returns. Moves on one
  game are serialised by a per-game asyncio lock, and the game row's ``ply`` is a version
  checked by the UPDATE (``WHERE id = ? AND ply = ?``), so racing moves -- also from another
  process on the same file -- apply exactly once and the loser gets :class:`NotYourTurn`.
* Creating a game from a challenge, ending a game and updating ratings are single
  transactions too, so a process killed at any moment leaves no half-written game.

Times are UNIX seconds from the injectable ``clock``; randomness (who moves first) comes from
the injectable ``rng``.
"""

from __future__ import annotations

from .challenges import ChallengesMixin
from .clocks import ClocksMixin
from .computer import COMPUTER_LEVELS, ComputerMixin, LevelRecord, ReviewInput
from .conditional import ConditionalMixin
from .core import DAY, DEFAULT_DAYS_PER_MOVE, DEFAULT_LEASE, FIRST_CHOICES, HOUR
from .errors import (
    ClockConflict,
    DuplicateChallenge,
    GameOver,
    InvalidMove,
    LimitReached,
    NotAllowed,
    NotFound,
    NotYourTurn,
    Refusal,
    StaleAction,
    UserError,
    game_over_error,
)
from .lookup import LookupMixin
from .outbox import BOARD_GRACE, NONCE_WINDOW, OUTBOX_LEASE, OutboxMixin
from .play import PlayMixin
from .privacy import Forgotten, PrivacyMixin, StoredData, StoredRating
from .ratings import RatingsMixin
from .settings import SettingsMixin
from .turns import TurnsMixin
from .values import (
    Accepted,
    Announcement,
    Challenge,
    ClockEvent,
    ConditionalLines,
    Game,
    GameEnd,
    GameRecord,
    Limits,
    Listing,
    MovePreview,
    MoveRecord,
    MoveResult,
    Profile,
    RatingRow,
    Record,
    Standings,
    UserSettings,
    VacationChange,
)

__all__ = [
    "DEFAULT_DAYS_PER_MOVE",
    "DEFAULT_LEASE",
    "BOARD_GRACE",
    "NONCE_WINDOW",
    "OUTBOX_LEASE",
    "COMPUTER_LEVELS",
    "ComputerMixin",
    "LevelRecord",
    "ReviewInput",
    "DAY",
    "FIRST_CHOICES",
    "HOUR",
    "Accepted",
    "Announcement",
    "Challenge",
    "ClockConflict",
    "ClockEvent",
    "ConditionalLines",
    "DuplicateChallenge",
    "Forgotten",
    "Game",
    "GameEnd",
    "GameRecord",
    "GameManager",
    "GameOver",
    "InvalidMove",
    "LimitReached",
    "Limits",
    "Listing",
    "MoveRecord",
    "MovePreview",
    "MoveResult",
    "NotAllowed",
    "NotFound",
    "NotYourTurn",
    "Profile",
    "RatingRow",
    "Record",
    "Refusal",
    "StaleAction",
    "Standings",
    "StoredData",
    "StoredRating",
    "UserError",
    "UserSettings",
    "VacationChange",
    "game_over_error",
]


class GameManager(
    ChallengesMixin,
    PlayMixin,
    ConditionalMixin,
    LookupMixin,
    ClocksMixin,
    RatingsMixin,
    OutboxMixin,
    SettingsMixin,
    TurnsMixin,
    ComputerMixin,
    PrivacyMixin,
):
    """Challenges, games, moves, clocks, ratings, the outbox and settings over one
    :class:`~bot.store.Store` (each concern in its own module; see the package docstring).

    ``GameManager(store, clock=..., rng=..., limits=...)`` or ``await GameManager.open(path)``.
    ``clock()`` returns UNIX seconds (default :func:`time.time`); ``rng`` decides random
    seats (default a fresh :class:`random.Random`); ``limits`` is a :class:`Limits`.
    """
