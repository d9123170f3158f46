"""The books of tournaments (issue 21): rows to values, finding a tournament by name or id
within a server, results read from the games, and the standings by :mod:`bot.rules.tournaments`.

:class:`TournamentBooks` is the base of :class:`bot.manager.tournaments.TournamentsService`
(split so that no module passes 400 lines); it holds no state of its own beyond the
repository.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace

from ..rules import tournaments as rules
from ..store.db import Row
from ..store.tournaments import TournamentRepo
from .core import Service
from .errors import NotAllowed, NotFound, Refusal, StaleAction, UserError
from .outbox import NONCE_WINDOW
from .values import Game
from .values.tournaments import (
    FORMATS,
    Entrant,
    RoundPairing,
    StandingRow,
    StandingsView,
    Tournament,
    TournamentPost,
)

__all__ = ["MAX_PLAYERS", "MAX_SWISS_ROUNDS", "Ledger", "TournamentBooks", "name_key"]

#: Most players a tournament takes (a league: per season, over all its divisions).
MAX_PLAYERS = 256
#: Most Swiss rounds.
MAX_SWISS_ROUNDS = 20

#: A pairing's stored result -> the rules' outcome (a forfeit: the loser's seat forfeits).
_OUTCOMES = {("seat1", False): rules.Outcome.SEAT1_WIN, ("seat2", False): rules.Outcome.SEAT2_WIN,
             ("seat1", True): rules.Outcome.SEAT2_FORFEIT, ("seat2", True): rules.Outcome.SEAT1_FORFEIT,
             ("draw", False): rules.Outcome.DRAW, ("void", False): rules.Outcome.NO_RESULT,
             ("void", True): rules.Outcome.NO_RESULT}


def name_key(name: str) -> str:
    """A tournament name as compared for uniqueness: spaces collapsed, case-folded."""
    return " ".join(name.split()).casefold()


def game_result(game: Game) -> str | None:
    """The pairing result a game's row means: ``None`` while it runs, ``"void"`` when a
    moderator aborted it (no result), else the winning seat or a draw."""
    if game.status == "active":
        return None
    if game.status == "aborted":
        return "void"
    return {1: "seat1", 2: "seat2"}.get(game.winner or 0, "draw")


@dataclass(frozen=True)
class Ledger:
    """A tournament read at once: the ``tournament``, its ``entrants`` (rows as values, seed
    order), its ``pairings`` and the ``games`` of those pairings (id -> game)."""

    tournament: Tournament
    entrants: tuple[Entrant, ...]
    pairings: tuple[RoundPairing, ...]
    games: dict[int, Game]

    def result(self, p: RoundPairing) -> str | None:
        """``p``'s result: recorded, or read from its finished game."""
        if p.result is not None or p.game_id is None:
            return p.result
        game = self.games.get(p.game_id)
        return None if game is None else game_result(game)

    def record(self, p: RoundPairing) -> rules.GameRecord:
        """``p`` (not a bye) as the rules read it."""
        result = self.result(p)
        outcome = None if result is None else _OUTCOMES[(result, p.forfeit)]
        return rules.GameRecord(p.round, p.seat1, p.seat2 or 0, outcome)

    def active(self, division: int | None = None) -> list[int]:
        """The active entrants in seed order (of one division when given)."""
        return [e.user_id for e in self.entrants if e.status == "active"
                and (division is None or e.division == division)]

    def withdrawn(self) -> set[int]:
        """The withdrawn entrants."""
        return {e.user_id for e in self.entrants if e.status != "active"}

    def after_round(self, round_number: int, withdrawn_since: Collection[int] = ()) -> Ledger:
        """The tournament as it stood when round ``round_number`` ended (what a standings
        post queued then shows, however late it is delivered): running, that round the
        current one, the pairings of later rounds left out, and the players of
        ``withdrawn_since`` (who withdrew later) still active."""
        t = replace(self.tournament, status="running", current_round=round_number)
        entrants = tuple(replace(e, status="active") if e.user_id in withdrawn_since else e for e in self.entrants)
        pairings = tuple(p for p in self.pairings if p.round <= round_number)
        ids = {p.game_id for p in pairings}
        return Ledger(t, entrants, pairings, {k: g for k, g in self.games.items() if k in ids})


class TournamentBooks(Service):
    """Rows to values, look-ups within a server, and standings (see the module)."""

    @property
    def tournaments_repo(self) -> TournamentRepo:
        """The :class:`~bot.store.TournamentRepo` over the shared store."""
        return TournamentRepo(self.store)

    # ---- rows to values --------------------------------------------------------------------
    @staticmethod
    def _tournament(row: Row) -> Tournament:
        return Service._from_row(Tournament, row, options=json.loads(row["options"]), rated=bool(row["rated"]),
                                 entrants=int(row["entrants"] or 0))

    @staticmethod
    def _entrant(row: Row) -> Entrant:
        return Service._from_row(Entrant, row)

    @staticmethod
    def _pairing(row: Row) -> RoundPairing:
        return Service._from_row(RoundPairing, row, forfeit=bool(row["forfeit"]))

    async def _get(self, tournament_id: int) -> Tournament:
        row = await self.tournaments_repo.get(tournament_id)
        if row is None:
            raise NotFound(Refusal.NO_SUCH_TOURNAMENT, name=f"#{tournament_id}")
        return self._tournament(row)

    async def _resolve(self, ref: int | str, guild_id: int) -> Tournament:
        """Tournament ``ref`` (an id, ``"#12"``, ``"12"``, or a name: the live one, else the
        newest) of server ``guild_id``; NotFound otherwise -- also for another server's."""
        row = None
        if isinstance(ref, str):
            key = name_key(ref)
            row = await self.tournaments_repo.live_named(guild_id, key) or await self.tournaments_repo.named(
                guild_id, key)
            text = ref.strip().lstrip("#")
            if row is None and text.isdigit() and len(text) < 19:
                row = await self.tournaments_repo.get(int(text))
        elif isinstance(ref, int) and not isinstance(ref, bool) and 0 < ref < 2**63:
            row = await self.tournaments_repo.get(ref)
        if row is None or row["guild_id"] != guild_id:
            raise NotFound(Refusal.NO_SUCH_TOURNAMENT, name=str(ref))
        return self._tournament(row)

    @staticmethod
    def _check_organiser(t: Tournament, user_id: int, may_organise: bool) -> None:
        """Raise unless ``user_id`` may manage ``t`` (its organiser, or allowed by the
        server), and unless ``t`` is still live."""
        if not (may_organise or user_id == t.organiser_id):
            raise NotAllowed(Refusal.NOT_ORGANISER, tournament=t)
        if not t.live:
            raise StaleAction(Refusal.TOURNAMENT_OVER, tournament=t)

    async def _ledger(self, tournament_id: int) -> Ledger:
        """Everything of one tournament, read at once."""
        t = await self._get(tournament_id)
        entrants = tuple(self._entrant(r) for r in await self.tournaments_repo.entrants(t.id))
        pairings = tuple(self._pairing(r) for r in await self.tournaments_repo.pairings(t.id))
        games = {r["id"]: self._game(r) for r in await self.tournaments_repo.game_rows(t.id)}
        return Ledger(t, entrants, pairings, games)

    @staticmethod
    def _check_format(format: str, rounds: int | None, games_per_match: int, division_size: int, promote: int,
                      min_players: int, max_players: int) -> None:
        """Raise :class:`UserError` for a format's terms out of range (see :meth:`create_tournament`)."""
        def whole(v: object) -> bool:
            return isinstance(v, int) and not isinstance(v, bool)
        if format not in FORMATS:
            raise UserError(Refusal.BAD_FORMAT, formats=FORMATS)
        if not (whole(min_players) and whole(max_players) and 2 <= min_players <= max_players <= MAX_PLAYERS):
            raise UserError(Refusal.BAD_FIELD_SIZE, least=2, most=MAX_PLAYERS)
        if format == "swiss" and rounds is not None and not (whole(rounds) and 1 <= rounds <= MAX_SWISS_ROUNDS):
            raise UserError(Refusal.BAD_ROUNDS, most=MAX_SWISS_ROUNDS)
        if games_per_match not in (1, 2) or not whole(games_per_match) or (
                games_per_match == 2 and format != "knockout"):
            raise UserError(Refusal.BAD_GAMES_PER_MATCH)
        if format == "league" and not (whole(division_size) and whole(promote) and 3 <= division_size <= 16
                                       and 1 <= promote <= (division_size - 1) // 2):
            raise UserError(Refusal.BAD_DIVISION, least=3, most=16)

    # ---- the schedule of round robins ------------------------------------------------------
    @staticmethod
    def _format(t: Tournament) -> rules.TournamentFormat:
        return rules.TournamentFormat(t.format)

    @staticmethod
    def _divisions(ledger: Ledger) -> list[tuple[int | None, list[int]]]:
        """The groups that play a round robin: each league division (all its entrants in
        seed order, withdrawn ones too: their games become forfeits), or the whole field."""
        t = ledger.tournament
        if t.format != "league":
            return [(None, [e.user_id for e in ledger.entrants])]
        numbers = sorted({e.division for e in ledger.entrants if e.division is not None})
        return [(d, [e.user_id for e in ledger.entrants if e.division == d]) for d in numbers]

    def _schedule(self, ledger: Ledger) -> list[tuple[int | None, tuple[rules.Round, ...]]]:
        """Each group's round robin (:func:`bot.rules.tournaments.round_robin`), from the
        seed order fixed at the start."""
        double = ledger.tournament.format == "double_round_robin"
        return [(d, rules.round_robin(players, double=double)) for d, players in self._divisions(ledger)
                if len(players) >= 2]

    def _round_robin_rounds(self, ledger: Ledger) -> int:
        """How many rounds the round robin (every division's, a league's) lasts."""
        return max((len(rounds) for _, rounds in self._schedule(ledger)), default=0)

    # ---- standings -------------------------------------------------------------------------
    def _group_standings(self, ledger: Ledger, division: int | None) -> rules.Standings:
        """The rules' standings of the whole field, or of one league division."""
        t = ledger.tournament
        fmt = self._format(t)
        members = [e for e in ledger.entrants if t.format != "league" or e.division == division]
        ids = {e.user_id for e in members}
        entrants = [rules.Entrant(e.user_id, e.seed_rating) for e in members]
        mine = [p for p in ledger.pairings if p.seat1 in ids]
        games = [ledger.record(p) for p in mine if p.seat2 is not None]
        byes = [rules.Bye(p.round, p.seat1) for p in mine if p.seat2 is None]
        if fmt is rules.TournamentFormat.KNOCKOUT:
            eliminated = self._eliminated(ledger)
            return rules.knockout_standings(entrants, games, eliminated,
                                            rules.knockout_round_count(max(2, len(entrants))))
        if fmt is not rules.TournamentFormat.SWISS and t.status == "running":
            # games not yet started count as games left
            for d, rounds in self._schedule(ledger):
                if d == division:
                    games += [rules.GameRecord(r.number, p.seat1, p.seat2) for r in rounds
                              if r.number > t.current_round for p in r.pairings]
        return rules.standings(fmt, entrants, games, byes)

    def _matches(self, ledger: Ledger, round_number: int) -> list[tuple[rules.Match, list[rules.GameRecord]]]:
        """A knockout round's matches (by board) with their games so far, in order."""
        seeds = [e.user_id for e in ledger.entrants]
        boards: dict[int, list[RoundPairing]] = {}
        for p in ledger.pairings:
            if p.round == round_number:
                boards.setdefault(p.board, []).append(p)
        out: list[tuple[rules.Match, list[rules.GameRecord]]] = []
        for board, rows in sorted(boards.items()):
            first = rows[0]
            if first.seat2 is None:
                out.append((rules.Match(round_number, board - 1, first.seat1, None), []))
                continue
            high, low = sorted((first.seat1, first.seat2), key=seeds.index)
            out.append((rules.Match(round_number, board - 1, high, low), [ledger.record(p) for p in rows]))
        return out

    def _eliminated(self, ledger: Ledger) -> dict[int, int]:
        """Knockout: each player knocked out -> the round they lost."""
        out: dict[int, int] = {}
        for r in range(1, ledger.tournament.current_round + 1):
            for match, games in self._matches(ledger, r):
                state = rules.match_state(match, games, ledger.tournament.games_per_match)
                if state.status is rules.MatchStatus.DECIDED and match.low is not None:
                    out[match.low if state.winner == match.high else match.high] = r
        return out

    def _view(self, ledger: Ledger) -> StandingsView:
        """The standings as the front shows them (a league: division by division)."""
        t = ledger.tournament
        by_id = {e.user_id: e for e in ledger.entrants}
        groups: Sequence[int | None] = ([d for d, _ in self._divisions(ledger)] if t.format == "league"
                                        else [None])
        rows: list[StandingRow] = []
        winners: list[int] = []
        finals: list[list[int]] = []
        for d in groups:
            table = self._group_standings(ledger, d)
            names = tuple(tb.value for tb in table.tie_breaks)
            finals.append([r.player for r in table.rows])
            for r in table.rows:
                e = by_id[r.player]
                rows.append(StandingRow(r.rank, r.player, e.computer_level, e.seed_rating, r.points,
                                        tuple(zip(names, r.tie_breaks, strict=True)), r.played, r.left,
                                        e.status != "active", d))
                if r.rank == 1:
                    winners.append(r.player)
        finished = t.status == "finished"
        promoted: tuple[int, ...] = ()
        relegated: tuple[int, ...] = ()
        if finished and t.format == "league":
            change = self._season_change(ledger, finals)
            if change is not None:
                promoted = tuple(p for group in finals for p in group if p in change.promoted)
                relegated = tuple(p for group in finals for p in group if p in change.relegated)
        return StandingsView(t, tuple(rows), finished, tuple(winners) if finished else (), promoted, relegated)

    # ---- the tournament posts' outbox ------------------------------------------------------
    async def pending_tournament_posts(self, limit: int = 50) -> list[TournamentPost]:
        """Tournament posts not yet delivered, oldest first (at most ``limit``), each with
        what it needs (pairings, standings), claimed for this manager for :attr:`lease`
        seconds as :meth:`pending_announcements` claims its rows."""
        return await self._due_posts(limit)

    async def mark_tournament_post_delivered(self, post_id: int, *, error: str | None = None,
                                             message_id: int | None = None) -> bool:
        """Take post ``post_id`` out of the outbox (posted, or given up with ``error``);
        ``message_id``: the Discord message that delivered it. False when it was delivered
        already; NotFound for an unknown id."""
        pid = self._id(post_id, "announcement")
        n = await self.tournaments_repo.mark_post(pid, self.clock(), None if error is None else str(error)[:500],
                                                  None if message_id is None else int(message_id))
        if n == 1:
            return True
        if not await self.tournaments_repo.post_exists(pid):
            raise NotFound(Refusal.NO_SUCH_ANNOUNCEMENT, announcement_id=pid)
        return False

    async def record_failed_tournament_post(self, post_id: int, error: str) -> int:
        """Count one failed post of ``post_id`` (it stays pending); the failures so far.
        Raises NotFound for an unknown id."""
        pid = self._id(post_id, "announcement")
        async with self.store.transaction():
            attempts = await self.tournaments_repo.post_failed(pid, str(error)[:500])
            if attempts is None:
                raise NotFound(Refusal.NO_SUCH_ANNOUNCEMENT, announcement_id=pid)
        return attempts

    async def _due_posts(self, limit: int) -> list[TournamentPost]:
        """:meth:`~bot.manager.tournaments.TournamentsService.pending_tournament_posts`."""
        now = self.clock()
        out = []
        async with self.store.transaction():
            rows = await self.tournaments_repo.due_posts(max(0, limit), now=now, owner=self.process_id)
            await self.tournaments_repo.claim_posts([r["id"] for r in rows], self.process_id, now + self.lease)
            for r in rows:
                ledger = await self._ledger(r["tournament_id"])
                pairings = tuple(p for p in ledger.pairings if p.round == r["round"]) if r["kind"] == "round" else ()
                games = tuple(ledger.games[p.game_id] for p in pairings if p.game_id in ledger.games)
                standings = None
                if r["kind"] == "standings":  # as after its round, however late it goes out
                    later = await self.tournaments_repo.withdrawn_since(ledger.tournament.id, r["id"])
                    standings = self._view(ledger.after_round(r["round"], later))
                elif r["kind"] == "final":
                    standings = self._view(ledger)
                child = await self.tournaments_repo.child(ledger.tournament.id) if r["kind"] == "final" else None
                recheck = r["claimed_by"] is not None or r["attempts"] > 0 or now - r["created_at"] >= NONCE_WINDOW
                closes = r["kind"] == "round" and r["round"] == 1 or r["kind"] == "cancelled" and r["round"] == 0
                announcement = await self.tournaments_repo.announcement_message(r["tournament_id"]) if closes else None
                out.append(TournamentPost(r["id"], r["kind"], ledger.tournament, r["round"], r["created_at"],
                                          r["attempts"], r["user_id"], pairings, standings,
                                          None if child is None else self._tournament(child), recheck, games,
                                          announcement))
        return out

    @staticmethod
    def _season_change(ledger: Ledger, finals: list[list[int]]) -> rules.SeasonChange | None:
        """The next season of a league from its final standings (``None``: too few remain);
        players who joined during the season (no division yet) are its newcomers."""
        t = ledger.tournament
        newcomers = [e.user_id for e in ledger.entrants if e.status == "active" and e.division is None]
        try:
            return rules.next_season(finals, left=ledger.withdrawn(), newcomers=newcomers,
                                     rules=rules.LeagueRules(t.division_size, t.promote))
        except ValueError:
            return None
