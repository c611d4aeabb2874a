"""Saved matches cannot rewind a game: the server refuses a sealed record older than the
newest it issued for that table, also after a restart (the ledger in the state directory).
Tests taking ``store_engine`` run on SQLite and on PostgreSQL (tests/store_engines.py:
PostgreSQL must be reachable, or ``PRESIDENT_TEST_NO_POSTGRES=1`` skips those)."""

from __future__ import annotations

import base64
import json
import time
import zlib
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from president.web.app import create_app  # noqa: E402
from president.web.ledger import KEEP_SECONDS, LEDGER_FILE, Ledger, StaleRecord  # noqa: E402
from president.web.sealing import SEAL_PREFIX, SealError, Sealer  # noqa: E402

SECRET = b"saved-test-secret-0123456789abcd"


def until_state(ws, pred=lambda m: True, limit=2000):
    for _ in range(limit):
        m = ws.receive_json()
        if m["type"] == "state" and pred(m):
            return m
    raise AssertionError("no such state")


def my_turn(m):
    return m["to_act"] == m["you"]["seat"] or m["phase"] in ("between-deals", "match-over")


def hello(ws, info, snapshot=None):
    msg = {"type": "hello", "table": info["table"], "token": info["token"]}
    if snapshot is not None:
        msg["snapshot"] = snapshot
    ws.send_json(msg)
    return ws.receive_json()


def take_turn(ws, state):
    ws.send_json({"type": "pass"} if "pass" in state["legal"] else
                 {"type": "play", "cards": state["legal"][0]})
    return until_state(ws, my_turn)


def test_old_snapshot_is_refused_after_a_restart(store_engine):
    """The tester's rewind: keep an early snapshot, restart the server, restore it. On each
    engine: the table comes back from the store with every action, and once the table store
    is lost (the ledger kept) the early copy is refused."""
    def app():
        return create_app(bot_delay=0, secret=SECRET, allow_seed=True,
                          state_dir=store_engine.state_dir, store=store_engine.address)

    with TestClient(app()) as c:
        info = c.post("/api/tables", json={"kind": "match", "preset": "house", "players": 4,
                                           "seed": 11}).json()
        with c.websocket_connect("/ws") as ws:
            assert hello(ws, info)["type"] == "welcome"
            state = until_state(ws)
            early, early_actions = state["snapshot"], state["table"]["actions"]
            state = take_turn(ws, state)
            state = take_turn(ws, state)
            late, late_actions = state["snapshot"], state["table"]["actions"]
    assert early and late and late_actions > early_actions
    if store_engine.engine == "sqlite":
        assert (Path(store_engine.address) / LEDGER_FILE).exists()

    # A restart on the same store: the table comes back from the store by itself, with every
    # action, and the early copy cannot rewind it (a live or stored table is never rebuilt
    # from a record).
    with TestClient(app()) as c:
        stored = c.app.state.tables.store.load(info["table"])
        assert len(stored["log"]) == late_actions
        with c.websocket_connect("/ws") as ws:
            assert hello(ws, info, early)["type"] == "welcome"
            back = until_state(ws)
    assert back["table"]["actions"] == late_actions and back["hand"] == state["hand"]

    # The restart after the table store was lost (the ledger kept): the early copy is refused.
    store_engine.lose_tables()
    with TestClient(app()) as c:
        tables = c.app.state.tables
        with c.websocket_connect("/ws") as ws:
            r = hello(ws, info, early)
            assert r["type"] == "error" and r["reason"] == "old-record"
            assert "older than its latest state" in r["message"]
            assert tables.get(info["table"]) is None            # nothing was rebuilt
            r = hello(ws, info, late)                           # the newest copy still works
            assert r["type"] == "welcome"
            again = until_state(ws)
    assert again["table"]["actions"] == late_actions
    for key in ("hand", "pile", "to_act", "scores", "seats"):
        assert again[key] == state[key], key


def two_snapshots(c, *, players):
    """A match table (seed 3) and two of its snapshots: the first state's and the one after
    the page's first turn. Returns ``(table info, early snapshot, later state)``."""
    info = c.post("/api/tables", json={"kind": "match", "players": players, "seed": 3}).json()
    with c.websocket_connect("/ws") as ws:
        hello(ws, info)
        state = until_state(ws)
        early = state["snapshot"]
        state = take_turn(ws, state)
    return info, early, state


def test_old_snapshot_is_refused_once_the_server_forgot_the_table(tmp_path):
    """Without a restart: an idle table dropped from memory is rebuilt from the newest record
    only."""
    with TestClient(create_app(bot_delay=0, secret=SECRET, allow_seed=True, state_dir=tmp_path)) as c:
        info, early, state = two_snapshots(c, players=5)
        c.portal.call(c.app.state.tables.drop, info["table"])
        with c.websocket_connect("/ws") as ws:
            assert hello(ws, info, early)["reason"] == "old-record"
            assert hello(ws, info, state["snapshot"])["type"] == "welcome"


def test_a_new_state_dir_vouches_for_no_record_unless_the_operator_recovers(tmp_path):
    """Issue 33: a record of a match whose store and ledger were lost (a fresh state folder)
    used to rebuild the match from that record, which may be older than the lost state: a
    rewind. It is refused (``unknown-history``), unless the server was started to recover
    saved matches; the ledger, not sealing, is what refuses."""
    with TestClient(create_app(bot_delay=0, secret=SECRET, allow_seed=True,
                               state_dir=tmp_path / "a")) as c:
        info = c.post("/api/tables", json={"kind": "match", "players": 4, "seed": 8}).json()
        with c.websocket_connect("/ws") as ws:
            hello(ws, info)
            state = take_turn(ws, until_state(ws))
            saved = state["snapshot"]
            assert state["table"]["actions"] > 0
    with TestClient(create_app(bot_delay=0, secret=SECRET, state_dir=tmp_path / "b")) as c:
        with c.websocket_connect("/ws") as ws:
            refused = hello(ws, info, saved)
            assert refused["reason"] == "unknown-history"
            assert "no history of this match" in refused["message"]
    with TestClient(create_app(bot_delay=0, secret=SECRET, state_dir=tmp_path / "b",
                               recover_records=True)) as c:
        with c.websocket_connect("/ws") as ws:
            assert hello(ws, info, saved)["type"] == "welcome"


def test_ledger_keeps_the_newest_version_across_instances(store_engine):
    a = store_engine.ledger()
    created = a.created
    a.issued("t", 4)
    a.issued("t", 9)
    a.issued("t", 2)                       # an older one never lowers the mark
    a.issued("u", 1)
    a.close()
    b = store_engine.ledger()
    assert b.created == created                       # when the ledger began, kept
    assert (b.latest("t"), b.latest("u"), b.latest("nope")) == (9, 1, None)
    assert b.vouches("t", 3, sealed_at=0.0)           # an entry: check() decides
    assert b.vouches("nope", 0, sealed_at=created + 1)
    assert not b.vouches("nope", 0, sealed_at=created - 5)
    assert not b.vouches("nope", 2, sealed_at=created + 1)
    b.check("t", 9)
    b.check("t", 12)
    b.check("nope", 0)
    with pytest.raises(StaleRecord, match="has 8 actions; the server issued one with 9"):
        b.check("t", 8)
    b.close()


def test_ledger_in_a_place_it_cannot_write_is_refused_never_kept_in_memory(tmp_path):
    """Issue 33: it used to fall back to memory (with one log line), so the versions it
    vouched for were gone at the next restart."""
    from president.web.ledger import StoreError

    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    with pytest.raises(StoreError, match=r"cannot make the state folder .*XDG_STATE_HOME"):
        Ledger(blocker / "sub" / "ledger.sqlite3")


@pytest.mark.parametrize("fernet", [False, True], ids=["gcm-siv", "fernet"])
def test_a_record_older_than_the_keeping_time_is_refused(fernet):
    box = Sealer(SECRET)
    plain = zlib.compress(json.dumps({"v": 1}).encode())
    at = int(time.time()) - KEEP_SECONDS - 60
    old = (box._fernet.encrypt_at_time(plain, at).decode() if fernet
           else box._seal_bytes(plain, at))
    assert old.startswith("gAAAAA" if fernet else SEAL_PREFIX)
    assert box.open(old) == {"v": 1}                       # no age limit asked
    with pytest.raises(SealError, match="days old"):
        box.open(old, max_age=KEEP_SECONDS)
    with pytest.raises(SealError, match="damaged"):
        box.open(old[:-3] + "AAA", max_age=KEEP_SECONDS)
    fresh = box._seal_bytes(plain, int(time.time()) - 5)
    assert box.open(fresh, max_age=KEEP_SECONDS) == {"v": 1}


def test_a_sealed_record_is_gcm_siv_and_its_sealing_time_cannot_be_changed():
    box = Sealer(SECRET)
    sealed = box.seal({"v": 3, "log": [[0, "3C"]]})
    assert sealed.startswith(SEAL_PREFIX)
    raw = bytearray(base64.urlsafe_b64decode(sealed[len(SEAL_PREFIX):]))
    assert abs(int.from_bytes(raw[:8], "big") - time.time()) < 5      # the sealing time
    raw[7] ^= 1                                 # a second older or newer: no longer authentic
    changed = SEAL_PREFIX + base64.urlsafe_b64encode(bytes(raw)).decode()
    with pytest.raises(SealError, match="damaged"):
        box.open(changed)
    # sealed "in the future" (more than a minute): refused as not made by this server's clock
    ahead = box._seal_bytes(zlib.compress(b'{"v":3}'), int(time.time()) + 3600)
    with pytest.raises(SealError, match="damaged"):
        box.open(ahead)
    body = sealed[len(SEAL_PREFIX):]
    assert box.open(SEAL_PREFIX + body) == {"v": 3, "log": [[0, "3C"]]}
    # the unused bits of the last character, and an extra "=": the same bytes, another text
    last = body.rstrip("=")[-1]
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    twins = [c for c in alphabet if c != last and base64.urlsafe_b64decode(
        body.rstrip("=")[:-1] + c + "=" * (len(body) - len(body.rstrip("=")))) ==
        base64.urlsafe_b64decode(body)]
    for bad in [SEAL_PREFIX + body.rstrip("=")[:-1] + c + body[len(body.rstrip("=")):]
                for c in twins] + [SEAL_PREFIX + body + "=", SEAL_PREFIX + body + "=="]:
        with pytest.raises(SealError, match="damaged"):
            box.open(bad)
    for bad in (SEAL_PREFIX, SEAL_PREFIX + "!!!", SEAL_PREFIX + "AAAA", SEAL_PREFIX + "é",
                SEAL_PREFIX + body[:10] + "!" + body[10:],          # a character slipped in
                SEAL_PREFIX + body[:10] + " " + body[10:],
                SEAL_PREFIX + body.replace("-", "+").replace("_", "/") if ("-" in body or "_" in body)
                else SEAL_PREFIX + body + "!"):
        with pytest.raises(SealError, match="damaged"):
            box.open(bad)
    with pytest.raises(SealError, match="damaged"):
        Sealer(b"another server's secret........").open(sealed)


def test_a_fernet_record_is_read_strictly_and_one_from_the_future_is_damaged_not_old():
    box = Sealer(SECRET)
    plain = zlib.compress(json.dumps({"v": 5}).encode())
    token = box._fernet.encrypt(plain).decode()
    assert box.open(token, max_age=KEEP_SECONDS) == {"v": 5}
    for bad in (token[:20] + "!" + token[20:], token[:20] + " " + token[20:], token + "A",
                token + "\n", token.replace("-", "+").replace("_", "/") if ("-" in token or "_" in token)
                else token + "*"):
        with pytest.raises(SealError, match="damaged"):
            box.open(bad, max_age=KEEP_SECONDS)
    ahead = box._fernet.encrypt_at_time(plain, int(time.time()) + 7200).decode()
    with pytest.raises(SealError, match="damaged"):
        box.open(ahead, max_age=KEEP_SECONDS)


def test_a_record_that_unpacks_to_more_than_a_match_could_hold_is_refused():
    box = Sealer(SECRET)
    bomb = zlib.compress(b'{"v": 1, "pad": "' + b"a" * (20 * 1024 * 1024) + b'"}', 9)
    assert len(bomb) < 100_000
    with pytest.raises(SealError, match="damaged"):
        box.open(box._seal_bytes(bomb, int(time.time())))


def test_without_gcm_siv_records_are_sealed_with_fernet(monkeypatch):
    import president.web.sealing as sealing
    siv_sealed = Sealer(SECRET).seal({"v": 4})
    monkeypatch.setattr(sealing, "_siv_class", lambda: None)
    box = Sealer(SECRET)
    sealed = box.seal({"v": 4})
    assert sealed.startswith("gAAAAA") and box.open(sealed) == {"v": 4}
    with pytest.raises(SealError, match="damaged"):      # it cannot open what it cannot check
        box.open(siv_sealed)


def test_a_sealed_record_round_trips_and_records_sealed_before_the_small_window_still_open():
    box = Sealer(SECRET)
    record = {"v": 2, "names": ["Ann", "Bo"], "seed": 2 ** 127 + 5,
              "log": [[i % 4, "3C 3D"] for i in range(300)]}
    text = json.dumps(record, separators=(",", ":"))
    sealed = box.seal_text(text)
    assert box.open(sealed) == record
    # Before: zlib.compress's default 32 KB window; such records are in players' browsers.
    before = box._fernet.encrypt(zlib.compress(text.encode(), 1)).decode()
    assert box.open(before) == record
    # The small window (4 KB: the zlib header's first byte is 0x48, not 0x78) is what
    # seal_text writes now.
    assert box._open_bytes(sealed, None)[0][0] == 0x48


class _CrashOnActions:
    """A store connection that fails (as a crash would) when the actions are written."""

    def __init__(self, db):
        self.db = db

    def execute(self, *a):
        return self.db.execute(*a)

    def executemany(self, sql, rows):
        if "INTO actions" in sql:
            raise OSError("the machine went down")
        return self.db.executemany(sql, rows)


def _one_turn_then_dropped(c, players: int):
    """A match table (seed 3) where seat 0 took one turn, then let go from memory (the store
    keeps it): ``(info, the state after the turn, the app's tables)``."""
    info = c.post("/api/tables", json={"kind": "match", "players": players, "seed": 3}).json()
    with c.websocket_connect("/ws") as ws:
        hello(ws, info)
        state = take_turn(ws, until_state(ws))
    tables = c.app.state.tables
    c.portal.call(tables.drop, info["table"])
    return info, state, tables


def test_a_restore_cut_short_keeps_no_shorter_table(tmp_path):
    """A table rebuilt from its record goes into the store whole or not at all: a crash while
    its actions are written must not leave its setup with a shorter log, which would then win
    over every record (the stored table comes first)."""
    with TestClient(create_app(bot_delay=0, secret=SECRET, allow_seed=True, state_dir=tmp_path)) as c:
        info, state, tables = _one_turn_then_dropped(c, players=5)
        store = tables.store
        db, store._db = store._db, _CrashOnActions(store._db)
        try:
            with pytest.raises(OSError, match="went down"):
                c.portal.call(tables.restore, state["snapshot"])
        finally:
            store._db = db
        assert info["table"] not in store and info["table"] not in tables.tables
        table = c.portal.call(tables.restore, state["snapshot"])     # the record still works
        assert store.load(info["table"])["log"] == table.log and len(table.log) >= 1


def test_a_forged_but_authentic_record_with_wrong_shapes_is_refused_as_bad_record():
    """Sealed with the server's own key (only the server can), yet not what it writes: each
    is refused as ``bad-record``, never an uncaught error or a table with impossible
    settings."""
    from president.rules import Rules
    from president.web.state import TableError, TableState

    table = TableState("forge", "match", Rules.preset("house", players=4),
                       ["Ann", "Bo", "Cy", "Di"], ["human", "simple", "simple", "simple"], 5,
                       tokens={0: "t" * 24}, bot_delay=0.0, sealer=None)
    good = table.record()
    assert TableState.from_record(good, bot_delay=0.0, sealer=None).id == "forge"
    for key, value in [("tokens", ["t" * 24]), ("tokens", "x"), ("grace_seconds", float("inf")),
                       ("grace_seconds", 1e309), ("grace_seconds", -1), ("grace_seconds", 10_000),
                       ("turn_seconds", float("nan")), ("turn_seconds", 1), ("names", "Ann"),
                       ("names", [1, 2, 3, 4]), ("levels", None), ("log", {"a": 1}),
                       ("seed", "x"), ("rules", [])]:
        with pytest.raises(TableError) as e:
            TableState.from_record({**good, key: value}, bot_delay=0.0, sealer=None)
        assert e.value.reason == "bad-record", (key, value)


def test_a_hello_for_one_table_with_another_tables_record_rebuilds_nothing(tmp_path):
    """The record restores only the table the hello names: one of another table is refused
    before anything is rebuilt (it was rebuilt and made live while the hello was refused)."""
    with TestClient(create_app(bot_delay=0, secret=SECRET, allow_seed=True, state_dir=tmp_path)) as c:
        info, state, tables = _one_turn_then_dropped(c, players=4)
        tables.store.remove(info["table"])                     # as a server that lost it
        with c.websocket_connect("/ws") as ws:
            ws.send_json({"type": "hello", "table": "another-table", "token": info["token"],
                          "snapshot": state["snapshot"]})
            refused = ws.receive_json()
        assert refused["type"] == "error" and refused["reason"] == "bad-record"
        assert "another table" in refused["message"]
        assert info["table"] not in tables.tables and info["table"] not in tables.store


def test_a_record_of_a_table_dropped_a_moment_ago_waits_for_its_removal(tmp_path):
    """A drop's removal from the store is written by the store's writer thread; a restore
    right after it (the writer still busy) must see the table gone: an older record is
    refused as old, and the newest one is rebuilt and stays on disk (the queued removal
    must not delete it afterwards)."""
    import threading

    with TestClient(create_app(bot_delay=0, secret=SECRET, allow_seed=True, state_dir=tmp_path)) as c:
        info, early, state = two_snapshots(c, players=4)
        tables = c.app.state.tables
        gate = threading.Event()
        c.portal.call(lambda: tables._commit.later(lambda: gate.wait(1.0)))   # the writer is busy
        c.portal.call(tables.drop, info["table"])
        with c.websocket_connect("/ws") as ws:
            assert hello(ws, info, early)["reason"] == "old-record"
        gate.set()
        with c.websocket_connect("/ws") as ws:
            assert hello(ws, info, state["snapshot"])["type"] == "welcome"
        c.portal.call(tables._commit.flush)
        assert info["table"] in tables.store
