"""The values the manager returns, by kind: :mod:`.entities` (what is stored: challenges,
games, moves, settings, limits), :mod:`.results` (what one command did), :mod:`.outbox`
(announcements to post), :mod:`.tournaments` (tournaments and leagues, issue 21) and :mod:`.reads` (read models: records, ratings, listings,
profiles). All are frozen dataclasses built from database rows (:class:`bot.manager.core.ManagerCore`
turns rows into them); the bot only reads them. Every name is re-exported here.
"""

from __future__ import annotations

from .entities import Challenge, Game, Limits, MoveRecord, UserSettings
from .outbox import Announcement
from .reads import (
    GameChoice,
    GameRecord,
    GameRef,
    LevelRecord,
    Listing,
    Profile,
    RatingRow,
    Record,
    Standings,
)
from .results import (
    Accepted,
    ClockEvent,
    ConditionalLines,
    GameEnd,
    MovePlan,
    MovePreview,
    MoveResult,
    VacationChange,
)
from .tournaments import (
    Advanced,
    Entrant,
    RoundPairing,
    RoundStarted,
    StandingRow,
    StandingsView,
    Tournament,
    TournamentGame,
    TournamentInfo,
    TournamentLabel,
    TournamentPost,
    Withdrawal,
)

__all__ = [
    "GameChoice",
    "GameRef",
    "Accepted",
    "Advanced",
    "Entrant",
    "RoundPairing",
    "RoundStarted",
    "StandingRow",
    "StandingsView",
    "Tournament",
    "TournamentGame",
    "TournamentInfo",
    "TournamentLabel",
    "TournamentPost",
    "Withdrawal",
    "Announcement",
    "Challenge",
    "ClockEvent",
    "ConditionalLines",
    "Game",
    "GameEnd",
    "GameRecord",
    "LevelRecord",
    "Limits",
    "Listing",
    "MovePlan",
    "MovePreview",
    "MoveRecord",
    "MoveResult",
    "Profile",
    "RatingRow",
    "Record",
    "Standings",
    "UserSettings",
    "VacationChange",
]
