"""``president serve --trusted-proxy``: behind a reverse proxy the per-address limits count the
client the proxy forwards (X-Forwarded-For), only from the proxies named; a client connecting
directly cannot forge an address; the websocket's origin check passes behind a TLS proxy
(X-Forwarded-Proto https). Also ``/healthz`` and ``/readyz`` on a real server."""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import time

import pytest

pytest.importorskip("uvicorn")

from president.cli import build_parser, main  # noqa: E402
from president.web.proxy import PROXIES_ENV  # noqa: E402

DIRECT = "127.0.0.2"          # another loopback address: a client the server does not trust


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _can_bind(address: str) -> bool:
    try:
        with socket.socket() as s:
            s.bind((address, 0))
        return True
    except OSError:
        return False


@pytest.fixture
def server(tmp_path):
    """A real ``president serve --trusted-proxy 127.0.0.1`` answering to game.example, with 3
    tables a minute per address and 4 HTTP connections per address."""
    if not _can_bind(DIRECT):
        pytest.skip(f"this system cannot connect from {DIRECT}")
    port = _free_port()
    env = dict(os.environ, PRESIDENT_WEB_SECRET="proxy-test", BROWSER="false",
               XDG_STATE_HOME=str(tmp_path / "state"), PRESIDENT_WEB_TABLES_PER_MINUTE="3",
               PRESIDENT_WEB_CONNECTIONS_PER_ADDRESS="4")
    env.pop(PROXIES_ENV, None)
    proc = subprocess.Popen([sys.executable, "-m", "president", "serve", "--port", str(port),
                             "--no-browser", "--bot-delay", "0", "--trusted-proxy", "127.0.0.1",
                             "--allow-host", "game.example"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            cwd=tmp_path)
    try:
        lines = [proc.stdout.readline() for _ in range(2)]
        assert f"http://127.0.0.1:{port}/" in lines[0], (lines, proc.stderr.read())
        assert "X-Forwarded-For on connections from 127.0.0.1 (--trusted-proxy)" in lines[1]
        yield port
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _request(port: int, method: str, path: str, *, source: str = "127.0.0.1",
             headers: dict[str, str] | None = None, body: bytes | None = None
             ) -> tuple[int, dict[str, object]]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))
    try:
        conn.request(method, path, body=body, headers={"Content-Type": "application/json",
                                                       **(headers or {})})
        r = conn.getresponse()
        raw = r.read()
        return r.status, (json.loads(raw) if raw else {})
    finally:
        conn.close()


def _new_table(port: int, source: str, forwarded: str | None) -> tuple[int, dict[str, object]]:
    headers = {"X-Forwarded-For": forwarded} if forwarded else {}
    return _request(port, "POST", "/api/tables", source=source, headers=headers,
                    body=b'{"kind": "practice"}')


def _upgrade(port: int, source: str, headers: dict[str, str]) -> str:
    """The status line the server answers a websocket upgrade with."""
    with socket.create_connection(("127.0.0.1", port), timeout=10,
                                  source_address=(source, 0)) as s:
        lines = ["GET /ws HTTP/1.1", "Upgrade: websocket", "Connection: Upgrade",
                 "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13",
                 *(f"{k}: {v}" for k, v in headers.items())]
        s.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        got = b""
        while b"\r\n" not in got:
            chunk = s.recv(4096)
            if not chunk:
                break
            got += chunk
        return got.split(b"\r\n", 1)[0].decode()


def test_the_option_and_the_variable(monkeypatch, capsys):
    args = build_parser().parse_args(["serve", "--trusted-proxy", "127.0.0.1",
                                      "--trusted-proxy", "10.0.0.0/8"])
    assert args.trusted_proxy == ["127.0.0.1", "10.0.0.0/8"]
    assert build_parser().parse_args(["serve"]).trusted_proxy == []
    assert main(["serve", "--no-browser", "--trusted-proxy", "proxy.example"]) == 2
    assert "--trusted-proxy 'proxy.example' is not an IP address" in capsys.readouterr().err
    monkeypatch.setenv(PROXIES_ENV, "127.0.0.1,nonsense")
    assert main(["serve", "--no-browser"]) == 2
    assert "'nonsense' is not an IP address" in capsys.readouterr().err


def test_limits_count_the_forwarded_client_and_nobody_else_can_forge_one(server):
    port = server
    # Behind the trusted proxy: 203.0.113.7's tables are counted against it (3 a minute) ...
    assert [_new_table(port, "127.0.0.1", "203.0.113.7")[0] for _ in range(3)] == [200] * 3
    status, body = _new_table(port, "127.0.0.1", "203.0.113.7")
    assert (status, body["error"]) == (429, "busy")
    assert "3 new tables a minute" in str(body["message"])
    # ... and only against it: another client through the same proxy is not locked out,
    # nor is the proxy's own address
    assert _new_table(port, "127.0.0.1", "203.0.113.8")[0] == 200
    assert _new_table(port, "127.0.0.1", "198.51.100.1, 203.0.113.9")[0] == 200
    assert _new_table(port, "127.0.0.1", None)[0] == 200

    # A client connecting directly names a new address each time: every table counts
    # against its own address (127.0.0.2), so the fourth is refused.
    statuses = [_new_table(port, DIRECT, f"10.9.0.{i}")[0] for i in range(4)]
    assert statuses == [200, 200, 200, 429]
    # the refusal counted against 127.0.0.2, not against the forged 10.9.0.3
    time.sleep(1.2)                       # (127.0.0.2 cools down a second after a refusal)
    assert _new_table(port, "127.0.0.1", "10.9.0.3")[0] == 200


def test_the_proxys_connections_are_not_capped_a_direct_clients_are(server):
    port = server
    held = []
    try:
        for _ in range(6):                # more than the 4 one address may hold
            held.append(socket.create_connection(("127.0.0.1", port), timeout=10,
                                                 source_address=("127.0.0.1", 0)))
        status, body = _request(port, "GET", "/healthz", headers={"X-Forwarded-For": "203.0.113.7"})
        assert (status, body) == (200, {"status": "ok"})
        for _ in range(4):
            held.append(socket.create_connection(("127.0.0.1", port), timeout=10,
                                                 source_address=(DIRECT, 0)))
        time.sleep(0.3)                   # (each is counted when the server accepts it)
        status, body = _request(port, "GET", "/healthz", source=DIRECT,
                                headers={"X-Forwarded-For": "203.0.113.7"})
        assert (status, body["error"]) == (429, "busy")
        assert "at most 4" in str(body["message"])
    finally:
        for s in held:
            s.close()


def test_the_websocket_origin_check_behind_a_tls_proxy(server):
    port = server
    page = {"Host": "game.example", "Origin": "https://game.example",
            "X-Forwarded-For": "203.0.113.7"}
    # through the proxy, which says the page was https: the origin is the page's own
    assert _upgrade(port, "127.0.0.1", {**page, "X-Forwarded-Proto": "https"}).startswith(
        "HTTP/1.1 101")
    # without it, https://game.example (port 443) is not this http server's origin (port 80)
    assert _upgrade(port, "127.0.0.1", page).startswith("HTTP/1.1 403")
    # and nobody but the proxy can claim https
    assert _upgrade(port, DIRECT, {**page, "X-Forwarded-Proto": "https"}).startswith(
        "HTTP/1.1 403")
    # the plain page at http://game.example still works through the proxy
    assert _upgrade(port, "127.0.0.1", {**page, "Origin": "http://game.example",
                                        "X-Forwarded-Proto": "http"}).startswith("HTTP/1.1 101")


def test_healthz_and_readyz_on_each_engine(store_engine, monkeypatch):
    from fastapi.testclient import TestClient

    from president.web.app import create_app

    monkeypatch.delenv("PRESIDENT_WEB_HOSTS", raising=False)
    app = create_app(bot_delay=0, secret=b"k" * 32, state_dir=store_engine.state_dir,
                     store=store_engine.address, workers=1)
    with TestClient(app, base_url="http://127.0.0.1:8000") as c:
        r = c.get("/healthz")
        assert (r.status_code, r.json()) == (200, {"status": "ok"})
        r = c.get("/readyz")
        assert (r.status_code, r.json()) == (200, {"status": "ready"})
        assert r.headers["content-security-policy"]          # the security headers too
        app.state.stopping = True                            # told to stop: no new tables
        r = c.get("/readyz")
        assert (r.status_code, r.json()["error"]) == (503, "not-ready")
        assert "stopping" in r.json()["message"]
        app.state.stopping = False
        app.state.tables.store.close()                       # the store stops answering
        r = c.get("/readyz")
        assert (r.status_code, r.json()["error"]) == (503, "not-ready")
        assert r.json()["message"].startswith("the server cannot read its store just now (")
        assert c.get("/healthz").status_code == 200          # the process itself is up


def test_an_https_page_reaching_the_server_as_plain_http_is_told_to_trust_its_proxy(tmp_path):
    """Found by a new operator: behind Caddy without --trusted-proxy every request and socket
    was refused as "not one of its hosts", which pointed at --allow-host, the wrong fix."""
    from fastapi.testclient import TestClient
    from starlette.testclient import WebSocketDenialResponse

    from president.web.app import create_app

    with TestClient(create_app(bot_delay=0, secret=b"p" * 32, state_dir=tmp_path,
                               workers=1)) as c:
        r = c.post("/api/tables", json={"kind": "practice"},
                   headers={"Origin": "https://testserver"})
        assert r.status_code == 403 and r.json()["error"] == "bad-origin"
        assert "--trusted-proxy" in r.json()["message"]
        with pytest.raises(WebSocketDenialResponse) as refused:
            c.websocket_connect("/ws", headers={"Origin": "https://testserver"}).__enter__()
        assert "--trusted-proxy" in refused.value.json()["message"]
        r = c.post("/api/tables", json={"kind": "practice"},
                   headers={"Origin": "https://evil.example"})
        assert "not one of its hosts" in r.json()["message"]
