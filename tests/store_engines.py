"""The ``store_engine`` fixture: the same store tests on SQLite and on PostgreSQL.

A test that takes ``store_engine`` runs twice, ``[sqlite]`` and ``[postgresql]``. It gets a
:class:`StoreSpace`: a store address of its own (a fresh folder for SQLite files; for
PostgreSQL, a fresh schema ``pt_<random>`` of the test database, named by the address's
``search_path`` and dropped at the end), so runs never collide.

PostgreSQL is ``$PRESIDENT_TEST_POSTGRES`` (default ``postgresql://postgres@127.0.0.1:5432/test``,
as on the development machines and in CI). If it cannot be reached, or psycopg is missing, the
PostgreSQL tests FAIL saying so, never skip: set ``PRESIDENT_TEST_NO_POSTGRES=1`` to skip them
on a machine without PostgreSQL.
"""

from __future__ import annotations

import os
import secrets
import urllib.parse
from pathlib import Path
from typing import Any, Iterator

import pytest

PG_ENV = "PRESIDENT_TEST_POSTGRES"
NO_PG_ENV = "PRESIDENT_TEST_NO_POSTGRES"
DEFAULT_PG = "postgresql://postgres@127.0.0.1:5432/test"
ENGINES = ["sqlite", "postgresql"]


def postgres_base() -> str:
    """The test database's address, or the test fails (skips with ``$PRESIDENT_TEST_NO_POSTGRES=1``)."""
    base = os.environ.get(PG_ENV) or DEFAULT_PG
    if os.environ.get(NO_PG_ENV) == "1":
        pytest.skip(f"{NO_PG_ENV}=1: no PostgreSQL tests")
    try:
        import psycopg
        import psycopg_pool  # noqa: F401
    except ImportError as e:
        pytest.fail(f"the PostgreSQL store tests need psycopg and psycopg_pool ({e.name} is "
                    "missing): pip install -e '.[postgres]' (make setup does), or set "
                    f"{NO_PG_ENV}=1 to skip them", pytrace=False)
    try:
        with psycopg.connect(base, connect_timeout=5) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error as e:
        pytest.fail(f"PostgreSQL for the store tests is not reachable at {base} ({e}); start it, "
                    f"point {PG_ENV} at one, or set {NO_PG_ENV}=1 to skip these tests",
                    pytrace=False)
    return base


def with_search_path(base: str, schema: str, *, options: str = "") -> str:
    """``base`` with ``options=-csearch_path=<schema>`` (and more ``options``) in its query."""
    parts = urllib.parse.urlsplit(base)
    query = urllib.parse.parse_qsl(parts.query)
    query = [(k, v) for k, v in query if k != "options"]
    query.append(("options", f"-csearch_path={schema}" + (f" {options}" if options else "")))
    return urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(query, quote_via=urllib.parse.quote)))


class StoreSpace:
    """One test's store: its :attr:`address` (for ``open_stores`` and ``create_app(store=)``)
    and helpers."""

    def __init__(self, engine: str, address: str, state_dir: Path, base: str | None = None,
                 schema: str | None = None) -> None:
        self.engine = engine
        self.address = address
        self.state_dir = state_dir
        self.base = base
        self.schema = schema
        self.opened: list[Any] = []
        """Stores and ledgers opened through this space: closed at the test's end."""

    def _kept(self, *things: Any) -> Any:
        self.opened.extend(things)
        return things[0] if len(things) == 1 else things

    def close_all(self) -> None:
        for thing in self.opened:
            try:
                thing.close()
            except Exception:
                pass
        self.opened.clear()

    def open(self) -> tuple[Any, Any]:
        """``open_stores`` of this space: ``(table store, ledger)``."""
        from president.web.store import open_stores
        return self._kept(*open_stores(self.address, self.state_dir))

    def table_store(self) -> Any:
        from president.web.store import TableStore
        if self.engine == "sqlite":
            return self._kept(TableStore(Path(self.address) / "web-tables.sqlite3"))
        from president.web.store_pg import PgTableStore
        return self._kept(PgTableStore(self.address))

    def ledger(self) -> Any:
        from president.web.ledger import Ledger
        if self.engine == "sqlite":
            return self._kept(Ledger(Path(self.address) / "web-saved-matches.sqlite3"))
        from president.web.store_pg import PgLedger
        return self._kept(PgLedger(self.address))

    def sql(self, statement: str, params: Any = None) -> list[tuple[Any, ...]]:
        """Run ``statement`` in this space's PostgreSQL schema (PostgreSQL only)."""
        import psycopg
        assert self.engine == "postgresql"
        with psycopg.connect(self.address, autocommit=True) as conn:
            cur = conn.execute(statement, params)
            return cur.fetchall() if cur.description else []

    def lose_tables(self) -> None:
        """Lose the table store, keep the ledger (as a store file deleted or a restore)."""
        if self.engine == "sqlite":
            for suffix in ("", "-wal", "-shm"):
                (Path(self.address) / f"web-tables.sqlite3{suffix}").unlink(missing_ok=True)
        else:
            self.sql("DELETE FROM president_actions")
            self.sql("DELETE FROM president_tables")


@pytest.fixture(params=ENGINES)
def store_engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[StoreSpace]:
    """A fresh store of each engine (see the module's docstring)."""
    state = tmp_path / "state"
    if request.param == "sqlite":
        space = StoreSpace("sqlite", str(tmp_path / "store"), state)
        yield space
        space.close_all()
        return
    import psycopg
    base = postgres_base()
    schema = f"pt_{secrets.token_hex(6)}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    space = StoreSpace("postgresql", with_search_path(base, schema), state, base, schema)
    try:
        yield space
    finally:
        space.close_all()
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


@pytest.fixture
def shared_schema() -> Iterator[str]:
    """The address of a PostgreSQL schema of its own (the shared store of one deployment of
    several server processes), dropped after the test."""
    import psycopg
    base = postgres_base()
    schema = f"pt_{secrets.token_hex(6)}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield with_search_path(base, schema)
    finally:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
