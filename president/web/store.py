"""Every live table of the browser game on disk, so a crash loses no accepted action.

A table is its setup (rules, names, computer levels, seat tokens, the secret match seed: the
:meth:`~president.web.tables.Table.record` without its actions) and the list of its accepted
actions. :class:`TableStore` keeps both in one SQLite file (stdlib ``sqlite3``,
``web-tables.sqlite3`` in the server's state directory, mode 0600 in a 0700 folder): the
setup when the table is made, then each action *before* the server sends its result to
anyone, each in its own committed transaction. SQLite's write-ahead log makes a commit
durable against the death of the process (``kill -9``) without a flush to the disk per write
(``synchronous=NORMAL``; only a power cut could lose the last few).

After a restart, :meth:`TableStore.load` gives a table's record back, which replays through
the engine to the identical table (:meth:`~president.web.tables.Table.from_record`).

>>> store = TableStore(":memory:")
>>> store.add("t1", {"v": 1, "id": "t1", "kind": "match"}, now=100.0)
>>> store.append("t1", 0, [0, "3C"], now=101.0); store.append("t1", 1, [1, "pass"], now=102.0)
>>> store.load("t1")["log"]
[[0, '3C'], [1, 'pass']]
>>> store.expire(before=101.5)
[]
>>> store.expire(before=103.0)
['t1']
>>> store.load("t1") is None
True
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
import time
from pathlib import Path
from typing import Any, Callable, Iterator, Protocol, Sequence, runtime_checkable

from .ledger import (LEDGER_FILE, Ledger, LedgerLike, StoreError, listings_of,
                     open_private_sqlite)

__all__ = ["TableStore", "TableStoreLike", "TableOwners", "TABLES_FILE", "StoreError", "open_stores",
           "store_from_env", "STORE_ENV"]

TABLES_FILE = "web-tables.sqlite3"


def _text(value: Any) -> str:
    """``value`` as the compact JSON text the store keeps."""
    return json.dumps(value, separators=(",", ":"))


class TableStore:
    """Table id → setup and accepted actions, in one SQLite file.

    Args:
        path: the SQLite file, or ``":memory:"`` (nothing survives the process). Its folder
            is made with mode 0700.

    Raises:
        StoreError: the file cannot be kept: a folder or file that cannot be written, a
            damaged or truncated file, one of a newer version
            (:func:`~president.web.ledger.open_private_sqlite`). The server refuses to start
            then; it never keeps tables in memory that a restart would lose.

    Thread-safe. Each method is one committed transaction. Writes go through one connection
    behind a lock; reads (:meth:`load`, :meth:`setup`, ``in``, ``len``) through a second one
    behind a lock of their own, so a read never waits for a write's commit (the write-ahead
    log lets a reader see the last commit while a writer works). An in-memory store has one
    connection for both.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self._lock = threading.Lock()
        self.path, db = open_private_sqlite(str(path), "tables")
        db.execute("CREATE TABLE IF NOT EXISTS tables (id TEXT PRIMARY KEY, setup TEXT NOT NULL, "
                   "created REAL NOT NULL, active REAL NOT NULL, joined INTEGER NOT NULL DEFAULT 0)")
        db.execute("CREATE INDEX IF NOT EXISTS tables_active ON tables (active)")
        db.execute("CREATE TABLE IF NOT EXISTS actions (table_id TEXT NOT NULL, n INTEGER NOT NULL, "
                   "entry TEXT NOT NULL, PRIMARY KEY (table_id, n)) WITHOUT ROWID")
        # open tables (docs/web.md, "Open tables"): what the start screen lists of each
        db.execute("CREATE TABLE IF NOT EXISTS listed (table_id TEXT PRIMARY KEY, "
                   "listing TEXT NOT NULL, at REAL NOT NULL)")
        self._db = db
        self._read_lock, self._reader = self._lock, db
        if self.path != ":memory:":
            try:
                _, reader = open_private_sqlite(self.path, "tables")
            except StoreError:
                db.close()
                raise
            self._read_lock, self._reader = threading.Lock(), reader

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        """One transaction (the caller holds the lock): committed at the end of the block,
        rolled back if it raises."""
        self._db.execute("BEGIN")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def add(self, table_id: str, setup: dict[str, Any], *, entries: Sequence[Any] = (),
            now: float | None = None) -> None:
        """Keep a new table's setup (its record without actions) and ``entries``, the actions
        it has accepted already (a table rebuilt from a sealed record), all in one
        transaction: a crash keeps the whole table or none of it, never a shorter log."""
        at = time.time() if now is None else now
        rows = [(table_id, n, _text(e)) for n, e in enumerate(entries)]
        with self._lock, self._transaction():
            self._db.execute("INSERT OR REPLACE INTO tables (id, setup, created, active) "
                             "VALUES (?, ?, ?, ?)", (table_id, _text(setup), at, at))
            self._db.executemany("INSERT OR REPLACE INTO actions (table_id, n, entry) "
                                 "VALUES (?, ?, ?)", rows)

    def append(self, table_id: str, n: int, entry: Any, *, now: float | None = None) -> None:
        """Keep accepted action number ``n`` (0 for the first) of a table: ``[seat, text]``,
        or ``"n"`` for "the next deal was dealt". Committed before this returns."""
        self.append_many(table_id, n, [entry], now=now)

    def append_many(self, table_id: str, start: int, entries: Sequence[Any], *,
                    now: float | None = None) -> None:
        """Keep accepted actions number ``start``, ``start + 1``, ... of a table (as
        :meth:`append`), in one transaction committed before this returns."""
        self.append_batches([(table_id, start, [_text(e) for e in entries])], now=now)

    def append_batches(self, batches: Sequence[tuple[str, int, Sequence[str]]], *,
                       now: float | None = None) -> None:
        """Keep the accepted actions of several tables at once: each ``(table_id, start,
        texts)``, the entries already encoded as JSON text, as :meth:`append_many`, all in one
        transaction committed before this returns (a group commit: one write for every table
        that acted in the same moment)."""
        at = time.time() if now is None else now
        rows = [(table_id, int(start) + i, text)
                for table_id, start, texts in batches for i, text in enumerate(texts)]
        touched = [(at, table_id) for table_id in dict.fromkeys(b[0] for b in batches)]
        with self._lock, self._transaction():
            self._db.executemany("INSERT OR REPLACE INTO actions (table_id, n, entry) VALUES (?, ?, ?)",
                                 rows)
            self._db.executemany("UPDATE tables SET active = ? WHERE id = ?", touched)

    def list_table(self, table_id: str, listing: dict[str, Any] | None, *,
                   now: float | None = None) -> None:
        """Put an open table on the list of open tables with what the start screen shows of
        it (``listing``, JSON-able), or take it off (``None``). One transaction."""
        at = time.time() if now is None else now
        with self._lock, self._transaction():
            if listing is None:
                self._db.execute("DELETE FROM listed WHERE table_id = ?", (table_id,))
            else:
                self._db.execute("INSERT OR REPLACE INTO listed (table_id, listing, at) "
                                 "VALUES (?, ?, ?)", (table_id, _text(listing), at))

    def listed(self, limit: int = 50) -> list[tuple[str, dict[str, Any]]]:
        """The open tables on the list, the newest first: ``(table_id, listing)`` of at most
        ``limit`` tables the store still keeps."""
        with self._read_lock:
            rows = self._reader.execute(
                "SELECT l.table_id, l.listing FROM listed l JOIN tables t ON t.id = l.table_id "
                "ORDER BY l.at DESC LIMIT ?", (int(limit),)).fetchall()
        return listings_of(rows)

    def joined(self, table_id: str, *, now: float | None = None) -> None:
        """Note that a player joined the table (it is no longer a table nobody took)."""
        at = time.time() if now is None else now
        with self._lock:
            self._db.execute("UPDATE tables SET joined = 1, active = ? WHERE id = ?", (at, table_id))

    def load(self, table_id: str) -> dict[str, Any] | None:
        """The table's record (setup plus ``"log"``: every accepted action in order), or
        ``None`` if the store has no such table."""
        with self._read_lock:
            self._reader.execute("BEGIN")       # the setup and the log of one moment
            try:
                row = self._reader.execute("SELECT setup FROM tables WHERE id = ?",
                                           (table_id,)).fetchone()
                entries = [] if row is None else self._reader.execute(
                    "SELECT entry FROM actions WHERE table_id = ? ORDER BY n", (table_id,)).fetchall()
            finally:
                self._reader.execute("COMMIT")
        if row is None:
            return None
        record: dict[str, Any] = json.loads(row[0])
        record["log"] = [json.loads(e) for (e,) in entries]
        return record

    def setup(self, table_id: str) -> dict[str, Any] | None:
        """The table's setup alone (no actions: one row, whatever the length of its log),
        or ``None`` if the store has no such table."""
        with self._read_lock:
            row = self._reader.execute("SELECT setup FROM tables WHERE id = ?", (table_id,)).fetchone()
        if row is None:
            return None
        setup: dict[str, Any] = json.loads(row[0])
        return setup

    def __contains__(self, table_id: object) -> bool:
        with self._read_lock:
            return self._reader.execute("SELECT 1 FROM tables WHERE id = ?",
                                        (table_id,)).fetchone() is not None

    def __len__(self) -> int:
        with self._read_lock:
            return int(self._reader.execute("SELECT COUNT(*) FROM tables").fetchone()[0])

    def remove(self, table_id: str) -> None:
        """Forget a table and its actions."""
        with self._lock, self._transaction():
            self._db.execute("DELETE FROM actions WHERE table_id = ?", (table_id,))
            self._db.execute("DELETE FROM tables WHERE id = ?", (table_id,))

    def expire(self, *, before: float, unjoined_before: float | None = None,
               limit: int = 1000, keep: Callable[[str], bool] | None = None,
               now: float | None = None) -> list[str]:
        """Forget tables idle since before ``before`` (seconds since the epoch), and tables
        nobody joined made before ``unjoined_before``; at most ``limit`` at a time, found by
        index (no walk over every table). A table for which ``keep(id)`` is true (in use: a
        page is open) stays, and its idle time starts again at ``now``. Returns the ids
        forgotten."""
        with self._lock:
            ids = [r[0] for r in self._db.execute(
                "SELECT id FROM tables WHERE active < ? ORDER BY active LIMIT ?", (before, limit))]
            if unjoined_before is not None and len(ids) < limit:
                ids += [r[0] for r in self._db.execute(
                    "SELECT id FROM tables WHERE joined = 0 AND active < ? ORDER BY active LIMIT ?",
                    (unjoined_before, limit - len(ids))) if r[0] not in ids]
            kept = [i for i in ids if keep is not None and keep(i)]
            if kept:
                at = time.time() if now is None else now
                with self._transaction():
                    self._db.executemany("UPDATE tables SET active = ? WHERE id = ?",
                                         [(at, i) for i in kept])
                ids = [i for i in ids if i not in kept]
            if ids:
                with self._transaction():
                    self._db.executemany("DELETE FROM actions WHERE table_id = ?", [(i,) for i in ids])
                    self._db.executemany("DELETE FROM tables WHERE id = ?", [(i,) for i in ids])
        return ids

    def close(self) -> None:
        """Close the file."""
        with self._lock, self._read_lock if self._reader is not self._db else contextlib.nullcontext():
            self._db.close()
            self._reader.close()


@runtime_checkable
class TableStoreLike(Protocol):
    """What the server asks of a table store, whichever engine keeps it: :class:`TableStore`
    (SQLite, the default) or :class:`~president.web.store_pg.PgTableStore` (PostgreSQL).
    Every method is one committed transaction and thread-safe; the meanings are
    :class:`TableStore`'s."""

    def add(self, table_id: str, setup: dict[str, Any], *, entries: Sequence[Any] = (),
            now: float | None = None) -> None: ...

    def append(self, table_id: str, n: int, entry: Any, *, now: float | None = None) -> None: ...

    def append_many(self, table_id: str, start: int, entries: Sequence[Any], *,
                    now: float | None = None) -> None: ...

    def append_batches(self, batches: Sequence[tuple[str, int, Sequence[str]]], *,
                       now: float | None = None) -> None: ...

    def joined(self, table_id: str, *, now: float | None = None) -> None: ...

    def load(self, table_id: str) -> dict[str, Any] | None: ...

    def setup(self, table_id: str) -> dict[str, Any] | None: ...

    def __contains__(self, table_id: object) -> bool: ...

    def __len__(self) -> int: ...

    def list_table(self, table_id: str, listing: dict[str, Any] | None, *,
                   now: float | None = None) -> None: ...

    def listed(self, limit: int = 50) -> list[tuple[str, dict[str, Any]]]: ...

    def remove(self, table_id: str) -> None: ...

    def expire(self, *, before: float, unjoined_before: float | None = None,
               limit: int = 1000, keep: Callable[[str], bool] | None = None,
               now: float | None = None) -> list[str]: ...

    def close(self) -> None: ...


@runtime_checkable
class TableOwners(Protocol):
    """Which tables this process owns, where several processes share one store
    (:class:`~president.web.store_pg.PgOwners`): a process keeps a table in memory, and acts
    on it, only while it owns it."""

    def take(self, table_id: str) -> bool: ...

    def let_go(self, table_id: str) -> None: ...

    def settle(self, table_id: str) -> None: ...

    def close(self) -> None: ...


STORE_ENV = "PRESIDENT_STORE"
"""The environment variable that names the store when ``president serve --store`` does not."""


def store_from_env() -> str | None:
    """``$PRESIDENT_STORE``, or ``None`` when unset or empty (the SQLite files)."""
    return os.environ.get(STORE_ENV) or None


def open_stores(store: str | None, state_dir: str | os.PathLike[str], *, shared: bool = False
                ) -> tuple[TableStoreLike, LedgerLike]:
    """The table store and the ledger of saved matches, from a store address.

    Args:
        store: ``None`` (or a folder's path): the SQLite files of the state folder
            (``web-tables.sqlite3`` and ``web-saved-matches.sqlite3`` in ``state_dir``, or in
            the folder given); ``postgresql://user:password@host:port/database``: both in that
            PostgreSQL database (:mod:`president.web.store_pg`).
        state_dir: the server's state folder (the SQLite files' home).
        shared: several server processes share this (PostgreSQL) store, each owning its
            tables (``president serve --shared-store``); default ``False``: a second server
            on the same PostgreSQL store is refused.

    Raises:
        StoreError: either cannot be kept (the message names the file or the address, never
            its password, the problem and what to do); nothing stays open then.
    """
    if store is not None and store.startswith(("postgresql://", "postgres://")):
        from .store_pg import PgLedger, PgTableStore
        pg_ledger = PgLedger(store)
        try:
            pg_store = PgTableStore(store, shared=shared)
            pg_store.ledger = pg_ledger     # one statement keeps an action and its version
            return pg_store, pg_ledger
        except BaseException:
            pg_ledger.close()
            raise
    if shared:
        raise StoreError("several processes can share only a PostgreSQL store (--shared-store "
                         "needs --store postgresql://user:password@host:port/database)")
    if store is not None and "://" in store:
        raise StoreError(f"the store address {store.split('://', 1)[0]}://… is not one this "
                         "server knows; give a folder for SQLite files, or "
                         "postgresql://user:password@host:port/database")
    folder = Path(store) if store is not None else Path(state_dir)
    ledger = Ledger(folder / LEDGER_FILE)
    try:
        return TableStore(folder / TABLES_FILE), ledger
    except BaseException:
        ledger.close()
        raise
