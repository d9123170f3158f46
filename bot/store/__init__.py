"""Stonecast's store: SQLite or PostgreSQL behind small repositories named for what they hold.

Map:

* :mod:`bot.store.db` -- :class:`Store`: SQLAlchemy 2 async Core over SQLite (one connection,
  WAL, ``synchronous=FULL``, one lock, ``BEGIN IMMEDIATE``) or PostgreSQL (a pool, a
  connection per transaction); transactions rolled back on any exception or cancellation;
  rows as :class:`~bot.store.db.Row`; :mod:`bot.store.sql` -- what needs no connection (database
  targets and URLs, :class:`~bot.store.sql.Row`, ``?``-placeholder binding);
  :mod:`bot.store.errors` -- :class:`StoreError`, :class:`~bot.store.errors.DatabaseUnreachable`,
  :class:`SchemaNotAtHead`; :mod:`bot.store.migrate` -- the migrations run on an open store
  (the old steps, then Alembic's), Alembic's own log lines quietened;
* :mod:`bot.store.migrations` -- the schema's Alembic history (one for both backends), run
  when the store opens; :mod:`bot.store.schema` -- the older ``PRAGMA user_version`` steps
  that bring a SQLite file of an older Stonecast to version 8 (Alembic's first revision);
* :mod:`bot.store.lock` -- one process per SQLite database file (``flock`` on ``<db>.lock``);
* :mod:`bot.store.backup` -- ``python -m bot backup``: a consistent copy of a live SQLite
  database (PostgreSQL: ``pg_dump``);
* repositories, every SQL statement of the bot (``?`` placeholders, SQL both backends run):
  :class:`ChallengeRepo` (challenges), :class:`GameRepo` and :class:`MoveRepo` (games, move
  lists), :class:`ConditionalRepo` (conditional moves), :class:`RatingRepo` (ratings
  and rating changes), :class:`OutboxRepo` (announcements still to post),
  :class:`ClaimRepo` (claims on the computer opponent's searches and reviews),
  :class:`SettingsRepo` (user settings); :class:`TournamentRepo` (tournaments and leagues, their
  pairings and posts, the server's organiser role; issue 21); :class:`bot.store.names.NamesRepo` (display names)
  and :class:`bot.store.privacy.PrivacyRepo` (one player's own data across the tables, and
  the record of its deletion, issue 18).

The store knows tables and rows, not rules: :mod:`bot.manager` decides what to write.
"""

from __future__ import annotations

from .challenges import ChallengeRepo
from .claims import ClaimRepo
from .conditionals import ConditionalRepo
from .db import Store
from .errors import SchemaNotAtHead, StoreError
from .games import GameRepo, MoveRepo
from .outbox import OutboxRepo
from .ratings import RatingRepo
from .schema import LATEST_VERSION, MIGRATIONS, Migration
from .settings import ServerLanguageRepo, SettingsRepo
from .tournaments import TournamentRepo

__all__ = [
    "LATEST_VERSION",
    "MIGRATIONS",
    "ChallengeRepo",
    "ClaimRepo",
    "ConditionalRepo",
    "GameRepo",
    "Migration",
    "MoveRepo",
    "OutboxRepo",
    "RatingRepo",
    "SchemaNotAtHead",
    "ServerLanguageRepo",
    "SettingsRepo",
    "Store",
    "StoreError",
    "TournamentRepo",
]
