"""The values the manager returns: challenges, games, moves and what each operation did.

All are frozen dataclasses built from database rows (:class:`bot.manager.core.ManagerCore`
turns rows into them); the bot only reads them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import engine

from .. import texts
from ..rules import timecontrol
from ..rules.records import format_record
from ..rules.timecontrol import TimeControl

__all__ = [
    "Accepted",
    "Announcement",
    "Challenge",
    "ClockEvent",
    "Game",
    "GameEnd",
    "GameRecord",
    "Limits",
    "Listing",
    "MoveRecord",
    "MoveResult",
    "Profile",
    "RatingRow",
    "Record",
    "Standings",
    "UserSettings",
    "VacationChange",
]


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
    clock: str | None = None

    @property
    def time_control(self) -> TimeControl:
        """The challenge's clock (:mod:`bot.timecontrol`): its stored text, or
        ``days_per_move`` days a move when none is given."""
        return timecontrol.parse(self.clock or self.days_per_move)

    @property
    def title(self) -> str:
        """The game's title, e.g. ``"Brain Coral"`` (:func:`bot.texts.title`)."""
        return texts.title(self.kind)

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
    makes or finds the thread before posting. ``clock`` is the time control's stored text
    (:func:`bot.timecontrol.parse`; ``None``: ``days_per_move`` days a move), ``bank1``/
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
    options: dict
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
        """The game's clock (:mod:`bot.timecontrol`): ``clock``, its stored text, or
        ``days_per_move`` days a move when none is given."""
        return timecontrol.parse(self.clock or self.days_per_move)

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
    def title(self) -> str:
        """The game's title, e.g. ``"Io"`` (:func:`bot.texts.title`)."""
        return texts.title(self.kind)

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
class GameRecord:
    """A game with its move list (:meth:`GameManager.game_record`), read together."""

    game: Game
    moves: tuple[MoveRecord, ...]

    @property
    def move_texts(self) -> list[str]:
        """The moves in the engine's canonical notation, in order (for a replay)."""
        return [m.move for m in self.moves]

    def text(self, names: Mapping[int, str] | None = None) -> str:
        """The game's text record (:mod:`bot.records`): header with game, options, players
        (``names``: seat -> display name, with their user ids; the computer's seat and level
        on a ``Computer:`` line), dates and result in words, then numbered moves in the
        engine's notation. ``bot.records.parse_record`` reads it back for ``engine.replay``."""
        game = self.game
        pos = game.position
        return format_record(
            kind=game.kind, options=game.options, game_id=game.id, players=game.players, names=names,
            colours={s: pos.colour(s) for s in (1, 2)}, rated=game.rated,
            days_per_move=game.days_per_move, created_at=game.created_at,
            finished_at=game.finished_at, status=game.status, winner=game.winner,
            reason=game.reason, scores=pos.scores if game.status == "finished" else None,
            moves=self.move_texts,
            clock=game.time_control.name if game.time_control.kind == "bank" else None,
            computer=None if game.ai_seat is None else (game.ai_seat, game.ai_level))


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
class Announcement:
    """A post waiting in the outbox (table ``announcements``): a clock event or a board.

    ``id`` is what :meth:`GameManager.mark_delivered` takes; ``kind`` is ``"reminder"`` or
    ``"timeout"`` (``user_id`` as in :class:`ClockEvent`) or ``"move"``: the board after the
    move that made the game's ply ``ply`` (ply 0: the first board of a new game), ``user_id``
    the player it pings (the player to move; at the end, the one who did not make the last
    move); or ``"dm"``: the your-turn direct message to ``user_id``, the player to move at ply
    ``ply`` who turned DMs on (``/notify``); or ``"deadline"`` (Alembic revision 0005): the
    note with the new deadline of the move of ``user_id``, whose vacation moved it. ``ply`` is the game's ply when the row was written; ``created_at`` is UNIX seconds;
    ``attempts`` counts failed posts so far; ``game`` is the game row as it is now (for a
    timeout: the finished game).

    What its post needs, read with it (issue 11): ``settings``, the settings of ``user_id``
    (their DM switch for a ``"dm"``; the vacation note of a board or reminder);
    ``rating_changes``, user id -> (before, after) once a rated game is over (``{}``
    otherwise); ``move_record``, the move that made ply ``ply`` for a board or a DM (whose
    text names it; ``None`` at ply 0 and for other kinds); ``games``, for a ``"digest"``
    (issue 13, the daily DM to ``user_id``): the games waiting for them now, the least time
    left first; ``plies`` (issue 18), for a board or a DM: every move the post announces, in
    order -- the player's own move and the conditional replies played at once after it
    (``move_record`` is the last), just ``(move_record,)`` when none answered, ``()`` at ply 0.

    ``recheck`` (issue 18): it may have been posted already, and Discord's nonce may no longer
    catch a second post -- an earlier delivery pass claimed it (that process may have died
    after posting, before marking it), a post of it failed (Discord may have made the message
    before answering with an error), or it is older than :data:`bot.manager.NONCE_WINDOW`
    (the post of the handler that queued it may have gone out just before a crash). The bot
    then looks for it among the channel's recent messages before posting it.
    """

    id: int
    kind: str
    game: Game
    user_id: int
    ply: int
    created_at: float
    attempts: int
    settings: UserSettings | None = None
    rating_changes: dict[int, tuple[float, float]] = field(default_factory=dict)
    move_record: MoveRecord | None = None
    games: tuple[Game, ...] = ()
    recheck: bool = False
    plies: tuple[MoveRecord, ...] = ()

    @property
    def vacation_until(self) -> float | None:
        """When ``user_id`` comes back from vacation (their clock waits), ``None`` when they
        are not away (or it is not known)."""
        return None if self.settings is None else self.settings.vacation_until

    @property
    def stale(self) -> bool:
        """Nothing is left to post. A reminder whose turn is over (the player moved, or the
        game ended or was aborted) while it waited. A board superseded by a later one: a move
        was played since (the ply moved on), or the game was then resigned, lost on time or
        aborted (those post their own final word). A DM whose turn is over, like a reminder.
        A digest with no game waiting any more. A deadline note whose turn is over (the next
        board shows the deadline). Timeouts never are."""
        if self.kind in ("reminder", "deadline"):
            return self.game.status != "active" or self.game.ply != self.ply
        if self.kind == "dm":
            return self.game.status != "active" or self.game.ply != self.ply
        if self.kind == "digest":
            return not self.games
        if self.kind == "move":
            return (self.game.ply != self.ply or self.game.status == "aborted"
                    or (self.game.status == "finished" and self.game.ended_off_the_board))
        return False


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
class RatingRow:
    """One rating: ``user_id``, ``rating``, rated ``games`` finished; Glicko-2 (issue 13,
    schema version 7): ``rd``, the rating deviation as of when the row was read (grown by
    inactivity), and ``provisional`` (shown with a ``?``: the deviation is above
    :data:`bot.glicko2.PROVISIONAL_RD`). ``rd`` is ``None`` for an Elo rating (older files)."""

    user_id: int
    rating: float
    games: int
    rd: float | None = None
    provisional: bool = False

    @property
    def short_text(self) -> str:
        """``"1612"``, or ``"1500?"`` while provisional."""
        return f"{round(self.rating)}{'?' if self.provisional else ''}"

    @property
    def text(self) -> str:
        """``"1612 ± 45"`` (``"1500? ± 350"`` while provisional; just the rating for Elo)."""
        return self.short_text if self.rd is None else f"{self.short_text} ± {round(self.rd)}"


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
class Standings:
    """A leaderboard (:meth:`GameManager.standings`): the top ``rows`` (highest first) and,
    when the asking player is rated but not among them, ``mine``: their place and row
    (``None`` otherwise); ``rated`` says whether they have a rating there at all."""

    rows: list[RatingRow]
    mine: tuple[int, RatingRow] | None = None
    rated: bool = False


@dataclass(frozen=True)
class Listing:
    """A player's games in progress (:meth:`GameManager.listing`), oldest first, with
    ``away``: opponent user id -> when their vacation ends (UNIX seconds), for the opponents
    on vacation now."""

    games: list[Game]
    away: dict[int, float] = field(default_factory=dict)


@dataclass(frozen=True)
class LevelRecord:
    """A player's finished games against the computer at one ``level``: ``wins``,
    ``losses`` and ``draws`` (the player's). ``as_computer``: the player is the computer
    itself (the bot), and these are its own results at that level against people."""

    level: int
    wins: int
    losses: int
    draws: int
    as_computer: bool = False


@dataclass(frozen=True)
class Profile:
    """A player in one server: ``ratings`` per game kind (only kinds with rated games),
    ``records`` per kind (every finished game, rated or not), ``active_games`` and
    ``computer``: the record against each level of the computer (:class:`LevelRecord`)."""

    guild_id: int
    user_id: int
    ratings: dict[str, RatingRow] = field(default_factory=dict)
    records: dict[str, Record] = field(default_factory=dict)
    active_games: list[Game] = field(default_factory=list)
    computer: list[LevelRecord] = field(default_factory=list)

