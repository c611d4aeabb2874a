"""Open tables (issue 35, item 1; docs/web.md, "Open tables"): a host opens a match to anyone
on the server; the start screen lists it; strangers take its free seats with a name (``join``
on the socket); the host can free a seat before the start; computers fill the seats nobody
took when the wait is over; "Play now" seats a player at a matching open table or opens one.
On the SQLite store, on PostgreSQL (the shared store of several processes) and across a
restart. Every message a socket sends here is checked against the declared server → page
messages (:mod:`president.web.messages`)."""

from __future__ import annotations

import asyncio
import time

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from president.web import protocol as P  # noqa: E402
from president.web import sockets  # noqa: E402
from president.web.app import create_app  # noqa: E402
from president.web.messages import validate_to_page  # noqa: E402
from president.web.sealing import Sealer  # noqa: E402
from president.web.tables import Tables  # noqa: E402
from tests.helpers import run_async  # noqa: E402
from tests.test_web_friends import Page  # noqa: E402

OPEN = {"kind": "match", "preset": "house", "players": 4, "names": ["Ana", "", "", ""],
        "levels": ["human", "human", "human", "simple"], "open": True, "fill_seconds": 60}


@pytest.fixture(autouse=True)
def declared_messages(monkeypatch):
    """Every message a real socket sends in these tests, as encoded, is a declared one (the
    check runs in the server's thread: a failure is kept and reported at the test's end)."""
    encode = sockets.encode
    sent: list[str] = []
    undeclared: list[tuple[str, str]] = []

    def checked(message: dict) -> str:
        text = encode(message)
        sent.append(text)
        try:
            validate_to_page(text)
        except Exception as e:  # a ValidationError, kept for the test's end
            undeclared.append((text[:300], str(e)[:600]))
        return text

    monkeypatch.setattr(sockets, "encode", checked)
    yield sent
    assert not undeclared, undeclared


def _welcome(ws) -> tuple[dict, dict]:
    """The welcome and the first state after it."""
    welcome = ws.receive_json()
    assert welcome["type"] == "welcome", welcome
    assert ws.receive_json()["type"] == "log"
    state = ws.receive_json()
    assert state["type"] == "state"
    return welcome, state


def _until(ws, pred) -> dict:
    while True:
        m = ws.receive_json()
        for msg in (m["messages"] if m["type"] == "batch" else [m]):
            if pred(msg):
                return msg


def test_an_open_table_is_listed_joined_by_strangers_and_leaves_the_list_when_full(tmp_path):
    app = create_app(bot_delay=0, secret=b"o" * 32, state_dir=tmp_path)
    with TestClient(app) as c:
        made = c.post("/api/tables", json=OPEN).json()
        table = made["table"]
        assert made["open"] is True and made["invites"] == []   # no seat links to hand out
        listed = c.get("/api/open-tables").json()["tables"]
        assert [(x["table"], x["host"], x["seated"], x["free"], x["players"], x["computers"])
                for x in listed] == [(table, "Ana", ["Ana"], 2, 4, 1)]
        assert 55 <= listed[0]["starts_in"] <= 60 and listed[0]["preset"] == "house"
        with c.websocket_connect(f"/ws?table={table}") as host:
            host.send_json({"type": "hello", "table": table, "token": made["token"]})
            _, lobby = _welcome(host)
            assert lobby["table"]["lobby"] is True
            with c.websocket_connect(f"/ws?table={table}") as bo:
                bo.send_json({"type": "join", "table": table, "name": "Bo"})
                welcome, state = _welcome(bo)
                assert welcome["player"] == 1 and welcome["name"] == "Bo"
                assert len(welcome["token"]) >= 22 and welcome["invites"] == []
                assert state["players"][1] == "Bo"
                seen = _until(host, lambda m: m["type"] == "state" and m["players"][1] == "Bo")
                assert seen["players"] == ["Ana", "Bo", "Seat 3", "Casey"]
                # the same name again, and a seat's placeholder, are refused; the seat stays free
                with c.websocket_connect(f"/ws?table={table}") as other:
                    other.send_json({"type": "join", "table": table, "name": "bo"})
                    refused = other.receive_json()
                    assert refused["type"] == "error" and refused["reason"] == "bad-name"
                    assert refused["message"] == ("Bo already sits at this table; choose "
                                                  "another name")
                    other.send_json({"type": "join", "table": table, "name": "Seat 3"})
                    assert other.receive_json()["reason"] == "bad-name"
                    other.send_json({"type": "join", "table": table, "name": "Cy"})
                    welcome, _ = _welcome(other)
                    assert welcome["player"] == 2
                    # full: off the list, and the next join is refused
                    assert c.get("/api/open-tables").json()["tables"] == []
                    with c.websocket_connect(f"/ws?table={table}") as late:
                        late.send_json({"type": "join", "table": table, "name": "Di"})
                        assert late.receive_json()["reason"] == "table-full"
                    # the host frees Cy's seat before the start: Cy is told and closed
                    host.send_json({"type": "unseat", "player": 2})
                    gone = _until(other, lambda m: m["type"] == "error")
                    assert gone["reason"] == "unseated"
                    with pytest.raises(WebSocketDisconnect) as closed:
                        _until(other, lambda m: False)
                    assert closed.value.code == 4001
                assert [x["free"] for x in c.get("/api/open-tables").json()["tables"]] == [1]
                # Bo cannot free seats; the host starts; the table leaves the list
                bo.send_json({"type": "unseat", "player": 1})
                assert _until(bo, lambda m: m["type"] == "error")["reason"] == "host-only"
                host.send_json({"type": "start"})
                started = _until(host, lambda m: m["type"] == "state"
                                 and not m["table"]["lobby"])
                assert started["players"] == ["Ana", "Bo", "Seat 3", "Casey"]
                assert c.get("/api/open-tables").json()["tables"] == []


def test_a_claimed_seat_comes_back_after_a_restart_with_its_own_token(tmp_path):
    with TestClient(create_app(bot_delay=0, secret=b"o" * 32, state_dir=tmp_path)) as c:
        made = c.post("/api/tables", json=OPEN).json()
        table = made["table"]
        with c.websocket_connect(f"/ws?table={table}") as bo:
            bo.send_json({"type": "join", "table": table, "name": "Bo"})
            welcome, _ = _welcome(bo)
            token = welcome["token"]
    with TestClient(create_app(bot_delay=0, secret=b"o" * 32, state_dir=tmp_path)) as c:
        listed = c.get("/api/open-tables").json()["tables"]
        assert [(x["seated"], x["free"]) for x in listed] == [(["Ana", "Bo"], 1)]
        with c.websocket_connect(f"/ws?table={table}") as bo:
            bo.send_json({"type": "hello", "table": table, "token": token})
            welcome, state = _welcome(bo)
            assert welcome["player"] == 1 and state["players"][:2] == ["Ana", "Bo"]


def test_computers_fill_the_free_seats_when_the_wait_is_over():
    async def go() -> None:
        tables = Tables(sealer=Sealer(b"f" * 32), bot_delay=0.0, allow_seed=True, per_address=0)
        table = tables.create(kind="match", preset="house", players=4, seed=3,
                              names=["Ana", "", "", ""], open_seats=True, fill_seconds=10,
                              levels=["human", "human", "human", "simple"])
        host, bo = Page(), Page()
        await table.join(0, host)
        who, token = await table.claim("Bo")
        await table.join(who, bo, token=token)
        assert table.listing()["free"] == 1
        table.fill_by = time.time() + 0.05      # (the wait, made short)
        tables._arm_fill(table, asyncio.get_running_loop())
        for _ in range(100):
            if table.standins:
                break
            await asyncio.sleep(0.02)
        assert not table.lobby and table.log[0] == "s"
        assert table.standins == {2}            # a computer plays the seat nobody took
        said = [m["text"] for m in host.got if m["type"] == "event" and m.get("kind") == "presence"]
        assert "A computer (simple) takes Seat 3, which nobody took." in said
        assert table.listing() is None
        with pytest.raises(Exception) as late:
            await table.claim("Cy")
        assert getattr(late.value, "reason", None) == "not-open"
    run_async(go)


def test_open_table_requests_are_checked():
    tables = Tables(sealer=None, bot_delay=0.0, per_address=0)
    with pytest.raises(Exception) as e:
        tables.create(kind="match", preset="house", players=4, open_seats=True,
                      levels=["human", "simple", "simple", "simple"])
    assert getattr(e.value, "reason", None) == "bad-table"
    with pytest.raises(Exception) as e:
        tables.create(kind="match", preset="house", players=4, open_seats=True,
                      levels=["human", "human", "simple", "simple"], fill_seconds=5)
    assert "fill_seconds 5 is out of range; give 10 to 600" in str(e.value)
    # a friends' table is not open: no join, and its seat links are there
    friends = tables.create(kind="match", preset="house", players=4,
                            levels=["human", "human", "simple", "simple"])
    assert friends.listing() is None and len(friends.invites()) == 1
    with pytest.raises(Exception) as e:
        run_async(lambda: friends.claim("Bo"))
    assert getattr(e.value, "reason", None) == "not-open"
    assert isinstance(P.parse_client('{"type": "join", "table": "abcdefgh", "name": "Bo"}'),
                      P.JoinMsg)


def test_play_now_joins_a_matching_open_table_or_opens_one(tmp_path):
    with TestClient(create_app(bot_delay=0, secret=b"o" * 32, state_dir=tmp_path)) as c:
        first = c.post("/api/play-now", json={"preset": "house", "players": 4,
                                              "name": "Ana"}).json()
        assert first["open"] is True and first["player"] == 0 and first["invites"] == []
        listed = c.get("/api/open-tables").json()["tables"]
        assert [(x["table"], x["free"], x["computers"]) for x in listed] == [
            (first["table"], 3, 0)]
        assert 25 <= listed[0]["starts_in"] <= 30
        second = c.post("/api/play-now", json={"preset": "house", "players": 4,
                                               "name": "Bo"}).json()
        assert second == {"table": first["table"], "join": True}
        other = c.post("/api/play-now", json={"preset": "house", "players": 5}).json()
        assert other["table"] != first["table"] and other["open"] is True
        bad = c.post("/api/play-now", json={"preset": "nope"})
        assert bad.status_code == 400 and bad.json()["error"] == "bad-rules"


def test_the_list_of_open_tables_comes_from_the_store(store_engine):
    """Another server's tables (here: another Tables on the same store, as each process of
    several has) are listed, and a join rebuilds the table from the store."""
    store, ledger = store_engine.open()
    a = Tables(sealer=None, bot_delay=0.0, per_address=0, store=store, ledger=ledger)
    b = Tables(sealer=None, bot_delay=0.0, per_address=0, store=store, ledger=ledger)
    try:
        table = a.create(kind="match", preset="house", players=4, open_seats=True,
                         levels=["human", "human", "simple", "simple"],
                         names=["Ana", "", "", ""])
        assert [(x["table"], x["seated"], x["free"]) for x in b.open_listing()] == [
            (table.id, ["Ana"], 1)]
        found = run_async(lambda: b.open_table_async(table.id))
        assert found is not None and found is not table and found.id == table.id
        assert found.open and found.free_seats() == [1]
        assert run_async(lambda: b.open_table_async("nosuchtable")) is None
    finally:
        for t in (a, b):
            t.close_all()
        store.close()
        ledger.close()
