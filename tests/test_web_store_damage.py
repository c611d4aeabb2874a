"""Issue 33: the server never runs on a store it cannot keep, a damaged store answers a page
with a documented error, one slow write holds only its own table, and limits of the whole
server stand beside the per-address ones.

Each defect was reproduced here first: the server used to fall back to memory on a
read-only, truncated or damaged store (and lose every table at the next restart), a hello
on damaged pages ended in a bare close the page retried for ever, one held write stalled
every table, and a flood within the per-address limits had no bound at all."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import threading
import time

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402
from starlette.testclient import WebSocketDenialResponse  # noqa: E402

from president.web import limits  # noqa: E402
from president.web import tables as tables_mod  # noqa: E402
from president.web.app import create_app  # noqa: E402
from president.web.ledger import LEDGER_FILE, Ledger, StoreError  # noqa: E402
from president.web.store import TABLES_FILE, TableStore  # noqa: E402
from tests.helpers import run_async  # noqa: E402
from tests.test_web_saved import hello, my_turn, take_turn, until_state  # noqa: E402

SECRET = b"store-damage-secret-0123456789ab"


def _state_with_tables(folder, n: int = 30) -> None:
    """A state folder whose store holds ``n`` tables with actions (and a ledger)."""
    store = TableStore(folder / TABLES_FILE)
    for i in range(n):
        store.add(f"t{i}", {"v": 1, "id": f"t{i}", "pad": "x" * 600})
        store.append_many(f"t{i}", 0, [[0, "3C"], [1, "pass"], [2, "4D"]] * 20)
    store.close()
    Ledger(folder / LEDGER_FILE).close()


def _app(folder, **kw):
    return create_app(bot_delay=0, secret=SECRET, allow_seed=True, state_dir=folder, workers=1,
                      **kw)


def _read_only(folder):
    """Make ``folder`` and its files read-only for this process, also as root (the
    immutable flag); returns the undo."""
    paths = [folder, *folder.iterdir()]
    if os.geteuid() != 0:
        modes = {p: p.stat().st_mode for p in paths}
        for p in paths:
            p.chmod(0o500 if p.is_dir() else 0o400)
        return lambda: [p.chmod(m) for p, m in modes.items()]
    if shutil.which("chattr") is None:
        pytest.fail("running as root without chattr: cannot make a read-only folder")
    done = subprocess.run(["chattr", "+i", *map(str, paths)], capture_output=True, text=True)
    if done.returncode:
        pytest.fail(f"chattr +i failed ({done.stderr.strip()}): cannot test a read-only folder")
    return lambda: subprocess.run(["chattr", "-i", *map(str, paths)], check=True)


# ----- never on a store it cannot keep -------------------------------------------------


def test_a_read_only_state_folder_is_refused_not_kept_in_memory(tmp_path):
    _state_with_tables(tmp_path)
    undo = _read_only(tmp_path)
    try:
        with pytest.raises(StoreError) as refused:
            _app(tmp_path)
    finally:
        undo()
    assert "cannot write" in refused.value.message
    assert "writable" in refused.value.message       # what to do
    assert len(TableStore(tmp_path / TABLES_FILE)) == 30   # nothing touched


@pytest.mark.parametrize("damage", ["empty", "half", "header", "pages"])
def test_a_truncated_or_damaged_store_is_refused_with_what_to_do(tmp_path, damage):
    _state_with_tables(tmp_path)
    path = tmp_path / TABLES_FILE
    size = path.stat().st_size
    assert size > 40_000
    with open(path, "r+b") as f:
        if damage == "empty":
            f.truncate(0)
        elif damage == "half":
            f.truncate(size // 2)
        elif damage == "header":
            f.write(b"\xff" * 100)
        else:                               # 4 KiB of garbage over pages in the middle
            f.seek(size // 2 // 4096 * 4096)
            f.write(os.urandom(4096))
    with pytest.raises(StoreError) as refused:
        _app(tmp_path)
    message = refused.value.message
    assert str(path) in message and "cannot be used" in message
    assert "restore it from a backup" in message and "move it aside" in message


def test_a_store_of_a_newer_layout_is_refused(tmp_path):
    _state_with_tables(tmp_path, 1)
    db = sqlite3.connect(tmp_path / TABLES_FILE)
    db.execute("PRAGMA user_version = 99")
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="newer version of president"):
        _app(tmp_path)


def test_both_files_damaged_refuse_and_a_fresh_folder_never_rebuilds_from_an_old_record(tmp_path):
    """The rewind of the attack: both SQLite files damaged, the server started afresh, and
    an early saved copy of a 48-action match rebuilt it from its start."""
    with TestClient(_app(tmp_path)) as c:
        info = c.post("/api/tables", json={"kind": "match", "players": 4, "seed": 5}).json()
        with c.websocket_connect("/ws") as ws:
            hello(ws, info)
            state = take_turn(ws, until_state(ws))
            saved = state["snapshot"]
            assert saved is not None
    for name in (TABLES_FILE, LEDGER_FILE):
        with open(tmp_path / name, "r+b") as f:
            f.write(b"\x00" * 100)
    for name in (TABLES_FILE, LEDGER_FILE):
        with pytest.raises(StoreError, match="cannot be used"):
            (TableStore if name == TABLES_FILE else Ledger)(tmp_path / name)
    for name in os.listdir(tmp_path):          # the operator moves the damaged files aside
        if name.startswith(("web-tables", "web-saved")):
            os.rename(tmp_path / name, tmp_path / f"damaged-{name}")
    with TestClient(_app(tmp_path)) as c, c.websocket_connect("/ws") as ws:
        ws.send_json({"type": "hello", "table": info["table"], "token": info["token"],
                      "snapshot": saved})
        refused = ws.receive_json()
        assert refused["type"] == "error" and refused["reason"] == "unknown-history"
    with TestClient(_app(tmp_path, recover_records=True)) as c, c.websocket_connect("/ws") as ws:
        ws.send_json({"type": "hello", "table": info["table"], "token": info["token"],
                      "snapshot": saved})
        assert ws.receive_json()["type"] == "welcome"


def test_president_serve_refuses_to_start_on_a_damaged_store(tmp_path):
    folder = tmp_path / "president"
    folder.mkdir()
    _state_with_tables(folder, 3)
    with open(folder / TABLES_FILE, "r+b") as f:
        f.write(b"garbage!" * 20)
    env = dict(os.environ, XDG_STATE_HOME=str(tmp_path), PRESIDENT_WEB_SECRET="x" * 20)
    done = subprocess.run([sys.executable, "-m", "president", "serve", "--no-browser",
                           "--port", "1"], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    line = done.stderr.strip().splitlines()[-1]
    assert line.startswith("president serve: ") and str(folder / TABLES_FILE) in line
    assert "restore it from a backup" in line


def test_a_hello_on_damaged_pages_gets_a_documented_error_not_a_bare_close(tmp_path):
    """Damage after the start: a page's hello reads the store, which fails. It used to end
    in a close with code 1000 and no reason, which the page retried for ever."""
    with TestClient(_app(tmp_path)) as c:
        info = c.post("/api/tables", json={"kind": "match", "players": 4, "seed": 5}).json()
        c.portal.call(c.app.state.tables._commit.flush)
        store = c.app.state.tables.store
        c.app.state.tables._fresh.clear()            # on disk only, as after a restart

        def broken(table_id):
            raise sqlite3.DatabaseError("database disk image is malformed")
        store.setup = broken
        with c.websocket_connect("/ws") as ws:
            ws.send_json({"type": "hello", "table": info["table"], "token": info["token"]})
            answer = ws.receive_json()
            assert answer["type"] == "error" and answer["reason"] == "store-error"
            assert "try again later" in answer["message"]
            closed = ws.receive()
            assert closed["type"] == "websocket.close" and closed["code"] == 1011


# ----- one slow write holds only its own table -------------------------------------------


def _play_until_turn(ws):
    return until_state(ws, my_turn)


def _move(state):
    return {"type": "pass"} if "pass" in state["legal"] else {"type": "play",
                                                              "cards": state["legal"][0]}


def test_a_slow_write_of_one_table_does_not_hold_another_tables_actions(tmp_path):
    with TestClient(_app(tmp_path)) as c:
        a = c.post("/api/tables", json={"kind": "match", "players": 4, "seed": 5}).json()
        b = c.post("/api/tables", json={"kind": "match", "players": 4, "seed": 6}).json()
        store = c.app.state.tables.store
        real = store.append_batches
        gate = threading.Event()
        holding = threading.Event()

        def slow(batches, **kw):
            if any(tid == a["table"] for tid, _, _ in batches):
                holding.set()
                gate.wait(10)                       # a lock on table a's write
            real(batches, **kw)
        store.append_batches = slow
        with c.websocket_connect("/ws") as wa, c.websocket_connect("/ws") as wb:
            for ws, info in ((wa, a), (wb, b)):
                ws.send_json({"type": "hello", "table": info["table"], "token": info["token"]})
            sa, sb = _play_until_turn(wa), _play_until_turn(wb)
            wa.send_json(_move(sa))
            assert holding.wait(5)
            before = sb["table"]["actions"]
            for _ in range(3):                      # table b plays on, kept and answered
                wb.send_json(_move(sb))
                sb = _play_until_turn(wb)
            assert sb["table"]["actions"] > before
            assert len(store.load(b["table"])["log"]) == sb["table"]["actions"]
            assert len(store.load(a["table"])["log"]) == sa["table"]["actions"]   # a waits
            gate.set()
            sa2 = _play_until_turn(wa)               # answered once kept
            assert sa2["table"]["actions"] > sa["table"]["actions"]
            c.portal.call(c.app.state.tables._commit.flush)
            assert len(store.load(a["table"])["log"]) == sa2["table"]["actions"]


def test_a_lock_held_by_another_program_delays_a_write_and_loses_nothing(tmp_path):
    """SQLite locks the whole file: while another program holds its write lock, writes wait
    (up to BUSY_SECONDS) and go through once it is released. They used to fail after 5 s,
    and the table was closed."""
    store = TableStore(tmp_path / TABLES_FILE)
    store.add("t", {"v": 1})
    other = sqlite3.connect(tmp_path / TABLES_FILE, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    release = threading.Timer(1.0, lambda: other.execute("COMMIT"))
    release.start()
    try:
        store.append("t", 0, [0, "3C"])
    finally:
        release.join()
        other.close()
    assert store.load("t")["log"] == [[0, "3C"]]
    store.close()


# ----- limits of the whole server ---------------------------------------------------------


def _connect_from(c, address):
    c._transport.client = (address, 40000)
    return c.websocket_connect("/ws")


def test_sockets_not_yet_joined_have_a_total_beside_the_per_address_limit(tmp_path):
    with TestClient(_app(tmp_path, max_waiting_total=5)) as c:
        opened = [_connect_from(c, f"127.0.0.{i}").__enter__() for i in range(2, 7)]
        with pytest.raises(WebSocketDenialResponse) as refused:
            _connect_from(c, "127.0.0.50").__enter__()
        assert refused.value.status_code == 429
        assert refused.value.json()["error"] == "busy"
        opened.pop().__exit__(None, None, None)       # one leaves: room for one more
        time.sleep(0.1)
        late = _connect_from(c, "127.0.0.50").__enter__()
        for ws in (*opened, late):
            ws.__exit__(None, None, None)


def test_handshakes_and_hellos_have_a_rate_for_the_whole_server(tmp_path, monkeypatch):
    monkeypatch.setattr(limits, "HANDSHAKE_BURST", 3)
    monkeypatch.setattr(limits, "HELLO_BURST", 2)
    with TestClient(_app(tmp_path, handshakes_per_second=0.01, hellos_per_second=0.01)) as c:
        socks = [_connect_from(c, f"127.0.0.{i}").__enter__() for i in range(2, 5)]
        with pytest.raises(WebSocketDenialResponse) as refused:
            _connect_from(c, "127.0.0.9").__enter__()
        assert refused.value.status_code == 429 and refused.value.json()["error"] == "busy"
        answers = []
        for ws in socks:
            ws.send_json({"type": "hello", "table": "A" * 22, "token": "B" * 22})
            answers.append(ws.receive_json()["reason"])
        assert answers == ["unknown-table", "unknown-table", "busy"]
        closed = socks[2].receive()
        assert closed["code"] == 1013                  # try again later: the page retries
        for ws in socks:
            ws.__exit__(None, None, None)


def test_new_tables_have_a_rate_for_the_whole_server(tmp_path, monkeypatch):
    monkeypatch.setattr(tables_mod, "TABLE_BURST", 4)
    with TestClient(_app(tmp_path, tables_per_minute=1, refusal_delay=0)) as c:
        made = []
        for i in range(2, 7):                          # five addresses, one table each
            c._transport.client = (f"127.0.0.{i}", 40000)
            made.append(c.post("/api/tables", json={"kind": "practice"}))
        assert [r.status_code for r in made] == [200, 200, 200, 200, 429]
        assert made[-1].json()["error"] == "busy"
        assert "new tables a minute" in made[-1].json()["message"]


def test_hello_deadlines_of_sockets_opened_together_are_spread():
    deadlines = [limits.hello_deadline(100.0) for _ in range(2000)]
    assert min(deadlines) >= 100.0 + limits.HELLO_SECONDS
    assert max(deadlines) <= 100.0 + limits.HELLO_SECONDS + limits.HELLO_SPREAD_SECONDS
    per_second = [sum(1 for d in deadlines if s <= d - 110.0 < s + 1) for s in range(5)]
    assert max(per_second) < 600                        # not all in one moment


@contextlib.contextmanager
def _served(tmp_path, connections_per_address: int):
    """A real ``president serve`` on a free port of its own state folder; yields the port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, XDG_STATE_HOME=str(tmp_path), PRESIDENT_WEB_SECRET="x" * 20,
               PRESIDENT_WEB_CONNECTIONS_PER_ADDRESS=str(connections_per_address))
    proc = subprocess.Popen([sys.executable, "-m", "president", "serve", "--no-browser",
                             "--port", str(port)], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        time.sleep(0.2)
        yield port
    finally:
        proc.kill()
        proc.wait()


def test_flood_from_fifty_loopback_addresses_is_capped_by_the_total(tmp_path):
    """A real server; 50 addresses (127.0.0.2-51), each opening 21 sockets that never say
    hello (within its 100), in waves within the server's handshake rate: the server holds at
    most MAX_WAITING_TOTAL of them and refuses the rest with 429 busy."""
    with _served(tmp_path, 200) as port:

        async def one(address: str) -> tuple[str, asyncio.StreamWriter]:
            reader, writer = await asyncio.open_connection("127.0.0.1", port,
                                                           local_addr=(address, 0))
            writer.write((f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                          "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                          "Sec-WebSocket-Version: 13\r\n\r\n").encode())
            line = await reader.readline()
            return line.decode().split(" ")[1], writer

        async def flood() -> list[str]:
            got: list[tuple[str, asyncio.StreamWriter]] = []
            addresses = [f"127.0.0.{a}" for a in range(2, 52)] * 21     # 1,050 sockets
            step = int(limits.HANDSHAKE_BURST * 0.8)
            for i in range(0, len(addresses), step):   # in waves within the handshake rate
                got += await asyncio.gather(*(one(a) for a in addresses[i:i + step]))
                await asyncio.sleep(step / limits.HANDSHAKES_PER_SECOND * 1.1)
            for _, writer in got:
                writer.close()
            return [code for code, _ in got]

        codes = run_async(flood)   # (its own thread: a browser test's loop may run in this one)
    assert len(codes) == 1050
    assert codes.count("101") == limits.MAX_WAITING_TOTAL
    assert codes.count("429") == 1050 - limits.MAX_WAITING_TOTAL


def test_an_address_refused_as_busy_is_refused_before_a_byte_is_read_for_a_second(tmp_path):
    """A client reconnecting as fast as it is refused used to cost the server a parsed
    request and the app's refusal each time; for a second after a busy refusal its new
    connections get a ready-made 429 in the documented shape, and other addresses are not
    touched."""
    with _served(tmp_path, 2) as port:

        def connect(address: str) -> socket.socket:
            sock = socket.socket()
            sock.bind((address, 0))
            sock.settimeout(10)
            sock.connect(("127.0.0.1", port))
            return sock

        def ask(address: str) -> tuple[int, dict]:
            with connect(address) as sock:
                sock.sendall(f"GET /api/options HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                             "Connection: close\r\n\r\n".encode())
                data = b""
                while chunk := sock.recv(65536):
                    data += chunk
            head, _, body = data.partition(b"\r\n\r\n")
            status = int(head.split(b" ")[1])
            return status, (json.loads(body) if status != 200 else {})

        held = [connect("127.0.0.70"), connect("127.0.0.70")]     # its two connections
        status, body = ask("127.0.0.70")                           # a third: refused
        assert status == 429 and body["error"] == "busy"
        for sock in held:
            sock.close()
        status, body = ask("127.0.0.70")                           # cooling down
        assert status == 429 and body["error"] == "busy" and "a moment ago" in body["message"]
        assert ask("127.0.0.71")[0] == 200                         # another address
        time.sleep(1.2)
        assert ask("127.0.0.70")[0] == 200                         # cooled down


def test_another_program_closing_the_store_never_takes_the_servers_log_away(tmp_path):
    """Found by the attack benchmark: opening the store's second connection opened and closed
    the file, which dropped every POSIX lock the process held on it, the first connection's
    SQLite locks included. Another program that then opened and closed the file believed it
    was the last one, folded the write-ahead log and deleted it, and every action the server
    wrote afterwards went to the deleted log: shown to the players, lost at the next start."""
    path = tmp_path / TABLES_FILE
    store = TableStore(path)
    store.add("t", {"v": 1})
    other = (f"import sqlite3; db = sqlite3.connect({str(path)!r}, isolation_level=None); "
             "db.execute('BEGIN IMMEDIATE'); db.execute('COMMIT'); db.close()")
    subprocess.run([sys.executable, "-c", other], check=True, timeout=30)
    for n in range(5):
        store.append("t", n, [n % 4, "pass"])
    assert os.path.exists(f"{path}-wal")
    seen = subprocess.run([sys.executable, "-c", "import sqlite3; print(sqlite3.connect("
                           f"{str(path)!r}).execute('SELECT COUNT(*) FROM actions').fetchone()[0])"],
                          capture_output=True, text=True, check=True, timeout=30)
    assert seen.stdout.strip() == "5"
    store.close()


def test_a_stored_table_that_does_not_replay_is_kept_and_its_page_told_in_words(tmp_path):
    """A table whose stored actions do not replay (a damaged row) used to be deleted from the
    store on the first hello, and the page told there was no such table: one damaged row
    lost the whole table for good. It stays as it is, and the page gets ``store-error``."""
    with TestClient(_app(tmp_path)) as c:
        info = c.post("/api/tables", json={"kind": "match", "players": 4, "seed": 5}).json()
        c.portal.call(c.app.state.tables._commit.flush)
        tables = c.app.state.tables
        tables._fresh.clear()                            # on disk only, as after a restart
        tables.store.append(info["table"], 0, [9, "not a move"])
        with c.websocket_connect("/ws") as ws:
            ws.send_json({"type": "hello", "table": info["table"], "token": info["token"]})
            answer = ws.receive_json()
            assert answer["type"] == "error" and answer["reason"] == "store-error"
            assert ws.receive()["code"] == 1011
        assert tables.store.load(info["table"])["log"] == [[9, "not a move"]]


@pytest.mark.parametrize("content", [b"", b"abc"])
def test_a_damaged_key_file_is_refused_not_replaced(tmp_path, content, monkeypatch):
    """A key file cut short used to be overwritten with a new key without a word, and every
    saved match in the players' pages stopped opening."""
    monkeypatch.delenv("PRESIDENT_WEB_SECRET", raising=False)
    (tmp_path / "web-secret").write_bytes(content)
    with pytest.raises(StoreError, match=r"key file .* is damaged"):
        create_app(bot_delay=0, state_dir=tmp_path, workers=1)
    assert (tmp_path / "web-secret").read_bytes() == content


def test_a_key_file_that_cannot_be_read_is_refused(tmp_path, monkeypatch):
    monkeypatch.delenv("PRESIDENT_WEB_SECRET", raising=False)
    (tmp_path / "web-secret").mkdir()
    with pytest.raises(StoreError, match="cannot read the key file"):
        create_app(bot_delay=0, state_dir=tmp_path, workers=1)


def test_a_log_left_without_its_store_is_refused(tmp_path):
    """Found by a new operator: the store moved aside without its -wal file, and the old log
    was applied to the new store (or to a backup put in its place)."""
    _state_with_tables(tmp_path, 3)
    store = TableStore(tmp_path / TABLES_FILE)         # open: the log is there
    store.append("t0", 60, [0, "pass"])
    os.rename(tmp_path / TABLES_FILE, tmp_path / "aside.sqlite3")
    try:
        with pytest.raises(StoreError, match=r"write-ahead log .* still there"):
            TableStore(tmp_path / TABLES_FILE)
        assert not (tmp_path / TABLES_FILE).exists()
    finally:
        store.close()


def test_sqlites_report_of_damage_is_one_line(tmp_path):
    from president.web.ledger import _damaged
    message = _damaged("/x/web-tables.sqlite3", "tables",
                       "*** in database main ***\nOn tree page 62 cell 99: out of range\n" * 40).message
    assert "\n" not in message and len(message) < 700
    assert "web-tables.sqlite3*" in message
