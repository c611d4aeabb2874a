#!/usr/bin/env python3
"""Lighthouse scores of the browser game's page. Not a test.

Runs npm's ``lighthouse`` in Debian's headless Chromium against the app served locally
(``python -m president serve`` in a subprocess, or ``--url-base`` for a server already
running) on two pages: ``/`` (the start screen) and ``/#practice`` (the page starts the seed-003
practice round when loaded with that hash), each with Lighthouse's mobile (default) and
desktop (``--preset=desktop``) settings. Prints the four category scores (performance,
accessibility, best-practices, seo) x 100 per page and form factor against the target of 95
each, then the top failing audits of each run (id, title, weight, first offending elements)
for whoever wants to fix them.

``python benchmarks/bench_lighthouse.py [--json] [--quick] [--strict] [--url-base URL]
[--runs N] [--audits N] [--save DIR]``; ``PRESIDENT_BENCH_QUICK=1`` (or ``--quick``) runs only
the mobile form factor (both pages).

Lighthouse is installed once with npm into ``~/.cache/president-lighthouse`` (outside the
repository; ``$PRESIDENT_LIGHTHOUSE_DIR`` elsewhere), pinned to :data:`LIGHTHOUSE_VERSION`
(``$PRESIDENT_LIGHTHOUSE_VERSION`` for another). Chromium is ``$CHROME_PATH`` or
``chromium`` on the PATH (``apt-get install chromium fonts-dejavu-core``). Without npm,
node or Chromium the script prints ``skipped: ...`` and exits 0 (so ``make bench`` passes on
such a machine); with ``--strict`` it exits 1 then, and also when a score misses the target.
A run that fails (the page does not load, Lighthouse crashes) always exits 1.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

TARGET = 95
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
SHORT = {"performance": "perf", "accessibility": "a11y", "best-practices": "best", "seo": "seo"}
PAGES = (("/", "start screen"), ("/#practice", "practice table"))
FORM_FACTORS = ("mobile", "desktop")
LIGHTHOUSE_VERSION = "12.8.2"
CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu"
UNSCORED = ("informative", "manual", "notApplicable", "error")
PASS_THRESHOLD = 0.9
"""An audit scoring under this (Lighthouse's own pass mark) is listed as failing."""
RUN_TIMEOUT = 240


class Skip(Exception):
    """A tool this benchmark needs is missing: skip (exit 0 unless ``--strict``)."""


class Failure(Exception):
    """A run that did not give scores."""


def log(*args) -> None:
    print(*args, file=sys.stderr, flush=True)


# ----- tools ------------------------------------------------------------------------------------

def cache_dir() -> Path:
    if os.environ.get("PRESIDENT_LIGHTHOUSE_DIR"):
        return Path(os.environ["PRESIDENT_LIGHTHOUSE_DIR"]).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "president-lighthouse"


def find_chromium() -> str:
    chosen = os.environ.get("CHROME_PATH")
    if chosen:
        if os.path.isfile(chosen) and os.access(chosen, os.X_OK):
            return chosen
        raise Skip(f"CHROME_PATH={chosen} is not an executable file")
    for candidate in (shutil.which("chromium"),
                      "/usr/bin/chromium", shutil.which("chromium-browser")):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    raise Skip("no Chromium (set CHROME_PATH, or: apt-get install -y chromium fonts-dejavu-core)")


def installed_version(prefix: Path) -> str | None:
    try:
        return json.loads((prefix / "node_modules" / "lighthouse" / "package.json").read_text())["version"]
    except (OSError, ValueError, KeyError):
        return None


def find_lighthouse(explicit: str | None) -> str:
    """The lighthouse command: ``explicit``, else the one in the cache folder, installed there
    with npm first if missing or of another version."""
    if explicit:
        if not shutil.which(explicit):
            raise Failure(f"--lighthouse {explicit}: no such command")
        return shutil.which(explicit)
    if not shutil.which("node"):
        raise Skip("no node (Lighthouse runs on Node.js; apt-get install -y nodejs npm)")
    prefix = cache_dir()
    binary = prefix / "node_modules" / ".bin" / "lighthouse"
    want = os.environ.get("PRESIDENT_LIGHTHOUSE_VERSION") or LIGHTHOUSE_VERSION
    if binary.exists() and installed_version(prefix) == want:
        return str(binary)
    npm = shutil.which("npm")
    if not npm:
        raise Skip(f"no npm to install lighthouse into {prefix} (apt-get install -y npm)")
    prefix.mkdir(parents=True, exist_ok=True)
    log(f"installing lighthouse {want} into {prefix} (once; about 30 s)")
    done = subprocess.run([npm, "install", "--prefix", str(prefix), "--no-audit", "--no-fund",
                           "--loglevel=error", f"lighthouse@{want}"],
                          capture_output=True, text=True, timeout=600)
    if done.returncode != 0 or not binary.exists():
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        raise Skip(f"npm could not install lighthouse@{want} into {prefix}: " + " / ".join(tail))
    return str(binary)


# ----- the server ------------------------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(url: str, seconds: float, proc: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        if proc is not None and proc.poll() is not None:
            raise Failure(f"the server exited with status {proc.returncode}")
        if time.monotonic() > deadline:
            raise Failure(f"no answer from {url} within {seconds:g} s")
        time.sleep(0.1)


@contextlib.contextmanager
def served():
    """``python -m president serve`` on a free port with its own state folder; yields its
    address and stops it afterwards."""
    state = Path(tempfile.mkdtemp(prefix="president-lighthouse-"))
    port = _free_port()
    env = dict(os.environ, PRESIDENT_WEB_SECRET="bench-lighthouse", XDG_STATE_HOME=str(state),
               PRESIDENT_BOT_DELAY=os.environ.get("PRESIDENT_BOT_DELAY", "0.8"), BROWSER="false")
    env.pop("PRESIDENT_WEB_ALLOW_SEED", None)
    errors = (state / "server.log").open("w+")
    proc = subprocess.Popen(
        [sys.executable, "-m", "president", "serve", "--no-browser", "--port", str(port)],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=errors)
    base = f"http://127.0.0.1:{port}"
    try:
        try:
            wait_for(base + "/", 30, proc)
        except Failure as e:
            errors.seek(0)
            tail = " / ".join(errors.read().strip().splitlines()[-3:])
            raise Failure(f"{e}{': ' + tail if tail else ''}") from None
        yield base
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        errors.close()
        shutil.rmtree(state, ignore_errors=True)


# ----- one Lighthouse run ------------------------------------------------------------------------

def score100(score: float | None) -> int | None:
    """A category score as Lighthouse shows it (``Math.round(score * 100)``)."""
    return None if score is None else math.floor(score * 100 + 0.5)


def failing_audits(lhr: dict, base: str = "") -> list[dict]:
    """Audits under Lighthouse's pass mark in the four categories, the ones that weigh most on
    a category score first (then the lowest scores); each once, with up to three places
    (element selectors, URLs without ``base``, console errors)."""
    out: dict[str, dict] = {}
    for cat in CATEGORIES:
        for ref in lhr.get("categories", {}).get(cat, {}).get("auditRefs", []):
            audit = lhr["audits"].get(ref["id"], {})
            score = audit.get("score")
            if (score is None or score >= PASS_THRESHOLD or ref["id"] in out
                    or audit.get("scoreDisplayMode") in UNSCORED):
                continue
            where = []
            for item in (audit.get("details") or {}).get("items", [])[:3]:
                if not isinstance(item, dict):
                    continue
                node = item.get("node") if isinstance(item.get("node"), dict) else {}
                spot = node.get("selector") or item.get("url")
                loc = item.get("sourceLocation") if isinstance(item.get("sourceLocation"), dict) else {}
                if isinstance(item.get("description"), str) and "source" in item:   # console
                    spot = item["description"].splitlines()[0][:160]
                    if loc.get("url"):
                        spot += f" ({loc['url']}:{loc.get('line', 0) + 1})"
                if isinstance(spot, str) and spot:
                    where.append(spot.replace(base, "") if base else spot)
            out[ref["id"]] = {"id": ref["id"], "title": audit.get("title", ""), "category": cat,
                              "weight": ref.get("weight", 0), "score": score,
                              "display_value": audit.get("displayValue"), "where": where}
    return sorted(out.values(), key=lambda a: (-a["weight"], a["score"], a["id"]))


def run_lighthouse(lighthouse: str, chromium: str, url: str, form_factor: str, flags: str,
                   save: Path | None, name: str) -> dict:
    """One Lighthouse run; its report (the ``lhr`` JSON)."""
    with tempfile.TemporaryDirectory(prefix="president-lighthouse-") as tmp:
        out = Path(tmp) / "report.json"
        argv = [lighthouse, url, f"--chrome-flags={flags}", "--output=json",
                f"--output-path={out}", "--only-categories=" + ",".join(CATEGORIES), "--quiet"]
        if form_factor == "desktop":
            argv.append("--preset=desktop")
        env = dict(os.environ, CHROME_PATH=chromium)
        proc = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, start_new_session=True)
        try:
            _, err = proc.communicate(timeout=RUN_TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)   # lighthouse and the Chromium it started
            proc.communicate()
            raise Failure(f"lighthouse {url} ({form_factor}) took over {RUN_TIMEOUT} s") from None
        if not out.exists():
            tail = " / ".join(err.strip().splitlines()[-3:])
            raise Failure(f"lighthouse {url} ({form_factor}) exited {proc.returncode}: {tail}")
        text = out.read_text()
        if save is not None:
            save.mkdir(parents=True, exist_ok=True)
            (save / f"{name}.json").write_text(text)
        return json.loads(text)


def measure(lighthouse: str, chromium: str, base: str, page: str, label: str, form_factor: str,
            *, runs: int, flags: str, save: Path | None) -> dict:
    """``runs`` Lighthouse runs of one page and form factor: the median score per category and
    the failing audits of the run nearest that median (the last run on a tie)."""
    reports = []
    name = ("start" if page == "/" else page.strip("/#").replace("/", "-")) + "-" + form_factor
    for i in range(runs):
        log(f"lighthouse {page} ({form_factor}){f' run {i + 1}/{runs}' if runs > 1 else ''}")
        lhr = run_lighthouse(lighthouse, chromium, base + page, form_factor, flags, save,
                             name + (f"-{i + 1}" if runs > 1 else ""))
        error = lhr.get("runtimeError")
        if error:
            raise Failure(f"lighthouse {page} ({form_factor}): {error.get('code')}: {error.get('message')}")
        reports.append(lhr)
    per_run = [{c: score100(r["categories"].get(c, {}).get("score")) for c in CATEGORIES}
               for r in reports]
    scores = {c: (None if any(s[c] is None for s in per_run)
                  else int(statistics.median_low([s[c] for s in per_run]))) for c in CATEGORIES}
    nearest = min(range(runs), key=lambda i: (sum(abs((per_run[i][c] or 0) - (scores[c] or 0))
                                                   for c in CATEGORIES), -i))
    lhr = reports[nearest]
    return {"page": page, "label": label, "form_factor": form_factor, "url": base + page,
            "scores": scores, "runs": per_run if runs > 1 else None,
            "below_target": [c for c in CATEGORIES if scores[c] is None or scores[c] < TARGET],
            "failing_audits": failing_audits(lhr, base),
            "lighthouse_version": lhr.get("lighthouseVersion"),
            "benchmark_index": lhr.get("environment", {}).get("benchmarkIndex"),
            "browser": (re.search(r"Chrome/([\d.]+)", lhr.get("environment", {}).get("hostUserAgent", ""))
                        or [None, None])[1]}


# ----- report ------------------------------------------------------------------------------------

def print_table(results: list[dict], audits: int, runs: int) -> None:
    first = results[0]
    each = f"the median of {runs} runs" if runs > 1 else "one run each"
    speeds = [r["benchmark_index"] for r in results if r.get("benchmark_index")]
    span = (f"{min(speeds):.0f}" if speeds and round(min(speeds)) == round(max(speeds))
            else f"{min(speeds, default=0):.0f}-{max(speeds, default=0):.0f}")
    speed = f", machine benchmark index {span}" if speeds else ""
    print(f"Lighthouse {first['lighthouse_version']}, headless Chromium {first['browser']}{speed}")
    print(f"Scores x 100 ({each}); target {TARGET} in each category (* below it)")
    width = max(len(f"{r['page']} ({r['label']})") for r in results)
    print(f"{'page':<{width}}  {'form':<7}" + "".join(f"  {SHORT[c]:>5}" for c in CATEGORIES))
    for r in results:
        cells = "".join(f"  {('-' if r['scores'][c] is None else r['scores'][c]):>4}"
                        f"{'*' if c in r['below_target'] else ' '}" for c in CATEGORIES)
        print(f"{r['page'] + ' (' + r['label'] + ')':<{width}}  {r['form_factor']:<7}{cells}")
    if audits <= 0:
        return
    print(f"\nFailing audits (score under {PASS_THRESHOLD:g}; highest weight in its category first, "
          f"weight 0 counts toward no score; at most {audits} a run):")
    for r in results:
        shown = r["failing_audits"][:audits]
        more = len(r["failing_audits"]) - len(shown)
        print(f"  {r['page']} {r['form_factor']}: " + ("none" if not shown else
                                                        f"{len(r['failing_audits'])} failing" +
                                                        (f", {more} not shown" if more else "")))
        for a in shown:
            value = f" ({a['display_value']})" if a["display_value"] else ""
            where = f" at {', '.join(a['where'])}" if a["where"] else ""
            print(f"    {a['id']} [{a['category']}, weight {a['weight']:g}, score {a['score']:g}]: "
                  f"{a['title']}{value}{where}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--quick", action="store_true",
                        help="only the mobile form factor (also PRESIDENT_BENCH_QUICK=1)")
    parser.add_argument("--strict", action="store_true",
                        help="exit 1 when skipped or when a score is under the target")
    parser.add_argument("--url-base", metavar="URL",
                        help="an already-running server, e.g. http://127.0.0.1:8000 (else one "
                             "is started)")
    parser.add_argument("--runs", type=int, default=1,
                        help="Lighthouse runs per page and form factor; the median score is "
                             "shown (default 1)")
    parser.add_argument("--audits", type=int, default=5, help="failing audits shown per run (default 5)")
    parser.add_argument("--save", metavar="DIR", type=Path,
                        help="keep each Lighthouse JSON report in DIR (the Lighthouse viewer "
                             "opens them)")
    parser.add_argument("--chrome-flags", default=CHROME_FLAGS,
                        help=f'flags for Chromium, written --chrome-flags="..." '
                             f'(default "{CHROME_FLAGS}")')
    parser.add_argument("--lighthouse", metavar="COMMAND",
                        help="a lighthouse command to use instead of the cached install")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    quick = args.quick or os.environ.get("PRESIDENT_BENCH_QUICK") == "1"
    form_factors = ("mobile",) if quick else FORM_FACTORS

    try:
        chromium = find_chromium()
        lighthouse = find_lighthouse(args.lighthouse)
    except Skip as e:
        if args.json:
            print(json.dumps({"skipped": str(e), "target": TARGET}, indent=2))
        else:
            print(f"skipped: {e}")
        return 1 if args.strict else 0
    except Failure as e:
        print(f"failed: {e}", file=sys.stderr)
        return 1

    results = []
    try:
        with contextlib.ExitStack() as stack:
            if args.url_base:
                base = args.url_base.rstrip("/")
                wait_for(base + "/", 5)
            else:
                base = stack.enter_context(served())
            for page, label in PAGES:
                for ff in form_factors:
                    results.append(measure(lighthouse, chromium, base, page, label, ff,
                                           runs=args.runs, flags=args.chrome_flags, save=args.save))
    except Failure as e:
        print(f"failed: {e}", file=sys.stderr)
        return 1

    met = all(not r["below_target"] for r in results)
    if args.json:
        print(json.dumps({"target": TARGET, "categories": list(CATEGORIES), "met": met,
                          "quick": quick, "results": results}, indent=2))
    else:
        print_table(results, args.audits, args.runs)
        below = sum(len(r["below_target"]) for r in results)
        print(f"\nTarget {TARGET} " + ("met in every category." if met else
                                       f"missed in {below} of {len(results) * len(CATEGORIES)} scores."))
    return 1 if (args.strict and not met) else 0


if __name__ == "__main__":
    sys.exit(main())
