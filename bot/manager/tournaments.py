"""Tournaments and leagues (issue 21): sign-up, games started all at once (a round's, or a
round robin's whole schedule), results feeding the standings, the next Swiss or knockout
round paired by itself, league seasons one after another.

The rules of pairing and standings are :mod:`bot.rules.tournaments`' (pure); this service
keeps the books (tables ``tournaments``, ``tournament_entrants``, ``tournament_pairings``,
``tournament_posts``, ``server_settings``; Alembic revision 0007) and starts the games
through :meth:`~bot.manager.challenges.ChallengesService.start_game`, the one way a game
starts.

Documented rules (the README quotes them):

* **Sign-up.** Anyone in the server joins or leaves until the start; the field is capped at
  ``max_players``. The organiser (its creator, or anyone the front says ``may_organise``:
  Manage Server or the server's organiser role) starts it early -- with at least
  ``min_players`` -- removes a player, enters the computer (one computer entrant per
  tournament: the bot's own user id, at a level 1-5) or cancels it. With ``starts_at`` set it
  starts by itself then (:meth:`advance`), or is cancelled when too few joined.
* **Rounds.** A round robin (single, double: each pair's two games, or a league season's
  divisions) starts **every game of every round at once**, as correspondence events do
  (Little Golem's leagues, Abstract Play's round-robin divisions); each game keeps its round
  (its thread's name says "R<n>"; a ``"round"`` post per round). A Swiss or knockout round
  starts when the last game of the one before ended. A round (a round robin: all its
  rounds, 380 games in a 20-player double one) is paired and its games created in ONE
  transaction with its pairing rows; each round's start is guarded (``current_round`` moves
  on from the round before) and unique constraints (one row per tournament, round and
  board; one per game) make a second pairing of a round fail as a whole: started exactly
  once across restarts, a kill -9 at any point, and several processes (who also claim the
  tournament with a lease). Its posts, first boards and your-turn DMs are outbox rows of
  that transaction.
* **Results.** A win counts 1, a draw ½, a loss 0 -- on the board, by resignation or on time
  alike. A game a moderator aborts has **no result** (``"void"``): it counts for nobody and
  is not replayed. A bye scores as :func:`bot.rules.tournaments.bye_points_for` says: 1 in
  Swiss, 0 in a round robin; in a knockout the top seeds' byes advance them. Games against
  the computer entrant are unrated; tournament games do not count against a player's limit
  of active games.
* **Withdrawal.** Finished games stand. Every running game of the player is lost by
  forfeit (a resignation each) -- in a round robin or league season, whose games all run at
  once, that is every game of theirs not finished yet. A game of theirs not started (a
  pairing made after they withdrew) is a forfeit to the opponent, without a game. In Swiss
  and knockout a withdrawn player is not paired again (in knockout, their opponent-to-be
  advances).
* **Advancing.** :meth:`advance` (called by the maintenance loop; a front may call it with
  ``game_id`` right after a tournament game ended) records results -- the standings count
  each game as it ends, in any round -- and, when the last game in play ended (of the
  current round; of every round in a round robin), starts the next Swiss or knockout round,
  a knockout match's next game (its second, or a tie-break game, one after another), or
  finishes the tournament with its final standings -- a Swiss tournament also when no
  pairing without a rematch is left (it ends after the last complete round) -- and starts a
  league's next season by itself once the last game of every division ended (promotion and
  relegation by :mod:`bot.rules.tournaments`; players who joined during a season enter the
  next one's lowest division). Standings are posted after each Swiss or knockout round (a
  round robin's rounds end in any order: its standings are posted at the end). Each
  tournament is claimed with a lease first, so one process advances it.
* **Cancelling** stops the tournament: its running games go on as ordinary games, and no
  further round starts.
"""

from __future__ import annotations

import json
from typing import Any

from ..rules.timecontrol import TimeControl
from ..store.tournaments import Conflict
from .challenges import ChallengesService
from .computer import COMPUTER_LEVELS
from .core import DAY, ManagerCore
from .errors import NotAllowed, Refusal, StaleAction, UserError
from .play import PlayService
from .tournament_books import MAX_PLAYERS, MAX_SWISS_ROUNDS, name_key
from .tournament_rounds import StartedAlready, TournamentRounds
from .values.tournaments import (
    Advanced,
    RoundStarted,
    StandingsView,
    Tournament,
    TournamentGame,
    TournamentInfo,
    TournamentLabel,
    Withdrawal,
)

__all__ = ["MAX_NAME", "MAX_PLAYERS", "MAX_SIGNUP_DAYS", "MAX_SWISS_ROUNDS", "TournamentsService"]

#: Longest tournament name, in characters (autocomplete choices show up to 100; a short name
#: leaves room for the round in a thread's name).
MAX_NAME = 32
#: Latest end of sign-up, in days from now.
MAX_SIGNUP_DAYS = 60
#: The seed rating of the computer entrant at level 3 (150 more or less a level).
COMPUTER_RATING = 1500.0
#: Most advance steps of one tournament in one :meth:`TournamentsService.advance` call.
MAX_STEPS = 8


class TournamentsService(TournamentRounds):
    """Tournaments and leagues: create, join, leave, list, info, standings, a player's games,
    the organiser's start / remove / cancel / add the computer, withdraw; rounds (a round
    robin's: all of them) started at once and advanced by :meth:`advance`; the tournament
    posts' outbox. Uses the challenges service (a game starts there) and the play service
    (a withdrawal's forfeit). See the module docstring for the rules.

    Every method taking ``tournament`` takes its id (an int, or ``"#12"``/``"12"``) or its
    name, looked up within server ``guild_id`` only (another server's tournaments are
    unknown: :attr:`Refusal.NO_SUCH_TOURNAMENT`)."""

    def __init__(self, core: ManagerCore, challenges: ChallengesService, play: PlayService):
        super().__init__(core)
        self.challenges = challenges
        self.play = play

    # ---- server settings -------------------------------------------------------------------
    async def set_organiser_role(self, guild_id: int, role_id: int | None) -> None:
        """Set the role of server ``guild_id`` whose members may organise tournaments
        (``None``: only Manage Server). The front checks that the caller has Manage Server."""
        async with self.store.transaction():
            await self.tournaments_repo.set_organiser_role(guild_id, role_id)

    async def organiser_role(self, guild_id: int) -> int | None:
        """The organiser role of server ``guild_id`` (``None``: none set)."""
        return await self.tournaments_repo.organiser_role(guild_id)

    # ---- sign-up ---------------------------------------------------------------------------
    async def create_tournament(
        self, *, guild_id: int, channel_id: int, organiser_id: int, may_organise: bool, name: str,
        kind: str, options: dict[str, Any] | None = None, clock: str | TimeControl | None = None,
        days_per_move: int | None = None, rated: bool = True, format: str = "round_robin",
        rounds: int | None = None, games_per_match: int = 1, division_size: int = 8,
        promote: int = 2, min_players: int = 2, max_players: int = 16,
        starts_at: float | None = None,
    ) -> Tournament:
        """Create a tournament in sign-up, its ``"opened"`` post (the announcement with the
        Join button) queued in the same transaction.

        ``may_organise``: the front's word that ``organiser_id`` has Manage Server or the
        server's organiser role. ``name``: 1..:data:`MAX_NAME` characters (spaces trimmed),
        not the name of another live tournament of the server (case-insensitively).
        ``kind``/``options``/``clock``/``days_per_move`` as :meth:`create_challenge` checks
        them. ``format`` one of :data:`~bot.manager.values.tournaments.FORMATS`; ``rounds``:
        Swiss rounds 1..:data:`MAX_SWISS_ROUNDS` (``None``: enough for the field, log2 of the
        players rounded up, fixed at the start); ``games_per_match`` 1 or 2 (knockout);
        ``division_size`` 3..16 and ``promote`` 1..(division_size - 1) // 2 (league).
        ``min_players`` 2.. ``max_players`` ..:data:`MAX_PLAYERS`; ``starts_at``: end of
        sign-up (UNIX seconds, within :data:`MAX_SIGNUP_DAYS`), ``None`` to start by hand.

        Raises :class:`NotAllowed` (:attr:`Refusal.NOT_ORGANISER`) and :class:`UserError`
        (name length or taken, format, field size, rounds, games per match, division, start,
        and the game-term refusals of a challenge)."""
        if not may_organise:
            raise NotAllowed(Refusal.NOT_ORGANISER, tournament=None)
        shown = " ".join(str(name).split()) if isinstance(name, str) else ""
        if not 1 <= len(shown) <= MAX_NAME:
            raise UserError(Refusal.TOURNAMENT_NAME_LENGTH, most=MAX_NAME)
        spec = self._kind(kind)
        opts, tc, days = self._game_terms(spec, options, "random", days_per_move, clock)
        self._check_format(format, rounds, games_per_match, division_size, promote, min_players, max_players)
        now = self.clock()
        if starts_at is not None and not now < starts_at <= now + MAX_SIGNUP_DAYS * DAY:
            raise UserError(Refusal.BAD_START, most_days=MAX_SIGNUP_DAYS)
        values: dict[str, Any] = {
            "guild_id": guild_id, "channel_id": channel_id, "name": shown, "name_key": name_key(shown),
            "organiser_id": organiser_id, "kind": spec.key, "options": json.dumps(opts), "clock": tc.to_text(),
            "days_per_move": days, "rated": int(bool(rated)), "format": format,
            "rounds": rounds if format == "swiss" else None, "games_per_match": games_per_match,
            "division_size": division_size, "promote": promote, "min_players": min_players,
            "max_players": max_players, "starts_at": starts_at, "created_at": now}
        try:
            async with self.store.transaction():
                if await self.tournaments_repo.live_named(guild_id, name_key(shown)) is not None:
                    raise UserError(Refusal.TOURNAMENT_NAME_TAKEN, name=shown)
                tid = await self.tournaments_repo.insert(values)
                await self.tournaments_repo.add_post(tid, "opened", 0, now)
        except Conflict:  # another process took the name a moment ago
            raise UserError(Refusal.TOURNAMENT_NAME_TAKEN, name=shown) from None
        return await self._get(tid)

    async def join_tournament(self, tournament: int | str, user_id: int, *, guild_id: int) -> TournamentInfo:
        """``user_id`` joins during sign-up (seeded by their rating in the tournament's game
        here), or a running league season: they enter the next season's lowest division.
        Raises NotFound, :class:`StaleAction` (:attr:`Refusal.SIGNUP_CLOSED`) and
        :class:`UserError` (:attr:`~Refusal.ALREADY_ENTERED`, :attr:`~Refusal.TOURNAMENT_FULL`)."""
        t = await self._resolve(tournament, guild_id)
        now = self.clock()
        async with self.store.transaction():
            t = await self._signup(t.id, next_season=True)
            if await self.tournaments_repo.entrant(t.id, user_id) is not None:
                raise UserError(Refusal.ALREADY_ENTERED, tournament=t)
            if t.entrants >= t.max_players:
                raise UserError(Refusal.TOURNAMENT_FULL, tournament=t, most=t.max_players)
            await self.tournaments_repo.add_entrant(t.id, user_id, rating=await self._rating(t, user_id), now=now)
        return await self.tournament_info(t.id, guild_id=guild_id)

    async def leave_tournament(self, tournament: int | str, user_id: int, *, guild_id: int) -> TournamentInfo:
        """``user_id`` leaves during sign-up. Raises NotFound, :class:`StaleAction`
        (:attr:`Refusal.SIGNUP_CLOSED`: after the start, withdraw instead) and
        :class:`UserError` (:attr:`~Refusal.NOT_ENTERED`)."""
        t = await self._resolve(tournament, guild_id)
        async with self.store.transaction():
            t = await self._signup(t.id)
            if await self.tournaments_repo.remove_entrant(t.id, user_id) != 1:
                raise UserError(Refusal.NOT_ENTERED, tournament=t)
        return await self.tournament_info(t.id, guild_id=guild_id)

    async def enter_computer(self, tournament: int | str, user_id: int, *, guild_id: int,
                             may_organise: bool, computer_id: int, level: int) -> TournamentInfo:
        """The organiser ``user_id`` enters the computer (the bot, user ``computer_id``) at
        ``level`` (1-5, :data:`~bot.manager.computer.COMPUTER_LEVELS`) during sign-up: its
        games are played by the computer's workers like any game against it. Raises
        NotFound, :class:`NotAllowed` (not the organiser), :class:`StaleAction` (sign-up
        over) and :class:`UserError` (bad level, :attr:`~Refusal.COMPUTER_ENTERED`, full)."""
        if isinstance(level, bool) or not isinstance(level, int) or level not in COMPUTER_LEVELS:
            raise UserError(Refusal.BAD_LEVEL)
        t = await self._resolve(tournament, guild_id)
        self._check_organiser(t, user_id, may_organise)
        now = self.clock()
        async with self.store.transaction():
            t = await self._signup(t.id)
            if any(e.computer_level is not None or e.user_id == computer_id
                   for e in map(self._entrant, await self.tournaments_repo.entrants(t.id))):
                raise UserError(Refusal.COMPUTER_ENTERED, tournament=t)
            if t.entrants >= t.max_players:
                raise UserError(Refusal.TOURNAMENT_FULL, tournament=t, most=t.max_players)
            await self.tournaments_repo.add_entrant(t.id, computer_id, rating=COMPUTER_RATING + 150 * (level - 3),
                                                    now=now, computer_level=level)
        return await self.tournament_info(t.id, guild_id=guild_id)

    # ---- reading ---------------------------------------------------------------------------
    async def tournaments(self, guild_id: int, *, live_only: bool = False) -> list[Tournament]:
        """The tournaments of server ``guild_id``, live ones first, newest first within
        each (``live_only``: sign-up and running only)."""
        return [self._tournament(r) for r in await self.tournaments_repo.of_guild(guild_id, live_only=live_only)]

    async def complete_tournament(self, guild_id: int, typed: str, *, live_only: bool = False,
                                  limit: int = 25) -> list[Tournament]:
        """Autocomplete: tournaments of server ``guild_id`` whose name contains ``typed``
        (case-insensitively), as :meth:`tournaments` orders them, at most ``limit``."""
        typed_key = name_key(typed or "")
        found = [t for t in await self.tournaments(guild_id, live_only=live_only) if typed_key in name_key(t.name)]
        return found[:max(0, limit)]

    async def get_tournament(self, tournament: int | str, *, guild_id: int) -> Tournament:
        """The tournament ``tournament`` of server ``guild_id``. Raises NotFound
        (:attr:`Refusal.NO_SUCH_TOURNAMENT`; also for another server's)."""
        return await self._resolve(tournament, guild_id)

    async def tournament_info(self, tournament: int | str, *, guild_id: int) -> TournamentInfo:
        """The tournament with its entrants and the pairings in play: its current round's
        (every round's for a round robin, whose rounds all start at once). Raises NotFound."""
        t = await self._resolve(tournament, guild_id)
        entrants = tuple(self._entrant(r) for r in await self.tournaments_repo.entrants(t.id)
                         if r["status"] == "active" or t.status != "signup")
        rows = await self.tournaments_repo.pairings(t.id, None if t.all_at_once else t.current_round)
        pairings = tuple(self._pairing(r) for r in rows) if t.current_round else ()
        return TournamentInfo(t, entrants, pairings)

    async def tournament_standings(self, tournament: int | str, *, guild_id: int) -> StandingsView:
        """The standings now (results of finished games; running games count as left),
        ranked by :mod:`bot.rules.tournaments`. Raises NotFound."""
        t = await self._resolve(tournament, guild_id)
        return self._view(await self._ledger(t.id))

    async def my_tournament_games(self, tournament: int | str, user_id: int, *,
                                  guild_id: int) -> list[TournamentGame]:
        """``user_id``'s pairings in the tournament, by round, each with its game. Raises
        NotFound (the tournament) -- a player with none gets ``[]``."""
        t = await self._resolve(tournament, guild_id)
        ledger = await self._ledger(t.id)
        return [TournamentGame(p, None if p.game_id is None else ledger.games.get(p.game_id))
                for p in ledger.pairings if user_id in (p.seat1, p.seat2)]

    async def game_tournament(self, game_id: int) -> TournamentLabel | None:
        """The tournament and round of game ``game_id`` (for its thread's name), ``None`` for
        a game outside tournaments."""
        row = await self.tournaments_repo.of_game(game_id)
        if row is None:
            return None
        return TournamentLabel(row["tournament_id"], row["name"], row["round"],
                               row["season"] if row["format"] == "league" else None)

    # ---- the organiser ---------------------------------------------------------------------
    async def start_tournament(self, tournament: int | str, user_id: int, *, guild_id: int,
                               may_organise: bool) -> RoundStarted:
        """The organiser starts it now: the field is seeded, round 1 paired and its games
        started in one transaction (a round robin's every round: the result's ``round`` 1 to
        ``last_round``). Raises NotFound, :class:`NotAllowed` (not the
        organiser), :class:`StaleAction` (not in sign-up) and :class:`UserError`
        (:attr:`~Refusal.TOO_FEW_PLAYERS`)."""
        t = await self._resolve(tournament, guild_id)
        self._check_organiser(t, user_id, may_organise)
        if t.status != "signup":
            raise StaleAction(Refusal.SIGNUP_CLOSED, tournament=t)
        least = max(2, t.min_players)
        if t.entrants < least:
            raise UserError(Refusal.TOO_FEW_PLAYERS, tournament=t, count=t.entrants, least=least)
        try:
            return await self._begin(t.id, self.clock())
        except (StartedAlready, Conflict):
            raise StaleAction(Refusal.SIGNUP_CLOSED, tournament=await self._get(t.id)) from None

    async def remove_entrant(self, tournament: int | str, user_id: int, player_id: int, *,
                             guild_id: int, may_organise: bool) -> TournamentInfo:
        """The organiser removes ``player_id``: during sign-up they leave the field; while it
        runs they are withdrawn (see :meth:`withdraw`). Raises NotFound, :class:`NotAllowed`,
        :class:`StaleAction` (over) and :class:`UserError` (not entered, withdrawn already)."""
        t = await self._resolve(tournament, guild_id)
        self._check_organiser(t, user_id, may_organise)
        if t.status == "signup":
            async with self.store.transaction():
                t = await self._signup(t.id)
                if await self.tournaments_repo.remove_entrant(t.id, player_id) != 1:
                    raise UserError(Refusal.NOT_ENTERED, tournament=t)
        else:
            await self._withdraw(t, player_id)
        return await self.tournament_info(t.id, guild_id=guild_id)

    async def cancel_tournament(self, tournament: int | str, user_id: int, *, guild_id: int,
                                may_organise: bool) -> Tournament:
        """The organiser cancels it (its ``"cancelled"`` post queued): no further round
        starts; running games go on as ordinary games. Raises NotFound, :class:`NotAllowed`
        and :class:`StaleAction` (over already)."""
        t = await self._resolve(tournament, guild_id)
        self._check_organiser(t, user_id, may_organise)
        async with self.store.transaction():
            if await self.tournaments_repo.set_status(t.id, "cancelled", was=("signup", "running")) != 1:
                raise StaleAction(Refusal.TOURNAMENT_OVER, tournament=await self._get(t.id))
            await self.tournaments_repo.add_post(t.id, "cancelled", t.current_round, self.clock())
        return await self._get(t.id)

    # ---- players ---------------------------------------------------------------------------
    async def withdraw(self, tournament: int | str, user_id: int, *, guild_id: int) -> Withdrawal:
        """``user_id`` withdraws from a running tournament (the module's rule: finished games
        stand, every running game of theirs -- in a round robin all their unfinished games --
        is lost by forfeit, no more Swiss/knockout pairings). Raises NotFound, :class:`StaleAction`
        (:attr:`~Refusal.TOURNAMENT_NOT_RUNNING`: in sign-up leave instead, or over) and
        :class:`UserError` (not entered, withdrawn already)."""
        t = await self._resolve(tournament, guild_id)
        return await self._withdraw(t, user_id)

    # ---- running it ------------------------------------------------------------------------
    async def advance(self, *, game_id: int | None = None) -> list[Advanced]:
        """One step of every tournament that has something to do: sign-ups whose
        ``starts_at`` passed start (or are cancelled when too few joined); finished games'
        results are recorded (forfeits of withdrawn players' running games too); a Swiss or
        knockout round whose last game ended leads to the next round's start, the last game
        of a round robin (of every division of a league season) to the final standings and,
        for a league, the next season. Each tournament is claimed with a lease first (one
        process does it; several may call this at once) and each change is one transaction
        with its posts. ``game_id``: only the tournament of that game (a front calls it right
        after a tournament game ended; nothing for another game). Returns what was done, one
        entry per step taken."""
        now = self.clock()
        if game_id is not None:
            row = await self.tournaments_repo.of_game(game_id)
            ids = [] if row is None else [row["tournament_id"]]
        else:
            ids = await self.tournaments_repo.to_advance(now)
        done = []
        for tid in ids:
            if not await self.tournaments_repo.claim(tid, self.process_id, now, now + self.lease):
                continue  # another process advances it
            try:
                for _ in range(MAX_STEPS):
                    step = await self._advance_one(tid, self.clock())
                    if step is None:
                        break
                    done.append(step)
            finally:
                await self.tournaments_repo.release(tid, self.process_id)
        return done
