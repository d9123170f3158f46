"""Look-up: move lists, replays, the games of a player or a server, which game a command
means when ``game:`` is left out, autocomplete, and the text record of a game.

Nothing here writes; the autocomplete methods never raise.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import cast

import engine

from .core import ManagerCore, Service
from .errors import NotFound, Refusal, UserError
from .privacy import PrivacyService
from .settings import SettingsService
from .values import Game, GameChoice, GameRecord, Listing, MoveRecord

__all__ = ["LookupService"]

log = logging.getLogger(__name__)


class LookupService(Service):
    """The reads about games and moves (shared: every use case finds the game a command
    means here -- :meth:`get_game`, :meth:`visible_game`, :meth:`resolve_game`). Uses the
    shared settings (opponents away) and privacy (deleted players' names) services."""

    def __init__(self, core: ManagerCore, settings: SettingsService, privacy: PrivacyService):
        super().__init__(core)
        self.settings = settings
        self.privacy = privacy

    async def get_game(self, game_id: int) -> Game:
        """The game ``game_id``. Raises NotFound."""
        gid = self._id(game_id, "game")
        return self._game(await self._game_row(gid))

    async def moves(self, game_id: int) -> list[MoveRecord]:
        """The move list of game ``game_id`` in order. Raises NotFound."""
        gid = self._id(game_id, "game")
        await self._game_row(gid)
        rows = await self.moves_repo.of_game(gid)
        return [MoveRecord(r["ply"], r["seat"], r["move"], r["played_at"]) for r in rows]

    async def move_at(self, game_id: int, ply: int) -> MoveRecord | None:
        """The move that made ply ``ply`` of game ``game_id`` (1 = the first move), ``None``
        when there is none (ply 0, or not played yet). Raises NotFound for an unknown game."""
        gid = self._id(game_id, "game")
        await self._game_row(gid)
        row = await self.moves_repo.at(gid, ply)
        return None if row is None else MoveRecord(row["ply"], row["seat"], row["move"], row["played_at"])

    async def replay_position(self, game_id: int) -> engine.Position:
        """The position rebuilt from the record of truth: the move list replayed by the
        engine, then the resignation or timeout that ended the game, if any. Raises NotFound."""
        return (await self.positions(game_id))[-1]

    async def positions(self, game_id: int) -> list[engine.Position]:
        """Every position of the game in order, for a replay (GIF): the start, one after each
        move and, for a game ended by resignation or timeout, that final position too.
        Raises NotFound."""
        game = await self.get_game(game_id)
        pos = engine.new_game(game.kind, **game.options)
        out = [pos]
        for m in await self.moves(game.id):
            pos = pos.play(m.move)
            out.append(pos)
        if game.ended_off_the_board and pos.outcome is None:  # resigned or lost on time
            out.append(pos.forfeit(3 - cast(int, game.winner), cast(engine.Termination, game.termination)))
        return out

    async def listing(self, user_id: int, guild_id: int | None = None) -> Listing:
        """/games in one call: the :meth:`active_games` of ``user_id`` with the vacations of
        their opponents who are away now (:class:`Listing`)."""
        games = await self.active_games(user_id, guild_id)
        opponents = sorted({cast(int, g.opponent_of(user_id)) for g in games})  # user_id plays in each
        now = self.clock()
        away = {}
        for row in await self.settings_repo.of_users(opponents):
            until = self.settings.from_row(row, now).vacation_until
            if until is not None:
                away[row["user_id"]] = until
        return Listing(games, away)

    async def active_games(self, user_id: int, guild_id: int | None = None) -> list[Game]:
        """Games in progress that ``user_id`` plays (in ``guild_id`` if given), oldest first."""
        rows = await self.games_repo.active_of(user_id, guild_id)
        return [self._game(r) for r in rows]

    async def complete_server_game(self, guild_id: int) -> list[GameChoice]:
        """The games in progress in server ``guild_id``, newest first, as choices for a
        moderator's /abort (the front words and filters them). Never raises ([] on failure)."""
        try:
            return [GameChoice.of(g) for g in map(self._game, await self.games_repo.active_in_server(guild_id))]
        except Exception:  # noqa: BLE001 - autocomplete must never fail
            log.debug("complete_server_game failed", exc_info=True)
            return []

    async def finished_games(self, user_id: int, guild_id: int | None = None, limit: int = 25) -> list[Game]:
        """The most recent finished or aborted games of ``user_id``, newest first."""
        rows = await self.games_repo.finished_of(user_id, guild_id, limit)
        return [self._game(r) for r in rows]

    @staticmethod
    def _visible(game: Game, user_id: int, guild_id: int | None) -> bool:
        """Whether ``game`` may be seen by ``user_id`` from server ``guild_id`` (``None``: a
        DM with the bot, where only the games they play are)."""
        return game.guild_id == guild_id if guild_id is not None else game.seat_of(user_id) is not None

    async def visible_game(self, user_id: int, game_id: int, *, guild_id: int | None) -> Game:
        """Game ``game_id`` as a command, button or autocomplete used by ``user_id`` in server
        ``guild_id`` may see it -- the one place every game number from Discord is checked.

        In a server (``guild_id`` an id) only that server's games are seen; in a DM with the
        bot (``guild_id`` ``None``) only the games ``user_id`` plays. Anything else -- an
        unknown or impossible number, another server's game, someone else's game in a DM --
        raises :class:`NotFound` with the one :attr:`Refusal.NO_SUCH_GAME`, so the
        answer tells nothing about another server's games, not even that they exist."""
        game = await self.get_game(game_id)  # unknown: NotFound(Refusal.NO_SUCH_GAME) too
        if not self._visible(game, user_id, guild_id):
            raise NotFound(Refusal.NO_SUCH_GAME, game_id=game.id)
        return game

    async def resolve_game(
        self,
        user_id: int,
        *,
        game_id: int | None = None,
        channel_id: int | None = None,
        guild_id: int | None = None,
    ) -> Game:
        """The game a command means when ``game:`` may be omitted.

        ``game_id`` given: that game as :meth:`visible_game` sees it from ``guild_id``
        (``None``: a DM with the bot, only the user's own games). Else, in ``channel_id``, the user's one running game posted there (waiting for
        them first) -- its thread's game, one challenged from inside that thread, or one that
        fell back to a channel without threads -- or, when they play none there, the
        thread's own game. Else the user's only game where it is their turn, or their only
        active game. Otherwise raises :class:`NotFound` (no
        games) or :class:`UserError` naming the ids to choose from.
        """
        if game_id is not None:
            return await self.visible_game(user_id, game_id, guild_id=guild_id)
        if channel_id is not None:
            rows = await self.games_repo.posted_in(channel_id)
            # a channel of another server named from this one shows none of its games (a DM
            # channel holds no games)
            here = [g for g in map(self._game, rows) if guild_id is None or g.guild_id == guild_id]
            # the user's own running games posted here (a thread may also hold a game that
            # was challenged from inside it, or a channel the games that fell back to it)
            mine = [g for g in here if g.status == "active" and g.seat_of(user_id) is not None]
            waiting = [g for g in mine if g.to_move_user == user_id]
            if len(waiting) == 1:
                return waiting[0]
            if len(mine) == 1:
                return mine[0]
            if not mine:
                own = [g for g in here if g.thread_id == channel_id]
                if own:
                    return own[0]  # this thread's game: spectators are told they do not play
        games = await self.active_games(user_id, guild_id)
        if not games:
            raise NotFound(Refusal.NO_GAMES)
        waiting = [g for g in games if g.to_move_user == user_id]
        if len(waiting) == 1:
            return waiting[0]
        if len(games) == 1:
            return games[0]
        if waiting:
            raise UserError(Refusal.CHOOSE_GAME, games=waiting, waiting=True)
        raise UserError(Refusal.CHOOSE_GAME, games=games, waiting=False)

    async def complete_move(
        self,
        user_id: int,
        prefix: str,
        *,
        game_id: int | None = None,
        channel_id: int | None = None,
        guild_id: int | None = None,
        limit: int = 25,
    ) -> list[str]:
        """Legal moves (or first placements of two-placement moves) starting with ``prefix``
        in the game :meth:`resolve_game` picks (only in ``guild_id`` when given), at most
        ``limit`` (<= 25).

        With nothing typed, a legal ``pass`` (Coil, Phase I) comes first, so it is never
        crowded out by the cells. Never raises: ``[]`` when no game resolves, it is not the
        user's turn or anything goes wrong. Uses the cached position (no replay of the move list).
        """
        try:
            game = await self.resolve_game(user_id, game_id=game_id, channel_id=channel_id,
                                           guild_id=guild_id)
            if game.status != "active" or game.seat_of(user_id) is None:
                return []
            pos = game.position
            if pos.to_move is None or game.players[pos.to_move] != user_id:
                return []
            return self._completions(pos, prefix, limit)
        except Exception:  # noqa: BLE001 - autocomplete must never fail
            log.debug("complete_move failed", exc_info=True)
            return []

    @staticmethod
    def _completions(pos: engine.Position, prefix: str, limit: int) -> list[str]:
        """Legal moves of ``pos`` starting with ``prefix``, at most ``limit`` (<= 25); with
        nothing typed a legal ``pass`` comes first, never hidden behind 25 cells."""
        prefix = prefix if isinstance(prefix, str) else ""
        limit = max(0, min(limit, 25))
        moves = pos.complete(prefix, limit=limit)
        if not prefix.strip() and limit and "pass" not in moves and "pass" in pos.complete("pass", limit=1):
            moves = ["pass", *moves[: limit - 1]]
        return moves

    async def complete_moves_by_game(
        self,
        user_id: int,
        prefix: str,
        *,
        channel_id: int | None = None,
        guild_id: int | None = None,
        limit: int = 25,
    ) -> list[tuple[Game, list[str]]]:
        """/move's suggestions when it names no game and none is meant (issue 19): every
        game of ``user_id`` waiting for their move -- in server ``guild_id`` only (``None``:
        a DM, their own games anywhere) -- the least time left first, each with its legal
        moves starting with ``prefix`` (at most ``limit``, <= 25, each; as
        :meth:`complete_move`). ``[]`` when :meth:`resolve_game` picks one game (a thread's,
        the only one waiting): :meth:`complete_move` suggests for that one. Never raises."""
        try:
            try:
                await self.resolve_game(user_id, channel_id=channel_id, guild_id=guild_id)
                return []
            except UserError:  # several games: say which each move is for
                pass
            rows = await self.games_repo.active_of(user_id, guild_id)
            games = [g for g in self._waiting(rows, user_id) if self._visible(g, user_id, guild_id)]
            return [(g, self._completions(g.position, prefix, limit)) for g in games]
        except Exception:  # noqa: BLE001 - autocomplete must never fail
            log.debug("complete_moves_by_game failed", exc_info=True)
            return []

    async def waiting_game(
        self,
        user_id: int,
        *,
        game_id: int | None = None,
        channel_id: int | None = None,
        guild_id: int | None = None,
    ) -> Game | None:
        """The game :meth:`resolve_game` picks for ``user_id`` when they play in it, it is in
        progress and it is the opponent's move -- what /move's suggestions explain instead of
        listing moves. ``None`` otherwise; never raises."""
        try:
            game = await self.resolve_game(user_id, game_id=game_id, channel_id=channel_id,
                                           guild_id=guild_id)
        except Exception:  # noqa: BLE001 - autocomplete must never fail
            return None
        if game.status != "active" or game.seat_of(user_id) is None:
            return None
        to_move = game.to_move_user
        return game if to_move is not None and to_move != user_id else None

    async def complete_game(self, user_id: int, *, include_finished: bool = False,
                            guild_id: int | None = None) -> list[GameChoice]:
        """The games of ``user_id`` (in ``guild_id`` if given) a ``game:`` option may offer, as
        choices (the front words and filters them): those in progress, those waiting for the
        user first, then by number; ``include_finished`` adds recent finished games (for
        /board, /history), each with the players who had their data deleted since. Never
        raises ([] on failure)."""
        try:
            games = await self.active_games(user_id, guild_id)
            if include_finished:
                games += await self.finished_games(user_id, guild_id)
            deleted = await self.privacy.deleted_players(games)  # issue 18: never their old name
            out = [GameChoice.of(g, user_id=user_id, deleted=deleted.get(g.id, frozenset())) for g in games]
            return sorted(out, key=lambda c: (not c.waiting, c.game_id))
        except Exception:  # noqa: BLE001 - autocomplete must never fail
            log.debug("complete_game failed", exc_info=True)
            return []

    async def complete_reviewable_game(self, user_id: int, prefix: str, *,
                                       guild_id: int | None = None) -> list[GameChoice]:
        """/review's ``game:`` choices (issue 19), as data the front words and filters: the
        games that are over after at least one move -- in server ``guild_id`` anyone's (the
        last 100), in a DM (``None``) only ``user_id``'s own -- newest first, each with the
        players who had their data deleted since. A number typed as ``prefix`` adds that
        game first when it is one of these and older. Never raises ([] on failure)."""
        try:
            if guild_id is not None:
                games = [self._game(r) for r in await self.games_repo.reviewable_in_server(guild_id, 100)]
            else:
                games = [g for g in await self.finished_games(user_id, None, 100) if g.ply > 0]
            p = (prefix or "").strip().lower().lstrip("#")
            if p.isdigit() and int(p) not in {g.id for g in games}:
                try:  # an older game named by its number
                    named = await self.visible_game(user_id, int(p), guild_id=guild_id)
                    if named.status != "active" and named.ply > 0:
                        games.insert(0, named)
                except UserError:
                    pass
            deleted = await self.privacy.deleted_players(games)
            return [GameChoice.of(g, deleted=deleted.get(g.id, frozenset())) for g in games]
        except Exception:  # noqa: BLE001 - autocomplete must never fail
            log.debug("complete_reviewable_game failed", exc_info=True)
            return []

    async def server_games(self, guild_id: int) -> list[Game]:
        """Every game in progress in server ``guild_id``, the most recently moved first (for
        ``/games all:true``: games anyone may watch)."""
        rows = await self.games_repo.active_in_server(guild_id, by_last_move=True)
        return [self._game(r) for r in rows]

    async def game_record(self, user_id: int, *, game_id: int | None = None,
                          guild_id: int | None = None) -> GameRecord:
        """/history in one call: the game meant (:meth:`resolve_game`) with its move list
        (:class:`GameRecord`: its text record, the moves of its replay). Raises as
        :meth:`resolve_game`."""
        game = await self.resolve_game(user_id, game_id=game_id, guild_id=guild_id)
        return await self._record(game)

    async def record_text(self, game_id: int, names: Mapping[int, str] | None = None) -> str:
        """The game's text record (:mod:`bot.rules.records`; :meth:`GameRecord.text`). Raises NotFound."""
        return (await self._record(await self.get_game(game_id))).text(names)

    async def _record(self, game: Game) -> GameRecord:
        rows = await self.moves_repo.of_game(game.id)
        return GameRecord(game, tuple(MoveRecord(r["ply"], r["seat"], r["move"], r["played_at"]) for r in rows))

