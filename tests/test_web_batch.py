"""The ``batch`` message (a socket whose hello asks for it): the events of a change and the
state after it, in order, as one websocket message; the same messages as a socket without
batches gets one by one."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from president.web.app import create_app  # noqa: E402


def _play_once(batch: bool, tmp_path) -> list[dict]:
    """Join a seeded house match, make the first legal play or pass, and return the messages
    received until the state where it is our turn again (batches unpacked)."""
    app = create_app(bot_delay=0, secret=b"b" * 32, allow_seed=True, state_dir=tmp_path)
    with TestClient(app) as client:
        info = client.post("/api/tables", json={"kind": "match", "preset": "house",
                                                "players": 4, "seed": 5}).json()
        with client.websocket_connect("/ws") as ws:
            hello = {"type": "hello", "table": info["table"], "token": info["token"]}
            if batch:
                hello["batch"] = True
            ws.send_json(hello)
            state = None
            while state is None or state["to_act"] != state["you"]["seat"]:
                m = ws.receive_json()
                if m["type"] == "state":
                    state = m
            choice = state["legal"][0]
            ws.send_json({"type": "pass"} if choice == "pass" else {"type": "play", "cards": choice})
            raw, got = [], []
            while True:
                m = ws.receive_json()
                raw.append(m)
                got += m["messages"] if m["type"] == "batch" else [m]
                if got[-1]["type"] == "state" and got[-1]["to_act"] == got[-1]["you"]["seat"]:
                    break
            return raw, got


def test_a_play_and_the_replies_come_as_one_batch_with_the_same_messages(tmp_path):
    raw_b, got_b = _play_once(True, tmp_path / "a")
    raw_p, got_p = _play_once(False, tmp_path / "b")
    # One websocket message: my play, the three computer replies (and any clear), the state.
    assert [m["type"] for m in raw_b] == ["batch"]
    kinds = [m.get("kind") for m in got_b if m["type"] == "event"]
    assert kinds[0] == "played" and kinds.count("played") + kinds.count("passed") == 4
    assert got_b[-1]["type"] == "state"
    # Without batches, the same messages, one by one (other than the table id and its seal).
    assert len(raw_p) == len(got_p) == len(got_b)
    strip = lambda ms: [{k: v for k, v in m.items() if k not in ("snapshot", "table")} for m in ms]  # noqa: E731
    assert strip(got_p) == strip(got_b)
