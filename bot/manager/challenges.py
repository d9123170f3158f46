"""Challenges: sending one, accepting (which creates the game), declining, cancelling,
expiring, and rematches.

Accepting is one transaction: the game, the challenge marked accepted, the first board and
the your-turn DM queued in the outbox.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any, cast

import engine

from ..rules.timecontrol import TimeControl
from ..store.db import Row
from .core import ManagerCore, Service
from .errors import DuplicateChallenge, LimitReached, NotAllowed, NotFound, Refusal, StaleAction
from .lookup import LookupService
from .outbox import OutboxService
from .settings import SettingsService
from .values import Accepted, Challenge, Game, UserSettings

__all__ = ["ChallengesService", "StartedGame"]


@dataclass(frozen=True)
class StartedGame:
    """A game :meth:`ChallengesService.start_game` created: the ``game`` as stored, ``ping``
    (the user id of the player to move), the ids of its first board and of the your-turn DM
    (``None``: that player asked for no DMs) queued in the outbox, and ``to_move_settings``
    (that player's settings, read once)."""

    game: Game
    ping: int
    board_id: int
    dm_id: int | None
    to_move_settings: UserSettings


class ChallengesService(Service):
    """Challenges: sending one, accepting (which starts the game, :meth:`start_game`),
    declining, cancelling, expiring, rematches. Uses the shared settings, outbox and look-up
    services."""

    def __init__(self, core: ManagerCore, settings: SettingsService, outbox: OutboxService,
                 lookup: LookupService):
        super().__init__(core)
        self.settings = settings
        self.outbox = outbox
        self.lookup = lookup

    async def start_game(self, *, guild_id: int, channel_id: int, kind: str, options: dict[str, Any],
                         seats: tuple[int, int], position: engine.Position, rated: bool,
                         challenge_id: int, days_per_move: int, time_control: TimeControl,
                         now: float, ai_seat: int | None = None,
                         ai_level: int | None = None) -> StartedGame:
        """Inside the caller's transaction: create the game of challenge ``challenge_id``
        between ``seats`` (user ids of seat 1 and seat 2) at ``position`` (ply 0) at ``now``
        (UNIX seconds), and queue its first board (kind ``"move"``, pinging the player to
        move) and the your-turn DM in the outbox -- the one way a game starts, from an
        accepted challenge (:meth:`accept`) or against the computer
        (:meth:`~bot.manager.computer.ComputerService.start_computer_game`).

        The player to move gets ``time_control``'s first bank as deadline (their running
        vacation added); a turn of the computer (``ai_seat``, at ``ai_level``) has none.
        ``options`` are the checked options of game ``kind``. The caller checks the limits
        and marks the challenge accepted in the same transaction. Raises nothing of its own
        (database errors propagate)."""
        ping = seats[cast(int, position.to_move) - 1]  # the player to move (seat 1 moves first)
        to_move_settings = self.settings.from_row(await self.settings_repo.get(ping), now)
        deadline = None if position.to_move == ai_seat else time_control.deadline(
            time_control.initial_bank(), now, to_move_settings.vacation_until)
        gid = await self.games_repo.insert(
            guild_id=guild_id, channel_id=channel_id, kind=kind, options=json.dumps(options),
            player1_id=seats[0], player2_id=seats[1], position_text=position.to_text(),
            rated=rated, now=now, challenge_id=challenge_id, days_per_move=days_per_move,
            deadline=deadline, clock=time_control.to_text(), bank=time_control.initial_bank(),
            ai_seat=ai_seat, ai_level=ai_level)
        game = self._game(await self._game_row(gid))
        board_id = await self.outbox.announce(game, "move", ping, now)
        dm_id = await self.outbox.announce_turn_dm(game, now, to_move_settings)
        return StartedGame(game, ping, board_id, dm_id, to_move_settings)

    async def create_challenge(
        self,
        *,
        guild_id: int,
        channel_id: int,
        challenger_id: int,
        opponent_id: int | None,
        kind: str,
        options: dict[str, Any] | None = None,
        first: str = "random",
        rated: bool = True,
        days_per_move: int | None = None,
        opponent_is_bot: bool = False,
        rematch_of: int | None = None,
        clock: str | TimeControl | None = None,
    ) -> Challenge:
        """Record a challenge from ``challenger_id`` to ``opponent_id`` (``None``: an open
        challenge anyone else may accept) to play ``kind`` with ``options``.

        ``first`` says who takes seat 1 (moves first): ``"challenger"``, ``"opponent"`` (the
        one who accepts) or ``"random"`` (decided on acceptance). ``days_per_move`` is 1..14
        (``None``: :data:`~bot.manager.core.DEFAULT_DAYS_PER_MOVE` unless ``clock`` is given).
        ``clock`` (issue 13), when given, is the game's clock instead: a
        :class:`~bot.rules.timecontrol.TimeControl` or a text :func:`bot.rules.timecontrol.parse` reads
        (a preset name such as ``"bank 7d + 1d (max 10d)"``); the days per move are then kept
        as the nearest whole number of days (1..14) for older readers. Both given, and the
        clock is not that many days a move: :class:`ClockConflict` (issue 19).
        The challenge expires after ``limits.challenge_ttl`` seconds.

        Raises :class:`NotAllowed` (challenging yourself or a bot), :class:`UserError`
        (unknown game, bad options with the engine's message, bad ``first`` or days;
        :class:`ClockConflict`),
        :class:`DuplicateChallenge` (the challenger has an open challenge to the same
        opponent -- or an open offer to anyone -- for the same game in this server, whatever
        its options) and :class:`LimitReached` (too many open challenges or active games).
        """
        spec = self._kind(kind)
        if opponent_id is not None:
            if opponent_id == challenger_id:
                raise NotAllowed(Refusal.SELF_CHALLENGE)
            if opponent_is_bot:
                raise NotAllowed(Refusal.BOT_OPPONENT)
        opts, tc, days_per_move = self._game_terms(spec, options, first, days_per_move, clock)
        now = self.clock()
        async with self.store.transaction():
            await self._refuse_duplicate(guild_id, challenger_id, opponent_id, spec, now)
            n = await self.challenges_repo.count_open_by(challenger_id, now)
            if n >= self.limits.open_challenges:
                raise LimitReached(Refusal.TOO_MANY_CHALLENGES, count=n, most=self.limits.open_challenges)
            n = await self.games_repo.count_active_of(challenger_id)
            if n >= self.limits.active_games:
                raise LimitReached(Refusal.TOO_MANY_GAMES, count=n, most=self.limits.active_games)
            cid = await self.challenges_repo.insert(
                guild_id=guild_id, channel_id=channel_id, challenger_id=challenger_id,
                opponent_id=opponent_id, kind=spec.key, options=json.dumps(opts), first=first,
                rated=rated, created_at=now, expires_at=now + self.limits.challenge_ttl,
                days_per_move=days_per_move, rematch_of=rematch_of, clock=tc.to_text(),
            )
            row = await self.challenges_repo.get(cid)
        return self._challenge(cast(Row, row))  # just inserted

    async def _refuse_duplicate(self, guild_id: int, challenger_id: int, opponent_id: int | None,
                                spec: engine.GameKind, now: float) -> None:
        """Raise :class:`DuplicateChallenge` when ``challenger_id`` already has an open
        challenge to ``opponent_id`` (``None``: an open offer to anyone) for game ``spec`` in
        ``guild_id``. Options, days and rating do not matter: a second one would only ping the
        same person again; to change the terms, cancel the open one first (issue 9)."""
        row = await self.challenges_repo.open_duplicate(guild_id, challenger_id, opponent_id, spec.key, now)
        if row is None:
            return
        raise DuplicateChallenge(self._challenge(row))

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        """Remember the Discord message that shows the challenge. Raises NotFound."""
        cid = self._id(challenge_id, "challenge")
        if await self.challenges_repo.set_message(cid, message_id) != 1:
            raise NotFound(Refusal.NO_SUCH_CHALLENGE)

    async def get_challenge(self, challenge_id: int) -> Challenge:
        """The challenge ``challenge_id``. Raises NotFound."""
        cid = self._id(challenge_id, "challenge")
        row = await self.challenges_repo.get(cid)
        if row is None:
            raise NotFound(Refusal.NO_SUCH_CHALLENGE)
        return self._challenge(row)

    async def visible_challenge(self, user_id: int, challenge_id: int, *, guild_id: int | None) -> Challenge:
        """Challenge ``challenge_id`` as a button pressed by ``user_id`` in server ``guild_id``
        may see it: a challenge of that server, or in a DM with the bot (``guild_id``
        ``None``) one ``user_id`` sent or was sent. Anything else raises :class:`NotFound`
        (:attr:`Refusal.NO_SUCH_CHALLENGE`), as for an unknown number."""
        c = await self.get_challenge(challenge_id)
        seen = (c.guild_id == guild_id if guild_id is not None
                else user_id in (c.challenger_id, c.opponent_id))
        if not seen:
            raise NotFound(Refusal.NO_SUCH_CHALLENGE)
        return c

    async def challenge_and_game(self, challenge_id: int) -> tuple[Challenge, Game | None]:
        """The challenge ``challenge_id`` and, once accepted, its game (``None`` before, or
        when the game is gone). Raises NotFound for an unknown challenge."""
        c = await self.get_challenge(challenge_id)
        if c.status != "accepted" or c.game_id is None:
            return c, None
        row = await self.games_repo.get(c.game_id)
        return c, None if row is None else self._game(row)

    async def accept_challenge(self, challenge_id: int, user_id: int) -> Game:
        """``user_id`` accepts: the new game (``(await accept(...)).game``; see :meth:`accept`)."""
        return (await self.accept(challenge_id, user_id)).game

    async def accept(self, challenge_id: int, user_id: int) -> Accepted:
        """``user_id`` accepts: the game is created and the challenge marked accepted in one
        transaction, which also reads everything the first board needs (:class:`Accepted`). Seats follow the challenge's ``first`` (random: the injected ``rng``).

        Only the challenged player may accept (anyone but the challenger for an open
        challenge). Raises NotFound, :class:`NotAllowed` (the challenger or a stranger),
        :class:`StaleAction` (no longer open, expired -- even before the sweep ran -- or
        accepted by someone else a moment ago) and :class:`LimitReached` (either player has
        too many active games).

        The game's first board (ply 0, pinging the player to move) is queued in the outbox in
        the same transaction (an announcement of kind ``"move"``; its id from
        :meth:`pending_board`, or ``announcement_id``), so a crash between accepting and posting it loses nothing:
        the Accept handler posts it and marks it delivered, else the bot's delivery pass does.
        So is the your-turn DM to the player to move when they asked for DMs (kind ``"dm"``,
        id from :meth:`pending_dm`). The new game has ``thread_wanted`` set until
        :meth:`set_game_thread` records where its boards go.
        """
        ch = await self.get_challenge(challenge_id)
        if user_id == ch.challenger_id:
            raise NotAllowed(Refusal.OWN_CHALLENGE_ACCEPT)
        now = self.clock()
        self._check_open(ch, now)
        if ch.opponent_id is not None and user_id != ch.opponent_id:
            raise NotAllowed(Refusal.NOT_ADDRESSEE, declining=False)
        if ch.first == "challenger":
            seat1, seat2 = ch.challenger_id, user_id
        elif ch.first == "opponent":
            seat1, seat2 = user_id, ch.challenger_id
        else:
            seat1, seat2 = (
                (ch.challenger_id, user_id) if self.rng.random() < 0.5 else (user_id, ch.challenger_id)
            )
        pos = engine.new_game(ch.kind, **ch.options)
        async with self.store.transaction():
            for uid, challenger in ((user_id, False), (ch.challenger_id, True)):
                n = await self.games_repo.count_active_of(uid)
                if n >= self.limits.active_games:
                    raise LimitReached(Refusal.TOO_MANY_GAMES_TO_ACCEPT, count=n,
                                       most=self.limits.active_games, challenger=challenger)
            started = await self.start_game(
                guild_id=ch.guild_id, channel_id=ch.channel_id, kind=ch.kind, options=ch.options,
                seats=(seat1, seat2), position=pos, rated=ch.rated, challenge_id=ch.id,
                days_per_move=ch.days_per_move, time_control=ch.time_control, now=now)
            gid = started.game.id
            if await self.challenges_repo.accept(ch.id, gid, user_id, now) != 1:
                raise StaleAction(Refusal.CHALLENGE_ANSWERED, challenge=ch)
        accepted = dataclasses.replace(ch, status="accepted", game_id=gid, opponent_id=user_id)
        return Accepted(started.game, accepted, pos, started.ping, started.board_id, started.dm_id,
                        started.to_move_settings)

    async def _answer(self, ch: Challenge, status: str) -> Challenge:
        if await self.challenges_repo.answer(ch.id, status, self.clock()) != 1:
            raise StaleAction(Refusal.CHALLENGE_ANSWERED, challenge=ch)
        return await self.get_challenge(ch.id)

    async def decline_challenge(self, challenge_id: int, user_id: int) -> Challenge:
        """The challenged player declines. Raises NotFound, :class:`NotAllowed` (anyone else;
        an open challenge cannot be declined) and :class:`StaleAction` (no longer open or
        expired)."""
        ch = await self.get_challenge(challenge_id)
        if user_id == ch.challenger_id:
            raise NotAllowed(Refusal.OWN_CHALLENGE_DECLINE)
        if ch.opponent_id is None:
            raise NotAllowed(Refusal.OPEN_CHALLENGE_DECLINE)
        if user_id != ch.opponent_id:
            raise NotAllowed(Refusal.NOT_ADDRESSEE, declining=True)
        self._check_open(ch, self.clock())
        return await self._answer(ch, "declined")

    async def cancel_challenge(self, challenge_id: int, user_id: int) -> Challenge:
        """The challenger withdraws the challenge. Raises NotFound, :class:`NotAllowed`
        (anyone else) and :class:`StaleAction` (no longer open or expired)."""
        ch = await self.get_challenge(challenge_id)
        if user_id != ch.challenger_id:
            raise NotAllowed(Refusal.NOT_CHALLENGER)
        self._check_open(ch, self.clock())
        return await self._answer(ch, "cancelled")

    async def expire_challenges(self) -> list[Challenge]:
        """Mark every open challenge past its expiry time ``"expired"``; returns those
        challenges (so their messages can be updated)."""
        now = self.clock()
        async with self.store.transaction():
            ids = await self.challenges_repo.expire_due(now)
        return [await self.get_challenge(i) for i in ids]

    async def open_challenges(self, user_id: int) -> list[Challenge]:
        """Open, unexpired challenges sent by or to ``user_id`` (oldest first)."""
        rows = await self.challenges_repo.open_for(user_id, self.clock())
        return [self._challenge(r) for r in rows]

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
            game = await self.lookup.get_game(gid)
            seat = game.seat_of(user_id)
            if seat is None:
                raise NotAllowed(Refusal.REMATCH_NOT_PLAYER, game=game)
            if game.status == "active":
                raise StaleAction(Refusal.GAME_STILL_RUNNING, game=game)
            row = await self.challenges_repo.open_rematch(game.id, self.clock())
            taken = await self.challenges_repo.accepted_rematch_game(game.id)
            if taken is not None:
                raise StaleAction(Refusal.REMATCH_TAKEN, game=game, rematch_id=taken)
            if row is not None:
                if row["challenger_id"] == user_id:
                    raise StaleAction(Refusal.REMATCH_OFFERED, game=game, opponent_id=row["opponent_id"],
                                      channel_id=row["channel_id"])
                raise StaleAction(Refusal.REMATCH_OFFERED_TO_YOU, game=game, channel_id=row["channel_id"])
            return await self.create_challenge(
                guild_id=game.guild_id,
                channel_id=game.channel_id,
                challenger_id=user_id,
                opponent_id=game.players[3 - seat],
                kind=game.kind,
                options=game.options,
                first="challenger" if seat == 2 else "opponent",
                rated=game.rated,
                days_per_move=None,  # the clock says it
                rematch_of=game.id,
                clock=game.time_control,
            )

