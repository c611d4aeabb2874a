"""Play on issue 14's kept run, `master` against three `expert` players, a board at a time.

    python benchmarks/master_vs_experts.py --parity 0 --check   # first: the expert is the same
    python benchmarks/master_vs_experts.py --parity 0 --out benchmarks/results/runA.jsonl &
    python benchmarks/master_vs_experts.py --parity 1 --out benchmarks/results/runB.jsonl &

Each process plays the boards of its parity (0: even, 1: odd) that neither
``benchmarks/results/master-vs-experts.jsonl`` nor ``--out`` holds, lowest first, and
appends each board to ``--out`` as it finishes (:class:`president.simulate.BoardStore`,
the same key as ``president simulate --store``, so the command in docs/strength.md reads
the boards once they are appended to the kept file). One process per core.

Which code plays: ``master`` is the code of ``--pin`` (dee2eed, the commit whose `master`
played the first boards of the run), so every board of the run has the same `master`;
``expert`` is this checkout's, whose choices are those of the pinned expert, bit for bit,
only faster (``--check`` plays two deals with both and compares every choice). `master`'s
budget is CPU time, so a faster search would change how many worlds it looks at and
with them its strength; the expert's budget is a count of play-outs, so speed changes
nothing it chooses.
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import subprocess
import sys
import tarfile
import time
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KEPT = ROOT / "benchmarks" / "results" / "master-vs-experts.jsonl"
COMPILED_SOURCES = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "president" / "native").glob("*.[ch]"))


def pinned_package(commit: str) -> Path:
    """A copy of the ``president`` package at ``commit`` (under /tmp), with this checkout's
    compiled extensions, which must have been built from the same C sources."""
    changed = subprocess.run(["git", "diff", "--quiet", commit, "--", *COMPILED_SOURCES],
                             cwd=ROOT).returncode
    if changed:
        sys.exit(f"the C sources changed since {commit}: build that commit's extensions "
                 "instead of copying this checkout's")
    where = Path("/tmp") / f"president-pinned-{commit}"
    if not (where / "president" / "__init__.py").exists():
        tar = subprocess.run(["git", "archive", commit, "president"], cwd=ROOT,
                             check=True, capture_output=True).stdout
        part = where.with_name(f"{where.name}.part{os.getpid()}")   # one per process
        with tarfile.open(fileobj=io.BytesIO(tar)) as t:
            t.extractall(part, filter="data")
        for so in (ROOT / "president").glob("_*.so"):
            shutil.copy2(so, part / "president" / so.name)
        try:
            os.replace(part, where)
        except OSError:          # the other process made it first: the same files
            shutil.rmtree(part)
    return where


def this_checkouts_expert() -> type:
    """This checkout's ``ExpertPlayer``, built on the pinned package (so it takes the
    pinned package's observations and actions)."""
    name = "president.players.expert_checkout"
    module = types.ModuleType(name)
    module.__package__ = "president.players"
    module.__file__ = str(ROOT / "president" / "players" / "expert.py")
    sys.modules[name] = module
    source = (ROOT / "president" / "players" / "expert.py").read_text()
    exec(compile(source, module.__file__, "exec"), module.__dict__)
    return module.ExpertPlayer


def check(old: type, new: type) -> None:
    """Two deals of four experts with each class: every choice and count the same."""
    from president import Match, Rules
    from president.deal import deal_hands
    from president.simulate import _single_deal

    rules = _single_deal(Rules.parse("house", players=4))

    def play(cls: type) -> tuple[list[str], float]:
        got: list[str] = []
        cpu = time.process_time()
        for s in (777, 778):
            m = Match(rules, hands=deal_hands(4, 3, s), record_events=False)
            players = [cls(seed=p, playouts=12000, time_limit=None) for p in range(4)]
            while m.to_act is not None:
                seat = m.to_act
                choice = players[m.seating[seat]].act(m.observation(seat))
                got.append(repr(choice))
                m.act(seat, choice)
            got.append(repr([{k: v for k, v in p.stats.items() if "seconds" not in k}
                             for p in players]))
        return got, time.process_time() - cpu

    a, ta = play(old)
    b, tb = play(new)
    if a != b:
        sys.exit("this checkout's expert chooses differently from the pinned one")
    print(f"same {len(a)} choices and counts; CPU {ta:.1f} s pinned, {tb:.1f} s this checkout")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--parity", type=int, choices=(0, 1), required=True)
    parser.add_argument("--out", required=True, help="where this process appends its boards")
    parser.add_argument("--pin", default="eccf056",
                        help="the commit whose master plays (eccf056: the players of dee2eed, "
                             "and BoardStore)")
    parser.add_argument("--check", action="store_true",
                        help="only check that this checkout's expert chooses as the pinned "
                             "one (plays no board)")
    args = parser.parse_args()
    out = os.path.abspath(args.out)
    sys.path.insert(0, str(pinned_package(args.pin)))
    import president.simulate as simulate
    from president.players import expert as pinned_expert
    from president.rules import Rules

    fast = this_checkouts_expert()
    if args.check:
        check(pinned_expert.ExpertPlayer, fast)
        return
    pinned_level_class = simulate.level_class
    simulate.level_class = lambda level: fast if level == "expert" else pinned_level_class(level)
    config = simulate.SimulationConfig(
        rules=Rules.parse("house", players=4), seats=("master", "expert", "expert", "expert"),
        boards=1000, seed=0, matches=False, max_deals=30,
        player_options={"expert": {"playouts": 12000, "time_limit": None}})
    done = set(simulate.BoardStore(KEPT).load(config)) | set(simulate.BoardStore(out).load(config))
    store = simulate.BoardStore(out)
    for board in range(args.parity, config.boards, 2):
        if board in done:
            continue
        started = time.time()
        store.add(config, board, simulate.play_board(config, board))
        print(board, f"{time.time() - started:.1f} s", flush=True)


if __name__ == "__main__":
    main()
