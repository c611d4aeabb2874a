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
6. **floods50.** Three floods from 50 loopback addresses (127.0.0.2 ... 127.0.0.51,
   ``--flood-addresses``), each address within the server's per-address limits, run by a
   worker process of their own (so the attack's CPU is not in the event loop that times the
   players), while 20 control players (``--flood-control``) play at their own tables: (a) 150
   websockets from each address opened at once that never say hello, held 12 s (past the
   hello timer; ``--flood-per-address``, ``--flood-hold``): accepted, refused (HTTP status and
   reason), closed by the server (code, when); (b) 50 sockets per address sending hellos with
   random table ids and tokens back to back, reopened when closed, for 10 s
   (``--flood-hello-sockets``, ``--flood-seconds``); (c) 30 ``POST /api/tables`` from each
   address at once (``--flood-tables``), then a wait. Per sub-flood the control players' p50,
   p95, max and errors in its window, and p95 against a quiet window just before the floods
   (target within 2x).
7. **store.** The server on a store it cannot keep: a server plays 300 match tables
   (``--store-tables``) and is killed (``kill -9``); a restart on that folder as the kill left
   it (accepted actions lost: target 0); then, on copies whose write-ahead logs are folded in,
   (a) the state folder read-only (0500, files 0400; as root the server runs without the
   capabilities that ignore file modes, or the case says "skipped: root"), (b) the tables
   file truncated to 0 bytes, (c) to half, (d) its 100-byte header overwritten, (e) 4 KiB of
   garbage over its middle pages, (f) both SQLite files' headers overwritten: did a server
   start on it, its exit code and ``president serve:`` line (target: it refuses, exit != 0,
   within 30 s). After (f), both files deleted (a fresh store, the key file kept) and a hello
   with an early sealed ``snapshot`` of a table: rebuilt from it (a rewind) or refused; and
   the same with ``--recover-saved-matches``.
8. **slow-write.** A server started through a launcher that holds one table's store write
   (``TableStore.append_batches``) while a flag file exists: the flag held 3 s
   (``--write-hold``) while 20 control players play: their p95 against a quiet window just
   before (target within 2x), the victim's own latency (about the hold). Then another process
   holds ``BEGIN IMMEDIATE`` on the tables file for 2 s (``--lock-hold``): the control
   players' p95 (a stall is expected: SQLite locks the whole file) and failures. The store
   file is read beside the server after each (actions the pages were shown that are not on
   disk), then ``kill -9``, a restart and a hello to every table: actions lost (target 0).
9. **Scale.** 100, 300, 1,000 concurrent players (the baseline mix), p95 at each (target:
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
[--players N] [--seconds S] [--think S] [--scale 100,300,1000] [--server-log FILE]
[--phases floods50,store,slow-write] ...``; ``PRESIDENT_BENCH_QUICK=1`` (``run.py --quick``) is
``--quick``: fewer players, shorter phases (floods50 with 20 bad-hello sockets per address and
3 s windows, the store from 60 tables), a few minutes in all. Refusals (413, 422, 429, 503, closed sockets) are outcomes, counted and
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
HERE = Path(__file__).resolve()

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
PHASES = ("idle", "baseline", "hints", "experts", "attacks", "floods50", "store", "slow-write",
          "scale")
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

    def __init__(self, url_base: str | None, *, state: Path | None = None,
                 runner: list[str] | None = None, extra_args: tuple[str, ...] = (),
                 keep_state: bool = False, preexec=None, log_name: str = "server.log") -> None:
        """``state``: the ``XDG_STATE_HOME`` to use (default a new temporary folder, removed
        by :meth:`stop` unless ``keep_state``); ``runner``: the command before ``serve ...``
        (default ``python -m president``); ``preexec``: run in the child before it starts
        (the ``store`` phase drops root's power to write anywhere with it)."""
        self.proc: subprocess.Popen | None = None
        self.state: Path | None = state
        self.log_file = None
        self.log_name = log_name
        self.runner = runner or [sys.executable, "-m", "president"]
        self.extra_args = tuple(extra_args)
        self.keep_state = keep_state
        self.preexec = preexec
        if url_base:
            self.base = url_base.rstrip("/")
        else:
            self.base = ""
        self.pid: int | None = None

    def start(self) -> None:
        if self.base:
            return
        got = self.launch()
        if not got["started"]:
            raise RuntimeError(f"the server did not start: {self.log_tail()}")

    def launch(self, wait: float = 30.0) -> dict:
        """Start our server process and wait until it listens, it exits, or ``wait``
        seconds pass: ``{"started", "exit_code", "seconds"}`` (a server still silent then is
        killed, ``exit_code`` None)."""
        if self.state is None:
            self.state = Path(tempfile.mkdtemp(prefix="president-attack-"))
        port = _free_port()
        env = dict(os.environ, PRESIDENT_BOT_DELAY="0", XDG_STATE_HOME=str(self.state),
                   BROWSER="false")
        env.pop("PRESIDENT_WEB_ALLOW_SEED", None)
        self.log_file = (self.state / self.log_name).open("w+")
        t0 = time.monotonic()
        self.proc = subprocess.Popen(
            [*self.runner, "serve", "--no-browser", "--port", str(port), *self.extra_args],
            cwd=ROOT, env=env, stdout=self.log_file, stderr=subprocess.STDOUT,
            preexec_fn=self.preexec)
        self.pid = self.proc.pid
        self.base = f"http://127.0.0.1:{port}"
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    return {"started": True, "exit_code": None, "seconds": time.monotonic() - t0}
            except OSError:
                code = self.proc.poll()
                if code is not None:
                    return {"started": False, "exit_code": code, "seconds": time.monotonic() - t0}
                if time.monotonic() - t0 > wait:
                    self.kill()
                    return {"started": False, "exit_code": None, "seconds": time.monotonic() - t0}
                time.sleep(0.1)

    def kill(self) -> None:
        """``kill -9`` (nothing flushed, nothing closed: a crash)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def log_text(self) -> str:
        if self.log_file is None:
            return ""
        self.log_file.flush()
        return (self.state / self.log_name).read_text(errors="replace")

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
                   if f.is_file() and not f.name.endswith(".log"))

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
        return " / ".join(self.log_text().strip().splitlines()[-lines:])

    def log_findings(self) -> dict:
        """Error lines and tracebacks the server logged (uvicorn's warning level)."""
        if self.log_file is None:
            return {"available": False}
        text = self.log_text().splitlines()
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
            shutil.copyfile(self.state / self.log_name, path)

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
        if self.state is not None and not self.keep_state:
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
        self.track: dict[str, dict] | None = None
        """When a dict: table id -> ``{"token", "actions"}``, the most accepted actions
        (``table.actions``) a ``state`` of that table showed (to count losses after a crash)."""

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
    return await raw_request(host, port, method, path, body, address, timeout)


async def raw_request(host: str, port: int, method: str, path: str, body: dict | None,
                      address: str | None, timeout: float = 30) -> tuple[int | None, str]:
    """:func:`request` to ``host:port``."""
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
    track = sink.track
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
                    if track is not None:
                        seen = track.get(m["table"]["id"])
                        if seen is not None and m["table"]["actions"] > seen["actions"]:
                            seen["actions"] = m["table"]["actions"]
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


async def player(ctx: Ctx, sink: Sink, rng: random.Random, mode: str, think: float,
                 on_table=None) -> None:
    """One human player for as long as the phase lasts: ``practice`` (rounds one after
    another), ``match``, ``match-drops`` (drops and reconnects) or ``expert`` (a match against
    three expert computer players). ``on_table(info)`` is called with each new table."""
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
            if sink.track is not None:
                sink.track[info["table"]] = {"token": info["token"], "actions": 0}
            if on_table is not None:
                on_table(info)
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


# ----- floods from many addresses (floods50) -------------------------------------------------------

def flood_addresses(n: int) -> list[str]:
    """127.0.0.2, 127.0.0.3, ...: the addresses of the ``floods50`` attackers (``n`` <= 250)."""
    return [f"127.0.0.{i}" for i in range(2, 2 + min(n, 250))]


def _refusal_label(exc: BaseException) -> str:
    """An outcome label for a failed websocket open: the HTTP status and the refusal's own
    ``error`` and first words (the HTTP layer's 429 and the app's 429 say different things)."""
    from websockets.exceptions import ConnectionClosed, InvalidStatus
    if isinstance(exc, ConnectionClosed):
        return (f"closed during the opening handshake ({type(exc).__name__}, "
                f"{f'code {exc.rcvd.code}' if exc.rcvd else 'no close frame'})")
    if isinstance(exc, InvalidStatus):
        status = exc.response.status_code
        words = ""
        with contextlib.suppress(Exception):
            body = json.loads(exc.response.body or b"{}")
            words = f" {body.get('error', '')}: {' '.join(str(body.get('message', '')).split()[:6])}..."
        return f"refused: HTTP {status}{words}"
    return _classify(exc)


async def _worker_no_hello(spec: dict) -> dict:
    """``per_address`` websockets from each address, all at once, none saying hello; held
    ``hold`` seconds after the last one opened; then how many the server had closed and when."""
    from websockets.asyncio.client import connect
    outcomes: Counter = Counter()
    opened: list = []
    closed_after: list[float] = []
    watchers: list[asyncio.Task] = []

    async def watch(ws, t_open: float) -> None:
        await ws.wait_closed()
        closed_after.append(perf() - t_open)

    async def one(address: str) -> None:
        try:
            ws = await connect(spec["ws_url"], proxy=None, local_addr=(address, 0), open_timeout=30,
                               close_timeout=1, ping_interval=None, max_size=1 << 20)
        except Exception as e:  # noqa: BLE001 - a refusal is an outcome
            outcomes[_refusal_label(e)] += 1
            return
        outcomes["accepted"] += 1
        opened.append(ws)
        watchers.append(asyncio.create_task(watch(ws, perf())))

    def count() -> Counter:
        closed: Counter = Counter()
        for ws in opened:
            if ws.close_code is not None:
                closed[str(ws.close_code)] += 1
        return closed

    t0 = perf()
    await asyncio.gather(*(one(a) for a in spec["addresses"] for _ in range(spec["per_address"])))
    open_s = perf() - t0
    await asyncio.sleep(spec["hold"])
    in_hold = count()
    print("held", flush=True)                 # the measured window ends here
    t1 = perf()
    while perf() - t1 < spec["drain"] and sum(count().values()) < len(opened):
        await asyncio.sleep(0.1)
    closed = count()
    after = sorted(closed_after)
    for ws in opened:   # ours go at once (no close handshake)
        with contextlib.suppress(Exception):
            ws.transport.abort()
    for t in watchers:
        t.cancel()
    return {"asked": len(spec["addresses"]) * spec["per_address"], "outcomes": dict(outcomes),
            "open_seconds": open_s, "held_seconds": spec["hold"],
            "closed_in_window": dict(in_hold), "drain_limit_s": spec["drain"],
            "closed_by_server": dict(closed), "still_open": len(opened) - sum(closed.values()),
            "closed_after_s": {"p50": pct(after, 50), "min": after[0] if after else None,
                               "max": after[-1] if after else None}}


async def _worker_bad_hellos(spec: dict) -> dict:
    """From each address ``sockets`` sockets, each sending hellos with random table ids and
    tokens back to back (the next as soon as the answer arrives), reopened when the server
    closes it, for ``seconds``."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed
    stats: Counter = Counter()
    replies: Counter = Counter()
    closes: Counter = Counter()
    refusals: Counter = Counter()
    end = perf() + spec["seconds"]
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

    async def loop(address: str, rng: random.Random) -> None:
        while perf() < end:
            try:
                ws = await connect(spec["ws_url"], proxy=None, local_addr=(address, 0),
                                   open_timeout=30, close_timeout=1, ping_interval=None)
            except Exception as e:  # noqa: BLE001
                refusals[_refusal_label(e)] += 1
                await asyncio.sleep(0.1)
                continue
            stats["sockets opened"] += 1
            try:
                while perf() < end:
                    await ws.send(json.dumps({"type": "hello", "table": "".join(rng.choices(alphabet, k=22)),
                                              "token": "".join(rng.choices(alphabet, k=22))}))
                    stats["hellos sent"] += 1
                    async with asyncio.timeout(30):
                        raw = await ws.recv()
                    m = json.loads(raw)
                    replies[m.get("reason") or m.get("type")] += 1
            except ConnectionClosed as e:
                closes[str(e.rcvd.code) if e.rcvd else "no close frame"] += 1
            except TimeoutError:
                stats["answers over 30 s"] += 1
            except Exception as e:  # noqa: BLE001
                stats[type(e).__name__] += 1
            finally:
                with contextlib.suppress(Exception):
                    ws.transport.abort()

    t0 = perf()
    rng = random.Random(7)
    await asyncio.gather(*(loop(a, random.Random(rng.random())) for a in spec["addresses"]
                           for _ in range(spec["sockets"])))
    took = perf() - t0
    return {"sockets_per_address": spec["sockets"], "seconds": took, **dict(stats),
            "hellos_per_s": stats["hellos sent"] / took, "replies": dict(replies),
            "closed_by_server": dict(closes), "refused": dict(refusals)}


async def _worker_tables(spec: dict) -> dict:
    """``tables`` ``POST /api/tables`` from each address, all at once; then ``seconds`` in
    all before it ends."""
    statuses: Counter = Counter()
    times: list[float] = []
    body = {"kind": "match", "preset": "house", "players": 4}

    async def one(address: str) -> None:
        t = perf()
        try:
            status, text = await raw_request(spec["host"], spec["port"], "POST", "/api/tables", body,
                                             address, timeout=60)
            label = f"HTTP {status}"
            if status != 200:
                with contextlib.suppress(Exception):
                    label += f" {json.loads(text).get('error')}"
        except Exception as e:  # noqa: BLE001
            label = type(e).__name__
        statuses[label] += 1
        times.append((perf() - t) * 1000)

    t0 = perf()
    await asyncio.gather(*(one(a) for a in spec["addresses"] for _ in range(spec["tables"])))
    posted = perf() - t0
    await asyncio.sleep(max(0.0, spec["seconds"] - posted))
    return {"asked": len(spec["addresses"]) * spec["tables"], "statuses": dict(statuses),
            "post_seconds": posted, "latency": summary(times)}


FLOOD_WORKERS = {"no-hello": _worker_no_hello, "bad-hellos": _worker_bad_hellos,
                 "tables": _worker_tables}


def flood_worker_main(spec_text: str) -> int:
    """``--flood-worker SPEC``: one sub-flood in a process of its own (so the attack's own
    CPU does not sit in the event loop that times the control players); prints ``ready``,
    then runs, then prints its outcome as one JSON line."""
    import resource
    spec = json.loads(spec_text)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    import websockets.asyncio.client  # noqa: F401  (imported before "ready")

    async def go() -> dict:
        print("ready", flush=True)
        return await FLOOD_WORKERS[spec["kind"]](spec)

    # asyncio's own loop, not uvloop: the server's HTTP layer writes its 429 (more than 64
    # connections from one address) and closes at once, and under uvloop the websockets
    # client saw the close before it read that answer (a "closed during the opening
    # handshake" for each; 4,300 of them in the no-hello flood, 86 per address)
    out = asyncio.run(go())
    use = resource.getrusage(resource.RUSAGE_SELF)
    out["worker_cpu_s"] = use.ru_utime + use.ru_stime
    print(json.dumps(_clean(out)), flush=True)
    return 0


async def run_flood_worker(spec: dict, opened, held, limit: float) -> dict:
    """Run one sub-flood worker; ``opened()`` is called when it is ready (the window opens
    there), ``held()`` when it says ``held`` or ends (the window closes there). Its outcome,
    or ``{"worker_failed": why}``."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(HERE), "--flood-worker", json.dumps(spec),
        cwd=ROOT, stdout=asyncio.subprocess.PIPE)
    try:
        async with asyncio.timeout(60):
            line = await proc.stdout.readline()
        if line.strip() != b"ready":
            return {"worker_failed": f"it said {line[:200]!r}"}
        opened()
        last = b""
        async with asyncio.timeout(limit):
            while line := await proc.stdout.readline():
                if line.strip() == b"held":
                    held()
                elif line.strip():
                    last = line
            await proc.wait()
        held()
        if proc.returncode != 0 or not last:
            return {"worker_failed": f"exit {proc.returncode}"}
        return json.loads(last)
    except TimeoutError:
        return {"worker_failed": "no answer in time (killed)"}
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()


async def seated(sink: Sink, n: int, limit: float = 20.0) -> float:
    """Wait until ``n`` players of ``sink`` have joined a table (a busy server, its table
    rate spent by an earlier phase, seats them over a few seconds), then 2 s more to play;
    at most ``limit`` seconds. The seconds waited."""
    t0 = perf()
    while perf() - t0 < limit and sink.outcomes["outside"]["tables joined"] < n:
        await asyncio.sleep(0.2)
    await asyncio.sleep(2.0)
    return perf() - t0


def _control_summary(ctx: Ctx, control: Sink, name: str, usage: dict) -> dict:
    return {**summary(control.lat[name]), "errors": dict(control.errors[name]),
            "unanswered_at_end": control.waiting(),
            "client_loop_lag_p99_ms": pct(ctx.lag.get(name, []), 99), **usage}


async def floods50(ctx: Ctx, args) -> dict:
    """Three sub-floods from ``--flood-addresses`` loopback addresses (127.0.0.2 ...), each
    address within the server's per-address limits, while ``--flood-control`` players play
    at their own tables; each sub-flood in its own window, against a quiet window just
    before them."""
    host, port = ctx.server.host_port
    if not host.startswith("127."):
        return {"skipped": "the server is not on this machine's loopback (127/8): the 50 "
                           "source addresses cannot reach it"}
    ctx.phase = "floods50"
    addresses = flood_addresses(args.flood_addresses)
    control = Sink(ctx.window)
    rng = random.Random(50)
    tasks = [asyncio.create_task(player(ctx, control, random.Random(rng.random()), "match",
                                        args.control_think))
             for _ in range(args.flood_control)]
    out: dict = {"addresses": len(addresses), "first_address": addresses[0],
                 "last_address": addresses[-1], "control_players": args.flood_control,
                 "control_think_seconds": args.control_think, "subfloods": {}}
    meters: dict[str, Meter] = {}

    def open_window(name: str) -> None:
        ctx.window.label = name
        meters[name] = Meter(ctx.server)

    def close_window(name: str) -> dict:
        ctx.window.label = None
        return meters.pop(name).stop()

    base = {"ws_url": ctx.server.ws_url, "host": host, "port": port, "addresses": addresses}
    subs = [
        ("a", "no-hello", {**base, "kind": "no-hello", "per_address": args.flood_per_address,
                           "hold": args.flood_hold, "drain": 10.0}),
        ("b", "bad-hellos", {**base, "kind": "bad-hellos", "sockets": args.flood_hello_sockets,
                             "seconds": args.flood_seconds}),
        ("c", "tables", {**base, "kind": "tables", "tables": args.flood_tables,
                         "seconds": args.flood_seconds}),
    ]
    try:
        out["seated_after_s"] = await seated(control, args.flood_control)
        open_window("floods50 quiet")
        await asyncio.sleep(args.flood_quiet)
        out["quiet"] = _control_summary(ctx, control, "floods50 quiet", close_window("floods50 quiet"))
        log(f"  floods50 quiet: control p95 {fmt_ms(out['quiet']['p95_ms'])} "
            f"({out['quiet']['count']} actions)")
        for key, kind, spec in subs:
            name = f"floods50 ({key}) {kind}"
            rss0 = ctx.server.rss_mb()
            usage: dict = {}

            def held(name: str = name) -> None:
                nonlocal usage
                if name in meters:
                    usage = close_window(name)

            with PeakSampler(ctx.server) as peak:
                got = await run_flood_worker(spec, lambda name=name: open_window(name), held,
                                             limit=spec.get("hold", 0) + spec.get("seconds", 0) + 120)
            res = {"kind": kind, **got, "rss_before_mb": rss0, "rss_peak_mb": peak.peak,
                   "control": _control_summary(ctx, control, name, usage)}
            if usage and got.get("worker_cpu_s") is not None:
                res["attacker_cpu_percent"] = 100 * got["worker_cpu_s"] / usage["seconds"]
            out["subfloods"][key] = res
            c = res["control"]
            log(f"  {name}: {({k: v for k, v in got.items() if k not in ('latency',)})}")
            log(f"  {name}: control p50 {fmt_ms(c['p50_ms'])}, p95 {fmt_ms(c['p95_ms'])}, "
                f"max {fmt_ms(c['max_ms'])}, {c['count']} actions, errors {sum(c['errors'].values())}")
            await asyncio.sleep(1.0)                 # what the flood left goes before the next
    finally:
        ctx.window.label = None
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    out["errors_outside_windows"] = dict(control.errors["outside"])
    out["server_busy_after_s"] = await settle(ctx, ctx.settle_limit)
    return out


# ----- a damaged or read-only store (store) --------------------------------------------------------

TABLES_DB = "web-tables.sqlite3"
LEDGER_DB = "web-saved-matches.sqlite3"
STORE_CASES = {
    "a": "state folder read-only (folder 0500, files 0400)",
    "b": f"{TABLES_DB} truncated to 0 bytes",
    "c": f"{TABLES_DB} truncated to half its size",
    "d": f"{TABLES_DB}: its first 100 bytes (the header) overwritten with garbage",
    "e": f"{TABLES_DB}: 4 KiB of garbage written over its middle pages",
    "f": "both SQLite files damaged (the first 100 bytes of each overwritten with garbage)",
}
REFUSAL_PREFIX = "president serve:"


def _no_dac_preexec():
    """A ``preexec_fn`` that takes from a root child the capabilities that let it write where
    file modes forbid it (``CAP_DAC_OVERRIDE``, ``CAP_DAC_READ_SEARCH``, ``CAP_FOWNER``, from
    its bounding set, so its ``exec`` does not get them): root then obeys 0500/0400 like any
    owner. ctypes is loaded here, before the fork."""
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)

    def drop() -> None:
        for cap in (1, 2, 3):
            if libc.prctl(24, cap, 0, 0, 0) != 0:     # PR_CAPBSET_DROP
                raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")
    return drop


def _read_only_works(folder: Path, preexec) -> bool:
    """Whether a child started with ``preexec`` is refused a write into ``folder`` (0500)."""
    code = ("import sys\ntry:\n    open(sys.argv[1], 'r+b')\nexcept OSError:\n    sys.exit(3)\n"
            "sys.exit(0)")
    target = next((f for f in folder.iterdir() if f.is_file()), None)
    if target is None:
        return False
    try:
        r = subprocess.run([sys.executable, "-c", code, str(target)], preexec_fn=preexec,
                           timeout=30, capture_output=True)
    except (OSError, subprocess.SubprocessError):
        return False
    return r.returncode == 3


BUSY = ("error busy", "websocket refused: HTTP 429", "socket closed by server: 1013")
"""Outcomes that mean "the server is busy, try again" (a rate limit), not an answer."""


async def probe_table(ctx: Ctx, table_id: str, token: str, address: str | None,
                      snapshot: str | None = None, timeout: float = 20, retry_for: float = 30) -> dict:
    """A hello to a table (with ``snapshot``: a sealed record to rebuild it from): the
    table's ``actions`` in the first ``state``, or the refusal. A ``busy`` refusal (a rate
    limit of the server) is tried again for up to ``retry_for`` seconds."""
    t0 = perf()
    busy = 0
    while True:
        got = await _probe_once(ctx, table_id, token, address, snapshot, timeout)
        if got["outcome"] not in BUSY or perf() - t0 > retry_for:
            if busy:
                got["busy_retries"] = busy
            return got
        busy += 1
        await asyncio.sleep(0.2 + random.random() * 0.3)


async def _probe_once(ctx: Ctx, table_id: str, token: str, address: str | None,
                      snapshot: str | None, timeout: float) -> dict:
    hello = {"type": "hello", "table": table_id, "token": token}
    if snapshot:
        hello["snapshot"] = snapshot
    try:
        async with _connect(ctx, address, open_timeout=timeout) as ws:
            await ws.send(json.dumps(hello))
            async with asyncio.timeout(timeout):
                while True:
                    raw = await ws.recv()
                    if raw.startswith(EVENT_PREFIX):
                        continue
                    m = json.loads(raw)
                    if m.get("type") == "batch":
                        m = m["messages"][-1]
                    if m.get("type") == "state":
                        return {"outcome": "state", "actions": m["table"]["actions"]}
                    if m.get("type") == "error":
                        return {"outcome": f"error {m.get('reason')}",
                                "message": str(m.get("message", ""))[:200]}
    except Exception as e:  # noqa: BLE001 - a refusal is an outcome
        return {"outcome": _classify(e)}


async def probe_tables(ctx: Ctx, tables: dict[str, dict], concurrency: int = 16) -> dict:
    """A hello to every table of ``tables`` (id -> ``{"token", "actions"}``, the actions it
    had accepted): how many came back whole, short (actions lost), or not at all."""
    sem = asyncio.Semaphore(concurrency)
    outcomes: Counter = Counter()
    lost = short = whole = retries = 0
    addresses = Addresses("127.0.0.1", True)
    addresses.n = 40000                              # apart from the players' addresses
    ids = list(tables)
    where = [addresses.next() for _ in range(len(ids) // 20 + 1)]

    async def one(i: int, tid: str) -> None:
        nonlocal lost, short, whole, retries
        async with sem:
            got = await probe_table(ctx, tid, tables[tid]["token"], where[i // 20])
        outcomes[got["outcome"]] += 1
        retries += got.get("busy_retries", 0)
        had = tables[tid]["actions"]
        if got["outcome"] == "state":
            if got["actions"] < had:
                short += 1
                lost += had - got["actions"]
            else:
                whole += 1
        else:
            lost += had

    await asyncio.gather(*(one(i, tid) for i, tid in enumerate(ids)))
    return {"tables": len(ids), "whole": whole, "short": short, "outcomes": dict(outcomes),
            "busy_retries": retries,
            "actions_had": sum(t["actions"] for t in tables.values()), "actions_lost": lost}


async def _fill_table(ctx: Ctx, info: dict, address: str | None, human_actions: int,
                      rng: random.Random, keep_early: bool) -> dict:
    """Play ``human_actions`` random legal actions at a new match table (computer replies
    in between); its accepted actions at the end, and with ``keep_early`` the sealed
    ``snapshot`` of the first state after the human's first action."""
    rec = {"token": info["token"], "actions": 0, "early": None, "error": None}
    t0 = perf()
    while True:     # a hello refused as busy (a rate limit) before any action: again
        done = await _fill_once(ctx, info, address, human_actions, rng, keep_early, rec)
        if done or rec["error"] not in BUSY or perf() - t0 > 30:
            return rec
        rec["error"] = None
        await asyncio.sleep(0.3 + rng.random() * 0.5)


async def _fill_once(ctx: Ctx, info: dict, address: str | None, human_actions: int,
                     rng: random.Random, keep_early: bool, rec: dict) -> int:
    done = 0
    try:
        async with _connect(ctx, address) as ws:
            await ws.send(json.dumps({"type": "hello", "table": info["table"], "token": info["token"]}))
            while True:
                async with asyncio.timeout(30):
                    raw = await ws.recv()
                if raw.startswith(EVENT_PREFIX):
                    continue
                m = json.loads(raw)
                if m.get("type") == "error":
                    rec["error"] = f"error {m.get('reason')}"
                    break
                if m.get("type") != "state":
                    continue
                rec["actions"] = max(rec["actions"], m["table"]["actions"])
                mine = bool(m["legal"]) or m["phase"] in ENDED
                if keep_early and rec["early"] is None and done >= 1 and mine and m.get("snapshot"):
                    rec["early"] = {"snapshot": m["snapshot"], "actions": m["table"]["actions"]}
                if m["phase"] == "match-over" or (done >= human_actions and mine):
                    break
                if not mine:
                    continue
                await ws.send(_choose(m, rng)[0])
                done += 1
    except Exception as e:  # noqa: BLE001
        rec["error"] = _classify(e)
    return done


async def _prepare_store(home: Path, n_tables: int, quick: bool, window: Window) -> dict:
    """A realistic store: a server on ``home`` (its ``XDG_STATE_HOME``), ``n_tables`` match
    tables each played for a few to a few dozen human actions, then ``kill -9``."""
    srv = Server(None, state=home, keep_state=True, log_name="prepare.log")
    got = await asyncio.to_thread(srv.launch)
    if not got["started"]:
        return {"failed": f"the server did not start: {srv.log_tail()}"}
    sctx = Ctx(srv, window, Addresses("127.0.0.1", True))
    sink = Sink(window)
    rng = random.Random(4)
    tables: dict[str, dict] = {}
    sem = asyncio.Semaphore(16)
    addresses = [sctx.addresses.next() for _ in range(n_tables // 20 + 1)]
    t0 = perf()

    async def one(i: int, r: random.Random) -> None:
        async with sem:
            t = perf()
            while True:       # a busy server (its whole-server table rate) is asked again
                info = await create_table(sctx, sink, {"kind": "match", "preset": "house", "players": 4},
                                          addresses[i // 20])
                if info is not None or perf() - t > 60:
                    break
                await asyncio.sleep(0.3 + r.random() * 0.5)
            if info is None:
                return
            human = r.randint(3, 10 if quick else 25)
            tables[info["table"]] = await _fill_table(sctx, info, addresses[i // 20],
                                                      max(human, 6) if i < 4 else human, r, i < 4)

    try:
        await asyncio.gather(*(one(i, random.Random(rng.random())) for i in range(n_tables)))
        await asyncio.sleep(1.0)              # computer replies after the last answers settle
    finally:
        srv.kill()
        if srv.log_file is not None:
            srv.log_file.close()
    folder = home / "president"
    sizes = {f.name: f.stat().st_size for f in folder.iterdir() if f.is_file()}
    return {"tables": tables, "seconds": perf() - t0, "refused": dict(sink.errors["outside"]),
            "files": sizes, "errors": Counter(t["error"] for t in tables.values() if t["error"]),
            "asked": n_tables}


def _checkpointed_copy(src: Path, dst: Path) -> None:
    """A copy of the state home ``src`` whose SQLite files hold everything (their write-ahead
    logs folded in and gone), so damage to a file is damage to the whole store."""
    import sqlite3
    shutil.copytree(src, dst)
    for name in (TABLES_DB, LEDGER_DB):
        path = dst / "president" / name
        if path.exists():
            db = sqlite3.connect(path)
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            db.close()
        for extra in ("-wal", "-shm"):
            Path(f"{path}{extra}").unlink(missing_ok=True)


def _garbage(path: Path, offset: int, n: int, seed: int) -> None:
    with path.open("r+b") as f:
        f.seek(offset)
        f.write(random.Random(seed).randbytes(n))


def _damage(case: str, folder: Path) -> None:
    tables = folder / TABLES_DB
    size = tables.stat().st_size
    if case == "b":
        os.truncate(tables, 0)
    elif case == "c":
        os.truncate(tables, size // 2)
    elif case == "d":
        _garbage(tables, 0, 100, 1)
    elif case == "e":               # two pages in the middle (SQLite's pages are 4 KiB)
        _garbage(tables, max(4096, size // 2 // 4096 * 4096) + 2048, 4096, 2)
    elif case == "f":
        _garbage(tables, 0, 100, 3)
        _garbage(folder / LEDGER_DB, 0, 100, 4)


def _start_outcome(srv: Server, got: dict) -> dict:
    """What a start on a store did: started, or exited (code, its ``president serve:``
    line), and the log's notable lines."""
    text = srv.log_text().splitlines()
    said = next((line.strip() for line in text if line.startswith(REFUSAL_PREFIX)), None)
    notable = []
    for line in text:
        low = line.lower()
        if line.startswith(REFUSAL_PREFIX) or any(w in low for w in ("warning", "error", "cannot", "exception")):
            if not line.startswith((" ", "\t")) and line[:160] not in notable:
                notable.append(line[:160])
    return {**got, "said": said[:400] if said else None, "notable": notable[:6],
            "traceback": any(line.startswith("Traceback") for line in text)}


async def _launch_on(home: Path, window: Window, log_name: str, *, extra_args: tuple = (),
                     preexec=None) -> tuple[Server, Ctx, dict]:
    srv = Server(None, state=home, keep_state=True, log_name=log_name, extra_args=extra_args,
                 preexec=preexec)
    got = await asyncio.to_thread(srv.launch)
    return srv, Ctx(srv, window, Addresses("127.0.0.1", True)), got


async def _stop(srv: Server) -> None:
    await asyncio.to_thread(srv.stop)


def _remove_stores(folder: Path) -> None:
    """Both SQLite files and their companions gone (the key file stays)."""
    for name in (TABLES_DB, LEDGER_DB):
        for extra in ("", "-wal", "-shm"):
            Path(f"{folder / name}{extra}").unlink(missing_ok=True)


def _unlock_all(work: Path) -> None:
    for folder in work.glob("*/president"):
        with contextlib.suppress(OSError):
            folder.chmod(0o700)


async def _rewind_try(home: Path, window: Window, early: list[dict], log_name: str,
                      extra_args: tuple = ()) -> dict:
    """Both SQLite files gone (a fresh store, the key file kept); start; a hello with an
    early sealed snapshot: did the server rebuild the table from it (a rewind)?"""
    _remove_stores(home / "president")
    srv, sctx, got = await _launch_on(home, window, log_name, extra_args=extra_args)
    out = _start_outcome(srv, got)
    if got["started"]:
        tries = []
        for e in early:
            r = await probe_table(sctx, e["table"], e["token"], "127.0.0.1", snapshot=e["snapshot"])
            tries.append({**r, "snapshot_actions": e["snapshot_actions"], "actions_at_kill": e["actions"]})
        out["hellos"] = tries
        out["rewound"] = sum(1 for t in tries if t["outcome"] == "state")
    await _stop(srv)
    return out


async def store_phase(ctx: Ctx, args) -> dict:
    """The server on a store it cannot keep: a realistic store made and ``kill -9``-ed,
    an intact restart (actions lost), then each damage of :data:`STORE_CASES` on a copy,
    and a server started on it: did it start, its exit code and message."""
    ctx.phase = "store"
    work = Path(tempfile.mkdtemp(prefix="president-store-"))
    out: dict = {"cases": {}}
    try:
        home = work / "prepared"
        (home / "president").mkdir(parents=True)
        prep = await _prepare_store(home, args.store_tables, args.quick, ctx.window)
        if "failed" in prep:
            out["failed"] = prep["failed"]
            return out
        tables = prep["tables"]
        kept = {tid: {"token": t["token"], "actions": t["actions"]} for tid, t in tables.items()}
        early = [{"table": tid, "token": t["token"], "snapshot": t["early"]["snapshot"],
                  "snapshot_actions": t["early"]["actions"], "actions": t["actions"]}
                 for tid, t in tables.items() if t["early"] and t["actions"] > t["early"]["actions"]][:3]
        out["prepared"] = {"asked": prep["asked"], "tables": len(tables), "actions": sum(t["actions"] for t in tables.values()),
                           "seconds": prep["seconds"], "files": prep["files"],
                           "fill_errors": dict(prep["errors"]), "refused": prep["refused"],
                           "early_snapshots": len(early)}
        log(f"  store: {len(tables)} tables, {out['prepared']['actions']} accepted actions in "
            f"{prep['seconds']:.1f} s; files {prep['files']}; killed with SIGKILL")

        # the intact restart (the write-ahead log as the kill left it)
        intact = work / "intact"
        shutil.copytree(home, intact)
        srv, sctx, got = await _launch_on(intact, ctx.window, "server.log")
        res = _start_outcome(srv, got)
        if got["started"]:
            res["probe"] = await probe_tables(sctx, kept)
        await _stop(srv)
        out["intact"] = res
        log(f"  store intact restart: {'started' if got['started'] else 'did NOT start'}; "
            f"{res.get('probe')}")

        master = work / "checkpointed"
        _checkpointed_copy(home, master)
        root = hasattr(os, "geteuid") and os.geteuid() == 0
        for case, what in STORE_CASES.items():
            case_home = work / f"case-{case}"
            shutil.copytree(master, case_home)
            folder = case_home / "president"
            res = {"what": what}
            preexec = None
            if case == "a":
                for f in folder.iterdir():
                    f.chmod(0o400)
                folder.chmod(0o500)
                if root:
                    preexec = _no_dac_preexec()
                    if not _read_only_works(folder, preexec):
                        res["skipped"] = ("root: chmod does not stop root, and its power to write "
                                          "anywhere could not be dropped for the server")
                        out["cases"][case] = res
                        folder.chmod(0o700)
                        continue
                    res["how"] = ("run as root without CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH "
                                  "and CAP_FOWNER, so the modes hold")
            else:
                _damage(case, folder)
            srv, sctx, got = await _launch_on(case_home, ctx.window, "server.log", preexec=preexec)
            res.update(_start_outcome(srv, got))
            if got["started"]:
                res["probe"] = await probe_tables(sctx, kept)
            await _stop(srv)
            if case == "a":
                folder.chmod(0o700)
            log(f"  store ({case}) {what}: "
                + (f"started after {got['seconds']:.1f} s; tables {res['probe']['outcomes']}, "
                   f"{res['probe']['actions_lost']} of {res['probe']['actions_had']} actions lost"
                   if got["started"] else
                   f"exit {got['exit_code']} after {got['seconds']:.1f} s: {res['said'] or res['notable'][:2]}"))
            if case == "f":
                res["fresh"] = await _rewind_try(case_home, ctx.window, early, "fresh.log")
                res["fresh_recover"] = await _rewind_try(case_home, ctx.window, early, "recover.log",
                                                         ("--recover-saved-matches",))
                for key in ("fresh", "fresh_recover"):
                    r = res[key]
                    log(f"  store (f) {key}: " + (f"hellos with the old snapshot: "
                                                  f"{[(h['outcome'], h.get('actions')) for h in r['hellos']]}"
                                                  if r["started"] else
                                                  f"did not start, exit {r['exit_code']}: {r['said'] or r['notable'][:2]}"))
            out["cases"][case] = res
    finally:
        _unlock_all(work)
        shutil.rmtree(work, ignore_errors=True)
    return out


# ----- one table's slow write (slow-write) ---------------------------------------------------------

LAUNCHER = '''"""bench_attack.py's slow-write launcher: president serve with one table's writes held."""
import os
import sys
import time

sys.path.insert(0, {root!r})
victim_file, flag = sys.argv[1], sys.argv[2]
from president.web import store  # noqa: E402

_append_batches = store.TableStore.append_batches


def append_batches(self, batches, *, now=None):
    try:
        with open(victim_file, encoding="utf-8") as f:
            victim = f.read().strip()
    except OSError:
        victim = ""
    if victim and any(b[0] == victim for b in batches):
        while os.path.exists(flag):       # held while the flag file exists
            time.sleep(0.01)
    return _append_batches(self, batches, now=now)


store.TableStore.append_batches = append_batches
from president.cli import main  # noqa: E402

sys.exit(main(sys.argv[3:]))
'''

LOCKER = '''import json, sqlite3, sys, time
path, hold = sys.argv[1], float(sys.argv[2])
db = sqlite3.connect(path, timeout=0, isolation_level=None)
t0 = time.monotonic()
tries = 0
while True:
    tries += 1
    try:
        db.execute("BEGIN IMMEDIATE")
        break
    except sqlite3.OperationalError as e:
        if time.monotonic() - t0 > 10:
            print(json.dumps({"locked": False, "error": str(e), "tries": tries}), flush=True)
            sys.exit(0)
        time.sleep(0.002)
print(json.dumps({"locked": True, "tries": tries, "waited_s": time.monotonic() - t0}), flush=True)
time.sleep(hold)
db.execute("ROLLBACK")
db.close()
print("released", flush=True)
'''


def _exists(path: str) -> bool:
    return os.path.exists(path)


def _db_locks_held(pid: int | None, path: Path) -> int | None:
    """POSIX locks process ``pid`` holds on the file ``path`` now (``/proc/locks``): a
    process with a SQLite file open in WAL mode holds one (a shared lock), which tells another
    process closing the file that it is not the last (else that one folds the write-ahead log
    into the file and deletes it). None when unreadable."""
    try:
        inode = path.stat().st_ino
        held = 0
        for line in Path("/proc/locks").read_text().splitlines():
            f = line.split()
            if len(f) > 5 and f[4] == str(pid) and f[5].rsplit(":", 1)[-1] == str(inode):
                held += 1
        return held
    except (OSError, ValueError):
        return None


def _disk_actions(path: Path, seen: dict[str, dict]) -> dict:
    """Accepted actions of each table of ``seen`` in the store file now (a read-only
    connection of our own beside the live server's), against what its pages were shown:
    how many shown actions are not on disk (answered before they were kept)."""
    import sqlite3
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10)
        try:
            counts = dict(db.execute("SELECT table_id, COUNT(*) FROM actions GROUP BY table_id"))
        finally:
            db.close()
    except sqlite3.Error as e:
        return {"error": str(e)}
    behind = {tid: s["actions"] - counts.get(tid, 0) for tid, s in seen.items()
              if s["actions"] > counts.get(tid, 0)}
    return {"tables": len(seen), "tables_behind": len(behind),
            "actions_shown_not_on_disk": sum(behind.values()),
            "actions_shown": sum(s["actions"] for s in seen.values())}


async def slow_write(ctx: Ctx, args) -> dict:
    """A server whose store write for one table (the victim's) waits while a flag file
    exists (a launcher wraps ``TableStore.append_batches``), ``--flood-control`` players at
    their own tables: their p95 while the flag is held ``--write-hold`` seconds against a
    quiet window just before, the victim's own latency; then another process holding
    ``BEGIN IMMEDIATE`` on the tables file ``--lock-hold`` seconds; then ``kill -9``, a
    restart and a hello to every table: actions lost."""
    ctx.phase = "slow-write"
    home = Path(tempfile.mkdtemp(prefix="president-slow-"))
    victim_file, flag = home / "victim", home / "hold"
    launcher = home / "launcher.py"
    launcher.write_text(LAUNCHER.format(root=str(ROOT)))
    srv = Server(None, state=home, keep_state=True,
                 runner=[sys.executable, str(launcher), str(victim_file), str(flag)])
    out: dict = {"control_players": args.flood_control, "control_think_seconds": args.control_think,
                 "hold_seconds": args.write_hold, "lock_seconds": args.lock_hold}
    try:
        got = await asyncio.to_thread(srv.launch)
        if not got["started"]:
            out["failed"] = f"the server did not start through the launcher: {srv.log_tail()}"
            return out
        sctx = Ctx(srv, ctx.window, Addresses("127.0.0.1", True))
        sctx.lag = ctx.lag
        sctx.settle_limit = ctx.settle_limit
        control, victim = Sink(ctx.window), Sink(ctx.window)
        control.track, victim.track = {}, {}
        rng = random.Random(77)
        tasks = [asyncio.create_task(player(sctx, control, random.Random(rng.random()), "match",
                                            args.control_think))
                 for _ in range(args.flood_control)]
        tasks.append(asyncio.create_task(player(
            sctx, victim, random.Random(rng.random()), "match", args.control_think,
            on_table=lambda info: victim_file.write_text(info["table"]))))
        meters: dict[str, Meter] = {}
        windows: dict[str, dict] = {}

        def open_window(name: str) -> None:
            ctx.window.label = name
            meters[name] = Meter(srv)

        def close_window(name: str) -> None:
            ctx.window.label = None
            usage = meters.pop(name).stop()
            windows[name] = {"control": _control_summary(sctx, control, name, usage),
                             "victim": {**summary(victim.lat[name]), "errors": dict(victim.errors[name]),
                                        "unanswered_at_end": victim.waiting()}}

        try:
            out["seated_after_s"] = await seated(control, args.flood_control)
            open_window("slow-write quiet")
            await asyncio.sleep(args.flood_quiet)
            close_window("slow-write quiet")
            open_window("slow-write hold")
            flag.touch()
            try:
                await asyncio.sleep(args.write_hold)
            finally:
                flag.unlink(missing_ok=True)
            await asyncio.sleep(1.0)                 # the held answers arrive
            close_window("slow-write hold")
            await asyncio.sleep(1.0)
            db_file = home / "president" / TABLES_DB
            out["on_disk_after_hold"] = _disk_actions(db_file, {**control.track, **victim.track})
            out["server_db_locks_before_lock"] = _db_locks_held(srv.pid, db_file)
            open_window("external-lock quiet")
            await asyncio.sleep(args.flood_quiet)
            close_window("external-lock quiet")
            locker = await asyncio.create_subprocess_exec(
                sys.executable, "-c", LOCKER, str(home / "president" / TABLES_DB), str(args.lock_hold),
                stdout=asyncio.subprocess.PIPE)
            try:
                async with asyncio.timeout(30):
                    first = json.loads(await locker.stdout.readline())
                    out["lock"] = first
                    if first.get("locked"):
                        open_window("external-lock")
                        await locker.stdout.readline()   # "released"
                        await asyncio.sleep(1.0)
                        close_window("external-lock")
                    await locker.wait()
                    out["wal_after_lock"] = _exists(f"{db_file}-wal")
                    await asyncio.sleep(1.0)
                    out["on_disk_after_lock"] = _disk_actions(db_file, {**control.track, **victim.track})
            except (TimeoutError, ValueError) as e:
                out["lock"] = {"locked": False, "error": f"the locking process: {type(e).__name__}"}
            finally:
                if locker.returncode is None:
                    locker.kill()
                    await locker.wait()
                if "external-lock" in meters:
                    close_window("external-lock")
        finally:
            flag.unlink(missing_ok=True)
            ctx.window.label = None
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        out["windows"] = windows
        out["errors_outside_windows"] = {"control": dict(control.errors["outside"]),
                                         "victim": dict(victim.errors["outside"])}
        await settle(sctx, 10.0)
        log("  slow-write: " + "; ".join(
            f"{name}: control p95 {fmt_ms(w['control']['p95_ms'])} ({w['control']['count']}), "
            f"victim max {fmt_ms(w['victim']['max_ms'])} ({w['victim']['count']})"
            for name, w in windows.items()))
        # every accepted action still there after a crash and a restart?
        seen = {**control.track, **victim.track}
        out["on_disk_before_kill"] = _disk_actions(home / "president" / TABLES_DB, seen)
        srv.kill()
        again, actx, got = await _launch_on(home, ctx.window, "restart.log")
        if got["started"]:
            out["after_restart"] = await probe_tables(actx, seen)
        else:
            out["after_restart"] = {"failed": _start_outcome(again, got)}
        await _stop(again)
        log(f"  slow-write: after kill -9 and a restart: {out['after_restart']}")
    finally:
        flag.unlink(missing_ok=True)
        srv.stop()
        shutil.rmtree(home, ignore_errors=True)
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
        if "floods50" in phases:
            log("phase: floods50 (three floods from 50 addresses, with control players)")
            res["floods50"] = await floods50(ctx, args)
        if "store" in phases:
            log("phase: store (a damaged or read-only store; servers of its own)")
            res["store"] = await store_phase(ctx, args)
        if "slow-write" in phases:
            log("phase: slow-write (one table's store write held; a server of its own)")
            res["slow_write"] = await slow_write(ctx, args)
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
    if "floods50" in res:
        floods50_rows(res["floods50"], row)
    if "store" in res:
        store_rows(res["store"], row)
    if "slow_write" in res:
        slow_write_rows(res["slow_write"], row)
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


def _ratio(x, base) -> float:
    ok = (x is not None and base is not None and not math.isnan(x) and not math.isnan(base) and base > 0)
    return x / base if ok else float("nan")


def _control_rows(row, head: str, c: dict, quiet95: float, target: bool = True,
                  note: str = "") -> None:
    """The control players in one window: p50 / p95 / max, errors; p95 against the quiet
    p95 (target <= 2x unless ``target`` is false)."""
    errs = sum(c["errors"].values())
    row(f"{head}: control p50 / p95 / max; errors",
        f"{fmt_ms(c['p50_ms'])} / {fmt_ms(c['p95_ms'])} / {fmt_ms(c['max_ms'])} ({c['count']} actions); "
        f"{errs}" + (f" ({', '.join(f'{k} {v}' for k, v in c['errors'].items())})" if errs else ""),
        "0 errors", errs == 0 if c["count"] else None)
    r = _ratio(c["p95_ms"], quiet95)
    row(f"{head}: control p95 / quiet p95", "n/a" if math.isnan(r) else f"{r:.1f}x",
        f"<= {TARGET_RATIO:g}x" if target else note, (r <= TARGET_RATIO) if target and not math.isnan(r) else None)
    if c.get("server_cpu_percent") is not None or c.get("client_cpu_percent") is not None:
        att = c.get("attacker_cpu_percent")
        row("  ... CPU server / client / attacker / others; client loop lag p99",
            f"{_pc(c.get('server_cpu_percent'))} / {_pc(c.get('client_cpu_percent'))} / {_pc(att)} / "
            f"{_pc(None if c.get('other_cpu_percent') is None else max(0.0, c['other_cpu_percent'] - (att or 0)))}; "
            f"{fmt_ms(c.get('client_loop_lag_p99_ms'))}")
        row("  ... server event loop on a CPU / waiting for one / disk", loop_line(c))


def floods50_rows(f: dict, row) -> None:
    if "skipped" in f:
        row("floods50", f"skipped: {f['skipped']}")
        return
    q = f["quiet"]
    src = f"{f['addresses']} addresses {f['first_address']}-{f['last_address']}"
    row(f"floods50: control players ({f['control_players']}, think {f['control_think_seconds']:g} s): "
        "quiet p50 / p95 / max", f"{fmt_ms(q['p50_ms'])} / {fmt_ms(q['p95_ms'])} / {fmt_ms(q['max_ms'])} "
        f"({q['count']} actions)")
    for key, s in f["subfloods"].items():
        if "worker_failed" in s:
            row(f"floods50 ({key}) {s['kind']}", f"the flood's worker failed: {s['worker_failed']}", "", False)
            continue
        s["control"]["attacker_cpu_percent"] = s.get("attacker_cpu_percent")
        if key == "a":
            per = s["asked"] // max(1, f["addresses"])
            head = f"floods50 (a) {s['asked']} websockets without hello ({per} from each of {src})"
            row(f"{head}: outcomes", ", ".join(f"{k} {v}" for k, v in sorted(s["outcomes"].items()))
                + f" (opened in {s['open_seconds']:.1f} s)")
            ca = s["closed_after_s"]
            row(f"floods50 (a): closed by the server in the window ({s['open_seconds']:.0f} s opening + "
                f"{s['held_seconds']:g} s held; close code: count)",
                ", ".join(f"{k}: {v}" for k, v in s["closed_in_window"].items()) or "none")
            row(f"floods50 (a): closed by the server at all (waiting up to {s['drain_limit_s']:g} s more); "
                "still open",
                (", ".join(f"{k}: {v}" for k, v in s["closed_by_server"].items()) or "none")
                + (f" ({ca['min']:.1f}-{ca['max']:.1f} s after opening, median {ca['p50']:.1f} s)"
                   if ca["min"] is not None else "")
                + f"; {s['still_open']}", "every accepted one closed (hello timer)", s["still_open"] == 0)
            head = "floods50 (a)"
        elif key == "b":
            head = (f"floods50 (b) bad-token hellos ({s['sockets_per_address']} sockets from each of {src}, "
                    f"{s['seconds']:.0f} s)")
            row(f"{head}: hellos sent / answered by reason",
                f"{s.get('hellos sent', 0)} ({s['hellos_per_s']:.0f}/s) / "
                + (", ".join(f"{k} {v}" for k, v in s["replies"].items()) or "none"))
            row("floods50 (b): sockets opened; closed by the server (code: count); refused",
                f"{s.get('sockets opened', 0)}; "
                + (", ".join(f"{k}: {v}" for k, v in s["closed_by_server"].items()) or "none") + "; "
                + (", ".join(f"{k} {v}" for k, v in s["refused"].items()) or "none"))
            head = "floods50 (b)"
        else:
            head = f"floods50 (c) {s['asked']} POST /api/tables at once ({s['asked'] // max(1, f['addresses'])} from each of {src})"
            row(f"{head}: statuses", ", ".join(f"{k} x{v}" for k, v in sorted(s["statuses"].items()))
                + f" in {s['post_seconds']:.1f} s (p95 {fmt_ms(s['latency']['p95_ms'])})")
            head = "floods50 (c)"
        _control_rows(row, head, s["control"], q["p95_ms"])
        if s.get("rss_before_mb") is not None:
            row(f"{head}: server RSS before / peak", f"{fmt_mb(s['rss_before_mb'])} / {fmt_mb(s['rss_peak_mb'])}")


def _start_text(r: dict) -> str:
    if r.get("started"):
        return f"STARTED (listening after {r['seconds']:.1f} s)"
    if r.get("exit_code") is None:
        return f"no answer within {r['seconds']:.0f} s (killed)"
    said = r.get("said") or (f"no '{REFUSAL_PREFIX}' line; log: " + " | ".join(r.get("notable", [])[:2]))
    return (f"exit {r['exit_code']} after {r['seconds']:.1f} s: {said[:300]}"
            + (" (and a traceback)" if r.get("traceback") else ""))


def _refused_well(r: dict) -> bool:
    return (not r.get("started") and r.get("exit_code") not in (None, 0) and bool(r.get("said"))
            and r["seconds"] <= 30)


def _probe_text(p: dict) -> str:
    return (f"{p['whole']} of {p['tables']} tables whole, {p['short']} short; "
            + ", ".join(f"{k} {v}" for k, v in p["outcomes"].items())
            + f"; {p['actions_lost']} of {p['actions_had']} accepted actions lost")


def store_rows(s: dict, row) -> None:
    if "failed" in s:
        row("store", f"could not run: {s['failed']}", "", False)
        return
    p = s["prepared"]
    row("store: prepared (then kill -9)",
        f"{p['tables']} match tables (of {p['asked']} asked), {p['actions']} accepted actions in "
        f"{p['seconds']:.0f} s"
        + (f" (busy refusals asked again: {', '.join(f'{k} {v}' for k, v in p['refused'].items())})"
           if p["refused"] else "") + "; "
        + ", ".join(f"{k} {v / 1024:.0f} KB" for k, v in sorted(p["files"].items()) if k.endswith(("sqlite3", "-wal")))
        + (f"; fill errors {p['fill_errors']}" if p["fill_errors"] else ""))
    i = s["intact"]
    if i.get("started"):
        row("store: intact restart: accepted actions lost", _probe_text(i["probe"]), "0",
            i["probe"]["actions_lost"] == 0 and i["probe"]["whole"] == i["probe"]["tables"])
    else:
        row("store: intact restart", _start_text(i), "starts, 0 lost", False)
    for case, r in s["cases"].items():
        head = f"store ({case}) {r['what']}"
        if "skipped" in r:
            row(f"{head}: server", f"skipped: {r['skipped']}")
            continue
        row(f"{head}: server", _start_text(r),
            f"exits != 0 within 30 s, '{REFUSAL_PREFIX} ...'", _refused_well(r))
        if r.get("started") and "probe" in r:
            row("  ... the tables it started with", _probe_text(r["probe"]))
        if r.get("how"):
            row("  ... how", r["how"])
        for key, label, target in (("fresh", "both files deleted, fresh start", "refused: no rewind"),
                                   ("fresh_recover", "both files deleted, --recover-saved-matches",
                                    "rebuilt (recovery asked for)")):
            if key not in r:
                continue
            f = r[key]
            if not f.get("started"):
                row(f"store (f) {label}: server", _start_text(f), target, False)
                continue
            hs = f.get("hellos", [])
            got = "; ".join(
                (f"REWOUND: rebuilt at action {h['actions']} (the store had {h['actions_at_kill']})"
                 if h["outcome"] == "state" else f"{h['outcome']}: {h.get('message', '')[:120]}")
                for h in hs) or "no early snapshot was kept"
            ok = None if not hs else (f["rewound"] == 0 if key == "fresh" else f["rewound"] == len(hs))
            row(f"store (f) {label}: hello with an old early snapshot", got, target, ok)


def slow_write_rows(s: dict, row) -> None:
    if "failed" in s:
        row("slow-write", f"could not run: {s['failed']}", "", False)
        return
    w = s["windows"]
    q = w.get("slow-write quiet", {}).get("control")
    if q is None:
        row("slow-write", "no quiet window measured", "", False)
        return
    row(f"slow-write: control players ({s['control_players']}, think {s['control_think_seconds']:g} s): "
        "quiet p50 / p95 / max", f"{fmt_ms(q['p50_ms'])} / {fmt_ms(q['p95_ms'])} / {fmt_ms(q['max_ms'])} "
        f"({q['count']} actions)")
    h = w.get("slow-write hold")
    if h:
        _control_rows(row, f"slow-write: one table's write held {s['hold_seconds']:g} s", h["control"], q["p95_ms"])
        v = h["victim"]
        row("slow-write: the victim's actions in that window: count, p50 / max; errors",
            f"{v['count']}, {fmt_ms(v['p50_ms'])} / {fmt_ms(v['max_ms'])}; {sum(v['errors'].values())}",
            f"max ~ the hold ({s['hold_seconds'] * 1000:.0f} ms)")
    lock = s.get("lock", {})
    q2 = w.get("external-lock quiet", {}).get("control")
    e = w.get("external-lock")
    if e and q2:
        _control_rows(row, f"external-lock: another process holds BEGIN IMMEDIATE {s['lock_seconds']:g} s",
                      e["control"], q2["p95_ms"], target=False,
                      note="(a stall is expected: SQLite locks the whole file)")
    else:
        row("external-lock", f"the lock was not taken: {lock}", "", False)
    for key, when in (("on_disk_after_hold", "1 s after the hold, before the external lock"),
                      ("on_disk_after_lock", "1 s after the external lock"),
                      ("on_disk_before_kill", "at the end, before the kill")):
        d = s.get(key)
        if d:
            row(f"slow-write: the store file {when} (read beside the server)",
                f"error: {d['error']}" if "error" in d else
                f"{d['actions_shown_not_on_disk']} of {d['actions_shown']} actions the pages were shown are "
                f"not on disk ({d['tables_behind']} of {d['tables']} tables)", "0 (on disk before it is sent)",
                None if "error" in d else d["actions_shown_not_on_disk"] == 0)
    if s.get("server_db_locks_before_lock") is not None or "wal_after_lock" in s:
        n = s.get("server_db_locks_before_lock")
        row(f"external-lock: the server's own POSIX locks on {TABLES_DB} before; its -wal after the other "
            "process closed", f"{'n/a' if n is None else n}; {'still there' if s.get('wal_after_lock') else 'GONE'}",
            ">= 1 (WAL mode's shared lock); still there", (n is None or n >= 1) and bool(s.get("wal_after_lock")))
    a = s.get("after_restart", {})
    if "failed" in a:
        row("slow-write: after kill -9 and a restart", _start_text(a["failed"]), "0 actions lost", False)
    elif a:
        row("slow-write + external-lock: after kill -9 and a restart", _probe_text(a), "0 actions lost",
            a["actions_lost"] == 0)


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
    p.add_argument("--flood-addresses", type=int, default=50,
                   help="floods50: attacking addresses, 127.0.0.2 on (default 50)")
    p.add_argument("--flood-per-address", type=int, default=150,
                   help="floods50 (a): websockets without hello each address opens at once (default 150)")
    p.add_argument("--flood-hold", type=float, default=None,
                   help="floods50 (a): seconds they are held once open (default 12; quick 11: past the 10 s hello timer)")
    p.add_argument("--flood-hello-sockets", type=int, default=None,
                   help="floods50 (b): sockets per address sending bad hellos (default 50; quick 20)")
    p.add_argument("--flood-tables", type=int, default=30,
                   help="floods50 (c): POST /api/tables each address sends at once (default 30)")
    p.add_argument("--flood-seconds", type=float, default=None,
                   help="floods50 (b), (c): seconds of each window (default 10; quick 3)")
    p.add_argument("--flood-control", type=int, default=20,
                   help="floods50, slow-write: control players (default 20; think --control-think)")
    p.add_argument("--store-tables", type=int, default=None,
                   help="store: match tables played before the store is damaged (default 300; quick 60)")
    p.add_argument("--write-hold", type=float, default=3.0,
                   help="slow-write: seconds one table's store write is held (default 3)")
    p.add_argument("--lock-hold", type=float, default=2.0,
                   help="slow-write: seconds another process holds the tables file locked (default 2)")
    p.add_argument("--flood-worker", default=None, help=argparse.SUPPRESS)
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
    args.flood_hold = args.flood_hold if args.flood_hold is not None else (11.0 if q else 12.0)
    args.flood_hello_sockets = args.flood_hello_sockets or (20 if q else 50)
    args.flood_seconds = args.flood_seconds or (3.0 if q else 10.0)
    args.flood_quiet = 2.0 if q else 5.0
    args.store_tables = args.store_tables or (60 if q else 300)
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
    if args.flood_worker:
        return flood_worker_main(args.flood_worker)
    with contextlib.suppress(ImportError, ValueError, OSError):   # thousands of sockets
        import resource
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
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
