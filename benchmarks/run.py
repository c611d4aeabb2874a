#!/usr/bin/env python3
"""Print every speed and load figure of the project: ``make bench`` or
``python benchmarks/run.py [--quick] [--strict]``.

First the engine figures of ``president bench`` (random full deals per second through the
checked public API; target 1,000 deals/s with 4 players under ``house`` on one core), then
every other ``benchmarks/bench_*.py`` script found beside this file, in name order, each
run as its own process and printing its own figures.

``--quick`` asks for short runs: ``president bench`` gets ``--seconds 1``, and each script
finds ``PRESIDENT_BENCH_QUICK=1`` in its environment. ``--strict`` makes the exit status 1
when the engine target is missed; any script that fails also makes it 1.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def scripts() -> list[Path]:
    """The other benchmark scripts, ``benchmarks/bench_*.py``, sorted by name."""
    return sorted(HERE.glob("bench_*.py"))


def commands(*, quick: bool = False, strict: bool = False) -> list[tuple[str, list[str]]]:
    """``(title, argv)`` of every run, in order: ``president bench``, then the scripts."""
    engine = [sys.executable, "-m", "president", "bench"]
    engine += (["--seconds", "1"] if quick else []) + (["--check"] if strict else [])
    return [("president bench", engine)] + [(p.name, [sys.executable, str(p)])
                                            for p in scripts()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="short runs")
    parser.add_argument("--strict", action="store_true",
                        help="exit 1 if the engine target (1,000 deals/s) is missed")
    args = parser.parse_args(argv)
    env = dict(os.environ)
    if args.quick:
        env["PRESIDENT_BENCH_QUICK"] = "1"
    failed = []
    for title, cmd in commands(quick=args.quick, strict=args.strict):
        print(f"\n=== {title} ===", flush=True)
        start = time.perf_counter()
        status = subprocess.call(cmd, cwd=ROOT, env=env)
        print(f"--- {title}: exit {status}, {time.perf_counter() - start:.1f} s", flush=True)
        if status:
            failed.append(title)
    if failed:
        print(f"\nFailed or missed target: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
