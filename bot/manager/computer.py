"""Games against the computer (issue 12): starting one at once, the computer's turns, its
moves, the record against each level, and cached reviews of finished games.

The manager only keeps the books: the search itself runs in the bot's worker processes
(:mod:`bot.workers.computer`), which hand the chosen move back to :meth:`ComputerService.computer_move`.
The database is the truth -- :meth:`ComputerService.computer_turns` lists every running game where
the computer is to move, so a restarted bot simply asks for those moves again, and the move is
version-checked (``expected_ply``) so it applies exactly once. Several processes on one
database claim each search and review first (:meth:`ComputerService.claim_computer_work`, a
lease in table ``computer_work``, Alembic revision 0003), so one process computes each.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any, cast

import engine

from ..rules.timecontrol import TimeControl
from ..store.db import Row
from .challenges import ChallengesService
from .core import ManagerCore, Service
from .errors import LimitReached, NotAllowed, Refusal, StaleAction, UserError
from .lookup import LookupService
from .play import PlayService
from .values import Accepted, Challenge, Game, GameEnd, LevelRecord, MoveResult

__all__ = ["COMPUTER_LEVELS", "ComputerService", "LevelRecord", "ReviewInput"]

#: The computer's levels (those of ``ai.LEVELS``).
COMPUTER_LEVELS = (1, 2, 3, 4, 5)


@dataclass(frozen=True)
class ReviewInput:
    """What a review of a finished game needs: the ``game``, its ``moves`` (text, in
    order), and its cached review (``cached``: the ``GameReview.to_dict`` value, or None)."""

    game: Game
    moves: tuple[str, ...]
    cached: dict[str, Any] | None


class ComputerService(Service):
    """Games against the computer (started at once, its turns and moves, the claims on its
    work, the record by level) and reviews. Uses the challenges service (a game starts there,
    a rematch against a person is a challenge), the look-up and the play services (its moves
    are played as a person's)."""

    def __init__(self, core: ManagerCore, challenges: ChallengesService, lookup: LookupService,
                 play: PlayService):
        super().__init__(core)
        self.challenges = challenges
        self.lookup = lookup
        self.play = play

    async def start_computer_game(self, *, guild_id: int, channel_id: int, challenger_id: int,
                                  computer_id: int, kind: str, options: dict[str, Any] | None = None,
                                  first: str = "random", level: int = 3, days_per_move: int | None = None,
                                  clock: str | TimeControl | None = None,
                                  rematch_of: int | None = None) -> Accepted:
        """``challenger_id`` plays the computer (user ``computer_id``, the bot) at ``level``:
        the challenge is recorded as accepted and the game created in one transaction, with
        its first board queued -- no Accept. The game is unrated; the computer's turns have
        no deadline. ``first``, ``days_per_move`` and ``clock`` as in :meth:`create_challenge`
        (``first="opponent"``: the computer moves first).

        Returns :class:`Accepted` like :meth:`accept`. Raises :class:`UserError` (unknown game,
        bad options, level not 1-5, bad ``first`` or days; :class:`ClockConflict` for days
        with another clock) and :class:`LimitReached` (the
        player has too many active games).
        """
        spec = self._kind(kind)
        if isinstance(level, bool) or not isinstance(level, int) or level not in COMPUTER_LEVELS:
            raise UserError(Refusal.BAD_LEVEL)
        if challenger_id == computer_id:
            raise NotAllowed(Refusal.COMPUTER_SELF)
        opts, tc, days_per_move = self._game_terms(spec, options, first, days_per_move, clock)
        if first == "random":
            first = "challenger" if self.rng.random() < 0.5 else "opponent"
        seat1, seat2 = ((challenger_id, computer_id) if first == "challenger"
                        else (computer_id, challenger_id))
        ai_seat = 1 if seat1 == computer_id else 2
        pos = engine.new_game(spec.key, **opts)
        now = self.clock()
        async with self.store.transaction():
            n = await self.games_repo.count_active_of(challenger_id)
            if n >= self.limits.active_games:
                raise LimitReached(Refusal.TOO_MANY_GAMES, count=n, most=self.limits.active_games)
            cid = await self.challenges_repo.insert(
                guild_id=guild_id, channel_id=channel_id, challenger_id=challenger_id,
                opponent_id=computer_id, kind=spec.key, options=json.dumps(opts), first=first,
                rated=False, created_at=now, expires_at=now + self.limits.challenge_ttl,
                days_per_move=days_per_move, rematch_of=rematch_of,
                clock=tc.to_text())
            started = await self.challenges.start_game(
                guild_id=guild_id, channel_id=channel_id, kind=spec.key, options=opts,
                seats=(seat1, seat2), position=pos, rated=False, challenge_id=cid,
                days_per_move=days_per_move, time_control=tc, now=now, ai_seat=ai_seat,
                ai_level=level)
            await self.challenges_repo.accept(cid, started.game.id, computer_id, now)
            challenge = self._challenge(cast(Row, await self.challenges_repo.get(cid)))  # just inserted
        return Accepted(started.game, challenge, pos, started.ping, started.board_id, started.dm_id,
                        started.to_move_settings)

    async def offer_rematch(self, game_id: int, user_id: int, computer_id: int, *,
                            guild_id: int | None) -> Challenge | Accepted:
        """Rematch pressed by ``user_id`` in server ``guild_id`` (``None``: a DM) on finished
        game ``game_id``: against the computer (user ``computer_id``) the new game starts at
        once, same kind, options, level and days, seats swapped (:class:`Accepted`); against
        a person it is :meth:`rematch`'s challenge. Raises as :meth:`rematch`, NotFound for a
        game :meth:`visible_game` hides from there (another server's), and
        :class:`StaleAction` when a rematch of this game against the computer was started
        already."""
        game = await self.lookup.visible_game(user_id, game_id, guild_id=guild_id)
        gid = game.id
        if game.ai_seat is None:
            return await self.challenges.rematch(gid, user_id)
        seat = game.seat_of(user_id)
        if seat is None or seat == game.ai_seat:
            raise NotAllowed(Refusal.REMATCH_NOT_PLAYER, game=game)
        if game.status == "active":
            raise StaleAction(Refusal.GAME_STILL_RUNNING, game=game)
        async with self._lock(gid):
            taken = await self.challenges_repo.accepted_rematch_game(game.id)
            if taken is not None:
                raise StaleAction(Refusal.REMATCH_TAKEN, game=game, rematch_id=taken)
            return await self.start_computer_game(
                guild_id=game.guild_id, channel_id=game.channel_id, challenger_id=user_id,
                computer_id=computer_id, kind=game.kind, options=game.options,
                first="challenger" if seat == 2 else "opponent", level=cast(int, game.ai_level),  # set with ai_seat
                days_per_move=None, clock=game.time_control, rematch_of=game.id)

    async def computer_turns(self) -> list[Game]:
        """Running games where the computer is to move, oldest first."""
        out = []
        for row in await self.games_repo.computer_games():
            game = self._game(row)
            if game.position.to_move == game.ai_seat:
                out.append(game)
        return out

    async def computer_move(self, game_id: int, move: str, ply: int) -> MoveResult:
        """Play the computer's ``move``, chosen at ``ply``, in game ``game_id`` (committed, its
        board queued as after a person's move). Raises NotFound, :class:`NotAllowed` (not a
        game against the computer), :class:`GameOver`, :class:`NotYourTurn` (the game moved
        on: the move is dropped) and :class:`InvalidMove`."""
        game = await self.lookup.get_game(game_id)
        if game.ai_seat is None:
            raise NotAllowed(Refusal.NOT_COMPUTER_GAME, game=game)
        return await self.play.play_move(game.id, game.players[game.ai_seat], move, expected_ply=ply)

    # ---- claims (issue 14): one process computes each search and review ------------------
    async def claim_computer_work(self, game_id: int, task: str) -> bool:
        """Claim ``task`` (``"move"``: the search of the computer's move; ``"review"``: the
        review) of game ``game_id`` for this manager (:attr:`process_id`) for :attr:`lease`
        seconds, committed before this returns (so before the search starts). Returns False
        when another process holds it (on PostgreSQL the row is skipped, not waited for,
        ``FOR UPDATE SKIP LOCKED``): that process computes it, or, should it die, another
        claims it once its lease is over (the maintenance pass asks again). The computer's
        move is still checked against its ply when played. Raises ValueError for an unknown
        ``task``."""
        now = self.clock()
        return await self.claims_repo.take(game_id, task, self.process_id, now, now + self.lease)

    async def renew_computer_work(self, game_id: int, task: str) -> bool:
        """Extend this manager's claim on ``task`` of ``game_id`` to :attr:`lease` seconds from
        now (a long search calls it while it runs). False when it no longer holds it."""
        return await self.claims_repo.renew(game_id, task, self.process_id, self.clock() + self.lease)

    async def release_computer_work(self, game_id: int, task: str) -> bool:
        """Release this manager's claim on ``task`` of ``game_id`` (the work is done, given up
        or stopped): another process may take it at once. False when it did not hold it."""
        return await self.claims_repo.release(game_id, task, self.process_id)

    async def computer_gives_up(self, game_id: int) -> GameEnd:
        """Abort game ``game_id`` because the computer could not find a move (its searches
        failed twice): no result, no rating change. The :class:`GameEnd`'s ``by`` is the
        computer, ``ping`` the human. Raises NotFound, :class:`NotAllowed` (not a game
        against the computer) and :class:`GameOver`."""
        game = await self.lookup.get_game(game_id)
        if game.ai_seat is None:
            raise NotAllowed(Refusal.NOT_COMPUTER_GAME, game=game)
        computer = game.players[game.ai_seat]
        end = await self.play.abort_game(game.id, computer)
        return dataclasses.replace(end, ping=(game.players[3 - game.ai_seat],))

    async def computer_records(self, user_id: int, guild_id: int | None = None) -> list[LevelRecord]:
        """``user_id``'s record against each level of the computer they have finished a game
        against (aborted games not counted; in ``guild_id`` if given), by level. For the
        computer itself (the bot's user id): its own results at each level it played, marked
        ``as_computer``, listed after any record against it."""
        return [LevelRecord(r["ai_level"], int(r["wins"] or 0), int(r["losses"] or 0),
                            int(r["draws"] or 0), bool(r["as_computer"]))
                for r in await self.games_repo.computer_records(user_id, guild_id)]

    async def review_input(self, game_id: int, *, user_id: int, guild_id: int | None) -> ReviewInput:
        """Game ``game_id`` as ``user_id`` may see it from server ``guild_id`` (``None``: a DM,
        their own games only; :meth:`visible_game`), its moves and its cached review, for
        /review. Raises NotFound (also for another server's game), and :class:`UserError`
        while the game is still running (only finished games are reviewed) or when it ended
        before its first move."""
        game = await self.lookup.visible_game(user_id, game_id, guild_id=guild_id)
        if game.status == "active":
            raise UserError(Refusal.REVIEW_RUNNING, game=game)
        moves = tuple(m.move for m in await self.lookup.moves(game.id))
        if not moves:
            raise UserError(Refusal.REVIEW_EMPTY, game=game)
        cached = await self.games_repo.get_review(game.id)
        return ReviewInput(game, moves, None if cached is None else json.loads(cached))

    async def cached_review(self, game_id: int) -> dict[str, Any] | None:
        """The cached review of game ``game_id`` (``GameReview.to_dict()``), ``None`` when it
        has none yet -- for the bot's own review work, not for commands (those go through
        :meth:`review_input`). Raises NotFound."""
        game = await self.lookup.get_game(game_id)
        cached = await self.games_repo.get_review(game.id)
        return None if cached is None else json.loads(cached)

    async def save_review(self, game_id: int, review: dict[str, Any]) -> None:
        """Cache the review of finished game ``game_id`` (``GameReview.to_dict()``). Raises
        NotFound."""
        game = await self.lookup.get_game(game_id)
        async with self.store.transaction():
            await self.games_repo.put_review(game.id, json.dumps(review), self.clock())

