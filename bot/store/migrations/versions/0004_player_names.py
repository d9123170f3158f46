"""Players' display names are kept in the database (issue 14, scale): a board image shows both
players' names, and a process that has not seen a player (another shard's process, or one
restarted) reads the name here instead of asking Discord for the user (``GET /users``) --
about one request per move at scale.

``player_names``: one row per user the bot saw, with the display name it saw last and when
(UNIX seconds).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``player_names``."""
    op.create_table(
        "player_names",
        sa.Column("user_id", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("display_name", sa.Text, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    """Drop ``player_names``."""
    op.drop_table("player_names")
