"""``president admin backup FILE | restore FILE | tables [--store URL]``: look after the browser
game's store (docs/deploy.md, "Backups").

- ``backup FILE``: a consistent copy of the SQLite store (``web-tables.sqlite3``, every table
  and its accepted actions, and ``web-saved-matches.sqlite3``, the ledger of saved-match
  versions) in one SQLite file, made with SQLite's online backup API
  (:meth:`sqlite3.Connection.backup`): safe while ``president serve`` runs, which it never
  stops or slows for long (``cp`` of a file being written can give a damaged copy). The copy
  is checked (``PRAGMA quick_check``), mode 0600 (it holds seat tokens), and written under
  another name first, so ``FILE`` is always a whole backup.
- ``restore FILE``: put such a backup back, for a stopped server: refused while a server
  holds the state folder (``president serve``'s lock, :func:`~president.commands.serve.
  hold_state_dir`), and for a file that fails ``PRAGMA quick_check``, that is not a backup of
  this store, or that a newer version wrote. The files it replaces are kept beside it as
  ``*.before-restore-<time>``.
- ``tables``: the stored tables (id, kind, created, last active, actions), newest first, from
  either engine.

A PostgreSQL store (``--store postgresql://…`` or ``$PRESIDENT_STORE``) is backed up and
restored with PostgreSQL's own ``pg_dump`` and ``pg_restore``: ``backup`` and ``restore`` print
the commands to run (with the password masked) and exit with status 1, having done nothing,
so a backup timer never takes them for a backup made.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import os
import shlex
import sqlite3
import sys
import time
import urllib.parse
from pathlib import Path
from typing import Any, Iterator

HELP = "Back up, restore or list the browser game's stored tables."

TABLES_TABLES = ("tables", "actions")
"""The SQLite tables of ``web-tables.sqlite3`` (:class:`~president.web.store.TableStore`)."""
LEDGER_TABLES = ("issued", "meta")
"""The SQLite tables of ``web-saved-matches.sqlite3`` (:class:`~president.web.ledger.Ledger`)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``president admin``."""
    store_help = ("the store: postgresql://user:password@host:port/database, or a folder of "
                  "SQLite files (default $PRESIDENT_STORE, else the SQLite files of the state "
                  "folder, $XDG_STATE_HOME/president)")
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True,
                                parser_class=type(parser))
    backup = sub.add_parser("backup", help="copy the store into FILE (SQLite's online backup, "
                            "safe while the server runs)")
    backup.add_argument("file", metavar="FILE", help="the backup file to write")
    restore = sub.add_parser("restore", help="put a backup FILE back (the server stopped)")
    restore.add_argument("file", metavar="FILE", help="a file made by president admin backup")
    tables = sub.add_parser("tables", help="list the stored tables")
    tables.add_argument("--json", action="store_true", help="one JSON object a line")
    for p in (backup, restore, tables):
        p.add_argument("--store", default=None, metavar="URL", help=store_help)


def run(args: argparse.Namespace) -> int:
    """Do ``args.action``; returns the exit status (1 when it could not be done)."""
    from ..web.ledger import StoreError, default_state_dir
    from ..web.store import store_from_env
    from ..web.store_pg import is_postgres_address

    store = args.store or store_from_env()
    try:
        if store is not None and is_postgres_address(store):
            if args.action == "tables":
                return _show(_pg_tables(store), args.json)
            _print_pg_commands(args.action, store, args.file)
            return 1
        if store is not None and "://" in store:
            raise StoreError(f"the store address {store.split('://', 1)[0]}://… is not one "
                             "this command knows; give a folder of SQLite files, or "
                             "postgresql://user:password@host:port/database")
        folder = Path(store) if store is not None else default_state_dir()
        if args.action == "backup":
            return backup(folder, Path(args.file))
        if args.action == "restore":
            return restore(folder, Path(args.file), also=None if store is None else
                           default_state_dir())
        return _show(sqlite_tables(folder), args.json)
    except StoreError as e:
        print(f"president admin {args.action}: {e.message}", file=sys.stderr)
        return 1


# ---------------------------------------------------------------------------- SQLite


def _files(folder: Path) -> tuple[Path, Path]:
    from ..web.ledger import LEDGER_FILE
    from ..web.store import TABLES_FILE
    return folder / TABLES_FILE, folder / LEDGER_FILE


def _check(db: sqlite3.Connection, path: Path) -> None:
    """Raise :class:`StoreError` unless ``db`` passes ``PRAGMA quick_check``."""
    from ..web.ledger import StoreError
    try:
        found = db.execute("PRAGMA quick_check").fetchall()
    except sqlite3.DatabaseError as e:
        raise StoreError(f"{path} is damaged, or not a SQLite file (SQLite says: {e}); "
                         "give a whole backup") from None
    if found != [("ok",)]:
        raise StoreError(f"{path} is damaged: SQLite's quick_check finds "
                         + "; ".join(str(r[0]) for r in found[:3]))


def _schema(db: sqlite3.Connection, table: str) -> list[str]:
    """The SQL that makes ``table`` and its indexes in ``db``."""
    return [r[0] for r in db.execute(
        "SELECT sql FROM sqlite_master WHERE tbl_name = ? AND sql IS NOT NULL "
        "ORDER BY type = 'index'", (table,))]


def _source(path: Path) -> sqlite3.Connection:
    from ..web.ledger import BUSY_SECONDS, StoreError
    if not path.is_file():
        raise StoreError(f"there is no {path}: nothing to back up (is the store elsewhere? "
                         "give --store, or XDG_STATE_HOME as the server has it)")
    # mode=rw: never made anew where it is missing (nothing is written to it)
    return sqlite3.connect(f"file:{urllib.parse.quote(str(path.resolve()))}?mode=rw", uri=True,
                           timeout=BUSY_SECONDS)


@contextlib.contextmanager
def _partial(path: Path) -> Iterator[Path]:
    """A new file beside ``path`` (mode 0600) that becomes ``path`` only when the block ends
    without an error; removed otherwise."""
    partial = path.with_name(f"{path.name}.partial-{os.getpid()}")
    for leftover in (partial, Path(f"{partial}-journal"), Path(f"{partial}-wal")):
        leftover.unlink(missing_ok=True)
    os.close(os.open(partial, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600))
    try:
        yield partial
        os.replace(partial, path)
    finally:
        for leftover in (partial, Path(f"{partial}-journal"), Path(f"{partial}-wal"),
                         Path(f"{partial}-shm")):
            leftover.unlink(missing_ok=True)


def backup(folder: Path, target: Path) -> int:
    """Copy the SQLite store of ``folder`` (its tables and its ledger) into ``target``, one
    SQLite file; prints what it wrote. The ledger is copied first, so the tables are at least
    as new as the ledger."""
    from ..web.ledger import StoreError
    tables_file, ledger_file = _files(folder)
    if target.resolve() in (tables_file.resolve(), ledger_file.resolve()):
        raise StoreError(f"{target} is the store itself; give the backup another name")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with _partial(target) as partial:
            out = sqlite3.connect(partial)
            try:
                ledger_rows: dict[str, tuple[list[str], list[tuple[Any, ...]]]] = {}
                if ledger_file.is_file():
                    src = _source(ledger_file)
                    try:
                        mem = sqlite3.connect(":memory:")
                        src.backup(mem)                     # one consistent moment
                        for table in LEDGER_TABLES:
                            ledger_rows[table] = (_schema(mem, table), mem.execute(
                                f"SELECT * FROM {table}").fetchall())
                        mem.close()
                    finally:
                        src.close()
                src = _source(tables_file)
                try:
                    src.backup(out)                         # the tables: SQLite's online backup
                finally:
                    src.close()
                with out:
                    for table, (schema, rows) in ledger_rows.items():
                        for sql in schema:
                            out.execute(sql)
                        if rows:
                            marks = ",".join("?" * len(rows[0]))
                            out.executemany(f"INSERT INTO {table} VALUES ({marks})", rows)
                out.execute("PRAGMA journal_mode=DELETE")   # one file, nothing beside it
                _check(out, target)
                counts = [int(out.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0])
                          for t in ("tables", "actions")]
            finally:
                out.close()
    except sqlite3.Error as e:
        raise StoreError(f"could not back up {tables_file} to {target} (SQLite says: {e})") from None
    except OSError as e:
        raise StoreError(f"could not write the backup {target} ({e.strerror or e}); give a "
                         "file in a folder this user can write") from None
    ledger_note = "" if ledger_rows else f" (no {ledger_file.name} yet: no ledger in it)"
    print(f"Backed up {_many(counts[0], 'table')} and {_many(counts[1], 'action')} from "
          f"{folder} to {target}"
          f"{ledger_note}. Keep web-secret (or $PRESIDENT_WEB_SECRET) too: it opens the saved "
          "matches and is not in the backup.")
    return 0


def _read_backup(path: Path) -> sqlite3.Connection:
    """The backup ``path``, open read-only, checked: whole, a backup of this store, not newer."""
    from ..web.ledger import STORE_SCHEMA, StoreError
    if not path.is_file():
        raise StoreError(f"there is no backup file {path}")
    db = sqlite3.connect(f"file:{urllib.parse.quote(str(path.resolve()))}?mode=ro", uri=True)
    try:
        _check(db, path)
        names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not set(TABLES_TABLES) <= names:
            raise StoreError(f"{path} is not a backup of the game's store (it has no "
                             "tables and actions); give a file made by president admin backup")
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        if version > STORE_SCHEMA:
            raise StoreError(f"{path} was written by a newer version of president (layout "
                             f"{version}; this one reads up to {STORE_SCHEMA}); restore it "
                             "with that version")
    except BaseException:
        db.close()
        raise
    return db


def restore(folder: Path, source: Path, *, also: Path | None = None) -> int:
    """Put the backup ``source`` back as the SQLite store of ``folder``, holding ``folder``
    (and the state folder ``also``, when the store is a folder of its own) as ``president
    serve`` does, so no server starts meanwhile; refused while one runs."""
    from ..web.ledger import StoreError
    from .serve import hold_state_dir

    held: list[int] = []
    try:
        for place in dict.fromkeys([folder, *([also] if also is not None else [])]):
            try:
                fd, why = hold_state_dir(place)
            except OSError as e:
                raise StoreError(f"cannot use the folder {place} ({e.strerror or e})") from None
            if why is not None:
                raise StoreError(f"a server is running on {place} ({why.split(' is using')[0]}"
                                 "); stop it before restoring a backup: restore never "
                                 "replaces the files under a running server")
            if fd is not None:
                held.append(fd)
        backup_db = _read_backup(source)
        try:
            has_ledger = set(LEDGER_TABLES) <= {r[0] for r in backup_db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
            stamp = time.strftime("%Y%m%d-%H%M%S")
            tables_file, ledger_file = _files(folder)
            plan = [(tables_file, LEDGER_TABLES)]
            if has_ledger:
                plan.append((ledger_file, TABLES_TABLES))
            for final, drop in plan:
                with _partial(final) as partial:
                    out = sqlite3.connect(partial)
                    try:
                        backup_db.backup(out)
                        for table in drop:
                            out.execute(f"DROP TABLE IF EXISTS {table}")
                        out.execute("VACUUM")
                        _check(out, source)
                    finally:
                        out.close()
                    for suffix in ("", "-wal", "-shm"):     # the old file, kept aside whole
                        old = Path(f"{final}{suffix}")
                        if old.exists():
                            os.replace(old, f"{final}.before-restore-{stamp}{suffix}")
            counts = [int(backup_db.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0])
                      for t in TABLES_TABLES]
        finally:
            backup_db.close()
    except sqlite3.Error as e:
        raise StoreError(f"could not restore {source} into {folder} (SQLite says: {e})") from None
    except OSError as e:
        raise StoreError(f"could not restore into {folder} ({e.strerror or e})") from None
    finally:
        for fd in held:
            os.close(fd)
    note = "" if has_ledger else (" The backup has no ledger: the saved-match ledger was "
                                  "left as it was.")
    print(f"Restored {_many(counts[0], 'table')} and {_many(counts[1], 'action')} from "
          f"{source} into {folder} "
          f"(the files it replaced are kept as *.before-restore-{stamp}).{note} Start the "
          "server again.")
    return 0


def sqlite_tables(folder: Path) -> list[dict[str, Any]]:
    """The tables stored in the SQLite store of ``folder``, newest activity first."""
    from ..web.ledger import StoreError
    tables_file, _ = _files(folder)
    db = _source(tables_file)
    try:
        rows = db.execute(
            "SELECT t.id, t.setup, t.created, t.active, (SELECT COUNT(*) FROM actions a "
            "WHERE a.table_id = t.id) FROM tables t ORDER BY t.active DESC, t.id").fetchall()
    except sqlite3.Error as e:
        raise StoreError(f"cannot read {tables_file} (SQLite says: {e})") from None
    finally:
        db.close()
    return [_row(*r) for r in rows]


# ---------------------------------------------------------------------------- PostgreSQL


def _pg_tables(store: str) -> list[dict[str, Any]]:
    """The tables stored in the PostgreSQL store ``store``, newest activity first."""
    from ..web.store_pg import _kwargs, _modules, _open_error
    psycopg, _ = _modules()
    try:
        with psycopg.connect(store, **_kwargs(store)) as conn:
            rows = conn.execute(
                "SELECT t.id, t.setup, t.created, t.active, (SELECT COUNT(*) FROM "
                "president_actions a WHERE a.table_id = t.id) FROM president_tables t "
                "ORDER BY t.active DESC, t.id").fetchall()
    except psycopg.errors.UndefinedTable:
        return []                 # no server has used this database yet
    except psycopg.Error as e:
        raise _open_error(e, store, "tables") from None
    return [_row(*r) for r in rows]


def _schema_of(store: str) -> str | None:
    """The schema a store address names in its ``search_path`` option, if any."""
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(store).query)
    for option in query.get("options", []):
        for part in option.split():
            if part.startswith("-csearch_path="):
                return part.split("=", 1)[1].split(",")[0].strip() or None
    return None


def pg_commands(action: str, store: str, file: str) -> list[str]:
    """The ``pg_dump`` (``backup``) or ``pg_restore`` (``restore``) command for a PostgreSQL
    store, its password masked (:func:`~president.web.store_pg.mask_address`).

    >>> pg_commands("backup", "postgresql://me:pw@db/game", "/b/game.dump")
    ["pg_dump --format=custom --no-owner --file=/b/game.dump --dbname='postgresql://me:***@db/game'"]
    """
    from ..web.store_pg import mask_address
    address = shlex.quote(mask_address(store))
    schema = _schema_of(store)
    only = f" --schema={shlex.quote(schema)}" if schema else ""
    if action == "backup":
        return [f"pg_dump --format=custom --no-owner{only} --file={shlex.quote(file)} "
                f"--dbname={address}"]
    return [f"pg_restore --clean --if-exists --no-owner --dbname={address} {shlex.quote(file)}"]


def _print_pg_commands(action: str, store: str, file: str) -> None:
    from ..web.store_pg import mask_address
    what = ("backed up with PostgreSQL's own pg_dump (consistent while the server runs)"
            if action == "backup" else "restored with PostgreSQL's own pg_restore, the "
            "server stopped (every president serve on this store)")
    print(f"president admin {action}: nothing done. A PostgreSQL store "
          f"({mask_address(store)}) is {what}; run:")
    for line in pg_commands(action, store, file):
        print(f"  {line}")
    print("with the password in PGPASSWORD or ~/.pgpass, or written in place of *** "
          "(docs/deploy.md, \"Backups\").")


# ---------------------------------------------------------------------------- listing


def _many(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


def _when(seconds: float) -> str:
    return dt.datetime.fromtimestamp(float(seconds), dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S")


def _row(table_id: str, setup: str, created: float, active: float, actions: int) -> dict[str, Any]:
    try:
        kind = str(json.loads(setup).get("kind", "?"))
    except (ValueError, AttributeError):
        kind = "?"
    return {"id": table_id, "kind": kind, "created": _when(created),
            "last_active": _when(active), "actions": int(actions)}


def _show(rows: list[dict[str, Any]], as_json: bool) -> int:
    if as_json:
        for row in rows:
            print(json.dumps(row))
        return 0
    if not rows:
        print("No stored tables.")
        return 0
    heads = ("id", "kind", "created (UTC)", "last active (UTC)", "actions")
    cells = [[r["id"], r["kind"], r["created"], r["last_active"], str(r["actions"])] for r in rows]
    widths = [max(len(h), *(len(c[i]) for c in cells)) for i, h in enumerate(heads)]
    print("  ".join(h.ljust(w) for h, w in zip(heads, widths)).rstrip())
    for c in cells:
        print("  ".join(v.rjust(w) if i == 4 else v.ljust(w)
                        for i, (v, w) in enumerate(zip(c, widths))).rstrip())
    print(f"{_many(len(rows), 'table')}.")
    return 0
