#!/usr/bin/env python3
"""Whole-deal play-outs per CPU second: the Python code (``president.players.fastsim``) and
the compiled one (``president.players.compiled``, C) side by side in one run.

A deal here is :meth:`FastDeal.random <president.players.fastsim.FastDeal.random>` (a
shuffled deck dealt into counts per rank) played to its end by a policy, both drawing from
one seeded ``random.Random`` (:func:`president.players.compiled.random_deals`; the compiled
batch runs 1,000 deals per call, the Python one 20). The two sides give the same finishing
orders for the same seed (``tests/test_compiled.py``); only their speed differs. Figures are
deals per CPU second of this process (:func:`time.process_time`), so other processes on the
machine slow them less than a wall clock would, though a busy machine still lowers them.

Rows: the headline (``house``, 4 players, random policy; issue 12's target is at least
500,000 compiled deals per CPU second), then the greedy policy (the simple player's idea)
and other table sizes and options for context. ``compiled`` is ``null`` when the extension
is not built or ``PRESIDENT_PURE=1``.

    .venv/bin/python benchmarks/bench_playouts.py [--seconds S] [--json] [--strict]

``PRESIDENT_BENCH_QUICK=1`` (``run.py --quick``) shortens each run. Exit status 0, also when
the target is missed (``--strict``: 1 then).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from president import Rules  # noqa: E402
from president.players import compiled  # noqa: E402

TARGET_COMPILED_DEALS_PER_CPU_SECOND = 500_000

ROWS = [  # (rules, players, policy); the first row is the headline
    ("house", 4, "random"),
    ("house", 4, "greedy"),
    ("house", 4, "climbing"),
    ("first-night", 3, "random"),
    ("house+sit-out", 5, "random"),
    ("family+once-around", 6, "random"),
    ("first-night", 7, "random"),
]


def row(name: str, players: int, policy: str, seconds: float) -> dict:
    """Python and compiled figures of one row."""
    rules = Rules.parse(name, players=players)
    py = compiled.measure_deals(rules, compiled=False, seconds=seconds, policy=policy)
    c = compiled.measure_deals(rules, compiled=True, seconds=seconds, policy=policy)
    return {"rules": name, "players": players, "policy": policy, "python": py, "compiled": c,
            "speedup": round(c["deals_per_cpu_second"] / py["deals_per_cpu_second"], 1)
            if c else None}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    quick = os.environ.get("PRESIDENT_BENCH_QUICK") == "1"
    parser.add_argument("--seconds", type=float, default=0.3 if quick else 1.0,
                        help="CPU seconds per figure (default 1, 0.3 with --quick)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--strict", action="store_true",
                        help="exit 1 when the compiled target is missed or not built")
    args = parser.parse_args(argv)
    rows = [row(*r, seconds=args.seconds) for r in (ROWS[:2] if quick else ROWS)]
    head = rows[0]["compiled"]
    met = None if head is None else \
        head["deals_per_cpu_second"] >= TARGET_COMPILED_DEALS_PER_CPU_SECOND
    report = {"rows": rows, "compiled_available": compiled.AVAILABLE,
              "target": {"deals_per_cpu_second": TARGET_COMPILED_DEALS_PER_CPU_SECOND,
                         "rules": "house", "players": 4, "policy": "random", "met": met}}
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print("Whole deals (shuffle + play-out) per CPU second, Python and compiled, one run.")
        print(f"{'rules':<20} {'seats':>5} {'policy':<9} {'python':>10} {'compiled':>11} "
              f"{'speedup':>8}")
        for r in rows:
            c = r["compiled"]
            fast = f"{c['deals_per_cpu_second']:,.0f}" if c else "n/a"
            gain = f"{r['speedup']}x" if c else ""
            print(f"{r['rules']:<20} {r['players']:>5} {r['policy']:<9} "
                  f"{r['python']['deals_per_cpu_second']:>10,.0f} {fast:>11} {gain:>8}")
        if met is None:
            print("The compiled play-outs are not built (or PRESIDENT_PURE=1): no compiled "
                  "figures.")
        else:
            print(f"Target {TARGET_COMPILED_DEALS_PER_CPU_SECOND:,} compiled deals per CPU "
                  f"second (house, 4 players, random): {'met' if met else 'MISSED'}, "
                  f"{head['deals_per_cpu_second']:,.0f}.")
    return 1 if args.strict and not met else 0


if __name__ == "__main__":
    sys.exit(main())
