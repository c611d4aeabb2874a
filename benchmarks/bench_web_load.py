#!/usr/bin/env python3
"""Load figures of the browser game's server (``president serve``). Not a test.

Two figures:

1. **Server time per action, in process.** Tables of the ``house`` rules (4 players: you and
   three ``simple`` computer players) are driven directly (no network): a human action
   (random legal play, pass or give, or "next deal") is handed to ``Table.handle`` and the
   clock runs until the computer players have replied and it is the human's turn again, with
   every message built and JSON-encoded as for a socket, the match record sealed, each action
   written to the SQLite table store and its version noted in the SQLite ledger of saved
   matches (as ``president serve`` does) before its result is sent, with the garbage
   collector set as the server sets it (``serve.tune_gc``). The player picks its
   next action from the last ``state`` it was sent, as a page does. Reported: median, 95th
   percentile and maximum, in milliseconds, and the CPU time per action (this process, the
   store's writer thread included).

2. **Tables one server process holds under 100 ms at the 95th percentile.** A real server
   (``president serve``, one process, computer delay 0) is started as a subprocess; this script opens K
   websocket players, one per table, each acting about once per ``--think`` seconds (random
   0.5x–1.5x), and measures the time from sending an action to receiving the state where it is
   that player's turn again (all computer replies included). K doubles until the 95th
   percentile passes 100 ms, then two bisection steps narrow the figure. The load generator shares the machine with the server, so the
   figures are a floor for a server alone on its cores.

``python benchmarks/bench_web_load.py [--json] [--in-process-only] [--actions N] [--think S]
[--seconds S] [--max-tables N]``;
``PRESIDENT_BENCH_QUICK=1`` (or ``--quick``) makes short runs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TARGET_MS = 100.0


def reply_to(state: dict, rng: random.Random) -> dict:
    """A page's answer to a ``state`` where it is to act: "next deal" between deals, else a
    random legal play, pass or give."""
    if state["phase"] == "between-deals":
        return {"type": "next-deal"}
    choice = rng.choice(state["legal"])
    if choice == "pass":
        return {"type": "pass"}
    return {"type": "give" if state["phase"] == "exchange" else "play", "cards": choice}


def pct(values: list[float], q: float) -> float:
    """The q-th percentile (0..100) by nearest rank; nan for no values."""
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q / 100 * len(s) + 0.5) - 1))]


# ----- 1. in process ------------------------------------------------------------------------

class _Sink:
    """A socket stand-in that JSON-encodes each message as the real one does and keeps the
    last ``state`` it was sent."""

    def __init__(self) -> None:
        self.last = None
        self.state = None
        self.bytes = 0

    async def send(self, message) -> None:
        text = orjson.dumps(message).decode()   # as the server's sockets encode
        self.bytes += len(text)
        self.last = message
        if message["type"] == "state":
            self.state = message


async def _in_process(actions: int, seed: int) -> dict:
    from president.commands.serve import tune_gc
    from president.web import protocol as P
    from president.web.sealing import Sealer
    from president.web.tables import Tables

    tune_gc()                            # the collector as ``president serve`` sets it

    import tempfile

    from president.web.ledger import LEDGER_FILE, Ledger
    from president.web.store import TABLES_FILE, TableStore

    state_dir = tempfile.mkdtemp(prefix="president-bench-")
    ledger = Ledger(Path(state_dir) / LEDGER_FILE)   # every new record noted, as in the server
    store = TableStore(Path(state_dir) / TABLES_FILE)   # every action kept, as in the server
    tables = Tables(sealer=Sealer(b"bench" * 8), bot_delay=0.0, ledger=ledger, store=store)
    rng = random.Random(seed)
    times: list[float] = []
    sent = 0
    cpu = 0.0
    while len(times) < actions:
        made = tables.create(kind="match", preset="house", players=4)
        table = tables.get(made.id)      # a new table is on disk until joined, as in the server
        sink = _Sink()
        await table.join(0, sink)
        await table.computers.run_bots_now()
        while len(times) < actions and table.match.phase != "match-over":
            state = sink.state           # what the page was last sent
            if state["phase"] == "between-deals":
                msg = P.NextDealMsg(type="next-deal")
            else:
                choice = rng.choice(state["legal"])
                if choice == "pass":
                    msg = P.PassMsg(type="pass")
                elif state["phase"] == "exchange":
                    msg = P.GiveMsg(type="give", cards=choice)
                else:
                    msg = P.PlayMsg(type="play", cards=choice)
            before = sink.bytes
            c0 = time.process_time()
            t0 = time.perf_counter()
            await table.handle(0, sink, msg)
            await table.computers.run_bots_now()
            times.append((time.perf_counter() - t0) * 1000)
            cpu += time.process_time() - c0
            sent += sink.bytes - before
        tables.drop(table.id)
    tables.close_all()
    ledger.close()
    store.close()
    import shutil
    shutil.rmtree(state_dir, ignore_errors=True)
    return {"actions": len(times), "median_ms": statistics.median(times), "p95_ms": pct(times, 95),
            "max_ms": max(times), "cpu_ms_per_action": 1000 * cpu / len(times),
            "bytes_per_action": sent / len(times)}


# ----- 2. a real server under load --------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _proc_cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _proc_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def _player(base: str, think: float, rng: random.Random, stop: asyncio.Event,
                  latencies: list[float], measuring: list[bool], errors: list[str]) -> None:
    import httpx
    from websockets.asyncio.client import connect

    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        while not stop.is_set():
            r = await http.post("/api/tables", json={"kind": "match", "preset": "house", "players": 4})
            if r.status_code != 200:
                errors.append(r.text)
                return
            info = r.json()
            async with connect(base.replace("http", "ws") + "/ws", max_size=1 << 22) as ws:
                await ws.send(orjson.dumps({"type": "hello", "table": info["table"], "token": info["token"], "batch": True}).decode())
                t0 = None
                while not stop.is_set():
                    m = orjson.loads(await ws.recv())     # orjson: the load generator's own CPU is the server's rival
                    if m["type"] == "batch":          # events, then the state (as the page asks)
                        m = m["messages"][-1]
                    if m["type"] == "error":
                        errors.append(m["message"])
                        continue
                    if m["type"] != "state":
                        continue
                    mine = m["to_act"] == m["you"]["seat"] and m["phase"] in ("play", "exchange")
                    if not mine and m["phase"] != "between-deals":
                        if m["phase"] == "match-over":
                            break
                        continue
                    if t0 is not None and measuring[0]:
                        latencies.append((time.perf_counter() - t0) * 1000)
                    try:
                        await asyncio.wait_for(stop.wait(), think * rng.uniform(0.5, 1.5))
                        break
                    except asyncio.TimeoutError:
                        pass
                    out = reply_to(m, rng)
                    t0 = time.perf_counter()
                    await ws.send(orjson.dumps(out).decode())


async def _load_level(base: str, pid: int, tables: int, think: float, seconds: float, seed: int) -> dict:
    stop = asyncio.Event()
    latencies: list[float] = []
    errors: list[str] = []
    measuring = [False]
    rng = random.Random(seed)
    tasks = []
    for _ in range(tables):
        tasks.append(asyncio.create_task(_player(base, think, random.Random(rng.random()), stop,
                                                 latencies, measuring, errors)))
        await asyncio.sleep(think / max(tables, 1))   # spread the starts over one think time
    await asyncio.sleep(think)                         # warm up
    cpu0, t0, me0 = _proc_cpu_seconds(pid), time.perf_counter(), time.process_time()
    measuring[0] = True
    await asyncio.sleep(seconds)
    measuring[0] = False
    cpu1, t1, me1 = _proc_cpu_seconds(pid), time.perf_counter(), time.process_time()
    rss = _proc_rss_mb(pid)
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {"tables": tables, "actions": len(latencies), "actions_per_s": len(latencies) / (t1 - t0),
            "median_ms": pct(latencies, 50), "p95_ms": pct(latencies, 95),
            "server_cpu_percent": 100 * (cpu1 - cpu0) / (t1 - t0), "server_rss_mb": rss,
            "load_generator_cpu_percent": 100 * (me1 - me0) / (t1 - t0),
            "errors": len(errors)}


def _under_load(think: float, seconds: float, max_tables: int, start: int) -> dict:
    import shutil
    import tempfile
    port = _free_port()
    state_home = tempfile.mkdtemp(prefix="president-bench-")  # the server's own ledger
    # Every load player comes from 127.0.0.1: lift the per-address table rate, the
    # per-address connection cap (each player keeps its HTTP connection open) and the whole
    # server's rates for this run; they are measured by bench_attack.py instead.
    env = dict(os.environ, PRESIDENT_BOT_DELAY="0", PRESIDENT_WEB_SECRET="bench-web-load",
               XDG_STATE_HOME=state_home, PRESIDENT_WEB_TABLES_PER_MINUTE="0",
               PRESIDENT_WEB_SERVER_RATES="0", PRESIDENT_WEB_CONNECTIONS_PER_ADDRESS="100000")
    server = subprocess.Popen(   # the real command, with its uvicorn settings
        [sys.executable, "-m", "president", "serve", "--port", str(port), "--no-browser"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError("the server did not start") from None
                time.sleep(0.1)
        levels = []
        held = 0

        def run_level(k: int) -> bool:
            level = asyncio.run(_load_level(base, server.pid, k, think, seconds, seed=k))
            levels.append(level)
            print(f"  {k:5d} tables: {level['actions_per_s']:7.1f} actions/s, p50 {level['median_ms']:6.1f} ms, "
                  f"p95 {level['p95_ms']:6.1f} ms, server CPU {level['server_cpu_percent']:5.1f}%, "
                  f"RSS {level['server_rss_mb']:.0f} MB (load generator CPU {level['load_generator_cpu_percent']:.0f}%)",
                  file=sys.stderr, flush=True)
            return level["p95_ms"] < TARGET_MS and not level["errors"]

        k = start
        failed = None
        while k <= max_tables:
            if not run_level(k):
                failed = k
                break
            held = k
            k *= 2
        # Two bisection steps between the last level held and the first one missed.
        for _ in range(2 if failed else 0):
            mid = (held + failed) // 2
            if mid in (held, failed):
                break
            if run_level(mid):
                held = mid
            else:
                failed = mid
        return {"think_seconds": think, "levels": levels, "tables_under_target": held,
                "stopped_at_max": failed is None}
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(state_home, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--quick", action="store_true", help="short runs (also PRESIDENT_BENCH_QUICK=1)")
    parser.add_argument("--actions", type=int, default=None, help="in-process actions timed")
    parser.add_argument("--think", type=float, default=1.0,
                        help="seconds between a player's actions under load (default 1)")
    parser.add_argument("--seconds", type=float, default=None, help="measured seconds per load level")
    parser.add_argument("--start", type=int, default=25, help="tables at the first load level")
    parser.add_argument("--max-tables", type=int, default=None, help="stop doubling here")
    parser.add_argument("--in-process-only", action="store_true",
                        help="only the first figure (server time per action, in process)")
    args = parser.parse_args(argv)
    quick = args.quick or os.environ.get("PRESIDENT_BENCH_QUICK") == "1"
    actions = args.actions or (300 if quick else 2000)
    seconds = args.seconds or (3.0 if quick else 8.0)
    max_tables = args.max_tables or (200 if quick else 3200)

    inproc = asyncio.run(_in_process(actions, seed=1))
    if not args.json:
        print("Server time per human action (and every computer reply until the human's next turn),")
        print(f"house, 4 players, in process: {inproc['actions']} actions, median {inproc['median_ms']:.2f} ms, "
              f"p95 {inproc['p95_ms']:.2f} ms, max {inproc['max_ms']:.2f} ms, "
              f"{inproc['cpu_ms_per_action']:.2f} ms CPU per action, "
              f"{inproc['bytes_per_action']:.0f} bytes sent per action")
    if args.in_process_only:
        if args.json:
            print(json.dumps({"in_process": inproc}, indent=2))
        return 0
    if not args.json:
        print(f"Under load (real server, websockets, one action per ~{args.think:g} s per table):", flush=True)
    load = _under_load(args.think, seconds, max_tables, args.start)
    if args.json:
        print(json.dumps({"in_process": inproc, "under_load": load, "target_ms": TARGET_MS}, indent=2))
    else:
        more = " (the largest level tried)" if load["stopped_at_max"] else ""
        print(f"Tables held with p95 under {TARGET_MS:.0f} ms: {load['tables_under_target']}{more}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
