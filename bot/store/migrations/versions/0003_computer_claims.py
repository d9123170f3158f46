"""The computer opponent's background work is claimed with a lease (issue 14): several
processes share one PostgreSQL database, and each search of the computer's move, and each
review of a finished game, is computed by one process.

Table ``computer_work``: one row per game and ``task`` (``'move'``: the computer's move in a
running game; ``'review'``: the review of a finished game), made on the first claim.
``claimed_by`` names the process (:attr:`bot.manager.GameManager.process_id`) computing it,
``lease_until`` (UNIX seconds) when its claim lapses; both are cleared when the work is done.
A process renews its lease while a long search runs; one that dies leaves the work to another
once the lease is over.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``computer_work``."""
    op.create_table(
        "computer_work",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), nullable=False),
        sa.Column("task", sa.Text, nullable=False),
        sa.Column("claimed_by", sa.Text),
        sa.Column("lease_until", sa.Float),
        sa.PrimaryKeyConstraint("game_id", "task"),
        sa.CheckConstraint("task IN ('move', 'review')", name="computer_work_task"),
    )


def downgrade() -> None:
    """Drop ``computer_work`` (batch mode is not needed: a whole table goes)."""
    op.drop_table("computer_work")
