"""``python -m bot backup FILE``: a consistent copy of a live SQLite database.

The copy is made with SQLite's online backup API (:meth:`sqlite3.Connection.backup`) in a
single step: it reads one snapshot of the database (a read transaction, which in WAL mode
never blocks the bot's writers and is never disturbed by them), so the copy holds exactly
the transactions committed when it began, including those still in the ``-wal`` file. It is
written beside ``FILE`` under a temporary name, checked with ``PRAGMA integrity_check``,
switched to a rollback journal (one self-contained file, no ``-wal``/``-shm``) and only then
renamed to ``FILE``: an interrupted backup never leaves a half-written ``FILE``.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .db import StoreError

__all__ = ["BackupError", "BackupInfo", "backup_database"]


class BackupError(StoreError):
    """The backup cannot be made; ``str(e)`` is one line for the operator. Nothing was written."""


@dataclass(frozen=True)
class BackupInfo:
    """What a backup copied: ``schema_version`` (``PRAGMA user_version``), ``pages`` and
    ``size`` (bytes of the copy)."""

    schema_version: int
    pages: int
    size: int


def backup_database(source: str | Path, dest: str | Path, *, force: bool = False) -> BackupInfo:
    """Copy the Stonecast database ``source`` to ``dest`` (see the module docstring); safe
    while the bot runs.

    Refuses, with :class:`BackupError` and nothing written, when ``source`` is missing or no
    Stonecast database, when ``dest`` exists (unless ``force``: then it is replaced, but
    never by itself), is a folder, or its folder is missing or not writable.
    """
    source, dest = Path(source), Path(dest)
    if not source.is_file():
        raise BackupError(f"no database at {source}: set STONECAST_DB to the bot's database file")
    if dest.is_dir():
        raise BackupError(f"{dest} is a folder: name the backup file, e.g. {dest / 'stonecast.db'}")
    if dest.exists():
        if dest.resolve() == source.resolve() or os.path.samefile(dest, source):
            raise BackupError(f"{dest} is the database itself: name another file")
        if not force:
            raise BackupError(f"{dest} already exists: name another file, or add --force to replace it")
    folder = dest.parent
    if not folder.is_dir():
        raise BackupError(f"the folder {folder} does not exist: create it first")
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".partial", dir=folder)
    except OSError as e:
        raise BackupError(f"cannot write in {folder} ({e.strerror or e})") from e
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        info = _copy(source, tmp)
        _fsync(tmp)
        if force:
            os.replace(tmp, dest)
        else:  # a link never replaces: a FILE created meanwhile is refused, not overwritten
            try:
                os.link(tmp, dest)
            except FileExistsError:
                raise BackupError(f"{dest} already exists: name another file, or add --force "
                                  f"to replace it") from None
            except OSError:  # a file system without hard links
                os.replace(tmp, dest)
            else:
                tmp.unlink()
        _fsync_folder(folder)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    return info


def _copy(source: Path, target: Path) -> BackupInfo:
    """Back up ``source`` into the (empty) file ``target`` and check the copy."""
    try:
        # mode=rw: never creates a missing file; a WAL reader needs write access to -shm
        src = sqlite3.connect(source.absolute().as_uri() + "?mode=rw", uri=True, timeout=30)
    except sqlite3.Error as e:
        raise BackupError(f"cannot open the database {source} ({e})") from e
    try:
        try:
            version = src.execute("PRAGMA user_version").fetchone()[0]
        except sqlite3.DatabaseError as e:
            raise BackupError(f"{source} is not a SQLite database ({e})") from e
        if version == 0:
            raise BackupError(f"{source} is not a Stonecast database (schema version 0)")
        dst = sqlite3.connect(target)
        try:
            try:
                src.backup(dst)  # pages=-1: one step, one snapshot of the source
            except sqlite3.Error as e:
                raise BackupError(f"the backup of {source} failed ({e})") from e
            dst.execute("PRAGMA journal_mode = DELETE")
            check = [row[0] for row in dst.execute("PRAGMA integrity_check")]
            if check != ["ok"]:
                raise BackupError(f"the copy of {source} fails its integrity check: {check[0]}")
            pages = dst.execute("PRAGMA page_count").fetchone()[0]
        finally:
            dst.close()
    finally:
        src.close()
    return BackupInfo(schema_version=version, pages=pages, size=target.stat().st_size)


def _fsync(path: Path) -> None:
    """Flush ``path``'s content to disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_folder(folder: Path) -> None:
    """Flush a rename in ``folder`` to disk (where the platform allows)."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
