"""The schema of PRAGMA user_version 8 (issues 4-12), for SQLite and PostgreSQL alike.

Tables: challenges, games, moves, user_settings, ratings, rating_changes, announcements (the
outbox), conditionals, reviews -- as :mod:`bot.store.schema` built them step by step, columns
in the same order. Types: Discord ids (guild, channel, thread, message, user) are ``BIGINT``
on PostgreSQL (snowflakes pass 2**31); row ids too (``INTEGER PRIMARY KEY AUTOINCREMENT``, the
rowid, on SQLite); times (UNIX seconds) are double precision; flags stay integers 0/1.

Revision ID: 0001
Revises:
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

# an autoincrementing row id: SQLite's rowid (INTEGER PRIMARY KEY), BIGINT identity elsewhere
ROW_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
SNOWFLAKE = sa.BigInteger()  # a Discord id
TIME = sa.Float()            # UNIX seconds: FLOAT is double precision on PostgreSQL, REAL on SQLite


def _id() -> sa.Column[int]:
    """The ``id`` column of a table with a row id."""
    return sa.Column("id", ROW_ID, primary_key=True, autoincrement=True)


def upgrade() -> None:
    """Create every table and index of schema version 8."""
    sqlite = op.get_context().dialect.name == "sqlite"
    # challenges.game_id and games.challenge_id refer to each other: SQLite takes the
    # reference before the table exists, PostgreSQL gets it added once games exists
    challenge_to_game = [sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
                         sa.ForeignKeyConstraint(["rematch_of"], ["games.id"])] if sqlite else []
    op.create_table(
        "challenges",
        _id(),
        sa.Column("guild_id", SNOWFLAKE, nullable=False),
        sa.Column("channel_id", SNOWFLAKE, nullable=False),
        sa.Column("message_id", SNOWFLAKE),
        sa.Column("challenger_id", SNOWFLAKE, nullable=False),
        sa.Column("opponent_id", SNOWFLAKE),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("options", sa.Text, nullable=False),  # JSON object, validated by the engine
        sa.Column("first", sa.Text, nullable=False),
        sa.Column("rated", sa.Integer, nullable=False, server_default=sa.text("1")),
        sa.Column("status", sa.Text, nullable=False, server_default="open"),
        sa.Column("created_at", TIME, nullable=False),
        sa.Column("expires_at", TIME, nullable=False),
        sa.Column("game_id", ROW_ID),
        sa.Column("days_per_move", sa.Integer, nullable=False, server_default=sa.text("3")),
        sa.Column("rematch_of", ROW_ID),
        sa.Column("clock", sa.Text, nullable=False, server_default="move 3d"),
        sa.CheckConstraint("first IN ('challenger', 'opponent', 'random')"),
        sa.CheckConstraint("rated IN (0, 1)"),
        sa.CheckConstraint("status IN ('open', 'accepted', 'declined', 'cancelled', 'expired')"),
        sa.CheckConstraint("days_per_move BETWEEN 1 AND 14"),
        sa.CheckConstraint("opponent_id IS NULL OR opponent_id <> challenger_id"),
        *challenge_to_game,
        sqlite_autoincrement=True,
    )
    op.create_index("challenges_by_challenger", "challenges", ["challenger_id", "status"])
    op.create_index("challenges_by_status", "challenges", ["status", "expires_at"])
    op.create_table(
        "games",
        _id(),
        sa.Column("guild_id", SNOWFLAKE, nullable=False),
        sa.Column("channel_id", SNOWFLAKE, nullable=False),
        sa.Column("thread_id", SNOWFLAKE),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("options", sa.Text, nullable=False),        # JSON object
        sa.Column("player1_id", SNOWFLAKE, nullable=False),   # seat 1 (moves first)
        sa.Column("player2_id", SNOWFLAKE, nullable=False),   # seat 2
        sa.Column("status", sa.Text, nullable=False, server_default="active"),
        sa.Column("ply", sa.Integer, nullable=False, server_default=sa.text("0")),  # moves played = version
        sa.Column("position_text", sa.Text, nullable=False),  # cache: equals replaying the moves
        sa.Column("winner", sa.Integer),                      # NULL: draw or no result
        sa.Column("reason", sa.Text),
        sa.Column("rated", sa.Integer, nullable=False, server_default=sa.text("1")),
        sa.Column("created_at", TIME, nullable=False),
        sa.Column("updated_at", TIME, nullable=False),
        sa.Column("finished_at", TIME),
        sa.Column("challenge_id", ROW_ID, sa.ForeignKey("challenges.id")),
        sa.Column("days_per_move", sa.Integer, nullable=False, server_default=sa.text("3")),
        sa.Column("deadline", TIME),                          # NULL once the game is over
        sa.Column("reminded_ply", sa.Integer),
        sa.Column("aborted_by", SNOWFLAKE),
        sa.Column("thread_wanted", sa.Integer, nullable=False, server_default=sa.text("1")),
        sa.Column("conditional_ply", sa.Integer),
        sa.Column("clock", sa.Text, nullable=False, server_default="move 3d"),
        sa.Column("bank1", TIME),                             # seconds
        sa.Column("bank2", TIME),
        sa.Column("ai_seat", sa.Integer),
        sa.Column("ai_level", sa.Integer),
        sa.CheckConstraint("status IN ('active', 'finished', 'aborted')"),
        sa.CheckConstraint("ply >= 0"),
        sa.CheckConstraint("winner IN (1, 2)"),
        sa.CheckConstraint("rated IN (0, 1)"),
        sa.CheckConstraint("days_per_move BETWEEN 1 AND 14"),
        sa.CheckConstraint("thread_wanted IN (0, 1)"),
        sa.CheckConstraint("ai_seat IS NULL OR ai_seat IN (1, 2)"),
        sa.CheckConstraint("ai_level IS NULL OR ai_level BETWEEN 1 AND 5"),
        sa.CheckConstraint("player1_id <> player2_id"),
        sqlite_autoincrement=True,
    )
    if not sqlite:
        op.create_foreign_key("challenges_game_id_fkey", "challenges", "games", ["game_id"], ["id"])
        op.create_foreign_key("challenges_rematch_of_fkey", "challenges", "games", ["rematch_of"], ["id"])
    op.create_index("games_by_player1", "games", ["player1_id", "status"])
    op.create_index("games_by_player2", "games", ["player2_id", "status"])
    op.create_index("games_by_thread", "games", ["thread_id"])
    op.create_index("games_by_deadline", "games", ["status", "deadline"])
    op.create_index("games_by_channel", "games", ["channel_id", "thread_id"])
    op.create_table(
        "moves",
        sa.Column("game_id", ROW_ID, sa.ForeignKey("games.id"), nullable=False),
        sa.Column("ply", sa.Integer, nullable=False),    # 1 for the first move
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("move", sa.Text, nullable=False),      # canonical engine notation
        sa.Column("played_at", TIME, nullable=False),
        sa.Column("conditional", sa.Integer, nullable=False, server_default=sa.text("0")),
        sa.PrimaryKeyConstraint("game_id", "ply"),
        sa.CheckConstraint("ply >= 1"),
        sa.CheckConstraint("seat IN (1, 2)"),
        sa.CheckConstraint("conditional IN (0, 1)"),
        sqlite_with_rowid=False,
    )
    op.create_table(
        "user_settings",
        sa.Column("user_id", SNOWFLAKE, primary_key=True, autoincrement=False),
        sa.Column("dm", sa.Integer, nullable=False, server_default=sa.text("0")),
        sa.Column("vacation_until", TIME),
        sa.Column("vacation_year", sa.Integer),
        sa.Column("vacation_used", sa.Float, nullable=False, server_default=sa.text("0")),  # days
        sa.Column("confirm", sa.Integer, nullable=False, server_default=sa.text("0")),
        sa.Column("digest_hour", sa.Integer),
        sa.Column("digest_day", sa.Integer),             # days since 1970-01-01 (UTC)
        sa.CheckConstraint("dm IN (0, 1)"),
        sa.CheckConstraint("confirm IN (0, 1)"),
        sa.CheckConstraint("digest_hour BETWEEN 0 AND 23"),
    )
    op.create_table(
        "ratings",
        sa.Column("guild_id", SNOWFLAKE, nullable=False),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("user_id", SNOWFLAKE, nullable=False),
        sa.Column("rating", sa.Float, nullable=False, server_default=sa.text("1500")),
        sa.Column("games", sa.Integer, nullable=False, server_default=sa.text("0")),  # rated games finished
        sa.Column("rd", sa.Float, nullable=False, server_default=sa.text("350")),
        sa.Column("volatility", sa.Float, nullable=False, server_default=sa.text("0.06")),
        sa.Column("last_played", TIME),
        sa.PrimaryKeyConstraint("guild_id", "kind", "user_id"),
        sqlite_with_rowid=False,
    )
    op.create_index("ratings_by_rating", "ratings", ["guild_id", "kind", sa.text("rating DESC")])
    op.create_table(
        "rating_changes",
        sa.Column("game_id", ROW_ID, sa.ForeignKey("games.id"), nullable=False),
        sa.Column("user_id", SNOWFLAKE, nullable=False),
        sa.Column("before", sa.Float, nullable=False),
        sa.Column("after", sa.Float, nullable=False),
        sa.Column("rd_before", sa.Float),
        sa.Column("rd_after", sa.Float),
        sa.PrimaryKeyConstraint("game_id", "user_id"),
        sqlite_with_rowid=False,
    )
    op.create_table(
        "conditionals",
        sa.Column("game_id", ROW_ID, sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),   # whose replies these are
        sa.Column("tree", sa.Text, nullable=False),      # ConditionalTree.to_json()
        sa.Column("ply", sa.Integer, nullable=False),    # the game's ply when written
        sa.Column("updated_at", TIME, nullable=False),
        sa.PrimaryKeyConstraint("game_id", "seat"),
        sa.CheckConstraint("seat IN (1, 2)"),
        sqlite_with_rowid=False,
    )
    op.create_table(
        "announcements",
        _id(),
        sa.Column("game_id", ROW_ID, sa.ForeignKey("games.id"), nullable=False),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("user_id", SNOWFLAKE, nullable=False),  # who to ping or write to (who lost, for a timeout)
        sa.Column("ply", sa.Integer, nullable=False),     # the game's ply when the row was written
        sa.Column("created_at", TIME, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False, server_default=sa.text("0")),  # failed posts so far
        sa.Column("last_error", sa.Text),                 # why the last post failed (or was given up)
        sa.Column("delivered_at", TIME),                  # NULL: still to post
        sa.CheckConstraint("kind IN ('reminder', 'timeout', 'move', 'dm', 'digest')"),
        sa.CheckConstraint("attempts >= 0"),
        sqlite_autoincrement=True,
    )
    op.create_index("announcements_pending", "announcements", ["id"],
                    sqlite_where=sa.text("delivered_at IS NULL"),
                    postgresql_where=sa.text("delivered_at IS NULL"))
    op.create_table(
        "reviews",
        sa.Column("game_id", ROW_ID, sa.ForeignKey("games.id"), primary_key=True, autoincrement=False),
        sa.Column("review", sa.Text, nullable=False),     # JSON: ai.review.GameReview.to_dict()
        sa.Column("created_at", TIME, nullable=False),
    )
    if sqlite:  # the old numbering's last version, for tools that read it (python -m bot backup)
        op.execute("PRAGMA user_version = 8")


def downgrade() -> None:
    """Not undone: a backup restores an older state."""
    raise NotImplementedError("Stonecast's first revision is not undone: restore a backup instead")
