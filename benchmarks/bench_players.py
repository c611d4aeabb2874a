#!/usr/bin/env python3
"""Computer players: speed figures, and (``--ladder``) the strength table of docs/strength.md.

Without options (as ``benchmarks/run.py`` calls it) it prints speed figures, each per CPU
second of this process (the machine may be shared; wall-clock figures are shown too):

- fast play-outs (``president.players.fastsim``): random 4-player ``house`` deals per
  second, play only and deal + play. Target: 10,000 per second on one core.
- play-outs with the intermediate player's policy per second (what the expert searches with),
  the Python copy and the compiled one (``president.players.compiled``; ``None`` when the
  extension is not built).
- the expert at its default budget against three intermediate players: time per searched
  decision (mean and slowest) and play-outs per second. Target: at most 1 s per decision.
  ``--timing-level master`` times ``master`` instead; ``--timing-before`` the expert with
  its options before the compiled play-outs (:data:`BEFORE_COMPILED`; run it with
  ``PRESIDENT_PURE=1`` for the Python play-outs it had then); ``--timing-options JSON``
  other keyword arguments of the timed player, e.g. ``'{"clock": "cpu"}'``.

``--ladder`` plays every level against the level below (one seat of the stronger level, the
other seats the weaker, every board in every seat rotation) under ``house`` with 4 players
and ``first-night`` with 5, and prints the Markdown table of docs/strength.md::

    python benchmarks/bench_players.py --ladder --deals 4000 --expert-deals 4000 --jobs 2 \\
        --store ladder.jsonl

``--store`` keeps every board's result, so an interrupted ladder resumes where it stopped.
Besides each step of ``LEVELS`` it also measures simple over random and intermediate over
beginner, the steps of the order the levels measure in (see docs/strength.md).

``PRESIDENT_BENCH_QUICK=1`` (``run.py --quick``) shortens every run.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from president import PASS, Match, Rules  # noqa: E402
from president.deal import deal_hands  # noqa: E402
from president.players import LEVELS  # noqa: E402
from president.players import compiled  # noqa: E402
from president.players.expert import ExpertPlayer  # noqa: E402
from president.players.fastsim import FastDeal, intermediate_playout, random_playout  # noqa: E402
from president.players.intermediate import IntermediatePlayer  # noqa: E402
from president.simulate import BoardStore, SimulationConfig, simulate  # noqa: E402

QUICK = os.environ.get("PRESIDENT_BENCH_QUICK") == "1"
TABLES = (("house", 4), ("first-night", 5))
HEAVY = ("expert", "master")  # the searching levels: --expert-deals, --only-expert


def _rate(fn, seconds: float) -> tuple[float, float]:
    """Calls per CPU second and per wall second of ``fn()`` (which returns a count)."""
    cpu0, wall0 = time.process_time(), time.perf_counter()
    done = 0
    while time.process_time() - cpu0 < seconds:
        done += fn()
    return done / (time.process_time() - cpu0), done / (time.perf_counter() - wall0)


def fastsim_figures(seconds: float) -> dict:
    rules = Rules.preset("house")
    rng = random.Random(1)
    dealt = [FastDeal.random(rules, rng) for _ in range(500)]

    def play_only() -> int:
        for d in dealt:
            random_playout(d.copy(), rng)
        return len(dealt)

    def deal_and_play() -> int:
        for _ in range(500):
            random_playout(FastDeal.random(rules, rng), rng)
        return 500

    def intermediate() -> int:
        for d in dealt[:100]:
            intermediate_playout(d.copy())
        return 100

    def intermediate_compiled() -> int:
        for d in dealt:
            compiled.intermediate_playout(d.copy())
        return len(dealt)

    out: dict = {}
    for name, fn in (("random deals/s, play only", play_only),
                     ("random deals/s, deal + play", deal_and_play),
                     ("intermediate-policy deals/s", intermediate),
                     ("intermediate-policy deals/s, compiled", intermediate_compiled)):
        if fn is intermediate_compiled and not compiled.AVAILABLE:
            out[name] = None
            continue
        cpu, wall = _rate(fn, seconds)
        out[name] = {"per_cpu_second": cpu, "per_wall_second": wall}
    return out


#: ``--timing-before``: the expert's options before it moved to the compiled play-outs
#: (the exact copy of intermediate in every play-out, worlds weighed by surprises, 1,000
#: play-outs), for the before/after figures of docs/strength.md. That play-out is now
#: compiled too; ``PRESIDENT_PURE=1`` gives the Python one of then.
BEFORE_COMPILED = {"policy": "intermediate", "styles": None, "playouts": 1000}


def expert_figures(deals: int, spec: str = "house", n: int = 4, level: str = "expert",
                   options: dict | None = None) -> dict:
    """The expert (or ``level`` ``"master"``; default budget, or ``options``) in seat 0
    against intermediate players in the others."""
    rules = Rules.parse(spec, players=n, match_end="single-deal")
    if level == "master":
        from president.players.master import MasterPlayer
        expert = MasterPlayer(seed=1, **(options or {}))
    else:
        expert = ExpertPlayer(seed=1, **(options or {}))
    for d in range(deals):
        m = Match(rules, hands=deal_hands(n, n - 1, 5000 + d), record_events=False)
        players = [expert] + [IntermediatePlayer() for _ in range(n - 1)]
        while m.to_act is not None:
            s = m.to_act
            m.act(s, players[s].act(m.observation(s)))
    st = expert.stats
    return {
        "deals": deals, "decisions": st["decisions"], "searched": st["searched"],
        "mean_cpu_seconds": st["cpu_seconds"] / st["searched"],
        "max_cpu_seconds": st["max_cpu_seconds"],
        "mean_wall_seconds": st["seconds"] / st["searched"],
        "max_wall_seconds": st["max_seconds"],
        "playouts_per_search": st["playouts"] / st["searched"],
        "playouts_per_cpu_second": st["playouts"] / st["cpu_seconds"],
        "budget": {"playouts": expert.playouts, "time_limit": expert.time_limit,
                   "clock": expert.clock, "policy": expert.policy},
        "level": level, "rules": spec, "players": n, "choices": st["choices"],
        "mean_cpu_seconds_per_choice": st["decision_cpu_seconds"] / max(1, st["choices"]),
        "max_cpu_seconds_per_choice": st["max_decision_cpu_seconds"],
        "endgames": st["endgames"], "endgames_solved": st["solved"],
        "mean_endgame_cpu_seconds": st["endgame_cpu_seconds"] / max(1, st["endgames"]),
        "max_endgame_cpu_seconds": st["max_endgame_cpu_seconds"],
    }


def speed(args) -> int:
    seconds = 1.0 if QUICK else 4.0
    figs = fastsim_figures(seconds)
    print("fast play-outs, house, 4 players (one process):")
    for name, f in figs.items():
        if f is None:
            print(f"  {name}: not built")
            continue
        print(f"  {name}: {f['per_cpu_second']:,.0f} per CPU second "
              f"({f['per_wall_second']:,.0f} per wall second)")
    target = figs["random deals/s, play only"]["per_cpu_second"]
    print(f"  target 10,000 random deals/s: {'met' if target >= 10_000 else 'MISSED'} "
          f"({target:,.0f})")
    ex = expert_figures(2 if QUICK else args.timing_deals, args.timing_rules,
                        args.timing_players, args.timing_level,
                        {**(BEFORE_COMPILED if args.timing_before else {}),
                         **json.loads(args.timing_options)})
    print(f"{ex['level']}, budget {ex['budget']['playouts']} play-outs, "
          f"{ex['budget']['time_limit']} s ({ex['budget']['clock']}), play-outs "
          f"{ex['budget']['policy']}, {ex['rules']} {ex['players']} players, against "
          f"intermediate players, {ex['deals']} deals:")
    print(f"  {ex['searched']} searched decisions of {ex['decisions']}; CPU per decision "
          f"mean {ex['mean_cpu_seconds'] * 1000:.0f} ms, slowest "
          f"{ex['max_cpu_seconds'] * 1000:.0f} ms; wall mean "
          f"{ex['mean_wall_seconds'] * 1000:.0f} ms, slowest {ex['max_wall_seconds'] * 1000:.0f} ms")
    print(f"  {ex['playouts_per_search']:.0f} play-outs per decision, "
          f"{ex['playouts_per_cpu_second']:,.0f} play-outs per CPU second")
    print(f"  every decision with a choice ({ex['choices']}: searched or endgames solved): "
          f"CPU mean {ex['mean_cpu_seconds_per_choice'] * 1000:.0f} ms, slowest "
          f"{ex['max_cpu_seconds_per_choice'] * 1000:.0f} ms; {ex['endgames']} two-player "
          f"endgame solves ({ex['endgames_solved']} found a winning action), CPU mean "
          f"{ex['mean_endgame_cpu_seconds'] * 1000:.0f} ms, slowest "
          f"{ex['max_endgame_cpu_seconds'] * 1000:.0f} ms")
    print(f"  target at most 1 s per decision: "
          f"{'met' if ex['max_cpu_seconds_per_choice'] <= 1.0 else 'MISSED'}")
    if args.json:
        print(json.dumps({"fastsim": figs, "expert": ex}, indent=2))
    return 0


def pairs() -> list[tuple[str, str]]:
    """(stronger, weaker) per step of the ladder in ``LEVELS`` order (weakest first)."""
    levels = list(LEVELS)
    return [(s, w) for w, s in zip(levels, levels[1:])]


def ladder(args) -> int:
    rows = []
    if args.stored_only and not (args.store and os.path.isfile(args.store)):
        print(f"bench_players.py: --stored-only reports the boards of --store FILE, and "
              f"{'no --store was given' if not args.store else args.store + ' is not a file'}",
              file=sys.stderr)
        return 2
    store = BoardStore(args.store) if args.store else None
    for preset, players in TABLES:
        if args.table and args.table != preset:
            continue
        rules = Rules.preset(preset, players=players)
        for stronger, weaker in pairs():
            heavy = stronger in HEAVY
            if args.only_expert and not heavy:
                continue
            deals = args.expert_deals if heavy else args.deals
            boards = -(-deals // players)  # every board is played in `players` rotations
            if QUICK and boards > 0:
                boards = 2 if heavy else 20
            if boards <= 0:
                continue
            opts = {}
            if stronger == "expert" and (args.expert_playouts or args.expert_time):
                opts["expert"] = {k: v for k, v in (("playouts", args.expert_playouts),
                                                    ("time_limit", args.expert_time)) if v}
            config = SimulationConfig(rules=rules, seats=(stronger,) + (weaker,) * (players - 1),
                                      boards=boards, seed=args.seed, player_options=opts)
            try:
                stored = store.load(config) if store else {}
            except (ValueError, OSError) as e:
                print(f"bench_players.py: --store {e}", file=sys.stderr)
                return 2
            have = {b: r for b, r in stored.items() if b < boards}
            todo = [] if args.stored_only else [b for b in range(boards) if b not in have]
            if args.stored_only and not have:
                continue
            print(f"{preset} {players}p: {stronger} vs {weaker}, {boards} boards "
                  f"({len(have)} stored) ...", file=sys.stderr, flush=True)

            def keep(board: int, result: dict, config=config) -> None:
                if store:
                    store.add(config, board, result)

            res = simulate(config, jobs=args.jobs, boards=todo,
                           done=[have[b] for b in sorted(have)], on_result=keep)
            rows.append(_row(res, stronger, weaker))
            print(rows[-1], file=sys.stderr, flush=True)
    print("| rules | stronger (1 seat) | weaker (other seats) | deals | places ahead [95% CI] "
          "| gain over an even seat [95% CI] | stronger first % | stronger last % | target |")
    print("|---|---|---|---:|---|---|---:|---:|---|")
    for r in rows:
        print(r)
    return 0


def _row(res: dict, stronger: str, weaker: str) -> str:
    comp = next(c for c in res["comparisons"] if {c["stronger"], c["weaker"]} == {stronger, weaker})
    ahead = dict(comp["places_ahead"])
    if comp["stronger"] != stronger:  # simulate orders by LEVELS; this row tests the other way
        ahead = {"mean": -ahead["mean"], "low": -ahead["high"], "high": -ahead["low"],
                 "n": ahead["n"]}
    lv = res["levels"][stronger]
    gain = lv["gain"]
    target = 0.3 if stronger == "expert" else 0.1
    value = gain if stronger == "expert" else ahead
    if stronger == "master":  # issue 14: at least 0.2 places ahead of three experts
        target, value = 0.2, ahead
        label = "ahead ≥ 0.2, interval > 0"
        verdict = "met" if value["mean"] >= target and value["low"] > 0 else "MISSED"
    elif stronger == "expert":
        label = "gain ≥ 0.3"
        verdict = ("met" if value["low"] >= target else
                   "met by the mean, not yet by the whole interval" if value["mean"] >= target
                   else "MISSED")
    else:
        label = "ahead ≥ 0.1, interval > 0"
        verdict = "met" if value["mean"] >= target and value["low"] > 0 else "MISSED"
    met = verdict
    extra = ""
    s = lv.get("search")
    if s and s.get("searched"):
        extra = (f" (expert: {s['mean_cpu_seconds_per_search'] * 1000:.0f} ms CPU per decision, "
                 f"slowest {s['max_cpu_seconds'] * 1000:.0f} ms)")
    return (f"| {res['rules']} {res['players']}p | {stronger} | {weaker} | {res['deals']:,} | "
            f"{ahead['mean']:+.3f} [{ahead['low']:+.3f}, {ahead['high']:+.3f}] | "
            f"{gain['mean']:+.3f} [{gain['low']:+.3f}, {gain['high']:+.3f}] | "
            f"{lv['first']['mean'] * 100:.1f} | {lv['last']['mean'] * 100:.1f} | "
            f"{label}: {met}{extra} |")


def endgames(args) -> int:
    """``--endgames``: in deals played by ``intermediate`` players, every decision of a
    two-player endgame (the hidden cards all known) that the solver settles, with at least
    one winning and one losing action: how often each level picks a losing action there.
    The solver (no state limit) is the judge; the levels play with their own limits (the
    expert with ``time_limit=None``, so its endgame solve is bounded by states alone).
    Also prints the expert's CPU time per endgame solve and per decision in those
    positions."""
    from president.players.endgame import endgame_state, winning_codes
    from president.players.fastsim import PASS as FAST_PASS, encode
    rows = []
    for spec, n in (("house", 4), ("first-night", 3), ("first-night", 5)):
        rules = Rules.parse(spec, players=n, match_end="single-deal")
        judged = {"intermediate": [0, 0], "expert": [0, 0], "intermediate, no solve": [0, 0]}
        bots = {"intermediate": IntermediatePlayer(),
                "expert": ExpertPlayer(seed=1, playouts=args.expert_playouts or 1000,
                                       time_limit=None),
                "intermediate, no solve": IntermediatePlayer(endgames=False)}
        table = IntermediatePlayer()
        positions = 0
        for d in range(args.endgame_deals):
            m = Match(rules, hands=deal_hands(n, n - 1, 9000 + d), record_events=False)
            while m.to_act is not None:
                obs = m.observation(m.to_act)
                state = endgame_state(obs)
                if state is not None:
                    wins = set(winning_codes(state, limit=None))
                    if wins and len(wins) < len(state.legal_actions()):
                        positions += 1
                        for name, bot in bots.items():
                            a = bot.act(obs)
                            code = FAST_PASS if a is PASS else encode(a.rank, a.count)
                            judged[name][0] += code not in wins
                            judged[name][1] += 1
                m.act(m.to_act, table.act(obs))
        rows.append((spec, n, positions, judged))
        print(f"{spec}, {n} players, {args.endgame_deals} deals: {positions} decisions of a "
              "solved two-player endgame where some actions win and some lose")
        for name, (bad, total) in judged.items():
            print(f"  {name}: losing action {bad} of {total}")
        st = bots["expert"].stats
        if st["choices"]:
            print(f"  expert time: {st['endgames']} endgame solves, CPU per solve mean "
                  f"{st['endgame_cpu_seconds'] / max(1, st['endgames']) * 1000:.0f} ms, slowest "
                  f"{st['max_endgame_cpu_seconds'] * 1000:.0f} ms ({st['solved']} found a "
                  f"winning action); CPU per decision with a choice (solved or searched) "
                  f"mean {st['decision_cpu_seconds'] / st['choices'] * 1000:.0f} ms, slowest "
                  f"{st['max_decision_cpu_seconds'] * 1000:.0f} ms over {st['choices']}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ladder", action="store_true", help="the strength table")
    parser.add_argument("--endgames", action="store_true",
                        help="losing actions chosen in solved two-player endgames")
    parser.add_argument("--endgame-deals", type=int, default=200)
    parser.add_argument("--deals", type=int, default=4000,
                        help="deals per pair without the expert, at least (boards of cards, "
                             "each played in every seat rotation; default 4000)")
    parser.add_argument("--expert-deals", type=int, default=4000,
                        help="deals for each searching level's step (expert against "
                             "intermediate, master against expert), at least (default 4000)")
    parser.add_argument("--expert-playouts", type=int, default=None)
    parser.add_argument("--expert-time", type=float, default=None)
    parser.add_argument("--timing-deals", type=int, default=20,
                        help="deals for the expert timing (default 20)")
    parser.add_argument("--timing-rules", default="house",
                        help="rules of the expert timing (default house)")
    parser.add_argument("--timing-players", type=int, default=4,
                        help="players of the expert timing (default 4)")
    parser.add_argument("--timing-level", choices=HEAVY, default="expert",
                        help="the searching level timed (default expert)")
    parser.add_argument("--timing-before", action="store_true",
                        help="time the expert with its options before the compiled play-outs "
                             f"({BEFORE_COMPILED})")
    parser.add_argument("--timing-options", default="{}", metavar="JSON",
                        help="other keyword arguments of the timed player, as a JSON object "
                             "(e.g. '{\"clock\": \"cpu\"}')")
    parser.add_argument("--stored-only", action="store_true",
                        help="with --store: report the stored boards only, play nothing")
    parser.add_argument("--table", choices=[t for t, _ in TABLES], default=None,
                        help="measure only this table")
    parser.add_argument("--only-expert", action="store_true",
                        help="measure only the searching levels' steps")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="also print the figures as JSON")
    parser.add_argument("--store", default=None, metavar="FILE",
                        help="keep each board's result in this JSON-lines file and reuse the "
                             "stored boards on the next run (resumes a long ladder)")
    args = parser.parse_args(argv)
    if args.endgames:
        return endgames(args)
    return ladder(args) if args.ladder else speed(args)


if __name__ == "__main__":
    sys.exit(main())
