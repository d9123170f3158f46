"""Alembic migrations of Stonecast's database: one history for SQLite and PostgreSQL.

* ``versions/0001_schema_v8.py`` creates the schema of the old ``PRAGMA user_version`` 8
  (:mod:`bot.store.schema`) with dialect-neutral types (``BIGINT`` for Discord ids on
  PostgreSQL, double precision for times); a SQLite file made by an older Stonecast is
  brought to version 8 by the old steps and stamped ``0001`` (:meth:`bot.store.Store.upgrade`).
* A change of schema is a new revision in ``versions/`` (``op.*`` calls; on SQLite they run
  in batch mode, which rebuilds a table where SQLite cannot ALTER it). A released revision
  is never edited.

The bot runs Alembic itself when it opens the database (:func:`alembic_config` builds the
configuration in code: no ``alembic.ini`` is needed at run time). For developers,
``alembic.ini`` at the repository root points here: ``STONECAST_DB=... alembic heads``,
``alembic history``, ``alembic revision -m "..."``.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from alembic.config import Config

__all__ = ["BASE_REVISION", "HERE", "alembic_config"]

HERE = Path(__file__).resolve().parent
BASE_REVISION = "0001"  # the schema of PRAGMA user_version 8


def alembic_config(extra_versions: Iterable[str | Path] = ()) -> Config:
    """An Alembic :class:`Config` for these migrations, built in code. ``extra_versions``:
    more folders of revisions (tests add a revision after the head this way)."""
    config = Config()
    config.set_main_option("script_location", str(HERE))
    locations = [str(HERE / "versions"), *map(str, extra_versions)]
    config.set_main_option("version_locations", " ".join(locations))
    config.set_main_option("path_separator", "space")
    return config
