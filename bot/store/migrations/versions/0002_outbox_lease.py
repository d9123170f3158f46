"""The outbox's rows are claimed with a lease (issue 14): several processes deliver from one
PostgreSQL database, and a row is posted by the process holding its lease.

``claimed_by`` names the process (:attr:`bot.manager.GameManager.process_id`) that last
claimed the row for posting, ``lease_until`` (UNIX seconds) when its claim lapses: until then
no other process takes the row; after, one does (its owner died mid-post). Rows already there
are unclaimed.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``announcements.claimed_by`` and ``announcements.lease_until``."""
    with op.batch_alter_table("announcements") as batch:
        batch.add_column(sa.Column("claimed_by", sa.Text))
        batch.add_column(sa.Column("lease_until", sa.Float))


def downgrade() -> None:
    """Drop the two columns."""
    with op.batch_alter_table("announcements") as batch:
        batch.drop_column("lease_until")
        batch.drop_column("claimed_by")
