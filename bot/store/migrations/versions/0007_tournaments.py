"""Tournaments and leagues (issue 21).

* ``tournaments``: one row per tournament (a league: one per season, ``parent_id`` naming the
  previous season -- UNIQUE, so a season has one successor however often its end is
  processed). ``name_key`` is the name case-folded: a partial unique index keeps it unique
  per server among the live ones (``status`` ``'signup'`` or ``'running'``).
  ``current_round`` is the round started last (0 before the start); starting round r is an
  UPDATE ``WHERE current_round = r - 1`` in the transaction that creates its games, so a
  round starts once. ``claimed_by``/``lease_until``: the process advancing it (a lease, as
  the outbox's and the computer's claims).
* ``tournament_entrants``: one row per player (PRIMARY KEY (tournament, user)); the computer
  entrant is the bot's user id with its ``computer_level``.
* ``tournament_pairings``: one row per game of a round (``board``; ``game_no`` counts a
  knockout match's games), or a bye (``seat2`` NULL). UNIQUE (tournament, round, board,
  game_no) and UNIQUE (game_id): a round's games are created once, each game belongs to one
  pairing.
* ``tournament_posts``: the tournament posts still to deliver (an outbox like
  ``announcements``, with its lease and the message that delivered it).
* ``server_settings``: per server, the role whose members may organise tournaments.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

FORMATS = ("round_robin", "double_round_robin", "swiss", "knockout", "league")
STATUSES = ("signup", "running", "finished", "cancelled")
RESULTS = ("seat1", "seat2", "draw", "bye", "void")
POST_KINDS = ("opened", "round", "standings", "final", "cancelled", "withdrawn")


def _in(column: str, values: tuple[str, ...]) -> str:
    return f"{column} IN (" + ", ".join(f"'{v}'" for v in values) + ")"


def upgrade() -> None:
    """Create the five tables."""
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("guild_id", sa.BigInteger, nullable=False),
        sa.Column("channel_id", sa.BigInteger, nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("name_key", sa.Text, nullable=False),
        sa.Column("organiser_id", sa.BigInteger, nullable=False),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("clock", sa.Text, nullable=False),
        sa.Column("days_per_move", sa.Integer, nullable=False),
        sa.Column("rated", sa.Integer, nullable=False),
        sa.Column("format", sa.Text, nullable=False),
        sa.Column("rounds", sa.Integer),
        sa.Column("games_per_match", sa.Integer, nullable=False, server_default=sa.text("1")),
        sa.Column("division_size", sa.Integer, nullable=False, server_default=sa.text("8")),
        sa.Column("promote", sa.Integer, nullable=False, server_default=sa.text("2")),
        sa.Column("min_players", sa.Integer, nullable=False),
        sa.Column("max_players", sa.Integer, nullable=False),
        sa.Column("starts_at", sa.Float),
        sa.Column("status", sa.Text, nullable=False, server_default=sa.text("'signup'")),
        sa.Column("current_round", sa.Integer, nullable=False, server_default=sa.text("0")),
        sa.Column("season", sa.Integer, nullable=False, server_default=sa.text("1")),
        sa.Column("parent_id", sa.Integer, sa.ForeignKey("tournaments.id"), unique=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("claimed_by", sa.Text),
        sa.Column("lease_until", sa.Float),
        sa.CheckConstraint(_in("format", FORMATS), name="tournaments_format"),
        sa.CheckConstraint(_in("status", STATUSES), name="tournaments_status"),
        sa.CheckConstraint("rated IN (0, 1)", name="tournaments_rated"),
        sa.CheckConstraint("games_per_match IN (1, 2)", name="tournaments_games_per_match"),
        sa.CheckConstraint("current_round >= 0", name="tournaments_round"),
        sa.CheckConstraint("min_players >= 2 AND max_players >= min_players", name="tournaments_field"),
    )
    op.create_index("tournaments_live_name", "tournaments", ["guild_id", "name_key"], unique=True,
                    sqlite_where=sa.text("status IN ('signup', 'running')"),
                    postgresql_where=sa.text("status IN ('signup', 'running')"))
    op.create_index("tournaments_by_status", "tournaments", ["status"])
    op.create_table(
        "tournament_entrants",
        sa.Column("tournament_id", sa.Integer, sa.ForeignKey("tournaments.id"), nullable=False),
        sa.Column("user_id", sa.BigInteger, nullable=False),
        sa.Column("computer_level", sa.Integer),
        sa.Column("seed_rating", sa.Float, nullable=False),
        sa.Column("status", sa.Text, nullable=False, server_default=sa.text("'active'")),
        sa.Column("division", sa.Integer),
        sa.Column("joined_at", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("tournament_id", "user_id"),
        sa.CheckConstraint("status IN ('active', 'withdrawn')", name="tournament_entrants_status"),
        sa.CheckConstraint("computer_level IS NULL OR computer_level BETWEEN 1 AND 5",
                           name="tournament_entrants_level"),
    )
    op.create_table(
        "tournament_pairings",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("tournament_id", sa.Integer, sa.ForeignKey("tournaments.id"), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("board", sa.Integer, nullable=False),
        sa.Column("game_no", sa.Integer, nullable=False, server_default=sa.text("1")),
        sa.Column("division", sa.Integer),
        sa.Column("seat1", sa.BigInteger, nullable=False),
        sa.Column("seat2", sa.BigInteger),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), unique=True),
        sa.Column("result", sa.Text),
        sa.Column("forfeit", sa.Integer, nullable=False, server_default=sa.text("0")),
        sa.UniqueConstraint("tournament_id", "round", "board", "game_no", name="tournament_pairings_once"),
        sa.CheckConstraint("result IS NULL OR " + _in("result", RESULTS), name="tournament_pairings_result"),
        sa.CheckConstraint("seat2 IS NULL OR seat2 <> seat1", name="tournament_pairings_seats"),
        sa.CheckConstraint("round >= 1 AND board >= 1 AND game_no >= 1", name="tournament_pairings_numbers"),
    )
    op.create_table(
        "tournament_posts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("tournament_id", sa.Integer, sa.ForeignKey("tournaments.id"), nullable=False),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("user_id", sa.BigInteger),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False, server_default=sa.text("0")),
        sa.Column("last_error", sa.Text),
        sa.Column("delivered_at", sa.Float),
        sa.Column("claimed_by", sa.Text),
        sa.Column("lease_until", sa.Float),
        sa.Column("message_id", sa.BigInteger),
        sa.CheckConstraint(_in("kind", POST_KINDS), name="tournament_posts_kind"),
        sa.CheckConstraint("attempts >= 0", name="tournament_posts_attempts"),
        sqlite_autoincrement=True,
    )
    op.create_index("tournament_posts_pending", "tournament_posts", ["id"],
                    sqlite_where=sa.text("delivered_at IS NULL"),
                    postgresql_where=sa.text("delivered_at IS NULL"))
    op.create_table(
        "server_settings",
        sa.Column("guild_id", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("organiser_role_id", sa.BigInteger),
    )


def downgrade() -> None:
    """Drop the five tables (the tournaments' games stay, as ordinary games)."""
    op.drop_table("server_settings")
    op.drop_index("tournament_posts_pending", "tournament_posts")
    op.drop_table("tournament_posts")
    op.drop_table("tournament_pairings")
    op.drop_table("tournament_entrants")
    op.drop_index("tournaments_by_status", "tournaments")
    op.drop_index("tournaments_live_name", "tournaments")
    op.drop_table("tournaments")
