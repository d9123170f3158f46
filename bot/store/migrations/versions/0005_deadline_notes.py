"""The outbox takes a new kind of announcement, ``'deadline'`` (issue 18): the note with the
new deadline of a move that a /vacation moved, written in the vacation's transaction and
delivered like a board, so a crash can no longer lose it. And it records the message that
delivered each row, ``announcements.message_id`` (the Discord id; ``NULL`` when not known: a
row given up, skipped, or delivered before this revision): a message already recorded for one
row is never taken for another's when the bot looks for a post it may have made
(:meth:`bot.front.announcer.Announcer.find_post`).

``announcements.kind``'s CHECK constraint (unnamed in revision 0001) becomes
``announcements_kind_check`` with the new kind. PostgreSQL drops the old one (found in its
catalog) and adds it; SQLite rebuilds the table in batch mode from the definition below (the
columns of revisions 0001 and 0002, the ``attempts`` check, the reference to ``games``,
``AUTOINCREMENT`` and the partial index of pending rows), keeping every row and the highest
id ever given (``sqlite_sequence``: an id, and so a message nonce, is never given twice).

Downgrade: the ``'deadline'`` rows are deleted (an older Stonecast cannot post them), the old
list of kinds is restored and ``message_id`` dropped.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

OLD_KINDS = ("reminder", "timeout", "move", "dm", "digest")
NEW_KINDS = (*OLD_KINDS, "deadline")
CONSTRAINT = "announcements_kind_check"


def _kinds_check(kinds: tuple[str, ...]) -> str:
    """The SQL of the CHECK on ``kind`` allowing ``kinds``."""
    return "kind IN (" + ", ".join(f"'{k}'" for k in kinds) + ")"


def _sqlite_table(kinds: tuple[str, ...]) -> sa.Table:
    """``announcements`` as of revision 0004, its kinds ``kinds``: what batch mode rebuilds
    (without ``message_id``)."""
    return sa.Table(
        "announcements", sa.MetaData(),
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), nullable=False),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("user_id", sa.BigInteger, nullable=False),
        sa.Column("ply", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False, server_default=sa.text("0")),
        sa.Column("last_error", sa.Text),
        sa.Column("delivered_at", sa.Float),
        sa.Column("claimed_by", sa.Text),
        sa.Column("lease_until", sa.Float),
        sa.CheckConstraint(_kinds_check(kinds), name=CONSTRAINT),
        sa.CheckConstraint("attempts >= 0"),
        sa.Index("announcements_pending", "id", sqlite_where=sa.text("delivered_at IS NULL")),
        sqlite_autoincrement=True,
    )


def _rebuild(kinds: tuple[str, ...], *, message_id: bool) -> None:
    """Make ``kinds`` the kinds ``announcements`` accepts, with the column ``message_id`` or
    without it, on either backend."""
    conn = op.get_bind()
    if conn.dialect.name == "sqlite":
        row = conn.execute(sa.text("SELECT seq FROM sqlite_sequence WHERE name = 'announcements'")).first()
        table = _sqlite_table(kinds)
        if not message_id:  # downgrade: rebuilt from the table as it is, without the column
            table.append_column(sa.Column("message_id", sa.BigInteger))
        with op.batch_alter_table("announcements", recreate="always", copy_from=table) as batch:
            if message_id:
                batch.add_column(sa.Column("message_id", sa.BigInteger))
            else:
                batch.drop_column("message_id")
        if row is not None:  # the rebuilt table starts from its highest id; keep the old mark
            conn.execute(sa.text("UPDATE sqlite_sequence SET seq = :seq WHERE name = 'announcements'"
                                 " AND seq < :seq"), {"seq": row[0]})
        return
    names = conn.execute(sa.text(
        "SELECT conname FROM pg_constraint WHERE conrelid = 'announcements'::regclass"
        " AND contype = 'c' AND pg_get_constraintdef(oid) LIKE '%kind%'")).scalars().all()
    for name in names:
        op.drop_constraint(name, "announcements", type_="check")
    op.create_check_constraint(CONSTRAINT, "announcements", _kinds_check(kinds))
    if message_id:
        op.add_column("announcements", sa.Column("message_id", sa.BigInteger))
    else:
        op.drop_column("announcements", "message_id")


def upgrade() -> None:
    """Allow kind ``'deadline'`` in ``announcements`` and add ``message_id``."""
    _rebuild(NEW_KINDS, message_id=True)


def downgrade() -> None:
    """Delete the ``'deadline'`` rows, allow the kinds of revision 0004 only and drop
    ``message_id``."""
    op.execute("DELETE FROM announcements WHERE kind = 'deadline'")
    _rebuild(OLD_KINDS, message_id=False)
