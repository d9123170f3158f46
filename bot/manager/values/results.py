"""Command results: what one operation of the manager did -- a move played or previewed, a challenge accepted, a game ended, a clock event, a vacation, conditional lines stored.

Frozen dataclasses (see :mod:`bot.manager.values`); the bot only reads them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import engine

from .entities import Challenge, Game, MoveRecord, UserSettings

__all__ = ["Accepted", "ClockEvent", "ConditionalLines", "GameEnd", "MovePlan", "MovePreview", "MoveResult", "VacationChange"]


@dataclass(frozen=True)
class MovePreview:
    """A move checked but not played (issue 13, move confirmation): the ``game`` as stored
    (its ``ply`` is the position the move was chosen in), the ``position`` after the move,
    the canonical ``move`` text and the mover's ``seat``."""

    game: Game
    position: engine.Position
    move: str
    seat: int


@dataclass(frozen=True)
class ConditionalLines:
    """The conditional moves one player stored in one game (issue 13): ``game`` as stored,
    the player's ``seat``, and ``lines``, each a tuple of canonical steps (the opponent's
    move, the reply, ...) in the order /conditional list numbers them."""

    game: Game
    seat: int
    lines: tuple[tuple[str, ...], ...]

    @property
    def texts(self) -> list[str]:
        """Each line as typed back: ``"e5; d4; c3; f6"``."""
        return ["; ".join(line) for line in self.lines]


@dataclass(frozen=True)
class MoveResult:
    """What :meth:`GameManager.play_move` committed: the game row after the move, its
    ``position``, the canonical ``move`` text, the ``seat`` that moved, whether the move
    ``finished`` the game and ``announcement_id``, the outbox row of its board (kind
    ``"move"``) to pass to :meth:`GameManager.mark_delivered` once the board is posted;
    ``dm_id``, the outbox row of the your-turn DM to the next player (kind ``"dm"``), or
    ``None`` when they did not ask for DMs or the game is over.

    Read in the move's own transaction, for the board post (issue 11): ``ping_id``, the player
    the board pings (the player to move; at the end, the one who did not make the last move);
    ``to_move_settings``, the settings of the player to move (``None`` once the game is over),
    with :attr:`vacation_until` for the vacation note; ``rating_changes``, user id -> (before,
    after) when the move ended a rated game (``{}`` otherwise).

    ``replies`` (issue 13): the moves played at once after ``move`` from conditional moves, in
    order (each its own move row); ``position`` and ``game`` are after the last of them.
    :attr:`plies` gives the mover's move and those replies together, each with its seat
    (issue 18: the board names every one)."""

    game: Game
    position: engine.Position
    move: str
    seat: int
    finished: bool
    announcement_id: int | None = None
    dm_id: int | None = None
    ping_id: int | None = None
    to_move_settings: UserSettings | None = None
    rating_changes: dict[int, tuple[float, float]] = field(default_factory=dict)
    replies: tuple[MoveRecord, ...] = ()

    @property
    def last_seat(self) -> int:
        """The seat that made the last move of :attr:`position`: :attr:`seat`, or the seat of
        the last conditional reply played after it."""
        return self.replies[-1].seat if self.replies else self.seat

    @property
    def plies(self) -> tuple[MoveRecord, ...]:
        """Every move this result played, in order: the mover's own (:attr:`move` by
        :attr:`seat`, ply ``position.ply - len(replies)``) then each conditional reply
        (:attr:`replies`). One element when no prepared reply answered."""
        own = MoveRecord(self.position.ply - len(self.replies), self.seat, self.move,
                         self.replies[0].played_at if self.replies else self.game.updated_at)
        return (own, *self.replies)

    @property
    def vacation_until(self) -> float | None:
        """When the player to move comes back from vacation (UNIX seconds; their clock waits
        until then), ``None`` when they are not away or the game is over."""
        s = self.to_move_settings
        return None if s is None or self.finished else s.vacation_until

    @property
    def dm_due(self) -> bool:
        """Whether a your-turn DM to the player to move was queued (its id: ``dm_id``)."""
        return self.dm_id is not None


@dataclass(frozen=True)
class ClockEvent:
    """Something :meth:`GameManager.sweep` did: ``kind`` ``"reminder"`` (``user_id`` is the
    player to move, to be mentioned) or ``"timeout"`` (``user_id`` lost on time; ``game`` is
    the finished game). Each event is also queued as an :class:`Announcement`."""

    kind: str
    game: Game
    user_id: int


@dataclass(frozen=True)
class Accepted:
    """What :meth:`GameManager.accept` committed, for the Accept reply and the first board:
    the new ``game`` (at ply 0, its ``position``), the ``challenge`` as now accepted,
    ``ping_id`` (the player to move, whom the first board pings), ``announcement_id`` (the
    first board in the outbox), ``dm_id`` (the your-turn DM, ``None`` when not asked for) and
    ``to_move_settings`` (the settings of the player to move)."""

    game: Game
    challenge: Challenge
    position: engine.Position
    ping_id: int
    announcement_id: int | None
    dm_id: int | None
    to_move_settings: UserSettings

    @property
    def vacation_until(self) -> float | None:
        """When the player to move comes back from vacation, ``None`` when not away."""
        return self.to_move_settings.vacation_until

    @property
    def dm_due(self) -> bool:
        """Whether a your-turn DM was queued (its id: ``dm_id``)."""
        return self.dm_id is not None


@dataclass(frozen=True)
class GameEnd:
    """A game ended off the board (:meth:`GameManager.resign_game`,
    :meth:`GameManager.abort_game`): the ``game`` after it, its final ``position``, ``by`` (who
    resigned; the moderator of an abort), ``ping`` (the user ids to tell: the opponent of the
    one who resigned; both players of an aborted game) and ``rating_changes`` (user id ->
    (before, after) for a rated resignation, ``{}`` otherwise)."""

    game: Game
    position: engine.Position
    by: int
    ping: tuple[int, ...]
    rating_changes: dict[int, tuple[float, float]] = field(default_factory=dict)


@dataclass(frozen=True)
class VacationChange:
    """What :meth:`GameManager.vacation` did for ``user_id``: their settings ``before`` and
    ``settings`` after, and the ``games`` whose deadline it moved (where it is their move),
    as now stored -- each gets a note with the new deadline, queued in the outbox as
    ``note_ids`` (one per game, in the same order)."""

    user_id: int
    before: UserSettings
    settings: UserSettings
    games: tuple[Game, ...] = ()
    note_ids: tuple[int, ...] = ()


@dataclass(frozen=True)
class MovePlan:
    """A move worked out by :meth:`bot.manager.play.PlayService.plan_move` (no I/O), for
    :meth:`bot.manager.play.PlayService.commit_move` to write.

    ``game``: as read before the move; ``seat`` the mover's; ``new`` the position after their
    own move, written ``move``; ``replies``: the conditional replies played at once after it;
    ``final``: the position after the last of them (``final.outcome``: how the game ends,
    ``None`` while it goes on); ``after``: the game as it will be stored (ply, position,
    deadline, banks in seconds, result); ``to_move_settings``: the settings of the player to
    move next (``None`` once over); ``ping``: whom its board pings; ``trees``: the
    conditional lines to store, seat -> (JSON text, ply written at), or ``None`` to remove
    that seat's; ``confirm``: whether the mover confirms moves first; ``now``: UNIX seconds."""

    game: Game
    seat: int
    new: engine.Position
    move: str
    replies: tuple[MoveRecord, ...]
    final: engine.Position
    after: Game
    to_move_settings: UserSettings | None
    ping: int
    trees: dict[int, tuple[str, int] | None]
    confirm: bool
    now: float
