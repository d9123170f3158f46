"""Stonecast's store: SQLite behind small repositories named for what they hold.

Map:

* :mod:`bot.store.db` -- :class:`Store`: the connection (WAL, ``synchronous=FULL``), one lock,
  transactions (``BEGIN IMMEDIATE``, rolled back on any exception or cancellation);
* :mod:`bot.store.schema` -- the tables and the forward migrations (``PRAGMA user_version``);
* :mod:`bot.store.lock` -- one process per database file (``flock`` on ``<db>.lock``);
* :mod:`bot.store.backup` -- ``python -m bot backup``: a consistent copy of a live database;
* repositories, every SQL statement of the bot: :class:`ChallengeRepo` (challenges),
  :class:`GameRepo` and :class:`MoveRepo` (games, move lists), :class:`ConditionalRepo`
  (conditional moves), :class:`RatingRepo` (ratings
  and rating changes), :class:`OutboxRepo` (announcements still to post),
  :class:`SettingsRepo` (user settings).

The store knows tables and rows, not rules: :mod:`bot.manager` decides what to write.
"""

from __future__ import annotations

from .challenges import ChallengeRepo
from .conditionals import ConditionalRepo
from .db import Store, StoreError
from .games import GameRepo, MoveRepo
from .outbox import OutboxRepo
from .ratings import RatingRepo
from .schema import LATEST_VERSION, MIGRATIONS, Migration
from .settings import SettingsRepo

__all__ = [
    "LATEST_VERSION",
    "MIGRATIONS",
    "ChallengeRepo",
    "ConditionalRepo",
    "GameRepo",
    "Migration",
    "MoveRepo",
    "OutboxRepo",
    "RatingRepo",
    "SettingsRepo",
    "Store",
    "StoreError",
]
