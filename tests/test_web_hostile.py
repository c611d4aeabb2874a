"""The game server under attack (issue 9): every bound holds, rebinding hosts and foreign
origins are refused, names cannot deceive, refusals have the documented shape, and the state
folder is private.

In process through starlette's TestClient, and against ``president serve`` as a subprocess
(its memory read from /proc/PID/status while a 50 MB body is refused)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import stat
import subprocess
import sys
import threading
import time
import types
import unicodedata
import urllib.request

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402
from starlette.testclient import WebSocketDenialResponse  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from president.commands import serve as serve_cmd  # noqa: E402
from president.web import guard  # noqa: E402
from president.web import protocol as P  # noqa: E402
from president.web.app import MAX_BEFORE_HELLO, create_app  # noqa: E402
from president.web.names import (MAX_MARKS, BadName, check_names, clean_name,  # noqa: E402
                                 same_name)
from tests.helpers import run_async  # noqa: E402

SECRET = b"hostile-test-secret-0123456789abc"
LOCAL = "http://127.0.0.1:8000"
WS = "ws://127.0.0.1:8000/ws"


@pytest.fixture
def client(tmp_path, monkeypatch):
    """The app as ``president serve`` makes it: this machine's names only (no
    ``testserver``), so the requests name their host."""
    monkeypatch.delenv("PRESIDENT_WEB_HOSTS")
    app = create_app(bot_delay=0, secret=SECRET, state_dir=tmp_path,
                     allowed_hosts=guard.allowed_hosts_for("127.0.0.1"))
    with TestClient(app, base_url=LOCAL) as c:
        yield c


def is_refusal(r, status, reason):
    """The documented shape of an HTTP refusal."""
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"error", "message"} and body["error"] == reason, body
    assert body["message"]
    return body["message"]


# ----- request bodies -----------------------------------------------------------------------

def test_a_body_over_the_limit_is_refused_before_it_is_parsed(client):
    body = b'{"kind": "practice", "pad": "' + b"x" * guard.MAX_BODY_BYTES + b'"}'
    r = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
    message = is_refusal(r, 413, "too-large")
    assert str(guard.MAX_BODY_BYTES) in message and r.headers["connection"] == "close"
    assert len(client.app.state.tables) == 0


def test_a_body_at_the_limit_is_read(tmp_path):
    app = create_app(bot_delay=0, secret=SECRET, state_dir=tmp_path, allowed_hosts=["testserver"])
    body = b'{"kind": "practice"}'
    body += b" " * (guard.MAX_BODY_BYTES - len(body))
    with TestClient(app) as c:
        r = c.post("/api/tables", content=body, headers={"content-type": "application/json"})
        assert r.status_code == 200, r.text


def test_a_chunked_body_without_length_is_refused(client):
    def chunks():
        for _ in range(64):
            yield b"[" * 1024
    r = client.post("/api/tables", content=chunks(), headers={"content-type": "application/json"})
    assert "content-length" not in r.request.headers
    is_refusal(r, 413, "too-large")


@pytest.mark.parametrize("declared", [True, False])
@pytest.mark.parametrize("total", [None, 100 * 4096])
def test_body_limit_stops_the_app_at_the_limit_and_drops_the_rest(declared, total):
    """The middleware itself, fed an endless body (``total`` None) or a 400 KB one: with a
    Content-Length over the limit the app reads nothing; without one the app's reads stop
    at the chunk that passes the limit. Then the rest of the body is read and dropped (all
    of a finite body; an endless one up to DRAIN_BYTES) before the 413, so that a sender
    still sending reads the answer instead of a reset."""
    reads = 0
    app_reads = 0
    sent: list[dict] = []

    async def receive():
        nonlocal reads
        reads += 1
        more = total is None or reads * 4096 < total
        return {"type": "http.request", "body": b"x" * 4096, "more_body": more}

    async def send(message):
        sent.append(message)

    async def app(scope, receive, send):           # reads the whole body, as a route does
        nonlocal app_reads
        while True:
            app_reads += 1
            if not (await receive()).get("more_body"):
                break

    headers = [(b"content-length", b"52428800")] if declared else [(b"transfer-encoding", b"chunked")]
    scope = {"type": "http", "method": "POST", "path": "/", "headers": headers}
    run_async(lambda: guard.BodyLimit(app, limit=16384)(scope, receive, send))
    assert app_reads == (0 if declared else 16384 // 4096 + 1)
    if total is None:
        assert reads == (0 if declared else 16384 // 4096 + 1) + guard.DRAIN_BYTES // 4096
    else:
        assert reads == total // 4096
    assert sent[0]["status"] == 413
    assert (b"connection", b"close") in sent[0]["headers"]
    assert json.loads(sent[1]["body"])["error"] == "too-large"


def test_draining_a_refused_body_stops_after_its_time(monkeypatch):
    """A body that trickles in is dropped for DRAIN_SECONDS at most, then answered."""
    monkeypatch.setattr(guard, "DRAIN_SECONDS", 0.2)
    sent: list[dict] = []
    reads = []

    async def receive():
        reads.append(1)
        await asyncio.sleep(0.05)
        return {"type": "http.request", "body": b"x" * 10, "more_body": True}

    async def send(message):
        sent.append(message)

    async def app(scope, receive, send):
        raise AssertionError("the app must not run")

    scope = {"type": "http", "method": "POST", "path": "/",
             "headers": [(b"content-length", b"999999999")]}
    run_async(lambda: guard.BodyLimit(app, limit=16384)(scope, receive, send))
    # drained (at least one read), and stopped by its time, not by DRAIN_BYTES: each read
    # waits 0.05 s or longer, so 0.2 s holds at most four whole reads and the one cut off
    assert 1 <= len(reads) <= 5 and len(reads) * 10 < guard.DRAIN_BYTES
    assert sent[0]["status"] == 413


def test_bodies_that_are_not_json_get_the_documented_shape(client):
    for body in [b"\xff\xfe{}", b"[" * 5000, b'{"kind": ' * 1500, b"\x00garbage"]:
        r = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
        message = is_refusal(r, 422, "bad-request")
        assert len(message) < 200
    r = client.post("/api/tables", json={"kind": "practice", "x" * 10_000: 1})
    message = is_refusal(r, 422, "bad-request")
    assert "x" * 40 + "…" in message and "x" * 41 not in message
    is_refusal(client.get("/nope"), 404, "not-found")
    is_refusal(client.get("/static/nope.js"), 404, "not-found")
    is_refusal(client.get("/api/tables"), 405, "method-not-allowed")


# ----- websocket bounds -----------------------------------------------------------------------

def test_junk_before_joining_closes_the_socket(client):
    with client.websocket_connect(WS) as ws:
        for i in range(MAX_BEFORE_HELLO - 1):
            ws.send_text("junk" if i % 2 else '{"type": "pass"}')
            assert ws.receive_json()["reason"] == "bad-message"
        ws.send_bytes(b"\xff")
        last = ws.receive_json()
        assert last["reason"] == "bad-message" and "closed" in last["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1008


def test_a_join_after_a_little_junk_still_works(client):
    info = client.post("/api/tables", json={"kind": "practice"}).json()
    with client.websocket_connect(WS) as ws:
        for _ in range(MAX_BEFORE_HELLO - 1):
            ws.send_text("junk")
            ws.receive_json()
        ws.send_json({"type": "hello", "table": info["table"], "token": info["token"]})
        assert ws.receive_json()["type"] == "welcome"
        for _ in range(MAX_BEFORE_HELLO + 3):           # after the join junk never closes it
            ws.send_text("junk")
            while ws.receive_json()["type"] != "error":
                pass


@pytest.mark.parametrize("raw", [
    json.dumps({"type": "x" * 400_000}),
    json.dumps({"type": "pass", "y" * 300_000: 1}),
    json.dumps({"type": "hello", "table": "t" * 300_000, "token": "k" * 32}),
    json.dumps({"type": "\u202e" + "z" * 100}),
    json.dumps({"type": "pass", "\u202eevil\u0000": 1}),     # an extra field's own name
    json.dumps({"type": "pass", "\u3164\u3164": 1}),          # a name that draws nothing
    json.dumps({"type": "pass", "x" + "\u0301" * 39: 1}),      # a stack of marks
])
def test_errors_quote_at_most_a_short_excerpt(client, raw):
    with client.websocket_connect(WS) as ws:
        ws.send_text(raw)
        reply = ws.receive_json()
    assert reply["type"] == "error" and reply["reason"] == "bad-message"
    assert len(reply["message"]) < 300, len(reply["message"])
    assert not any(ch in reply["message"] for ch in "\u202e\x00\u3164\u0301")
    for letter in "xyzt":
        assert letter * (P.EXCERPT_CHARS + 1) not in reply["message"]


HANDS = ["3C 3D 3H 3S 4C 4D 4H 4S 5C 5D 5H 5S 6C", "6D 6H 6S 7C 7D 7H 7S 8C 8D 8H 8S 9C 9D",
         "9H 9S TC TD TH TS JC JD JH JS QC QD QH", "QS KC KD KH KS AC AD AH AS 2C 2D 2H 2S"]


def _record(**changes):
    record = {"format": "president/1", "rules": {"preset": "house", "twists": [], "players": 4},
              "players": ["Alex", "Blair", "Casey", "Drew"],
              "deals": [{"dealer": 3, "finish_order": [1, 0, 2, 3]}]}
    record.update(changes)
    return record


@pytest.mark.parametrize("record", [
    # a number past Python's 4,300 digits in the companion's note, once per number
    _record(comment="(table companion: first dealer seat 3; dealt again: 0 " + "9" * 5000 + ")"),
    _record(comment="(table companion: first dealer seat " + "9" * 5000 + "; dealt again: 0)",
            deals=[]),
    # a seating that is not all numbers
    _record(rules={"preset": "family", "twists": [], "players": 4},
            deals=[{"dealer": 3, "seating": [1, 0, None, 3], "finish_order": [1, 0, 2, 3]}]),
    _record(rules={"preset": "family", "twists": [], "players": 4},
            deals=[{"dealer": 3, "seating": [1, 0, "x", 3], "finish_order": [1, 0, 2, 3]}]),
])
def test_a_companion_import_of_an_odd_record_is_refused_not_a_crash(client, record):
    r = client.post("/api/companion/import", json=record)
    assert r.status_code in (200, 400), r.text
    if r.status_code == 400:
        is_refusal(r, 400, r.json()["error"])


@pytest.mark.parametrize("path, body", [
    ("/api/companion/import", _record(format="f" * 10_000)),
    ("/api/companion/import", _record(rules={"preset": "p" * 10_000, "twists": [], "players": 4})),
    ("/api/companion/import", _record(rules={"preset": "house", "twists": ["t" * 10_000],
                                             "players": 4})),
    ("/api/companion/import", _record(deals=[{"dealer": "d" * 10_000, "finish_order": [0, 1, 2, 3]}])),
    ("/api/companion/import", _record(deals=[{"dealer": 0, "finish_order": [0, 1, 2, "d" * 5000]}])),
    ("/api/companion/import", _record(deals=[{"dealer": int("9" * 4000), "finish_order": [0, 1, 2, 3]}])),
    ("/api/companion/import", _record(deals=[{"dealer": 0, "hands": "d" * 6000}])),
    ("/api/companion/import", _record(deals=[{"dealer": 0, "hands": HANDS, "actions": ["0 " + "d" * 5000]}])),
    ("/api/companion/import", _record(deals=[{"dealer": 0, "hands": HANDS, "actions": ["9" * 5000 + " 3C"]}])),
    ("/api/companion/import", _record(deals=[{"dealer": 0, "hands": HANDS, "actions": ["\u00b2 3C"]}])),
    ("/api/companion/import", _record(deals=[{"dealer": 0, "hands": HANDS,
                                              "exchange": ["0>" + "9" * 4000 + " 3C"]}])),
    ("/api/companion/import", _record(rules={"preset": "house", "p" * 5000: 1})),
    ("/api/companion/import", _record(rules={"preset": "house", "scoring": [int("9" * 4000), 1]},
                                      deals=[])),
    ("/api/tables", {"kind": "match", "levels": ["human", "L" * 120, "simple", "simple"]}),
    ("/api/tables", {"kind": "match", "levels": ["human", "simple", "simple", "simple"],
                     "standin": "S" * 120}),
])
def test_http_refusals_quote_at_most_a_short_excerpt(client, path, body):
    r = client.post(path, json=body)
    assert 400 <= r.status_code < 500, r.text
    message = r.json()["message"]
    assert len(message) < 400, len(message)
    for letter in "fptdLS9":
        assert letter * (P.EXCERPT_CHARS + 1) not in message, message


@pytest.mark.parametrize("stopping", [False, True])
def test_a_pages_own_close_code_1012_does_not_keep_its_practice_round(client, stopping):
    # 1012 ("service restart") keeps a practice round for the restart only when the server
    # is stopping; a page that sends 1012 itself leaves like any page (seed 003: leaving
    # clears the round).
    info = client.post("/api/tables", json={"kind": "practice"}).json()
    with client.websocket_connect(WS) as ws:
        ws.send_json({"type": "hello", "table": info["table"], "token": info["token"]})
        assert ws.receive_json()["type"] == "welcome"
        # (set once joined: a stopping server takes no new table or socket)
        client.app.state.stopping = stopping
        ws.close(code=1012)
    tables = client.app.state.tables
    for _ in range(100):       # the server's side of the close runs on its own loop
        if (tables.get(info["table"]) is None) != stopping:
            break
        time.sleep(0.02)
    assert (tables.get(info["table"]) is not None) == stopping


def test_excerpt_is_forty_characters_and_an_ellipsis():
    assert P.excerpt("a" * 100) == repr("a" * P.EXCERPT_CHARS + "…")
    assert P.excerpt("short") == "'short'"
    assert P.EXCERPT_CHARS == 40


# ----- hosts and origins ----------------------------------------------------------------------

@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:8000", "[::1]:8000", "127.0.0.1"])
def test_this_machines_names_are_answered(client, host):
    r = client.get("/api/options", headers={"host": host})
    assert r.status_code == 200


@pytest.mark.parametrize("host", ["evil.example:8000", "evil.example", "testserver",
                                  "127.0.0.1.evil.example", "[::2]:8000", "localhost.:8000"])
def test_other_hosts_are_refused(client, host):
    r = client.get("/api/options", headers={"host": host})
    message = is_refusal(r, 400, "bad-host")
    assert "127.0.0.1" in message
    assert r.headers["content-security-policy"] and r.headers["x-content-type-options"] == "nosniff"
    r = client.post("/api/tables", json={"kind": "practice"}, headers={"host": host})
    assert r.status_code == 400 and len(client.app.state.tables) == 0


def test_rebinding_websocket_is_refused_by_host(client):
    with pytest.raises(WebSocketDenialResponse) as refused:
        with client.websocket_connect("ws://evil.example:8000/ws",
                                      headers={"origin": "http://evil.example:8000"}):
            pass
    assert refused.value.status_code == 400 and refused.value.json()["error"] == "bad-host"


@pytest.mark.parametrize("origin", ["http://evil.example:8000", "null", "http://127.0.0.1:3000",
                                    "file://", "http://127.0.0.1.evil.example:8000",
                                    "chrome-extension://abc"])
def test_foreign_origins_are_refused(client, origin):
    with pytest.raises(WebSocketDenialResponse) as refused:
        with client.websocket_connect("ws://127.0.0.1:8000/ws", headers={"origin": origin}):
            pass
    assert refused.value.status_code == 403 and refused.value.json()["error"] == "bad-origin"


@pytest.mark.parametrize("origin", ["http://evil.example@127.0.0.1:8000",
                                    "http://127.0.0.1:8000/path", "http://127.0.0.1:8000?x",
                                    "http://127.0.0.1:8000#f", "http://u:p@localhost:8000"])
def test_origins_no_browser_sends_are_refused(client, origin):
    """A re-attack found these accepted: the hostname behind a user part, or an origin with
    a path, query or fragment (a browser's Origin is scheme://host[:port] only)."""
    with pytest.raises(WebSocketDenialResponse) as refused:
        with client.websocket_connect("ws://127.0.0.1:8000/ws", headers={"origin": origin}):
            pass
    assert refused.value.status_code == 403 and refused.value.json()["error"] == "bad-origin"


def test_a_page_of_another_site_cannot_post_here(client):
    """An attack made a page elsewhere keep a player's game slow by posting score sheets to
    this server from the player's browser (a text/plain body needs no CORS preflight). A
    request with a body from a foreign origin gets 403 bad-origin before anything is read;
    the server's own page, and a client that sends no Origin, are served; so is a GET."""
    sheet = {"sheet": {"rules": "house", "players": ["Alex", "Blair", "Casey", "Drew"],
                       "first_dealer": 3, "entries": []}}
    for path, body in (("/api/companion", sheet), ("/api/tables", {"kind": "practice"})):
        refused = client.post(path, content=json.dumps(body),
                              headers={"origin": "https://evil.example",
                                       "content-type": "text/plain"})
        assert refused.status_code == 403, refused.text
        assert refused.json()["error"] == "bad-origin" and "evil.example" in refused.json()["message"]
        own = client.post(path, json=body, headers={"origin": "http://127.0.0.1:8000"})
        assert own.status_code == 200, own.text
        assert client.post(path, json=body).status_code == 200
    assert client.get("/api/options", headers={"origin": "https://evil.example"}).status_code == 200


@pytest.mark.parametrize("origin, host", [
    ("http://127.0.0.1:8000", "127.0.0.1:8000"),
    ("http://localhost:8000", "127.0.0.1:8000"),      # the page opened as localhost
    ("http://[::1]:8000", "[::1]:8000"),
    (None, "127.0.0.1:8000"),                         # not a browser: the tokens guard the tables
])
def test_the_pages_own_origins_are_accepted(client, origin, host):
    headers = {"origin": origin} if origin else {}
    with client.websocket_connect(f"ws://{host}/ws", headers=headers) as ws:
        ws.send_json({"type": "pass"})
        assert ws.receive_json()["reason"] == "bad-message"


def test_allowed_hosts_for_the_serve_host():
    assert guard.allowed_hosts_for() == ["127.0.0.1", "localhost", "[::1]", "::1", "testserver"]
    assert "[fe80::1]" in guard.allowed_hosts_for("fe80::1")
    assert "[fe80::1]" in guard.allowed_hosts_for("[fe80::1]")
    assert guard.allowed_hosts_for("0.0.0.0")[:4] == ["127.0.0.1", "localhost", "[::1]", "::1"]
    assert "0.0.0.0" not in guard.allowed_hosts_for("0.0.0.0")
    assert "game.lan" in guard.allowed_hosts_for("0.0.0.0", ["Game.LAN"])


def test_production_default_does_not_answer_testserver(tmp_path, monkeypatch):
    monkeypatch.delenv("PRESIDENT_WEB_HOSTS")
    app = create_app(bot_delay=0, secret=SECRET, state_dir=tmp_path)
    with TestClient(app) as c:
        is_refusal(c.get("/"), 400, "bad-host")
        assert c.get(f"{LOCAL}/").status_code == 200


def test_every_answer_carries_the_security_headers(client):
    answers = [client.get("/"), client.head("/"), client.get("/static/app.js"),
               client.get("/api/options"), client.get("/nope"),
               client.post("/api/tables", json={"kind": "casino"}),
               client.post("/api/tables", content=b"x" * 20_000),
               client.get("/", headers={"host": "evil.example"})]
    for r in answers:
        for name, value in guard.SECURITY_HEADERS.items():
            assert r.headers.get(name) == value, (r.request.url, name)
        assert "camera=()" in r.headers["permissions-policy"]
        assert "microphone=()" in r.headers["permissions-policy"]
        assert "geolocation=()" in r.headers["permissions-policy"]
        assert "server" not in r.headers


# ----- names ----------------------------------------------------------------------------------

@pytest.mark.parametrize("name, words", [
    ("Al\u202eex", "U+202E RIGHT-TO-LEFT OVERRIDE"),
    ("\u202dAlex", "U+202D"),
    ("Al\u200bex", "U+200B ZERO WIDTH SPACE"),
    ("Al\u200dex", "U+200D"),
    ("\u2066Alex\u2069", "U+2066"),
    ("Alex\u2067", "U+2067"),
    ("\u2068Alex", "U+2068"),
    ("Al\u2069ex", "U+2069"),
    ("\ufeffAlex", "U+FEFF"),
    ("Al\u00adex", "U+00AD SOFT HYPHEN"),
    ("Al\x07ex", "control character"),
    ("Alex\nRobin", "control character"),
    ("Al\tex", "control character"),
    ("Alex\u2028", "line separator"),
    ("Al\ue000ex", "private-use"),
    ("Alex\u3164", "shows nothing"),
    ("\u2800", "shows nothing"),
    ("A\u180dlex", "U+180D MONGOLIAN FREE VARIATION SELECTOR THREE"),   # draw nothing
    ("Y\u180bou", "U+180B"),
    ("Al\u180cex", "U+180C"),
    ("Alex\u180f", "U+180F"),
    ("Al\U00016fe4ex", "U+16FE4 KHITAN SMALL SCRIPT FILLER"),
    ("You\U0001d159", "U+1D159 MUSICAL SYMBOL NULL NOTEHEAD"),
    ("\U0001d159", "U+1D159"),
    ("\u0301Alex", "starts with a combining mark"),
    ("x" + "\u0301" * (MAX_MARKS + 1), "stacks more than"),
    ("A" + "\u0301" * (MAX_MARKS + 1), "stacks more than"),   # NFC folds the first into Á
    ("\u0301\u0301", "combining mark"),
])
def test_invisible_control_and_format_characters_are_refused(name, words):
    with pytest.raises(BadName) as e:
        check_names(["Robin", name])
    assert words in e.value.message and "seat 2" in e.value.message
    assert "letters of any script" in e.value.message and "24 characters" in e.value.message
    assert not any(unicodedata.category(c) in ("Cc", "Cf") for c in e.value.message)


@pytest.mark.parametrize("other", [
    "alex", " ALEX ", "A\u200alex".replace("\u200a", ""),
    "\u0410lex",                       # Cyrillic А
    "\u0410l\u0435\u0445",             # Cyrillic А, е, х
    "\u0391lex",                       # Greek Α
    "\uff21\uff4c\uff45\uff58",        # fullwidth
    "\U0001d400\U0001d425\U0001d41e\U0001d431",   # mathematical bold
    "AIex",                            # capital i for the l
    "A lex", "A l e x",                # spaces inside
])
def test_lookalike_names_are_the_same_name(other):
    with pytest.raises(BadName) as e:
        check_names(["Robin", "Alex", other])
    assert "seats 2 and 3" in e.value.message and "different name" in e.value.message
    assert same_name("Alex", other)


def test_different_names_stay_different():
    names = ["Zoë", "Zoe", "José", "Jose", "Ana", "Anna", "Иван"]
    assert check_names(names) == names
    assert check_names(["שרה", "Sam", "李小龍", "Ålex", "Alex 2", "Ali"]) == \
        ["שרה", "Sam", "李小龍", "Ålex", "Alex 2", "Ali"]
    assert not same_name("Alex", "Alexa")


def test_names_are_cleaned_for_showing():
    assert clean_name("  Robin   Hood ") == "Robin Hood"
    assert clean_name("Jose\u0301") == "José"              # NFC
    assert clean_name("\u00a0Sam\u3000") == "Sam"
    with pytest.raises(BadName, match="25 characters"):
        clean_name("x" * 25)


def test_you_spaced_out_is_still_you():
    with pytest.raises(BadName):
        check_names(["You", "Y o u"])


def test_you_is_only_the_first_seat_and_only_without_friends():
    assert check_names(["You", "Alex", "Sam"]) == ["You", "Alex", "Sam"]
    with pytest.raises(BadName, match="your own name"):
        check_names(["You", "Alex", "Sam"], friends=True)
    with pytest.raises(BadName, match="your own name"):
        check_names(["Y\u043eu", "Alex", "Sam"], friends=True)       # Cyrillic о
    with pytest.raises(BadName, match="seat 3 is named 'you'"):
        check_names(["Me", "Alex", "you"])
    # Left blank, the first seat is the host when friends sit at the table.
    assert check_names(["", "Alex", "Sam"], defaults=["You", "Alex", "Blair"], friends=True)[0] == "Host"
    assert check_names(["", "Host", "Sam"], friends=True)[0] == "Player 1"
    assert check_names(["", "", "Sam"], defaults=["You", "Alex", "Blair"]) == ["You", "Alex", "Sam"]


def test_you_with_punctuation_and_the_computers_words_are_refused():
    """An attack named seats "You." and "The computer (for you)": the first read "You. plays…"
    about someone else, the second exactly as a move the computer made for the reader."""
    for name in ("You.", "You!", "¡You?", "(you)"):
        with pytest.raises(BadName, match="calls its reader"):
            check_names(["Me", name, "Sam"])
        with pytest.raises(BadName, match="your own name"):
            check_names([name, "Alex", "Sam"], friends=True)
    assert check_names(["You.", "Alex", "Sam"]) == ["You.", "Alex", "Sam"]   # the reader alone
    for name in ("The computer (for you)", "the COMPUTER for you", "The computer - for you!"):
        for seat in (0, 2):
            names = ["Me", "Alex", "Sam"]
            names[seat] = name
            with pytest.raises(BadName, match="the computer playing for someone") as refused:
                check_names(names)
            assert refused.value.seat == seat
    assert check_names(["Me", "Computer", "Sam"]) == ["Me", "Computer", "Sam"]


@pytest.mark.parametrize("names, words", [
    (["Me", "Al\u202eex", "Sam", "Drew"], "U+202E"),
    (["Me", "Alex", "Al\u200bex", "Drew"], "U+200B"),
    (["Me", "Alex", "\u0410lex", "Drew"], "look alike"),
    (["You", "Alex", "Sam", "Drew"], "your own name"),
])
def test_the_api_refuses_deceptive_names(client, names, words):
    r = client.post("/api/tables", json={"kind": "match", "players": 4, "names": names,
                                         "levels": ["human", "human", "simple", "simple"]})
    assert words in is_refusal(r, 400, "bad-table")
    assert len(client.app.state.tables) == 0


def test_the_api_shows_cleaned_names_and_names_the_host(client):
    r = client.post("/api/tables", json={"kind": "match", "players": 4,
                                         "names": ["", "  Robin   Hood ", "Sam", "Drew"],
                                         "levels": ["human", "human", "simple", "simple"]})
    assert r.status_code == 200, r.text
    info = r.json()
    assert info["invites"][0]["name"] == "Robin Hood"
    assert client.app.state.tables.get(info["table"]).names[0] == "Host"


# ----- the state folder ------------------------------------------------------------------------

def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_state_folder_and_files_are_private(tmp_path, monkeypatch):
    monkeypatch.delenv("PRESIDENT_WEB_SECRET", raising=False)
    state = tmp_path / "state" / "president"
    app = create_app(bot_delay=0, state_dir=state, allowed_hosts=["testserver"])
    with TestClient(app) as c:
        info = c.post("/api/tables", json={"kind": "match", "players": 4}).json()
        with c.websocket_connect("/ws") as ws:     # a record is sealed: the ledger is written
            ws.send_json({"type": "hello", "table": info["table"], "token": info["token"]})
            ws.receive_json()
        assert _mode(state) == 0o700
        files = {p.name: _mode(p) for p in state.iterdir()}
        for name in ["web-secret", "web-saved-matches.sqlite3", "web-saved-matches.sqlite3-wal",
                     "web-saved-matches.sqlite3-shm"]:
            assert files.get(name) == 0o600, (name, files)


def test_loose_modes_are_tightened_on_opening(tmp_path, monkeypatch):
    monkeypatch.delenv("PRESIDENT_WEB_SECRET", raising=False)
    state = tmp_path / "president"
    app = create_app(bot_delay=0, state_dir=state, allowed_hosts=["testserver"])
    with TestClient(app):
        pass
    os.chmod(state, 0o755)
    for name in ["web-secret", "web-saved-matches.sqlite3"]:
        os.chmod(state / name, 0o644)
    app = create_app(bot_delay=0, state_dir=state, allowed_hosts=["testserver"])
    with TestClient(app):
        assert _mode(state) == 0o700
        assert _mode(state / "web-secret") == 0o600
        assert _mode(state / "web-saved-matches.sqlite3") == 0o600


# ----- president serve as a process ------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def served(tmp_path):
    """``president serve`` in a subprocess (its own memory, uvicorn's own HTTP parser)."""
    with _serve(tmp_path) as running:
        yield running


@contextlib.contextmanager
def _serve(tmp_path, **env_extra):
    """``president serve`` on a free port with its own state folder and ``env_extra`` in its
    environment; yields ``(process, port)`` once it listens, and stops it after."""
    pytest.importorskip("uvicorn")
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k != "PRESIDENT_WEB_HOSTS"}
    env.update(PRESIDENT_WEB_SECRET="hostile-test", BROWSER="false",
               XDG_STATE_HOME=str(tmp_path / "state"), **env_extra)
    proc = subprocess.Popen([sys.executable, "-m", "president", "serve", "--port", str(port),
                             "--no-browser", "--bot-delay", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert f"127.0.0.1:{port}" in proc.stdout.readline()
        yield proc, port
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_a_request_trickled_slowly_is_cut_off_and_websockets_are_not(tmp_path):
    """Slowloris: a connection that has not sent a whole request, head and body, within the
    server's time for it (here 1 s) is closed; a websocket (timed only to its upgrade) and an
    answered request kept alive are not cut by that timer."""
    pytest.importorskip("uvicorn")
    from websockets.sync.client import connect

    with _serve(tmp_path, PRESIDENT_WEB_REQUEST_SECONDS="1") as (_, port):
        silent = socket.create_connection(("127.0.0.1", port), timeout=10)
        partial = socket.create_connection(("127.0.0.1", port), timeout=10)
        partial.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        slow_body = socket.create_connection(("127.0.0.1", port), timeout=10)
        slow_body.sendall(b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                          b"Content-Type: application/json\r\nContent-Length: 40\r\n\r\n"
                          b'{"kind": ')                 # 9 bytes of 40, then nothing
        with connect(f"ws://127.0.0.1:{port}/ws") as ws:
            t0 = time.monotonic()
            for s in (silent, partial, slow_body):
                assert s.recv(100) == b""             # closed by the server, nothing sent
            took = time.monotonic() - t0
            assert took < 5, took
            made = urllib.request.Request(f"http://127.0.0.1:{port}/api/tables",
                                          data=b'{"kind": "practice"}',
                                          headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(made, timeout=5) as r:
                info = json.loads(r.read())
            time.sleep(1.5)                             # past the head timer: still open
            ws.send(json.dumps({"type": "hello", "table": info["table"], "token": info["token"]}))
            assert json.loads(ws.recv(timeout=5))["type"] == "welcome"
        silent.close()
        partial.close()
        slow_body.close()


def _answer(raw: bytes) -> tuple[int, dict[str, str], bytes]:
    """Status, headers (lower-case names) and body of a raw HTTP/1.1 answer."""
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(lines[0].split()[1]), headers, body


def _has_security_headers(headers: dict[str, str]) -> bool:
    from president.web.guard import SECURITY_HEADERS
    return ("default-src" in headers.get("content-security-policy", "")
            and all(headers.get(k.lower()) == v for k, v in SECURITY_HEADERS.items()))


@pytest.mark.parametrize("head", [
    b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nthis is not a header\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -5\r\n\r\n",
    b"NOT-HTTP\r\n\r\n",
], ids=["bad-header-line", "bad-length", "bad-request-line"])
def test_a_request_uvicorn_cannot_parse_is_refused_in_the_documented_shape(served, head):
    """h11's own 400 (before the app): JSON {"error", "message"} with the security headers."""
    _, port = served
    status, headers, body = _answer(_raw(port, head))
    assert status == 400
    assert json.loads(body) == {"error": "bad-request", "message": serve_cmd.BAD_HTTP_MESSAGE}
    assert headers["content-type"] == "application/json" and _has_security_headers(headers)
    assert "server" not in headers


UPGRADE = (b"GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: Upgrade\r\n"
           b"Upgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
           b"Sec-WebSocket-Version: 13\r\n")


@pytest.mark.parametrize("extra, status", [
    (b"Content-Length: 1\r\n\r\nx", 400),                       # a body websockets refuses
    (b"Transfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n\r\n", 400),
    (b"".join(b"X-%d: 1\r\n" % i for i in range(140)) + b"\r\n", 431),   # too many headers
    (b"X-Long: " + b"a" * 9000 + b"\r\n\r\n", 431),                 # one header too long
], ids=["content-length", "chunked", "many-headers", "long-header"])
def test_an_upgrade_websockets_cannot_parse_is_answered_and_closed(tmp_path, extra, status):
    """h11 accepts these heads and hands them to the websocket protocol, whose parser refuses
    them: they get the documented refusal and the connection is closed (they were left open
    for ever, unanswered, outside every per-address socket limit)."""
    with _serve(tmp_path, PRESIDENT_WEB_REQUEST_SECONDS="2") as (_, port):
        t0 = time.monotonic()
        raw = _raw(port, UPGRADE % (b"/ws", port) + extra)
        assert time.monotonic() - t0 < 5
        got, headers, body = _answer(raw)
        assert got == status and _has_security_headers(headers)
        assert json.loads(body)["error"] == "bad-websocket"


@pytest.mark.parametrize("path", ["/", "/static/app.js", "/api/options"])
def test_a_big_chunked_body_on_a_page_or_file_request_is_never_a_500(served, path):
    """The page and its files answer at once and read no body; one that goes on past the
    limit after the answer has started is dropped (it raised into a started answer: 500)."""
    proc, port = served
    chunks = b"".join(b"400\r\n" + b"a" * 1024 + b"\r\n" for _ in range(40)) + b"0\r\n\r\n"
    head = (b"GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nTransfer-Encoding: chunked\r\n"
            b"Connection: close\r\n\r\n" % (path.encode(), port))
    status, headers, _ = _answer(_raw(port, head + chunks))
    assert status in (200, 413) and _has_security_headers(headers)
    assert proc.poll() is None


def test_an_upgrade_to_a_path_without_a_websocket_is_refused_in_the_documented_shape(served):
    _, port = served
    for path in (b"/", b"/nope", b"/api/options", b"/static/app.js", b"/static/",
                 b"http://127.0.0.1:%d/nope" % port):
        status, headers, body = _answer(_raw(port, UPGRADE % (path, port) + b"\r\n"))
        assert status == 404 and _has_security_headers(headers)
        refused = json.loads(body)
        assert refused["error"] == "not-found" and "/ws" in refused["message"]


def test_a_websocket_upgrade_over_http_1_0_is_refused(served):
    """RFC 6455 (4.1): the opening handshake is an HTTP/1.1 request or later. uvicorn rewrote
    the request line as HTTP/1.1 before its websocket protocol read it, so an HTTP/1.0
    upgrade got 101. It gets the documented 400 now, closed; the same head over 1.1 opens."""
    _, port = served
    head = UPGRADE.replace(b"HTTP/1.1", b"HTTP/1.0") % (b"/ws", port) + b"\r\n"
    status, headers, body = _answer(_raw(port, head))
    assert status == 400 and _has_security_headers(headers)
    refused = json.loads(body)
    assert refused["error"] == "bad-websocket" and "HTTP/1.1" in refused["message"]
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(UPGRADE % (b"/ws", port) + b"\r\n")
        assert s.recv(100).startswith(b"HTTP/1.1 101 ")


def test_websocket_upgrades_refused_below_and_in_the_app_carry_the_shape_and_headers(served):
    _, port = served
    # websockets' own refusal: no Sec-WebSocket-Key (the app never sees this socket)
    status, headers, body = _answer(_raw(port, (
        b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\n"
        b"Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n\r\n" % port)))
    assert status == 400 and _has_security_headers(headers)
    refused = json.loads(body)
    assert refused["error"] == "bad-websocket" and "Sec-WebSocket-Key" in refused["message"]
    # the app's refusal (a foreign origin): as the app wrote it, with the headers added
    status, headers, body = _answer(_raw(port, (
        b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\n"
        b"Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nOrigin: http://evil.example\r\n\r\n"
        % port)))
    assert status == 403 and _has_security_headers(headers)
    assert json.loads(body)["error"] == "bad-origin"


def _rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS")


def _raw(port: int, head: bytes, body_bytes: int = 0, chunked: bool = False) -> bytes:
    """Send ``head`` then up to ``body_bytes`` of body (chunked or not) on a raw socket,
    reading the answer all along; returns the answer (the server may stop reading early)."""
    answer = bytearray()
    s = socket.create_connection(("127.0.0.1", port), timeout=20)

    def read():
        try:
            while data := s.recv(65536):
                answer.extend(data)
        except OSError:
            pass
    reader = threading.Thread(target=read)
    reader.start()
    try:
        s.sendall(head)
        block = b"[" * 65536
        sent = 0
        while sent < body_bytes:
            s.sendall(b"%x\r\n%s\r\n" % (len(block), block) if chunked else block)
            sent += len(block)
        if chunked:
            s.sendall(b"0\r\n\r\n")
    except OSError:
        pass                                   # the server closed the connection: good
    reader.join(timeout=20)
    s.close()
    return bytes(answer)


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs /proc")
@pytest.mark.parametrize("chunked", [False, True])
def test_a_50_mb_body_is_refused_and_memory_stays_flat(served, chunked):
    proc, port = served
    size = 50 * 1024 * 1024
    _raw(port, b"GET /api/options HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    before = _rss_kb(proc.pid)
    length = b"Transfer-Encoding: chunked" if chunked else b"Content-Length: %d" % size
    answer = _raw(port, b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
                  b"Content-Type: application/json\r\n%s\r\n\r\n" % (port, length), size, chunked)
    after = _rss_kb(proc.pid)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413"), answer[:300]
    assert json.loads(body)["error"] == "too-large"
    assert after - before < 5 * 1024, f"RSS grew by {after - before} kB"


def test_serve_refuses_rebinding_and_sends_no_server_banner(served):
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect
    proc, port = served
    answer = _raw(port, b"GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n" % port)
    assert answer.startswith(b"HTTP/1.1 200") and b"\r\nserver:" not in answer.lower()
    assert b"permissions-policy:" in answer.lower()
    evil = _raw(port, b"GET / HTTP/1.1\r\nHost: evil.example:%d\r\nConnection: close\r\n\r\n" % port)
    assert evil.startswith(b"HTTP/1.1 400") and b'"bad-host"' in evil
    assert b"\r\nserver:" not in evil.lower()
    # A websocket from a rebinding page: Host and Origin both evil.example.
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    with pytest.raises(InvalidStatus) as refused:
        connect(f"ws://evil.example:{port}/ws", sock=sock,
                origin=f"http://evil.example:{port}", open_timeout=10)
    assert refused.value.response.status_code == 400
    # A foreign page's websocket to the right host.
    with pytest.raises(InvalidStatus) as refused:
        connect(f"ws://127.0.0.1:{port}/ws", origin=f"http://evil.example:{port}", open_timeout=10)
    assert refused.value.response.status_code == 403
    assert json.loads(refused.value.response.body)["error"] == "bad-origin"
    # The page's own origin joins.
    with connect(f"ws://127.0.0.1:{port}/ws", origin=f"http://localhost:{port}", open_timeout=10) as ws:
        ws.send('{"type": "pass"}')
        assert json.loads(ws.recv(timeout=10))["reason"] == "bad-message"
    # A refusal is no server error: uvicorn's false "without completing handshake" line is
    # filtered out of the log (the 403 went out).
    proc.terminate()
    _, err = proc.communicate(timeout=10)
    assert "without completing handshake" not in err and "Traceback" not in err


# ----- sockets: a hello in time, a bounded number per address ---------------------------------

def test_a_socket_that_never_says_hello_is_closed(tmp_path, monkeypatch):
    from fastapi.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect
    from president.web import app as A
    from president.web import sockets as S
    monkeypatch.setattr(S, "HELLO_SECONDS", 0.3)
    with TestClient(A.create_app(bot_delay=0, secret=b"s" * 32, state_dir=tmp_path)) as c:
        with c.websocket_connect("/ws") as ws:
            err = ws.receive_json()
            assert err["type"] == "error" and "no hello within 0.3 seconds" in err["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1008


def test_messages_before_the_hello_do_not_extend_its_time(tmp_path, monkeypatch):
    """An attack kept a socket unjoined for 82 s by sending a message every 9 s (each one
    restarted the 10 s window). The window runs from the socket's opening."""
    import time
    from fastapi.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect
    from president.web import app as A
    from president.web import sockets as S
    monkeypatch.setattr(S, "HELLO_SECONDS", 1.0)
    with TestClient(A.create_app(bot_delay=0, secret=b"s" * 32, state_dir=tmp_path)) as c:
        with c.websocket_connect("/ws") as ws:
            answered = 0
            for _ in range(3):                          # junk every 0.6 s: under 5 messages
                time.sleep(0.6)
                ws.send_json({"type": "pass"})
                reply = ws.receive_json()
                if "no hello within" in reply.get("message", ""):
                    break
                assert reply["type"] == "error"
                answered += 1
            else:
                reply = ws.receive_json()
            assert "no hello within 1 seconds" in reply["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1008
            # The third junk message goes 1.8 s or more after the opening: the window from
            # the opening (1 s plus up to half again) has closed the socket by then, so at
            # most the first two were answered; a window started again by each message
            # (1.2 s + 1 s at the second) would have answered all three.
            assert answered <= 2


def test_sockets_waiting_for_a_hello_are_bounded_per_address(tmp_path, monkeypatch):
    from fastapi.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect
    from president.web import app as A
    from president.web import sockets as S
    monkeypatch.setattr(S, "MAX_WAITING_PER_ADDRESS", 2)
    with TestClient(A.create_app(bot_delay=0, secret=b"s" * 32, state_dir=tmp_path)) as c:
        info = c.post("/api/tables", json={"kind": "practice"}).json()
        first, second = c.websocket_connect("/ws"), c.websocket_connect("/ws")
        a, _ = first.__enter__(), second.__enter__()
        try:
            with pytest.raises(WebSocketDisconnect):       # the third is refused (429 denial)
                with c.websocket_connect("/ws") as third:
                    third.receive_json()
            a.send_json({"type": "hello", "table": info["table"], "token": info["token"]})
            assert a.receive_json()["type"] == "welcome"
            with c.websocket_connect("/ws") as fourth:     # a join made room for one more
                fourth.send_json({"type": "pass"})
                assert fourth.receive_json()["reason"] == "bad-message"
        finally:
            second.__exit__(None, None, None)
            first.__exit__(None, None, None)



@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs /proc")
def test_a_huge_request_header_is_refused_at_once(served):
    """An attack trial: a 250 MB header froze the server under httptools (no header limit);
    ``president serve`` now parses with h11, which refuses a head over 16 KiB."""
    proc, port = served
    _raw(port, b"GET /api/options HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    before = _rss_kb(proc.pid)
    head = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * (8 * 1024 * 1024)
    started = time.monotonic()
    answer = _raw(port, head)
    assert time.monotonic() - started < 10
    assert answer == b"" or answer.startswith(b"HTTP/1.1 4")
    assert _rss_kb(proc.pid) - before < 5 * 1024
    # and the server still answers
    assert _raw(port, b"GET /api/options HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
                ).startswith(b"HTTP/1.1 200")


def test_an_address_past_its_table_rate_is_refused_before_its_body_is_read(tmp_path):
    """During a POST flood each refused request used to go through body parsing and
    validation (and a BaseHTTPMiddleware) before its 429: about 2 ms of the server each."""
    app = create_app(bot_delay=0, secret=SECRET, state_dir=tmp_path, per_address=2)
    with TestClient(app, base_url=LOCAL) as c:
        for _ in range(2):
            assert c.post("/api/tables", json={"kind": "practice"}).status_code == 200
        # Past the rate even a body that is not JSON gets the 429, not a 422: nothing read it.
        r = c.post("/api/tables", content=b"not json at all", headers={"Content-Type": "application/json"})
        assert r.status_code == 429
        assert r.json()["error"] == "busy" and "2 new tables a minute" in r.json()["message"]
        for name, value in guard.SECURITY_HEADERS.items():    # refusals carry the headers too
            assert r.headers[name] == value
        assert "default-src 'self'" in r.headers["Content-Security-Policy"]
        # Other requests of that address go on as before.
        page = c.get("/")
        assert page.status_code == 200 and page.headers["Cache-Control"] == "no-cache"
        assert c.get("/api/options").status_code == 200


def test_a_refusal_for_the_table_rate_waits_and_nothing_else_does(tmp_path, monkeypatch):
    """A POST flood past the rate is answered one refusal per connection a second (the
    429 comes after REFUSAL_DELAY_SECONDS of sleep), so it cannot keep the event loop busy;
    the address's other requests, and the requests under the rate, are answered at once."""
    from president.web.app import REFUSAL_DELAY_SECONDS
    assert REFUSAL_DELAY_SECONDS == 1.0
    app = create_app(bot_delay=0, secret=SECRET, state_dir=tmp_path, per_address=1,
                     refusal_delay=0.3)
    slept: list[float] = []
    real_sleep = asyncio.sleep

    async def sleep(delay, result=None):              # the refusal's wait, recorded
        slept.append(delay)
        return await real_sleep(delay, result)

    monkeypatch.setattr(guard, "asyncio", types.SimpleNamespace(**{**vars(asyncio),
                                                                    "sleep": sleep}))
    with TestClient(app, base_url=LOCAL) as c:
        assert c.post("/api/tables", json={"kind": "practice"}).status_code == 200
        assert slept == []                              # under the rate: no wait
        r = c.post("/api/tables", json={"kind": "practice"})
        assert r.status_code == 429 and r.json()["error"] == "busy"
        assert len(slept) == 1 and 0.3 <= slept[0] <= 0.45   # the delay, up to half again
        assert c.get("/api/options").status_code == 200
        assert len(slept) == 1                          # the address's other requests: none
    with pytest.raises(ValueError, match="delay = -1 must be 0 or more seconds"):
        with TestClient(create_app(bot_delay=0, secret=SECRET, state_dir=tmp_path,
                                   refusal_delay=-1), base_url=LOCAL) as c:
            c.get("/api/options")


def test_a_bad_chunk_after_the_answer_closes_the_connection_quietly(tmp_path):
    """A body chunk that is not HTTP, arriving after the answer went out: h11 can send no
    400 then (it threw inside uvicorn and logged a traceback per connection)."""
    with _serve(tmp_path) as (proc, port):
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        s.sendall(b"GET /api/options HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
                  b"Transfer-Encoding: chunked\r\n\r\n1\r\na\r\n" % port)
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += s.recv(65536)
        assert answer.startswith(b"HTTP/1.1 200")
        time.sleep(0.3)
        s.sendall(b"ZZ\r\n")
        s.settimeout(5)
        rest = b""
        try:
            while chunk := s.recv(65536):
                rest += chunk
        except OSError:
            pass
        s.close()
        time.sleep(0.3)
    err = proc.stderr.read()
    assert "Traceback" not in err and "Fatal error" not in err, err



@pytest.mark.parametrize("request_bytes", [
    b"HEAD / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    b"HEAD /api/options HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nTransfer-Encoding: chunked\r\n\r\n"
    b"0\r\nX\x00: y\r\n\r\n",
    b"GET /nope HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    b"GET /api/options HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    b"POST /api/companion HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
    b"Content-Length: 10\r\n\r\n{}",                            # then the client leaves
    b"POST /api/lessons/x/try HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
    b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\nzz\r\n",
], ids=["head-bad-chunk", "head-bad-trailer", "route-answering", "options-answering",
        "post-cut-off", "post-bad-chunk"])
def test_broken_requests_leave_no_traceback_in_the_log(tmp_path, request_bytes):
    """A HEAD request gets a 400 head without a body, a route still answering when the
    request breaks has its answer dropped, and a body cut off is no server error: nothing
    of it is logged as an exception (each logged a traceback before)."""
    with _serve(tmp_path, PRESIDENT_WEB_REQUEST_SECONDS="2") as (proc, port):
        for _ in range(3):
            s = socket.create_connection(("127.0.0.1", port), timeout=10)
            s.sendall(request_bytes % port)
            s.shutdown(socket.SHUT_WR) if b"Content-Length: 10" in request_bytes else None
            s.settimeout(5)
            try:
                while s.recv(65536):
                    pass
            except OSError:
                pass
            s.close()
        time.sleep(0.5)
        assert proc.poll() is None
    err = proc.stderr.read()
    assert "Traceback" not in err and "Exception in ASGI" not in err and "Fatal error" not in err, err


def _post_table(port: int, body: dict) -> dict:
    made = urllib.request.Request(f"http://127.0.0.1:{port}/api/tables",
                                  data=json.dumps(body).encode(),
                                  headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(made, timeout=10) as r:
        return json.loads(r.read())


def _states(message: dict) -> list[dict]:
    inner = message["messages"] if message.get("type") == "batch" else [message]
    return [m for m in inner if m.get("type") == "state"]


def test_a_page_that_reads_nothing_cannot_hold_its_table(tmp_path):
    """An attack found that a friend whose page stops reading its socket froze the whole
    table: the table's messages go out one by one while it is held, and a send to a full
    socket waited for ever (and so did the server's stop). Such a socket is now cut after
    ``STUCK_SECONDS`` (here 1 s) and the table goes on: the host's request is answered, and
    the silent socket was closed by the server (which shows the send did get stuck)."""
    pytest.importorskip("uvicorn")
    import websockets

    async def scenario(port: int) -> tuple[float | None, bool]:
        url = f"ws://127.0.0.1:{port}/ws"
        info = _post_table(port, {"kind": "match", "players": 4,
                                  "levels": ["human", "human", "simple", "simple"]})
        host = await websockets.connect(url, max_size=None)
        await host.send(json.dumps({"type": "hello", "table": info["table"],
                                    "token": info["token"]}))
        raw = socket.socket()
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
        raw.connect(("127.0.0.1", port))
        friend = await websockets.connect(url, sock=raw, max_queue=1)   # never reads
        await friend.send(json.dumps({"type": "hello", "table": info["table"],
                                      "token": info["invites"][0]["token"]}))
        await host.send(json.dumps({"type": "start"}))
        for i in range(5000):   # each gets a state back, which the friend never reads
            await friend.send(json.dumps({"type": "speed", "speed": ("fast", "normal")[i % 2]}))

        async def drain(seconds: float) -> None:
            with contextlib.suppress(asyncio.TimeoutError):
                while True:
                    await asyncio.wait_for(host.recv(), seconds)
        await drain(1.0)
        t0 = time.monotonic()
        await host.send(json.dumps({"type": "seat", "player": 1, "computer": True}))
        answered = None
        with contextlib.suppress(asyncio.TimeoutError):
            while answered is None:
                message = json.loads(await asyncio.wait_for(host.recv(), 8))
                if any(s["seats"][1]["standin"] for s in _states(message)):
                    answered = time.monotonic() - t0
        # the server cut the silent socket: reading it now ends (reset or end of stream)
        raw.settimeout(5)
        cut = False
        try:
            while raw.recv(65536):
                pass
            cut = True
        except ConnectionResetError:
            cut = True
        except socket.timeout:
            cut = False
        raw.close()
        await host.close()
        return answered, cut

    with _serve(tmp_path, PRESIDENT_WEB_STUCK_SECONDS="1") as (proc, port):
        answered, cut = run_async(lambda: scenario(port))
        assert proc.poll() is None
    assert answered is not None and answered < 6, answered
    assert cut


def test_a_slow_page_that_still_drains_is_not_cut():
    """The cut is for a page that takes nothing: one on a slow link, whose queue stays over
    the high-water mark for longer than STUCK_SECONDS but keeps going down (a long log on a
    phone), keeps its socket. The protocol's check, on a stand-in transport and clock."""
    pytest.importorskip("uvicorn")
    protocol = serve_cmd.guarded_ws_protocol(20.0, stuck_seconds=5.0)

    class Clock:
        def __init__(self) -> None:
            self.now = 0.0
            self.later: list = []

        def time(self) -> float:
            return self.now

        def call_later(self, delay, callback):
            self.later.append((self.now + delay, callback))
            return type("Handle", (), {"cancel": lambda self: None})()

        def run_until(self, until: float) -> None:
            while self.later and min(t for t, _ in self.later) <= until:
                self.later.sort(key=lambda x: x[0])
                t, callback = self.later.pop(0)
                self.now = t
                callback()
            self.now = until

    class Transport:
        def __init__(self, queued: int) -> None:
            self.queued = queued
            self.aborted = False

        def get_write_buffer_size(self) -> int:
            return self.queued

        def abort(self) -> None:
            self.aborted = True

    def paused(queued: int) -> tuple:
        page = object.__new__(protocol)
        page.loop, page.transport = Clock(), Transport(queued)
        page._queued, page._moved = queued, 0.0       # as pause_writing leaves them
        page._stuck = page.loop.call_later(1.0, page._check_stuck)
        return page, page.loop, page.transport

    # draining 100 KB a second from 3 MB: paused for 30 s, never cut
    page, clock, transport = paused(3_000_000)
    for second in range(1, 30):
        transport.queued -= 100_000
        clock.run_until(float(second))
        assert not transport.aborted, second
    # a page that takes nothing: cut once 5 s have passed without progress
    page, clock, transport = paused(3_000_000)
    clock.run_until(4.5)
    assert not transport.aborted
    clock.run_until(5.5)
    assert transport.aborted
    # progress, then none: the 5 s count from the last progress
    page, clock, transport = paused(3_000_000)
    clock.run_until(2.5)
    transport.queued -= 1_000
    clock.run_until(7.5)
    assert not transport.aborted
    clock.run_until(8.5)
    assert transport.aborted


def test_per_address_limits_count_an_ipv6_network_as_one_client():
    """One IPv6 subscriber holds a whole /64: a new address of it for each request must not
    escape the per-address limits (tables a minute, sockets waiting for a hello)."""
    same = {guard.client_key(f"2001:db8:5:6:{i:x}::{i:x}") for i in range(1, 50)}
    assert same == {"2001:db8:5:6::/64"}
    assert guard.client_key("2001:db8:5:7::1") != guard.client_key("2001:db8:5:6::1")
    assert guard.client_key("::ffff:198.51.100.4") == "198.51.100.4"
    assert guard.client_key("198.51.100.4") == "198.51.100.4"
    assert guard.client_key("::1") == "::1" and guard.client_key(None) is None
    assert guard.client_key("fe80::1%eth0") == "fe80::/64"


def test_http_refusals_escape_a_made_up_field_name(client):
    """A re-attack found extra field names that draw nothing (U+3164) echoed raw in a 422."""
    r = client.post("/api/tables", json={"kind": "practice", "\u3164\u2800": 1})
    assert r.status_code == 422
    message = r.json()["message"]
    assert "\u3164" not in message and "\u2800" not in message
    assert "\\u3164\\u2800" in message


def test_idle_connections_of_one_address_are_capped_and_websockets_do_not_count(tmp_path):
    """An attack held 1,100 idle TCP connections from one address: the server ran out of
    open files (new pages failed; a table whose computer player was due stopped). Past the
    per-address cap (here 5) a connection gets 429 ``busy`` at once and is closed; another
    address is still served; a connection upgraded to a websocket leaves the count; closing
    connections makes room again. The server also raised its own open-file limit."""
    pytest.importorskip("uvicorn")
    from websockets.sync.client import connect

    with _serve(tmp_path, PRESIDENT_WEB_CONNECTIONS_PER_ADDRESS="5") as (proc, port):
        with open(f"/proc/{proc.pid}/limits") as f:
            soft = next(line.split()[3] for line in f if line.startswith("Max open files"))
        assert soft == "unlimited" or int(soft) >= min(
            serve_cmd.OPEN_FILES_WANTED, _hard_open_files())
        sockets = [connect(f"ws://127.0.0.1:{port}/ws") for _ in range(3)]   # not counted
        idle = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(5)]
        time.sleep(0.3)
        extra = socket.create_connection(("127.0.0.1", port), timeout=10)
        answer = b""
        while chunk := extra.recv(4096):
            answer += chunk
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 429")
        assert json.loads(body)["error"] == "busy" and b"at most 5" in body
        other = socket.create_connection(("127.0.0.1", port), timeout=10,
                                         source_address=("127.0.0.2", 0))
        other.sendall(b"GET /api/options HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert other.recv(12) == b"HTTP/1.1 200"
        other.close()
        for s in idle:
            s.close()
        time.sleep(1.3)     # (and past the second an address refused as busy cools down)
        again = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(5)]
        for s in again:
            s.sendall(b"GET /api/options HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert s.recv(12) == b"HTTP/1.1 200"
            s.close()
        for ws in sockets:
            ws.close()
        assert proc.poll() is None


def _hard_open_files() -> int:
    import resource
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    return 1 << 62 if hard == resource.RLIM_INFINITY else hard


@pytest.mark.parametrize("method, path", [("POST", "/api/tables/"), ("GET", "/api/options/"),
                                          ("GET", "/api/lessons/")])
def test_a_path_with_a_trailing_slash_is_not_found_not_redirected(client, method, path):
    """An attack got a bare 307 (no body) where the docs promise 404 not-found."""
    answer = client.request(method, path, json={"kind": "practice"} if method == "POST" else None,
                            follow_redirects=False)
    assert answer.status_code == 404 and answer.json()["error"] == "not-found"


@pytest.mark.parametrize("path", ["/static/app.js/", "/static//app.js", "/static/app.js//",
                                  "/static/style.css/"])
def test_a_file_path_with_an_odd_slash_is_not_found(client, path):
    """A re-attack got 200 and the file for these spellings."""
    answer = client.get(path)
    assert answer.status_code == 404 and answer.json()["error"] == "not-found"
    assert client.get("/static/app.js").status_code == 200


def test_two_origin_headers_are_refused_whatever_their_order(client):
    """A re-attack got a table made with a foreign Origin followed by the server's own (the
    check read the last one, the websocket's the first)."""
    for origins in (["http://evil.example:8000", "http://127.0.0.1:8000"],
                    ["http://127.0.0.1:8000", "http://evil.example:8000"]):
        answer = client.post("/api/tables", content=b'{"kind": "practice"}',
                             headers=[("content-type", "application/json"),
                                      *(("origin", o) for o in origins)])
        assert answer.status_code == 403 and answer.json()["error"] == "bad-origin"
