"""Outbox entries: an announcement the bot must still post, with what its post needs.

Frozen dataclasses (see :mod:`bot.manager.values`); the bot only reads them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .entities import Game, MoveRecord, UserSettings

__all__ = ["Announcement"]


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
