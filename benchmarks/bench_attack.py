#!/usr/bin/env python3
"""Load and attack figures of the browser game's server (issue 9, item 7). Not a test.

Everything runs against a real server on this machine: by default the script starts
``python -m president serve --no-browser --port FREE`` as a subprocess (computer delay 0 through
``PRESIDENT_BOT_DELAY=0``, its own temporary ``XDG_STATE_HOME``, so the user's key file and
ledger are never touched); ``--url-base URL`` measures a server that is already running
instead (then the server's memory and CPU cannot be read: the report says so). The client is
one asyncio process (uvloop when installed) with real websockets (the ``websockets`` package)
and a small HTTP/1.1 client of its own (asyncio streams). Each simulated player connects from
a loopback address of its own (127.77.x.y; Linux answers on all of 127.0.0.0/8), so a
per-address limit sees many people, as it would on the internet; the attacks come from
127.0.0.1, one client (``--one-address`` puts every player there too). Phases, in order:

1. **Idle tables.** K match tables made with ``POST /api/tables`` that nobody joins, then K
   that a socket joins (hello, first ``state``) and leaves: server RSS before and after each
   batch, KB per idle table (target under 100 KB), and the state folder's growth on disk.
2. **Baseline.** N human players (default 200), each at its own table: half play practice
   rounds (``kind: practice``; a round ends, the socket closes and a new round starts), half
   4-player ``house`` matches against ``simple`` computer players, and half of those drop
   their socket now and then (about one turn in 20: a clean close or an abrupt one, before or
   just after an action) and reconnect with the same table and token. Each player waits
   ``--think`` seconds (x0.5-1.5) on its turn, then sends a random action of the ``legal`` list of
   its ``state`` (``give`` in the exchange, ``play`` or ``pass``; ``next-deal`` between deals).
   Latency of an action: from sending it to receiving the ``state`` in which it is that
   player's turn again or the deal has ended (every computer reply included). p50, p95, p99,
   max, count, errors (target p95 under 100 ms).
3. **Hint spam.** The same N players while 30 more sockets, each at its own practice table
   on its turn, ask ``{"type": "hint", "level": "expert"}`` back to back (the next as soon as
   the answer arrives, after playing the hinted move: the server answers the same question
   in the same position from memory, so each ask is a new position and a new search). **Expert tables.** The same N players while 20 players drive matches
   of levels ``human, expert, expert, expert``. For each: the N players' p95 against the
   baseline (target within 2x and under 100 ms).
4. **Big bodies.** A 50 MB body to ``POST /api/tables``, streamed, once with
   ``Content-Length`` and once chunked: the HTTP status (target 413), how much was sent before
   the answer, server RSS before, after and at its peak (sampled every 50 ms).
5. **Floods.** 2,000 websockets opened at once that never send ``hello`` (held a few
   seconds: how many the server refused and how, how many it closed and with which code),
   then, with them still open, 2,000 rapid ``POST /api/tables`` from one client (status
   codes; target: refused with 429 past a per-address limit). A few control players keep
   playing throughout: their p95 during the floods shows whether the server stayed
   responsive (target under 100 ms).
6. **Scale.** 100, 300, 1,000 concurrent players (the baseline mix), p95 at each (target:
   1,000 players at p95 under 100 ms).

Server RSS (``/proc/PID/status`` VmRSS) is sampled every second during the whole run and
printed as a short series per phase (with and without the worker processes the server
starts). Per phase: CPU of the server (workers included), of this client and of every other
process on the machine (``/proc/stat``); the client's event-loop lag; and the server's
event-loop thread's share of time on a CPU, waiting for one (``/proc/PID/schedstat``: other
processes had the cores) and waiting for the disk (state D, sampled every 20 ms). The
client shares the 2 cores with the server, so when it, or other work, needs them the
latencies include those delays (the report says so). After each load phase the script
waits until the server is idle again and reports how long that took (work left over from
clients that have gone, such as queued expert searches).

``python benchmarks/bench_attack.py [--quick] [--json] [--strict] [--url-base URL]
[--players N] [--seconds S] [--think S] [--scale 100,300,1000] [--server-log FILE]``;
``PRESIDENT_BENCH_QUICK=1`` (``run.py --quick``) is ``--quick``: fewer players, shorter phases,
under about a minute. Refusals (413, 422, 429, 503, closed sockets) are outcomes, counted and
printed, never a crash. Exit status 0 (also when targets are missed; ``--strict`` makes a
missed target exit 1); 1 when the benchmark itself could not run (no server).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]

TARGET_MS = 100.0
"""p95 per action, milliseconds."""
TARGET_RATIO = 2.0
"""p95 under extra load against the baseline p95."""
TARGET_IDLE_KB = 100.0
"""Server memory per idle table, KB."""
TARGET_BODY_STATUS = 413
TARGET_FLOOD_STATUS = 429
TARGET_SCALE_PLAYERS = 1000

SPREAD_PER_ADDRESS = 50
"""Sockets per address in the flood from many addresses."""
PHASES = ("idle", "baseline", "hints", "experts", "attacks", "scale")
ANSWER_TIMEOUT = 60.0
"""Seconds an action may wait for its answer before it counts as a timeout."""
EVENT_PREFIX = '{"type":"event"'
"""``event`` messages are skipped without parsing (the server writes ``type`` first)."""
ENDED = ("between-deals", "match-over")
EXPERT_LEVELS = ["human", "expert", "expert", "expert"]
HINT = json.dumps({"type": "hint", "level": "expert"})
DROP_P = 0.05
"""Chance, per turn, that a reconnecting player drops its socket first."""

perf = time.perf_counter


def log(*args) -> None:
    print(*args, file=sys.stderr, flush=True)


def pct(values: list[float], q: float) -> float:
    """The q-th percentile (0..100) by nearest rank; nan for no values."""
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, max(0, math.ceil(q / 100 * len(s)) - 1))]


def summary(values: list[float]) -> dict:
    return {"count": len(values), "p50_ms": pct(values, 50), "p95_ms": pct(values, 95),
            "p99_ms": pct(values, 99), "max_ms": max(values) if values else float("nan")}


def fmt_ms(x: float) -> str:
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.1f} ms"


def fmt_mb(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.1f} MB"


def _clean(obj):
    """JSON without NaN (null instead)."""
    if isinstance(obj, float):
        return None if math.isnan(obj) or math.isinf(obj) else round(obj, 3)
    if isinstance(obj, dict):
        return {str(k): _clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_clean(v) for v in obj]
    return obj


# ----- the server ---------------------------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """The server under test: our subprocess (``pid`` known: RSS and CPU readable) or one
    given by ``--url-base`` (``pid`` None)."""

    def __init__(self, url_base: str | None) -> None:
        self.proc: subprocess.Popen | None = None
        self.state: Path | None = None
        self.log_file = None
        if url_base:
            self.base = url_base.rstrip("/")
        else:
            self.base = ""
        self.pid: int | None = None

    def start(self) -> None:
        if self.base:
            return
        self.state = Path(tempfile.mkdtemp(prefix="president-attack-"))
        port = _free_port()
        env = dict(os.environ, PRESIDENT_BOT_DELAY="0", XDG_STATE_HOME=str(self.state),
                   BROWSER="false")
        env.pop("PRESIDENT_WEB_ALLOW_SEED", None)
        self.log_file = (self.state / "server.log").open("w+")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "president", "serve", "--no-browser", "--port", str(port)],
            cwd=ROOT, env=env, stdout=self.log_file, stderr=subprocess.STDOUT)
        self.pid = self.proc.pid
        self.base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the server did not start: {self.log_tail()}") from None
                time.sleep(0.1)

    @property
    def host_port(self) -> tuple[str, int]:
        u = urlsplit(self.base)
        return u.hostname or "127.0.0.1", u.port or (443 if u.scheme == "https" else 80)

    @property
    def ws_url(self) -> str:
        return self.base.replace("http", "ws", 1) + "/ws"

    def alive(self) -> bool:
        return self.proc is None or self.proc.poll() is None

    def _status(self, key: str) -> float | None:
        if self.pid is None:
            return None
        try:
            for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
                if line.startswith(key):
                    return int(line.split()[1]) / 1024
        except OSError:
            return None
        return None

    def rss_mb(self) -> float | None:
        """Resident memory of the server process now (VmRSS), MB; None when not ours or gone."""
        return self._status("VmRSS:")

    def descendants(self) -> list[int]:
        """Processes the server started (worker pools), children of children included."""
        if self.pid is None:
            return []
        out, todo = [], [self.pid]
        while todo:
            pid = todo.pop()
            try:
                for task in Path(f"/proc/{pid}/task").iterdir():
                    for child in (task / "children").read_text().split():
                        out.append(int(child))
                        todo.append(int(child))
            except OSError:
                continue
        return out

    def family_rss_mb(self) -> float | None:
        """RSS of the server and every process it started (shared pages counted twice)."""
        total = self.rss_mb()
        if total is None:
            return None
        for pid in self.descendants():
            try:
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) / 1024
            except OSError:
                pass
        return total

    def hwm_mb(self) -> float | None:
        """Peak resident memory since start (VmHWM), MB."""
        return self._status("VmHWM:")

    def cpu_s(self) -> float | None:
        """CPU seconds of the server and the processes it started (worker pools)."""
        if self.pid is None:
            return None
        total = 0.0
        for i, pid in enumerate([self.pid] + self.descendants()):
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                if i == 0:
                    return None
                continue
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        return total

    def state_bytes(self) -> int | None:
        """Bytes in the server's state folder (key file, ledger, table store), log excluded."""
        if self.state is None:
            return None
        return sum(f.stat().st_size for f in self.state.rglob("*")
                   if f.is_file() and f.name != "server.log")

    def main_thread_sched(self) -> tuple[float, float] | None:
        """(seconds on a CPU, seconds waiting for one) of the server's main thread, the one
        that runs the event loop (``/proc/PID/schedstat``)."""
        if self.pid is None:
            return None
        return _schedstat(f"/proc/{self.pid}/task/{self.pid}/schedstat")

    def main_thread_state(self) -> str | None:
        """R (running or waiting for a CPU), S (sleeping: waiting for the network or a
        timer), D (waiting for the disk), ... of the server's main thread now."""
        if self.pid is None:
            return None
        try:
            return Path(f"/proc/{self.pid}/task/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            return None

    def threads(self) -> int | None:
        v = self._status("Threads:")
        return None if v is None else int(v * 1024)

    def log_tail(self, lines: int = 5) -> str:
        if self.log_file is None:
            return ""
        self.log_file.flush()
        text = (self.state / "server.log").read_text(errors="replace")
        return " / ".join(text.strip().splitlines()[-lines:])

    def log_findings(self) -> dict:
        """Error lines and tracebacks the server logged (uvicorn's warning level)."""
        if self.log_file is None:
            return {"available": False}
        self.log_file.flush()
        text = (self.state / "server.log").read_text(errors="replace").splitlines()
        kinds: Counter = Counter()
        for i, line in enumerate(text):
            if line.startswith(("ERROR", "WARNING", "CRITICAL")):
                kinds[line[:140]] += 1
            elif line.startswith("Traceback"):   # count the exception it ends with
                j = i + 1
                while j < len(text) and (text[j].startswith((" ", "\t")) or not text[j].strip()):
                    j += 1
                if j < len(text):
                    kinds["exception: " + text[j][:140]] += 1
        return {"available": True, "lines": len(text),
                "errors": sum(v for k, v in kinds.items() if not k.startswith("exception: ")),
                "exceptions": sum(v for k, v in kinds.items() if k.startswith("exception: ")),
                "top": kinds.most_common(8)}

    def keep_log(self, path: str) -> None:
        if self.log_file is not None:
            self.log_file.flush()
            shutil.copyfile(self.state / "server.log", path)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.log_file is not None:
            self.log_file.close()
        if self.state is not None:
            shutil.rmtree(self.state, ignore_errors=True)


# ----- what is measured now -----------------------------------------------------------------------

class Window:
    """The label of the measured window now (None: warming up or between phases)."""
    label: str | None = None


class Sink:
    """Latencies (ms) and outcomes of one group of clients, by the window label when each
    answer arrived (an answer that takes seconds still counts in the window it ends in; the
    ones still unanswered when a window closes are counted by :meth:`waiting`)."""

    def __init__(self, window: Window) -> None:
        self.window = window
        self.lat: dict[str, list[float]] = defaultdict(list)
        self.other: dict[str, list[float]] = defaultdict(list)   # "label/what": next-deal, join, reconnect, hint
        self.errors: dict[str, Counter] = defaultdict(Counter)
        self.outcomes: dict[str, Counter] = defaultdict(Counter)
        self.inflight: dict[int, float] = {}
        """Send time of each action still waiting for its answer, by player."""
        self.stage: dict[int, str] = {}
        """What each hint spammer is doing now (making its table, joining, asking)."""

    def waiting(self) -> dict:
        """Actions unanswered now: how many, and the oldest's age (ms)."""
        now = perf()
        ages = [(now - t) * 1000 for t in self.inflight.values()]
        return {"count": len(ages), "oldest_ms": max(ages) if ages else 0.0}

    def add(self, ms: float, label: str | None) -> None:
        if label is not None:
            self.lat[label].append(ms)

    def add_other(self, what: str, ms: float, label: str | None) -> None:
        if label is not None:
            self.other[f"{label}/{what}"].append(ms)

    def error(self, what: str) -> None:
        self.errors[self.window.label or "outside"][what] += 1

    def outcome(self, what: str) -> None:
        self.outcomes[self.window.label or "outside"][what] += 1


class Addresses:
    """A source address per simulated player, so that a per-address limit of the server
    sees many players as many people (Linux answers on all of 127.0.0.0/8). The attacks use
    127.0.0.1: one client. None when the server is not on this machine's loopback."""

    def __init__(self, server_host: str, enabled: bool) -> None:
        self.enabled = enabled and server_host.startswith("127.")
        self.n = 0

    def next(self) -> str | None:
        if not self.enabled:
            return None
        self.n += 1
        i = self.n % 60000
        return f"127.77.{i // 250}.{i % 250 + 1}"


class Ctx:
    def __init__(self, server: Server, window: Window, addresses: Addresses) -> None:
        self.server = server
        self.window = window
        self.addresses = addresses
        self.settle_limit = 60.0
        self.warmup = 2.0
        self.phase = "start"
        self.t0 = perf()
        self.rss: list[tuple[float, float, str]] = []
        self.lag: dict[str, list[float]] = defaultdict(list)


def _connect(ctx: Ctx, address: str | None = None, **kw):
    from websockets.asyncio.client import connect
    kw.setdefault("open_timeout", 30)
    kw.setdefault("close_timeout", 2)
    if address:
        kw["local_addr"] = (address, 0)
    return connect(ctx.server.ws_url, proxy=None, max_size=1 << 22, **kw)


def _classify(exc: BaseException) -> str:
    from websockets.exceptions import ConnectionClosed, InvalidStatus
    if isinstance(exc, InvalidStatus):
        return f"websocket refused: HTTP {exc.response.status_code}"
    if isinstance(exc, ConnectionClosed):
        rcvd = exc.rcvd
        return f"socket closed by server: {rcvd.code}" if rcvd else "socket closed (no close frame)"
    if isinstance(exc, (TimeoutError, asyncio.TimeoutError)):
        return "timeout"
    return type(exc).__name__


async def _read_response(reader: asyncio.StreamReader, limit: int = 1 << 20) -> tuple[int | None, str]:
    """Status and body (text, at most ``limit`` bytes) of an HTTP/1.1 answer."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split()
    status = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None
    headers = {}
    for line in lines[1:]:
        if ":" in line:
            k, v = line.split(":", 1)
            headers[k.strip().lower()] = v.strip()
    body = b""
    with contextlib.suppress(Exception):
        if "content-length" in headers:
            body = await reader.readexactly(min(limit, int(headers["content-length"])))
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            while len(body) < limit:
                size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
                if size == 0:
                    break
                body += (await reader.readexactly(size + 2))[:-2]
        else:
            body = await reader.read(limit)
    return status, body.decode("utf-8", "replace")


async def request(ctx: Ctx, method: str, path: str, body: dict | None, address: str | None,
                  timeout: float = 30) -> tuple[int | None, str]:
    """A small HTTP/1.1 request from ``address`` (a new connection each time, as a page that
    was just opened); (status, body text)."""
    host, port = ctx.server.host_port
    data = b"" if body is None else json.dumps(body).encode()
    kind = "Content-Type: application/json\r\n" if body is not None else ""
    async with asyncio.timeout(timeout):
        reader, writer = await asyncio.open_connection(
            host, port, local_addr=(address, 0) if address else None)
        try:
            writer.write(f"{method} {path} HTTP/1.1\r\nHost: {host}:{port}\r\n{kind}"
                         f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n".encode() + data)
            return await _read_response(reader)
        finally:
            writer.close()


async def create_table(ctx: Ctx, sink: Sink, body: dict, address: str | None = None) -> dict | None:
    """``POST /api/tables`` from ``address``; None (and the status counted) when refused."""
    try:
        status, text = await request(ctx, "POST", "/api/tables", body, address)
    except Exception as e:  # noqa: BLE001 - every failure is an outcome
        sink.error(f"POST /api/tables: {type(e).__name__}")
        return None
    if status != 200:
        sink.error(f"POST /api/tables: HTTP {status}")
        return None
    return json.loads(text)


# ----- players ------------------------------------------------------------------------------------

def _choose(m: dict, rng: random.Random) -> tuple[str, str]:
    """(message text, kind) of a random legal action of state ``m`` (or ``next-deal``)."""
    if m["phase"] == "between-deals":
        return '{"type":"next-deal"}', "next-deal"
    choice = rng.choice(m["legal"])
    if choice == "pass":
        return '{"type":"pass"}', "pass"
    kind = "give" if m["phase"] == "exchange" else "play"
    return json.dumps({"type": kind, "cards": choice}), kind


async def _drop(ws, rng: random.Random) -> str:
    """Close the socket, cleanly or abruptly (no close frame)."""
    if rng.random() < 0.5:
        with contextlib.suppress(Exception):
            await ws.close()
        return "clean"
    with contextlib.suppress(Exception):
        ws.transport.abort()
    return "abrupt"


async def _play_table(ctx: Ctx, sink: Sink, rng: random.Random, info: dict, think: float,
                      drop_p: float, address: str | None) -> None:
    """Play at one table until its match (or practice round) is over; with ``drop_p``, drop and
    reconnect now and then."""
    # As the page does: a play and the replies after it come as one batch message.
    hello = json.dumps({"type": "hello", "table": info["table"], "token": info["token"],
                        "batch": True})
    key = id(rng)
    try:
        await _sockets(ctx, sink, rng, think, drop_p, address, hello, key)
    finally:
        sink.inflight.pop(key, None)


async def _sockets(ctx: Ctx, sink: Sink, rng: random.Random, think: float, drop_p: float,
                   address: str | None, hello: str, key: int) -> None:
    from websockets.exceptions import ConnectionClosed
    loads = json.loads
    joins = 0
    while True:
        t_conn = perf()
        dropped = False
        ws = await _connect(ctx, address)
        try:
            await ws.send(hello)
            first = True
            pending: str | None = None
            sent_at = 0.0
            while True:
                try:
                    async with asyncio.timeout(ANSWER_TIMEOUT):
                        raw = await ws.recv()
                except TimeoutError:
                    sink.error("timeout" if pending else "timeout waiting for a state")
                    return
                if raw.startswith(EVENT_PREFIX):
                    continue
                m = loads(raw)
                typ = m.get("type")
                if typ == "batch":          # events, then the state after them
                    m = m["messages"][-1]
                    typ = m.get("type")
                if typ == "state":
                    now = perf()
                    if first:
                        sink.add_other("reconnect" if joins else "join", (now - t_conn) * 1000,
                                       ctx.window.label)
                        first = False
                    legal = m["legal"]
                    phase = m["phase"]
                    if pending is not None:
                        if not legal and phase not in ENDED:
                            continue
                        ms = (now - sent_at) * 1000
                        sink.inflight.pop(key, None)
                        if pending == "next-deal":
                            sink.add_other("next-deal", ms, ctx.window.label)
                        else:
                            sink.add(ms, ctx.window.label)
                        pending = None
                    if phase == "match-over":
                        sink.outcome("tables finished")
                        return
                    if not legal and phase != "between-deals":
                        continue
                    if drop_p and rng.random() < drop_p:
                        if rng.random() < 0.5:   # drop just after acting: that answer is lost
                            await ws.send(_choose(m, rng)[0])
                        sink.outcome(f"drops ({await _drop(ws, rng)})")
                        dropped = True
                        break
                    await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                    out, pending = _choose(m, rng)
                    sent_at = perf()
                    sink.inflight[key] = sent_at
                    await ws.send(out)
                elif typ == "error":
                    sink.error(f"server error message: {m.get('reason')}")
                    return   # should not happen (only legal actions are sent): a new table
        except ConnectionClosed as e:
            sink.error(_classify(e))
            return
        finally:
            sink.inflight.pop(key, None)
            if not dropped:
                with contextlib.suppress(Exception):
                    await ws.close()
        joins += 1
        await asyncio.sleep(rng.uniform(0, 0.5))


async def player(ctx: Ctx, sink: Sink, rng: random.Random, mode: str, think: float) -> None:
    """One human player for as long as the phase lasts: ``practice`` (rounds one after
    another), ``match``, ``match-drops`` (drops and reconnects) or ``expert`` (a match against
    three expert computer players)."""
    body = {"kind": "practice"} if mode == "practice" else {"kind": "match", "preset": "house", "players": 4}
    if mode == "expert":
        body["levels"] = EXPERT_LEVELS
    drop_p = DROP_P if mode == "match-drops" else 0.0
    address = ctx.addresses.next()
    while True:
        try:
            info = await create_table(ctx, sink, body, address)
            if info is None:
                await asyncio.sleep(1 + rng.random())
                continue
            sink.outcome("tables joined")
            await _play_table(ctx, sink, rng, info, think, drop_p, address)
        except asyncio.CancelledError:
            raise
        except Exception as e:  # noqa: BLE001 - refusals and failures are outcomes
            sink.error(_classify(e))
            await asyncio.sleep(0.5 + rng.random())


async def hint_spammer(ctx: Ctx, sink: Sink, rng: random.Random) -> None:
    """A socket at its own practice table, on its turn, asking an expert hint as soon as the
    last one is answered, playing it and asking again on its next turn: the server answers a
    question asked again in the same position from memory, so each ask is a new position and
    a new search (a new table when the round ends)."""
    from websockets.exceptions import ConnectionClosed
    address = ctx.addresses.next()
    me = id(rng)
    while True:
        try:
            sink.stage[me] = "making its table"
            info = await create_table(ctx, sink, {"kind": "practice"}, address)
            if info is None:
                await asyncio.sleep(1 + rng.random())
                continue
            sink.stage[me] = "joining"
            async with _connect(ctx, address) as ws:
                await ws.send(json.dumps({"type": "hello", "table": info["table"], "token": info["token"]}))
                while True:   # the practice round: the human leads, so the first state is its turn
                    raw = await ws.recv()
                    if not raw.startswith(EVENT_PREFIX) and json.loads(raw).get("type") == "state":
                        break
                sink.stage[me] = "asking"
                while True:
                    t0 = perf()
                    spam_key = id(rng)
                    sink.inflight[spam_key] = t0
                    await ws.send(HINT)
                    while True:
                        async with asyncio.timeout(ANSWER_TIMEOUT):
                            raw = await ws.recv()
                        if raw.startswith('{"type":"hint"') or raw.startswith('{"type":"error"'):
                            break
                    ms = (perf() - t0) * 1000
                    sink.inflight.pop(spam_key, None)
                    label = ctx.window.label
                    m = json.loads(raw)
                    if m["type"] == "error":
                        sink.error(f"server error message: {m.get('reason')}")
                        continue
                    sink.add(ms, label)
                    sink.outcome("hints answered" if m.get("cards") or m.get("pass")
                                 else f"hints without a choice: {m.get('text', '')[:40]}")
                    if m.get("cards"):
                        await ws.send(json.dumps({"type": "play", "cards": m["cards"]}))
                    elif m.get("pass"):
                        await ws.send('{"type":"pass"}')
                    else:
                        continue                  # refused ("busy"): ask again
                    if not await _next_turn(ws, sink):
                        break                     # the round is over: a new table
        except asyncio.CancelledError:
            raise
        except (ConnectionClosed, Exception) as e:  # noqa: BLE001
            sink.error(_classify(e))
            await asyncio.sleep(0.5 + rng.random())
        finally:
            sink.inflight.pop(id(rng), None)


async def _next_turn(ws, sink: Sink) -> bool:
    """Read the states after an action until it is this player's turn again (True) or the
    round or deal has ended or the action was refused (False)."""
    while True:
        async with asyncio.timeout(ANSWER_TIMEOUT):
            raw = await ws.recv()
        if raw.startswith(EVENT_PREFIX):
            continue
        m = json.loads(raw)
        if m.get("type") == "error":
            sink.error(f"server error message: {m.get('reason')}")
            return False
        if m.get("type") == "state":
            if m["phase"] in ENDED:
                return False
            if m["legal"]:
                return True


def player_mix(n: int) -> list[str]:
    """The baseline mix: half practice, a quarter matches, a quarter matches that drop."""
    modes = []
    for i in range(n):
        modes.append(("practice", "match", "practice", "match-drops")[i % 4])
    return modes


# ----- background samplers -------------------------------------------------------------------------

async def rss_sampler(ctx: Ctx) -> None:
    while True:
        rss = ctx.server.rss_mb()
        if rss is not None:
            ctx.rss.append((perf() - ctx.t0, rss, ctx.server.family_rss_mb() or rss, ctx.phase))
        await asyncio.sleep(1.0)


async def lag_monitor(ctx: Ctx, tick: float = 0.02) -> None:
    """How late the client's event loop wakes up (ms): its own delay in every latency."""
    while True:
        t = perf()
        await asyncio.sleep(tick)
        if ctx.window.label is not None:
            ctx.lag[ctx.window.label].append((perf() - t - tick) * 1000)


def _schedstat(path: str) -> tuple[float, float] | None:
    try:
        on_cpu, waiting, _ = Path(path).read_text().split()
    except (OSError, ValueError):
        return None
    return int(on_cpu) / 1e9, int(waiting) / 1e9


def machine_busy_s() -> float | None:
    """CPU seconds every core of the machine spent busy since boot (``/proc/stat``)."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    except OSError:
        return None
    ticks = [int(x) for x in fields]
    idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)
    return (sum(ticks[:8]) - idle) / os.sysconf("SC_CLK_TCK")


class Meter:
    """Server CPU, client CPU, the whole machine's CPU and wall time over a window; CPU
    figures are percent of one core."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.t = perf()
        self.me = time.process_time()
        self.cpu = server.cpu_s()
        self.machine = machine_busy_s()
        self.sched = server.main_thread_sched()
        self.my_sched = _schedstat("/proc/self/schedstat")
        self.states: Counter = Counter()
        self.sampler = asyncio.get_running_loop().create_task(self._sample())

    async def _sample(self) -> None:
        """The server main thread's state every 20 ms."""
        while True:
            state = self.server.main_thread_state()
            if state:
                self.states[state] += 1
            await asyncio.sleep(0.02)

    def stop(self) -> dict:
        wall = perf() - self.t
        cpu = self.server.cpu_s()
        machine = machine_busy_s()
        client = 100 * (time.process_time() - self.me) / wall
        out = {"seconds": wall, "client_cpu_percent": client}
        out["server_cpu_percent"] = (None if cpu is None or self.cpu is None
                                     else 100 * (cpu - self.cpu) / wall)
        out["machine_cpu_percent"] = (None if machine is None or self.machine is None
                                      else 100 * (machine - self.machine) / wall)
        out["other_cpu_percent"] = (None if out["machine_cpu_percent"] is None or out["server_cpu_percent"] is None
                                    else max(0.0, out["machine_cpu_percent"] - client - out["server_cpu_percent"]))
        self.sampler.cancel()
        sched = self.server.main_thread_sched()
        if sched is not None and self.sched is not None:
            out["server_loop_on_cpu_percent"] = 100 * (sched[0] - self.sched[0]) / wall
            out["server_loop_cpu_wait_percent"] = 100 * (sched[1] - self.sched[1]) / wall
        else:
            out["server_loop_on_cpu_percent"] = out["server_loop_cpu_wait_percent"] = None
        total = sum(self.states.values())
        out["server_loop_states"] = {k: round(100 * v / total, 1) for k, v in self.states.items()} if total else {}
        mine = _schedstat("/proc/self/schedstat")
        out["client_cpu_wait_percent"] = (None if mine is None or self.my_sched is None
                                          else 100 * (mine[1] - self.my_sched[1]) / wall)
        return out


# ----- phases ---------------------------------------------------------------------------------------

async def load_phase(ctx: Ctx, name: str, n: int, seconds: float, think: float, *,
                     spammers: int = 0, experts: int = 0, seed: int = 1) -> dict:
    """N players of the baseline mix (plus hint spammers / expert tables), ramped up, warmed
    up, then measured for ``seconds``."""
    ctx.phase = name
    rng = random.Random(seed)
    base, spam, expert = Sink(ctx.window), Sink(ctx.window), Sink(ctx.window)
    tasks: list[asyncio.Task] = []
    ramp = max(1.0, min(think, 1.0), n / 400)
    modes = player_mix(n)
    try:
        for i, mode in enumerate(modes):
            tasks.append(asyncio.create_task(player(ctx, base, random.Random(rng.random()), mode, think)))
            if i % 10 == 9:
                await asyncio.sleep(ramp * 10 / n)
        for _ in range(spammers):
            tasks.append(asyncio.create_task(hint_spammer(ctx, spam, random.Random(rng.random()))))
        for _ in range(experts):
            tasks.append(asyncio.create_task(player(ctx, expert, random.Random(rng.random()), "expert", think)))
        await asyncio.sleep(ctx.warmup)   # warm up: every player joined and acting
        meter = Meter(ctx.server)
        ctx.window.label = name
        await asyncio.sleep(seconds)
        ctx.window.label = None
        usage = meter.stop()
        waiting = {"players": base.waiting(), "spam": spam.waiting(), "expert": expert.waiting()}
        spam_stages = dict(Counter(spam.stage.values()))
    finally:
        ctx.window.label = None
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    busy_after = await settle(ctx, ctx.settle_limit)
    out = {"players": n, "server_busy_after_s": busy_after, "server_busy_wait_limit_s": ctx.settle_limit, "think_seconds": think, **summary(base.lat[name]),
           "actions_per_s": len(base.lat[name]) / usage["seconds"],
           "errors": sum(base.errors[name].values()), "error_kinds": dict(base.errors[name]),
           "unanswered_at_end": waiting["players"],
           "errors_outside_window": dict(base.errors["outside"]),
           "outcomes": dict(base.outcomes[name]),
           "next_deal": summary(base.other[f"{name}/next-deal"]),
           "join": summary(base.other[f"{name}/join"]),
           "reconnect": summary(base.other[f"{name}/reconnect"]),
           "client_loop_lag": summary(ctx.lag.get(name, [])),
           "server_rss_mb": ctx.server.rss_mb(), **usage}
    if spammers:
        out["hint_spam"] = {"sockets": spammers, **summary(spam.lat[name]),
                            "unanswered_at_end": waiting["spam"], "stages_at_end": spam_stages,
                            "errors": dict(spam.errors[name]), "outcomes": dict(spam.outcomes[name])}
    if experts:
        out["expert_tables"] = {"tables": experts, **summary(expert.lat[name]),
                                "unanswered_at_end": waiting["expert"],
                                "errors": dict(expert.errors[name]),
                                "errors_outside_window": dict(expert.errors["outside"])}
    log(f"  {name}: {n} players{f' + {spammers} hint spammers' if spammers else ''}"
        f"{f' + {experts} expert tables' if experts else ''}: {out['count']} actions, "
        f"p50 {fmt_ms(out['p50_ms'])}, p95 {fmt_ms(out['p95_ms'])}, p99 {fmt_ms(out['p99_ms'])}, "
        f"max {fmt_ms(out['max_ms'])}, errors {out['errors']}; server CPU "
        f"{_pc(out['server_cpu_percent'])}, client CPU {_pc(out['client_cpu_percent'])}, other "
        f"processes {_pc(out['other_cpu_percent'])}, client loop lag p99 {fmt_ms(out['client_loop_lag']['p99_ms'])}")
    return out


def _pc(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.0f}%"


async def settle(ctx: Ctx, limit: float) -> float | None:
    """Wait until the server (workers included) uses under a fifth of a core, at most
    ``limit`` seconds; the seconds it took (work left over from clients that have gone, such
    as queued expert searches), or None when the server's CPU cannot be read."""
    t0 = perf()
    last = ctx.server.cpu_s()
    if last is None:
        return None
    while perf() - t0 < limit:
        await asyncio.sleep(0.5)
        now = ctx.server.cpu_s()
        if now is None:
            return None
        if now - last < 0.1:
            break
        last = now
    return perf() - t0


async def idle_tables(ctx: Ctx, k: int) -> dict:
    """Memory per idle table: K match tables nobody joined, then K match tables each joined
    by a socket that took its first ``state`` and closed (a player who left); no socket open
    after. Server RSS before and after each batch (and its state folder on disk)."""
    ctx.phase = "idle tables"
    sink = Sink(ctx.window)
    body = {"kind": "match", "preset": "house", "players": 4}
    out = {}
    for joined in (False, True):
        sem = asyncio.Semaphore(16)
        made = 0
        addresses = [ctx.addresses.next() for _ in range(k // 20 + 1)]   # 20 tables an address

        # this round's semaphore, addresses and kind bound now (each round is awaited in full)
        async def one(i: int, sem: asyncio.Semaphore = sem,
                      addresses: list[str | None] = addresses, joined: bool = joined) -> None:
            nonlocal made
            async with sem:
                info = await create_table(ctx, sink, body, addresses[i // 20])
                if info is None:
                    return
                if joined:
                    try:
                        async with _connect(ctx, addresses[i // 20]) as ws:
                            await ws.send(json.dumps({"type": "hello", "table": info["table"],
                                                      "token": info["token"]}))
                            while True:
                                raw = await ws.recv()
                                if raw.startswith('{"type":"state"'):
                                    break
                    except Exception as e:  # noqa: BLE001
                        sink.error(_classify(e))
                        return
                made += 1

        await asyncio.sleep(1.0)
        before, disk0 = ctx.server.rss_mb(), ctx.server.state_bytes()
        t = perf()
        await asyncio.gather(*(one(i) for i in range(k)))
        took = perf() - t
        await asyncio.sleep(1.0)
        after, disk1 = ctx.server.rss_mb(), ctx.server.state_bytes()
        per = None if before is None or after is None or not made else (after - before) * 1024 / made
        disk = None if disk0 is None or disk1 is None or not made else (disk1 - disk0) / 1024 / made
        key = "joined_then_left" if joined else "never_joined"
        out[key] = {"asked": k, "made": made, "rss_before_mb": before, "rss_after_mb": after,
                    "kb_per_table": per, "disk_kb_per_table": disk, "seconds": took,
                    "refusals": dict(sink.errors["outside"])}
        log(f"  idle tables ({key.replace('_', ' ')}): {made}/{k} made in {took:.1f} s, RSS "
            f"{fmt_mb(before)} -> {fmt_mb(after)} ({'n/a' if per is None else f'{per:.1f} KB'} per table"
            f"{'' if disk is None else f', {disk:.1f} KB on disk'})")
    return out


class PeakSampler:
    """Server RSS every 50 ms while active (the peak of a short burst)."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.peak: float | None = None
        self.task: asyncio.Task | None = None

    async def _run(self) -> None:
        while True:
            rss = self.server.rss_mb()
            if rss is not None:
                self.peak = rss if self.peak is None else max(self.peak, rss)
            await asyncio.sleep(0.05)

    def __enter__(self):
        self.task = asyncio.create_task(self._run())
        return self

    def __exit__(self, *exc) -> None:
        self.task.cancel()


def _body_pieces(size: int, prefix: bytes, suffix: bytes, piece: int = 65536):
    """``prefix``, then ``a`` repeated, then ``suffix``: ``size`` bytes in all."""
    yield prefix
    left = size - len(prefix) - len(suffix)
    block = b"a" * piece
    while left > 0:
        yield block[:min(piece, left)]
        left -= piece
    yield suffix


async def big_body(ctx: Ctx, megabytes: int, chunked: bool) -> dict:
    """``POST /api/tables`` with a body of ``megabytes`` MB (a JSON object with one long
    string), streamed in 64 KiB pieces, with Content-Length or chunked."""
    size = megabytes * 1_000_000
    host, port = ctx.server.host_port
    prefix = b'{"kind": "match", "preset": "'
    suffix = b'"}'
    before = ctx.server.rss_mb()
    hwm_before = ctx.server.hwm_mb()
    t0 = perf()
    sent = 0
    write_error = None
    status, answer, answered_at = None, "", None
    with PeakSampler(ctx.server) as peak:
        try:
            reader, writer = await asyncio.open_connection(host, port, limit=1 << 20)
        except OSError as e:
            return {"status": None, "error": f"connect: {type(e).__name__}"}
        head = (f"POST /api/tables HTTP/1.1\r\nHost: {host}:{port}\r\n"
                f"Content-Type: application/json\r\nConnection: close\r\n"
                + ("Transfer-Encoding: chunked\r\n" if chunked else f"Content-Length: {size}\r\n")
                + "\r\n").encode()
        writer.write(head)
        response = asyncio.create_task(_read_response(reader))
        try:
            for data in _body_pieces(size, prefix, suffix):
                if response.done():
                    break
                writer.write(f"{len(data):x}\r\n".encode() + data + b"\r\n" if chunked else data)
                await writer.drain()
                sent += len(data)
            if chunked and not response.done():
                writer.write(b"0\r\n\r\n")
                await writer.drain()
        except (ConnectionError, OSError) as e:
            write_error = type(e).__name__
        try:
            async with asyncio.timeout(120):
                status, answer = await response
                answer = answer[:200]
            answered_at = perf() - t0
        except Exception as e:  # noqa: BLE001
            answer = f"no answer: {type(e).__name__}"
        writer.close()
        with contextlib.suppress(Exception):
            await writer.wait_closed()
        await asyncio.sleep(1.0)
    after = ctx.server.rss_mb()
    hwm_after = ctx.server.hwm_mb()
    out = {"megabytes": megabytes, "framing": "chunked" if chunked else "content-length",
           "status": status, "answer": answer, "bytes_sent": sent, "seconds": answered_at,
           "write_error": write_error, "rss_before_mb": before, "rss_after_mb": after,
           "rss_peak_mb": peak.peak, "hwm_before_mb": hwm_before, "hwm_after_mb": hwm_after}
    log(f"  {megabytes} MB body ({out['framing']}): HTTP {status} after {sent / 1e6:.1f} MB sent"
        f"{f' ({write_error})' if write_error else ''}, RSS {fmt_mb(before)} -> peak "
        f"{fmt_mb(peak.peak)} -> {fmt_mb(after)}; {answer[:80]!r}")
    return out


async def ws_flood_open(ctx: Ctx, n: int, per_address: int | None = None) -> tuple[list, Counter, float]:
    """Open ``n`` websockets at once; none sends ``hello``. From 127.0.0.1, or with
    ``per_address``, that many from each of ``n / per_address`` loopback addresses (a flood
    from many machines, which a per-address limit does not stop)."""
    outcomes: Counter = Counter()
    opened: list = []
    addresses = ([ctx.addresses.next() for _ in range(n // per_address + 1)]
                 if per_address and ctx.addresses.enabled else None)

    async def one(i: int) -> None:
        try:
            ws = await _connect(ctx, addresses[i // per_address] if addresses else None, open_timeout=30)
        except Exception as e:  # noqa: BLE001
            outcomes[_classify(e)] += 1
            return
        outcomes["opened"] += 1
        opened.append(ws)

    t = perf()
    await asyncio.gather(*(one(i) for i in range(n)))
    return opened, outcomes, perf() - t


async def post_flood(ctx: Ctx, n: int, concurrency: int = 50) -> dict:
    """``n`` ``POST /api/tables`` as fast as the server answers, from one client (127.0.0.1)
    over ``concurrency`` keep-alive connections. (A raw HTTP/1.1 client: httpx's pool spent
    about 25 ms of client CPU per request with hundreds of requests queued.)"""
    statuses: Counter = Counter()
    times: list[float] = []
    host, port = ctx.server.host_port
    data = json.dumps({"kind": "match", "preset": "house", "players": 4}).encode()
    request = (f"POST /api/tables HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
               f"Content-Length: {len(data)}\r\n\r\n").encode() + data
    left = n

    async def worker() -> None:
        nonlocal left
        writer = None
        try:
            while left > 0:
                left -= 1
                t = perf()
                try:
                    if writer is None:
                        reader, writer = await asyncio.open_connection(host, port)
                    writer.write(request)
                    async with asyncio.timeout(60):
                        status, _ = await _read_response(reader)
                    statuses[f"HTTP {status}"] += 1
                except Exception as e:  # noqa: BLE001 - a refused or dropped connection is an outcome
                    statuses[f"{type(e).__name__}"] += 1
                    if writer is not None:
                        writer.close()
                    writer = None
                times.append((perf() - t) * 1000)
        finally:
            if writer is not None:
                writer.close()

    t0 = perf()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    took = perf() - t0
    return {"requests": n, "concurrency": concurrency, "statuses": dict(statuses), "seconds": took,
            "per_s": n / took, "latency": summary(times)}


async def attacks(ctx: Ctx, *, body_mb: int, flood: int, posts: int, hold: float,
                  quiet: float, control_n: int, think: float) -> dict:
    """Big bodies, then the websocket and POST floods, with control players throughout."""
    ctx.phase = "attacks"
    control = Sink(ctx.window)
    rng = random.Random(99)
    tasks = [asyncio.create_task(player(ctx, control, random.Random(rng.random()), "match", think))
             for _ in range(control_n)]
    out: dict = {"control_players": control_n, "control_think_seconds": think}
    windows: dict[str, dict] = {}

    def window(name: str) -> None:
        ctx.window.label = name
        windows[name] = {"meter": Meter(ctx.server)}

    def close_window(name: str) -> None:
        ctx.window.label = None
        windows[name]["usage"] = windows[name].pop("meter").stop()

    try:
        await asyncio.sleep(2.0)
        window("quiet")
        await asyncio.sleep(quiet)
        close_window("quiet")

        ctx.phase = "big bodies"
        out["bodies"] = []
        for chunked in (False, True):
            name = f"body {'chunked' if chunked else 'content-length'}"
            window(name)
            out["bodies"].append(await big_body(ctx, body_mb, chunked))
            close_window(name)

        ctx.phase = "flood"
        waves = [("ws flood", None)]
        if ctx.addresses.enabled:
            waves.append(("ws flood, many addresses", SPREAD_PER_ADDRESS))
        out["ws_floods"] = []
        for name, spread in waves:
            rss0 = ctx.server.rss_mb()
            window(name)
            opened, outcomes, took = await ws_flood_open(ctx, flood, spread)
            rss1 = ctx.server.rss_mb()
            log(f"  {name}: {dict(outcomes)} in {took:.1f} s; RSS {fmt_mb(rss0)} -> {fmt_mb(rss1)}")
            await asyncio.sleep(hold)
            close_window(name)
            last = name == waves[-1][0]
            if last:   # the POST flood while the last wave's sockets are still open
                window("post flood")
                rss2 = ctx.server.rss_mb()
                posted = await post_flood(ctx, posts)
                await asyncio.sleep(0.5)
                rss3 = ctx.server.rss_mb()
                close_window("post flood")
                log(f"  POST flood: {posted['statuses']} in {posted['seconds']:.1f} s "
                    f"({posted['per_s']:.0f}/s); RSS {fmt_mb(rss2)} -> {fmt_mb(rss3)}")
                out["post_flood"] = {**posted, "rss_before_mb": rss2, "rss_after_mb": rss3}
            closed_by_server: Counter = Counter()
            still_open = 0
            for ws in opened:
                if ws.close_code is None:
                    still_open += 1
                else:
                    closed_by_server[str(ws.close_code)] += 1
            await asyncio.gather(*(ws.close() for ws in opened), return_exceptions=True)
            await asyncio.sleep(1.0)
            rss4 = ctx.server.rss_mb()
            out["ws_floods"].append({
                "name": name, "sockets": flood, "per_address": spread or flood,
                "outcomes": dict(outcomes), "open_seconds": took,
                "held_seconds": hold, "still_open_after_hold": still_open,
                "closed_by_server": dict(closed_by_server),
                "rss_before_mb": rss0, "rss_open_mb": rss1, "rss_after_close_mb": rss4,
                "kb_per_socket": (None if rss0 is None or rss1 is None or not outcomes["opened"]
                                  else (rss1 - rss0) * 1024 / outcomes["opened"])})
            log(f"  {name}: {still_open} of {len(opened)} still open after {hold:g} s "
                f"(closed by the server: {dict(closed_by_server) or 'none'}); RSS after closing {fmt_mb(rss4)}")
    finally:
        ctx.window.label = None
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    out["control"] = {name: {**summary(control.lat[name]), "errors": dict(control.errors[name]),
                             "client_loop_lag_p99_ms": pct(ctx.lag.get(name, []), 99),
                             **w.get("usage", {})}
                      for name, w in windows.items()}
    for name, c in out["control"].items():
        log(f"  control players, {name}: {c['count']} actions, p50 {fmt_ms(c['p50_ms'])}, "
            f"p95 {fmt_ms(c['p95_ms'])}, max {fmt_ms(c['max_ms'])}, errors {sum(c['errors'].values())}")
    return out


# ----- the run ------------------------------------------------------------------------------------

async def run(args, server: Server) -> dict:
    window = Window()
    ctx = Ctx(server, window, Addresses(server.host_port[0], args.addresses))
    ctx.settle_limit = 4.0 if args.quick else 90.0
    ctx.warmup = 1.5 if args.quick else max(2.0, args.think * 1.5)
    status, text = await request(ctx, "GET", "/api/options", None, None)
    bot_delay = json.loads(text).get("bot_delay") if status == 200 else None
    samplers = [asyncio.create_task(rss_sampler(ctx)), asyncio.create_task(lag_monitor(ctx))]
    res: dict = {"server": {"url": server.base, "own_process": server.pid is not None,
                            "bot_delay": bot_delay, "cores": os.cpu_count()},
                 "settings": {k: v for k, v in vars(args).items()}}
    try:
        # warm up: imports, the first tables and sockets
        warm = Sink(window)
        for kind in ("practice", "match"):
            address = ctx.addresses.next()
            info = await create_table(ctx, warm, {"kind": kind}, address)
            if info:
                async with _connect(ctx, address) as ws:
                    await ws.send(json.dumps({"type": "hello", "table": info["table"], "token": info["token"]}))
                    await ws.recv()
        res["server"]["rss_start_mb"] = server.rss_mb()
        log(f"server {server.base} (pid {server.pid or 'unknown'}), computer delay {bot_delay}, "
            f"RSS {fmt_mb(server.rss_mb())}")
        phases = args.phases
        if "idle" in phases:
            log("phase: idle tables")
            res["idle_tables"] = await idle_tables(ctx, args.idle_tables)
        if "baseline" in phases:
            log("phase: baseline")
            res["baseline"] = await load_phase(ctx, "baseline", args.players, args.seconds, args.think, seed=1)
        if "hints" in phases:
            log("phase: hint spam")
            res["hint_spam"] = await load_phase(ctx, "hint spam", args.players, args.seconds, args.think,
                                                spammers=args.hint_spammers, seed=2)
        if "experts" in phases:
            log("phase: expert tables")
            res["expert_tables"] = await load_phase(ctx, "expert tables", args.players, args.seconds,
                                                    args.think, experts=args.expert_tables, seed=3)
        if "attacks" in phases:
            log("phase: big bodies and floods (with control players)")
            res["attacks"] = await attacks(ctx, body_mb=args.body_mb, flood=args.flood, posts=args.posts,
                                           hold=args.hold, quiet=args.quiet, control_n=args.control,
                                           think=args.control_think)
        res["scale"] = []
        if "scale" in phases:
            log("phase: scale")
        for i, n in enumerate(args.scale if "scale" in phases else []):
            if not server.alive():
                break
            res["scale"].append(await load_phase(ctx, f"scale {n}", n, args.seconds, args.think,
                                                 seed=10 + i))
    finally:
        for t in samplers:
            t.cancel()
        await asyncio.gather(*samplers, return_exceptions=True)
    res["server"]["alive_at_end"] = server.alive()
    res["server"]["rss_end_mb"] = server.rss_mb()
    res["server"]["hwm_end_mb"] = server.hwm_mb()
    res["server"]["threads_end"] = server.threads()
    res["server"]["family_rss_end_mb"] = server.family_rss_mb()
    res["server"]["processes_end"] = 1 + len(server.descendants()) if server.pid else None
    res["rss_series"] = [{"t": round(t, 1), "mb": round(mb, 1), "with_workers_mb": round(fam, 1),
                          "phase": ph} for t, mb, fam, ph in ctx.rss]
    return res


# ----- the report ---------------------------------------------------------------------------------

def verdict(ok: bool | None) -> str:
    return "—" if ok is None else ("MET" if ok else "MISSED")


def cpu_per_action(r: dict) -> str:
    """CPU time per measured action (everything else the players did included: joins,
    reconnects, next deals): of the server's event-loop thread, which carries every table and
    socket, so at most 1,000 / that many actions a second fit in it; and of all the server's
    processes (expert workers included)."""
    if r.get("server_cpu_percent") is None or not r["count"]:
        return "n/a"
    whole = r["server_cpu_percent"] / 100 * r["seconds"] * 1000 / r["count"]
    loop = r.get("server_loop_on_cpu_percent")
    if loop is None:
        return f"{whole:.1f} ms (all server processes)"
    ms = loop / 100 * r["seconds"] * 1000 / r["count"]
    return (f"{ms:.1f} ms in the event loop (one thread: at most ~{1000 / ms:.0f} actions/s); "
            f"{whole:.1f} ms all processes")


def loop_line(r: dict) -> str:
    """The server's event-loop thread over a window: share of the time on a CPU, waiting
    for a CPU (other processes had them), and seen waiting for the disk (state D)."""
    if r.get("server_loop_on_cpu_percent") is None:
        return "n/a"
    disk = r.get("server_loop_states", {}).get("D", 0.0)
    return (f"{_pc(r['server_loop_on_cpu_percent'])} / {_pc(r['server_loop_cpu_wait_percent'])} / "
            f"{disk:.0f}% of the time")


def rows_of(res: dict) -> list[tuple[str, str, str, str]]:
    """(figure, measured, target, MET/MISSED/—) for every figure."""
    rows: list[tuple[str, str, str, str]] = []
    own = res["server"]["own_process"]

    def row(fig: str, measured: str, target: str = "", ok: bool | None = None) -> None:
        rows.append((fig, measured, target, verdict(ok)))

    def under(x, limit) -> bool | None:
        return None if x is None or (isinstance(x, float) and math.isnan(x)) else x < limit

    for key, it in res.get("idle_tables", {}).items():
        words = key.replace("_", " ")
        row(f"idle tables ({words}): memory per table",
            f"{it['kb_per_table']:.1f} KB ({it['made']} tables"
            + (f"; {it['disk_kb_per_table']:.1f} KB each on disk)" if it["disk_kb_per_table"] is not None else ")")
            if it["kb_per_table"] is not None
            else "n/a (--url-base: not our process)" if not own else "n/a",
            f"< {TARGET_IDLE_KB:.0f} KB", under(it["kb_per_table"], TARGET_IDLE_KB))

    b = res.get("baseline")
    base95 = b["p95_ms"] if b else float("nan")

    def load_rows(name: str, r: dict, compare: bool) -> None:
        u = r["unanswered_at_end"]
        row(f"{name}: actions / errors", f"{r['count']} ({r['actions_per_s']:.0f}/s) / {r['errors']}"
            + (f"; {u['count']} unanswered at the end (oldest {fmt_ms(u['oldest_ms'])})" if u["count"] else ""),
            "0 errors", r["errors"] == 0)
        row(f"{name}: p50 / p99 / max",
            f"{fmt_ms(r['p50_ms'])} / {fmt_ms(r['p99_ms'])} / {fmt_ms(r['max_ms'])}")
        if compare:
            ratio = (r["p95_ms"] / base95 if base95 and not math.isnan(base95) and r["p95_ms"] is not None
                     and not math.isnan(r["p95_ms"]) else float("nan"))
            ok = under(r["p95_ms"], TARGET_MS)
            ok = None if ok is None or math.isnan(ratio) else ok and ratio <= TARGET_RATIO
            row(f"{name}: p95 of the {r['players']} players", f"{fmt_ms(r['p95_ms'])} ({ratio:.1f}x baseline)",
                f"<= {TARGET_RATIO:g}x and < {TARGET_MS:.0f} ms", ok)
        else:
            row(f"{name}: p95", fmt_ms(r["p95_ms"]), f"< {TARGET_MS:.0f} ms", under(r["p95_ms"], TARGET_MS))
        row(f"{name}: CPU server / client / other processes; client loop lag p99",
            f"{_pc(r['server_cpu_percent'])} / {_pc(r['client_cpu_percent'])} / "
            f"{_pc(r['other_cpu_percent'])}; {fmt_ms(r['client_loop_lag']['p99_ms'])}")
        row(f"{name}: server event loop on a CPU / waiting for one / waiting for the disk",
            loop_line(r))
        row(f"{name}: server CPU per action", cpu_per_action(r))
        if r.get("server_busy_after_s") is not None and r["server_busy_after_s"] >= 1:
            row(f"{name}: server still busy after its clients left",
                f"{r['server_busy_after_s']:.0f} s" + (" (or more: the wait stopped there)"
                                                       if r["server_busy_after_s"] >= r["server_busy_wait_limit_s"]
                                                       else ""))

    if b:
        row(f"baseline: {b['players']} players, think {b['think_seconds']:g} s", "")
        load_rows("baseline", b, False)
        row("baseline: next-deal p95 / join p95 / reconnect p95",
            f"{fmt_ms(b['next_deal']['p95_ms'])} / {fmt_ms(b['join']['p95_ms'])} / "
            f"{fmt_ms(b['reconnect']['p95_ms'])} ({b['reconnect']['count']} reconnects)")
    h = res.get("hint_spam")
    if h:
        load_rows(f"hint spam ({h['hint_spam']['sockets']} sockets)", h, True)
        hs = h["hint_spam"]
        row("hint spam: expert hints answered, p50 / p95 / max",
            f"{hs['count']} ({hs['count'] / max(h['seconds'], 1e-9):.1f}/s), "
            f"{fmt_ms(hs['p50_ms'])} / {fmt_ms(hs['p95_ms'])} / {fmt_ms(hs['max_ms'])}; "
            f"{hs['unanswered_at_end']['count']} waiting at the end")
        row("hint spam: answers; errors; spammers at the end",
            (", ".join(f"{k} {v}" for k, v in hs["outcomes"].items()) or "none") + "; "
            + (", ".join(f"{k} {v}" for k, v in hs["errors"].items()) or "none") + "; "
            + ", ".join(f"{k} {v}" for k, v in hs["stages_at_end"].items()))
    e = res.get("expert_tables")
    if e:
        load_rows(f"expert tables ({e['expert_tables']['tables']})", e, True)
        et = e["expert_tables"]
        row("expert tables: their own actions, p50 / p95 / max",
            f"{et['count']}, {fmt_ms(et['p50_ms'])} / {fmt_ms(et['p95_ms'])} / {fmt_ms(et['max_ms'])}; "
            f"{et['unanswered_at_end']['count']} waiting at the end "
            f"(oldest {fmt_ms(et['unanswered_at_end']['oldest_ms'])})")
    if "attacks" in res:
        attack_rows(res["attacks"], row, under, own)
    scale_rows(res, row, under)
    server_rows(res, row, own)
    return rows


def attack_rows(a: dict, row, under, own: bool) -> None:
    for body in a["bodies"]:
        name = f"{body['megabytes']} MB body, {body['framing']}"
        if body["status"] is None:
            got = (f"no answer: the server reset the connection after {body['bytes_sent'] / 1e6:.1f} MB "
                   f"was sent, before its answer could be read ({body['answer']})")
        else:
            got = (f"{body['status']} after {body['bytes_sent'] / 1e6:.1f} MB sent"
                   + (f" ({body['write_error']})" if body.get("write_error") else ""))
        row(f"{name}: HTTP status", got, str(TARGET_BODY_STATUS), body["status"] == TARGET_BODY_STATUS)
        if own:
            grew = (body["rss_peak_mb"] or 0) - (body["rss_before_mb"] or 0)
            row(f"{name}: server RSS before / peak / after",
                f"{fmt_mb(body['rss_before_mb'])} / {fmt_mb(body['rss_peak_mb'])} / {fmt_mb(body['rss_after_mb'])}",
                "peak grows < 10 MB", grew < 10)
        else:
            row(f"{name}: server RSS", "n/a (--url-base: not our process)")
    q = a["control"].get("quiet", {})
    row(f"control players ({a['control_players']}, think {a['control_think_seconds']:g} s): quiet p95",
        fmt_ms(q.get("p95_ms")), f"< {TARGET_MS:.0f} ms", under(q.get("p95_ms"), TARGET_MS))
    for name, c in a["control"].items():
        if name == "quiet":
            continue
        row(f"control players during {name}: p95 / max / errors",
            f"{fmt_ms(c['p95_ms'])} / {fmt_ms(c['max_ms'])} / {sum(c['errors'].values())} ({c['count']} actions)",
            f"< {TARGET_MS:.0f} ms", under(c["p95_ms"], TARGET_MS) if c["count"] else False)
        row("  ... CPU server / client / others; client loop lag p99",
            f"{_pc(c.get('server_cpu_percent'))} / {_pc(c.get('client_cpu_percent'))} / "
            f"{_pc(c.get('other_cpu_percent'))}; {fmt_ms(c['client_loop_lag_p99_ms'])}")
        row("  ... server event loop on a CPU / waiting for one / disk", loop_line(c))
    for w in a["ws_floods"]:
        src = ("one address" if w["per_address"] >= w["sockets"]
               else f"{w['per_address']} per address")
        head = f"websocket flood ({w['sockets']} without hello, {src})"
        row(f"{head}: outcomes",
            ", ".join(f"{k} {v}" for k, v in w["outcomes"].items()) + f" in {w['open_seconds']:.1f} s")
        if w["outcomes"].get("opened"):
            row(f"{head}: still open after {w['held_seconds']:g} s / closed by server",
                f"{w['still_open_after_hold']} / {w['closed_by_server'] or 'none'}",
                "idle sockets closed (hello timeout)", w["still_open_after_hold"] == 0)
        if own:
            row(f"{head}: server RSS before / open / after closing",
                f"{fmt_mb(w['rss_before_mb'])} / {fmt_mb(w['rss_open_mb'])} / {fmt_mb(w['rss_after_close_mb'])}"
                + (f" ({w['kb_per_socket']:.0f} KB per socket opened, refused ones included)"
                   if w["kb_per_socket"] is not None else ""))
    p = a["post_flood"]
    refused = sum(v for k, v in p["statuses"].items() if k != "HTTP 200")
    row(f"POST flood ({p['requests']} from one client): statuses",
        ", ".join(f"{k} x{v}" for k, v in sorted(p["statuses"].items())) +
        f" in {p['seconds']:.1f} s ({p['per_s']:.0f}/s, p95 {fmt_ms(p['latency']['p95_ms'])})",
        f"refused with {TARGET_FLOOD_STATUS} past a limit", p["statuses"].get(f"HTTP {TARGET_FLOOD_STATUS}", 0) > 0)
    row("POST flood: refused (any status)", f"{refused} of {p['requests']}")
    if own:
        row("POST flood: server RSS before / after", f"{fmt_mb(p['rss_before_mb'])} / {fmt_mb(p['rss_after_mb'])}")



def scale_rows(res: dict, row, under) -> None:
    for s in res["scale"]:
        n = s["players"]
        target = n >= TARGET_SCALE_PLAYERS
        row(f"scale {n} players: p95 (p50, max)",
            f"{fmt_ms(s['p95_ms'])} ({fmt_ms(s['p50_ms'])}, {fmt_ms(s['max_ms'])}), {s['count']} actions, "
            f"{s['actions_per_s']:.0f}/s, {s['errors']} errors",
            f"< {TARGET_MS:.0f} ms" + (" (the target level)" if target else ""),
            under(s["p95_ms"], TARGET_MS) and s["errors"] == 0 if target else under(s["p95_ms"], TARGET_MS))
        row(f"scale {n} players: CPU server / client / others; loop lag p99; RSS",
            f"{_pc(s['server_cpu_percent'])} / {_pc(s['client_cpu_percent'])} / "
            f"{_pc(s['other_cpu_percent'])}; {fmt_ms(s['client_loop_lag']['p99_ms'])}; "
            f"{fmt_mb(s['server_rss_mb'])}")
        row(f"scale {n} players: server event loop on a CPU / waiting for one / disk", loop_line(s))
        row(f"scale {n} players: server CPU per action; offered", f"{cpu_per_action(s)}; "
            f"~{n / s['think_seconds']:.0f} actions/s at think {s['think_seconds']:g} s")
    if res["scale"] and max(s["players"] for s in res["scale"]) < TARGET_SCALE_PLAYERS:
        row(f"scale: {TARGET_SCALE_PLAYERS} players", "not run (--quick, --scale or --phases)",
            f"p95 < {TARGET_MS:.0f} ms")


def server_rows(res: dict, row, own: bool) -> None:
    srv = res["server"]
    row("server alive at the end", "yes" if srv["alive_at_end"] else "NO: it exited", "yes", srv["alive_at_end"])
    if own:
        row("server RSS start / end / peak (VmHWM)",
            f"{fmt_mb(srv['rss_start_mb'])} / {fmt_mb(srv['rss_end_mb'])} / {fmt_mb(srv['hwm_end_mb'])}"
            f", {srv['threads_end']} threads")
        row("server RSS at the end with the processes it started",
            f"{fmt_mb(srv['family_rss_end_mb'])} ({srv['processes_end']} processes)")
    lf = res.get("server_log", {})
    if lf.get("available"):
        row("server log: error/warning lines / exceptions logged", f"{lf['errors']} / {lf['exceptions']}",
            "0 exceptions", lf["exceptions"] == 0)


def print_report(res: dict) -> None:
    rows = rows_of(res)
    w1 = max(len(r[0]) for r in rows)
    w2 = min(70, max(len(r[1]) for r in rows))
    w3 = max(len(r[2]) for r in rows)
    srv = res["server"]
    print(f"Load and attack figures of {srv['url']} ({'our own server process' if srv['own_process'] else '--url-base'}; "
          f"computer delay {srv['bot_delay']}; {srv['cores']} cores shared by the server and this client)")
    print()
    print(f"{'figure':<{w1}}  {'measured':<{w2}}  {'target':<{w3}}  verdict")
    print(f"{'-' * w1}  {'-' * w2}  {'-' * w3}  -------")
    for fig, measured, target, v in rows:
        if not measured and not target:
            print(f"{fig}")
            continue
        print(f"{fig:<{w1}}  {measured:<{w2}}  {target:<{w3}}  {v if v != '—' else ''}")
    print()
    # errors seen, by phase
    for key in ("baseline", "hint_spam", "expert_tables"):
        kinds = res.get(key, {}).get("error_kinds")
        if kinds:
            print(f"errors, {key.replace('_', ' ')}: {kinds}")
    for s in res["scale"]:
        if s["error_kinds"]:
            print(f"errors, scale {s['players']}: {s['error_kinds']}")
    for body in res.get("attacks", {}).get("bodies", []):
        print(f"{body['framing']} body answer: {body['answer'][:120]!r}")
    lf = res.get("server_log", {})
    if lf.get("available") and lf["top"]:
        print("server log, most frequent error/warning lines:")
        for line, n in lf["top"]:
            print(f"  {n:5d}  {line}")
    # RSS series
    series = res["rss_series"]
    if series:
        print()
        print("Server RSS (MB, the server process; 'all' adds the processes it started), sampled every "
              "second; per phase up to 12 evenly spaced samples:")
        phases: dict[str, list] = {}
        for s in series:
            phases.setdefault(s["phase"], []).append(s)
        for ph, ss in phases.items():
            step = max(1, math.ceil(len(ss) / 12))
            pick = ss[::step]
            print(f"  {ph:<14} t={ss[0]['t']:5.0f}-{ss[-1]['t']:5.0f} s  min {min(x['mb'] for x in ss):6.1f}"
                  f"  max {max(x['mb'] for x in ss):6.1f} (all {max(x['with_workers_mb'] for x in ss):6.1f}):  "
                  + " ".join(f"{x['mb']:.0f}" for x in pick))
    else:
        print("Server RSS: not available (--url-base: the server is not this script's process).")
    # client note
    named = [(name, res[key]) for name, key in (("baseline", "baseline"), ("hint spam", "hint_spam"),
                                                 ("expert tables", "expert_tables")) if key in res]
    named += [(f"scale {s['players']}", s) for s in res["scale"]]
    print()
    if named:
        busiest = max((r for _, r in named), key=lambda r: r["client_cpu_percent"])
        print(f"The client (this one asyncio process{', uvloop' if res['settings'].get('uvloop') else ''}) "
              f"shares the machine's {srv['cores']} cores with the server; its busiest load phase used "
              f"{busiest['client_cpu_percent']:.0f}% of a core ({busiest['players']} players).")
        if busiest["client_cpu_percent"] > 85:
            print("  The client saturated a core there: its own delays (see the client loop lag) are "
                  "inside those latencies, so they overstate the server's.")
    others = [(r["other_cpu_percent"], r["players"], name) for name, r in named
              if r.get("other_cpu_percent") is not None]
    if others:
        worst = max(others)
        print(f"Other processes on this machine (neither the server nor this client) used up to "
              f"{worst[0]:.0f}% of a core during a load phase ({worst[2]}).")
        if worst[0] > 25:
            print("  The machine was shared with other work: the latencies where they ran are "
                  "pessimistic; compare runs made on an idle machine.")
    print("Latency = send of a play/pass/give to the state where it is that player's turn again or "
          "the deal ended (computer replies included); measured on the client, so it includes "
          "the client's own event-loop delays.")


def parse(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="short run (also PRESIDENT_BENCH_QUICK=1)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON (progress on stderr)")
    p.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    p.add_argument("--url-base", default=None, help="a running server (no RSS or CPU figures then)")
    p.add_argument("--players", type=int, default=None, help="baseline players (default 200; quick 40)")
    p.add_argument("--seconds", type=float, default=None, help="measured seconds per load phase (default 15; quick 3)")
    p.add_argument("--think", type=float, default=1.0, help="seconds a player waits on its turn, x0.5-1.5 (default 1)")
    p.add_argument("--scale", default=None, help="player counts of the scale ramp (default 100,300,1000; quick 50,100,200)")
    p.add_argument("--hint-spammers", type=int, default=30, help="sockets asking expert hints back to back (default 30)")
    p.add_argument("--expert-tables", type=int, default=20, help="matches against three expert players (default 20)")
    p.add_argument("--idle-tables", type=int, default=None, help="tables per idle-memory batch (default 2000; quick 300)")
    p.add_argument("--body-mb", type=int, default=50, help="size of the big request bodies (default 50 MB)")
    p.add_argument("--flood", type=int, default=None, help="websockets without hello (default 2000; quick 500)")
    p.add_argument("--posts", type=int, default=None, help="rapid POST /api/tables (default 2000; quick 500)")
    p.add_argument("--hold", type=float, default=None, help="seconds the flood sockets are held (default 10; quick 2)")
    p.add_argument("--control", type=int, default=10, help="control players during the attacks (default 10)")
    p.add_argument("--control-think", type=float, default=0.25, help="their think time (default 0.25 s)")
    p.add_argument("--no-uvloop", dest="uvloop", action="store_false", help="the client on asyncio's own loop")
    p.add_argument("--phases", default=",".join(PHASES),
                   help=f"which phases to run, comma-separated (default all: {','.join(PHASES)})")
    p.add_argument("--server-log", default=None, metavar="FILE",
                   help="keep a copy of our server's output (warnings, tracebacks) in FILE")
    p.add_argument("--one-address", dest="addresses", action="store_false",
                   help="every player from 127.0.0.1 (default: a loopback address of its own)")
    args = p.parse_args(argv)
    args.phases = [x.strip() for x in args.phases.split(",") if x.strip()]
    unknown = set(args.phases) - set(PHASES)
    if unknown:
        p.error(f"no phase {', '.join(sorted(unknown))}; phases are {', '.join(PHASES)}")
    args.quick = args.quick or os.environ.get("PRESIDENT_BENCH_QUICK") == "1"
    q = args.quick
    args.players = args.players or (40 if q else 200)
    args.seconds = args.seconds or (3.0 if q else 15.0)
    args.scale = [int(x) for x in (args.scale or ("50,100,200" if q else "100,300,1000")).split(",") if x.strip()]
    args.idle_tables = args.idle_tables or (300 if q else 2000)
    args.flood = args.flood or (500 if q else 2000)
    args.posts = args.posts or (500 if q else 2000)
    args.hold = args.hold if args.hold is not None else (2.0 if q else 10.0)
    args.quiet = 1.5 if q else 4.0
    if args.uvloop:
        try:
            import uvloop  # noqa: F401
        except ImportError:
            args.uvloop = False
    return args


def missed(rows) -> list[str]:
    return [r[0] for r in rows if r[3] == "MISSED"]


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    sys.path.insert(0, str(ROOT))
    server = Server(args.url_base)
    try:
        server.start()
    except RuntimeError as e:
        log(f"bench_attack: {e}")
        return 1
    started = perf()
    try:
        if args.uvloop:
            import uvloop
            with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
                res = runner.run(run(args, server))
        else:
            res = asyncio.run(run(args, server))
        res["server_log"] = server.log_findings()
        if args.server_log:
            server.keep_log(args.server_log)
    except Exception as e:  # noqa: BLE001
        log(f"bench_attack: the run failed: {type(e).__name__}: {e}; server log: {server.log_tail()}")
        return 1
    finally:
        server.stop()
    res["seconds"] = perf() - started
    rows = rows_of(res)
    res["rows"] = [{"figure": f, "measured": m, "target": t, "verdict": v} for f, m, t, v in rows]
    res["missed"] = missed(rows)
    if args.json:
        print(json.dumps(_clean(res), indent=2))
    else:
        print_report(res)
        print(f"\n{len(res['missed'])} targets missed; the run took {res['seconds']:.0f} s.")
    return 1 if (args.strict and res["missed"]) else 0


if __name__ == "__main__":
    sys.exit(main())
