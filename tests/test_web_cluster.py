"""Several server processes as one game server (issue 34, items 2 and 5): ``president serve
--workers 3`` on one port, a PostgreSQL store and Redis (:mod:`president.web.cluster`).

The kernel spreads the sockets over the three processes, so a page often reaches a process
that does not own its table: it is relayed to the owner through Redis. Checked here, against
the real engines: a friends' table whose pages are spread over the processes plays as one;
a kill -9 of the owner mid-deal loses no accepted action and the table is served again within
5 s; the per-address socket limit holds across the processes; SIGTERM stops them all (exit
0)."""

from __future__ import annotations

import contextlib
import json
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("redis")
from websockets.exceptions import InvalidStatus  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

from tests.test_web_crash import Page, Server, _free_port  # noqa: E402

REDIS = "redis://127.0.0.1:6379/0"


class Workers(Server):
    """``president serve --workers 3`` on a PostgreSQL schema and Redis."""

    def __init__(self, state_dir: Path, port: int, store: str, workers: int = 3) -> None:
        super().__init__(state_dir, port)
        state_dir.mkdir(parents=True, exist_ok=True)
        self.env.update(PRESIDENT_STORE=store, PRESIDENT_REDIS=REDIS,
                        PRESIDENT_WEB_CONNECTIONS_PER_ADDRESS="1000")
        self.args = ["--workers", str(workers)]
        self.store = store
        self.log_path = state_dir / "serve.log"

    def start(self, **popen) -> "Workers":
        self._log = open(self.log_path, "ab")
        try:
            super().start(stderr=self._log, **popen)
        except RuntimeError as e:
            raise RuntimeError(f"{e}: {self.log_path.read_text()}") from None
        self._wait_all()
        return self

    def _wait_all(self) -> None:
        """Until every process has said it is alive in Redis."""
        import redis
        client = redis.Redis.from_url(REDIS)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            names = [k for k in client.keys("president:*:processes")]
            alive = sum(client.zcount(k, time.time() - 3, "+inf") for k in names)
            if alive >= int(self.args[1]) and len(self.worker_pids()) >= int(self.args[1]):
                client.close()
                return
            time.sleep(0.1)
        raise RuntimeError("the processes did not all start")

    def worker_pids(self) -> list[int]:
        out = subprocess.run(["pgrep", "-P", str(self.proc.pid)], capture_output=True,
                             text=True).stdout
        return [int(p) for p in out.split()]

    def owner_pid(self, table_id: str) -> int:
        """The pid of the process that owns ``table_id`` (its lock's application name)."""
        from president.web.store_pg import PgOwners
        owners = PgOwners(self.store, "test-reader")
        try:
            name = owners.owner_of(table_id)
        finally:
            owners.close()
        assert name is not None, "nobody owns the table"
        return int(name.rsplit("-", 2)[1])

    def stop(self) -> None:
        super().stop()
        if getattr(self, "_log", None) is not None:
            self._log.close()


def _settle(pages: list[Page], after: int = -1) -> None:
    """Each page reads on until a state past ``after`` actions where a human is to play (the
    computer's moves come in states of their own)."""
    humans = {p.state["you"]["seat"] for p in pages}
    for p in pages:
        if not (p.state["table"]["actions"] > after and p.state["to_act"] in humans):
            p.until(lambda s: s["table"]["actions"] > after and s["to_act"] in humans)


def _act(pages: list[Page], rng: random.Random) -> None:
    """The page whose turn it is plays; every page then sees the new state."""
    actor = next(p for p in pages if p.state["phase"] == "play"
                 and p.state["to_act"] == p.state["you"]["seat"])
    before = actor.state["table"]["actions"]
    actor.act(rng, wait=False)
    _settle(pages, before)


def _same_table(pages: list[Page]) -> None:
    states = [p.state for p in pages]
    for key in ("pile", "to_act", "scores", "phase"):
        assert all(s[key] == states[0][key] for s in states), key
    assert len({s["table"]["actions"] for s in states}) == 1


@pytest.mark.slow
def test_three_processes_serve_a_friends_table_as_one_and_survive_a_kill_9(
        tmp_path, shared_schema):
    rng = random.Random("cluster")
    server = Workers(tmp_path / "w", _free_port(), shared_schema).start()
    pages: list[Page] = []
    try:
        info = server.post({"kind": "match", "preset": "house", "players": 4, "seed": 5,
                            "levels": ["human", "human", "human", "simple"]})
        seats = [info, *({"table": info["table"], "token": i["token"]}
                         for i in info["invites"])]
        # each page through the one port: the kernel spreads them over the processes, and a
        # page on another process than the owner is relayed (some of these nine are)
        for _ in range(3):
            opened = [Page(server, seat) for seat in seats]
            for p in opened:
                p.close()
        pages = [Page(server, seat) for seat in seats]
        pages[0].ws.send(json.dumps({"type": "start"}))
        _settle(pages)
        for _ in range(5):
            _act(pages, rng)
        _same_table(pages)
        seen = pages[0].state
        second = Page(server, seats[0])     # the log a page is sent, just before the kill
        seen_texts = [e["text"] for e in second.log["events"]]
        second.close()
        owner = server.owner_pid(info["table"])
        assert owner in server.worker_pids()
        # the store's address (a password, in real use) is never on a command line ps shows
        for pid in server.worker_pids():
            assert b"postgresql://" not in Path(f"/proc/{pid}/cmdline").read_bytes()

        subprocess.run(["kill", "-9", str(owner)], check=True)
        killed = time.monotonic()
        for p in pages:
            p.close()
        # every page back at its table, on whichever live process it reaches
        back: list[Page] = []
        for seat in seats:
            while True:
                try:
                    back.append(Page(server, seat))
                    break
                except (AssertionError, OSError, TimeoutError, InvalidStatus):
                    # a guard against hanging only (docs/web.md states 5 s as the aim)
                    assert time.monotonic() - killed < 30, "the table was not back within 30 s"
                    time.sleep(0.1)
        pages = back
        _settle(pages)
        _same_table(pages)
        assert pages[0].state["table"]["actions"] == seen["table"]["actions"]
        for key in ("hand", "pile", "to_act", "scores", "phase"):
            assert pages[0].state[key] == seen[key], key

        def seats(state: dict) -> list[dict]:     # (who is online changes as pages return)
            return [{k: v for k, v in s.items() if k not in ("online", "joined")}
                    for s in state["seats"]]
        assert seats(pages[0].state) == seats(seen)
        assert [e["text"] for e in pages[0].log["events"]] == seen_texts
        assert server.owner_pid(info["table"]) != owner
        for _ in range(4):
            _act(pages, rng)
        _same_table(pages)
        # the supervisor started a process in place of the killed one
        deadline = time.monotonic() + 10
        while len(server.worker_pids()) < 3:
            assert time.monotonic() < deadline, "the killed process was not started again"
            time.sleep(0.1)
        for p in pages:
            p.close()
        pages = []
        server.proc.send_signal(signal.SIGTERM)
        assert server.proc.wait(timeout=40) == 0
    finally:
        for p in pages:
            p.close()
        server.stop()
    assert "ended (signal SIGKILL)" in server.log_path.read_text()


@pytest.mark.slow
def test_the_per_address_socket_limit_holds_across_the_processes(tmp_path, shared_schema):
    from president.web.sockets import MAX_WAITING_PER_ADDRESS
    server = Workers(tmp_path / "w", _free_port(), shared_schema).start()
    url = server.url.replace("http", "ws") + "/ws"
    held = []
    stack = contextlib.ExitStack()
    try:
        for _ in range(MAX_WAITING_PER_ADDRESS):    # unjoined sockets, over the 3 processes
            held.append(stack.enter_context(connect(url, open_timeout=5)))
            time.sleep(0.012)   # under each process's handshake rate
        with pytest.raises(InvalidStatus) as refused:
            connect(url, open_timeout=5)
        assert refused.value.response.status_code == 429
        assert b"too many open sockets from your address" in refused.value.response.body
        for ws in held[:10]:
            ws.close()
        time.sleep(1.2)        # (the refusal's one-second cooldown)
        deadline = time.monotonic() + 5
        while True:            # the closes counted: room again
            try:
                held.append(stack.enter_context(connect(url, open_timeout=5)))
                break
            except InvalidStatus:
                assert time.monotonic() < deadline
                time.sleep(0.2)
    finally:
        stack.close()
        server.stop()


@pytest.mark.parametrize("workers", ["0", "-1", "65"])
def test_a_number_of_workers_out_of_range_is_refused(tmp_path, workers):
    env = dict(Server(tmp_path, 1).env)
    done = subprocess.run([sys.executable, "-m", "president", "serve", "--port",
                           str(_free_port()), "--no-browser", "--workers", workers], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert f"--workers {workers} is out of range; give 1 to 64" in done.stderr


def test_a_redis_refusing_the_login_is_named_so(tmp_path, shared_schema):
    env = dict(Server(tmp_path, 1).env, PRESIDENT_STORE=shared_schema)
    done = subprocess.run([sys.executable, "-m", "president", "serve", "--port",
                           str(_free_port()), "--no-browser", "--workers", "2", "--redis",
                           "redis://nobody:wrong-secret@127.0.0.1:6379/0"], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert "refused the login" in done.stderr and "wrong-secret" not in done.stderr


def test_workers_need_postgresql_and_redis(tmp_path):
    env = dict(Server(tmp_path, 1).env)
    env.pop("PRESIDENT_STORE", None)
    env.pop("PRESIDENT_REDIS", None)
    done = subprocess.run([sys.executable, "-m", "president", "serve", "--port",
                           str(_free_port()), "--no-browser", "--workers", "2"], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "--workers needs a PostgreSQL --store and --redis" in done.stderr


def _app(tmp_path: Path, name: str, store: str):
    from president.web.app import create_app
    return create_app(bot_delay=0, secret=b"c" * 32, state_dir=tmp_path / name, store=store,
                      shared_store=True, redis=REDIS, allow_seed=True)


def _welcome(ws) -> dict:
    """The welcome, then the log and the first state after it."""
    first = ws.receive_json()
    assert first["type"] == "welcome", first
    assert ws.receive_json()["type"] == "log"
    state = ws.receive_json()
    assert state["type"] == "state"
    return state


def test_a_table_moves_to_its_first_page_and_later_pages_are_relayed(tmp_path, shared_schema):
    from fastapi.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect
    from president.web.store_pg import PgOwners

    app_a, app_b = _app(tmp_path, "a", shared_schema), _app(tmp_path, "b", shared_schema)
    reader = PgOwners(shared_schema, "test-reader")
    with contextlib.ExitStack() as stack:
        stack.callback(reader.close)
        a = stack.enter_context(TestClient(app_a))
        b_stack = stack.enter_context(contextlib.ExitStack())
        b = b_stack.enter_context(TestClient(app_b))
        info = a.post("/api/tables", json={
            "kind": "match", "preset": "house", "players": 4, "seed": 7,
            "levels": ["human", "human", "simple", "simple"]}).json()
        table = info["table"]
        process_a = app_a.state.tables.owners.process
        process_b = app_b.state.tables.owners.process
        assert reader.owner_of(table) == process_a        # made by A
        # the host's page reaches B: nobody is at the table on A, so A hands it over
        host = b_stack.enter_context(b.websocket_connect(f"/ws?table={table}"))
        host.send_json({"type": "hello", "table": table, "token": info["token"]})
        assert _welcome(host)["table"]["lobby"] is True
        assert reader.owner_of(table) == process_b
        # the friend's page reaches A: B has a page at the table, so it keeps it and A
        # relays the friend's socket to B
        friend_token = info["invites"][0]["token"]
        with a.websocket_connect(f"/ws?table={table}") as friend:
            friend.send_json({"type": "hello", "table": table, "token": friend_token})
            assert _welcome(friend)["table"]["lobby"] is True
            assert reader.owner_of(table) == process_b
            host.send_json({"type": "start"})
            seen = None
            while seen is None or seen["phase"] != "play" or seen["to_act"] not in (
                    seen["you"]["seat"], host_seat(seen)):
                message = friend.receive_json()
                if message["type"] == "state":
                    seen = message
            assert seen["you"]["player"] == 1
            # B stops: the relayed page is told to come back (1012)
            b_stack.close()
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    friend.receive_json()
            assert closed.value.code == 1012
        # back through A, which now takes the table from the store
        with a.websocket_connect(f"/ws?table={table}") as friend:
            friend.send_json({"type": "hello", "table": table, "token": friend_token})
            back = _welcome(friend)
            assert back["table"]["actions"] == seen["table"]["actions"]
            assert back["hand"] == seen["hand"]
        assert reader.owner_of(table) == process_a


def host_seat(state: dict) -> int:
    """The seat of player 0 (the host) in a state."""
    return next(s["seat"] for s in state["seats"] if s["player"] == 0)
