"""Stonecast's game manager: challenges, games, moves, clocks, ratings and records.

The manager is the only writer of the database and the only caller of the engine on behalf of
players. It knows nothing of Discord: it takes plain ids (Discord snowflakes as ints) and
returns the frozen result objects below; the bot turns them into messages. Every refusal is a
:class:`UserError` whose text is a complete sentence for the player, and a refused action
changes nothing in the database.

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

import asyncio
import json
import logging
import random
import time
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path
from typing import Any

import engine

from . import ratings as elo
from . import texts
from .records import format_record
from .store import Store

__all__ = [
    "BOARD_GRACE",
    "DAY",
    "Announcement",
    "Challenge",
    "ClockEvent",
    "Game",
    "GameManager",
    "GameOver",
    "InvalidMove",
    "LimitReached",
    "Limits",
    "MoveRecord",
    "MoveResult",
    "NotAllowed",
    "NotFound",
    "NotYourTurn",
    "Profile",
    "RatingRow",
    "Record",
    "StaleAction",
    "UserError",
    "UserSettings",
    "game_over_error",
]

log = logging.getLogger(__name__)

DAY = 86400.0
HOUR = 3600.0
# Seconds a queued board ('move' announcement) waits before the delivery loop may post it: the
# /move (or Accept) handler that made it normally posts it within that time and marks it delivered.
BOARD_GRACE = 60.0
FIRST_CHOICES = ("challenger", "opponent", "random")
_MAX_ID = 2**63 - 1


# ---- errors ------------------------------------------------------------------------------
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


class StaleAction(UserError):
    """The challenge or game is no longer in the state the action needs (answered, expired,
    changed meanwhile)."""


def _sentence(text: str) -> str:
    text = " ".join(str(text).split())
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


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


# ---- results -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Limits:
    """Limits that stop abuse (issue 4) and the correspondence allowances (issue 5).

    * ``open_challenges`` -- open challenges one user may have sent at once.
    * ``active_games`` -- games in progress one user may have at once.
    * ``challenge_ttl`` -- seconds until an unanswered challenge expires (24 hours).
    * ``vacation_days`` -- vacation days per calendar year (UTC).
    * ``max_move_length`` -- longest move text accepted, in characters.
    """

    open_challenges: int = 5
    active_games: int = 20
    challenge_ttl: float = 24 * 3600.0
    vacation_days: float = 14.0
    max_move_length: int = 64


@dataclass(frozen=True)
class Challenge:
    """A challenge as stored. ``opponent_id`` is ``None`` for an open challenge; ``first`` is
    ``"challenger"``, ``"opponent"`` or ``"random"``; ``status`` is ``"open"``,
    ``"accepted"``, ``"declined"``, ``"cancelled"`` or ``"expired"``; ``game_id`` is set once
    accepted; ``rematch_of`` names the game this challenge is a rematch of."""

    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    challenger_id: int
    opponent_id: int | None
    kind: str
    options: dict
    first: str
    rated: bool
    days_per_move: int
    status: str
    created_at: float
    expires_at: float
    game_id: int | None
    rematch_of: int | None = None

    @property
    def title(self) -> str:
        """The game's title, e.g. ``"Brain Coral"``."""
        return engine.GAMES[self.kind].title if self.kind in engine.GAMES else self.kind

    @property
    def label(self) -> str:
        """How messages name the challenge, as its players see it (never by its id):
        ``"<@1001>'s Io challenge"``."""
        return f"<@{self.challenger_id}>'s {self.title} challenge"


@dataclass(frozen=True)
class Game:
    """A game as stored.

    ``players`` maps seat (1 moves first) -> user id. ``status`` is ``"active"``,
    ``"finished"`` or ``"aborted"``. ``ply`` counts the moves played (and versions the row).
    ``winner`` is the winning seat, ``None`` for a draw (or no result); ``reason`` as in
    RULES.md "Every game" (``"aborted"`` for an aborted game). ``deadline`` is when the player
    to move loses on time (``None`` once over). ``thread_wanted``: the game was accepted but
    where its boards go (its thread, or the channel) is not recorded yet -- the delivery pass
    makes or finds the thread before posting (schema version 6).
    """

    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    kind: str
    options: dict
    players: dict[int, int]
    status: str
    ply: int
    position_text: str
    winner: int | None
    reason: str | None
    rated: bool
    days_per_move: int
    created_at: float
    updated_at: float
    deadline: float | None
    challenge_id: int | None
    finished_at: float | None = None
    thread_wanted: bool = False

    @cached_property
    def position(self) -> engine.Position:
        """The current position (``engine.from_text(position_text)``, computed once)."""
        return engine.from_text(self.position_text)

    @property
    def title(self) -> str:
        """The game's title, e.g. ``"Io"``."""
        return engine.GAMES[self.kind].title if self.kind in engine.GAMES else self.kind

    @property
    def label(self) -> str:
        """How every message names the game: ``"Io #12"`` (:func:`bot.texts.game_label`)."""
        return texts.game_label(self.kind, self.id)

    def seat_of(self, user_id: int) -> int | None:
        """Seat (1 or 2) of ``user_id`` in this game, ``None`` for someone else."""
        for seat, uid in self.players.items():
            if uid == user_id:
                return seat
        return None

    def opponent_of(self, user_id: int) -> int | None:
        """The other player's user id, ``None`` when ``user_id`` does not play here."""
        seat = self.seat_of(user_id)
        return None if seat is None else self.players[3 - seat]

    @property
    def to_move_seat(self) -> int | None:
        """Seat to move, ``None`` once the game is over or aborted."""
        return self.position.to_move if self.status == "active" else None

    @property
    def to_move_user(self) -> int | None:
        """User id whose turn it is, ``None`` once the game is over or aborted."""
        seat = self.to_move_seat
        return None if seat is None else self.players[seat]

    @property
    def winner_id(self) -> int | None:
        """User id of the winner, ``None`` for a draw, an aborted or a running game."""
        return None if self.winner is None or self.status != "finished" else self.players[self.winner]

    @property
    def channel_for_posts(self) -> int:
        """Where the game's boards go: its thread, else the channel it started in."""
        return self.thread_id if self.thread_id is not None else self.channel_id


@dataclass(frozen=True)
class MoveRecord:
    """One row of the move list: ``ply`` (1 = first move), ``seat``, canonical ``move`` text,
    ``played_at`` (UNIX seconds)."""

    ply: int
    seat: int
    move: str
    played_at: float


@dataclass(frozen=True)
class MoveResult:
    """What :meth:`GameManager.play_move` committed: the game row after the move, its
    ``position``, the canonical ``move`` text, the ``seat`` that moved, whether the move
    ``finished`` the game and ``announcement_id``, the outbox row of its board (kind
    ``"move"``) to pass to :meth:`GameManager.mark_delivered` once the board is posted;
    ``dm_id``, the outbox row of the your-turn DM to the next player (kind ``"dm"``), or
    ``None`` when they did not ask for DMs or the game is over."""

    game: Game
    position: engine.Position
    move: str
    seat: int
    finished: bool
    announcement_id: int | None = None
    dm_id: int | None = None


@dataclass(frozen=True)
class ClockEvent:
    """Something :meth:`GameManager.sweep` did: ``kind`` ``"reminder"`` (``user_id`` is the
    player to move, to be mentioned) or ``"timeout"`` (``user_id`` lost on time; ``game`` is
    the finished game). Each event is also queued as an :class:`Announcement`."""

    kind: str
    game: Game
    user_id: int


@dataclass(frozen=True)
class Announcement:
    """A post waiting in the outbox (table ``announcements``): a clock event or a board.

    ``id`` is what :meth:`GameManager.mark_delivered` takes; ``kind`` is ``"reminder"`` or
    ``"timeout"`` (``user_id`` as in :class:`ClockEvent`) or ``"move"``: the board after the
    move that made the game's ply ``ply`` (ply 0: the first board of a new game), ``user_id``
    the player it pings (the player to move; at the end, the one who did not make the last
    move); or ``"dm"``: the your-turn direct message to ``user_id``, the player to move at ply
    ``ply`` who turned DMs on (``/notify``). ``ply`` is the game's ply when the row was written; ``created_at`` is UNIX seconds;
    ``attempts`` counts failed posts so far; ``game`` is the game row as it is now (for a
    timeout: the finished game).
    """

    id: int
    kind: str
    game: Game
    user_id: int
    ply: int
    created_at: float
    attempts: int

    @property
    def stale(self) -> bool:
        """Nothing is left to post. A reminder whose turn is over (the player moved, or the
        game ended or was aborted) while it waited. A board superseded by a later one: a move
        was played since (the ply moved on), or the game was then resigned, lost on time or
        aborted (those post their own final word). A DM whose turn is over, like a reminder.
        Timeouts never are."""
        if self.kind == "reminder":
            return self.game.status != "active" or self.game.ply != self.ply
        if self.kind == "dm":
            return self.game.status != "active" or self.game.ply != self.ply
        if self.kind == "move":
            return (self.game.ply != self.ply or self.game.status == "aborted"
                    or (self.game.status == "finished" and self.game.reason in ("resignation", "timeout")))
        return False


@dataclass(frozen=True)
class UserSettings:
    """A user's settings: ``dm`` (a DM when it becomes their turn; off by default),
    ``vacation_until`` (UNIX seconds, ``None`` when not on vacation), ``vacation_left_days``
    (allowance left this calendar year, in days)."""

    dm: bool
    vacation_until: float | None
    vacation_left_days: float


@dataclass(frozen=True)
class RatingRow:
    """One rating: ``user_id``, Elo ``rating``, rated ``games`` finished."""

    user_id: int
    rating: float
    games: int


@dataclass(frozen=True)
class Record:
    """Finished games of one kind from one player's side: wins, losses, draws."""

    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def games(self) -> int:
        """Total finished games."""
        return self.wins + self.losses + self.draws


@dataclass(frozen=True)
class Profile:
    """A player in one server: ``ratings`` per game kind (only kinds with rated games),
    ``records`` per kind (every finished game, rated or not) and ``active_games``."""

    guild_id: int
    user_id: int
    ratings: dict[str, RatingRow] = field(default_factory=dict)
    records: dict[str, Record] = field(default_factory=dict)
    active_games: list[Game] = field(default_factory=list)


# ---- the manager -------------------------------------------------------------------------
class GameManager:
    """Challenges, games, moves, clocks, ratings and records over one :class:`Store`.

    ``clock()`` returns UNIX seconds (default :func:`time.time`); ``rng`` decides random
    seats (default a fresh :class:`random.Random`); ``limits`` is a :class:`Limits`.
    """

    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], float] = time.time,
        rng: random.Random | None = None,
        limits: Limits | None = None,
    ):
        self.store = store
        self.clock = clock
        self.rng = rng if rng is not None else random.Random()
        self.limits = limits if limits is not None else Limits()
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        # game id -> (position text, Position): parsing/replaying is never needed twice.
        self._positions: dict[int, tuple[str, engine.Position]] = {}

    @classmethod
    async def open(cls, path: str | Path, **kw: Any) -> GameManager:
        """Open (create, migrate) the database at ``path`` and return a manager on it.

        ``kw`` goes to the constructor (``clock``, ``rng``, ``limits``).
        """
        return cls(await Store.open(path), **kw)

    async def close(self) -> None:
        """Close the database."""
        await self.store.close()

    # ---- helpers --------------------------------------------------------------------------
    def _lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[game_id] = lock
        return lock

    @staticmethod
    def _id(value: Any, what: str) -> int:
        if isinstance(value, str) and value.strip().lstrip("#").isdigit():
            value = int(value.strip().lstrip("#"))
        if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= _MAX_ID:
            shown = " ".join(str(value).split())[:32].lstrip("#")
            if what == "game":
                raise NotFound(f"No game is numbered {shown}: use /games to see yours.")
            raise NotFound(f"That {what} does not exist.")
        return value

    @staticmethod
    def _kind(kind: Any) -> engine.GameKind:
        key = kind.strip().lower().replace(" ", "") if isinstance(kind, str) else None
        if key not in engine.GAMES:
            names = ", ".join(engine.GAMES) or "none yet"
            raise UserError(f"There is no game called {kind!r}. The games are: {names}.")
        return engine.GAMES[key]

    def _position(self, game: Game) -> engine.Position:
        """The position of ``game`` from the in-memory cache, parsing its text on a miss."""
        hit = self._positions.get(game.id)
        if hit is not None and hit[0] == game.position_text:
            pos = hit[1]
        else:
            pos = engine.from_text(game.position_text)
            self._remember(game.id, pos, game.position_text)
        game.__dict__.setdefault("position", pos)
        return pos

    def _remember(self, game_id: int, pos: engine.Position, text: str | None = None) -> None:
        if len(self._positions) > 4096:
            self._positions.clear()
        self._positions[game_id] = (text or pos.to_text(), pos)

    @staticmethod
    def _from_row(cls: type, row, **computed: Any):
        """An instance of dataclass ``cls`` from a database row: each field takes the column
        of the same name, except those given in ``computed`` (decoded or derived values)."""
        values = {f.name: row[f.name] for f in fields(cls) if f.name not in computed}
        return cls(**values, **computed)

    def _challenge(self, row) -> Challenge:
        return self._from_row(Challenge, row, options=json.loads(row["options"]),
                              rated=bool(row["rated"]))

    def _game(self, row) -> Game:
        game = self._from_row(Game, row, options=json.loads(row["options"]),
                              players={1: row["player1_id"], 2: row["player2_id"]},
                              rated=bool(row["rated"]),
                              thread_wanted="thread_wanted" in row.keys() and bool(row["thread_wanted"]))
        hit = self._positions.get(game.id)
        if hit is not None and hit[0] == game.position_text:
            game.__dict__["position"] = hit[1]
        return game

    async def _game_row(self, game_id: int):
        row = await self.store.fetchone("SELECT * FROM games WHERE id = ?", (game_id,))
        if row is None:
            raise NotFound(f"No game is numbered {game_id}: use /games to see yours.")
        return row

    async def _count_open_challenges(self, user_id: int, now: float) -> int:
        row = await self.store.fetchone(
            "SELECT COUNT(*) FROM challenges WHERE challenger_id = ? AND status = 'open'"
            " AND expires_at > ?",
            (user_id, now),
        )
        return int(row[0])

    async def _count_active_games(self, user_id: int) -> int:
        row = await self.store.fetchone(
            "SELECT COUNT(*) FROM games WHERE status = 'active'"
            " AND (player1_id = ? OR player2_id = ?)",
            (user_id, user_id),
        )
        return int(row[0])

    async def _vacation_left(self, user_id: int, now: float) -> float:
        """Seconds of vacation ``user_id`` still has running at ``now`` (0 when none)."""
        row = await self.store.fetchone(
            "SELECT vacation_until FROM user_settings WHERE user_id = ?", (user_id,)
        )
        until = row["vacation_until"] if row is not None else None
        return max(0.0, until - now) if until is not None else 0.0

    async def _deadline(self, user_id: int, days: int, now: float) -> float:
        """Deadline of a turn of ``user_id`` starting at ``now``: ``days`` per move, their
        running vacation added (it pauses their clock)."""
        return now + days * DAY + await self._vacation_left(user_id, now)

    def _check_open(self, ch: Challenge, now: float) -> None:
        if ch.status != "open":
            raise StaleAction(f"{ch.label} is no longer open: it was {ch.status}.")
        if now >= ch.expires_at:
            raise StaleAction(
                f"{ch.label} has expired (a challenge lasts "
                f"{self.limits.challenge_ttl / 3600:g} hours): send a new one with /challenge."
            )

    # ---- challenges (issue 4) -----------------------------------------------------------
    async def create_challenge(
        self,
        *,
        guild_id: int,
        channel_id: int,
        challenger_id: int,
        opponent_id: int | None,
        kind: str,
        options: dict | None = None,
        first: str = "random",
        rated: bool = True,
        days_per_move: int = 3,
        opponent_is_bot: bool = False,
        rematch_of: int | None = None,
    ) -> Challenge:
        """Record a challenge from ``challenger_id`` to ``opponent_id`` (``None``: an open
        challenge anyone else may accept) to play ``kind`` with ``options``.

        ``first`` says who takes seat 1 (moves first): ``"challenger"``, ``"opponent"`` (the
        one who accepts) or ``"random"`` (decided on acceptance). ``days_per_move`` is 1..14.
        The challenge expires after ``limits.challenge_ttl`` seconds.

        Raises :class:`NotAllowed` (challenging yourself or a bot), :class:`UserError`
        (unknown game, bad options with the engine's message, bad ``first`` or days),
        :class:`DuplicateChallenge` (the challenger has an open challenge to the same
        opponent -- or an open offer to anyone -- for the same game in this server, whatever
        its options) and :class:`LimitReached` (too many open challenges or active games).
        """
        spec = self._kind(kind)
        if opponent_id is not None:
            if opponent_id == challenger_id:
                raise NotAllowed(
                    "You cannot challenge yourself: pick another member, or leave the opponent "
                    "out for an open challenge."
                )
            if opponent_is_bot:
                raise NotAllowed("Bots cannot play: challenge a member instead.")
        try:
            opts = spec.validate(options)
        except engine.OptionError as e:
            raise UserError(_sentence(f"Bad option for {spec.title}: {e}")) from None
        if first not in FIRST_CHOICES:
            raise UserError("Choose who moves first: challenger, opponent or random.")
        if isinstance(days_per_move, bool) or not isinstance(days_per_move, int) or not (
            1 <= days_per_move <= 14
        ):
            raise UserError("Days per move must be a whole number from 1 to 14.")
        now = self.clock()
        async with self.store.transaction():
            await self._refuse_duplicate(guild_id, challenger_id, opponent_id, spec, now)
            n = await self._count_open_challenges(challenger_id, now)
            if n >= self.limits.open_challenges:
                raise LimitReached(
                    f"You already have {n} open challenges (the most is "
                    f"{self.limits.open_challenges}): cancel one or wait for an answer."
                )
            n = await self._count_active_games(challenger_id)
            if n >= self.limits.active_games:
                raise LimitReached(
                    f"You are already playing {n} games (the most is "
                    f"{self.limits.active_games}): finish some before starting another."
                )
            cid = await self.store.insert(
                "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, kind,"
                " options, first, rated, status, created_at, expires_at, days_per_move,"
                " rematch_of) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'open', ?, ?, ?, ?)",
                (guild_id, channel_id, challenger_id, opponent_id, spec.key, json.dumps(opts),
                 first, int(bool(rated)), now, now + self.limits.challenge_ttl, days_per_move,
                 rematch_of),
            )
            row = await self.store.fetchone("SELECT * FROM challenges WHERE id = ?", (cid,))
        return self._challenge(row)

    async def _refuse_duplicate(self, guild_id: int, challenger_id: int, opponent_id: int | None,
                                spec: engine.GameKind, now: float) -> None:
        """Raise :class:`DuplicateChallenge` when ``challenger_id`` already has an open
        challenge to ``opponent_id`` (``None``: an open offer to anyone) for game ``spec`` in
        ``guild_id``. Options, days and rating do not matter: a second one would only ping the
        same person again; to change the terms, cancel the open one first (issue 9)."""
        row = await self.store.fetchone(
            "SELECT * FROM challenges WHERE guild_id = ? AND challenger_id = ? AND opponent_id IS ?"
            " AND kind = ? AND status = 'open' AND expires_at > ? ORDER BY id LIMIT 1",
            (guild_id, challenger_id, opponent_id, spec.key, now),
        )
        if row is None:
            return
        ch = self._challenge(row)
        what = (f"You already challenged <@{opponent_id}> to {spec.title}" if opponent_id is not None
                else f"You already offered a game of {spec.title} to anyone here")
        where = (f"https://discord.com/channels/{ch.guild_id}/{ch.channel_id}/{ch.message_id}"
                 if ch.message_id is not None else f"<#{ch.channel_id}>")
        raise DuplicateChallenge(
            f"{what}, and that challenge is still open: "
            f"{where} (it lapses <t:{int(ch.expires_at)}:R>). Wait for an answer, or press its "
            f"Cancel button first if you want to send one with other settings.",
            ch,
        )

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        """Remember the Discord message that shows the challenge. Raises NotFound."""
        cid = self._id(challenge_id, "challenge")
        n = await self.store.execute(
            "UPDATE challenges SET message_id = ? WHERE id = ?", (message_id, cid)
        )
        if n != 1:
            raise NotFound("That challenge does not exist.")

    async def get_challenge(self, challenge_id: int) -> Challenge:
        """The challenge ``challenge_id``. Raises NotFound."""
        cid = self._id(challenge_id, "challenge")
        row = await self.store.fetchone("SELECT * FROM challenges WHERE id = ?", (cid,))
        if row is None:
            raise NotFound("That challenge does not exist.")
        return self._challenge(row)

    async def accept_challenge(self, challenge_id: int, user_id: int) -> Game:
        """``user_id`` accepts: the game is created and the challenge marked accepted in one
        transaction. Seats follow the challenge's ``first`` (random: the injected ``rng``).

        Only the challenged player may accept (anyone but the challenger for an open
        challenge). Raises NotFound, :class:`NotAllowed` (the challenger or a stranger),
        :class:`StaleAction` (no longer open, expired -- even before the sweep ran -- or
        accepted by someone else a moment ago) and :class:`LimitReached` (either player has
        too many active games).

        The game's first board (ply 0, pinging the player to move) is queued in the outbox in
        the same transaction (an announcement of kind ``"move"``; its id from
        :meth:`pending_board`), so a crash between accepting and posting it loses nothing:
        the Accept handler posts it and marks it delivered, else the bot's delivery pass does.
        So is the your-turn DM to the player to move when they asked for DMs (kind ``"dm"``,
        id from :meth:`pending_dm`). The new game has ``thread_wanted`` set until
        :meth:`set_game_thread` records where its boards go.
        """
        ch = await self.get_challenge(challenge_id)
        if user_id == ch.challenger_id:
            raise NotAllowed(
                "This is your own challenge: wait for an answer, or press Cancel to withdraw it."
            )
        now = self.clock()
        self._check_open(ch, now)
        if ch.opponent_id is not None and user_id != ch.opponent_id:
            raise NotAllowed("This challenge is addressed to someone else: only they can accept it.")
        if ch.first == "challenger":
            seat1, seat2 = ch.challenger_id, user_id
        elif ch.first == "opponent":
            seat1, seat2 = user_id, ch.challenger_id
        else:
            seat1, seat2 = (
                (ch.challenger_id, user_id) if self.rng.random() < 0.5 else (user_id, ch.challenger_id)
            )
        pos = engine.new_game(ch.kind, **ch.options)
        text = pos.to_text()
        async with self.store.transaction():
            for uid, who in ((user_id, "You are"), (ch.challenger_id, "The challenger is")):
                n = await self._count_active_games(uid)
                if n >= self.limits.active_games:
                    raise LimitReached(
                        f"{who} already playing {n} games (the most is "
                        f"{self.limits.active_games}): finish some first."
                    )
            deadline = await self._deadline(seat1, ch.days_per_move, now)
            gid = await self.store.insert(
                "INSERT INTO games (guild_id, channel_id, kind, options, player1_id, player2_id,"
                " status, ply, position_text, rated, created_at, updated_at, challenge_id,"
                " days_per_move, deadline) VALUES (?, ?, ?, ?, ?, ?, 'active', 0, ?, ?, ?, ?, ?,"
                " ?, ?)",
                (ch.guild_id, ch.channel_id, ch.kind, json.dumps(ch.options), seat1, seat2, text,
                 int(ch.rated), now, now, ch.id, ch.days_per_move, deadline),
            )
            n = await self.store.execute(
                "UPDATE challenges SET status = 'accepted', game_id = ?, opponent_id = ?"
                " WHERE id = ? AND status = 'open' AND expires_at > ?",
                (gid, user_id, ch.id, now),
            )
            if n != 1:
                raise StaleAction(f"{ch.label} was answered a moment ago: it is no longer open.")
            row = await self._game_row(gid)
            game = self._game(row)
            await self._announce(game, "move", game.players[pos.to_move], now)
            await self._announce_turn_dm(game, now)
        self._remember(gid, pos, text)
        return game

    async def _answer(self, ch: Challenge, status: str) -> Challenge:
        n = await self.store.execute(
            "UPDATE challenges SET status = ? WHERE id = ? AND status = 'open' AND expires_at > ?",
            (status, ch.id, self.clock()),
        )
        if n != 1:
            raise StaleAction(f"{ch.label} was answered a moment ago: it is no longer open.")
        return await self.get_challenge(ch.id)

    async def decline_challenge(self, challenge_id: int, user_id: int) -> Challenge:
        """The challenged player declines. Raises NotFound, :class:`NotAllowed` (anyone else;
        an open challenge cannot be declined) and :class:`StaleAction` (no longer open or
        expired)."""
        ch = await self.get_challenge(challenge_id)
        if user_id == ch.challenger_id:
            raise NotAllowed("This is your own challenge: press Cancel to withdraw it.")
        if ch.opponent_id is None:
            raise NotAllowed(
                "An open challenge cannot be declined: leave it and it expires by itself."
            )
        if user_id != ch.opponent_id:
            raise NotAllowed("This challenge is addressed to someone else: only they can decline it.")
        self._check_open(ch, self.clock())
        return await self._answer(ch, "declined")

    async def cancel_challenge(self, challenge_id: int, user_id: int) -> Challenge:
        """The challenger withdraws the challenge. Raises NotFound, :class:`NotAllowed`
        (anyone else) and :class:`StaleAction` (no longer open or expired)."""
        ch = await self.get_challenge(challenge_id)
        if user_id != ch.challenger_id:
            raise NotAllowed("Only the player who sent this challenge can cancel it.")
        self._check_open(ch, self.clock())
        return await self._answer(ch, "cancelled")

    async def expire_challenges(self) -> list[Challenge]:
        """Mark every open challenge past its expiry time ``"expired"``; returns those
        challenges (so their messages can be updated)."""
        now = self.clock()
        async with self.store.transaction():
            rows = await self.store.fetchall(
                "SELECT id FROM challenges WHERE status = 'open' AND expires_at <= ?", (now,)
            )
            ids = [r["id"] for r in rows]
            await self.store.executemany(
                "UPDATE challenges SET status = 'expired' WHERE id = ? AND status = 'open'",
                [(i,) for i in ids],
            )
        return [await self.get_challenge(i) for i in ids]

    async def open_challenges(self, user_id: int) -> list[Challenge]:
        """Open, unexpired challenges sent by or to ``user_id`` (oldest first)."""
        rows = await self.store.fetchall(
            "SELECT * FROM challenges WHERE status = 'open' AND expires_at > ?"
            " AND (challenger_id = ? OR opponent_id = ?) ORDER BY id",
            (self.clock(), user_id, user_id),
        )
        return [self._challenge(r) for r in rows]

    # ---- games (issue 4) -------------------------------------------------------------
    async def get_game(self, game_id: int) -> Game:
        """The game ``game_id``. Raises NotFound."""
        gid = self._id(game_id, "game")
        return self._game(await self._game_row(gid))

    async def set_game_thread(self, game_id: int, thread_id: int | None) -> None:
        """Remember the thread where the game's boards are posted (``None``: none, they go to
        the channel), which settles ``thread_wanted``. Raises NotFound."""
        gid = self._id(game_id, "game")
        n = await self.store.execute("UPDATE games SET thread_id = ?, thread_wanted = 0 WHERE id = ?",
                                     (thread_id, gid))
        if n != 1:
            raise NotFound(f"No game is numbered {gid}.")

    async def play_move(self, game_id: int, user_id: int, move_text: str) -> MoveResult:
        """Play ``move_text`` for ``user_id`` in game ``game_id``; committed before returning.

        The engine validates the move; the canonical text (``position.last_move``) is stored.
        The move row, the game row (position cache, ply, deadline of the next player, result)
        and, when the move ends a rated game, the ratings are one transaction.

        Raises NotFound, :class:`NotAllowed` (not a player here), :class:`GameOver`,
        :class:`NotYourTurn` (including when another move got in first) and
        :class:`InvalidMove` (the engine's message: unreadable or illegal move).
        """
        gid = self._id(game_id, "game")
        async with self._lock(gid):
            game = self._game(await self._game_row(gid))
            seat = game.seat_of(user_id)
            if seat is None:
                raise NotAllowed(f"You are not playing in {game.label}.")
            if game.status != "active":
                raise game_over_error(game)
            pos = self._position(game)
            if pos.to_move != seat:
                raise NotYourTurn(f"It is not your turn in {game.label}: your opponent is to move.")
            if not isinstance(move_text, str) or len(move_text) > self.limits.max_move_length:
                raise InvalidMove("Type a move such as e5 (cells separated by spaces, or pass).")
            try:
                new = pos.play(move_text)
            except engine.MoveError as e:
                raise InvalidMove(_sentence(f"Cannot read that move: {e}")) from None
            except engine.IllegalMove as e:
                raise InvalidMove(_sentence(f"Illegal move: {e}")) from None
            move = new.last_move
            text = new.to_text()
            outcome = new.outcome
            now = self.clock()
            async with self.store.transaction():
                if outcome is None:
                    deadline = await self._deadline(game.players[new.to_move], game.days_per_move, now)
                    n = await self.store.execute(
                        "UPDATE games SET ply = ?, position_text = ?, updated_at = ?, deadline = ?"
                        " WHERE id = ? AND ply = ? AND status = 'active'",
                        (new.ply, text, now, deadline, gid, game.ply),
                    )
                else:
                    n = await self.store.execute(
                        "UPDATE games SET ply = ?, position_text = ?, updated_at = ?,"
                        " deadline = NULL, status = 'finished', winner = ?, reason = ?,"
                        " finished_at = ? WHERE id = ? AND ply = ? AND status = 'active'",
                        (new.ply, text, now, outcome.winner, outcome.reason, now, gid, game.ply),
                    )
                if n != 1:
                    raise NotYourTurn(
                        f"{game.label} moved on while you were moving: it is not your turn any more."
                    )
                await self.store.execute(
                    "INSERT INTO moves (game_id, ply, seat, move, played_at) VALUES (?, ?, ?, ?, ?)",
                    (gid, new.ply, seat, move, now),
                )
                if outcome is not None and game.rated:
                    await self._rate(game, outcome.winner)
                row = await self._game_row(gid)
                # the board is queued with the move: a crash before its post loses nothing
                ping = game.players[new.to_move] if outcome is None else game.players[3 - seat]
                announcement_id = await self._announce(self._game(row), "move", ping, now)
                # ... and so is the DM telling the next player it is their turn
                dm_id = await self._announce_turn_dm(self._game(row), now) if outcome is None else None
            self._remember(gid, new, text)
            result = self._game(row)
        return MoveResult(result, new, move, seat, outcome is not None, announcement_id, dm_id)

    async def _finish(self, game: Game, new: engine.Position, now: float, *, by: str,
                      announce: tuple[str, int] | None = None) -> Game | None:
        """End ``game`` with the forced outcome of ``new`` (resignation / timeout) in one
        transaction with the ratings and, when ``announce`` is ``(kind, user id)``, the
        outbox row that announces it. ``None`` when the game row changed meanwhile."""
        outcome = new.outcome
        text = new.to_text()
        async with self.store.transaction():
            n = await self.store.execute(
                "UPDATE games SET status = 'finished', position_text = ?, winner = ?, reason = ?,"
                " finished_at = ?, updated_at = ?, deadline = NULL"
                " WHERE id = ? AND ply = ? AND status = 'active'",
                (text, outcome.winner, outcome.reason, now, now, game.id, game.ply),
            )
            if n != 1:
                return None
            if game.rated:
                await self._rate(game, outcome.winner)
            if announce is not None:
                await self._announce(game, *announce, now)
            row = await self._game_row(game.id)
        self._remember(game.id, new, text)
        log.info("game %s ended by %s", game.id, by)
        return self._game(row)

    async def resign(self, game_id: int, user_id: int) -> Game:
        """``user_id`` resigns game ``game_id`` (on either player's turn; RULES.md "Every
        game"): the other player wins by resignation. Returns the finished game.

        Raises NotFound, :class:`NotAllowed` (not a player) and :class:`GameOver`.
        """
        gid = self._id(game_id, "game")
        async with self._lock(gid):
            for _ in range(5):
                game = self._game(await self._game_row(gid))
                seat = game.seat_of(user_id)
                if seat is None:
                    raise NotAllowed(f"You are not playing in {game.label}, so you cannot resign it.")
                if game.status != "active":
                    raise game_over_error(game)
                done = await self._finish(game, self._position(game).resign(seat), self.clock(),
                                          by="resignation")
                if done is not None:
                    return done
        raise StaleAction("The game kept changing while you resigned: please try again.")

    async def moves(self, game_id: int) -> list[MoveRecord]:
        """The move list of game ``game_id`` in order. Raises NotFound."""
        gid = self._id(game_id, "game")
        await self._game_row(gid)
        rows = await self.store.fetchall(
            "SELECT ply, seat, move, played_at FROM moves WHERE game_id = ? ORDER BY ply", (gid,)
        )
        return [MoveRecord(r["ply"], r["seat"], r["move"], r["played_at"]) for r in rows]

    async def move_at(self, game_id: int, ply: int) -> MoveRecord | None:
        """The move that made ply ``ply`` of game ``game_id`` (1 = the first move), ``None``
        when there is none (ply 0, or not played yet). Raises NotFound for an unknown game."""
        gid = self._id(game_id, "game")
        await self._game_row(gid)
        row = await self.store.fetchone(
            "SELECT ply, seat, move, played_at FROM moves WHERE game_id = ? AND ply = ?", (gid, ply)
        )
        return None if row is None else MoveRecord(row["ply"], row["seat"], row["move"], row["played_at"])

    async def replay_position(self, game_id: int) -> engine.Position:
        """The position rebuilt from the record of truth: the move list replayed by the
        engine, then the resignation or timeout that ended the game, if any. Raises NotFound."""
        return (await self.positions(game_id))[-1]

    async def positions(self, game_id: int) -> list[engine.Position]:
        """Every position of the game in order, for a replay (GIF): the start, one after each
        move and, for a game ended by resignation or timeout, that final position too.
        Raises NotFound."""
        game = await self.get_game(game_id)
        pos = engine.new_game(game.kind, **game.options)
        out = [pos]
        for m in await self.moves(game.id):
            pos = pos.play(m.move)
            out.append(pos)
        if game.status == "finished" and game.reason in ("resignation", "timeout") and pos.outcome is None:
            loser = 3 - game.winner
            out.append(pos.resign(loser) if game.reason == "resignation" else pos.time_out(loser))
        return out

    async def active_games(self, user_id: int, guild_id: int | None = None) -> list[Game]:
        """Games in progress that ``user_id`` plays (in ``guild_id`` if given), oldest first."""
        sql = "SELECT * FROM games WHERE status = 'active' AND (player1_id = ? OR player2_id = ?)"
        params: list[Any] = [user_id, user_id]
        if guild_id is not None:
            sql += " AND guild_id = ?"
            params.append(guild_id)
        rows = await self.store.fetchall(sql + " ORDER BY id", params)
        games = [self._game(r) for r in rows]
        for g in games:
            self._position(g)
        return games

    async def complete_server_game(self, guild_id: int, prefix: str, limit: int = 25,
                                   *, name_of: Callable[[int], str | None] | None = None,
                                   ) -> list[tuple[int, str]]:
        """Games in progress in server ``guild_id`` matching ``prefix`` (an id or part of the
        label) as ``(game id, label)``, e.g. ``"Io #12 · Ann vs Bob · move 14"``, newest first
        -- for a moderator's /abort. At most ``limit`` (and 25). Never raises."""
        try:
            rows = await self.store.fetchall(
                "SELECT * FROM games WHERE status = 'active' AND guild_id = ? ORDER BY id DESC",
                (guild_id,),
            )
            p = (prefix or "").strip().lower().lstrip("#")
            out: list[tuple[int, str]] = []
            for g in map(self._game, rows):
                names = [name_of(g.players[s]) if name_of is not None else None for s in (1, 2)]
                players = f" · {names[0]} vs {names[1]}" if all(names) else ""
                label = f"{g.label}{players} · {texts.moves_played(g.ply)}"
                if not p or str(g.id).startswith(p) or p in label.lower():
                    out.append((g.id, label))
                    if len(out) >= max(0, min(limit, 25)):
                        break
            return out
        except Exception:  # noqa: BLE001 - autocomplete must never fail
            log.debug("complete_server_game failed", exc_info=True)
            return []

    async def finished_games(self, user_id: int, guild_id: int | None = None, limit: int = 25) -> list[Game]:
        """The most recent finished or aborted games of ``user_id``, newest first."""
        sql = ("SELECT * FROM games WHERE status <> 'active' AND (player1_id = ? OR player2_id = ?)")
        params: list[Any] = [user_id, user_id]
        if guild_id is not None:
            sql += " AND guild_id = ?"
            params.append(guild_id)
        rows = await self.store.fetchall(sql + " ORDER BY id DESC LIMIT ?", [*params, limit])
        return [self._game(r) for r in rows]

    async def resolve_game(
        self,
        user_id: int,
        *,
        game_id: int | None = None,
        channel_id: int | None = None,
        guild_id: int | None = None,
    ) -> Game:
        """The game a command means when ``game:`` may be omitted.

        ``game_id`` given: that game (NotFound if unknown, or not in ``guild_id`` when
        given). Else, in ``channel_id``, the user's one running game posted there (waiting for
        them first) -- its thread's game, one challenged from inside that thread, or one that
        fell back to a channel without threads -- or, when they play none there, the
        thread's own game. Else the user's only game where it is their turn, or their only
        active game. Otherwise raises :class:`NotFound` (no
        games) or :class:`UserError` naming the ids to choose from.
        """
        if game_id is not None:
            game = await self.get_game(game_id)
            if guild_id is not None and game.guild_id != guild_id:
                raise NotFound(f"No game is numbered {game.id} in this server.")
            return game
        if channel_id is not None:
            rows = await self.store.fetchall(
                "SELECT * FROM games WHERE thread_id = ? OR (thread_id IS NULL AND channel_id = ?)"
                " ORDER BY status = 'active' DESC, id DESC",
                (channel_id, channel_id),
            )
            here = [self._game(r) for r in rows]
            # the user's own running games posted here (a thread may also hold a game that
            # was challenged from inside it, or a channel the games that fell back to it)
            mine = [g for g in here if g.status == "active" and g.seat_of(user_id) is not None]
            waiting = [g for g in mine if g.to_move_user == user_id]
            if len(waiting) == 1:
                return waiting[0]
            if len(mine) == 1:
                return mine[0]
            if not mine:
                own = [g for g in here if g.thread_id == channel_id]
                if own:
                    return own[0]  # this thread's game: spectators are told they do not play
        games = await self.active_games(user_id, guild_id)
        if not games:
            raise NotFound("You have no games in progress here: start one with /challenge.")
        waiting = [g for g in games if g.to_move_user == user_id]
        if len(waiting) == 1:
            return waiting[0]
        if len(games) == 1:
            return games[0]
        if waiting:
            ids = ", ".join(g.label for g in waiting[:10])
            raise UserError(
                f"You have {len(waiting)} games waiting for you ({ids}): choose one with the "
                "`game:` option."
            )
        ids = ", ".join(g.label for g in games[:10])
        raise UserError(
            f"You have {len(games)} games in progress and none is waiting for you ({ids}): "
            "choose one with the `game:` option."
        )

    async def complete_move(
        self,
        user_id: int,
        prefix: str,
        *,
        game_id: int | None = None,
        channel_id: int | None = None,
        guild_id: int | None = None,
        limit: int = 25,
    ) -> list[str]:
        """Legal moves (or first placements of two-placement moves) starting with ``prefix``
        in the game :meth:`resolve_game` picks (only in ``guild_id`` when given), at most
        ``limit`` (<= 25).

        With nothing typed, a legal ``pass`` (Coil, Phase I) comes first, so it is never
        crowded out by the cells. Never raises: ``[]`` when no game resolves, it is not the
        user's turn or anything goes wrong. Uses the cached position (no replay of the move list).
        """
        try:
            game = await self.resolve_game(user_id, game_id=game_id, channel_id=channel_id,
                                           guild_id=guild_id)
            if game.status != "active" or game.seat_of(user_id) is None:
                return []
            pos = self._position(game)
            if pos.to_move is None or game.players[pos.to_move] != user_id:
                return []
            prefix = prefix if isinstance(prefix, str) else ""
            limit = max(0, min(limit, 25))
            moves = pos.complete(prefix, limit=limit)
            if not prefix.strip() and limit and "pass" not in moves and "pass" in pos.complete("pass", limit=1):
                moves = ["pass", *moves[: limit - 1]]  # a legal pass is never hidden behind 25 cells
            return moves
        except Exception:  # noqa: BLE001 - autocomplete must never fail
            log.debug("complete_move failed", exc_info=True)
            return []

    async def waiting_game(
        self,
        user_id: int,
        *,
        game_id: int | None = None,
        channel_id: int | None = None,
        guild_id: int | None = None,
    ) -> Game | None:
        """The game :meth:`resolve_game` picks for ``user_id`` when they play in it, it is in
        progress and it is the opponent's move -- what /move's suggestions explain instead of
        listing moves. ``None`` otherwise; never raises."""
        try:
            game = await self.resolve_game(user_id, game_id=game_id, channel_id=channel_id,
                                           guild_id=guild_id)
        except Exception:  # noqa: BLE001 - autocomplete must never fail
            return None
        if game.status != "active" or game.seat_of(user_id) is None:
            return None
        to_move = game.to_move_user
        return game if to_move is not None and to_move != user_id else None

    async def complete_game(
        self, user_id: int, prefix: str, limit: int = 25, *, include_finished: bool = False,
        guild_id: int | None = None, name_of: Callable[[int], str | None] | None = None,
    ) -> list[tuple[int, str]]:
        """The user's games matching ``prefix`` (an id or part of the label) as
        ``(game id, label)``, labels like ``"Io #12 · your turn"``, or ``"Io #12 vs Bob ·
        your turn"`` when ``name_of(opponent id)`` knows the opponent's name; games waiting
        for the user first. ``include_finished`` adds recent finished games (for /board,
        /history). Never raises."""
        try:
            games = await self.active_games(user_id, guild_id)
            if include_finished:
                games += await self.finished_games(user_id, guild_id)
            p = (prefix or "").strip().lower().lstrip("#")
            out: list[tuple[bool, int, str]] = []
            for g in games:
                if g.status != "active":
                    state = "finished" if g.status == "finished" else "aborted"
                else:
                    state = "your turn" if g.to_move_user == user_id else "their turn"
                opponent = name_of(g.opponent_of(user_id)) if name_of is not None else None
                versus = f" vs {opponent}" if opponent else ""
                label = f"{g.label}{versus} · {state}"
                if not p or str(g.id).startswith(p) or p in label.lower():
                    out.append((state == "your turn", g.id, label))
            out.sort(key=lambda t: (not t[0], t[1]))
            return [(gid, label) for _, gid, label in out[: max(0, min(limit, 25))]]
        except Exception:  # noqa: BLE001 - autocomplete must never fail
            log.debug("complete_game failed", exc_info=True)
            return []

    # ---- ratings ----------------------------------------------------------------------------
    async def _rate(self, game: Game, winner: int | None) -> None:
        """Elo update for a rated game that ends now (inside the ending transaction)."""
        current = {}
        for seat in (1, 2):
            row = await self.store.fetchone(
                "SELECT rating, games FROM ratings WHERE guild_id = ? AND kind = ? AND user_id = ?",
                (game.guild_id, game.kind, game.players[seat]),
            )
            current[seat] = (row["rating"], row["games"]) if row is not None else (elo.START, 0)
        new1, new2 = elo.update(current[1][0], current[1][1], current[2][0], current[2][1], winner)
        for seat, new in ((1, new1), (2, new2)):
            uid = game.players[seat]
            await self.store.execute(
                "INSERT INTO ratings (guild_id, kind, user_id, rating, games) VALUES (?, ?, ?, ?, 1)"
                " ON CONFLICT (guild_id, kind, user_id) DO UPDATE SET rating = excluded.rating,"
                " games = games + 1",
                (game.guild_id, game.kind, uid, new),
            )
            await self.store.execute(
                "INSERT INTO rating_changes (game_id, user_id, before, after) VALUES (?, ?, ?, ?)",
                (game.id, uid, current[seat][0], new),
            )

    async def rating_changes(self, game_id: int) -> dict[int, tuple[float, float]]:
        """user id -> (rating before, rating after) for a finished rated game ({} otherwise)."""
        gid = self._id(game_id, "game")
        rows = await self.store.fetchall(
            "SELECT user_id, before, after FROM rating_changes WHERE game_id = ?", (gid,)
        )
        return {r["user_id"]: (r["before"], r["after"]) for r in rows}

    async def leaderboard(self, guild_id: int, kind: str, limit: int = 10) -> list[RatingRow]:
        """The top ``limit`` ratings of game ``kind`` in ``guild_id`` (highest first, with
        rated games played). Raises UserError for an unknown game."""
        spec = self._kind(kind)
        rows = await self.store.fetchall(
            "SELECT user_id, rating, games FROM ratings WHERE guild_id = ? AND kind = ?"
            " AND games > 0 ORDER BY rating DESC, games DESC, user_id LIMIT ?",
            (guild_id, spec.key, limit),
        )
        return [RatingRow(r["user_id"], r["rating"], r["games"]) for r in rows]

    async def rank(self, guild_id: int, kind: str, user_id: int) -> tuple[int, RatingRow] | None:
        """``user_id``'s place on the :meth:`leaderboard` of ``kind`` in ``guild_id`` (1 is
        the top, same order and ties) with their row; ``None`` when they have no rated game
        of it there. Raises UserError for an unknown game."""
        spec = self._kind(kind)
        row = await self.store.fetchone(
            "SELECT user_id, rating, games FROM ratings WHERE guild_id = ? AND kind = ?"
            " AND user_id = ? AND games > 0", (guild_id, spec.key, user_id),
        )
        if row is None:
            return None
        ahead = await self.store.fetchone(
            "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND kind = ? AND games > 0 AND"
            " (rating > ? OR (rating = ? AND (games > ? OR (games = ? AND user_id < ?))))",
            (guild_id, spec.key, row["rating"], row["rating"], row["games"], row["games"], user_id),
        )
        return int(ahead[0]) + 1, RatingRow(row["user_id"], row["rating"], row["games"])

    async def server_games(self, guild_id: int) -> list[Game]:
        """Every game in progress in server ``guild_id``, the most recently moved first (for
        ``/games all:true``: games anyone may watch)."""
        rows = await self.store.fetchall(
            "SELECT * FROM games WHERE status = 'active' AND guild_id = ?"
            " ORDER BY updated_at DESC, id DESC", (guild_id,),
        )
        return [self._game(r) for r in rows]

    async def profile(self, guild_id: int, user_id: int) -> Profile:
        """Ratings per kind, win/loss/draw record per kind (finished games, rated or not) and
        active games of ``user_id`` in ``guild_id``."""
        rows = await self.store.fetchall(
            "SELECT kind, user_id, rating, games FROM ratings WHERE guild_id = ? AND user_id = ?"
            " AND games > 0 ORDER BY kind",
            (guild_id, user_id),
        )
        ratings = {r["kind"]: RatingRow(r["user_id"], r["rating"], r["games"]) for r in rows}
        rows = await self.store.fetchall(
            "SELECT kind, winner, player1_id FROM games WHERE guild_id = ? AND status = 'finished'"
            " AND (player1_id = ? OR player2_id = ?)",
            (guild_id, user_id, user_id),
        )
        tally: dict[str, list[int]] = {}
        for r in rows:
            t = tally.setdefault(r["kind"], [0, 0, 0])
            seat = 1 if r["player1_id"] == user_id else 2
            if r["winner"] is None:
                t[2] += 1
            elif r["winner"] == seat:
                t[0] += 1
            else:
                t[1] += 1
        records = {k: Record(*v) for k, v in sorted(tally.items())}
        return Profile(guild_id, user_id, ratings, records, await self.active_games(user_id, guild_id))

    # ---- correspondence (issue 5) -------------------------------------------------------
    @staticmethod
    def reminder_window(days_per_move: int) -> float:
        """Seconds before the deadline when the reminder goes out: 24 hours, or a quarter of
        the time per move if that is less."""
        return min(DAY, days_per_move * DAY / 4)

    async def sweep(self, now: float | None = None) -> list[ClockEvent]:
        """Check every running clock at ``now`` (default ``clock()``).

        * A game past its deadline ends: the player to move loses on time
          (``position.time_out``), ratings updated in the same transaction -- exactly once,
          however many sweeps or processes run.
        * A game within :meth:`reminder_window` of its deadline gets one reminder per turn
          (marked in the database before it is returned).

        Each event is written to the outbox in the transaction that makes it, so its
        announcement survives a crash before the post: the bot posts
        :meth:`pending_announcements` and then calls :meth:`mark_delivered`.

        Returns the events made by this call (each once, also across processes). Problems
        with one game are logged and do not stop the sweep.
        """
        now = self.clock() if now is None else now
        rows = await self.store.fetchall(
            "SELECT * FROM games WHERE status = 'active' AND deadline IS NOT NULL"
            " AND deadline <= ? ORDER BY deadline",
            (now + DAY,),
        )
        events: list[ClockEvent] = []
        for row in rows:
            try:
                game = self._game(row)
                if game.deadline <= now:
                    event = await self._time_out(game.id, now)
                elif (
                    game.deadline - now <= self.reminder_window(game.days_per_move)
                    and row["reminded_ply"] != game.ply
                ):
                    event = await self._remind(game, now)
                else:
                    event = None
            except Exception:  # noqa: BLE001 - one bad game must not stop the clocks
                log.exception("sweep failed for game %s", row["id"])
                continue
            if event is not None:
                events.append(event)
        return events

    async def _time_out(self, game_id: int, now: float) -> ClockEvent | None:
        async with self._lock(game_id):
            game = self._game(await self._game_row(game_id))
            if game.status != "active" or game.deadline is None or game.deadline > now:
                return None
            seat = self._position(game).to_move
            loser = game.players[seat]
            done = await self._finish(game, self._position(game).time_out(seat), now, by="timeout",
                                      announce=("timeout", loser))
            return None if done is None else ClockEvent("timeout", done, loser)

    async def _remind(self, game: Game, now: float) -> ClockEvent | None:
        async with self.store.transaction():
            n = await self.store.execute(
                "UPDATE games SET reminded_ply = ply WHERE id = ? AND ply = ? AND status = 'active'"
                " AND (reminded_ply IS NULL OR reminded_ply <> ply)",
                (game.id, game.ply),
            )
            if n != 1:
                return None
            await self._announce(game, "reminder", game.to_move_user, now)
        return ClockEvent("reminder", game, game.to_move_user)

    # ---- the announcement outbox ----------------------------------------------------------
    async def _announce(self, game: Game, kind: str, user_id: int, now: float) -> int:
        """Queue an announcement of ``kind`` about ``game`` (inside the caller's transaction)."""
        return await self.store.insert(
            "INSERT INTO announcements (game_id, kind, user_id, ply, created_at) VALUES (?, ?, ?, ?, ?)",
            (game.id, kind, user_id, game.ply, now),
        )

    async def _announce_turn_dm(self, game: Game, now: float) -> int | None:
        """Queue the your-turn DM (kind ``"dm"``) to the player to move in ``game`` if they
        turned DMs on (inside the caller's transaction); its id, else ``None``."""
        uid = game.to_move_user
        if uid is None:
            return None
        row = await self.store.fetchone("SELECT dm FROM user_settings WHERE user_id = ?", (uid,))
        if row is None or not row["dm"]:
            return None
        return await self._announce(game, "dm", uid, now)

    async def pending_dm(self, game_id: int, ply: int) -> int | None:
        """The id of the your-turn DM of game ``game_id`` at ply ``ply`` still waiting in the
        outbox, like :meth:`pending_board`; ``None`` when there is none (delivered, given up,
        or the player did not ask for DMs). Raises NotFound for an unknown game."""
        gid = self._id(game_id, "game")
        await self._game_row(gid)
        row = await self.store.fetchone(
            "SELECT id FROM announcements WHERE game_id = ? AND kind = 'dm' AND ply = ?"
            " AND delivered_at IS NULL ORDER BY id DESC LIMIT 1", (gid, ply),
        )
        return None if row is None else row["id"]

    async def pending_board(self, game_id: int, ply: int) -> int | None:
        """The id of the board of game ``game_id`` at ply ``ply`` (0: the first board, queued
        on accept) still waiting in the outbox, for :meth:`mark_delivered`; ``None`` when it
        was delivered (or given up) already or never queued. Raises NotFound for an unknown
        game."""
        gid = self._id(game_id, "game")
        await self._game_row(gid)
        row = await self.store.fetchone(
            "SELECT id FROM announcements WHERE game_id = ? AND kind = 'move' AND ply = ?"
            " AND delivered_at IS NULL ORDER BY id DESC LIMIT 1", (gid, ply),
        )
        return None if row is None else row["id"]

    async def pending_announcements(self, limit: int = 100, *,
                                    board_grace: float = BOARD_GRACE) -> list[Announcement]:
        """Announcements not yet delivered, oldest first (at most ``limit``), each with its
        game as it is now.

        A board (kind ``"move"``) or a your-turn DM (kind ``"dm"``) is left out until it is
        ``board_grace`` seconds old (by the manager's clock): until then the /move or Accept
        handler whose move or game queued it is still expected to post it and mark it, and a
        delivery pass must not race it.

        Delivery is at least once: the bot posts one, then calls :meth:`mark_delivered`; a
        crash between the two posts it again on the next start.
        """
        rows = await self.store.fetchall(
            "SELECT * FROM announcements WHERE delivered_at IS NULL"
            " AND (kind NOT IN ('move', 'dm') OR created_at <= ?) ORDER BY id LIMIT ?",
            (self.clock() - max(0.0, board_grace), max(0, limit)),
        )
        out = []
        for r in rows:
            game = self._game(await self._game_row(r["game_id"]))
            out.append(Announcement(r["id"], r["kind"], game, r["user_id"], r["ply"],
                                    r["created_at"], r["attempts"]))
        return out

    async def mark_delivered(self, announcement_id: int, *, error: str | None = None) -> bool:
        """Take announcement ``announcement_id`` out of the outbox: posted, or given up
        (then ``error`` says why and is kept in ``last_error``).

        Returns ``False`` when it was already delivered. Raises NotFound for an unknown id.
        """
        aid = self._id(announcement_id, "announcement")
        n = await self.store.execute(
            "UPDATE announcements SET delivered_at = ?, last_error = COALESCE(?, last_error)"
            " WHERE id = ? AND delivered_at IS NULL",
            (self.clock(), None if error is None else str(error)[:500], aid),
        )
        if n == 1:
            return True
        if await self.store.fetchone("SELECT 1 FROM announcements WHERE id = ?", (aid,)) is None:
            raise NotFound(f"There is no announcement #{aid}.")
        return False

    async def record_failed_post(self, announcement_id: int, error: str) -> int:
        """Count one failed post of announcement ``announcement_id`` (``error`` says why; it
        stays pending). Returns the failures so far. Raises NotFound for an unknown id."""
        aid = self._id(announcement_id, "announcement")
        async with self.store.transaction():
            n = await self.store.execute(
                "UPDATE announcements SET attempts = attempts + 1, last_error = ? WHERE id = ?",
                (str(error)[:500], aid),
            )
            if n != 1:
                raise NotFound(f"There is no announcement #{aid}.")
            row = await self.store.fetchone("SELECT attempts FROM announcements WHERE id = ?", (aid,))
        return int(row["attempts"])

    def _year(self, t: float) -> int:
        return datetime.fromtimestamp(t, UTC).year

    async def _settings_row(self, user_id: int):
        return await self.store.fetchone("SELECT * FROM user_settings WHERE user_id = ?", (user_id,))

    def _settings(self, row, now: float) -> UserSettings:
        if row is None:
            return UserSettings(False, None, self.limits.vacation_days)
        used = row["vacation_used"] if row["vacation_year"] == self._year(now) else 0.0
        until = row["vacation_until"]
        return UserSettings(
            bool(row["dm"]),
            until if until is not None and until > now else None,
            max(0.0, self.limits.vacation_days - used),
        )

    async def settings(self, user_id: int) -> UserSettings:
        """``user_id``'s settings (defaults for someone never seen: no DMs, no vacation)."""
        return self._settings(await self._settings_row(user_id), self.clock())

    async def set_notify(self, user_id: int, dm: bool) -> UserSettings:
        """Turn the your-turn DM for ``user_id`` on or off. Returns the new settings."""
        await self.store.execute(
            "INSERT INTO user_settings (user_id, dm) VALUES (?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET dm = excluded.dm",
            (user_id, int(bool(dm))),
        )
        return await self.settings(user_id)

    async def set_vacation(self, user_id: int, days: int) -> UserSettings:
        """Start (or extend) a vacation of ``days`` days for ``user_id``; ``days=0`` ends a
        running vacation now and gives back the unused days.

        While on vacation the user's clocks are paused: the deadline of each game where it is
        their turn moves later by the vacation, and a turn that starts during it gets the
        rest of the vacation added. The allowance is ``limits.vacation_days`` per calendar
        year (UTC), counted by the hour: ending a vacation gives back its unused whole hours,
        so the time used is charged rounded up to the hour (ending it seconds after starting
        costs one hour, not a day). Days are asked for whole; a request for more than is left
        is granted when only part of its last day is missing, and then lasts what is left
        (13 days 23 hours for ``days=14``). Raises :class:`UserError` for a bad number or when
        ending a vacation that is not running, and :class:`LimitReached` when the allowance
        does not cover ``days``.
        """
        if isinstance(days, bool) or not isinstance(days, int | float) or days < 0 or days != days:
            raise UserError("Give the number of vacation days as a whole number, 0 to end a vacation.")
        now = self.clock()
        year = self._year(now)
        async with self.store.transaction():
            row = await self._settings_row(user_id)
            current = self._settings(row, now)
            used = self.limits.vacation_days - current.vacation_left_days
            until = current.vacation_until
            if days == 0:
                if until is None:
                    raise UserError(
                        "You are not on vacation, so there is nothing to end. To pause your "
                        "clocks, give /vacation a number of days."
                    )
                shift = -(until - now)
                unused_hours = int((until - now) / HOUR + 1e-6)  # a started hour counts whole
                used = max(0.0, used - unused_hours * HOUR / DAY)
                new_until = None
            else:
                left_hours = round(current.vacation_left_days * 24)
                if days * 24 - left_hours >= 24 or left_hours < 1:
                    if left_hours < 1:
                        raise LimitReached(
                            f"You have used your {self.limits.vacation_days:g} vacation days for "
                            f"this year; the allowance starts again on 1 January (UTC)."
                        )
                    raise LimitReached(
                        f"You have {texts.vacation_amount(left_hours / 24)} of vacation left "
                        f"this year, not enough for {texts.count(days, 'day')}: ask for "
                        f"{-(-left_hours // 24)} or fewer."
                    )
                hours = min(days * 24, left_hours)  # the last day may be cut short
                shift = hours * HOUR
                used += hours / 24
                new_until = (until if until is not None else now) + shift
            await self.store.execute(
                "INSERT INTO user_settings (user_id, vacation_until, vacation_year, vacation_used)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET"
                " vacation_until = excluded.vacation_until, vacation_year = excluded.vacation_year,"
                " vacation_used = excluded.vacation_used",
                (user_id, new_until, year, used),
            )
            rows = await self.store.fetchall(
                "SELECT * FROM games WHERE status = 'active' AND deadline > ?"
                " AND (player1_id = ? OR player2_id = ?)",
                (now, user_id, user_id),
            )
            for r in rows:
                game = self._game(r)
                if game.to_move_user == user_id:
                    # Never before now: ending a vacation must not time anyone out at once
                    # for time that passed while paused.
                    deadline = max(game.deadline + shift, now + 60.0) if shift < 0 else game.deadline + shift
                    await self.store.execute(
                        "UPDATE games SET deadline = ? WHERE id = ? AND ply = ? AND status = 'active'",
                        (deadline, game.id, game.ply),
                    )
            row = await self._settings_row(user_id)
        return self._settings(row, now)

    async def rematch(self, game_id: int, user_id: int) -> Challenge:
        """``user_id`` offers a rematch of a finished or aborted game: a challenge to the
        other player with the same kind, options, rating and days per move, seats swapped
        (the old seat-2 player gets seat 1).

        Raises NotFound, :class:`NotAllowed` (not a player), :class:`StaleAction` (the game
        is still running, a rematch offer is already open, or a rematch of it was already
        accepted) and the errors of
        :meth:`create_challenge` (limits).
        """
        gid = self._id(game_id, "game")
        # one offer per game: the checks and the new challenge are not split by another press
        async with self._lock(gid):
            game = await self.get_game(gid)
            seat = game.seat_of(user_id)
            if seat is None:
                raise NotAllowed(f"Only the two players of {game.label} can ask for a rematch.")
            if game.status == "active":
                raise StaleAction(f"{game.label} is still in progress: finish it first.")
            row = await self.store.fetchone(
                "SELECT * FROM challenges WHERE rematch_of = ? AND status = 'open' AND expires_at > ?",
                (game.id, self.clock()),
            )
            taken = await self.store.fetchone(
                "SELECT game_id FROM challenges WHERE rematch_of = ? AND status = 'accepted'"
                " AND game_id IS NOT NULL ORDER BY id DESC LIMIT 1",
                (game.id,),
            )
            if taken is not None:
                label = texts.game_label(game.kind, taken["game_id"])
                raise StaleAction(
                    f"The rematch of {game.label} was already accepted: it is {label}. "
                    f"Play on there, or press Rematch on its final board for another game."
                )
            if row is not None:
                if row["challenger_id"] == user_id:
                    raise StaleAction(f"You already offered a rematch of {game.label}: it waits for "
                                      f"<@{row['opponent_id']}> to answer in <#{row['channel_id']}>.")
                raise StaleAction(
                    f"Your opponent already offered a rematch of {game.label}: accept their "
                    f"challenge in <#{row['channel_id']}>."
                )
            return await self.create_challenge(
                guild_id=game.guild_id,
                channel_id=game.channel_id,
                challenger_id=user_id,
                opponent_id=game.players[3 - seat],
                kind=game.kind,
                options=game.options,
                first="challenger" if seat == 2 else "opponent",
                rated=game.rated,
                days_per_move=game.days_per_move,
                rematch_of=game.id,
            )

    async def abort(self, game_id: int, moderator_id: int) -> Game:
        """End a running game without a result or rating change (moderation; the bot layer
        checks the permission). Raises NotFound and :class:`GameOver`."""
        gid = self._id(game_id, "game")
        async with self._lock(gid):
            game = self._game(await self._game_row(gid))
            if game.status != "active":
                raise game_over_error(game)
            now = self.clock()
            async with self.store.transaction():
                n = await self.store.execute(
                    "UPDATE games SET status = 'aborted', winner = NULL, reason = 'aborted',"
                    " aborted_by = ?, finished_at = ?, updated_at = ?, deadline = NULL"
                    " WHERE id = ? AND status = 'active'",
                    (moderator_id, now, now, gid),
                )
                if n != 1:  # pragma: no cover - another process ended it in between
                    raise StaleAction(f"{game.label} ended a moment ago.")
                row = await self._game_row(gid)
        return self._game(row)

    async def record_text(self, game_id: int, names: Mapping[int, str] | None = None) -> str:
        """The game's text record (:mod:`bot.records`): header with game, options, players
        (``names``: seat -> display name, with their user ids), dates and result in words,
        then numbered moves in the engine's notation. ``bot.records.parse_record`` reads it
        back for ``engine.replay``. Raises NotFound."""
        game = await self.get_game(game_id)
        moves = await self.moves(game.id)
        pos = self._position(game)
        scores = pos.scores if game.status == "finished" else None
        return format_record(
            kind=game.kind,
            options=game.options,
            game_id=game.id,
            players=game.players,
            names=names,
            colours={s: pos.colour(s) for s in (1, 2)},
            rated=game.rated,
            days_per_move=game.days_per_move,
            created_at=game.created_at,
            finished_at=game.finished_at,
            status=game.status,
            winner=game.winner,
            reason=game.reason,
            scores=scores,
            moves=[m.move for m in moves],
        )
