"""Players who had their data deleted.

A player may have their data deleted (/privacy delete, issue 18): the deletion is recorded,
so that the games they finished before it keep showing them as "deleted player" and the bot
does not learn their name again from Discord for those games.

``forgotten_players``: one row per user who asked for their data to be deleted, with when
(UNIX seconds; a second request moves it later). Games created before that time show the
player as "deleted player"; games they start afterwards show their name as usual.

Revision ID: 0006
Revises: 0004
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``forgotten_players``."""
    op.create_table(
        "forgotten_players",
        sa.Column("user_id", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("forgotten_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    """Drop ``forgotten_players`` (the deletions already made stay made; only their record,
    which hides the names in older games, goes)."""
    op.drop_table("forgotten_players")
