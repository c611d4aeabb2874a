"""``president tournament``: a round robin of bots on duplicate deals, with 95% intervals.

    president tournament --seats random,simple,intermediate --deals 400 --jobs 2
    president tournament --seats simple,mybot:MyBot --shard 0/4 --save s0.json   # one shard
    president tournament --merge s0.json s1.json s2.json s3.json                  # the whole
    president tournament --seats simple,intermediate,expert --backend ray --address auto

Every pair of bots meets at tables filled alternately with each; every board (dealt cards)
is played in every rotation of the seats, and all pairs play the same boards. Prints, per
pair, how many places the stronger finished ahead and its share of head-to-head
comparisons, and per bot a rating (places ahead of the field, score and Elo). See
:mod:`president.tournament`.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any, Sequence

from ..errors import RulesError
from ..players import LEVELS
from ..rules import Rules
from .simulate import add_backend_arguments, backend_problem, expert_options

if TYPE_CHECKING:
    from ..tournament import TournamentStats

HELP = "Round robin of computer levels or your own bots on duplicate deals, with ratings."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seats", "--bots", dest="bots", default="random,simple,intermediate",
                        metavar="BOT,BOT,...",
                        help=f"two or more bots, each a level ({', '.join(LEVELS)}) or "
                             "package.module:ClassName or a saved network FILE.npz (default: "
                             "random,simple,intermediate)")
    parser.add_argument("--rules", default="house", metavar="PRESET[+TWIST...][/OPTION=VALUE...]",
                        help="rules, e.g. house, first-night+swap (default: house)")
    parser.add_argument("--players", type=int, default=None,
                        help="table size (default: the preset's smallest table)")
    parser.add_argument("--deals", type=int, default=200, metavar="N",
                        help="deals per pair, at least (default 200); rounded up to whole "
                             "boards (each board is players deals, 2 x players at an odd "
                             "table size)")
    parser.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    parser.add_argument("--jobs", type=int, default=1, metavar="N",
                        help="worker processes (default 1)")
    add_backend_arguments(parser)
    parser.add_argument("--shard", default=None, metavar="K/M",
                        help="play only the boards b with b %% M == K (0 <= K < M), for a run "
                             "split over processes or machines; --save it and --merge later")
    parser.add_argument("--save", default=None, metavar="FILE",
                        help="write the exact statistics (JSON) to FILE, for --merge")
    parser.add_argument("--merge", nargs="+", default=None, metavar="FILE",
                        help="play nothing: merge statistics saved by --save and report them")
    parser.add_argument("--expert-playouts", type=int, default=None, metavar="N",
                        help="the expert's play-out budget per decision")
    parser.add_argument("--expert-time", type=float, default=None, metavar="SECONDS",
                        help="the expert's time limit per decision (0: none)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress on standard error")


def _fail(message: str) -> int:
    print(f"president tournament: {message}", file=sys.stderr)
    return 2


def _shard(text: str) -> tuple[int, int] | str:
    k, sep, m = text.partition("/")
    try:
        k_i, m_i = int(k), int(m)
    except ValueError:
        return f"--shard {text!r} is not K/M; write e.g. --shard 0/4 (the first of 4 shards)"
    if not sep or m_i < 1 or not 0 <= k_i < m_i:
        return f"--shard {text!r} needs 0 <= K < M, e.g. --shard 0/4 (the first of 4 shards)"
    return k_i, m_i


def run(args: argparse.Namespace) -> int:
    from ..tournament import TournamentConfig, deals_per_board, load_stats, run_tournament

    if args.merge:
        try:
            stats: TournamentStats = load_stats(args.merge[0])
            for path in args.merge[1:]:
                stats = stats.merge(load_stats(path))
        except ValueError as e:
            return _fail(str(e))
        return _report(stats, args)
    for flag, value in (("--deals", args.deals), ("--jobs", args.jobs),
                        ("--expert-playouts", args.expert_playouts)):
        if value is not None and value < 1:
            return _fail(f"{flag} {value} must be at least 1")
    if args.expert_time is not None and not args.expert_time >= 0:
        return _fail(f"--expert-time {args.expert_time} must be 0 or more seconds")
    wrong = backend_problem(args)
    if wrong:
        return _fail(wrong)
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    try:
        rules = Rules.parse(args.rules, players=args.players)
    except RulesError as e:
        return _fail(e.message)
    options = expert_options(args)
    per_board = deals_per_board(rules.players)
    try:
        config = TournamentConfig(rules=rules, bots=tuple(bots),
                                  boards=-(-args.deals // per_board), seed=args.seed,
                                  player_options=options)
    except ValueError as e:
        return _fail(f"--seats: {e}")
    boards: Sequence[int] = range(config.boards)
    if args.shard:
        shard = _shard(args.shard)
        if isinstance(shard, str):
            return _fail(shard)
        boards = [b for b in boards if b % shard[1] == shard[0]]
        if not boards:
            return _fail(f"shard {args.shard} has no board of the {config.boards}; use fewer "
                         "shards or more --deals")
    total = len(boards)
    done = [0]

    def progress(k: int) -> None:
        done[0] += k
        print(f"\rboards {done[0]}/{total}", end="", file=sys.stderr, flush=True)

    try:
        stats = run_tournament(config, jobs=args.jobs, boards=boards,
                               progress=None if args.quiet else progress,
                               backend=args.backend, address=args.address)
    except ValueError as e:     # e.g. a bot of one's own that returned an illegal action
        if done[0] and not args.quiet:
            print(file=sys.stderr)
        return _fail(str(e))
    if not args.quiet:
        print(file=sys.stderr)
    if args.save:
        try:
            with open(args.save, "w", encoding="utf-8") as f:
                json.dump(stats.to_dict(), f)
        except OSError as e:
            return _fail(f"cannot write --save {args.save}: {e}")
    return _report(stats, args)


def _ci(iv: dict[str, Any], digits: int = 2, scale: float = 1.0) -> str:
    if iv["mean"] is None:
        return "-"
    m = iv["mean"] * scale
    if iv["low"] is None:
        return f"{m:.{digits}f} (no interval: 1 board)"
    return f"{m:.{digits}f} [{iv['low'] * scale:.{digits}f}, {iv['high'] * scale:.{digits}f}]"


def _report(stats: TournamentStats, args: argparse.Namespace) -> int:
    summary = stats.summary()
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    from .plain import console_and_table

    Console, Table = console_and_table()
    console = Console() if sys.stdout.isatty() else Console(width=120)
    console.print(f"{summary['rules']}, {summary['players']} players, bots "
                  f"{', '.join(summary['bots'])}: {summary['boards']} boards, "
                  f"{summary['deals_per_pair']} deals per pair, seed {summary['seed']}",
                  soft_wrap=True)
    pairs = Table(title="pairs: places ahead (weaker's mean place - stronger's) and the "
                        "stronger's head-to-head score, 95% intervals")
    for col, right in (("stronger", False), ("weaker", False), ("places ahead", True),
                       ("score %", True)):
        pairs.add_column(col, justify="right" if right else "left")
    for p in summary["pairs"]:
        pairs.add_row(p["stronger"], p["weaker"], _ci(p["places_ahead"]),
                      _ci(p["score"], 1, 100))
    console.print(pairs)
    ratings = Table(title="ratings: places ahead of the field, head-to-head score and Elo, "
                          "95% intervals")
    for col, right in (("bot", False), ("places ahead", True), ("score %", True),
                       ("Elo", True)):
        ratings.add_column(col, justify="right" if right else "left")
    for r in summary["ratings"]:
        ratings.add_row(r["bot"], _ci(r["places_ahead"]), _ci(r["score"], 1, 100),
                        _ci(r["elo"], 0))
    console.print(ratings)
    return 0
