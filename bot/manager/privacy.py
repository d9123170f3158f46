"""A player's own data (issue 18, /privacy): what Stonecast stores about them, and deleting
it on request.

Deleting (:meth:`PrivacyService.forget_player`) removes, in one transaction, the player's
stored display name, settings, conditional lines, private notes and analysis boards
(issue 23), ratings (every server: a rating is derived
from finished games, and those stay), the challenges naming them that never became a game,
and the direct messages to them in the outbox; it records the deletion in
``forgotten_players`` (Alembic 0006). Finished games stay, with the player shown as "deleted
player" (:data:`bot.texts.DELETED_PLAYER`) in every game created up to the deletion
(:meth:`PrivacyService.deleted_players`): the bot never asks Discord for that name again. It is
refused while the player has games in progress (they finish or resign them first): a running
game needs its players' names on its boards and cannot show "deleted player" halfway.

Playing again is the player's choice: games created after the deletion show their name as
usual (it is stored again when they challenge, accept or move), and the older games keep
showing "deleted player". A second deletion moves the record's time to the later one.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..store.privacy import PrivacyRepo
from .core import ManagerCore, Service
from .errors import NotAllowed, Refusal
from .settings import SettingsService
from .values import Game, GameRef, UserSettings

__all__ = ["Forgotten", "PrivacyService", "StoredData", "StoredRating"]


@dataclass(frozen=True)
class StoredRating:
    """One rating row of a player: server ``guild_id``, game ``kind``, Glicko-2 ``rating``
    and deviation ``rd``, rated ``games`` finished."""

    guild_id: int
    kind: str
    rating: float
    rd: float
    games: int


@dataclass(frozen=True)
class StoredData:
    """Everything Stonecast stores about ``user_id`` (/privacy show), every server alike.

    ``display_name`` and ``name_seen_at`` (UNIX seconds): the name the bot saw last
    (``None``: none stored); ``settings``: their settings row as it means now (``None``: no
    row, the defaults); ``conditional_games``: ids of the games where they have conditional
    lines stored; ``ratings``; ``challenges_sent`` and ``challenges_received``: challenges
    naming them that never became a game (open, declined, withdrawn or lapsed);
    ``dms_queued`` and ``dms_sent``: direct messages to them in the outbox; ``running_games``:
    their games in progress (kind and number); ``finished_games``: how many finished or
    aborted games they played; ``forgotten_at``: when they last had their data deleted
    (``None``: never)."""

    user_id: int
    display_name: str | None
    name_seen_at: float | None
    settings: UserSettings | None
    conditional_games: tuple[int, ...]
    ratings: tuple[StoredRating, ...]
    challenges_sent: int
    challenges_received: int
    dms_queued: int
    dms_sent: int
    running_games: tuple[GameRef, ...]
    finished_games: int
    forgotten_at: float | None
    notes: int = 0  # private notes on games (/note, issue 23)

    @property
    def stores_anything(self) -> bool:
        """Whether anything that /privacy delete removes is stored."""
        return bool(self.display_name is not None or self.settings is not None or self.conditional_games
                    or self.ratings or self.challenges_sent or self.challenges_received
                    or self.dms_queued or self.dms_sent or self.notes)


@dataclass(frozen=True)
class Forgotten:
    """What :meth:`PrivacyService.forget_player` removed for ``user_id`` at ``at`` (UNIX
    seconds): rows of each kind; ``finished_games`` kept (showing "deleted player")."""

    user_id: int
    at: float
    names: int
    settings: int
    conditionals: int
    ratings: int
    challenges: int
    dms: int
    finished_games: int
    notes: int = 0  # private notes on games (issue 23)
    analysis_boards: int = 0  # analysis boards (issue 23)


class PrivacyService(Service):
    """A player's own data: :meth:`stored_data`, :meth:`forget_player` and
    :meth:`deleted_players` (shared with the look-ups that label finished games). Uses the
    shared settings service."""

    def __init__(self, core: ManagerCore, settings: SettingsService):
        super().__init__(core)
        self.settings = settings

    async def stored_data(self, user_id: int) -> StoredData:
        """Everything stored about ``user_id`` (:class:`StoredData`), in every server.
        Raises NotFound for a bad id."""
        user_id = self._id(user_id, "user")
        repo = PrivacyRepo(self.store)
        async with self.store.transaction():  # one consistent picture
            name = await repo.name(user_id)
            settings_row = await self.settings_repo.get(user_id)
            conditional_games = await repo.conditional_games(user_id)
            ratings = await repo.ratings(user_id)
            challenges = await repo.challenges(user_id)
            dms = await repo.count_dms(user_id)
            game_rows = await repo.games(user_id)
            running = [self._game(r) for r in await self.games_repo.active_of(user_id)]
            forgotten = (await repo.forgotten([user_id])).get(user_id)
            notes = await repo.count_notes(user_id)
        return StoredData(
            user_id=user_id,
            display_name=name["display_name"] if name is not None else None,
            name_seen_at=name["updated_at"] if name is not None else None,
            settings=self.settings.from_row(settings_row, self.clock()) if settings_row is not None else None,
            conditional_games=tuple(conditional_games),
            ratings=tuple(StoredRating(r["guild_id"], r["kind"], r["rating"], r["rd"], r["games"])
                          for r in ratings),
            challenges_sent=sum(1 for c in challenges if c["sent"]),
            challenges_received=sum(1 for c in challenges if not c["sent"]),
            dms_queued=int(dms["queued"]),
            dms_sent=int(dms["sent"]),
            running_games=tuple(GameRef(g.kind, g.id) for g in running),
            finished_games=sum(1 for r in game_rows if r["status"] != "active"),
            forgotten_at=forgotten,
            notes=notes,
        )

    async def forget_player(self, user_id: int) -> Forgotten:
        """Delete what is stored about ``user_id`` (see the module docstring) and record the
        deletion, in one transaction. Raises :class:`NotAllowed` naming their games in
        progress while they have any (nothing is deleted), NotFound for a bad id."""
        user_id = self._id(user_id, "user")
        repo = PrivacyRepo(self.store)
        now = self.clock()
        async with self.store.transaction():
            running = [self._game(r) for r in await self.games_repo.active_of(user_id)]
            if running:
                raise NotAllowed(Refusal.GAMES_RUNNING, games=running)
            finished = sum(1 for r in await repo.games(user_id) if r["status"] != "active")
            result = Forgotten(
                user_id=user_id, at=now,
                names=await repo.delete_name(user_id),
                settings=await repo.delete_settings(user_id),
                conditionals=await repo.delete_conditionals(user_id),
                ratings=await repo.delete_ratings(user_id),
                challenges=await repo.delete_challenges(user_id),
                dms=await repo.delete_dms(user_id),
                finished_games=finished,
                notes=await repo.delete_notes(user_id),
                analysis_boards=await repo.delete_analysis_boards(user_id),
            )
            await repo.mark_forgotten(user_id, now)
        return result

    async def deleted_players(self, games: list[Game]) -> dict[int, frozenset[int]]:
        """For each of ``games`` that is over: the ids of its players to show as "deleted
        player" -- those who had their data deleted at or after the game was created (game id
        -> user ids; games with none left out). Games in progress are never looked up: a
        deletion is refused while the player has one, so every game it concerns was over
        before it."""
        over = [g for g in games if g.status != "active"]
        if not over:
            return {}
        forgotten = await PrivacyRepo(self.store).forgotten(
            sorted({uid for g in over for uid in g.players.values()}))
        out: dict[int, frozenset[int]] = {}
        for g in over:
            gone = frozenset(uid for uid in g.players.values()
                             if uid in forgotten and g.created_at <= forgotten[uid])
            if gone:
                out[g.id] = gone
        return out
