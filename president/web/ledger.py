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

import contextlib
import errno
import json
import logging
import math
import os
import sqlite3
import stat
import threading
import time
from pathlib import Path
from typing import Any, Protocol, Sequence, runtime_checkable

__all__ = ["Ledger", "LedgerLike", "LedgerChecks", "StaleRecord", "default_state_dir", "private_dir", "private_file",
           "tighten", "open_private_sqlite", "StoreError", "STORE_SCHEMA", "BUSY_SECONDS", "LEDGER_FILE", "KEEP_SECONDS",
           "listings_of"]

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


def listings_of(rows: Sequence[Any]) -> list[tuple[str, dict[str, Any]]]:
    """The table listings of ``(table_id, listing JSON text)`` rows read back from a table
    store (SQLite or PostgreSQL alike), as ``(table_id, listing dict)``; a row whose text is
    not a JSON object (damaged) is left out."""
    out = []
    for table_id, text in rows:
        try:
            listing = json.loads(text)
        except ValueError:
            continue
        if isinstance(listing, dict):
            out.append((str(table_id), listing))
    return out


class StoreError(RuntimeError):
    """The server's state on disk cannot be kept: a folder or file it cannot write, a
    damaged or truncated SQLite file, or one made by a newer version. The server refuses to
    start rather than keep tables in memory that a restart would lose.

    Attributes:
        message: what is wrong, with which file, and what to do (one paragraph of text).
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


STORE_SCHEMA = 1
"""The version of the state files' layout (SQLite's ``user_version``): a file of a later
version (a newer ``president``) is refused, an older one is brought up to date when opened."""

BUSY_SECONDS = 30.0
"""How long a write waits for a lock another program holds on a state file (a backup tool,
the ``sqlite3`` shell) before it fails: the action waits, answered once kept, and is not lost."""

RECOVERY = ("restore it from a backup, or move it aside to start without its {what}; either "
            "way move its -wal and -shm files aside with it ({name}*), or SQLite would apply "
            "their old writes to the new file (docs/web.md, \"Backups and recovery\")")


def _damaged(path: str, what: str, why: str) -> StoreError:
    why = " ".join(why.split())          # one line, whatever SQLite's report holds
    if len(why) > 240:
        why = why[:239] + "…"
    return StoreError(f"{path} cannot be used ({why}): it holds the server's {what}, and "
                      f"starting on it could lose or rewind them. Stop here and "
                      + RECOVERY.format(what=what, name=os.path.basename(path)))


def _connect(where: str) -> sqlite3.Connection:
    db = sqlite3.connect(where, check_same_thread=False, isolation_level=None,
                         timeout=BUSY_SECONDS)
    if where != ":memory:":
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
    return db


def _create(path: str) -> None:
    """Make a new, empty SQLite file at ``path`` (mode 0600) in one step: it is set up under
    another name and renamed into place, so a file at ``path`` is always one that was set up
    (an empty file there is a damaged one, never a store cut short at its creation)."""
    partial = f"{path}.new-{os.getpid()}"
    private_file(partial)
    try:
        db = _connect(partial)
        db.execute(f"PRAGMA user_version = {STORE_SCHEMA}")
        db.close()
        os.replace(partial, path)
    finally:
        for leftover in (partial, partial + "-wal", partial + "-shm"):
            with contextlib.suppress(OSError):
                os.unlink(leftover)


def open_private_sqlite(path: str, what: str) -> tuple[str, sqlite3.Connection]:
    """Open the SQLite file ``path`` for this user only (its folder 0700, the file and its
    ``-wal``/``-shm`` companions 0600, looser modes tightened), with a write-ahead log and
    ``synchronous=NORMAL`` (a commit survives the death of the process without a flush of the
    file), after checking that it can be kept: the folder and file can be written (a real
    write, committed), the file is whole (SQLite's ``quick_check``; a file cut to 0 bytes is
    damaged, since a new one is made whole in one step) and its layout is not newer than
    :data:`STORE_SCHEMA`. ``":memory:"`` opens an in-memory database (tests).

    Returns ``(path, connection)``: the connection has autocommit, waits up to
    :data:`BUSY_SECONDS` for another program's lock, and may be shared between threads
    behind the caller's lock.

    Raises:
        StoreError: naming the file, what it keeps (``what``), what is wrong and what to do.
    """
    if path == ":memory:":
        return path, _connect(path)
    folder = Path(path).parent
    try:
        private_dir(folder)
    except OSError as e:
        raise StoreError(f"cannot make the state folder {folder} ({e.strerror or e}), where the "
                         f"server keeps its {what}; give it a folder it can write, e.g. "
                         "XDG_STATE_HOME=/some/folder") from None
    try:
        # Never open and close the file itself here: closing any descriptor of a file drops
        # every POSIX lock this process holds on it, the SQLite locks of a connection already
        # open included (a second connection to a store opened here would otherwise let
        # another program fold the write-ahead log and delete it under the first, whose
        # later commits would then be lost). Its mode is tightened by name.
        if not os.path.lexists(path):
            if any(os.path.exists(path + extra) for extra in ("-wal", "-shm")):
                raise StoreError(
                    f"{path} is missing but its write-ahead log ({path}-wal or -shm) is still "
                    "there: the file was moved or deleted without it. SQLite would apply that "
                    "log's old writes to a new file. Put the file back, or move the -wal and "
                    "-shm files aside with it, then start again")
            _create(path)
        elif os.path.isfile(path) and os.path.getsize(path) == 0:
            raise _damaged(path, what, "the file is empty: it was cut short")
        if not os.access(path, os.R_OK | os.W_OK):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))
        tighten(Path(path), 0o600)
        for extra in ("-wal", "-shm"):
            if os.path.exists(path + extra):
                tighten(Path(path + extra), 0o600)
    except OSError as e:
        raise StoreError(f"cannot write {path} ({e.strerror or e}), where the server keeps its "
                         f"{what}: a server that cannot keep them would lose them at its next "
                         "restart. Make the folder and the file writable by this user, or give "
                         "the server another folder (XDG_STATE_HOME=/some/folder)") from None
    db: sqlite3.Connection | None = None
    try:
        db = _connect(path)
        found = db.execute("PRAGMA quick_check").fetchall()
        if found != [("ok",)]:
            raise _damaged(path, what, "SQLite's check finds it damaged: "
                           + "; ".join(str(r[0]) for r in found[:3]))
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        if version > STORE_SCHEMA:
            raise StoreError(f"{path} was written by a newer version of president (layout "
                             f"{version}; this one reads up to {STORE_SCHEMA}); run that "
                             "version, or give this one another state folder")
        db.execute("BEGIN IMMEDIATE")        # a real write: a read-only file fails here
        db.execute(f"PRAGMA user_version = {STORE_SCHEMA}")
        db.execute("COMMIT")
        return path, db
    except sqlite3.Error as e:
        if db is not None:
            db.close()
        text = str(e)
        if "readonly" in text or "read-only" in text or "unable to open" in text:
            raise StoreError(f"cannot write {path} ({text}), where the server keeps its {what}: "
                             "a server that cannot keep them would lose them at its next "
                             "restart. Make the folder and the file writable by this user, or "
                             "give the server another folder (XDG_STATE_HOME=/some/folder)") from None
        if "locked" in text or "busy" in text:
            raise StoreError(f"{path} is locked by another program ({text}); stop it (another "
                             "server, a backup, the sqlite3 shell) and start again") from None
        raise _damaged(path, what, f"SQLite says: {text}") from None
    except StoreError:
        if db is not None:
            db.close()
        raise


class LedgerChecks:
    """:meth:`vouches` and :meth:`check`, the same for every engine of the ledger: they ask
    only ``self.latest`` and ``self.created``."""

    created: float

    def latest(self, table_id: str) -> int | None:   # pragma: no cover - each engine's own
        raise NotImplementedError

    def vouches(self, table_id: str, version: int, sealed_at: float) -> bool:
        """Whether a record of ``table_id`` with ``version`` actions, sealed at ``sealed_at``
        (seconds since the epoch), has a history this ledger knows: it has an entry for the
        table (then :meth:`check` says whether the record is the newest), or the record has
        no action and was sealed since this ledger began. A record it does not vouch for may
        be older than a state the server has lost (a damaged or lost store and ledger):
        rebuilding from it could rewind a match."""
        if self.latest(table_id) is not None:
            return True
        return version == 0 and sealed_at >= math.floor(self.created)   # (whole seconds)

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


class Ledger(LedgerChecks):
    """Table id → version of the newest sealed record issued, in one SQLite file.

    Args:
        path: the SQLite file (``":memory:"`` for a ledger that lasts as long as the process).
            Its directory is created (mode 0700) if missing, and the file (and SQLite's
            ``-wal`` and ``-shm`` files beside it, which take its mode) with mode 0600;
            looser modes of existing ones are tightened.

    Raises:
        StoreError: the file cannot be kept (:func:`open_private_sqlite`).

    Thread-safe (one connection behind a lock); every write is committed at once (WAL journal,
    so a commit costs no disk flush of the whole file).
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self._lock = threading.Lock()
        self.path, db = open_private_sqlite(str(path), "saved-match versions")
        db.execute("CREATE TABLE IF NOT EXISTS issued (table_id TEXT PRIMARY KEY, "
                   "version INTEGER NOT NULL, at REAL NOT NULL)")
        db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value REAL NOT NULL)")
        # (a ledger from before this row existed counts from now: what it knew before is
        # still known by table, but a record it has no entry for is not vouched for)
        db.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('created', ?)", (time.time(),))
        db.execute("DELETE FROM issued WHERE at < ?", (time.time() - KEEP_SECONDS,))
        self.created = float(db.execute("SELECT value FROM meta WHERE key = 'created'").fetchone()[0])
        """When this ledger began (seconds since the epoch): a record sealed before then, of a
        table it has no entry for, has a history this server cannot vouch for."""
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

    def close(self) -> None:
        """Close the file."""
        with self._lock:
            self._db.close()


@runtime_checkable
class LedgerLike(Protocol):
    """What the server asks of a ledger of saved-match versions, whichever engine keeps it:
    :class:`Ledger` (SQLite) or :class:`~president.web.store_pg.PgLedger` (PostgreSQL)."""

    created: float

    def issued(self, table_id: str, version: int) -> None: ...

    def issued_many(self, versions: Sequence[tuple[str, int]]) -> None: ...

    def latest(self, table_id: str) -> int | None: ...

    def vouches(self, table_id: str, version: int, sealed_at: float) -> bool: ...

    def check(self, table_id: str, version: int) -> None: ...

    def close(self) -> None: ...
