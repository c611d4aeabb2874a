"""``president bench``: random full deals per second through the checked public API.

See :mod:`president.bench` for what is measured. The headline figure is the one the
project's target is about (by default 4 players, ``house``, one process; target
:data:`~president.bench.TARGET_DEALS_PER_SECOND` deals per second); figures for every preset
follow for context.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any, Sequence

from ..errors import RulesError
from ..rules import PRESETS, Rules

if TYPE_CHECKING:
    from ..bench import BenchResult

HELP = "Measure engine speed: random deals and decisions per second."
#: The project's target for the expert: ten times the 828 play-outs per searched decision it
#: made at its default time limit before the compiled play-outs (docs/strength.md).
EXPERT_PLAYOUTS_PER_DECISION_TARGET = 8_280


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``president bench``."""
    parser.add_argument("--deals", type=int, default=None,
                        help="complete deals to time per measurement (default: run for "
                             "--seconds)")
    parser.add_argument("--seconds", type=float, default=None,
                        help="seconds per headline measurement (default 3; each preset "
                             "figure gets a third of it)")
    parser.add_argument("--rules", default="house", metavar="PRESET[+TWIST...][/OPTION=VALUE...]",
                        help=f"rules of the headline figure: a preset ({', '.join(PRESETS)}) "
                             "with optional twists (default: house)")
    parser.add_argument("--players", type=int, default=4,
                        help="table size of the headline and preset figures (default 4)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals and choices")
    parser.add_argument("--no-presets", action="store_true",
                        help="measure only the headline figure")
    parser.add_argument("--profile", action="store_true",
                        help="also print the hottest functions of the headline run (cProfile)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--check", action="store_true",
                        help="exit with status 1 if the headline run is the target run (house, "
                             "4 players) and misses the target per CPU second (wall-clock "
                             "misses on a busy machine are reported, not failed)")


def run(args: argparse.Namespace) -> int:
    """Measure and print; exit status 0, 2 for bad options, 1 with ``--check`` when the
    target is missed."""
    from .. import bench

    try:
        rules = Rules.parse(args.rules, players=args.players)
    except RulesError as e:
        print(f"president bench: {e.message}", file=sys.stderr)
        return 2
    if args.deals is not None and args.deals < 1:
        print(f"president bench: --deals must be at least 1, not {args.deals}", file=sys.stderr)
        return 2
    if args.seconds is not None and not args.seconds > 0:
        print(f"president bench: --seconds must be above 0, not {args.seconds}",
              file=sys.stderr)
        return 2
    seconds = args.seconds if args.seconds is not None else (None if args.deals else 3.0)
    main = bench.measure(rules, deals=args.deals, seconds=seconds, seed=args.seed)
    presets = [] if args.no_presets else bench.preset_figures(
        players=args.players, deals=args.deals,
        seconds=None if seconds is None else seconds / 3, seed=args.seed)
    from ..search.compiled import playouts_report

    playouts = playouts_report(seconds=0.2 if seconds is None else min(1.0, seconds / 3),
                               seed=args.seed)
    expert = expert_report(seconds=2.0 if seconds is None else min(3.0, seconds),
                           seed=args.seed)
    target = bench.TARGET_DEALS_PER_SECOND
    is_target_run = rules.preset == "house" and not rules.twists and rules.players == 4
    report: dict[str, Any] = {
        "target": {"deals_per_second": target, "rules": "house", "players": 4,
                   "met": main.deals_per_second >= target if is_target_run else None,
                   "met_per_cpu_second": main.cpu_deals_per_second >= target
                   if is_target_run else None},
        "headline": main.to_dict(),
        "presets": [r.to_dict() for r in presets],
        "playouts": playouts,
        "expert": expert,
        "environment": bench.environment(),
    }
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        _print_table(main, presets, report["target"])
        c = playouts["compiled"]
        print(f"Fast play-outs (house, 4 players, random, whole deals per CPU second): "
              f"Python {playouts['python']['deals_per_cpu_second']:,.0f}, compiled "
              + (f"{c['deals_per_cpu_second']:,.0f}" if c else "not built") +
              " (benchmarks/bench_playouts.py for more).")
        print(f"Expert search (house, 4 players, against three intermediate players): "
              f"{expert['playouts_per_cpu_second']:,.0f} play-outs per CPU second, "
              f"{expert['playouts_per_decision']:,.0f} per searched decision, "
              f"{expert['cpu_seconds_per_decision'] * 1000:,.0f} ms of CPU each "
              f"({expert['decisions']} decisions; benchmarks/bench_players.py for more); "
              f"the target of {EXPERT_PLAYOUTS_PER_DECISION_TARGET:,} play-outs per "
              f"searched decision (ten times 828): "
              f"{'met' if expert['met'] else 'MISSED'}.")
    if args.profile:
        _profile(rules, args.seed)
    return 1 if args.check and report["target"]["met_per_cpu_second"] is False else 0


def _print_table(main: BenchResult, presets: Sequence[BenchResult],
                 target: dict[str, Any]) -> None:
    from .plain import console_and_table

    Console, Table = console_and_table()  # rich's, or plain text without it

    console = Console(highlight=False)
    # one line at 80 columns
    console.print("Random full deals: legal_actions() each turn, the checked act(); one process.")
    table = Table(box=None, pad_edge=False, header_style="bold")
    for head in ("rules", "seats", "deals", "deals/s", "per CPU-s", "decisions/s", "µs each",
                 "per deal"):
        table.add_column(head, justify="left" if head == "rules" else "right", no_wrap=True)
    for i, r in enumerate([main] + list(presets)):
        if i == 1:
            table.add_row()
        table.add_row(r.rules, str(r.players), str(r.deals), f"{r.deals_per_second:,.0f}",
                      f"{r.cpu_deals_per_second:,.0f}", f"{r.decisions_per_second:,.0f}",
                      f"{r.us_per_decision:.2f}", f"{r.decisions_per_deal:.1f}")
    console.print(table)
    console.print("[dim]deals/s and decisions/s are wall clock; per CPU-s counts this "
                  "process's CPU time only; µs each is per decision (play, pass or give); "
                  "per deal is decisions per deal." +
                  (" First row: the headline run; then each preset for context." if presets
                   else "") + "[/]")
    if target["met"] is None:
        console.print(f"The target ({target['deals_per_second']:,} deals/s) is for house with "
                      "4 players; run without --rules/--players to check it.")
    else:
        word = "met" if target["met"] else "MISSED"
        console.print(f"Target {target['deals_per_second']:,} deals/s (house, 4 players, one "
                      f"core): {word}, {main.deals_per_second:,.0f} deals/s wall clock "
                      f"({main.cpu_deals_per_second:,.0f} per CPU second).")
        if main.cpu_seconds < 0.8 * main.seconds:
            console.print(f"[yellow]The machine was busy: this process had the CPU for only "
                          f"{100 * main.cpu_seconds / main.seconds:.0f}% of the run; compare "
                          f"the per CPU-s figure, or rerun on an idle machine.[/]")


def _profile(rules: Rules, seed: int) -> None:
    import cProfile
    import pstats

    from .. import bench

    profiler = cProfile.Profile()
    profiler.enable()
    bench.measure(rules, deals=500, seed=seed, warmup=0)
    profiler.disable()
    pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(15)


def expert_report(*, seconds: float = 1.0, seed: int = 0) -> dict[str, Any]:
    """The ``"expert"`` part of ``president bench --json``: how fast the
    ``expert`` searches. One ``expert`` seat plays ``house`` deals (4 players) against three
    ``intermediate`` players, at its default budget, until its searched decisions have used
    ``seconds`` of CPU (at least one decision); only searched decisions count (not solved
    endgames, single choices or exchanges).

    Returns:
        ``{"rules": "house", "players": 4, "decisions": d, "playouts": p, "cpu_seconds": s,
        "playouts_per_cpu_second": p / s, "playouts_per_decision": p / d,
        "cpu_seconds_per_decision": s / d, "target_playouts_per_decision": 8280, "met": bool}``
        (CPU seconds of this process; the target is the project's, ten times the 828 play-outs a
        searched decision made before the compiled play-outs).

    Raises:
        ValueError: ``seconds`` not above 0.
    """
    if not seconds > 0:
        raise ValueError(f"seconds must be above 0, not {seconds}")
    from ..match import Match
    from ..players import make_player
    from ..players.expert import ExpertPlayer

    rules = Rules.preset("house", players=4)
    me = ExpertPlayer(seed=seed)
    deal = 0
    while me.stats["searched"] == 0 or me.stats["cpu_seconds"] < seconds:
        match = Match(rules, seed=seed * 1_000_003 + deal)
        others = {s: make_player("intermediate", seed=seed + s) for s in (1, 2, 3)}
        while match.phase in ("exchange", "play") and match.to_act is not None:
            seat = match.to_act
            who = me if seat == 0 else others[seat]
            match.act(seat, who.act(match.observation(seat)))
            if seat == 0 and me.stats["searched"] and me.stats["cpu_seconds"] >= seconds:
                break
        deal += 1
    st = me.stats
    d, p, s = st["searched"], st["playouts"], st["cpu_seconds"]
    return {"rules": "house", "players": 4, "decisions": d, "playouts": p,
            "cpu_seconds": round(s, 3), "playouts_per_cpu_second": round(p / s, 1),
            "playouts_per_decision": round(p / d, 1),
            "cpu_seconds_per_decision": round(s / d, 4),
            "target_playouts_per_decision": EXPERT_PLAYOUTS_PER_DECISION_TARGET,
            "met": p / d >= EXPERT_PLAYOUTS_PER_DECISION_TARGET}
