"""``GET /metrics`` (issue 34, item 4): the server's figures in Prometheus' text format, a
registry of each app's own, served to loopback clients (and ``metrics_from``) only; the
figures move as tables are made, sockets opened, actions played and requests refused."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("prometheus_client")

from fastapi.testclient import TestClient  # noqa: E402
from prometheus_client.parser import text_string_to_metric_families  # noqa: E402
from starlette.testclient import WebSocketDenialResponse  # noqa: E402

from president.web.app import create_app  # noqa: E402

LOCAL = ("127.0.0.1", 40000)


def figures(client: TestClient) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of ``/metrics``: (name, sorted labels) -> value."""
    answer = client.get("/metrics")
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/plain")
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(answer.text) for s in family.samples}


def one(figs: dict, name: str, **labels: str) -> float:
    return figs.get((name, tuple(sorted(labels.items()))), 0.0)


def test_the_figures_move_with_tables_sockets_actions_and_refusals(tmp_path):
    app = create_app(bot_delay=0, secret=b"m" * 32, allow_seed=True, state_dir=tmp_path,
                     per_address=2, refusal_delay=0)
    with TestClient(app, client=LOCAL) as client:
        before = figures(client)
        assert one(before, "president_tables_kept") == 0
        assert one(before, "president_tables_in_memory") == 0
        assert one(before, "president_sockets_open") == 0
        assert one(before, "president_actions_total") == 0
        assert one(before, "president_action_seconds_count") == 0

        info = client.post("/api/tables", json={"kind": "match", "preset": "house",
                                                "players": 4, "seed": 5}).json()
        made = figures(client)
        assert one(made, "president_tables_kept") == 1
        assert one(made, "president_tables_in_memory") == 1

        with client.websocket_connect("/ws") as ws:
            opened = figures(client)
            assert one(opened, "president_sockets_open") == 1
            assert one(opened, "president_sockets_waiting") == 1
            ws.send_json({"type": "hello", "table": info["table"], "token": info["token"][::-1]})
            assert ws.receive_json()["reason"] == "unknown-table"
            ws.send_json({"type": "hello", "table": info["table"], "token": info["token"]})
            state = None
            while state is None or state["to_act"] != state["you"]["seat"]:
                m = ws.receive_json()
                if m["type"] == "state":
                    state = m
            joined = figures(client)
            assert one(joined, "president_sockets_open") == 1
            assert one(joined, "president_sockets_waiting") == 0
            assert one(joined, "president_socket_errors_total", reason="unknown-table") == 1
            # an illegal play is refused (an error, no action), then a legal one is accepted
            ws.send_json({"type": "play", "cards": "ZZ"})
            assert ws.receive_json()["type"] == "error"
            choice = state["legal"][0]
            ws.send_json({"type": "pass"} if choice == "pass" else {"type": "play", "cards": choice})
            while True:
                m = ws.receive_json()
                if m["type"] == "state" and m["table"]["actions"] > state["table"]["actions"]:
                    break
            played = figures(client)
            assert one(played, "president_actions_total") == 1
            assert one(played, "president_action_seconds_count") == 1
            seconds = one(played, "president_action_seconds_sum")
            assert 0 < seconds < 5
            assert one(played, "president_action_seconds_bucket", le="+Inf") == 1
            assert one(played, "president_action_seconds_bucket", le="5.0") == 1
            errors = {labels: v for (n, labels), v in played.items()
                      if n == "president_socket_errors_total"}
            assert sum(errors.values()) == 2, errors    # the failed hello, the illegal play
        assert one(figures(client), "president_sockets_open") == 0

        # HTTP refusals by status and reason: a table past the address's rate (429), a
        # body over 16 KiB (413), a post from another site (403), a websocket from another
        # origin (403, refused before the upgrade), an unknown page (404)
        client.app.state.tables.per_address = 1     # type: ignore[attr-defined]
        assert client.post("/api/tables", json={"kind": "practice"}).status_code == 429
        assert client.post("/api/companion", content=b"x" * 20_000,
                           headers={"content-type": "application/json"}).status_code == 413
        assert client.post("/api/companion", json={},
                           headers={"origin": "https://evil.example"}).status_code == 403
        with pytest.raises(WebSocketDenialResponse):
            with client.websocket_connect("/ws", headers={"origin": "https://evil.example"}):
                pass
        assert client.get("/nothing-here").status_code == 404
        refused = figures(client)
        assert one(refused, "president_http_refusals_total", status="429", reason="busy") == 1
        assert one(refused, "president_http_refusals_total", status="413",
                   reason="too-large") == 1
        assert one(refused, "president_http_refusals_total", status="403",
                   reason="bad-origin") == 2
        assert one(refused, "president_http_refusals_total", status="404",
                   reason="not-found") == 1


def test_metrics_only_for_loopback_and_the_named_networks(tmp_path):
    app = create_app(bot_delay=0, secret=b"m" * 32, state_dir=tmp_path / "a",
                     metrics_from=["10.1.2.0/24"])
    with TestClient(app, client=("203.0.113.9", 5000)) as client:
        answer = client.get("/metrics")
        assert answer.status_code == 403
        assert answer.json()["error"] == "not-allowed"
        assert "loopback" in answer.json()["message"]
    with TestClient(app, client=("10.1.2.77", 5000)) as client:
        assert client.get("/metrics").status_code == 200
    with TestClient(app, client=("::1", 5000)) as client:
        assert "president_tables_kept" in client.get("/metrics").text


def test_two_apps_in_one_process_keep_their_own_figures(tmp_path):
    a = create_app(bot_delay=0, secret=b"m" * 32, state_dir=tmp_path / "a")
    b = create_app(bot_delay=0, secret=b"m" * 32, state_dir=tmp_path / "b")
    with TestClient(a, client=LOCAL) as ca, TestClient(b, client=LOCAL) as cb:
        ca.post("/api/tables", json={"kind": "practice"})
        ca.post("/api/tables", json={"kind": "practice"})
        assert one(figures(ca), "president_tables_kept") == 2
        assert one(figures(cb), "president_tables_kept") == 0


def test_a_bad_metrics_from_is_refused_in_words(tmp_path):
    with pytest.raises(ValueError, match="not an address or network"):
        create_app(bot_delay=0, secret=b"m" * 32, state_dir=tmp_path, metrics_from=["nowhere"])
