"""Entities: what the database stores, as the manager reads it -- a challenge, a game, a move, a player's settings, the limits.

Frozen dataclasses (see :mod:`bot.manager.values`); the bot only reads them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import engine

from ...rules import timecontrol
from ...rules.timecontrol import TimeControl

__all__ = ["Challenge", "Game", "Limits", "MoveRecord", "UserSettings"]


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
    options: dict[str, Any]
    first: str
    rated: bool
    days_per_move: int
    status: str
    created_at: float
    expires_at: float
    game_id: int | None
    rematch_of: int | None = None
    clock: str | None = None

    @property
    def time_control(self) -> TimeControl:
        """The challenge's clock (:mod:`bot.rules.timecontrol`): its stored text, or
        ``days_per_move`` days a move when none is given."""
        return timecontrol.parse(self.clock or str(self.days_per_move))


@dataclass(frozen=True)
class Game:
    """A game as stored.

    ``players`` maps seat (1 moves first) -> user id. ``status`` is ``"active"``,
    ``"finished"`` or ``"aborted"``. ``ply`` counts the moves played (and versions the row).
    ``winner`` is the winning seat, ``None`` for a draw (or no result); ``reason`` as in
    RULES.md "Every game" (``"aborted"`` for an aborted game). ``deadline`` is when the player
    to move loses on time (``None`` once over). ``thread_wanted``: the game was accepted but
    where its boards go (its thread, or the channel) is not recorded yet -- the delivery pass
    makes or finds the thread before posting. ``clock`` is the time control's stored text
    (:func:`bot.rules.timecontrol.parse`; ``None``: ``days_per_move`` days a move), ``bank1``/
    ``bank2`` each seat's bank in seconds. ``conditional_ply``: the latest ply played from a
    conditional move (``None``: none), so a board can say so when its last move is that one.
    ``ai_seat`` is the seat the computer plays at level ``ai_level`` (1-5, :data:`ai.LEVELS`);
    both ``None`` in a game of two people.

    ``position`` is the :class:`engine.Position` that ``position_text`` writes, given when
    the game is built (the manager takes it from its cache or parses it: ``engine.from_text(
    position_text)``). A copy made with :func:`dataclasses.replace` that changes
    ``position_text`` must pass the new ``position`` with it.
    """

    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    kind: str
    options: dict[str, Any]
    players: dict[int, int]
    status: str
    ply: int
    position_text: str
    position: engine.Position = field(repr=False, compare=False)
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
    conditional_ply: int | None = None
    clock: str | None = None
    bank1: float | None = None
    bank2: float | None = None
    ai_seat: int | None = None
    ai_level: int | None = None

    @property
    def time_control(self) -> TimeControl:
        """The game's clock (:mod:`bot.rules.timecontrol`): ``clock``, its stored text, or
        ``days_per_move`` days a move when none is given."""
        return timecontrol.parse(self.clock or str(self.days_per_move))

    def bank(self, seat: int) -> float:
        """Seconds in the bank of ``seat`` (for the player to move: the bank their turn
        started with); the clock's allowance when not given."""
        value = self.bank1 if seat == 1 else self.bank2
        return self.time_control.initial_bank() if value is None else value

    def clock_text(self, now: float, paused_until: float | None = None) -> str:
        """The clock as the board and /games show it: ``"bank 7d+1d, 5 d 3 h left"`` while
        the game runs, else the clock's short name."""
        tc = self.time_control
        if self.status != "active" or self.deadline is None:
            return tc.short
        return tc.status_text(self.deadline, now, paused_until)

    @property
    def termination(self) -> engine.Termination | None:
        """How the finished game ended (:class:`engine.Termination`); ``None`` while it runs
        and for an aborted game (its ``reason`` is ``"aborted"``, not an end of the rules)."""
        return engine.Termination.read(self.reason) if self.status == "finished" else None

    @property
    def ended_off_the_board(self) -> bool:
        """Whether the game was resigned or lost on time (an ending not by the rules)."""
        t = self.termination
        return t is not None and not t.by_rules

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
class UserSettings:
    """A user's settings: ``dm`` (a DM when it becomes their turn; off by default),
    ``vacation_until`` (UNIX seconds, ``None`` when not on vacation), ``vacation_left_days``
    (allowance left this calendar year, in days); issue 13: ``confirm`` (/move shows the
    board with Confirm and Cancel first), ``digest_hour`` (the UTC hour of the daily digest of
    games waiting for them, which replaces the per-move DMs; ``None``: no digest)."""

    dm: bool
    vacation_until: float | None
    vacation_left_days: float
    confirm: bool = False
    digest_hour: int | None = None

    @property
    def dm_mode(self) -> str:
        """``"off"``, ``"on"`` (a DM per turn) or ``"digest"`` (one DM a day)."""
        if self.digest_hour is not None:
            return "digest"
        return "on" if self.dm else "off"
