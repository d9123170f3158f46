"""Running tournaments (issue 21): starting a round (a round robin: every round at once) -- its
pairing rows and all its games in one transaction, guarded so it happens once -- and one
advance step of a tournament (results recorded, the next round paired, the end and a
league's next season).

:class:`TournamentRounds` is a base of :class:`bot.manager.tournaments.TournamentsService`
(split so that no module passes 400 lines); the rules are in that module's docstring.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

import engine

from ..rules import timecontrol
from ..rules import tournaments as rules
from ..store.tournaments import Conflict
from .challenges import ChallengesService
from .errors import Refusal, StaleAction, UserError
from .play import PlayService
from .tournament_books import Ledger, TournamentBooks
from .values import Game
from .values.tournaments import Advanced, RoundPairing, RoundStarted, Tournament, Withdrawal

__all__ = ["Board", "StartedAlready", "TournamentRounds"]

#: One game (or bye) to start: (board, game number in its match, division, seat 1, seat 2 or
#: ``None`` for a bye).
Board = tuple[int, int, int | None, int, int | None]

#: The rating a player without one in the game and server is seeded with (Glicko-2's start).
UNRATED = 1500.0


class StartedAlready(Exception):  # noqa: N818 - the state found
    """The round was started by another transaction (the guard changed no row)."""


class TournamentRounds(TournamentBooks):
    """Round starts and advance steps (see the module). The concrete service gives
    ``challenges`` (games start there) and ``play`` (a withdrawal's forfeit)."""

    challenges: ChallengesService
    play: PlayService

    async def _signup(self, tournament_id: int, *, next_season: bool = False) -> Tournament:
        """Inside a transaction: the tournament as stored, refused unless in sign-up (with
        ``next_season``, a running league season too: a player joining it waits for the next
        season, in its lowest division)."""
        t = await self._get(tournament_id)
        if t.status != "signup" and not (next_season and t.format == "league" and t.status == "running"):
            raise StaleAction(Refusal.SIGNUP_CLOSED, tournament=t)
        return t

    async def _withdraw(self, t: Tournament, user_id: int) -> Withdrawal:
        """Withdraw ``user_id`` from running ``t`` (a ``"withdrawn"`` post with it), then
        forfeit every running game of theirs (a resignation each -- in a round robin, all
        their unfinished games; the next :meth:`advance` does it should this process die in
        between)."""
        if t.status != "running":
            raise StaleAction(Refusal.TOURNAMENT_OVER if not t.live else Refusal.TOURNAMENT_NOT_RUNNING,
                              tournament=t)
        async with self.store.transaction():
            row = await self.tournaments_repo.entrant(t.id, user_id)
            if row is None:
                raise UserError(Refusal.NOT_ENTERED, tournament=t)
            if await self.tournaments_repo.withdraw_entrant(t.id, user_id) != 1:
                raise UserError(Refusal.ALREADY_WITHDRAWN, tournament=t)
            await self.tournaments_repo.add_post(t.id, "withdrawn", t.current_round, self.clock(), user_id)
        forfeited = []
        for g in (await self._ledger(t.id)).games.values():
            if g.status == "active" and user_id in g.players.values():
                try:
                    forfeited.append(await self.play.resign(g.id, user_id))
                except UserError:
                    pass  # it ended meanwhile
        return Withdrawal(await self._get(t.id), user_id, tuple(forfeited))

    # ---- seeds ------------------------------------------------------------------------------
    async def _rating(self, t: Tournament, user_id: int) -> float:
        """``user_id``'s rating in ``t``'s game and server now (:data:`UNRATED` without one)."""
        row = await self.ratings_repo.get_glicko(t.guild_id, t.kind, user_id)
        return UNRATED if row is None else float(row["rating"])

    # ---- games -----------------------------------------------------------------------------
    async def _new_game(self, t: Tournament, seat1: int, seat2: int, levels: dict[int, int | None],
                        now: float) -> Game:
        """Inside the caller's transaction: the game of a pairing, started through
        :meth:`ChallengesService.start_game` (an accepted challenge row stands for the
        pairing; the computer's seat when one of them is the computer entrant, unrated)."""
        ai_seat = 1 if levels.get(seat1) else 2 if levels.get(seat2) else None
        ai_level = None if ai_seat is None else levels[seat1 if ai_seat == 1 else seat2]
        rated = t.rated and ai_seat is None
        cid = await self.challenges_repo.insert(
            guild_id=t.guild_id, channel_id=t.channel_id, challenger_id=seat1, opponent_id=seat2,
            kind=t.kind, options=json.dumps(t.options), first="challenger", rated=rated, created_at=now,
            expires_at=now, days_per_move=t.days_per_move, rematch_of=None, clock=t.clock)
        started = await self.challenges.start_game(
            guild_id=t.guild_id, channel_id=t.channel_id, kind=t.kind, options=t.options, seats=(seat1, seat2),
            position=engine.new_game(t.kind, **t.options), rated=rated, challenge_id=cid,
            days_per_move=t.days_per_move, time_control=timecontrol.parse(t.clock), now=now,
            ai_seat=ai_seat, ai_level=ai_level)
        await self.challenges_repo.accept(cid, started.game.id, seat2, now)
        return started.game

    async def _open_boards(self, ledger: Ledger, round_number: int, boards: Sequence[Board], now: float,
                           ) -> list[Game]:
        """Inside the caller's transaction: a pairing row for each of ``boards`` -- a bye, a
        forfeit (a withdrawn player's game is not played: their opponent wins it), or a new
        game. Raises :class:`Conflict` when a board was paired already."""
        t = ledger.tournament
        levels = {e.user_id: e.computer_level for e in ledger.entrants}
        out = set(ledger.withdrawn())
        games = []
        for board, game_no, division, seat1, seat2 in boards:
            if seat2 is None:
                await self.tournaments_repo.add_pairing(t.id, round_number, board, seat1, None, game_no=game_no,
                                                        division=division, result="bye")
            elif seat1 in out or seat2 in out:
                result = "void" if seat1 in out and seat2 in out else "seat2" if seat1 in out else "seat1"
                await self.tournaments_repo.add_pairing(t.id, round_number, board, seat1, seat2, game_no=game_no,
                                                        division=division, result=result, forfeit=True)
            else:
                game = await self._new_game(t, seat1, seat2, levels, now)
                await self.tournaments_repo.add_pairing(t.id, round_number, board, seat1, seat2, game_no=game_no,
                                                        division=division, game_id=game.id)
                games.append(game)
        return games

    async def _open_round(self, ledger: Ledger, round_number: int, boards: Sequence[Board], now: float, *,
                          rounds: int | None = None) -> RoundStarted:
        """Inside the caller's transaction: round ``round_number`` of ``ledger``'s tournament
        -- the guard (the current round must be the one before; ``rounds`` stored when
        given), its boards, its ``"round"`` post (after the last round's ``"standings"``).
        Raises :class:`StartedAlready` or :class:`Conflict` when it was started already."""
        t = ledger.tournament
        if await self.tournaments_repo.advance_round(t.id, round_number, rounds=rounds) != 1:
            raise StartedAlready
        games = await self._open_boards(ledger, round_number, boards, now)
        if round_number > 1 and not t.all_at_once:  # all at once: no round ends before the next
            await self.tournaments_repo.add_post(t.id, "standings", round_number - 1, now)
        post_id = await self.tournaments_repo.add_post(t.id, "round", round_number, now)
        fresh = await self._get(t.id)
        pairings = tuple(self._pairing(r) for r in await self.tournaments_repo.pairings(t.id, round_number))
        return RoundStarted(fresh, round_number, pairings, tuple(games), post_id)

    # ---- pairing the next round ------------------------------------------------------------
    def _robin_boards(self, ledger: Ledger, round_number: int) -> list[Board]:
        """Round ``round_number`` of the round robin (every division's, in a league)."""
        boards: list[Board] = []
        for division, rounds in self._schedule(ledger):
            if round_number > len(rounds):
                continue
            r = rounds[round_number - 1]
            boards += [(0, 1, division, p.seat1, p.seat2) for p in r.pairings]
            boards += [(0, 1, division, b, None) for b in r.byes]
        return [(n, g, d, s1, s2) for n, (_, g, d, s1, s2) in enumerate(boards, 1)]

    @staticmethod
    def _round_boards(r: rules.Round) -> list[Board]:
        """A paired Swiss round's boards, its bye last."""
        boards: list[Board] = [(0, 1, None, p.seat1, p.seat2) for p in r.pairings]
        boards += [(0, 1, None, b, None) for b in r.byes]
        return [(n, g, d, s1, s2) for n, (_, g, d, s1, s2) in enumerate(boards, 1)]

    @staticmethod
    def _match_boards(matches: Sequence[rules.Match], games_per_match: int) -> list[Board]:
        """The first game of each knockout match (a bye for a match without ``low``)."""
        boards: list[Board] = []
        for m in matches:
            if m.low is None:
                boards.append((m.slot + 1, 1, None, m.high, None))
                continue
            game = rules.match_state(m, [], games_per_match).next_game
            assert game is not None  # a match with two players and no games needs its first
            boards.append((m.slot + 1, 1, None, game.seat1, game.seat2))
        return boards

    def _swiss_boards(self, ledger: Ledger, round_number: int) -> list[Board] | None:
        """Swiss round ``round_number`` from the games so far (``None``: no legal pairing is
        left -- the tournament ends after the last complete round, the rules' documented
        answer -- or fewer than two players are still in)."""
        seeds = [rules.Entrant(e.user_id, e.seed_rating) for e in ledger.entrants if e.status == "active"]
        if len(seeds) < 2:
            return None
        games = [ledger.record(p) for p in ledger.pairings if p.seat2 is not None]
        byes = [rules.Bye(p.round, p.seat1) for p in ledger.pairings if p.seat2 is None]
        try:
            return self._round_boards(rules.pair_swiss(seeds, games, byes, round_number))
        except rules.NoLegalPairing:
            return None

    # ---- one advance step ------------------------------------------------------------------
    async def _begin(self, tournament_id: int, now: float) -> RoundStarted:
        """Start a tournament in sign-up: seeds (and a league's divisions) fixed, round 1
        opened, in one transaction. Raises :class:`StartedAlready` when it started meanwhile."""
        async with self.store.transaction():
            ledger = await self._ledger(tournament_id)
            t = ledger.tournament
            if t.status != "signup":
                raise StartedAlready
            seeded = sorted([(await self._rating(t, e.user_id) if e.computer_level is None else e.seed_rating,
                              -e.joined_at, e.user_id) for e in ledger.entrants], reverse=True)
            order = [uid for _, _, uid in seeded]
            division: dict[int, int | None] = {uid: None for uid in order}
            if t.format == "league":
                groups = rules.first_season(order, rules.LeagueRules(t.division_size, t.promote))
                division = {uid: d for d, group in enumerate(groups, 1) for uid in group}
            for rating, _, uid in seeded:
                await self.tournaments_repo.set_seed(t.id, uid, rating, division[uid])
            return await self._first_round(await self._ledger(t.id), now)

    async def _first_round(self, ledger: Ledger, now: float) -> RoundStarted:
        """Inside the caller's transaction: round 1 of a seeded tournament."""
        t = ledger.tournament
        players = [e.user_id for e in ledger.entrants]
        if t.format == "swiss":
            rounds = t.rounds or max(1, math.ceil(math.log2(len(players))))
            return await self._open_round(ledger, 1, self._swiss_boards(ledger, 1) or [], now, rounds=rounds)
        if t.format == "knockout":
            return await self._open_round(ledger, 1, self._match_boards(rules.first_round(players),
                                                                         t.games_per_match), now)
        return await self._open_schedule(ledger, now)

    async def _open_schedule(self, ledger: Ledger, now: float) -> RoundStarted:
        """Inside the caller's transaction: every round of a round robin (every division's,
        a league's) at once, each guarded and posted as :meth:`_open_round` does; what
        started, as one :class:`RoundStarted` (``round`` 1 to ``last_round``)."""
        last = max(1, self._round_robin_rounds(ledger))
        started = [await self._open_round(ledger, r, self._robin_boards(ledger, r), now) for r in range(1, last + 1)]
        first = started[0]
        return RoundStarted(started[-1].tournament, first.round,
                            tuple(p for s in started for p in s.pairings),
                            tuple(g for s in started for g in s.games), first.post_id, started[-1].round)

    async def _advance_one(self, tournament_id: int, now: float) -> Advanced | None:
        """One advance step of one tournament (claimed by the caller); ``None``: nothing done."""
        ledger = await self._ledger(tournament_id)
        t = ledger.tournament
        if t.status == "signup":
            if t.starts_at is None or t.starts_at > now:
                return None
            if t.entrants < t.min_players:
                async with self.store.transaction():
                    if await self.tournaments_repo.set_status(t.id, "cancelled", was=("signup",)) != 1:
                        return None
                    await self.tournaments_repo.add_post(t.id, "cancelled", 0, now)
                return Advanced(await self._get(t.id), cancelled=True)
            try:
                started = await self._begin(t.id, now)
            except (StartedAlready, Conflict):
                return None
            return Advanced(started.tournament, started=started)
        if t.status != "running":
            return None
        ledger = await self._settle(ledger, now)
        if any(ledger.result(p) is None for p in self._in_play(ledger)):
            return None
        try:
            async with self.store.transaction():
                fresh = await self._ledger(t.id)  # another step may have moved it on meanwhile
                if fresh.tournament.current_round != t.current_round or fresh.tournament.status != "running" or any(
                        fresh.result(p) is None for p in self._in_play(fresh)) or any(
                        p.round > t.current_round for p in fresh.pairings):  # PostgreSQL reads each statement
                    return None  # afresh: the rows of a round another step started may show before its number
                return await self._next(fresh, now)
        except (StartedAlready, Conflict):
            return None

    @staticmethod
    def _in_play(ledger: Ledger) -> list[RoundPairing]:
        """The pairings whose results the next step waits for: every one of a round robin
        (all its rounds play at once), else the current round's."""
        t = ledger.tournament
        return [p for p in ledger.pairings if t.all_at_once or p.round == t.current_round]

    async def _settle(self, ledger: Ledger, now: float) -> Ledger:
        """Forfeit the running games of withdrawn players (resignations) and record every
        finished game's result on its pairing; the ledger as it is then."""
        out = ledger.withdrawn()
        changed = False
        for p in ledger.pairings:
            game = ledger.games.get(p.game_id) if p.game_id is not None else None
            if game is None or game.status != "active":
                continue
            for uid in (p.seat1, p.seat2):
                if uid in out:
                    try:
                        await self.play.resign(game.id, uid)
                        changed = True
                    except UserError:
                        pass  # it ended meanwhile
                    break
        if changed:
            ledger = await self._ledger(ledger.tournament.id)
        todo = [(p, r) for p in ledger.pairings if p.result is None and p.game_id is not None
                and (r := ledger.result(p)) is not None]
        if not todo:
            return ledger
        async with self.store.transaction():
            for p, result in todo:
                row = next(r for r in await self.tournaments_repo.pairings(p.tournament_id, p.round)
                           if r["board"] == p.board and r["game_no"] == p.game_no)
                await self.tournaments_repo.set_result(row["id"], result)
        return await self._ledger(ledger.tournament.id)

    async def _next(self, ledger: Ledger, now: float) -> Advanced | None:
        """Inside a transaction, the current round complete: the next round, more knockout
        games, or the end."""
        t = ledger.tournament
        nxt = t.current_round + 1
        if t.format == "swiss":
            boards = self._swiss_boards(ledger, nxt) if t.current_round < (t.rounds or 0) else None
            if boards is None:
                return await self._finish(ledger, now)
            started = await self._open_round(ledger, nxt, boards, now)
            return Advanced(started.tournament, started=started)
        if t.format == "knockout":
            return await self._knockout_next(ledger, now)
        if t.current_round >= self._round_robin_rounds(ledger):
            return await self._finish(ledger, now)
        started = await self._open_round(ledger, nxt, self._robin_boards(ledger, nxt), now)
        return Advanced(started.tournament, started=started)

    async def _knockout_next(self, ledger: Ledger, now: float) -> Advanced | None:
        """A knockout round whose games all ended: a match's next game (the second, or a
        tie-break), else the next round, else (the final decided) the end."""
        t = ledger.tournament
        matches = self._matches(ledger, t.current_round)
        winners: list[int] = []
        more: list[Board] = []
        for match, games in matches:
            state = rules.match_state(match, games, t.games_per_match)
            if state.status is rules.MatchStatus.NEEDS_GAME:
                assert state.next_game is not None  # NEEDS_GAME names it
                more.append((match.slot + 1, len(games) + 1, None, state.next_game.seat1, state.next_game.seat2))
            elif state.winner is not None:
                winners.append(state.winner)
        if more:
            await self._open_boards(ledger, t.current_round, more, now)
            return Advanced(t)
        if len(matches) <= 1:
            return await self._finish(ledger, now)
        seeds = [e.user_id for e in ledger.entrants]
        following = rules.next_round([m for m, _ in matches], winners, seeds)
        started = await self._open_round(ledger, t.current_round + 1,
                                         self._match_boards(following, t.games_per_match), now)
        return Advanced(started.tournament, started=started)

    async def _finish(self, ledger: Ledger, now: float) -> Advanced | None:
        """Inside a transaction: the tournament finished, its ``"final"`` post queued; a
        league's next season created and started in the same transaction."""
        t = ledger.tournament
        if await self.tournaments_repo.set_status(t.id, "finished", was=("running",)) != 1:
            return None
        await self.tournaments_repo.add_post(t.id, "final", t.current_round, now)
        nxt = None
        if t.format == "league":
            nxt = await self._next_season(await self._ledger(t.id), now)
        return Advanced(await self._get(t.id), finished=True, next_season=nxt)

    async def _next_season(self, ledger: Ledger, now: float) -> Tournament | None:
        """Inside a transaction: the next season of a finished league season -- promotion
        and relegation by :func:`bot.rules.tournaments.next_season`, the same terms, round 1
        started. ``None`` when too few players remain."""
        t = ledger.tournament
        finals = [[r.player for r in self._group_standings(ledger, d).rows] for d, _ in self._divisions(ledger)]
        change = self._season_change(ledger, finals)
        if change is None:
            return None
        values: dict[str, Any] = {
            "guild_id": t.guild_id, "channel_id": t.channel_id, "name": t.name, "name_key": " ".join(
                t.name.split()).casefold(), "organiser_id": t.organiser_id, "kind": t.kind,
            "options": json.dumps(t.options), "clock": t.clock, "days_per_move": t.days_per_move,
            "rated": int(t.rated), "format": t.format, "games_per_match": t.games_per_match,
            "division_size": t.division_size, "promote": t.promote, "min_players": t.min_players,
            "max_players": t.max_players, "season": t.season + 1, "parent_id": t.id, "created_at": now}
        child = await self.tournaments_repo.insert(values)
        levels = {e.user_id: e.computer_level for e in ledger.entrants}
        seeds = {e.user_id: e.seed_rating for e in ledger.entrants}
        for d, group in enumerate(change.divisions, 1):
            for k, uid in enumerate(group):
                rating = seeds.get(uid, UNRATED) if levels.get(uid) else await self._rating(t, uid)
                await self.tournaments_repo.add_entrant(child, uid, rating=rating, now=now + k * 1e-6,
                                                        computer_level=levels.get(uid), division=d)
        started = await self._first_round(await self._ledger(child), now)
        return started.tournament
