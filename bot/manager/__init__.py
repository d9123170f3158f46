"""Stonecast's game manager: the rules of game flow, by concern.

The manager is the only writer of the database and the only caller of the engine on behalf of
players. It knows nothing of Discord: it takes plain ids (Discord snowflakes as ints) and
returns the frozen values of :mod:`.values`; the bot turns them into messages. Every refusal is
a :class:`UserError` (:mod:`.errors`) carrying a :class:`Refusal` and its values -- data,
worded for the player by :func:`bot.texts.refusal_text` -- and a
refused action changes nothing in the database. Every SQL statement lives in the repositories
of :mod:`bot.store`.

Map (each concern a service over one shared :class:`~.core.ManagerCore`, wired by
:func:`.services.build_services`; :class:`GameManager` is the front that builds them and
hands each public operation to its service):

* :mod:`.core` -- the store and its repositories, clock, per-game locks, position cache, rows
  to values; :class:`~.core.Service`, every service's base;
* :mod:`.errors` -- :class:`UserError` and its family; :mod:`.values` -- :class:`Game`,
  :class:`Challenge`, :class:`MoveResult`, :class:`Announcement`, ...;
* shared services: :mod:`.settings` -- the your-turn DM (or daily digest), move confirmation,
  the vacation allowance, display names; :mod:`.outbox` -- announcements queued with the
  change they announce, delivered at least once; :mod:`.ratings` -- Glicko-2 updates,
  leaderboards (established first), ranks, profiles; :mod:`.endings` -- a game ended by
  resignation or on time, with its ratings and announcement; :mod:`.lookup` -- move lists,
  replays, which game a command means, autocomplete, records;
* use cases: :mod:`.challenges` -- send, accept (starts the game), decline, cancel, expire,
  rematch; :mod:`.play` -- moves (and the conditional replies they trigger), resignation,
  abort; :mod:`.conditional` -- conditional moves (issue 13); :mod:`.clocks` -- deadlines,
  the sweep (reminders, losses on time), vacations; :mod:`.turns` -- the games waiting for
  a player (/next) and the daily digest (issue 13); :mod:`.computer` -- games against the
  computer and cached reviews; :mod:`.privacy` -- a player's own data (issue 18);
  :mod:`.tournaments` -- tournaments and leagues (issue 21);
  :mod:`.analysis` -- analysis boards, their Engine gate and private notes (issue 23);
* :mod:`.services` -- the wiring and its graph.

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

import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from ..store import Store
from .analysis import ENGINE_PER_MINUTE, NOTE_MAX, SESSION_TTL, AnalysisBoard, EngineLine
from .clocks import ClocksService
from .computer import COMPUTER_LEVELS, LevelRecord, ReviewInput
from .core import DAY, DEFAULT_DAYS_PER_MOVE, DEFAULT_LEASE, FIRST_CHOICES, HOUR, ManagerCore
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
from .outbox import BOARD_GRACE, NONCE_WINDOW, OUTBOX_LEASE
from .privacy import Forgotten, StoredData, StoredRating
from .services import Services, build_services
from .values import (
    Accepted,
    Announcement,
    Challenge,
    ClockEvent,
    ConditionalLines,
    Game,
    GameChoice,
    GameEnd,
    GameRecord,
    GameRef,
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
    "ENGINE_PER_MINUTE",
    "NOTE_MAX",
    "SESSION_TTL",
    "AnalysisBoard",
    "EngineLine",
    "DEFAULT_DAYS_PER_MOVE",
    "DEFAULT_LEASE",
    "BOARD_GRACE",
    "NONCE_WINDOW",
    "OUTBOX_LEASE",
    "COMPUTER_LEVELS",
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
    "GameChoice",
    "GameEnd",
    "GameRecord",
    "GameRef",
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
    "Services",
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


class _Operation:
    """A public operation of :class:`GameManager` carried out by one of its services: reading
    it on a manager gives that service's bound method (its signature and docstring), so
    ``manager.play_move(...)`` is ``manager.services.play.play_move(...)``."""

    def __init__(self, service: str, method: str | None = None):
        self.service = service
        self.method = method

    def __set_name__(self, owner: type, name: str) -> None:
        self.method = self.method or name

    def __get__(self, manager: GameManager | None, owner: type | None = None) -> Any:
        if manager is None:
            return self
        return getattr(getattr(manager.services, self.service), cast(str, self.method))  # set by __set_name__


def _state(name: str, doc: str) -> property:
    """A property of :class:`GameManager` reading and setting attribute ``name`` of its
    shared core (so every service sees a change, e.g. a test's clock)."""
    def get(self: GameManager) -> Any:
        return getattr(self.core, name)

    def put(self: GameManager, value: Any) -> None:
        setattr(self.core, name, value)

    get.__doc__ = doc
    return property(get, put)


class GameManager:
    """Challenges, games, moves, clocks, ratings, the outbox and settings over one
    :class:`~bot.store.Store`: the front of the manager's services (see the package
    docstring), each public operation handed to the service that owns it
    (``manager.services.<name>``; e.g. :meth:`play_move` is
    :meth:`.play.PlayService.play_move`).

    ``GameManager(store, clock=..., rng=..., limits=..., lease=...)`` or ``await
    GameManager.open(path)``. ``clock()`` returns UNIX seconds (default :func:`time.time`;
    assigning ``manager.clock`` changes it for every service); ``rng`` decides random seats
    (default a fresh :class:`random.Random`); ``limits`` is a :class:`Limits`; ``lease`` as
    :class:`~.core.ManagerCore`'s. Raises :class:`~bot.store.SchemaNotAtHead` for a store not
    at the head schema and ValueError for a bad lease.
    """

    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time,
                 rng: random.Random | None = None, limits: Limits | None = None,
                 lease: float | None = None):
        self.core = ManagerCore(store, clock=clock, rng=rng, limits=limits, lease=lease)
        self.services: Services = build_services(self.core)

    @classmethod
    async def open(cls, path: str | Path, *, pool_size: int | None = None, **kw: Any) -> GameManager:
        """Open (create, migrate) the database at ``path`` and return a manager on it.

        ``pool_size``: PostgreSQL connections (:meth:`Store.open`; default its own).
        ``kw`` goes to the constructor (``clock``, ``rng``, ``limits``, ``lease``).
        """
        store = await (Store.open(path) if pool_size is None else Store.open(path, pool_size=pool_size))
        return cls(store, **kw)

    async def close(self) -> None:
        """Close the database."""
        await self.core.store.close()

    # ---- the shared state ---------------------------------------------------------------------
    store = _state("store", "The :class:`~bot.store.Store`.")
    clock = _state("clock", "The clock (a function returning UNIX seconds); assignable.")
    rng = _state("rng", "The random generator of random seats.")
    limits = _state("limits", "The :class:`Limits`.")
    lease = _state("lease", "Seconds a claim of this manager lasts unless renewed.")
    process_id = _state("process_id", "Who this manager's claims belong to.")
    challenges_repo = _state("challenges_repo", "The :class:`~bot.store.ChallengeRepo`.")
    games_repo = _state("games_repo", "The :class:`~bot.store.GameRepo`.")
    moves_repo = _state("moves_repo", "The :class:`~bot.store.MoveRepo`.")
    ratings_repo = _state("ratings_repo", "The :class:`~bot.store.RatingRepo`.")
    outbox_repo = _state("outbox_repo", "The :class:`~bot.store.OutboxRepo`.")
    settings_repo = _state("settings_repo", "The :class:`~bot.store.SettingsRepo`.")
    conditionals_repo = _state("conditionals_repo", "The :class:`~bot.store.ConditionalRepo`.")
    claims_repo = _state("claims_repo", "The :class:`~bot.store.ClaimRepo`.")

    # ---- settings ------------------------------------------------------------------------------
    settings = _Operation("settings", "get")
    set_notify = _Operation("settings")
    set_dm_mode = _Operation("settings")
    set_confirm = _Operation("settings")
    display_names = _Operation("settings")
    remember_name = _Operation("settings")
    remember_names = _Operation("settings")
    languages = _Operation("settings")
    set_language = _Operation("settings")
    note_locale = _Operation("settings")
    server_language = _Operation("settings")
    set_server_language = _Operation("settings")
    note_guild_locale = _Operation("settings")
    # ---- the outbox ----------------------------------------------------------------------------
    pending_dm = _Operation("outbox")
    pending_board = _Operation("outbox")
    pending_announcements = _Operation("outbox")
    renew_announcements = _Operation("outbox")
    mark_delivered = _Operation("outbox")
    recorded_messages = _Operation("outbox")
    record_failed_post = _Operation("outbox")
    # ---- ratings and profiles ------------------------------------------------------------------
    rating_changes = _Operation("ratings")
    leaderboard = _Operation("ratings")
    rank = _Operation("ratings")
    standings = _Operation("ratings")
    profile = _Operation("profiles")
    # ---- look-up -------------------------------------------------------------------------------
    get_game = _Operation("lookup")
    moves = _Operation("lookup")
    move_at = _Operation("lookup")
    replay_position = _Operation("lookup")
    positions = _Operation("lookup")
    listing = _Operation("lookup")
    active_games = _Operation("lookup")
    finished_games = _Operation("lookup")
    server_games = _Operation("lookup")
    visible_game = _Operation("lookup")
    resolve_game = _Operation("lookup")
    waiting_game = _Operation("lookup")
    game_record = _Operation("lookup")
    record_text = _Operation("lookup")
    complete_server_game = _Operation("lookup")
    complete_move = _Operation("lookup")
    complete_moves_by_game = _Operation("lookup")
    complete_game = _Operation("lookup")
    complete_reviewable_game = _Operation("lookup")
    # ---- challenges ----------------------------------------------------------------------------
    create_challenge = _Operation("challenges")
    set_challenge_message = _Operation("challenges")
    get_challenge = _Operation("challenges")
    visible_challenge = _Operation("challenges")
    challenge_and_game = _Operation("challenges")
    accept_challenge = _Operation("challenges")
    accept = _Operation("challenges")
    decline_challenge = _Operation("challenges")
    cancel_challenge = _Operation("challenges")
    expire_challenges = _Operation("challenges")
    open_challenges = _Operation("challenges")
    rematch = _Operation("challenges")
    # ---- play ----------------------------------------------------------------------------------
    set_game_thread = _Operation("play")
    play = _Operation("play")
    preview_move = _Operation("play")
    play_move = _Operation("play")
    resign = _Operation("play")
    resign_game = _Operation("play")
    abort = _Operation("play")
    abort_game = _Operation("play")
    # ---- conditional moves ---------------------------------------------------------------------
    add_conditional = _Operation("conditional")
    conditional_lines = _Operation("conditional")
    conditional_end_position = _Operation("conditional")
    clear_conditionals = _Operation("conditional")
    complete_conditional = _Operation("conditional")
    # ---- clocks and turns ----------------------------------------------------------------------
    reminder_window = staticmethod(ClocksService.reminder_window)
    sweep = _Operation("clocks")
    set_vacation = _Operation("clocks")
    vacation = _Operation("clocks")
    waiting_games = _Operation("turns")
    # ---- the computer --------------------------------------------------------------------------
    start_computer_game = _Operation("computer")
    offer_rematch = _Operation("computer")
    computer_turns = _Operation("computer")
    computer_move = _Operation("computer")
    claim_computer_work = _Operation("computer")
    renew_computer_work = _Operation("computer")
    release_computer_work = _Operation("computer")
    computer_gives_up = _Operation("computer")
    computer_records = _Operation("computer")
    review_input = _Operation("computer")
    cached_review = _Operation("computer")
    save_review = _Operation("computer")
    # ---- privacy -------------------------------------------------------------------------------
    stored_data = _Operation("privacy")
    forget_player = _Operation("privacy")
    deleted_players = _Operation("privacy")
    # ---- tournaments (issue 21) ----------------------------------------------------------------
    set_organiser_role = _Operation("tournaments")
    organiser_role = _Operation("tournaments")
    create_tournament = _Operation("tournaments")
    join_tournament = _Operation("tournaments")
    leave_tournament = _Operation("tournaments")
    enter_computer = _Operation("tournaments")
    tournaments = _Operation("tournaments")
    complete_tournament = _Operation("tournaments")
    get_tournament = _Operation("tournaments")
    tournament_info = _Operation("tournaments")
    tournament_standings = _Operation("tournaments")
    my_tournament_games = _Operation("tournaments")
    game_tournament = _Operation("tournaments")
    start_tournament = _Operation("tournaments")
    remove_entrant = _Operation("tournaments")
    cancel_tournament = _Operation("tournaments")
    withdraw = _Operation("tournaments")
    advance = _Operation("tournaments")
    pending_tournament_posts = _Operation("tournaments")
    mark_tournament_post_delivered = _Operation("tournaments")
    record_failed_tournament_post = _Operation("tournaments")
    # ---- analysis boards and notes (issue 23) ---------------------------------------------------
    analyze = _Operation("analysis")
    analysis_board = _Operation("analysis", "board")
    analysis_step = _Operation("analysis", "step")
    analysis_play = _Operation("analysis", "play")
    analysis_undo = _Operation("analysis", "undo")
    engine_input = _Operation("analysis")
    record_engine = _Operation("analysis")
    set_note = _Operation("analysis")
    note = _Operation("analysis")
    expire_boards = _Operation("analysis")
