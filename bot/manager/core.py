"""What every service of the manager shares: the store and its repositories, the clock, the
per-game locks, the position cache, and turning rows into values.

:class:`ManagerCore` holds that state (one per :class:`bot.manager.GameManager`), nothing
else. :class:`Service` is the base of each service (:mod:`.challenges`, :mod:`.play`, ...): it
holds the one shared core (read through typed properties) and the toolkit over it (rows to
values, ids checked, a game's lock); what a service needs of another it takes in its
constructor and calls through that service's public methods (:mod:`.services` builds them).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import secrets
import socket
import time
import weakref
from collections.abc import Callable, Iterable
from dataclasses import fields
from typing import TYPE_CHECKING, Any, TypeVar, cast

import engine

from ..rules import timecontrol
from ..store import (
    ChallengeRepo,
    ClaimRepo,
    ConditionalRepo,
    GameRepo,
    MoveRepo,
    OutboxRepo,
    RatingRepo,
    SchemaNotAtHead,
    SettingsRepo,
    Store,
)
from ..store.db import Row, database_name, quiet_alembic
from .errors import ClockConflict, NotFound, Refusal, StaleAction, UserError
from .values import Challenge, Game, Limits

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

__all__ = ["DAY", "DEFAULT_DAYS_PER_MOVE", "DEFAULT_LEASE", "FIRST_CHOICES", "HOUR", "ManagerCore", "Service"]

_T = TypeVar("_T", bound="DataclassInstance")  # a value built from a row

DAY = 86400.0
#: Days per move of a challenge that gives neither ``days`` nor a clock.
DEFAULT_DAYS_PER_MOVE = 3
#: Who may move first in a challenge or a game against the computer.
FIRST_CHOICES = ("challenger", "opponent", "random")
HOUR = 3600.0
# Seconds a claim lasts by default (outbox rows, the computer's work): a process that died
# holding one leaves it to another after that. ``STONECAST_LEASE`` sets it (tests: short).
DEFAULT_LEASE = 300.0
_MAX_ID = 2**63 - 1
#: The refusal of an impossible id, by what it should name (a game's names the number).
_NO_SUCH = {"challenge": Refusal.NO_SUCH_CHALLENGE, "announcement": Refusal.NO_SUCH_ANNOUNCEMENT,
            "user": Refusal.NO_SUCH_USER}


class ManagerCore:
    """The state the manager's concerns share, over one :class:`~bot.store.Store`.

    ``clock()`` returns UNIX seconds (default :func:`time.time`); ``rng`` decides random
    seats (default a fresh :class:`random.Random`); ``limits`` is a :class:`Limits`. The
    repositories are ``challenges_repo``, ``games_repo``, ``moves_repo``, ``ratings_repo``,
    ``outbox_repo``, ``settings_repo``, ``conditionals_repo`` and ``claims_repo``.
    ``lease``: seconds a claim of this manager lasts unless renewed (default
    :data:`DEFAULT_LEASE`); ValueError unless positive.

    The manager works on the head schema only: ``store`` must be at Alembic's head
    (:func:`bot.store.migrations.head_revision`, as :meth:`Store.open` leaves it), else
    :class:`~bot.store.SchemaNotAtHead` is raised. Older schemas are the store's business
    (its migrations), never the game flow's.
    """

    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], float] = time.time,
        rng: random.Random | None = None,
        limits: Limits | None = None,
        lease: float | None = None,
    ):
        self.store = store
        self.clock = clock
        self.rng = rng if rng is not None else random.Random()
        self.limits = limits if limits is not None else Limits()
        self.challenges_repo = ChallengeRepo(store)
        self.games_repo = GameRepo(store)
        self.moves_repo = MoveRepo(store)
        self.ratings_repo = RatingRepo(store)
        self.outbox_repo = OutboxRepo(store)
        self.settings_repo = SettingsRepo(store)
        self.conditionals_repo = ConditionalRepo(store)
        self.claims_repo = ClaimRepo(store)
        # Seconds a claim of this manager lasts unless renewed (outbox rows, the computer's
        # work): another process takes the work only after that (STONECAST_LEASE).
        self.lease = float(DEFAULT_LEASE if lease is None else lease)
        if not self.lease > 0:
            raise ValueError(f"a lease is a positive number of seconds, not {lease!r}")
        # the manager works on the head schema only: Store.open migrates there
        quiet_alembic()  # before Alembic's import, which logs its plugins
        from ..store.migrations import head_revision

        if store.revision != head_revision():
            raise SchemaNotAtHead(database_name(store.path), store.revision, head_revision())
        # Who claims outbox rows (Alembic revision 0002): on PostgreSQL this manager alone
        # (several processes share the database); on SQLite every manager of the file is the
        # one process the file lock allows, so a restarted bot takes over its predecessor's
        # claims at once.
        self.process_id = ("sqlite" if store.dialect == "sqlite" else
                           f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}")
        self.game_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        # game id -> (position text, Position): parsing/replaying is never needed twice.
        self.position_cache: dict[int, tuple[str, engine.Position]] = {}

class Service:
    """The base of the manager's services: typed read-only views onto one shared
    :class:`ManagerCore` ``core`` -- its store, repositories, clock (read at each call, so a
    clock replaced on the core is seen at once), ``rng``, ``limits``, ``lease``,
    ``process_id``, per-game locks and position cache -- and the toolkit every service uses
    over them (``_game``, ``_game_row``, ``_id``, ``_lock``, ...). A subclass takes the services
    it uses as further constructor parameters, typed with their classes (the graph the wiring
    test reads)."""

    def __init__(self, core: ManagerCore):
        self.core = core

    @property
    def store(self) -> Store:
        """The shared :class:`~bot.store.Store`."""
        return self.core.store

    @property
    def clock(self) -> Callable[[], float]:
        """The shared clock (a function returning UNIX seconds)."""
        return self.core.clock

    @property
    def rng(self) -> random.Random:
        """The shared random generator (random seats)."""
        return self.core.rng

    @property
    def limits(self) -> Limits:
        """The shared :class:`Limits`."""
        return self.core.limits

    @property
    def lease(self) -> float:
        """Seconds a claim of this manager lasts unless renewed."""
        return self.core.lease

    @property
    def process_id(self) -> str:
        """Who this manager's claims belong to (outbox rows, the computer's work)."""
        return self.core.process_id

    @property
    def challenges_repo(self) -> ChallengeRepo:
        """The shared :class:`~bot.store.ChallengeRepo`."""
        return self.core.challenges_repo

    @property
    def games_repo(self) -> GameRepo:
        """The shared :class:`~bot.store.GameRepo`."""
        return self.core.games_repo

    @property
    def moves_repo(self) -> MoveRepo:
        """The shared :class:`~bot.store.MoveRepo`."""
        return self.core.moves_repo

    @property
    def ratings_repo(self) -> RatingRepo:
        """The shared :class:`~bot.store.RatingRepo`."""
        return self.core.ratings_repo

    @property
    def outbox_repo(self) -> OutboxRepo:
        """The shared :class:`~bot.store.OutboxRepo`."""
        return self.core.outbox_repo

    @property
    def settings_repo(self) -> SettingsRepo:
        """The shared :class:`~bot.store.SettingsRepo`."""
        return self.core.settings_repo

    @property
    def conditionals_repo(self) -> ConditionalRepo:
        """The shared :class:`~bot.store.ConditionalRepo`."""
        return self.core.conditionals_repo

    @property
    def claims_repo(self) -> ClaimRepo:
        """The shared :class:`~bot.store.ClaimRepo`."""
        return self.core.claims_repo

    @property
    def game_locks(self) -> weakref.WeakValueDictionary[int, asyncio.Lock]:
        """The shared per-game locks (game id -> lock)."""
        return self.core.game_locks

    @property
    def position_cache(self) -> dict[int, tuple[str, engine.Position]]:
        """The shared position cache (game id -> (position text, position))."""
        return self.core.position_cache

    # ---- the toolkit --------------------------------------------------------------------------
    def _lock(self, game_id: int) -> asyncio.Lock:
        lock = self.game_locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self.game_locks[game_id] = lock
        return lock

    @staticmethod
    def _id(value: Any, what: str) -> int:
        if isinstance(value, str) and value.strip().lstrip("#").isdigit():
            value = int(value.strip().lstrip("#"))
        if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= _MAX_ID:
            shown = " ".join(str(value).split())[:32].lstrip("#")
            if what == "game":
                raise NotFound(Refusal.NO_SUCH_GAME, game_id=shown)
            raise NotFound(_NO_SUCH[what])
        return value

    @staticmethod
    def _kind(kind: Any) -> engine.GameKind:
        key = kind.strip().lower().replace(" ", "") if isinstance(kind, str) else None
        if key not in engine.GAMES:
            raise UserError(Refusal.UNKNOWN_KIND, kind=kind)
        return engine.GAMES[key]

    @staticmethod
    def _game_terms(spec: engine.GameKind, options: Any, first: Any, days_per_move: Any,
                    clock: Any) -> tuple[dict[str, Any], timecontrol.TimeControl, int]:
        """The checked terms of a new game or challenge: ``spec``'s validated ``options``,
        its clock (``clock``: a TimeControl or a text :func:`bot.rules.timecontrol.parse` reads;
        ``None``: ``days_per_move`` days a move, ``None`` for :data:`DEFAULT_DAYS_PER_MOVE`)
        and the days per move it stands for (1-14). ``first`` must be "challenger",
        "opponent" or "random". Raises :class:`UserError` saying which term is wrong, and
        :class:`ClockConflict` when both ``days_per_move`` and a ``clock`` other than that
        many days a move are given (issue 19: neither is dropped silently)."""
        if days_per_move is None and clock is None:
            days_per_move = DEFAULT_DAYS_PER_MOVE
        try:
            opts = spec.validate(options)
        except engine.OptionError as e:
            raise UserError(Refusal.BAD_OPTION, kind=spec.key, error=e) from None
        if first not in FIRST_CHOICES:
            raise UserError(Refusal.BAD_FIRST)
        if days_per_move is not None and (isinstance(days_per_move, bool) or not isinstance(
                days_per_move, int) or not 1 <= days_per_move <= 14):
            raise UserError(Refusal.BAD_DAYS_PER_MOVE)
        if clock is None:
            days = cast(int, days_per_move)  # the default when not given, checked 1-14 above
            return opts, timecontrol.TimeControl.per_move(days=days), days
        try:
            tc = clock if isinstance(clock, timecontrol.TimeControl) else timecontrol.parse(clock)
        except timecontrol.TimeControlError as e:
            raise UserError(Refusal.BAD_CLOCK, error=e) from None
        if days_per_move is not None and tc != timecontrol.TimeControl.per_move(days=days_per_move):
            raise ClockConflict(days_per_move, tc)
        return opts, tc, max(1, min(14, round(tc.initial / DAY)))

    def _position_of(self, game_id: int, text: str) -> engine.Position:
        """The position written ``text`` of game ``game_id``: from the in-memory cache when
        it holds that text, else parsed (:func:`engine.from_text`) and remembered."""
        hit = self.position_cache.get(game_id)
        if hit is not None and hit[0] == text:
            return hit[1]
        pos = engine.from_text(text)
        self._remember(game_id, pos, text)
        return pos

    def _remember(self, game_id: int, pos: engine.Position, text: str | None = None) -> None:
        if len(self.position_cache) > 4096:
            self.position_cache.clear()
        self.position_cache[game_id] = (text or pos.to_text(), pos)

    @staticmethod
    def _from_row(cls: type[_T], row: Row, **computed: Any) -> _T:
        """An instance of dataclass ``cls`` from a database row: each field takes the column
        of the same name, except those given in ``computed`` (decoded or derived values)."""
        values = {f.name: row[f.name] for f in fields(cls) if f.name not in computed}
        return cls(**values, **computed)

    def _challenge(self, row: Row) -> Challenge:
        return self._from_row(Challenge, row, options=json.loads(row["options"]), rated=bool(row["rated"]))

    def _game(self, row: Row) -> Game:
        """The :class:`Game` of a ``games`` row, its ``position`` from the cache or parsed
        (:meth:`_position_of`)."""
        return self._from_row(Game, row, options=json.loads(row["options"]),
                              players={1: row["player1_id"], 2: row["player2_id"]},
                              rated=bool(row["rated"]), thread_wanted=bool(row["thread_wanted"]),
                              position=self._position_of(row["id"], row["position_text"]))

    def _waiting(self, rows: Iterable[Row], user_id: int) -> list[Game]:
        """The games of ``rows`` where it is ``user_id``'s move, the least time left first
        (then the oldest): the deadlines of one player's games all move with their vacation,
        so the earliest deadline is the least time left."""
        mine = [g for g in map(self._game, rows) if g.to_move_user == user_id]
        return sorted(mine, key=lambda g: (g.deadline if g.deadline is not None else float("inf"), g.id))

    async def _game_row(self, game_id: int, *, for_update: bool = False) -> Row:
        """The row of game ``game_id`` (locked for the transaction with ``for_update``, see
        :meth:`GameRepo.get`); raises NotFound."""
        row = await self.games_repo.get(game_id, for_update=for_update)
        if row is None:
            raise NotFound(Refusal.NO_SUCH_GAME, game_id=game_id)
        return row

    def _check_open(self, ch: Challenge, now: float) -> None:
        if ch.status != "open":
            raise StaleAction(Refusal.CHALLENGE_CLOSED, challenge=ch)
        if now >= ch.expires_at:
            raise StaleAction(Refusal.CHALLENGE_EXPIRED, challenge=ch, lasts_hours=self.limits.challenge_ttl / 3600)
