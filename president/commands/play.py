"""``president play``: a match in the terminal, you (seat 0) against computer players.

See :mod:`president.terminal` for the game itself. Rules come from a preset with optional
twists (RULES.md "Presets"); ``practice`` is seed 003's single deal against Robin, Alex
and Sam.
"""

from __future__ import annotations

import argparse
import os
import sys

from ..errors import RulesError
from ..rules import PRESETS, Rules

HELP = "Play a match in the terminal against computer players."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``president play``."""
    parser.add_argument("--rules", default="house", metavar="PRESET[+TWIST...]",
                        help=f"a preset ({', '.join(PRESETS)}) with optional twists, e.g. "
                             "house+sit-out (default: house)")
    parser.add_argument("--players", type=int, default=None,
                        help="table size including you (default: the preset's smallest)")
    parser.add_argument("--seed", type=int, default=None,
                        help="seed for the shuffles and computer players (default: a fresh "
                             "one, printed at the start so you can play the game again)")
    parser.add_argument("--name", default="You", help="your name at the table")
    parser.add_argument("--levels", default="simple", metavar="LEVEL,...",
                        help="computer level per opponent clockwise from your left, comma "
                             "separated; a shorter list repeats (default: simple)")
    parser.add_argument("--record", default=None, metavar="FILE",
                        help="write the match record (JSON, docs/records.md) to FILE when the "
                             "game ends or you quit; attach it to a bug report")
    parser.add_argument("--hint-level", default="simple", metavar="LEVEL",
                        help="computer level that answers 'hint' (default: simple)")


def _check_levels(levels: list[str], available: list[str]) -> str | None:
    for level in levels:
        if level not in available:
            return (f"no computer level {level!r} is available; choose from: "
                    f"{', '.join(available)}")
    return None


def _check_record_path(path: str) -> str | None:
    """Why the record cannot be written to ``path``, or ``None`` if it can (checked before
    the game starts, without changing an existing file)."""
    if not path.strip():
        return "give a file name, e.g. --record game.json"
    if os.path.isdir(path):
        return "is a folder; give a file name inside it, e.g. game.json"
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        return f"the folder {folder} does not exist"
    if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        return "cannot be written (no permission)"
    return None


def run(args: argparse.Namespace) -> int:
    """Play the match; exit status 0 when it ends or you quit, 2 for bad options, 130 on
    Ctrl-C."""
    from ..players import available_levels

    try:
        rules = Rules.parse(args.rules, players=args.players)
    except RulesError as e:
        print(f"president play: {e.message}", file=sys.stderr)
        return 2
    levels = [w.strip() for w in args.levels.split(",")]
    if not any(levels):
        print("president play: --levels needs at least one level, e.g. --levels simple",
              file=sys.stderr)
        return 2
    if "" in levels:
        where = levels.index("") + 1
        print(f"president play: --levels {args.levels!r} has an empty entry (entry {where}); "
              "separate levels with single commas, e.g. --levels simple,random",
              file=sys.stderr)
        return 2
    if len(levels) > rules.players - 1:
        print(f"president play: --levels gives {len(levels)} levels for the "
              f"{rules.players - 1} computer seats of a {rules.players}-player table; give at "
              f"most {rules.players - 1} (a shorter list repeats), or raise --players",
              file=sys.stderr)
        return 2
    available = available_levels()
    problem = _check_levels(levels + [args.hint_level], available)
    if problem:
        print(f"president play: {problem}", file=sys.stderr)
        return 2
    if not args.name.strip():
        print("president play: --name must not be empty", file=sys.stderr)
        return 2
    from ..terminal import COMPUTER_NAMES, TerminalGame

    taken = [n for n in COMPUTER_NAMES[: rules.players - 1]]
    if args.name.strip().lower() in (n.lower() for n in taken):
        print(f"president play: the name {args.name.strip()!r} belongs to a computer player "
              f"at this table ({', '.join(taken)}); choose another --name", file=sys.stderr)
        return 2

    if args.record is not None:
        problem = _check_record_path(args.record)
        if problem:
            print(f"president play: --record {args.record!r}: {problem}", file=sys.stderr)
            return 2
    game = TerminalGame(rules, levels=levels, seed=args.seed, name=args.name.strip(),
                        hint_level=args.hint_level, record=args.record)
    return game.run()
