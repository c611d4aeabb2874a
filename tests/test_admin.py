"""``president admin backup | restore | tables``: SQLite's online backup while a real server
runs, a restore refused under a running server and for a damaged file, the listing from both
engines, and the printed pg_dump / pg_restore commands run against the real PostgreSQL."""

from __future__ import annotations

import json
import os
import shlex
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from president.cli import build_parser, main
from president.web.ledger import Ledger
from president.web.store import TableStore

TABLES = "web-tables.sqlite3"
LEDGER = "web-saved-matches.sqlite3"


def _fill(folder: Path) -> None:
    """A store with a match of two actions, a practice round and one ledger entry."""
    store = TableStore(folder / TABLES)
    store.add("m1", {"v": 1, "id": "m1", "kind": "match"}, now=1_700_000_000.0)
    store.append("m1", 0, [0, "3C"], now=1_700_000_060.0)
    store.append("m1", 1, [1, "pass"], now=1_700_000_120.0)
    store.add("p1", {"v": 1, "id": "p1", "kind": "practice"}, now=1_700_000_030.0)
    store.close()
    ledger = Ledger(folder / LEDGER)
    ledger.issued("m1", 2)
    ledger.close()


def _listed(capsys, *argv: str) -> list[dict[str, object]]:
    assert main(["admin", "tables", "--json", *argv]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


@pytest.fixture
def state(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.delenv("PRESIDENT_STORE", raising=False)
    folder = tmp_path / "state" / "president"
    folder.mkdir(parents=True, mode=0o700)
    return folder


def test_the_command_and_its_actions():
    args = build_parser().parse_args(["admin", "backup", "b.sqlite3"])
    assert (args.command, args.action, args.file, args.store) == ("admin", "backup", "b.sqlite3", None)
    args = build_parser().parse_args(["admin", "tables", "--store", "postgresql://x@h/d"])
    assert (args.action, args.store, args.json) == ("tables", "postgresql://x@h/d", False)
    with pytest.raises(SystemExit):
        build_parser().parse_args(["admin"])


def test_backup_restore_and_tables_on_sqlite(state, tmp_path, capsys):
    _fill(state)
    assert main(["admin", "tables"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["id", "kind", "created", "(UTC)", "last", "active", "(UTC)", "actions"]
    assert out[1].split() == ["m1", "match", "2023-11-14", "22:13:20", "2023-11-14", "22:15:20", "2"]
    assert out[2].split() == ["p1", "practice", "2023-11-14", "22:13:50", "2023-11-14", "22:13:50", "0"]
    assert out[3] == "2 tables."

    target = tmp_path / "backups" / "president.sqlite3"
    assert main(["admin", "backup", str(target)]) == 0
    assert capsys.readouterr().out.startswith(f"Backed up 2 tables and 2 actions from {state} "
                                              f"to {target}.")
    assert oct(target.stat().st_mode & 0o777) == "0o600"
    with sqlite3.connect(target) as db:
        assert db.execute("PRAGMA quick_check").fetchall() == [("ok",)]
        assert db.execute("SELECT COUNT(*) FROM actions").fetchone() == (2,)
        assert db.execute("SELECT table_id, version FROM issued").fetchall() == [("m1", 2)]
    assert sorted(os.listdir(target.parent)) == ["president.sqlite3"]       # nothing left over

    # after the backup: a new table, m1 forgotten, a newer ledger entry
    store = TableStore(state / TABLES)
    store.add("late", {"v": 1, "id": "late", "kind": "match"})
    store.remove("m1")
    store.close()
    ledger = Ledger(state / LEDGER)
    ledger.issued("late", 5)
    ledger.close()
    assert [r["id"] for r in _listed(capsys)] == ["late", "p1"]

    assert main(["admin", "restore", str(target)]) == 0
    said = capsys.readouterr().out
    assert said.startswith(f"Restored 2 tables and 2 actions from {target} into {state}")
    rows = _listed(capsys)
    assert [(r["id"], r["kind"], r["actions"]) for r in rows] == [("m1", "match", 2),
                                                                  ("p1", "practice", 0)]
    store = TableStore(state / TABLES)          # the server's own store opens it, whole
    assert store.load("m1")["log"] == [[0, "3C"], [1, "pass"]]
    store.close()
    ledger = Ledger(state / LEDGER)
    assert (ledger.latest("m1"), ledger.latest("late")) == (2, None)
    ledger.close()
    aside = sorted(p.name for p in state.iterdir() if ".before-restore-" in p.name)
    assert [n.split(".before-restore-")[0] for n in aside] == [LEDGER, TABLES]


def test_restore_refuses_a_damaged_or_foreign_file_and_changes_nothing(state, tmp_path, capsys):
    _fill(state)
    target = tmp_path / "b.sqlite3"
    assert main(["admin", "backup", str(target)]) == 0
    capsys.readouterr()
    before = (state / TABLES).read_bytes()

    damaged = tmp_path / "damaged.sqlite3"
    raw = bytearray(target.read_bytes())
    page = 4096
    raw[page:2 * page] = b"\xa5" * page          # a whole b-tree page overwritten
    damaged.write_bytes(bytes(raw))
    assert main(["admin", "restore", str(damaged)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"president admin restore: {damaged} is damaged")

    foreign = tmp_path / "foreign.sqlite3"
    with sqlite3.connect(foreign) as db:
        db.execute("CREATE TABLE notes (x)")
    assert main(["admin", "restore", str(foreign)]) == 1
    assert "is not a backup of the game's store" in capsys.readouterr().err

    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"not a database at all" * 100)
    assert main(["admin", "restore", str(junk)]) == 1
    assert f"{junk} is damaged, or not a SQLite file" in capsys.readouterr().err

    assert main(["admin", "restore", str(tmp_path / "missing.sqlite3")]) == 1
    assert "there is no backup file" in capsys.readouterr().err
    assert (state / TABLES).read_bytes() == before
    assert not [p for p in state.iterdir() if "before-restore" in p.name or "partial" in p.name]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_backup_while_a_real_server_runs_and_restore_refused_under_it(tmp_path):
    port = _free_port()
    env = dict(os.environ, PRESIDENT_WEB_SECRET="admin-test", BROWSER="false",
               XDG_STATE_HOME=str(tmp_path / "state"))
    env.pop("PRESIDENT_STORE", None)
    admin = [sys.executable, "-m", "president", "admin"]
    proc = subprocess.Popen([sys.executable, "-m", "president", "serve", "--port", str(port),
                             "--no-browser", "--bot-delay", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            cwd=tmp_path)
    try:
        assert f":{port}/" in proc.stdout.readline()
        made = []
        for kind in ("practice", "match"):
            req = urllib.request.Request(
                f"http://127.0.0.1:{port}/api/tables", method="POST",
                data=json.dumps({"kind": kind}).encode(), headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(req, timeout=10) as r:
                made.append((json.loads(r.read())["table"], kind))
        time.sleep(0.5)                          # (the writer threads keep the new tables)
        listed = subprocess.run([*admin, "tables", "--json"], env=env, capture_output=True,
                                text=True, timeout=60)
        assert listed.returncode == 0, listed.stderr
        rows = [json.loads(line) for line in listed.stdout.splitlines()]
        assert sorted((r["id"], r["kind"]) for r in rows) == sorted(made)

        target = tmp_path / "live.sqlite3"
        done = subprocess.run([*admin, "backup", str(target)], env=env, capture_output=True,
                              text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("Backed up 2 tables and 0 actions")
        with sqlite3.connect(target) as db:
            assert db.execute("PRAGMA quick_check").fetchall() == [("ok",)]
            assert sorted(db.execute("SELECT id FROM tables").fetchall()) == sorted(
                (t,) for t, _ in made)

        refused = subprocess.run([*admin, "restore", str(target)], env=env, capture_output=True,
                                 text=True, timeout=60)
        assert refused.returncode == 1
        assert refused.stderr.startswith("president admin restore: a server is running on ")
        assert f"pid {proc.pid}" in refused.stderr and "stop it before restoring" in refused.stderr
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=10) as r:
            assert json.loads(r.read()) == {"status": "ready"}      # untouched, still serving
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    restored = subprocess.run([*admin, "restore", str(target)], env=env, capture_output=True,
                              text=True, timeout=60)
    assert restored.returncode == 0, restored.stderr


def test_tables_from_either_engine(store_engine, capsys):
    store = store_engine.table_store()
    store.add("abc", {"v": 1, "id": "abc", "kind": "match"}, now=1_700_000_000.0)
    store.append_many("abc", 0, [[0, "3C"], [1, "pass"], [2, "4D"]], now=1_700_000_300.0)
    store.add("xyz", {"v": 1, "id": "xyz", "kind": "practice"}, now=1_700_000_100.0)
    rows = _listed(capsys, "--store", store_engine.address)
    assert rows == [
        {"id": "abc", "kind": "match", "created": "2023-11-14 22:13:20",
         "last_active": "2023-11-14 22:18:20", "actions": 3},
        {"id": "xyz", "kind": "practice", "created": "2023-11-14 22:15:00",
         "last_active": "2023-11-14 22:15:00", "actions": 0}]


@pytest.mark.parametrize("store_engine", ["postgresql"], indirect=True)
def test_a_postgresql_store_gets_the_pg_dump_and_pg_restore_commands(store_engine, tmp_path,
                                                                     capsys):
    for tool in ("pg_dump", "pg_restore"):
        if not any((Path(d) / tool).exists() for d in os.environ.get("PATH", "").split(":")):
            pytest.skip(f"{tool} is not installed")
    store = store_engine.table_store()
    store.add("keep", {"v": 1, "id": "keep", "kind": "match"}, now=1_700_000_000.0)
    store.append("keep", 0, [0, "3C"], now=1_700_000_001.0)
    dump = tmp_path / "game.dump"

    assert main(["admin", "backup", str(dump), "--store", store_engine.address]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("president admin backup: nothing done. A PostgreSQL store")
    command = out[1].strip()
    assert command.startswith("pg_dump --format=custom --no-owner "
                              f"--schema={store_engine.schema} --file=")
    assert not dump.exists()                       # nothing done by the command itself
    subprocess.run(shlex.split(command), check=True, timeout=120)
    assert dump.stat().st_size > 0

    store.remove("keep")
    store.add("after", {"v": 1, "id": "after", "kind": "practice"})
    store.close()
    assert [r["id"] for r in _listed(capsys, "--store", store_engine.address)] == ["after"]

    assert main(["admin", "restore", str(dump), "--store", store_engine.address]) == 1
    out = capsys.readouterr().out.splitlines()
    command = out[1].strip()
    assert command.startswith("pg_restore --clean --if-exists --no-owner --dbname=")
    subprocess.run(shlex.split(command), check=True, timeout=120)
    rows = _listed(capsys, "--store", store_engine.address)
    assert [(r["id"], r["actions"]) for r in rows] == [("keep", 1)]
