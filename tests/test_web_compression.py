"""Compressed HTTP answers (Starlette's ``GZipMiddleware`` in ``create_app``): the page, its
CSS and JS and the JSON answers are gzip-compressed for a client that accepts gzip, byte for
byte the files on disk once decompressed; nothing is compressed for a client that does not,
nor a small answer, nor ``HEAD /``; the security headers are on every answer; websockets go
through untouched (in process and through a real uvicorn server)."""

from __future__ import annotations

import gzip
import json
import socket
import threading
import time
import urllib.request

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from president.web.app import CSP, GZIP_MINIMUM_BYTES, STATIC, create_app  # noqa: E402

SECRET = b"compression-test-secret-0123456789"
GZIP = {"Accept-Encoding": "gzip"}
IDENTITY = {"Accept-Encoding": "identity"}   # httpx asks for gzip unless told otherwise
SECURITY = {"content-security-policy": CSP, "x-content-type-options": "nosniff",
            "referrer-policy": "no-referrer"}
FILES = [("/", "index.html", "text/html"), ("/static/app.js", "app.js", "javascript"),
         ("/static/style.css", "style.css", "text/css")]


@pytest.fixture
def client(tmp_path):
    app = create_app(bot_delay=0, secret=SECRET, state_dir=tmp_path)
    with TestClient(app) as c:
        yield c


def raw_get(client, path, headers):
    """(response, the body bytes exactly as sent, before any decoding)."""
    with client.stream("GET", path, headers=headers) as r:
        return r, b"".join(r.iter_raw())


def assert_security_headers(r):
    for name, value in SECURITY.items():
        assert r.headers.get(name) == value, (name, r.headers.get(name))


@pytest.mark.parametrize("path, name, media", FILES)
def test_page_css_and_js_are_gzipped_for_a_client_that_accepts_gzip(client, path, name, media):
    on_disk = (STATIC / name).read_bytes()
    assert len(on_disk) >= GZIP_MINIMUM_BYTES      # otherwise this test proves nothing
    r, raw = raw_get(client, path, GZIP)
    assert r.status_code == 200
    assert r.headers["content-encoding"] == "gzip"
    assert "accept-encoding" in r.headers["vary"].lower()
    assert media in r.headers["content-type"]
    assert raw[:2] == b"\x1f\x8b"                   # the gzip magic number
    assert len(raw) < len(on_disk)
    # A file over 64 KiB is read in chunks and so compressed as a stream (no Content-Length);
    # a smaller one is compressed whole and its length sent.
    if len(on_disk) < 64 * 1024:
        assert int(r.headers["content-length"]) == len(raw)
    assert gzip.decompress(raw) == on_disk
    assert_security_headers(r)
    assert r.headers["cache-control"] == "no-cache"


@pytest.mark.parametrize("path, name, media", FILES)
def test_nothing_is_gzipped_without_accept_encoding(client, path, name, media):
    on_disk = (STATIC / name).read_bytes()
    r, raw = raw_get(client, path, IDENTITY)
    assert r.status_code == 200
    assert "content-encoding" not in r.headers
    assert raw == on_disk and int(r.headers["content-length"]) == len(on_disk)
    assert_security_headers(r)
    assert r.headers["cache-control"] == "no-cache"


def test_head_of_the_page_is_not_compressed_and_keeps_its_headers(client):
    on_disk = (STATIC / "index.html").read_bytes()
    r = client.head("/", headers=GZIP)
    assert r.status_code == 200 and r.content == b""
    assert "content-encoding" not in r.headers
    assert int(r.headers["content-length"]) == len(on_disk)
    assert "text/html" in r.headers["content-type"]
    assert_security_headers(r)


def test_json_answers_are_gzipped_when_large_enough(client):
    plain = client.get("/api/options", headers=IDENTITY)
    assert plain.status_code == 200 and "content-encoding" not in plain.headers
    assert len(plain.content) >= GZIP_MINIMUM_BYTES
    r, raw = raw_get(client, "/api/options", GZIP)
    assert r.headers["content-encoding"] == "gzip"
    assert "application/json" in r.headers["content-type"]
    assert len(raw) < len(plain.content)
    assert json.loads(gzip.decompress(raw)) == plain.json()
    assert_security_headers(r)
    assert "cache-control" not in r.headers             # only the page and /static/* get it


def test_small_answers_are_left_as_they_are(client):
    with client.stream("POST", "/api/tables", json={"kind": "practice"}, headers=GZIP) as r:
        raw = b"".join(r.iter_raw())
    assert r.status_code == 200 and len(raw) < GZIP_MINIMUM_BYTES
    assert "content-encoding" not in r.headers
    assert json.loads(raw)["kind"] == "practice"
    assert_security_headers(r)


def test_refusals_and_missing_files_keep_the_security_headers(client):
    r = client.post("/api/tables", json={"kind": "nope"}, headers=GZIP)
    assert r.status_code == 422 and r.json()["error"] == "bad-request"
    assert_security_headers(r)
    r = client.get("/static/no-such-file.js", headers=GZIP)
    assert r.status_code == 404
    assert_security_headers(r)


def test_revalidation_still_answers_304(client):
    first = client.get("/static/app.js", headers=GZIP)
    assert first.headers["content-encoding"] == "gzip"
    r = client.get("/static/app.js", headers={**GZIP, "If-None-Match": first.headers["etag"]})
    assert r.status_code == 304 and r.content == b""
    assert "content-encoding" not in r.headers
    assert_security_headers(r)


def test_websocket_goes_through_with_gzip_accepted(client):
    info = client.post("/api/tables", json={"kind": "practice"}).json()
    # A copy: TestClient.websocket_connect adds its handshake headers to the dict it is given.
    with client.websocket_connect("/ws", headers=dict(GZIP)) as ws:
        ws.send_json({"type": "hello", "table": info["table"], "token": info["token"]})
        welcome = ws.receive_json()
        assert welcome["type"] == "welcome" and welcome["table"] == info["table"]
        kinds = set()
        while "state" not in kinds:
            kinds.add(ws.receive_json()["type"])


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_real_uvicorn_server_sends_gzip_head_and_websockets(tmp_path):
    """The same through uvicorn and a real socket (urllib never decompresses by itself)."""
    uvicorn = pytest.importorskip("uvicorn")
    pytest.importorskip("websockets")
    from websockets.sync.client import connect

    port = _free_port()
    app = create_app(bot_delay=0, secret=SECRET, state_dir=tmp_path)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not server.started:
            assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
            time.sleep(0.05)
        base = f"http://127.0.0.1:{port}"
        on_disk = (STATIC / "app.js").read_bytes()
        with urllib.request.urlopen(urllib.request.Request(base + "/static/app.js", headers=GZIP),
                                    timeout=5) as r:
            assert r.headers["Content-Encoding"] == "gzip"
            assert r.headers["Content-Security-Policy"] == CSP
            assert gzip.decompress(r.read()) == on_disk
        head = urllib.request.Request(base + "/", method="HEAD", headers=GZIP)
        with urllib.request.urlopen(head, timeout=5) as r:
            assert r.status == 200 and r.read() == b""
            assert r.headers["Content-Encoding"] is None
            assert r.headers["Content-Security-Policy"] == CSP
        new = urllib.request.Request(base + "/api/tables", method="POST", data=b'{"kind": "practice"}',
                                     headers={**GZIP, "Content-Type": "application/json"})
        with urllib.request.urlopen(new, timeout=5) as r:
            assert r.headers["Content-Encoding"] is None   # under GZIP_MINIMUM_BYTES
            info = json.loads(r.read())
        with connect(f"ws://127.0.0.1:{port}/ws", additional_headers=dict(GZIP)) as ws:
            ws.send(json.dumps({"type": "hello", "table": info["table"], "token": info["token"]}))
            assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
