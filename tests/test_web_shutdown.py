"""Operating the server (issue 34, item 4): a graceful stop on SIGTERM (no new tables or
sockets, pages told to come back with 1012, the store's writes finished, exit 0), the log
as one JSON object a line with ``--log-json``, and ``/metrics`` of a real server."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("prometheus_client")

from fastapi.testclient import TestClient  # noqa: E402
from starlette.testclient import WebSocketDenialResponse  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402

from president.web.app import create_app  # noqa: E402
from president.web.store import TABLES_FILE  # noqa: E402

from .test_web_crash import Page, Server, _free_port  # noqa: E402

LOCAL = ("127.0.0.1", 40000)


def test_a_stopping_app_takes_no_new_table_nor_socket(tmp_path):
    app = create_app(bot_delay=0, secret=b"s" * 32, state_dir=tmp_path)
    with TestClient(app, client=LOCAL) as client:
        assert client.post("/api/tables", json={"kind": "practice"}).status_code == 200
        app.state.stopping = True
        answer = client.post("/api/tables", json={"kind": "practice"})
        assert answer.status_code == 503
        assert answer.json()["error"] == "stopping"
        assert "restarting" in answer.json()["message"]
        with pytest.raises(WebSocketDenialResponse) as refused:
            with client.websocket_connect("/ws"):
                pass
        assert refused.value.status_code == 503
        assert refused.value.json()["error"] == "stopping"
        assert 'reason="stopping",status="503"' in client.get("/metrics").text


def _json_lines(text: str) -> list[dict]:
    """Every line of ``text`` as JSON (each must be one object)."""
    out = []
    for line in text.splitlines():
        if line.strip():
            record = json.loads(line)
            assert isinstance(record, dict), line
            assert {"time", "level", "logger", "message"} <= record.keys(), line
            out.append(record)
    return out


def _metric(server: Server, name: str) -> float:
    text = urllib.request.urlopen(server.url + "/metrics", timeout=5).read().decode()
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    raise AssertionError(f"no {name} in /metrics")


@pytest.mark.slow
def test_sigterm_during_play_stops_gracefully_and_loses_nothing(tmp_path):
    rng = random.Random("sigterm")
    server = Server(tmp_path / "state", _free_port())
    server.env["PRESIDENT_LOG_JSON"] = "1"
    err = tmp_path / "stderr.txt"
    with open(err, "wb") as stderr:
        server.start(stderr=stderr)
        try:
            info = server.post({"kind": "match", "preset": "house", "players": 4, "seed": 3})
            page = Page(server, info)
            played = 0
            for _ in range(6):
                if page.state["phase"] == "match-over":
                    break
                page.act(rng)
                played += 1
            assert _metric(server, "president_actions_total") == played
            assert _metric(server, "president_action_seconds_count") == played
            assert _metric(server, "president_tables_kept") == 1
            assert _metric(server, "president_sockets_open") == 1
            # a refusal made by the server's own HTTP protocol, before the app: counted too
            with socket.create_connection(("127.0.0.1", server.port), timeout=5) as raw:
                raw.sendall(b"NOT HTTP AT ALL\r\n\r\n")
                assert raw.recv(100).startswith(b"HTTP/1.1 400")
            assert _metric(server, 'president_http_refusals_total{reason="bad-request",'
                           'status="400"}') == 1
            seen_events = [e["text"] for e in page.events]
            seen = page.state
            # one more action in flight as the signal comes
            if page.my_turn(seen) and seen["phase"] in ("play", "exchange"):
                page.act(rng, wait=False)
            assert server.proc is not None
            started = time.monotonic()
            server.proc.send_signal(signal.SIGTERM)
            # the page is told to come back (1012, "service restart"), not just cut off
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    page.ws.recv(timeout=15)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
            assert server.proc.wait(timeout=30) == 0
            assert time.monotonic() - started < 15
            page.close()
        finally:
            server.stop()
    records = _json_lines(err.read_text())
    messages = [r["message"] for r in records]
    assert any(r["logger"] == "president.serve" and r.get("signal") == "SIGTERM"
               for r in records), messages
    assert any(r["logger"] == "president.web" and m.startswith("stopped:") and "seconds" in r
               for r, m in zip(records, messages)), messages
    assert any(r["logger"] == "uvicorn.error" and "Uvicorn running" in m
               for r, m in zip(records, messages)), messages
    assert not any("connection open" in m or "WebSocket /ws" in m for m in messages), messages

    # started again on the same folder: the table with every action the page saw
    server.env.pop("PRESIDENT_LOG_JSON")
    server.start()
    try:
        back = Page(server, info)
        assert back.state["table"]["actions"] >= seen["table"]["actions"]
        texts = [e["text"] for e in back.log["events"]]
        assert texts[:len(seen_events)] == seen_events
        back.close()
    finally:
        server.stop()


def test_log_json_makes_a_refusal_to_start_a_json_line(tmp_path):
    folder = tmp_path / "president"
    folder.mkdir()
    (folder / TABLES_FILE).write_bytes(b"garbage!" * 512)
    env = dict(os.environ, XDG_STATE_HOME=str(tmp_path), PRESIDENT_WEB_SECRET="x" * 20)
    done = subprocess.run([sys.executable, "-m", "president", "serve", "--no-browser",
                           "--log-json", "--port", str(_free_port())], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    records = _json_lines(done.stderr)
    assert records, done.stderr
    last = records[-1]
    assert last["level"] == "ERROR" and last["logger"] == "president.serve"
    assert str(folder / TABLES_FILE) in last["message"]
