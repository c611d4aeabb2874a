#!/usr/bin/env python3
"""Several server processes (issue 34): CPU per action, scaling and routing. Not a test.

Each configuration below is a real ``president serve`` (computer delay 0) driven by this
script's own asyncio websocket players, one per table (``house``: you and three ``simple``
computer players), each acting about once per ``--think`` seconds (random 0.5x-1.5x) at a
fixed offered load of ``--tables`` tables. The page's socket URL is used (``/ws?table=<id>``)
so that a proxy can hash on it. Latency: from sending an action to the state where it is
that player's turn again (every computer reply included). Server CPU: user+sys seconds of
the server process and all its children (``/proc/<pid>/stat``) over the measured window.
PostgreSQL's and Redis's own processes (every ``postgres`` and ``redis-server`` process of
the machine) and Caddy are reported beside it, not in it.

Configurations:

- ``sqlite-1``: one plain process on the SQLite files (the baseline);
- ``pg-1``: one process, ``--store postgresql://... --shared-store --redis ...``;
- ``pg-workers-2``, ``pg-workers-3``: ``--workers N`` on one port (the kernel spreads the
  sockets; a page reaching a process that does not own its table is relayed through Redis);
- ``pg-caddy-3``: three ``--shared-store --redis`` processes on their own ports and state
  folders behind Caddy 2.6, which hashes ``/ws?table=<id>`` (``lb_policy uri_hash``: Caddy
  2.6.2 has no ``query`` policy; the path is always ``/ws``, so the hash is the table id's)
  and sends everything else round-robin. ``POST /api/tables`` carries no table id, so a table
  is made by whichever process the round-robin names, and its hashed socket reaches another
  two times in three: it is then handed over (``give``/``given`` on Redis) or relayed;
- ``kill9``: ``--workers 3`` (fresh schema, same load); after the warm-up and half of
  ``--seconds``, one worker process (a child of the supervisor) gets ``kill -9``, and the run
  goes on for 5 s plus half of ``--seconds``. Players whose socket closes reconnect (a new
  socket, the same hello). Figures: for each table whose socket closed, the time from the kill
  to its next ``welcome`` (max, p95; target <= 5 s, and none that never came back); lost
  actions: each player notes the highest ``table.actions`` of a state acknowledging an action
  it sent (a count above the one it acted at), and the state after the ``welcome`` of its
  reconnect must show at least that (tables below it: target 0); p95 of the tables whose socket
  did not close, before the kill and after kill + 5 s (the window [kill, kill + 5 s] left out).

Targets (issue 34): CPU per action <= 1 ms on ``pg-1``; scaling efficiency (actions per
server CPU-second against ``sqlite-1``) >= 85% with p95 < 100 ms for 2 and 3 workers and for
Caddy; kill -9 of one of three processes: 0 accepted actions lost, its tables served again
within 5 s, the other tables' p95 unaffected outside that window. The shares of sockets relayed and of tables handed over to the process their page
reached are counted by listening on the relay's Redis channels (``open`` and ``given 1``
messages against the sockets this script opened, over each whole run).

``python benchmarks/bench_web_cluster.py [--quick] [--json] [--seconds S] [--tables K]
[--think S] [--only NAME,...]``; ``PRESIDENT_BENCH_QUICK=1`` is ``--quick``. Needs
PostgreSQL (``$PRESIDENT_TEST_POSTGRES``, default ``postgresql://postgres@127.0.0.1:5432/test``;
a schema ``bench_<random>`` per configuration, dropped after), Redis (``$PRESIDENT_REDIS``,
default ``redis://127.0.0.1:6379/0``) and ``caddy`` on the PATH (else ``pg-caddy-3`` is
skipped).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import orjson

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

from bench_web_load import _free_port, _proc_cpu_seconds, pct, reply_to  # noqa: E402

PG = os.environ.get("PRESIDENT_TEST_POSTGRES") or "postgresql://postgres@127.0.0.1:5432/test"
REDIS = os.environ.get("PRESIDENT_REDIS") or "redis://127.0.0.1:6379/0"
CPU_TARGET_MS = 1.0
EFFICIENCY_TARGET = 0.85
P95_TARGET_MS = 100.0
CONFIGS = ["sqlite-1", "pg-1", "pg-workers-2", "pg-workers-3", "pg-caddy-3", "kill9"]
BACK_TARGET_S = 5.0           # kill9: a killed process's tables served again within this
KILL_P95_FACTOR, KILL_P95_SLACK_MS = 1.5, 5.0    # kill9: "unaffected" = within either of these
ODD_WORDS = ("Traceback", "ERROR", "WARNING", "Exception", "error", "refused")


def with_search_path(base: str, schema: str) -> str:
    """``base`` with ``options=-csearch_path=<schema>`` (as tests/store_engines.py)."""
    parts = urllib.parse.urlsplit(base)
    query = [(k, v) for k, v in urllib.parse.parse_qsl(parts.query) if k != "options"]
    query.append(("options", f"-csearch_path={schema}"))
    return urllib.parse.urlunsplit(parts._replace(
        query=urllib.parse.urlencode(query, quote_via=urllib.parse.quote)))


# ----- processes ------------------------------------------------------------------------------

def _children() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                ppid = int(Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            kids.setdefault(ppid, []).append(int(entry))
    return kids


def tree_cpu(pids: list[int]) -> dict[int, float]:
    """User+sys CPU seconds of each of ``pids`` and all their live descendants, by pid."""
    kids = _children()
    todo, seen, found = list(pids), set(), {}
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        try:
            found[pid] = _proc_cpu_seconds(pid)
        except (OSError, IndexError, ValueError):
            continue
        todo.extend(kids.get(pid, ()))
    return found


def named_cpu(names: tuple[str, ...]) -> float:
    """User+sys CPU seconds of every live process of the machine whose name is in ``names``."""
    total = 0.0
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                text = Path(f"/proc/{entry}/stat").read_text()
                name = text[text.index("(") + 1:text.rindex(")")]
                if name in names:
                    total += _proc_cpu_seconds(int(entry))
            except (OSError, ValueError, IndexError):
                continue
    return total


class Cluster:
    """The processes of one configuration: started, waited for, stopped, their logs read."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.dir = Path(tempfile.mkdtemp(prefix=f"president-bench-{name}-"))
        self.procs: list[subprocess.Popen] = []
        self.server_pids: list[int] = []
        self.caddy_pid: int | None = None
        self.schemas: list[str] = []
        self.logs: list[Path] = []
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"

    def schema(self) -> str:
        import psycopg
        name = "bench_" + secrets.token_hex(6)
        with psycopg.connect(PG, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f"CREATE SCHEMA {name}")
        self.schemas.append(name)
        return with_search_path(PG, name)

    def spawn(self, argv: list[str], env: dict[str, str], label: str, *, server: bool = True) -> None:
        log = self.dir / f"{label}.log"
        self.logs.append(log)
        with open(log, "wb") as out:
            proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                    start_new_session=True)
        self.procs.append(proc)
        if server:
            self.server_pids.append(proc.pid)
        else:
            self.caddy_pid = proc.pid

    def server_env(self, label: str) -> dict[str, str]:
        state = self.dir / f"state-{label}"
        state.mkdir()
        # One load generator on 127.0.0.1: the per-address and whole-server limits lifted
        # (bench_web_load.py does the same; bench_attack.py measures them).
        return dict(os.environ, PRESIDENT_BOT_DELAY="0", PRESIDENT_WEB_SECRET="bench-web-cluster",
                    XDG_STATE_HOME=str(state), PRESIDENT_WEB_TABLES_PER_MINUTE="0",
                    PRESIDENT_WEB_SERVER_RATES="0", PRESIDENT_WEB_CONNECTIONS_PER_ADDRESS="100000")

    def start(self) -> None:
        serve = [sys.executable, "-m", "president", "serve", "--no-browser"]
        if self.name == "kill9":           # --workers 3, one of them killed under load
            kind, workers = "pg-workers", 3
        else:
            kind, _, n = self.name.rpartition("-")
            workers = int(n)
        if kind == "sqlite":
            self.spawn(serve + ["--port", str(self.port)], self.server_env("1"), "server")
        elif kind == "pg":
            self.spawn(serve + ["--port", str(self.port), "--store", self.schema(),
                                "--shared-store", "--redis", REDIS], self.server_env("1"), "server")
        elif kind == "pg-workers":
            self.spawn(serve + ["--port", str(self.port), "--store", self.schema(), "--redis", REDIS,
                                "--workers", str(workers)], self.server_env("1"), "server")
        elif kind == "pg-caddy":
            store = self.schema()
            ports = [_free_port() for _ in range(workers)]
            for i, p in enumerate(ports):
                self.spawn(serve + ["--port", str(p), "--store", store, "--shared-store",
                                    "--redis", REDIS, "--trusted-proxy", "127.0.0.1"],
                           self.server_env(str(i + 1)), f"server-{i + 1}")
                # one at a time: the first makes the store's tables
                _wait_healthy(f"http://127.0.0.1:{p}", self.procs[-1])
            upstreams = " ".join(f"127.0.0.1:{p}" for p in ports)
            caddyfile = self.dir / "Caddyfile"
            caddyfile.write_text(
                "{\n\tadmin off\n\tauto_https off\n}\n"
                f"http://127.0.0.1:{self.port} {{\n"
                "\t@ws path /ws\n"
                f"\treverse_proxy @ws {upstreams} {{\n\t\tlb_policy uri_hash\n\t}}\n"
                f"\treverse_proxy {upstreams} {{\n\t\tlb_policy round_robin\n\t}}\n}}\n")
            env = dict(os.environ, XDG_DATA_HOME=str(self.dir / "caddy-data"),
                       XDG_CONFIG_HOME=str(self.dir / "caddy-config"), HOME=str(self.dir))
            self.spawn(["caddy", "run", "--config", str(caddyfile), "--adapter", "caddyfile"],
                       env, "caddy", server=False)
        else:
            raise ValueError(self.name)
        _wait_healthy(self.base, self.procs[0])
        if kind == "pg-workers":      # every process up, not only the first
            deadline = time.monotonic() + 30
            while len(_children().get(self.server_pids[0], ())) < workers:
                if time.monotonic() > deadline:
                    break
                time.sleep(0.2)
            time.sleep(1.0)

    def stop(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                try:
                    proc.send_signal(signal.SIGTERM)
                except ProcessLookupError:
                    pass
        deadline = time.monotonic() + 25
        for proc in self.procs:
            try:
                proc.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)   # its own group: workers included
                except ProcessLookupError:
                    pass
                proc.wait()
        self.drop_schemas()

    def drop_schemas(self) -> None:
        if not self.schemas:
            return
        try:
            import psycopg
            with psycopg.connect(PG, autocommit=True, connect_timeout=5) as conn:
                conn.execute("SET lock_timeout = '20s'")
                for name in self.schemas:
                    conn.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")
            self.schemas = []
        except Exception as e:     # reported, not fatal: the figures are still printed
            print(f"  could not drop schemas {self.schemas}: {e}", file=sys.stderr)

    def odd_lines(self) -> list[str]:
        """Lines of the servers' and Caddy's output that look like trouble."""
        found = []
        for log in self.logs:
            try:
                text = log.read_text(errors="replace")
            except OSError:
                continue
            for line in text.splitlines():
                if any(w in line for w in ODD_WORDS):
                    found.append(f"{log.stem}: {line.strip()[:300]}")
        return found

    def cleanup(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)


def _wait_healthy(base: str, proc: subprocess.Popen, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"the server at {base} did not start")
        time.sleep(0.1)


# ----- the load -------------------------------------------------------------------------------

class Stats:
    def __init__(self) -> None:
        self.measuring = False
        self.latencies: list[float] = []
        self.sockets = 0            # opened over the whole run (warm-up included)
        self.reconnects = 0         # a socket closed mid-match and opened again (any time)
        self.closes: dict[str, int] = {}
        self.errors: list[str] = []
        self.http_errors: list[str] = []
        self.relay_opens = 0        # relay "open" messages seen on Redis over the whole run
        self.relay_messages = 0
        self.hand_overs = 0         # "given 1" answers (a table moved to its page's process)
        self.hand_over_refused = 0  # "given 0" answers (the table stayed: its page is relayed)


async def _player(base: str, think: float, rng: random.Random, stop: asyncio.Event,
                  stats: Stats) -> None:
    """One page: make a table, open its socket (``/ws?table=<id>``, as the page does), play the
    match to its end, again. A socket closed mid-match is opened again with the same hello."""
    import httpx
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    ws_base = base.replace("http", "ws", 1)
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        while not stop.is_set():
            info = await _new_table(http, stats.http_errors)
            if info is None:
                continue
            hello = orjson.dumps({"type": "hello", "table": info["table"], "token": info["token"],
                                  "batch": True}).decode()
            url = f"{ws_base}/ws?table={urllib.parse.quote(info['table'])}"
            t0 = None
            over = False
            tries = 0
            while not stop.is_set() and not over:
                try:
                    async with connect(url, max_size=1 << 22) as ws:
                        stats.sockets += 1
                        await ws.send(hello)
                        while not stop.is_set():
                            m = orjson.loads(await ws.recv())
                            if m["type"] == "batch":
                                m = m["messages"][-1]
                            if m["type"] == "error":
                                stats.errors.append(str(m.get("message"))[:200])
                                continue
                            if m["type"] != "state":
                                continue
                            tries = 0
                            mine = m["to_act"] == m["you"]["seat"] and m["phase"] in ("play", "exchange")
                            if not mine and m["phase"] != "between-deals":
                                if m["phase"] == "match-over":
                                    over = True
                                    break
                                continue
                            if t0 is not None and stats.measuring:
                                stats.latencies.append((time.perf_counter() - t0) * 1000)
                            t0 = None
                            try:
                                await asyncio.wait_for(stop.wait(), think * rng.uniform(0.5, 1.5))
                                break
                            except asyncio.TimeoutError:
                                pass
                            out = reply_to(m, rng)
                            t0 = time.perf_counter()
                            await ws.send(orjson.dumps(out).decode())
                except (ConnectionClosed, OSError) as e:
                    if stop.is_set():
                        break
                    rcvd = getattr(e, "rcvd", None)
                    key = f"{rcvd.code} {rcvd.reason}"[:80] if rcvd is not None else type(e).__name__
                    stats.closes[key] = stats.closes.get(key, 0) + 1
                    stats.reconnects += 1
                    tries += 1
                    if tries > 5:
                        break            # give up on this table, make another
                    await asyncio.sleep(0.2 * tries)


async def _count_relay(stats: Stats, stop: asyncio.Event) -> None:
    """Count the relay's messages on Redis (every channel ``president:*to:*``)."""
    import redis.asyncio as aioredis
    client = aioredis.from_url(REDIS)
    pubsub = client.pubsub()
    await pubsub.psubscribe("president:*to:*")
    try:
        while not stop.is_set():
            message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=0.5)
            if message is None:
                continue
            data = message.get("data")
            if isinstance(data, bytes):         # over the whole run, as stats.sockets
                if data.startswith(b"open "):
                    stats.relay_opens += 1
                elif data.startswith(b"given "):
                    if data.endswith(b" 1"):
                        stats.hand_overs += 1
                    else:
                        stats.hand_over_refused += 1
            if stats.measuring:
                stats.relay_messages += 1
    finally:
        await pubsub.aclose() if hasattr(pubsub, "aclose") else await pubsub.close()
        await client.aclose() if hasattr(client, "aclose") else await client.close()


def _publish_calls() -> int:
    import redis
    client = redis.Redis.from_url(REDIS)
    try:
        return int(client.info("commandstats").get("cmdstat_publish", {}).get("calls", 0))
    finally:
        client.close()


async def _measure(cluster: Cluster, tables: int, think: float, seconds: float) -> dict:
    stop = asyncio.Event()
    stats = Stats()
    rng = random.Random(tables)
    counter = asyncio.create_task(_count_relay(stats, stop))
    tasks = []
    for _ in range(tables):
        tasks.append(asyncio.create_task(_player(cluster.base, think, random.Random(rng.random()),
                                                 stop, stats)))
        await asyncio.sleep(think / max(tables, 1))     # the starts spread over one think time
    await asyncio.sleep(2 * think)                      # warm up
    pids = cluster.server_pids
    by0, svc0 = tree_cpu(pids), named_cpu(("postgres", "redis-server"))
    caddy0 = sum(tree_cpu([cluster.caddy_pid]).values()) if cluster.caddy_pid else 0.0
    pub0, t0, me0 = _publish_calls(), time.perf_counter(), time.process_time()
    stats.measuring = True
    await asyncio.sleep(seconds)
    stats.measuring = False
    by1, svc1 = tree_cpu(pids), named_cpu(("postgres", "redis-server"))
    caddy1 = sum(tree_cpu([cluster.caddy_pid]).values()) if cluster.caddy_pid else 0.0
    pub1, t1, me1 = _publish_calls(), time.perf_counter(), time.process_time()
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    await asyncio.gather(counter, return_exceptions=True)
    wall = t1 - t0
    n = len(stats.latencies)
    per_process = sorted((by1[p] - by0.get(p, 0.0) for p in by1), reverse=True)
    cpu = sum(per_process)
    return {
        "config": cluster.name, "tables": tables, "seconds": wall, "actions": n,
        "actions_per_s": n / wall, "p50_ms": pct(stats.latencies, 50),
        "p95_ms": pct(stats.latencies, 95), "max_ms": max(stats.latencies, default=float("nan")),
        "server_cpu_s": cpu, "server_cpu_percent": 100 * cpu / wall,
        "per_process_cpu_percent": [round(100 * c / wall, 1) for c in per_process],
        "cpu_ms_per_action": 1000 * cpu / n if n else float("nan"),
        "actions_per_cpu_s": n / cpu if cpu else float("nan"),
        "pg_redis_cpu_percent": 100 * (svc1 - svc0) / wall,
        "caddy_cpu_percent": 100 * (caddy1 - caddy0) / wall,
        "load_generator_cpu_percent": 100 * (me1 - me0) / wall,
        "publish_per_s": (pub1 - pub0) / wall,
        "sockets_opened": stats.sockets, "relay_opens": stats.relay_opens,
        "relayed_share": stats.relay_opens / stats.sockets if stats.sockets else float("nan"),
        "hand_overs": stats.hand_overs, "hand_overs_refused": stats.hand_over_refused,
        "handed_over_share": stats.hand_overs / stats.sockets if stats.sockets else float("nan"),
        "relay_messages_per_action": stats.relay_messages / n if n else float("nan"),
        "reconnects": stats.reconnects, "closes": stats.closes,
        "error_messages": len(stats.errors), "error_samples": sorted(set(stats.errors))[:5],
        "http_errors": len(stats.http_errors), "http_error_samples": sorted(set(stats.http_errors))[:5],
    }


# ----- kill9: one of three processes killed under load ----------------------------------------

class KillStats:
    """What the ``kill9`` players saw, by table id; times are ``time.perf_counter()``."""

    def __init__(self) -> None:
        self.kill_at: float | None = None
        self.samples: list[tuple[str, float, float]] = []   # (table, action sent, my turn again)
        self.closed_at: dict[str, float] = {}     # first socket close after the kill
        self.back_at: dict[str, float] = {}       # first welcome after that close
        self.acked: dict[str, int] = {}           # highest table.actions acknowledging my action
        self.resumed: dict[str, int] = {}         # table.actions of the state after that welcome
        self.lost: list[tuple[str, int, int]] = []    # (table, acknowledged, resumed at)
        self.gave_up: list[str] = []
        self.sockets = 0
        self.reconnects = 0
        self.closes: dict[str, int] = {}
        self.errors: list[str] = []
        self.http_errors: list[str] = []


async def _new_table(http: Any, errors: list[str]) -> dict | None:
    """A new match table (``POST /api/tables``, as the page makes one), or ``None`` after a
    refusal or an HTTP error, noted in ``errors``, and a second's pause."""
    import httpx
    try:
        r = await http.post("/api/tables", json={"kind": "match", "preset": "house", "players": 4})
    except httpx.HTTPError as e:
        errors.append(f"{type(e).__name__}: {e}")
        await asyncio.sleep(1)
        return None
    if r.status_code != 200:
        errors.append(f"{r.status_code} {r.text[:200]}")
        await asyncio.sleep(1)
        return None
    return r.json()


async def _kill_player(base: str, think: float, rng: random.Random, stop: asyncio.Event,
                       k: KillStats) -> None:
    """``_player``, noting acknowledged action counts, closes, welcomes and every batch's
    messages; a closed socket is opened again (same URL and hello) up to 40 times."""
    import httpx
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    ws_base = base.replace("http", "ws", 1)
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        while not stop.is_set():
            info = await _new_table(http, k.http_errors)
            if info is None:
                continue
            tid = info["table"]
            hello = orjson.dumps({"type": "hello", "table": tid, "token": info["token"],
                                  "batch": True}).decode()
            url = f"{ws_base}/ws?table={urllib.parse.quote(tid)}"
            t0 = None
            acted_at = None          # table.actions of the state I acted at
            reconnecting = False     # the next welcome's state is checked against k.acked
            over = False
            tries = 0
            while not stop.is_set() and not over:
                try:
                    async with connect(url, max_size=1 << 22) as ws:
                        k.sockets += 1
                        await ws.send(hello)
                        welcomed = False
                        while not stop.is_set():
                            raw = orjson.loads(await ws.recv())
                            now = time.perf_counter()
                            m = None
                            for x in raw["messages"] if raw["type"] == "batch" else [raw]:
                                if x["type"] == "welcome":
                                    welcomed = True
                                    if tid in k.closed_at and tid not in k.back_at:
                                        k.back_at[tid] = now
                                elif x["type"] == "error":
                                    k.errors.append(str(x.get("message"))[:200])
                                elif x["type"] == "state":
                                    n = x["table"]["actions"]
                                    if welcomed and reconnecting:
                                        reconnecting = False
                                        k.resumed.setdefault(tid, n)
                                        if n < k.acked.get(tid, 0):
                                            k.lost.append((tid, k.acked[tid], n))
                                    welcomed = False
                                    if acted_at is not None and n > acted_at:
                                        k.acked[tid] = max(k.acked.get(tid, 0), n)
                                        acted_at = None
                                    m = x
                            if m is None:
                                continue
                            tries = 0
                            mine = m["to_act"] == m["you"]["seat"] and m["phase"] in ("play", "exchange")
                            if not mine and m["phase"] != "between-deals":
                                if m["phase"] == "match-over":
                                    over = True
                                    break
                                continue
                            if t0 is not None:
                                k.samples.append((tid, t0, now))
                            t0 = None
                            try:
                                await asyncio.wait_for(stop.wait(), think * rng.uniform(0.5, 1.5))
                                break
                            except asyncio.TimeoutError:
                                pass
                            out = reply_to(m, rng)
                            acted_at = m["table"]["actions"]
                            t0 = time.perf_counter()
                            await ws.send(orjson.dumps(out).decode())
                except (ConnectionClosed, OSError) as e:
                    if stop.is_set():
                        break
                    if k.kill_at is not None and tid not in k.closed_at:
                        k.closed_at[tid] = time.perf_counter()
                    rcvd = getattr(e, "rcvd", None)
                    key = f"{rcvd.code} {rcvd.reason}"[:80] if rcvd is not None else type(e).__name__
                    k.closes[key] = k.closes.get(key, 0) + 1
                    k.reconnects += 1
                    reconnecting, acted_at, t0 = True, None, None
                    tries += 1
                    if tries > 40:
                        k.gave_up.append(tid)
                        break            # give up on this table, make another
                    await asyncio.sleep(min(0.1 * tries, 1.0))


async def _measure_kill9(cluster: Cluster, tables: int, think: float, seconds: float) -> dict:
    stop = asyncio.Event()
    k = KillStats()
    rng = random.Random(tables)
    tasks = []
    for _ in range(tables):
        tasks.append(asyncio.create_task(_kill_player(cluster.base, think, random.Random(rng.random()),
                                                      stop, k)))
        await asyncio.sleep(think / max(tables, 1))
    await asyncio.sleep(2 * think)                      # warm up
    supervisor = cluster.server_pids[0]
    start = time.perf_counter()
    await asyncio.sleep(seconds / 2)
    workers = sorted(_children().get(supervisor, ()))
    if len(workers) != 3:
        raise RuntimeError(f"the supervisor has {len(workers)} children, not 3: {workers}")
    victim = random.Random().choice(workers)
    k.kill_at = time.perf_counter()
    os.kill(victim, signal.SIGKILL)
    kill_at = k.kill_at
    await asyncio.sleep(BACK_TARGET_S)
    after = sorted(_children().get(supervisor, ()))
    await asyncio.sleep(seconds / 2)
    end = time.perf_counter()
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    window_end = kill_at + BACK_TARGET_S
    affected = set(k.closed_at)
    others = [(t, a, b) for t, a, b in k.samples if t not in affected]
    before = [(b - a) * 1000 for _, a, b in others if a >= start and b < kill_at]
    outside = [(b - a) * 1000 for _, a, b in others if a >= window_end and b <= end]
    during = [(b - a) * 1000 for _, a, b in others if b >= kill_at and a < window_end]
    moved_after = [(b - a) * 1000 for t, a, b in k.samples
                   if t in affected and a >= window_end and b <= end]
    back = sorted(k.back_at[t] - kill_at for t in affected if t in k.back_at)
    never = sorted(t for t in affected if t not in k.back_at)
    unchecked = sorted(t for t in affected if t in k.back_at and t not in k.resumed)
    n_all = sum(1 for _, a, b in k.samples if a >= start and b <= end)
    return {
        "config": cluster.name, "tables": tables, "seconds": end - start, "actions": n_all,
        "actions_per_s": n_all / (end - start), "killed_pid": victim, "workers_before": workers,
        "workers_5s_after": after,
        "kill": {
            "tables_affected": len(affected), "tables_back": len(back),
            "tables_never_back": len(never), "never_back_samples": never[:5],
            "back_max_s": max(back, default=float("nan")), "back_p95_s": pct(back, 95),
            "back_p50_s": pct(back, 50),
            "tables_checked": sum(1 for t in affected if t in k.resumed),
            "tables_unchecked": len(unchecked),
            "tables_lost_actions": len({t for t, _, _ in k.lost}),
            "lost_samples": k.lost[:5],
            "others_p95_before_ms": pct(before, 95), "others_p95_after_ms": pct(outside, 95),
            "others_p95_window_ms": pct(during, 95), "others_samples_before": len(before),
            "others_samples_after": len(outside), "others_samples_window": len(during),
            "others_max_after_ms": max(outside, default=float("nan")),
            "affected_p95_after_ms": pct(moved_after, 95), "affected_samples_after": len(moved_after),
        },
        "sockets_opened": k.sockets, "reconnects": k.reconnects, "closes": k.closes,
        "gave_up": len(k.gave_up),
        "error_messages": len(k.errors), "error_samples": sorted(set(k.errors))[:5],
        "http_errors": len(k.http_errors), "http_error_samples": sorted(set(k.http_errors))[:5],
    }


def run_config(name: str, tables: int, think: float, seconds: float) -> dict:
    cluster = Cluster(name)
    try:
        cluster.start()
        measure = _measure_kill9 if name == "kill9" else _measure
        result = asyncio.run(measure(cluster, tables, think, seconds))
    except Exception as e:
        result = {"config": name, "failed": f"{type(e).__name__}: {e}"}
    finally:
        cluster.stop()
        odd = cluster.odd_lines()
        cluster.cleanup()
    result["server_log_odd_lines"] = len(odd)
    result["server_log_samples"] = odd[:8]
    return result


# ----- report ---------------------------------------------------------------------------------

def _yes(ok: bool) -> str:
    return "met" if ok else "MISSED"


def summarize(results: dict[str, dict]) -> dict:
    base = results.get("sqlite-1", {}).get("actions_per_cpu_s")
    pg = results.get("pg-1", {}).get("actions_per_cpu_s")
    for r in results.values():
        if base and "actions_per_cpu_s" in r:
            r["efficiency"] = r["actions_per_cpu_s"] / base
        if pg and "actions_per_cpu_s" in r:      # the processes' cost alone, same store
            r["efficiency_vs_pg_1"] = r["actions_per_cpu_s"] / pg
    targets = []
    for name in ("sqlite-1", "pg-1"):
        r = results.get(name)
        if r and "cpu_ms_per_action" in r:
            targets.append({"target": f"CPU per action <= {CPU_TARGET_MS:g} ms ({name})",
                            "figure": f"{r['cpu_ms_per_action']:.2f} ms",
                            "met": r["cpu_ms_per_action"] <= CPU_TARGET_MS})
    for name in ("pg-workers-2", "pg-workers-3", "pg-caddy-3"):
        r = results.get(name)
        if r and "efficiency" in r:
            targets.append({"target": f"efficiency >= {EFFICIENCY_TARGET:.0%} ({name})",
                            "figure": f"{r['efficiency']:.0%}",
                            "met": r["efficiency"] >= EFFICIENCY_TARGET})
        if r and "p95_ms" in r:
            targets.append({"target": f"p95 < {P95_TARGET_MS:g} ms ({name})",
                            "figure": f"{r['p95_ms']:.1f} ms", "met": r["p95_ms"] < P95_TARGET_MS})
    kill = results.get("kill9", {}).get("kill")
    if kill:
        targets.append({"target": "kill9: accepted actions lost (tables)",
                        "figure": str(kill["tables_lost_actions"]),
                        "met": kill["tables_lost_actions"] == 0 and kill["tables_checked"] > 0})
        targets.append({"target": f"kill9: served again <= {BACK_TARGET_S:g} s (max)",
                        "figure": f"{kill['back_max_s']:.2f} s",
                        "met": kill["tables_never_back"] == 0 and kill["back_max_s"] <= BACK_TARGET_S})
        targets.append({"target": f"kill9: served again <= {BACK_TARGET_S:g} s (p95)",
                        "figure": f"{kill['back_p95_s']:.2f} s", "met": kill["back_p95_s"] <= BACK_TARGET_S})
        before, after = kill["others_p95_before_ms"], kill["others_p95_after_ms"]
        targets.append({"target": "kill9: others' p95 after (vs before)",
                        "figure": f"{after:.1f} ms ({before:.1f})",
                        "met": after <= max(KILL_P95_FACTOR * before, before + KILL_P95_SLACK_MS)})
        r = results["kill9"]
        errs = r["error_messages"] + r["http_errors"] + r.get("server_log_odd_lines", 0) + r["gave_up"]
        targets.append({"target": "kill9: errors, odd log lines, gave up", "figure": str(errs),
                        "met": errs == 0})
    return {"configs": results, "targets": targets}


def print_report(summary: dict, args: argparse.Namespace) -> None:
    print(f"\nOffered load: {args.tables} tables, one action per table per ~{args.think:g} s, "
          f"{args.seconds:g} s measured per configuration.")
    head = (f"{'config':14} {'act/s':>7} {'p50 ms':>7} {'p95 ms':>7} {'srv CPU':>8} {'ms CPU/act':>10} "
            f"{'act/CPU-s':>9} {'eff':>5} {'vs pg-1':>7} {'PG+Redis':>8} {'caddy':>6} {'relayed':>8} "
            f"{'moved':>6} {'reconn':>6} {'errs':>5}")
    plain = any("kill" not in r for r in summary["configs"].values())
    if plain:
        print(head)
        print("-" * len(head))
    for name, r in summary["configs"].items():
        if "failed" in r:
            print(f"{name:14} FAILED: {r['failed']}")
            continue
        if "kill" in r:
            continue
        eff = r.get("efficiency", float("nan"))
        eff_pg = r.get("efficiency_vs_pg_1", float("nan"))
        print(f"{name:14} {r['actions_per_s']:7.1f} {r['p50_ms']:7.1f} {r['p95_ms']:7.1f} "
              f"{r['server_cpu_percent']:7.1f}% {r['cpu_ms_per_action']:10.2f} "
              f"{r['actions_per_cpu_s']:9.0f} {eff:5.0%} {eff_pg:7.0%} {r['pg_redis_cpu_percent']:7.1f}% "
              f"{r['caddy_cpu_percent']:5.1f}% {r['relayed_share']:8.0%} {r['handed_over_share']:6.0%} "
              f"{r['reconnects']:6d} "
              f"{r['error_messages'] + r['http_errors']:5d}")
    if plain:
        print("(srv CPU: the server processes' user+sys CPU, % of one core; PG+Redis: every postgres "
              "and redis-server process of the machine; relayed: relay 'open' messages on Redis / "
              "sockets opened, over the whole run; moved: tables handed over to the process their "
              "page reached ('given 1' on Redis) / sockets opened)")
    r = summary["configs"].get("kill9", {})
    if "kill" in r:
        kk = r["kill"]
        print(f"\nkill9 (--workers 3, pid {r['killed_pid']} of {r['workers_before']} killed; "
              f"5 s later {r['workers_5s_after']}): {r['actions_per_s']:.1f} act/s; "
              f"{kk['tables_affected']} tables' sockets closed, {kk['tables_back']} welcomed again "
              f"(from the kill: p50 {kk['back_p50_s']:.2f} s, p95 {kk['back_p95_s']:.2f} s, "
              f"max {kk['back_max_s']:.2f} s), {kk['tables_never_back']} never; "
              f"{kk['tables_checked']} checked for lost actions, {kk['tables_lost_actions']} short; "
              f"other tables' p95 {kk['others_p95_before_ms']:.1f} ms before "
              f"({kk['others_samples_before']} actions), {kk['others_p95_after_ms']:.1f} ms after "
              f"kill + {BACK_TARGET_S:g} s ({kk['others_samples_after']}), "
              f"{kk['others_p95_window_ms']:.1f} ms in the window ({kk['others_samples_window']}); "
              f"the killed process's tables' p95 after kill + {BACK_TARGET_S:g} s "
              f"{kk['affected_p95_after_ms']:.1f} ms ({kk['affected_samples_after']}); "
              f"{r['reconnects']} reconnects, {r['gave_up']} gave up, "
              f"{r['error_messages'] + r['http_errors']} errors")
    print("\nTargets:")
    for t in summary["targets"]:
        print(f"  {t['target']:40} {t['figure']:>10}  {_yes(t['met'])}")
    for name, r in summary["configs"].items():
        notes = []
        if len(r.get("per_process_cpu_percent", ())) > 1:
            notes.append(f"CPU % by process {r['per_process_cpu_percent']}")
        if r.get("closes"):
            notes.append(f"sockets closed mid-match: {r['closes']}")
        if r.get("error_samples"):
            notes.append(f"error messages: {r['error_samples']}")
        if r.get("http_error_samples"):
            notes.append(f"HTTP errors: {r['http_error_samples']}")
        if r.get("server_log_samples"):
            notes.append(f"{r['server_log_odd_lines']} odd server log lines, e.g. "
                         + " | ".join(r["server_log_samples"][:4]))
        if notes:
            print(f"  {name}: " + "; ".join(notes))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="short runs (also PRESIDENT_BENCH_QUICK=1)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--seconds", type=float, default=None, help="measured seconds per configuration")
    parser.add_argument("--tables", type=int, default=None, help="tables (players) at once")
    parser.add_argument("--think", type=float, default=1.0, help="seconds between a player's actions")
    parser.add_argument("--only", default=None, help=f"comma-separated subset of {','.join(CONFIGS)}")
    args = parser.parse_args(argv)
    quick = args.quick or os.environ.get("PRESIDENT_BENCH_QUICK") == "1"
    args.seconds = args.seconds or (3.0 if quick else 30.0)
    args.tables = args.tables or (30 if quick else 300)
    names = args.only.split(",") if args.only else list(CONFIGS)
    if "pg-caddy-3" in names and shutil.which("caddy") is None:
        print("caddy is not on the PATH: pg-caddy-3 skipped", file=sys.stderr)
        names.remove("pg-caddy-3")

    def interrupted(sig: int, frame: object) -> None:
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, interrupted)    # cleaned up as for Ctrl-C
    results: dict[str, dict] = {}
    try:
        for name in names:
            if not args.json:
                print(f"  {name}: {args.tables} tables, {args.seconds:g} s ...", file=sys.stderr, flush=True)
            results[name] = run_config(name, args.tables, args.think, args.seconds)
    except KeyboardInterrupt:
        print("interrupted: processes stopped, schemas dropped", file=sys.stderr)
        return 130
    summary = summarize(results)
    if args.json:
        print(json.dumps(summary, indent=2, default=str))
    else:
        print_report(summary, args)
    return 1 if any("failed" in r for r in results.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
