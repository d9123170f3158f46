"""One process per SQLite database file: an exclusive lock held for the process's life.

SQLite itself would let a second process open the file, but Stonecast's game lock and
delivery lock live in one process: two bots on one file would settle a timeout twice and
post announcements twice. :func:`lock_database` takes an exclusive ``flock`` on
``<database>.lock`` (beside the database): the kernel releases it when the process ends,
however it ends (SIGKILL and a crash included), so a stale lock never blocks a restart.
The lock file stays on disk (removing it would race with a process taking it); it holds
the pid of the process that last took the lock, for the error message.

``flock`` locks are shared only through a forked process's inherited descriptor: the
bot's worker processes are spawned (:mod:`bot.workers.procs`) and do not hold it. Over NFS and
other network file systems ``flock`` may not reach other machines.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from .db import StoreError

__all__ = ["DatabaseInUse", "DatabaseLock", "lock_database", "lock_path"]


class DatabaseInUse(StoreError):
    """Another process holds the database's lock; ``str(e)`` is one line for the operator."""


def lock_path(db_path: str | Path) -> Path:
    """The lock file of the database at ``db_path``: ``<db_path>.lock``."""
    db_path = Path(db_path)
    return db_path.with_name(db_path.name + ".lock")


class DatabaseLock:
    """A held lock (from :func:`lock_database`); :meth:`release` (or process exit) frees it."""

    def __init__(self, path: Path, fd: int):
        self.path = path
        self._fd: int | None = fd

    @property
    def held(self) -> bool:
        """Whether this lock is still held."""
        return self._fd is not None

    def release(self) -> None:
        """Release the lock (once; later calls do nothing)."""
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)  # closing the only descriptor of the open file releases the flock


def lock_database(db_path: str | Path) -> DatabaseLock:
    """Take the exclusive lock of the database at ``db_path`` (creating its folder and lock
    file if needed) without waiting.

    Raises :class:`DatabaseInUse` when another process (or another call in this process)
    holds it, and :class:`StoreError` when the lock file cannot be created or opened (e.g. a
    folder without write permission).
    """
    path = lock_path(db_path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as e:
        raise StoreError(f"cannot create the lock file {path} ({e.strerror or e}); "
                         f"the database's folder must be writable") from e
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = _read_pid(fd)
        os.close(fd)
        who = f"another Stonecast process (pid {holder})" if holder else "another Stonecast process"
        raise DatabaseInUse(
            f"the database {db_path} is in use by {who}: SQLite allows one process per "
            f"database file; stop that process first, or set STONECAST_DB to another file") from None
    except OSError as e:
        os.close(fd)
        raise StoreError(f"cannot lock {path} ({e.strerror or e})") from e
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    except OSError:  # the pid is only for messages: the lock is what counts
        pass
    return DatabaseLock(path, fd)


def _read_pid(fd: int) -> int | None:
    """The pid written in the lock file, if it reads as one."""
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None
