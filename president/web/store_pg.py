"""The table store and the ledger of saved matches in PostgreSQL (psycopg 3).

The same things as the SQLite engine (:class:`~president.web.store.TableStore`,
:class:`~president.web.ledger.Ledger`), with the same methods and meanings: every table's
setup, each accepted action committed before its result is sent, the newest saved-match
version issued per table. :func:`~president.web.store.open_stores` opens them from a store
address, ``postgresql://user:password@host:port/database`` (``president serve --store`` or
``$PRESIDENT_STORE``; docs/web.md, "The store: SQLite or PostgreSQL").

The layout is one schema with versioned migrations (:data:`MIGRATIONS`): the table
``president_schema`` holds the versions applied; at open, the missing ones are applied in
order, in one transaction, under an advisory lock of the schema (two servers starting
together never both migrate). A database of a newer version is refused (:class:`StoreError`).

Writes go through a small pool of connections (``psycopg_pool``), so the group commit's writer
threads write in parallel, and a write's row locks hold only the tables it touches. Each write
is one statement (one round trip, one committed transaction).

psycopg is imported when a store is opened: without it, :class:`StoreError` says to install
the ``postgres`` extra.
"""

from __future__ import annotations

import json
import logging
import math
import os
import re
import secrets
import socket
import threading
import time
import urllib.parse
from typing import TYPE_CHECKING, Any, Callable, Sequence, TypeVar

from .ledger import KEEP_SECONDS, LedgerChecks, StoreError, listings_of

if TYPE_CHECKING:
    import psycopg
    import psycopg_pool

__all__ = ["PgTableStore", "PgLedger", "PgOwners", "MIGRATIONS", "SCHEMA_VERSION", "mask_address",
           "is_postgres_address"]

log = logging.getLogger("president.web")

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    # 1: the tables, their actions, the saved-match versions issued and the ledger's start
    ("CREATE TABLE president_tables (id TEXT PRIMARY KEY, setup TEXT NOT NULL, "
     "created DOUBLE PRECISION NOT NULL, active DOUBLE PRECISION NOT NULL, "
     "joined BOOLEAN NOT NULL DEFAULT FALSE)",
     "CREATE INDEX president_tables_active ON president_tables (active)",
     "CREATE TABLE president_actions (table_id TEXT NOT NULL, n INTEGER NOT NULL, "
     "entry TEXT NOT NULL, PRIMARY KEY (table_id, n))",
     "CREATE TABLE president_issued (table_id TEXT PRIMARY KEY, version INTEGER NOT NULL, "
     "at DOUBLE PRECISION NOT NULL)",
     "CREATE TABLE president_meta (key TEXT PRIMARY KEY, value DOUBLE PRECISION NOT NULL)"),
    # 2: the list of open tables (docs/web.md, "Open tables")
    ("CREATE TABLE president_listed (table_id TEXT PRIMARY KEY, listing TEXT NOT NULL, "
     "at DOUBLE PRECISION NOT NULL)",),
)
"""Migration ``i + 1`` is ``MIGRATIONS[i]``: statements applied once, in order. Only ever
append: a database records the versions it has."""

SCHEMA_VERSION = len(MIGRATIONS)
"""The newest layout this version of president knows."""

OWNER_APPLICATION = "president-owner "
"""The ``application_name`` of a process's table-lock connection begins so; the rest is the
process's name (:attr:`PgOwners.process`), which :meth:`PgOwners.owner_of` reads back."""

CONNECT_SECONDS = 10
"""How long a connection attempt waits for the server (unless the address says
``connect_timeout``)."""

RETRIES = 3
"""How often a write is tried again after a lost connection or a deadlock (each write is an
idempotent upsert or delete, so a retry of one that was in fact committed changes nothing)."""

T = TypeVar("T")


def is_postgres_address(store: str) -> bool:
    """Whether ``store`` names a PostgreSQL database (``postgresql://`` or ``postgres://``)."""
    return store.startswith(("postgresql://", "postgres://"))


def mask_address(store: str) -> str:
    """``store`` with its password (in the address or a ``password=`` parameter) replaced by
    ``***``: the form any message shows.

    >>> mask_address("postgresql://me:s3cret@db:5432/game?password=x&sslmode=require")
    'postgresql://me:***@db:5432/game?password=***&sslmode=require'
    """
    scheme, sep, rest = store.partition("://")
    if not sep:
        return "postgresql://…"
    cut = len(re.match(r"[^/?#]*", rest).group(0))   # type: ignore[union-attr]  # (always)
    netloc, tail = rest[:cut], rest[cut:]
    if "@" in netloc:
        login, host = netloc.rsplit("@", 1)
        if ":" in login:
            login = login.split(":", 1)[0] + ":***"
        netloc = f"{login}@{host}"
    tail = re.sub(r"([?&])password=[^&#]*", r"\1password=***", tail)
    return f"{scheme}{sep}{netloc}{tail}"


def _modules() -> tuple[Any, Any]:
    """psycopg and psycopg_pool, or the :class:`StoreError` that says how to get them."""
    try:
        import psycopg
        import psycopg_pool
    except ImportError as e:
        raise StoreError(f"a PostgreSQL store needs psycopg 3 and psycopg_pool ({e.name} is not "
                         "installed): pip install 'president-game[postgres]'") from None
    return psycopg, psycopg_pool


def _scrub(text: str, store: str) -> str:
    """A server or driver message with the address's password taken out (never shown)."""
    try:
        password = urllib.parse.urlsplit(store).password
    except ValueError:
        password = None
    return text.replace(password, "***") if password else text


def _open_error(e: Exception, store: str, what: str) -> StoreError:
    """The :class:`StoreError` for a failure opening the store at ``store``: what is wrong
    and what to do, without the password."""
    import psycopg

    where = mask_address(store)
    text = _scrub(" ".join(str(e).split()), store)
    lowered = text.lower()
    if isinstance(e, psycopg.errors.ReadOnlySqlTransaction):
        return StoreError(f"PostgreSQL at {where} is read-only ({text}), and it is to keep the "
                          f"server's {what}: a server that cannot keep them would lose them at "
                          "its next restart. Give it a primary it can write (not a standby, no "
                          "default_transaction_read_only)")
    if isinstance(e, psycopg.errors.InsufficientPrivilege):
        return StoreError(f"PostgreSQL at {where} does not let this user write the server's "
                          f"{what} ({text}); grant it the rights on its schema (CREATE, and "
                          "SELECT/INSERT/UPDATE/DELETE on the president_* tables) or use "
                          "another user")
    if isinstance(e, psycopg.errors.InvalidSchemaName):
        return StoreError(f"PostgreSQL at {where} has no schema to keep the server's {what} "
                          f"in ({text}); create the schema named by search_path, or correct it")
    if isinstance(e, psycopg.OperationalError):
        if ("password" in lowered or "authentication" in lowered
                or ("role" in lowered and "does not exist" in lowered)):
            return StoreError(f"PostgreSQL at {where} refused the login ({text}); correct the "
                              "user name and password in the store address (or PGPASSWORD, "
                              "~/.pgpass)")
        if "database" in lowered and "does not exist" in lowered:
            return StoreError(f"PostgreSQL at {where}: the database does not exist ({text}); "
                              "create it (createdb) or correct the store address")
        return StoreError(f"cannot reach PostgreSQL at {where} ({text}), where the server keeps "
                          f"its {what}; start the database server, or correct the store address "
                          "(--store or PRESIDENT_STORE)")
    return StoreError(f"cannot use PostgreSQL at {where} for the server's {what} ({text}); "
                      "check the database and the store address")


def _kwargs(store: str) -> dict[str, Any]:
    import psycopg.conninfo

    try:
        given = psycopg.conninfo.conninfo_to_dict(store)
    except psycopg.ProgrammingError as e:
        raise StoreError(f"the store address {mask_address(store)} cannot be read "
                         f"({_scrub(str(e), store)}); give postgresql://user:password@host:port/"
                         "database") from None
    extra: dict[str, Any] = {"autocommit": True}
    if "connect_timeout" not in given:
        extra["connect_timeout"] = CONNECT_SECONDS
    if "application_name" not in given:
        extra["application_name"] = "president"
    return extra


def _migrate(conn: psycopg.Connection[Any]) -> None:
    """Bring the schema up to :data:`SCHEMA_VERSION` (one transaction, under the schema's
    advisory lock), and write once (a read-only database fails here).

    Raises:
        StoreError: the database's layout is newer than this version knows.
        psycopg.Error: any failure of the database (the caller words it).
    """
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(hashtext('president-schema:' "
                     "|| coalesce(current_schema(), '')))")
        conn.execute("CREATE TABLE IF NOT EXISTS president_schema (version INTEGER PRIMARY KEY, "
                     "applied DOUBLE PRECISION NOT NULL)")
        row = conn.execute("SELECT coalesce(max(version), 0) FROM president_schema").fetchone()
        version = int(row[0]) if row is not None else 0
        if version > SCHEMA_VERSION:
            raise StoreError(f"the PostgreSQL store was written by a newer version of president "
                             f"(layout {version}; this one reads up to {SCHEMA_VERSION}); run that "
                             "version, or give this one another database or schema")
        for number in range(version + 1, SCHEMA_VERSION + 1):
            for statement in MIGRATIONS[number - 1]:
                conn.execute(statement)
            conn.execute("INSERT INTO president_schema (version, applied) VALUES (%s, %s)",
                         (number, time.time()))
            log.info("PostgreSQL store: layout %d applied", number)
        # a real write, as SQLite's open makes: a read-only database is refused here
        conn.execute("UPDATE president_schema SET applied = applied WHERE version = %s",
                     (SCHEMA_VERSION,))


class _Pg:
    """A pool of connections to one PostgreSQL store, checked and migrated at open."""

    def __init__(self, store: str, what: str, *, max_size: int) -> None:
        pg, pool_module = _modules()
        self.store = store
        self.path = mask_address(store)
        """The store's address without its password (what messages show)."""
        self.what = what
        kwargs = _kwargs(store)
        try:
            with pg.connect(store, **kwargs) as conn:
                _migrate(conn)
                self._opened(conn)
        except StoreError:
            raise
        except pg.Error as e:
            raise _open_error(e, store, what) from None
        self._errors = pg
        self._pool_timeout: type[Exception] = pool_module.PoolTimeout
        self.pool: psycopg_pool.ConnectionPool[Any] = pool_module.ConnectionPool(
            store, kwargs=kwargs, min_size=1, max_size=max_size, open=False,
            name=f"president-{what.split()[0]}", num_workers=1, timeout=30.0)
        try:
            self.pool.open(wait=True, timeout=CONNECT_SECONDS + 5)
        except Exception as e:
            self.pool.close()
            raise _open_error(e, store, what) from None

    def _opened(self, conn: psycopg.Connection[Any]) -> None:
        """What the engine does once at open, on the checking connection (a subclass's)."""

    def run(self, work: Callable[[psycopg.Connection[Any]], T]) -> T:
        """``work(connection)`` on a connection of the pool; tried again on a lost connection
        or a deadlock (:data:`RETRIES`)."""
        for attempt in range(RETRIES + 1):
            try:
                with self.pool.connection() as conn:
                    return work(conn)
            except (self._errors.OperationalError, self._errors.errors.DeadlockDetected) as e:
                if attempt == RETRIES or isinstance(e, self._pool_timeout):
                    raise                     # (a pool with no free connection: no retry)
                log.warning("PostgreSQL store (%s): %s; trying again", self.path,
                            _scrub(str(e), self.store).strip())
                time.sleep(0.05 * (attempt + 1))
        raise AssertionError("unreachable")   # pragma: no cover

    def close(self) -> None:
        self.pool.close()


_ISSUED = ("INSERT INTO president_issued (table_id, version, at) "
           "SELECT t, v, %(at)s FROM unnest(%(t)s::text[], %(v)s::int[]) AS u(t, v) "
           "ON CONFLICT (table_id) DO UPDATE SET "
           "version = greatest(president_issued.version, excluded.version), at = excluded.at")
"""The upsert of saved-match versions (:meth:`PgLedger.issued_many`, and
:meth:`PgTableStore.append_batches` with ``issued``); parameters ``t``, ``v``, ``at``."""


def _newest(versions: Sequence[tuple[str, int]]) -> dict[str, int]:
    """The highest version per table id."""
    newest: dict[str, int] = {}
    for table_id, version in versions:
        newest[table_id] = max(int(version), newest.get(table_id, int(version)))
    return newest


def _text(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


class PgTableStore(_Pg):
    """Table id → setup and accepted actions, in PostgreSQL: the methods and meanings of
    :class:`~president.web.store.TableStore`.

    Args:
        store: the address, ``postgresql://user:password@host:port/database`` (libpq's
            parameters in the query: ``?sslmode=require``, ``?options=-csearch_path%3Dgame``).
        exclusive: hold the store for this process (a session advisory lock, released when the
            process ends, ``kill -9`` included): a second server on the same database and
            schema is refused, as ``president serve`` refuses a second one on a state folder.
        shared: one of several cooperating servers on this store (``president serve
            --shared-store``): the same advisory lock held in shared mode, so shared servers
            start side by side, and a server without the flag is refused while any runs
            (and they while it runs). Each table is then owned by one of them
            (:class:`PgOwners`).

    Raises:
        StoreError: the database cannot be reached or written, its layout is newer, psycopg is
            missing, or (``exclusive``, ``shared``) another server holds it.

    Thread-safe: each method is one committed transaction on a connection of a pool of up to
    six, so writes of different tables run in parallel.
    """

    def __init__(self, store: str, *, exclusive: bool = True, shared: bool = False) -> None:
        super().__init__(store, "tables", max_size=6)
        self._holder: psycopg.Connection[Any] | None = None
        if exclusive or shared:
            pg = self._errors
            how = "pg_try_advisory_lock_shared" if shared else "pg_try_advisory_lock"
            try:
                holder = pg.connect(store, **_kwargs(store))
                row = holder.execute(f"SELECT {how}(hashtext('president-server:' "
                                     "|| coalesce(current_schema(), '')))").fetchone()
            except pg.Error as e:
                self.pool.close()
                raise _open_error(e, store, self.what) from None
            if not (row and row[0]):
                holder.close()
                self.pool.close()
                if shared:
                    raise StoreError(f"a president server without --shared-store uses the "
                                     f"PostgreSQL store at {self.path}; stop it first, or start "
                                     "every server on this store with --shared-store")
                raise StoreError(f"another president server uses the PostgreSQL store at "
                                 f"{self.path}; stop it first (two servers on one store would "
                                 "each keep their own copy of the same tables), or give this one "
                                 "another database or schema")
            self._holder = holder
        self._lock = threading.Lock()

    def add(self, table_id: str, setup: dict[str, Any], *, entries: Sequence[Any] = (),
            now: float | None = None) -> None:
        """As :meth:`TableStore.add <president.web.store.TableStore.add>`: the setup and
        ``entries`` in one transaction."""
        at = time.time() if now is None else now
        texts = [_text(e) for e in entries]

        def work(conn: psycopg.Connection[Any]) -> None:
            conn.execute(
                "WITH t AS (INSERT INTO president_tables (id, setup, created, active, joined) "
                "VALUES (%(id)s, %(setup)s, %(at)s, %(at)s, FALSE) ON CONFLICT (id) DO UPDATE "
                "SET setup = excluded.setup, created = excluded.created, "
                "active = excluded.active, joined = FALSE) "
                "INSERT INTO president_actions (table_id, n, entry) "
                "SELECT %(id)s, n - 1, entry FROM unnest(%(texts)s::text[]) "
                "WITH ORDINALITY AS u(entry, n) "
                "ON CONFLICT (table_id, n) DO UPDATE SET entry = excluded.entry",
                {"id": table_id, "setup": _text(setup), "at": at, "texts": texts})
        self.run(work)

    def append(self, table_id: str, n: int, entry: Any, *, now: float | None = None) -> None:
        """Keep accepted action number ``n`` of a table, committed before this returns."""
        self.append_many(table_id, n, [entry], now=now)

    def append_many(self, table_id: str, start: int, entries: Sequence[Any], *,
                    now: float | None = None) -> None:
        """Keep accepted actions number ``start``, ``start + 1``, ... of a table."""
        self.append_batches([(table_id, start, [_text(e) for e in entries])], now=now)

    ledger: "PgLedger | None" = None
    """The :class:`PgLedger` of the same database (set by
    :func:`~president.web.store.open_stores`), whose versions :meth:`append_batches` can note
    in its own statement: one round trip and one transaction per group of accepted actions
    instead of two (:meth:`~president.web.tables.Tables._accepted`)."""

    def append_batches(self, batches: Sequence[tuple[str, int, Sequence[str]]], *,
                       now: float | None = None,
                       issued: Sequence[tuple[str, int]] = ()) -> None:
        """Keep the accepted actions of several tables (``(table_id, start, texts)``, the
        entries as JSON text) in one transaction committed before this returns; with
        ``issued``, note those ``(table_id, version)`` pairs for :class:`PgLedger` in the same
        statement (as :meth:`PgLedger.issued_many` does: the version only grows)."""
        at = time.time() if now is None else now
        rows: dict[tuple[str, int], str] = {}
        for table_id, start, texts in batches:
            for i, text in enumerate(texts):
                rows[(table_id, int(start) + i)] = text
        ids = sorted(dict.fromkeys(b[0] for b in batches))
        newest = _newest(issued)
        versions = ("b AS (" + _ISSUED + "), ") if newest else ""

        def work(conn: psycopg.Connection[Any]) -> None:
            conn.execute(
                f"WITH {versions}a AS (INSERT INTO president_actions (table_id, n, entry) "
                "SELECT * FROM unnest(%(tid)s::text[], %(n)s::int[], %(entry)s::text[]) "
                "ON CONFLICT (table_id, n) DO UPDATE SET entry = excluded.entry) "
                "UPDATE president_tables SET active = %(at)s WHERE id = ANY(%(ids)s::text[])",
                {"tid": [k[0] for k in rows], "n": [k[1] for k in rows],
                 "entry": list(rows.values()), "at": at, "ids": ids,
                 "t": list(newest), "v": list(newest.values())})
        self.run(work)

    def joined(self, table_id: str, *, now: float | None = None) -> None:
        """Note that a player joined the table."""
        at = time.time() if now is None else now
        self.run(lambda conn: conn.execute(
            "UPDATE president_tables SET joined = TRUE, active = %s WHERE id = %s",
            (at, table_id)))

    def load(self, table_id: str) -> dict[str, Any] | None:
        """The table's record (setup plus ``"log"``), or ``None``: one statement, so the setup
        and the log are of one moment."""
        row = self.run(lambda conn: conn.execute(
            "SELECT setup, ARRAY(SELECT entry FROM president_actions WHERE table_id = t.id "
            "ORDER BY n) FROM president_tables t WHERE id = %s", (table_id,)).fetchone())
        if row is None:
            return None
        record: dict[str, Any] = json.loads(row[0])
        record["log"] = [json.loads(e) for e in row[1]]
        return record

    def setup(self, table_id: str) -> dict[str, Any] | None:
        """The table's setup alone, or ``None``."""
        row = self.run(lambda conn: conn.execute(
            "SELECT setup FROM president_tables WHERE id = %s", (table_id,)).fetchone())
        if row is None:
            return None
        setup: dict[str, Any] = json.loads(row[0])
        return setup

    def __contains__(self, table_id: object) -> bool:
        if not isinstance(table_id, str):
            return False
        return self.run(lambda conn: conn.execute(
            "SELECT 1 FROM president_tables WHERE id = %s", (table_id,)).fetchone()) is not None

    def __len__(self) -> int:
        row = self.run(lambda conn: conn.execute(
            "SELECT count(*) FROM president_tables").fetchone())
        return int(row[0]) if row is not None else 0

    def list_table(self, table_id: str, listing: dict[str, Any] | None, *,
                   now: float | None = None) -> None:
        """:meth:`~president.web.store.TableStore.list_table`."""
        at = time.time() if now is None else now
        if listing is None:
            self.run(lambda conn: conn.execute(
                "DELETE FROM president_listed WHERE table_id = %s", (table_id,)))
        else:
            self.run(lambda conn: conn.execute(
                "INSERT INTO president_listed (table_id, listing, at) VALUES (%s, %s, %s) "
                "ON CONFLICT (table_id) DO UPDATE SET listing = excluded.listing, at = excluded.at",
                (table_id, _text(listing), at)))

    def listed(self, limit: int = 50) -> list[tuple[str, dict[str, Any]]]:
        """:meth:`~president.web.store.TableStore.listed`."""
        rows = self.run(lambda conn: conn.execute(
            "SELECT l.table_id, l.listing FROM president_listed l JOIN president_tables t "
            "ON t.id = l.table_id ORDER BY l.at DESC LIMIT %s", (int(limit),)).fetchall())
        return listings_of(rows)

    def remove(self, table_id: str) -> None:
        """Forget a table and its actions (one transaction)."""
        self.run(lambda conn: conn.execute(
            "WITH a AS (DELETE FROM president_actions WHERE table_id = %(id)s) "
            "DELETE FROM president_tables WHERE id = %(id)s", {"id": table_id}))

    def expire(self, *, before: float, unjoined_before: float | None = None,
               limit: int = 1000, keep: Callable[[str], bool] | None = None,
               now: float | None = None) -> list[str]:
        """As :meth:`TableStore.expire <president.web.store.TableStore.expire>`. A table that
        acted (or was joined) between the search and the removal stays: the removal asks the
        same question of each row again. One sweep at a time."""
        with self._lock:
            def find(conn: psycopg.Connection[Any]) -> list[str]:
                ids = [str(r[0]) for r in conn.execute(
                    "SELECT id FROM president_tables WHERE active < %s ORDER BY active LIMIT %s",
                    (before, limit))]
                if unjoined_before is not None and len(ids) < limit:
                    ids += [str(r[0]) for r in conn.execute(
                        "SELECT id FROM president_tables WHERE NOT joined AND active < %s "
                        "ORDER BY active LIMIT %s", (unjoined_before, limit - len(ids)))
                        if r[0] not in ids]
                return ids
            ids = self.run(find)
            kept = [i for i in ids if keep is not None and keep(i)]
            if kept:
                at = time.time() if now is None else now
                self.run(lambda conn: conn.execute(
                    "UPDATE president_tables SET active = %s WHERE id = ANY(%s::text[])",
                    (at, kept)))
                ids = [i for i in ids if i not in kept]
            if not ids:
                return []
            unjoined = -math.inf if unjoined_before is None else unjoined_before
            gone = {str(r[0]) for r in self.run(lambda conn: conn.execute(
                "WITH gone AS (DELETE FROM president_tables WHERE id = ANY(%(ids)s::text[]) "
                "AND (active < %(before)s OR (NOT joined AND active < %(unjoined)s)) "
                "RETURNING id), "
                "a AS (DELETE FROM president_actions WHERE table_id IN (SELECT id FROM gone)) "
                "SELECT id FROM gone",
                {"ids": ids, "before": before, "unjoined": unjoined}).fetchall())}
        return [i for i in ids if i in gone]

    def close(self) -> None:
        """Close the pool (and give the store back for another server)."""
        super().close()
        if self._holder is not None:
            self._holder.close()
            self._holder = None


class PgOwners:
    """Which tables this process owns, among several processes sharing one PostgreSQL store
    (``president serve --shared-store`` or ``--workers N``; docs/web.md, "Several
    processes").

    A table is owned by exactly one process at a time: the owner holds a session advisory
    lock of the table (a 64-bit hash of the schema and the table id) on a connection of its
    own. PostgreSQL releases it when that session ends, so the tables of a process that dies
    (``kill -9`` included) can be taken over by another at once.

    :meth:`take` marks a table wanted and holds its lock (``False``: another process holds
    it); :meth:`let_go` marks it unwanted and :meth:`settle` then gives the lock back if it is
    still unwanted (:class:`~president.web.tables.Tables` calls it in its writer thread, after
    the table's pending writes), so a table that comes back meanwhile keeps its lock.

    Raises:
        StoreError: the database cannot be reached (at open, or by :meth:`take` once the
            connection was lost: the locks it held are gone with it).

    Thread-safe (one lock around the connection).
    """

    def __init__(self, store: str, process: str | None = None) -> None:
        pg, _ = _modules()
        self.store = store
        self.path = mask_address(store)
        self._errors = pg
        self.process = process or (f"{socket.gethostname()[:32]}-{os.getpid()}-"
                                   f"{secrets.token_hex(3)}")
        """This process's name among those sharing the store: its lock connection's
        ``application_name`` (``president-owner <name>``), by which :meth:`owner_of` tells
        which process owns a table."""
        kwargs = _kwargs(store)
        if len((OWNER_APPLICATION + self.process).encode()) > 63:  # PostgreSQL's NAMEDATALEN
            raise ValueError(f"a process name of at most {63 - len(OWNER_APPLICATION)} bytes, "
                             f"not {len(self.process.encode())}")
        kwargs["application_name"] = OWNER_APPLICATION + self.process
        try:
            self._conn: psycopg.Connection[Any] | None = pg.connect(store, **kwargs)
        except pg.Error as e:
            raise _open_error(e, store, "table owners") from None
        self._lock = threading.Lock()
        self._held: set[str] = set()
        self._wanted: set[str] = set()

    _KEY = "hashtextextended('president-table:' || coalesce(current_schema(), '') || ':' || %s, 0)"

    def take(self, table_id: str) -> bool:
        """Own ``table_id`` (``True``), or ``False`` if another process owns it."""
        with self._lock:
            if table_id in self._held:
                self._wanted.add(table_id)
                return True
            if self._conn is None:
                raise StoreError("the table owners' connection is closed")
            try:
                row = self._conn.execute(f"SELECT pg_try_advisory_lock({self._KEY})",
                                         (table_id,)).fetchone()
            except self._errors.Error as e:
                log.error("PostgreSQL store (%s): the table owners' connection failed (%s)",
                          self.path, _scrub(str(e), self.store).strip())
                raise StoreError(f"the PostgreSQL store at {self.path} cannot be reached to "
                                 "own a table") from None
            if not (row and row[0]):
                return False
            self._held.add(table_id)
            self._wanted.add(table_id)
            return True

    def let_go(self, table_id: str) -> None:
        """The table left this process's memory: its lock goes at the next :meth:`settle`."""
        with self._lock:
            self._wanted.discard(table_id)

    def settle(self, table_id: str) -> None:
        """Give the table's lock back unless it was taken again since :meth:`let_go`."""
        with self._lock:
            if table_id not in self._held or table_id in self._wanted or self._conn is None:
                return
            self._held.discard(table_id)
            try:
                self._conn.execute(f"SELECT pg_advisory_unlock({self._KEY})", (table_id,))
            except self._errors.Error as e:
                log.warning("PostgreSQL store (%s): a table's lock could not be given back "
                            "(%s)", self.path, _scrub(str(e), self.store).strip())

    def owner_of(self, table_id: str) -> str | None:
        """The name (:attr:`process`) of the process that owns ``table_id`` now, from
        PostgreSQL's own list of held locks (so never stale), or ``None`` when no process
        owns it (or this one does)."""
        with self._lock:
            if self._conn is None or table_id in self._held:
                return None
            try:
                row = self._conn.execute(
                    f"SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a "
                    f"ON a.pid = l.pid, (SELECT {self._KEY} AS k) key "
                    "WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 "
                    "AND l.database = (SELECT oid FROM pg_database "
                    "WHERE datname = current_database()) "
                    "AND l.classid::bigint = (key.k >> 32) & 4294967295 "
                    "AND l.objid::bigint = key.k & 4294967295", (table_id,)).fetchone()
            except self._errors.Error as e:
                log.warning("PostgreSQL store (%s): a table's owner could not be read (%s)",
                            self.path, _scrub(str(e), self.store).strip())
                return None
        name = row[0] if row else None
        if not isinstance(name, str) or not name.startswith(OWNER_APPLICATION):
            return None
        return name[len(OWNER_APPLICATION):] or None

    def owned(self) -> int:
        """How many tables this process owns now."""
        with self._lock:
            return len(self._held)

    def close(self) -> None:
        """Give every table back (the session ends)."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
            self._held.clear()
            self._wanted.clear()


class PgLedger(LedgerChecks, _Pg):
    """Table id → version of the newest sealed record issued, in PostgreSQL: the methods and
    meanings of :class:`~president.web.ledger.Ledger` (``created``, :meth:`issued`,
    :meth:`issued_many`, :meth:`latest`, :meth:`vouches`, :meth:`check`).

    Raises:
        StoreError: as :class:`PgTableStore`.
    """

    def __init__(self, store: str) -> None:
        self.created = 0.0
        super().__init__(store, "saved-match versions", max_size=3)

    def _opened(self, conn: psycopg.Connection[Any]) -> None:
        with conn.transaction():
            conn.execute("INSERT INTO president_meta (key, value) VALUES ('created', %s) "
                         "ON CONFLICT (key) DO NOTHING", (time.time(),))
            conn.execute("DELETE FROM president_issued WHERE at < %s",
                         (time.time() - KEEP_SECONDS,))
            row = conn.execute("SELECT value FROM president_meta WHERE key = 'created'").fetchone()
        self.created = float(row[0]) if row is not None else time.time()

    def issued(self, table_id: str, version: int) -> None:
        """Note that a record of ``table_id`` with ``version`` actions was sealed and sent."""
        self.issued_many([(table_id, version)])

    def issued_many(self, versions: Sequence[tuple[str, int]]) -> None:
        """:meth:`issued` for several pairs, in one transaction (the version only grows)."""
        newest = _newest(versions)
        if not newest:
            return
        self.run(lambda conn: conn.execute(_ISSUED, {"t": list(newest), "v": list(newest.values()),
                                                     "at": time.time()}))

    def latest(self, table_id: str) -> int | None:
        """The newest version issued for ``table_id``, or ``None``."""
        row = self.run(lambda conn: conn.execute(
            "SELECT version FROM president_issued WHERE table_id = %s", (table_id,)).fetchone())
        return None if row is None else int(row[0])
