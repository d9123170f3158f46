"""Alembic migrations of Stonecast's database: one history for SQLite and PostgreSQL.

* ``versions/0001_schema_v8.py`` creates the schema of the old ``PRAGMA user_version`` 8
  (:mod:`bot.store.schema`) with dialect-neutral types (``BIGINT`` for Discord ids on
  PostgreSQL, double precision for times); a SQLite file made by an older Stonecast is
  brought to version 8 by the old steps and stamped ``0001`` (:meth:`bot.store.Store.upgrade`).
* A change of schema is a new revision in ``versions/`` (``op.*`` calls; on SQLite they run
  in batch mode, which rebuilds a table where SQLite cannot ALTER it). A released revision
  is never edited.

The bot runs Alembic itself when it opens the database (:func:`alembic_config` builds the
configuration in code: no ``alembic.ini`` is needed at run time). Alembic's own INFO lines
(plugin setup, "Running upgrade ..." with the revision's docstring) are silenced
(:func:`bot.store.migrate.quiet_alembic`); each revision applied is logged as one line of ours,
``database: applied 0004 player names`` (:func:`revision_title`: the words of its file name
after the revision id, or a module-level ``title``). For developers,
``alembic.ini`` at the repository root points here: ``STONECAST_DB=... alembic heads``,
``alembic history``, ``alembic revision -m "..."``.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from alembic.config import Config
    from alembic.runtime.migration import MigrationInfo
    from alembic.script import Script

__all__ = ["BASE_REVISION", "HERE", "alembic_config", "head_revision", "note_step", "revision_title"]

HERE = Path(__file__).resolve().parent
BASE_REVISION = "0001"  # the schema of PRAGMA user_version 8


def alembic_config(extra_versions: Iterable[str | Path] = ()) -> Config:
    """An Alembic :class:`Config` for these migrations, built in code. ``extra_versions``:
    more folders of revisions (tests add a revision after the head this way)."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(HERE))
    locations = [str(HERE / "versions"), *map(str, extra_versions)]
    config.set_main_option("version_locations", " ".join(locations))
    config.set_main_option("path_separator", "space")
    return config


@functools.cache
def head_revision() -> str:
    """The head of these migrations (e.g. ``"0009"``): the one schema :mod:`bot.manager`
    works on (:meth:`bot.store.Store.open` brings every database there). Read from the names
    of the files in ``versions/``, once: each revision is numbered after the one before it
    (``0004_player_names.py`` is revision ``0004`` and follows ``0003``), so the head is the
    highest number -- ``tests/test_store_backends.py`` checks this against Alembic's own
    reading of the history. No Alembic import here: every start of the bot asks for the head,
    and loading Alembic's view of the revisions costs a tenth of a second."""
    return max(path.name[:4] for path in (HERE / "versions").glob("[0-9][0-9][0-9][0-9]_*.py"))


def revision_title(script: Script) -> str:
    """A revision's short title for the log: its module's ``title`` if it has one, else the
    words of its file name after the revision id (``0004_player_names.py`` -> ``player
    names``), else the file name. ``script``: an Alembic :class:`~alembic.script.Script`."""
    title = getattr(script.module, "title", None)
    if isinstance(title, str) and title.strip():
        return title.strip()
    stem = Path(script.path).stem
    prefix = f"{script.revision}_"
    if stem.startswith(prefix) and len(stem) > len(prefix):
        return stem[len(prefix):].replace("_", " ")
    return stem


def note_step(config: Config, step: MigrationInfo) -> None:
    """Alembic's ``on_version_apply`` hook (see ``env.py``): note ``(verb, revision, title)``
    of the step just run in ``config.attributes["steps"]``, verb ``applied``, ``reverted`` or
    ``stamped`` (a file of the old numbering marked as at a revision), logged once the
    transaction is committed. ``step``: Alembic's :class:`~alembic.runtime.migration.MigrationInfo`."""
    if step.is_stamp:
        if not step.is_upgrade:
            return
        verb, scripts = "stamped", step.up_revisions
    else:
        verb, scripts = ("applied" if step.is_upgrade else "reverted"), (step.up_revision,)
    # Alembic types these as Revision; from a ScriptDirectory they are its Script objects
    scripts = cast("tuple[Script | None, ...]", scripts)
    notes = config.attributes.setdefault("steps", [])
    notes.extend((verb, script.revision, revision_title(script)) for script in scripts
                 if script is not None)
