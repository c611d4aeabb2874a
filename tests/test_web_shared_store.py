"""Several ``president serve`` processes on one PostgreSQL store (issue 34, item 2, first
step): each table is owned by one process at a time (a PostgreSQL advisory lock), a hello
for it on another process gets ``elsewhere`` (the socket closed with 1013, so the page tries
again), and when the owner is killed with SIGKILL mid-deal another process takes the table
over from the store within seconds, with every action the dead one had accepted."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
from websockets.sync.client import connect  # noqa: E402

from tests.test_web_crash import Page, Server, _free_port  # noqa: E402


class SharedServer(Server):
    """``president serve --shared-store`` on one PostgreSQL schema, its own state folder."""

    def __init__(self, state_dir: Path, port: int, store: str) -> None:
        super().__init__(state_dir, port)
        self.env.update(PRESIDENT_WEB_SECRET="shared-store-test", PRESIDENT_BOT_DELAY="0",
                        PRESIDENT_STORE=store)
        self.stderr = state_dir.parent / f"serve-{port}.log"
        self.args = ["--shared-store"]

    def start(self, **popen) -> "SharedServer":
        Path(self.env["XDG_STATE_HOME"]).mkdir(parents=True, exist_ok=True)
        self._log = open(self.stderr, "ab")
        try:
            super().start(stderr=self._log, **popen)
        except RuntimeError as e:
            raise RuntimeError(f"{e}: {self.stderr.read_text()}") from None
        return self

    def stop(self) -> None:
        super().stop()
        if getattr(self, "_log", None) is not None:
            self._log.close()


def hello(server: Server, info: dict) -> tuple[dict, int | None]:
    """One hello: the first answer, and the close code if the server closed the socket."""
    with connect(server.url.replace("http", "ws") + "/ws", open_timeout=5) as ws:
        ws.send(json.dumps({"type": "hello", "table": info["table"], "token": info["token"]}))
        first = json.loads(ws.recv(timeout=5))
        code = None
        if first["type"] == "error":
            try:
                ws.recv(timeout=5)
            except Exception:
                pass
            code = ws.close_code
        return first, code




def test_a_server_without_the_flag_is_refused_beside_shared_ones(tmp_path, shared_schema):
    a = SharedServer(tmp_path / "a", _free_port(), shared_schema)
    a.start()
    try:
        env = dict(a.env, XDG_STATE_HOME=str(tmp_path / "b"))
        done = subprocess.run([sys.executable, "-m", "president", "serve", "--port",
                               str(_free_port()), "--no-browser"], env=env,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 1
        assert "another president server uses the PostgreSQL store" in done.stderr
    finally:
        a.stop()


def test_shared_store_needs_postgresql(tmp_path):
    env = dict(SharedServer(tmp_path / "a", 1, "x").env)
    del env["PRESIDENT_STORE"]
    done = subprocess.run([sys.executable, "-m", "president", "serve", "--port",
                           str(_free_port()), "--no-browser", "--shared-store"], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert "--shared-store" in done.stderr and "PostgreSQL" in done.stderr


@pytest.mark.slow
def test_three_processes_one_owner_per_table_and_a_kill_9_takeover(tmp_path, shared_schema):
    rng = random.Random("shared-store")
    servers = [SharedServer(tmp_path / name, _free_port(), shared_schema) for name in "abc"]
    for s in servers:
        s.start()
    a, b, c = servers
    page = None
    try:
        info = a.post({"kind": "match", "preset": "house", "players": 4, "seed": 3})
        page = Page(a, info)
        for _ in range(6):
            page.act(rng)
        # another process refuses the table while A owns it, and the page is to try again
        for other in (b, c):
            answer, code = hello(other, info)
            assert answer["type"] == "error" and answer["reason"] == "elsewhere", answer
            assert code == 1013
        # mid-deal, sometimes with an action whose answer the kill cuts off
        assert page.state["phase"] in ("play", "exchange")
        seen, seen_events = page.state, list(page.events)
        in_flight = page.my_turn(seen)
        if in_flight:
            page.act(rng, wait=False)
            time.sleep(0.01)
        a.kill()
        page.close()
        deadline = time.monotonic() + 5
        while True:
            answer, _ = hello(b, info)
            if answer["type"] == "welcome":
                break
            assert answer["reason"] == "elsewhere", answer
            assert time.monotonic() < deadline, "B did not take the table over in 5 s"
            time.sleep(0.1)
        page = Page(b, info)
        back = page.state
        assert back["table"]["actions"] >= seen["table"]["actions"]
        if not in_flight:
            assert back["table"]["actions"] == seen["table"]["actions"]
            for key in ("hand", "pile", "to_act", "scores", "seats", "deals", "phase"):
                assert back[key] == seen[key], key
        texts = [e["text"] for e in page.log["events"]]
        assert texts[:len(seen_events)] == [e["text"] for e in seen_events]
        # the game goes on at B, and C now refuses it (B owns it)
        before = page.state["table"]["actions"]
        for _ in range(3):
            page.act(rng)
        assert page.state["table"]["actions"] > before
        answer, code = hello(c, info)
        assert answer["reason"] == "elsewhere" and code == 1013
    finally:
        if page is not None:
            page.close()
        for s in servers:
            s.stop()
