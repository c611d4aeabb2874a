"""The newest saved-match version the server issued for each table, kept on disk.

A sealed record (:mod:`president.web.sealing`) holds a table's match seed and its actions, so
an *old* record replays to an old point of the match with the very same hands. Without a
memory of what was issued, a player could keep an early record, wait for a server restart and
rewind the match. The ledger remembers, per table id, the version (number of actions in the
record) of the newest record the server sealed; :meth:`Ledger.check` refuses a record older
than that, also after a restart, because the ledger is a small SQLite file (stdlib
``sqlite3``) in the server's state directory, beside the secret key file.

>>> book = Ledger(":memory:")
>>> book.issued("t1", 3); book.issued("t1", 7); book.issued("t1", 5)
>>> book.latest("t1")
7
>>> book.check("t1", 7)
>>> book.check("t1", 6)
Traceback (most recent call last):
...
president.web.ledger.StaleRecord: this saved match is older than its latest state (it has 6 actions; the server issued one with 7); continue from the newest copy or start a new match
"""

from __future__ import annotations

import logging
import os
import sqlite3
import stat
import threading
import time
from pathlib import Path
from typing import Sequence

__all__ = ["Ledger", "StaleRecord", "default_state_dir", "private_dir", "private_file",
           "tighten", "open_private_sqlite", "LEDGER_FILE", "KEEP_SECONDS"]

LEDGER_FILE = "web-saved-matches.sqlite3"
KEEP_SECONDS = 400 * 24 * 3600
"""How long a table's entry is kept after its newest record (seconds, about 13 months). Sealed
records older than this are refused by their own timestamp (:meth:`Sealer.open` ``max_age``),
so a forgotten entry can never let an old record back in."""

log = logging.getLogger("president.web")


class StaleRecord(ValueError):
    """A sealed record older than the newest one the server issued for its table."""


def default_state_dir() -> Path:
    """``$XDG_STATE_HOME/president`` (``~/.local/state/president``): where the secret key
    file and the ledger live."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "president"


def tighten(path: Path, mode: int) -> None:
    """Take away every permission bit of ``path`` outside ``mode`` (best effort: a path that
    is not ours, a shared sticky folder such as /tmp, or a failing chmod is left as it is)."""
    try:
        st = path.stat()
        if st.st_uid != os.getuid() or st.st_mode & stat.S_ISVTX:
            return
        if stat.S_IMODE(st.st_mode) & ~mode:
            os.chmod(path, stat.S_IMODE(st.st_mode) & mode)
    except (OSError, AttributeError):  # AttributeError: no os.getuid (Windows)
        pass


def private_dir(path: str | os.PathLike[str]) -> Path:
    """Create the folder ``path`` (and its missing parents) for this user only: mode 0700,
    and an existing folder with looser permissions is tightened to 0700 (best effort).
    Parents that exist already are left as they are.

    Raises:
        OSError: if the folder cannot be created.
    """
    path = Path(path)
    missing = []
    for folder in (path, *path.parents):
        if folder.exists():
            break
        missing.append(folder)
    for folder in reversed(missing):     # each one 0700 (Path.mkdir gives parents the umask's)
        folder.mkdir(exist_ok=True, mode=0o700)
    path.mkdir(exist_ok=True, mode=0o700)
    tighten(path, 0o700)
    return path


def private_file(path: str | os.PathLike[str]) -> Path:
    """Create the file ``path`` if missing, readable and writable by this user only (mode
    0600), and tighten an existing one with looser permissions (best effort).

    Raises:
        OSError: if the file cannot be created.
    """
    path = Path(path)
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
    tighten(path, 0o600)
    return path


def open_private_sqlite(path: str, what: str) -> tuple[str, sqlite3.Connection]:
    """Open the SQLite file ``path`` for this user only (its folder 0700, the file and its
    ``-wal``/``-shm`` companions 0600, looser modes tightened), with a write-ahead log and
    ``synchronous=NORMAL`` (a commit survives the death of the process without a flush of the
    file). If it cannot be opened (a read-only home), log a warning naming ``what`` it keeps
    and open an in-memory database instead. Returns ``(the path used, the connection)``:
    ``":memory:"`` after a fallback. The connection has autocommit and may be shared between
    threads behind the caller's lock."""
    def connect(where: str) -> sqlite3.Connection:
        db = sqlite3.connect(where, check_same_thread=False, isolation_level=None)
        if where != ":memory:":
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
        return db
    try:
        if path != ":memory:":
            private_dir(Path(path).parent)
            private_file(path)
            for extra in ("-wal", "-shm"):
                if os.path.exists(path + extra):
                    tighten(Path(path + extra), 0o600)
        return path, connect(path)
    except (OSError, sqlite3.Error) as e:
        log.warning("cannot keep %s in %s (%s); keeping them in memory", what, path, e)
        return ":memory:", connect(":memory:")


class Ledger:
    """Table id → version of the newest sealed record issued, in one SQLite file.

    Args:
        path: the SQLite file (``":memory:"`` for a ledger that lasts as long as the process).
            Its directory is created (mode 0700) if missing, and the file (and SQLite's
            ``-wal`` and ``-shm`` files beside it, which take its mode) with mode 0600;
            looser modes of existing ones are tightened. If the file cannot be opened
            (read-only home), the ledger falls back to memory and logs a warning: old records
            are then refused only until the process ends.

    Thread-safe (one connection behind a lock); every write is committed at once (WAL journal,
    so a commit costs no disk flush of the whole file).
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self._lock = threading.Lock()
        self.path, db = open_private_sqlite(str(path), "saved-match versions")
        db.execute("CREATE TABLE IF NOT EXISTS issued (table_id TEXT PRIMARY KEY, "
                   "version INTEGER NOT NULL, at REAL NOT NULL)")
        db.execute("DELETE FROM issued WHERE at < ?", (time.time() - KEEP_SECONDS,))
        self._db = db

    def issued(self, table_id: str, version: int) -> None:
        """Note that a record of ``table_id`` with ``version`` actions was sealed and sent
        (the stored version only ever grows)."""
        self.issued_many([(table_id, version)])

    def issued_many(self, versions: Sequence[tuple[str, int]]) -> None:
        """:meth:`issued` for several ``(table_id, version)`` pairs, in one transaction."""
        at = time.time()
        with self._lock:
            self._db.execute("BEGIN")
            try:
                self._db.executemany(
                    "INSERT INTO issued (table_id, version, at) VALUES (?, ?, ?) "
                    "ON CONFLICT(table_id) DO UPDATE SET version = max(version, excluded.version), "
                    "at = excluded.at", [(t, int(v), at) for t, v in versions])
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def latest(self, table_id: str) -> int | None:
        """The newest version issued for ``table_id``, or ``None`` if none is known."""
        with self._lock:
            row = self._db.execute("SELECT version FROM issued WHERE table_id = ?",
                                   (table_id,)).fetchone()
        return None if row is None else int(row[0])

    def check(self, table_id: str, version: int) -> None:
        """Accept a record of ``table_id`` with ``version`` actions, or refuse an old one.

        Raises:
            StaleRecord: if a record with more actions was issued for that table.
        """
        newest = self.latest(table_id)
        if newest is not None and version < newest:
            raise StaleRecord(f"this saved match is older than its latest state (it has {version} "
                              f"actions; the server issued one with {newest}); continue from the "
                              "newest copy or start a new match")

    def close(self) -> None:
        """Close the file."""
        with self._lock:
            self._db.close()
