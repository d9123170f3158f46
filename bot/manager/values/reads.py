"""Read models: what the look-ups and ratings return for a listing -- a game's record, rating rows, records, standings, /games, the record against the computer, a profile.

Frozen dataclasses (see :mod:`bot.manager.values`); the bot only reads them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import cast

from ...rules.records import format_record
from .entities import Game, MoveRecord

__all__ = ["GameChoice", "GameRecord", "GameRef", "LevelRecord", "Listing", "Profile", "RatingRow", "Record",
           "Standings"]


@dataclass(frozen=True)
class GameRef:
    """A game named by its kind and number (the texts word it ``"Io #12"``)."""

    kind: str
    game_id: int


@dataclass(frozen=True)
class GameChoice:
    """A game an autocomplete may offer, as data (the front words its label): ``game_id``,
    ``kind``, ``ply`` (moves played), ``status`` (``"active"``, ``"finished"`` or
    ``"aborted"``), ``players`` (the user ids of seats 1 and 2), ``waiting`` (the game waits
    for the asking player's move) and ``deleted`` (the user ids of its players who had their
    data deleted since: never named again, issue 18)."""

    game_id: int
    kind: str
    ply: int
    status: str
    players: tuple[int, int]
    waiting: bool = False
    deleted: frozenset[int] = frozenset()

    @classmethod
    def of(cls, game: Game, *, user_id: int | None = None, deleted: frozenset[int] = frozenset()) -> GameChoice:
        """The choice of ``game`` as ``user_id`` (None: nobody in particular) is offered it."""
        return cls(game.id, game.kind, game.ply, game.status, (game.players[1], game.players[2]),
                   waiting=user_id is not None and game.status == "active" and game.to_move_user == user_id,
                   deleted=deleted)

    def opponent_of(self, user_id: int) -> int | None:
        """The other player's user id, None when ``user_id`` does not play here."""
        first, second = self.players
        return second if user_id == first else first if user_id == second else None


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
        """The game's text record (:mod:`bot.rules.records`): header with game, options, players
        (``names``: seat -> display name, with their user ids; the computer's seat and level
        on a ``Computer:`` line), dates and result in words, then numbered moves in the
        engine's notation. ``bot.rules.records.parse_record`` reads it back for ``engine.replay``."""
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
            computer=None if game.ai_seat is None else cast("tuple[int, int]", (game.ai_seat, game.ai_level)))  # ai_level is set with ai_seat


@dataclass(frozen=True)
class RatingRow:
    """One rating: ``user_id``, ``rating``, rated ``games`` finished; Glicko-2 (issue 13,
    schema version 7): ``rd``, the rating deviation as of when the row was read (grown by
    inactivity), and ``provisional`` (shown with a ``?``: the deviation is above
    :data:`bot.rules.glicko2.PROVISIONAL_RD`). ``rd`` is ``None`` for an Elo rating (older files)."""

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
