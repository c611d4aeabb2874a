"""The store behind one interface, two engines (issue 34): SQLite (the default) and
PostgreSQL (``president serve --store postgresql://...``, president/web/store_pg.py).

Tests taking ``store_engine`` run on both (tests/store_engines.py), each on a store of its own
(for PostgreSQL a fresh schema, dropped at the end). PostgreSQL is
``$PRESIDENT_TEST_POSTGRES`` (default ``postgresql://postgres@127.0.0.1:5432/test``); when it
cannot be reached the PostgreSQL tests FAIL saying so. Set ``PRESIDENT_TEST_NO_POSTGRES=1`` to
skip them on a machine without PostgreSQL.
"""

from __future__ import annotations

import sys
import threading
import time

import pytest

from president.web.ledger import LedgerLike, StoreError
from president.web.store import TableStoreLike, open_stores
from tests.store_engines import postgres_base, with_search_path


def test_both_engines_satisfy_the_interface(store_engine):
    store, ledger = store_engine.open()
    assert isinstance(store, TableStoreLike) and isinstance(ledger, LedgerLike)
    assert type(store).__name__ == ("TableStore" if store_engine.engine == "sqlite"
                                    else "PgTableStore")


def test_a_table_its_actions_and_its_times(store_engine):
    store = store_engine.table_store()
    assert len(store) == 0 and "t1" not in store and store.load("t1") is None
    store.add("t1", {"v": 1, "id": "t1", "kind": "match"}, now=100.0)
    store.append("t1", 0, [0, "3C"], now=101.0)
    store.append("t1", 1, [1, "pass"], now=102.0)
    store.append_many("t1", 2, ["n", [2, "4D"]], now=103.0)
    assert store.load("t1") == {"v": 1, "id": "t1", "kind": "match",
                                "log": [[0, "3C"], [1, "pass"], "n", [2, "4D"]]}
    assert store.setup("t1") == {"v": 1, "id": "t1", "kind": "match"}
    assert "t1" in store and len(store) == 1 and 7 not in store
    assert store.expire(before=102.5) == []                 # active at 103
    assert store.expire(before=104.0) == ["t1"]
    assert store.load("t1") is None and store.setup("t1") is None and len(store) == 0


def test_add_with_entries_replaces_a_table_whole_and_remove_forgets_it(store_engine):
    store = store_engine.table_store()
    store.add("r", {"v": 1}, entries=[[0, "3C"], [1, "pass"]], now=10.0)
    assert store.load("r")["log"] == [[0, "3C"], [1, "pass"]]
    store.joined("r", now=11.0)
    store.add("r", {"v": 2}, entries=[[0, "4D"]], now=12.0)     # rebuilt: not joined again
    assert store.load("r") == {"v": 2, "log": [[0, "4D"], [1, "pass"]]}
    assert store.expire(before=0.0, unjoined_before=12.5) == ["r"]
    store.add("s", {"v": 1}, entries=["n"], now=20.0)
    store.remove("s")
    store.remove("nothing")
    assert "s" not in store and store.load("s") is None and len(store) == 0


def test_expire_unjoined_joined_keep_and_limit(store_engine):
    store = store_engine.table_store()
    for i in range(5):
        store.add(f"t{i}", {"i": i}, now=100.0 + i)
    store.joined("t0", now=104.5)                   # joined, and active again
    store.joined("t1", now=101.0)                   # joined, idle since 101
    # nobody joined t2..t4: they go at the unjoined deadline; t1 (joined) stays
    assert store.expire(before=50.0, unjoined_before=200.0, limit=2) == ["t2", "t3"]
    in_use = {"t4"}
    assert store.expire(before=50.0, unjoined_before=200.0, keep=in_use.__contains__,
                        now=300.0) == []
    assert "t4" in store                             # kept, its idle time starts again at 300
    assert store.expire(before=250.0) == ["t1", "t0"]   # oldest first
    assert store.expire(before=299.0, unjoined_before=299.0) == []
    assert store.expire(before=301.0) == ["t4"]
    assert len(store) == 0


def test_append_batches_keep_order_and_time_of_each_table(store_engine):
    store = store_engine.table_store()
    store.add("a", {"v": 1}, now=1.0)
    store.add("b", {"v": 1}, now=1.0)
    store.add("c", {"v": 1}, now=1.0)
    store.append_batches([("a", 0, ['[0,"3C"]']), ("b", 0, ['[2,"4D"]', '"n"']),
                          ("a", 1, ['[1,"pass"]'])], now=5.0)
    store.append_batches([("a", 2, ['[2,"5H"]'])], now=6.0)
    store.append_batches([("a", 2, ['[2,"6H"]'])], now=6.0)      # the same number: replaced
    assert store.load("a")["log"] == [[0, "3C"], [1, "pass"], [2, "6H"]]
    assert store.load("b")["log"] == [[2, "4D"], "n"]
    assert store.load("c")["log"] == []
    assert store.expire(before=5.5) == ["c", "b"]


def test_a_store_reopened_has_everything(store_engine):
    store, ledger = store_engine.open()
    store.add("x", {"v": 1}, now=time.time())
    store.append_many("x", 0, [[0, "3C"], [1, "pass"]])
    ledger.issued("x", 2)
    store.close()
    ledger.close()
    store, ledger = store_engine.open()
    assert store.load("x")["log"] == [[0, "3C"], [1, "pass"]]
    assert ledger.latest("x") == 2 and len(store) == 1


def test_writer_threads_write_different_tables_together(store_engine):
    """The group commit's four writer threads, each on its own tables: every action kept, in
    order."""
    store = store_engine.table_store()
    for w in range(4):
        store.add(f"w{w}", {"w": w})
    failures: list[BaseException] = []

    def writer(w: int) -> None:
        try:
            for n in range(40):
                store.append_batches([(f"w{w}", n, [f'[{w},"{n}"]'])])
        except BaseException as e:      # pragma: no cover - reported below
            failures.append(e)

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not failures
    for w in range(4):
        assert store.load(f"w{w}")["log"] == [[w, str(n)] for n in range(40)]


# ---------------------------------------------------------------- PostgreSQL alone


@pytest.fixture
def pg(store_engine):
    if store_engine.engine != "postgresql":
        pytest.skip("PostgreSQL only")
    return store_engine


@pytest.mark.parametrize("store_engine", ["postgresql"], indirect=True)
def test_a_row_lock_on_one_table_holds_only_that_table(pg):
    """Another transaction holds one table's row (as a slow write would): writes and reads of
    other tables go on, reads of the held table too; its own write waits for the lock."""
    import psycopg

    store = pg.table_store()
    store.add("slow", {"v": 1})
    store.add("fast", {"v": 1})
    with psycopg.connect(pg.address) as other:
        other.execute("SELECT 1 FROM president_tables WHERE id = 'slow' FOR UPDATE")
        # another table's write and the held table's read do not wait for the lock (which
        # is held until `other` rolls back below: waiting for it would never end)
        others = threading.Thread(target=lambda: (
            store.append_batches([("fast", 0, ['[0,"3C"]'])]),
            read.append(store.load("slow")["log"] == [] and "slow" in store)))
        read: list[bool] = []
        others.start()
        others.join(30)                           # a guard against hanging only
        assert read == [True]
        done = threading.Event()
        waiting = threading.Thread(target=lambda: (store.append("slow", 0, [1, "pass"]),
                                                   done.set()))
        waiting.start()
        assert not done.wait(0.5)                 # held by the other transaction
        other.rollback()
    waiting.join(10)
    assert done.is_set() and store.load("slow")["log"] == [[1, "pass"]]


@pytest.mark.parametrize("store_engine", ["postgresql"], indirect=True)
def test_migrations_are_versioned_and_applied_once_by_servers_starting_together(pg):
    from president.web.store_pg import SCHEMA_VERSION, PgLedger

    opened: list = []
    errors: list = []

    def start() -> None:
        try:
            opened.append(PgLedger(pg.address))
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=start) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    pg.opened.extend(opened)
    assert not errors and len(opened) == 4
    assert len({ledger.created for ledger in opened}) == 1
    rows = pg.sql("SELECT version FROM president_schema ORDER BY version")
    assert rows == [(v,) for v in range(1, SCHEMA_VERSION + 1)]
    tables = {r[0] for r in pg.sql(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = %s", (pg.schema,))}
    assert {"president_schema", "president_tables", "president_actions", "president_issued",
            "president_meta", "president_listed"} <= tables
    assert SCHEMA_VERSION == 2       # 2: the list of open tables


@pytest.mark.parametrize("store_engine", ["postgresql"], indirect=True)
def test_a_database_of_a_newer_version_is_refused(pg):
    from president.web.store_pg import SCHEMA_VERSION
    pg.ledger().close()
    pg.sql("INSERT INTO president_schema (version, applied) VALUES (%s, 0)", (SCHEMA_VERSION + 1,))
    with pytest.raises(StoreError, match=rf"newer version of president \(layout "
                                         rf"{SCHEMA_VERSION + 1}; this one reads up to "
                                         rf"{SCHEMA_VERSION}\)"):
        open_stores(pg.address, pg.state_dir)


@pytest.mark.parametrize("store_engine", ["postgresql"], indirect=True)
def test_a_read_only_database_is_refused(pg):
    address = with_search_path(pg.base, pg.schema, options="-cdefault_transaction_read_only=on")
    with pytest.raises(StoreError, match="is read-only") as e:
        open_stores(address, pg.state_dir)
    assert "lose them at its next restart" in e.value.message


def test_an_unreachable_server_and_a_wrong_login_are_refused_without_the_password(tmp_path):
    postgres_base()               # (fails, or skips with PRESIDENT_TEST_NO_POSTGRES=1)
    with pytest.raises(StoreError, match="cannot reach PostgreSQL at") as e:
        open_stores("postgresql://me:s3cret-pw@127.0.0.1:1/test", tmp_path)
    assert "s3cret-pw" not in e.value.message and "me:***@127.0.0.1:1" in e.value.message
    with pytest.raises(StoreError, match="refused the login") as e:
        open_stores("postgresql://no_such_role_xq:s3cret-pw@127.0.0.1:5432/test", tmp_path)
    assert "s3cret-pw" not in e.value.message


@pytest.mark.parametrize("store_engine", ["postgresql"], indirect=True)
def test_a_second_server_on_one_store_is_refused_until_the_first_closes(pg):
    first, ledger = pg.open()
    with pytest.raises(StoreError, match="another president server uses the PostgreSQL store"):
        open_stores(pg.address, pg.state_dir)
    first.close()
    ledger.close()
    pg.open()


def test_without_psycopg_the_store_says_what_to_install(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "psycopg", None)
    with pytest.raises(StoreError, match=r"pip install 'president-game\[postgres\]'"):
        open_stores("postgresql://postgres@127.0.0.1:5432/test", tmp_path)


def test_an_unknown_store_address_is_refused(tmp_path):
    with pytest.raises(StoreError, match="is not one this server knows"):
        open_stores("mysql://u:p@h/db", tmp_path)


def test_the_address_is_masked():
    from president.web.store_pg import mask_address
    assert mask_address("postgresql://u:pw@h:1/d") == "postgresql://u:***@h:1/d"
    assert mask_address("postgresql://u@h/d?password=pw") == "postgresql://u@h/d?password=***"
    assert mask_address("postgresql:///d") == "postgresql:///d"


def test_create_app_takes_the_store_from_the_environment(store_engine, monkeypatch):
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from president.web.app import create_app

    monkeypatch.setenv("PRESIDENT_STORE", store_engine.address)
    with TestClient(create_app(bot_delay=0, secret=b"s" * 32,
                               state_dir=store_engine.state_dir)) as c:
        made = c.post("/api/tables", json={"kind": "practice"}).json()
        engine = type(c.app.state.tables.store).__name__
    assert engine == ("TableStore" if store_engine.engine == "sqlite" else "PgTableStore")
    store = store_engine.table_store()
    assert made["table"] in store


def test_serve_offers_the_store_option():
    import argparse

    from president.commands.serve import add_arguments
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    assert parser.parse_args(["--store", "postgresql://x/y"]).store == "postgresql://x/y"
    assert "postgresql://user:password@host:port/database" in parser.format_help().replace(
        "\n", " ").replace("  ", "")


def test_serve_refuses_an_unreachable_store_without_showing_the_password(tmp_path, monkeypatch,
                                                                         capsys):
    pytest.importorskip("uvicorn")
    from president.cli import main
    postgres_base()
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("PRESIDENT_WEB_SECRET", "store-test")
    assert main(["serve", "--no-browser", "--port", "8999",
                 "--store", "postgresql://me:s3cret-pw@127.0.0.1:1/test"]) == 1
    err = capsys.readouterr().err
    assert "president serve: cannot reach PostgreSQL at postgresql://me:***@127.0.0.1:1/test" in err
    assert "s3cret-pw" not in err


@pytest.mark.parametrize("store_engine", ["postgresql"], indirect=True)
def test_serve_on_a_postgresql_store_keeps_its_tables_there(pg, tmp_path):
    import json
    import os
    import socket
    import subprocess
    import urllib.request

    pytest.importorskip("uvicorn")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, PRESIDENT_WEB_SECRET="serve-test", BROWSER="false",
               XDG_STATE_HOME=str(tmp_path / "state"), PRESIDENT_STORE=pg.address)
    proc = subprocess.Popen([sys.executable, "-m", "president", "serve", "--port", str(port),
                             "--no-browser", "--bot-delay", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            cwd=tmp_path)
    try:
        assert f"http://127.0.0.1:{port}/" in proc.stdout.readline()
        assert "Tables are kept in PostgreSQL at postgresql://postgres@" in proc.stdout.readline()
        request = urllib.request.Request(f"http://127.0.0.1:{port}/api/tables", method="POST",
                                         data=b'{"kind": "practice"}',
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as r:
            made = json.loads(r.read())
        assert pg.sql("SELECT id FROM president_tables") == [(made["table"],)]
    finally:
        proc.terminate()
        proc.wait(20)


@pytest.mark.parametrize("store_engine", ["postgresql"], indirect=True)
def test_a_write_after_the_database_dropped_its_connections_goes_through(pg):
    """A restart of PostgreSQL (or a proxy's cut) kills the pool's connections: the next write
    is tried again on a new one, not lost."""
    from president.web.store_pg import PgLedger, PgTableStore

    address = f"{pg.address}&application_name={pg.schema}"
    store, ledger = PgTableStore(address), PgLedger(address)
    pg.opened += [store, ledger]
    store.add("a", {"v": 1})
    ledger.issued("a", 0)
    killed = pg.sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE application_name = %s", (pg.schema,))
    assert killed
    store.append("a", 0, [0, "3C"])
    ledger.issued("a", 1)
    assert store.load("a")["log"] == [[0, "3C"]] and ledger.latest("a") == 1


def test_accepted_actions_and_their_versions_are_kept_together(store_engine):
    """Tables keeps each group of accepted actions and, for a match, its saved-match version:
    on PostgreSQL in one statement (the store knows its ledger), on SQLite in the two files;
    the ledger answers the same on both, and a version never goes back."""
    from president.web.tables import Tables

    store, ledger = store_engine.open()
    tables = Tables(sealer=None, bot_delay=0, store=store, ledger=ledger)
    try:
        assert tables.ledger_in_store == (store_engine.engine == "postgresql")
        table = tables.create(kind="match", preset="house", players=4,
                              levels=["human", "simple", "simple", "simple"])
        table._log_json = ['[0,"3C"]', '[1,"pass"]', '[2,"pass"]']
        tables._accepted([(table, 0, [[0, "3C"], [1, "pass"]])])
        assert store.load(table.id)["log"] == [[0, "3C"], [1, "pass"]]
        assert ledger.latest(table.id) == 2
        tables._accepted([(table, 2, [[2, "pass"]])])
        assert ledger.latest(table.id) == 3
        tables._accepted([(table, 0, [[0, "3C"]])])      # written again: the version stays
        assert ledger.latest(table.id) == 3
    finally:
        tables.close_all()
        store.close()
        ledger.close()
