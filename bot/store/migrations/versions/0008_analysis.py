"""Analysis boards and private notes (issue 23).

``analysis_sessions``: one row per analysis board a player opened with /analyze -- its owner
(``user_id``), server (``guild_id``), the game it explores (``game_id``, NULL for a pasted
position or a new board), the start position (``start_text``, the engine's one-line text),
the game's record from there (``record``, JSON list of move texts), how many of those moves
are kept (``kept``: the rest are replaced by the player's own moves, ``own``, JSON list), the
move shown (``cursor``, moves from the start), the last line the engine gave (``engine``, JSON
or NULL), and when it was opened and last used (UNIX seconds; a board lapses a fixed time
after its last use, :data:`bot.manager.analysis.SESSION_TTL`).

``game_notes``: one private note per game and player (``/note``), with when it was written.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``analysis_sessions`` and ``game_notes``."""
    op.create_table(
        "analysis_sessions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.BigInteger, nullable=False),
        sa.Column("guild_id", sa.BigInteger, nullable=True),
        sa.Column("game_id", sa.BigInteger, nullable=True),
        sa.Column("start_text", sa.Text, nullable=False),
        sa.Column("record", sa.Text, nullable=False),
        sa.Column("kept", sa.Integer, nullable=False),
        sa.Column("own", sa.Text, nullable=False),
        sa.Column("cursor", sa.Integer, nullable=False),
        sa.Column("engine", sa.Text, nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("used_at", sa.Float, nullable=False),
    )
    op.create_index("analysis_sessions_user", "analysis_sessions", ["user_id"])
    op.create_index("analysis_sessions_used", "analysis_sessions", ["used_at"])
    op.create_table(
        "game_notes",
        sa.Column("game_id", sa.BigInteger, nullable=False),
        sa.Column("user_id", sa.BigInteger, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("game_id", "user_id"),
    )
    op.create_index("game_notes_user", "game_notes", ["user_id"])


def downgrade() -> None:
    """Drop both tables (the notes and analysis boards go with them)."""
    op.drop_table("game_notes")
    op.drop_table("analysis_sessions")
