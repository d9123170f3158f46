"""Languages (issue 22): the language a player or a server chose, and the Discord locale last seen.

* ``user_settings.language``: the language the player chose with ``/settings language:``
  (a catalog name of :data:`bot.texts.i18n.SUPPORTED`, e.g. ``"pt_BR"``); NULL: follow
  Discord's locale.
* ``server_settings.language``: the same for a server (``/settings server-language:``): the
  language of its public posts.
* ``seen_locales`` (``scope`` ``"user"`` or ``"guild"``, ``subject_id``, ``locale``): the
  Discord locale last seen from a player (``interaction.locale``, e.g. ``"pt-BR"``, for the
  DMs sent when they are not interacting) or for a server (``interaction.guild_locale``),
  written only when it changes. What the bot notes of whoever it sees, like
  ``player_names``: no setting of anyone's, kept apart from the settings tables.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

TABLES = ("user_settings", "server_settings")


def upgrade() -> None:
    """Add ``language`` (NULL for every row) to both settings tables; create ``seen_locales``."""
    for table in TABLES:
        op.add_column(table, sa.Column("language", sa.Text, nullable=True))
    op.create_table(
        "seen_locales",
        sa.Column("scope", sa.Text, nullable=False),
        sa.Column("subject_id", sa.BigInteger, nullable=False, autoincrement=False),
        sa.Column("locale", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("scope", "subject_id"),
    )


def downgrade() -> None:
    """Drop ``seen_locales`` and the two columns (everyone follows Discord's locale again)."""
    op.drop_table("seen_locales")
    for table in TABLES:  # SQLite 3.35+ drops a column without constraints in place
        op.drop_column(table, "language")
