"""Ratings: Glicko-2 (issue 13) when a rated game ends, leaderboards, ranks and profiles.

Ratings are per server and game kind; they change in the transaction that ends a rated game
(:func:`bot.rules.glicko2.rate_game`: one game is one rating period). A rating is provisional (a
``?``) while its deviation, grown by inactivity, is above :data:`bot.rules.glicko2.PROVISIONAL_RD`;
leaderboards list established ratings first (:func:`bot.rules.glicko2.leaderboard_key`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..rules import glicko2
from ..store.db import Row
from .core import ManagerCore, Service
from .values import Game, Profile, RatingRow, Record, Standings

if TYPE_CHECKING:
    from .computer import ComputerService
    from .lookup import LookupService

__all__ = ["ProfileService", "RatingsService"]


def _glicko(row: Row) -> glicko2.Rating:
    return glicko2.Rating(row["rating"], row["rd"], row["volatility"], row["games"], row["last_played"])


class RatingsService(Service):
    """Ratings (shared: a game that ends rated is rated here, by :meth:`rate`, inside the
    transaction that ends it), rating changes, leaderboards and ranks."""

    def row(self, row: Row, now: float) -> RatingRow:
        """The :class:`RatingRow` of a ``ratings`` row at ``now`` (deviation grown by then)."""
        r = _glicko(row)
        return RatingRow(row["user_id"], r.rating, r.games, r.rd_at(now), r.provisional(now))

    async def rate(self, game: Game, winner: int | None) -> dict[int, tuple[float, float]]:
        """Rating update for a rated game that ends now (inside the ending transaction);
        returns user id -> (rating before, rating after), as :meth:`rating_changes` will."""
        now = self.clock()
        before = {}
        for seat in (1, 2):
            row = await self.ratings_repo.get_glicko(game.guild_id, game.kind, game.players[seat])
            before[seat] = glicko2.Rating() if row is None else _glicko(row)
        after = dict(zip((1, 2), glicko2.rate_game(before[1], before[2], winner, now), strict=True))
        changes = {}
        for seat in (1, 2):
            uid, b, a = game.players[seat], before[seat], after[seat]
            await self.ratings_repo.record_glicko(
                game.id, game.guild_id, game.kind, uid, before=b.rating, rd_before=b.rd_at(now),
                after=a.rating, rd_after=a.rd, volatility=a.volatility, games=a.games, at=now)
            changes[uid] = (b.rating, a.rating)
        return changes

    async def rating_changes(self, game_id: int) -> dict[int, tuple[float, float]]:
        """user id -> (rating before, rating after) for a finished rated game ({} otherwise)."""
        gid = self._id(game_id, "game")
        rows = await self.ratings_repo.changes(gid)
        return {r["user_id"]: (r["before"], r["after"]) for r in rows}

    async def _ranked(self, guild_id: int, kind: str) -> list[RatingRow]:
        """Every rated player of ``kind`` in ``guild_id`` in leaderboard order: established
        ratings first, then the highest (then more games, then the lower user id)."""
        now = self.clock()
        rows = [self.row(r, now) for r in await self.ratings_repo.all_rated(guild_id, kind)]
        return sorted(rows, key=lambda r: (r.provisional, -r.rating, -r.games, r.user_id))

    async def leaderboard(self, guild_id: int, kind: str, limit: int = 10) -> list[RatingRow]:
        """The top ``limit`` ratings of game ``kind`` in ``guild_id``: established ratings
        first, then highest first (with rated games played). Raises UserError for an unknown
        game."""
        spec = self._kind(kind)
        return (await self._ranked(guild_id, spec.key))[:max(0, limit)]

    async def rank(self, guild_id: int, kind: str, user_id: int) -> tuple[int, RatingRow] | None:
        """``user_id``'s place on the :meth:`leaderboard` of ``kind`` in ``guild_id`` (1 is
        the top, same order) with their row; ``None`` when they have no rated game of it
        there. Raises UserError for an unknown game."""
        spec = self._kind(kind)
        for place, row in enumerate(await self._ranked(guild_id, spec.key), 1):
            if row.user_id == user_id:
                return place, row
        return None

    async def standings(self, guild_id: int, kind: str, user_id: int, limit: int = 10) -> Standings:
        """/leaderboard in one call: the :meth:`leaderboard` of ``kind`` in ``guild_id`` and,
        when ``user_id`` is rated there but not in the top ``limit``, their :meth:`rank`.
        Raises UserError for an unknown game."""
        rows = await self.leaderboard(guild_id, kind, limit)
        if any(row.user_id == user_id for row in rows):
            return Standings(rows, None, True)
        mine = await self.rank(guild_id, kind, user_id)
        return Standings(rows, mine, mine is not None)


class ProfileService(Service):
    """/profile: a player's ratings, records, active games and record against the computer
    (reads of :class:`RatingsService`, :class:`~bot.manager.lookup.LookupService` and
    :class:`~bot.manager.computer.ComputerService`)."""

    def __init__(self, core: ManagerCore, ratings: RatingsService, lookup: LookupService,
                 computer: ComputerService):
        super().__init__(core)
        self.ratings = ratings
        self.lookup = lookup
        self.computer = computer

    async def profile(self, guild_id: int, user_id: int) -> Profile:
        """Ratings per kind (with their deviation), win/loss/draw record per kind (finished
        games, rated or not), active games and the record against each level of the computer
        of ``user_id`` in ``guild_id``."""
        now = self.clock()
        rows = await self.ratings_repo.of_player_glicko(guild_id, user_id)
        ratings = {r["kind"]: self.ratings.row(r, now) for r in rows}
        tally: dict[str, list[int]] = {}
        for r in await self.games_repo.results_of(guild_id, user_id):
            t = tally.setdefault(r["kind"], [0, 0, 0])
            seat = 1 if r["player1_id"] == user_id else 2
            if r["winner"] is None:
                t[2] += 1
            elif r["winner"] == seat:
                t[0] += 1
            else:
                t[1] += 1
        records = {k: Record(*v) for k, v in sorted(tally.items())}
        return Profile(guild_id, user_id, ratings, records, await self.lookup.active_games(user_id, guild_id),
                       await self.computer.computer_records(user_id, guild_id))
