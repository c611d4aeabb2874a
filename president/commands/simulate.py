"""``president simulate``: computer levels against each other, with confidence intervals.

    president simulate --rules house --players 4 \\
        --seats expert,intermediate,intermediate,intermediate --deals 1000 --jobs 2
    president simulate --seats expert,simple,simple,simple --deals 20000 \\
        --backend ray --address auto        # on a Ray cluster (extra ray)

Duplicate play: every board (a set of dealt cards) is replayed once per rotation of the seat
assignment, so each level sits in every seat on the same cards. Prints per level the mean
finishing place, points per deal, chance of first and of last place, each with a 95%
interval, and how many places each level is ahead of each weaker one. ``--json`` prints the
same as JSON. ``--store FILE`` keeps each board's result as it finishes, so that a long run
can be stopped and resumed (or extended) with the same command. See :mod:`president.simulate`.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING, Any

from ..errors import RulesError
from ..players import LEVELS, is_import_path, level_choices
from ..rules import Rules

if TYPE_CHECKING:
    from ..simulate import SimulationConfig

HELP = "Play computer levels against each other and report their strength."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rules", default="house", metavar="PRESET[+TWIST...][/OPTION=VALUE...]",
                        help="rules, e.g. house, first-night+swap (default: house)")
    parser.add_argument("--players", type=int, default=None, help="table size (default: "
                        "the number of --seats, else the preset's smallest table)")
    parser.add_argument("--seats", default=None, metavar="LEVEL,LEVEL,...",
                        help=f"a level per seat, from: {level_choices()} (default: "
                             "intermediate at the first "
                             "seat, simple at the others)")
    parser.add_argument("--deals", type=int, default=400, metavar="N",
                        help="deals to play, at least (default 400): cards are dealt in "
                             "boards, each played once per seat rotation, so N is rounded "
                             "up to whole boards (N / players of them)")
    parser.add_argument("--matches", action="store_true",
                        help="play whole matches (with exchanges) instead of single deals; "
                             "--deals then counts matches, rotations included")
    parser.add_argument("--max-deals", type=int, default=30, metavar="N",
                        help="with --matches, stop a match after N deals (default 30)")
    parser.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    parser.add_argument("--jobs", type=int, default=1, metavar="N",
                        help="worker processes (default 1)")
    add_backend_arguments(parser)
    parser.add_argument("--expert-playouts", type=int, default=None, metavar="N",
                        help="the expert's play-out budget per decision")
    parser.add_argument("--expert-time", type=float, default=None, metavar="SECONDS",
                        help="the expert's time limit per decision (0: none, so results "
                             "do not depend on the machine's load)")
    parser.add_argument("--store", default=None, metavar="FILE",
                        help="keep each board's result in FILE (JSON lines) as it finishes, "
                             "and play only the boards FILE does not hold yet for these "
                             "options: a long run can be stopped and resumed, or extended "
                             "with a larger --deals. One file can hold runs of several "
                             "options; start a new file when the levels' code changes")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def add_backend_arguments(parser: argparse.ArgumentParser) -> None:
    """``--backend`` and ``--address``, shared by ``simulate`` and ``tournament``."""
    parser.add_argument("--backend", choices=("local", "ray"), default="local",
                        help="where the boards are played: local (this machine's processes, "
                             "--jobs of them; the default) or ray (Ray tasks; needs the ray "
                             "extra). The same seed gives the same result on either")
    parser.add_argument("--address", default=None, metavar="ADDRESS",
                        help="with --backend ray, the Ray cluster to use (e.g. auto, "
                             "HOST:6379 or ray://HOST:10001; default: start a Ray on this "
                             "machine for the run)")


def backend_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with ``--backend``, ``--address`` and ``--jobs`` together, if anything."""
    if args.address is not None and args.backend != "ray":
        return f"--address {args.address} is for --backend ray (a Ray cluster)"
    if args.backend == "ray" and args.jobs != 1:
        return ("--jobs is for --backend local; with --backend ray the boards are spread over "
                "every CPU of the Ray cluster")
    return None


def expert_options(args: argparse.Namespace) -> dict[str, dict[str, Any]]:
    """The per-level options that ``--expert-playouts`` and ``--expert-time`` give (``{}`` when
    neither is set): ``{"expert": {"playouts": N, "time_limit": S}}``, a time of 0 meaning no
    time limit. Shared by ``simulate`` and ``tournament``."""
    if args.expert_playouts is None and args.expert_time is None:
        return {}
    expert = {k: v for k, v in (("playouts", args.expert_playouts),
                                ("time_limit", args.expert_time)) if v is not None}
    if expert.get("time_limit") == 0:
        expert["time_limit"] = None
    return {"expert": expert}


def _fail(message: str) -> int:
    print(f"president simulate: {message}", file=sys.stderr)
    return 2


def _check_counts(args: argparse.Namespace) -> str | None:
    """What is wrong with the numeric options, in the words of the command line."""
    for flag, value, least in (("--deals", args.deals, 1), ("--max-deals", args.max_deals, 1),
                               ("--jobs", args.jobs, 1), ("--expert-playouts",
                                                          args.expert_playouts, 1)):
        if value is not None and value < least:
            return f"{flag} {value} must be at least {least}"
    if args.expert_time is not None and not args.expert_time >= 0:
        return (f"--expert-time {args.expert_time} must be 0 or more seconds "
                "(0: no time limit, only the play-out budget)")
    return None


def run(args: argparse.Namespace) -> int:
    from ..simulate import SimulationConfig

    wrong = _check_counts(args) or backend_problem(args)
    if wrong:
        return _fail(wrong)
    if args.seats is not None and not args.seats.strip():
        return _fail("--seats is empty; give a level per seat, e.g. "
                     "--seats intermediate,simple,simple,simple")
    seats = [s.strip() for s in args.seats.split(",")] if args.seats else None
    unknown = [s for s in seats or () if s not in LEVELS and not is_import_path(s)]
    if unknown:
        return _fail(f"no computer level {', '.join(map(repr, unknown))} in --seats; "
                     f"levels are: {level_choices()}")
    players = args.players if args.players is not None else (len(seats) if seats else None)
    try:
        rules = Rules.parse(args.rules, players=players)
    except RulesError as e:
        if seats is not None and args.players is None and e.option == "players":
            return _fail(f"--seats gives {len(seats)} levels, so a table of {len(seats)}: "
                         f"{e.message}")
        return _fail(e.message)
    if seats is None:
        seats = ["intermediate"] + ["simple"] * (rules.players - 1)
    options = expert_options(args)
    try:
        config = SimulationConfig(rules=rules, seats=tuple(seats),
                                  boards=-(-args.deals // rules.players),
                                  seed=args.seed, matches=args.matches,
                                  max_deals=args.max_deals, player_options=options)
        if "expert" in options:
            from ..players.expert import ExpertPlayer
            ExpertPlayer(**options["expert"])  # checks the budget before any work starts
    except ValueError as e:
        return _fail(str(e))

    try:
        import rich  # noqa: F401  (the progress bar; optional)
        bar_available = True
    except ImportError:
        bar_available = False
    where: dict[str, Any] = {"jobs": args.jobs, "backend": args.backend,
                             "address": args.address}
    if args.store is not None:
        resumed = _resume(config, args.store, where)
        if isinstance(resumed, str):
            return _fail(resumed)
    try:
        result = _run(config, where, quiet=args.quiet or not bar_available)
    except ValueError as e:     # e.g. a bot of one's own that returned an illegal action
        return _fail(str(e))
    except OSError as e:
        if args.store is None:
            raise
        return _fail(f"--store {args.store}: cannot write it ({e.strerror or e}); the boards "
                     "stored before this one are kept")
    except KeyboardInterrupt:
        kept = (f"; the boards finished are kept in {args.store}: run the same command to "
                "resume" if args.store is not None and os.path.exists(args.store) else "")
        print(f"president simulate: stopped{kept}", file=sys.stderr)
        return 130
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print_table(result)
    return 0


def _resume(config: "SimulationConfig", path: str, where: dict[str, Any]) -> str | None:
    """Set ``where`` up to play only the boards that ``path`` does not hold for this run
    (``boards``, ``done``, ``on_result`` of :func:`~president.simulate.simulate`), and say on
    standard error how many it holds. Returns what is wrong with the file, if anything."""
    from ..simulate import BoardStore

    if not path:
        return "--store needs a file name (new, or written by --store)"
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        return f"--store {path}: there is no folder {folder}; give a file in a folder that exists"
    if os.path.exists(path) and not os.path.isfile(path):
        return f"--store {path} is not a regular file; give a file name (new or written by --store)"
    store = BoardStore(path)
    try:
        stored = store.load(config)
    except ValueError as e:
        return f"--store {e}"
    except OSError as e:
        return f"--store {path}: cannot read it ({e.strerror or e}); give a file you can read"
    held = sorted(b for b in stored if b < config.boards)
    where["boards"] = [b for b in range(config.boards) if b not in stored]
    where["done"] = [stored[b] for b in held]
    where["on_result"] = lambda board, result: store.add(config, board, result)
    if where["boards"] and not os.access(path if os.path.exists(path) else folder, os.W_OK):
        return (f"--store {path}: cannot write it (permission denied) and "
                f"{len(where['boards'])} boards are still to play; give a file you can write")
    if held:
        print(f"president simulate: {len(held)} of {config.boards} boards already in {path}; "
              f"playing the other {len(where['boards'])}", file=sys.stderr)
    elif store.others:
        boards = "board" if store.others == 1 else "boards"
        print(f"president simulate: {path} holds {store.others} {boards} of other options "
              "(rules, seats, seed, --matches or the expert's budget) and none of these; "
              f"playing all {config.boards}", file=sys.stderr)
    return None


def _run(config: "SimulationConfig", where: dict[str, Any], *, quiet: bool) -> dict[str, Any]:
    """:func:`~president.simulate.simulate`, with a progress bar on standard error unless
    ``quiet``. Raises ``ValueError`` as it does."""
    from ..simulate import simulate

    if quiet:
        return simulate(config, **where)
    from rich.console import Console
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                               TimeElapsedColumn, TimeRemainingColumn)
    with Progress(TextColumn("[bold]boards"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), TimeRemainingColumn(),
                  console=Console(stderr=True), transient=True) as bar:
        total = len(where["boards"]) if "boards" in where else config.boards
        task = bar.add_task("boards", total=total)
        return simulate(config, **where, progress=lambda k: bar.advance(task, k))


def _ci(iv: dict[str, Any], digits: int = 3, scale: float = 1.0) -> str:
    if iv["mean"] is None:
        return "—"
    m = iv["mean"] * scale
    if iv["high"] is None:
        return f"{m:.{digits}f} (no interval: 1 board)"
    half = (iv["high"] - iv["mean"]) * scale
    return f"{m:.{digits}f} ± {half:.{digits}f}"


def print_table(result: dict[str, Any]) -> None:
    """Print a simulation result as tables on standard output (``rich`` tables when it is
    installed, plain text otherwise)."""
    from .plain import console_and_table

    Console, Table = console_and_table()
    console = Console() if sys.stdout.isatty() else Console(width=120)
    boards = f"{result['boards']} board{'s' if result['boards'] != 1 else ''}"
    played = result["boards"] * result["rotations"]
    size = (f"{boards} × {result['rotations']} rotations = {played} matches, "
            f"{result['deals']} deals" if result["matches"] else
            f"{boards} × {result['rotations']} rotations = {result['deals']} deals")
    console.print(f"[bold]{result['rules']}[/], {result['players']} players, seats "
                  f"{','.join(result['seats'])}: {size}, seed "
                  f"{result['seed']}, {result['seconds']:.1f} s", soft_wrap=True)
    table = Table(title="per level: mean ± half-width of the 95% interval")
    table.add_column("level")
    table.add_column("seats", justify="right")
    table.add_column("mean place", justify="right")
    table.add_column("points/deal", justify="right")
    table.add_column("first %", justify="right")
    table.add_column("last %", justify="right")
    won = result["matches"] and all("match_won" in e for e in result["levels"].values())
    if won:
        table.add_column("matches won % (a shared win counts for each)", justify="right")
    for lv, e in result["levels"].items():
        points = _ci(e["points_per_deal"]) if result.get("scored", True) else "— (no scoring)"
        row = [lv, str(e["seats"]), _ci(e["mean_place"]), points,
               _ci(e["first"], 1, 100), _ci(e["last"], 1, 100)]
        if won:
            row.append(_ci(e["match_won"], 1, 100))
        table.add_row(*row)
    console.print(table)
    if result["comparisons"]:
        comp = Table(title="places ahead (weaker level's mean place − stronger's)")
        comp.add_column("stronger")
        comp.add_column("weaker")
        comp.add_column("places ahead", justify="right")
        for c in result["comparisons"]:
            comp.add_row(c["stronger"], c["weaker"], _ci(c["places_ahead"]))
        console.print(comp)
    for lv, e in result["levels"].items():
        s = e.get("search")
        if s and s.get("searched"):
            console.print(f"{lv} search: {int(s['searched'])} searched decisions, "
                          f"{s['mean_seconds_per_search'] * 1000:.0f} ms each on average "
                          f"(CPU {s['mean_cpu_seconds_per_search'] * 1000:.0f} ms), slowest "
                          f"{s.get('max_seconds', 0) * 1000:.0f} ms (CPU "
                          f"{s.get('max_cpu_seconds', 0) * 1000:.0f} ms), "
                          f"{s['mean_playouts_per_search']:.0f} play-outs each, "
                          f"{s.get('playouts_per_cpu_second', 0):.0f} play-outs per CPU second"
                          + (f", {s['worlds'] / s['searched']:.0f} worlds each, "
                             f"{s['mean_effective_worlds_per_search']:.0f} of them in effect "
                             "(the weights' effective number)"
                             if "mean_effective_worlds_per_search" in s else ""))
