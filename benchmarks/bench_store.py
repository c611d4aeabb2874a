#!/usr/bin/env python3
"""CPU per accepted action through the table store alone, per engine (issue 34). Not a test.

For each engine, N tables are made, then ``--actions`` calls of ``append_batches`` with one
action each (round-robin over the tables, as the group commit writes a lone action), and the
script prints this process's CPU seconds (user + system, ``time.process_time``) and the wall
time per action. The database server's own CPU (PostgreSQL's backend processes) is not in
this process's figure: it prints the backends' too when it can read them (``/proc``, a server
on this machine).

    python benchmarks/bench_store.py [--actions 10000] [--postgres postgresql://postgres@127.0.0.1:5432/test]

PostgreSQL runs in a schema of its own (``bench_<random>``), dropped at the end; SQLite in a
temporary folder.
"""

from __future__ import annotations

import argparse
import secrets
import tempfile
import time
from pathlib import Path


def _backend_cpu(address: str) -> float | None:
    """CPU seconds of every PostgreSQL backend named ``president`` (``/proc``), or ``None``."""
    try:
        import psycopg
        with psycopg.connect(address, autocommit=True) as conn:
            pids = [r[0] for r in conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE application_name = 'president'")]
        tick = 100.0
        total = 0.0
        for pid in pids:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
        return total
    except Exception:
        return None


def measure(store, actions: int, tables: int, backend=None) -> tuple[float, float, float | None]:
    for t in range(tables):
        store.add(f"t{t}", {"v": 1, "id": f"t{t}"})
    counts = [0] * tables
    before_backend = backend() if backend else None
    cpu, wall = time.process_time(), time.perf_counter()
    for i in range(actions):
        t = i % tables
        store.append_batches([(f"t{t}", counts[t], [f'[{i % 4},"pass"]'])])
        counts[t] += 1
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    after_backend = backend() if backend else None
    server = (after_backend - before_backend) if (before_backend is not None
                                                   and after_backend is not None) else None
    return cpu, wall, server


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--actions", type=int, default=10_000)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--postgres", default="postgresql://postgres@127.0.0.1:5432/test")
    parser.add_argument("--engines", default="sqlite,postgresql")
    args = parser.parse_args()
    for engine in args.engines.split(","):
        if engine == "sqlite":
            from president.web.store import TableStore
            with tempfile.TemporaryDirectory() as folder:
                store = TableStore(Path(folder) / "web-tables.sqlite3")
                cpu, wall, server = measure(store, args.actions, args.tables)
                store.close()
        else:
            import psycopg

            from president.web.store_pg import PgTableStore
            schema = f"bench_{secrets.token_hex(4)}"
            with psycopg.connect(args.postgres, autocommit=True) as conn:
                conn.execute(f'CREATE SCHEMA "{schema}"')
            sep = "&" if "?" in args.postgres else "?"
            address = f"{args.postgres}{sep}options=-csearch_path%3D{schema}"
            try:
                store = PgTableStore(address)
                cpu, wall, server = measure(store, args.actions, args.tables,
                                            lambda address=address: _backend_cpu(address))
                store.close()
            finally:
                with psycopg.connect(args.postgres, autocommit=True) as conn:
                    conn.execute(f'DROP SCHEMA "{schema}" CASCADE')
        per = 1e6 / args.actions
        line = (f"{engine:10s} {args.actions} actions: this process {cpu:.2f} s CPU "
                f"({cpu * per:.0f} us/action), wall {wall:.2f} s ({wall * per:.0f} us/action)")
        if server is not None:
            line += f", database backends {server:.2f} s CPU ({server * per:.0f} us/action)"
        print(line, flush=True)


if __name__ == "__main__":
    main()
