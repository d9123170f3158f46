"""Languages (issue 22): the language a player or a server chose, and the Discord locale last seen.

* ``user_settings.language``: the language the player chose with ``/settings language:``
  (a catalog name of :data:`bot.texts.i18n.SUPPORTED`, e.g. ``"pt_BR"``); NULL: follow
  Discord's locale.
* ``user_settings.discord_locale``: the Discord locale (``interaction.locale``, e.g.
  ``"pt-BR"``) last seen from the player, for the DMs sent when they are not interacting
  (written only when it changes).
* ``server_settings.language`` / ``server_settings.discord_locale``: the same for a server
  (``/settings server-language:``; ``interaction.guild_locale``): the language of its public
  posts.

Revision ID: 0009
Revises: 0007 (the lead re-chains it after 0008)
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0007"
branch_labels = None
depends_on = None

TABLES = ("user_settings", "server_settings")


def upgrade() -> None:
    """Add ``language`` and ``discord_locale`` (NULL for every row) to both settings tables."""
    for table in TABLES:
        op.add_column(table, sa.Column("language", sa.Text, nullable=True))
        op.add_column(table, sa.Column("discord_locale", sa.Text, nullable=True))


def downgrade() -> None:
    """Drop the two columns (everyone follows Discord's locale again)."""
    for table in TABLES:  # SQLite 3.35+ drops a column without constraints in place
        op.drop_column(table, "discord_locale")
        op.drop_column(table, "language")
