"""``president rules [PRESET[+TWIST…]] [--players N]``: the rules in plain words."""

from __future__ import annotations

import argparse
import sys

from ..errors import RulesError
from ..rules import PRESETS, Rules

HELP = "Print a preset's rules in plain words."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("spec", nargs="?", metavar="PRESET[+TWIST...]",
                        help=f"a preset ({', '.join(PRESETS)}) with optional twists; "
                             "all presets if omitted")
    parser.add_argument("--players", type=int, default=None, help="table size")


def run(args: argparse.Namespace) -> int:
    specs = [args.spec] if args.spec else list(PRESETS)
    try:
        blocks = [Rules.parse(s, players=args.players).describe() for s in specs]
    except RulesError as e:
        print(f"president rules: {e.message}", file=sys.stderr)
        return 2
    print("\n\n".join(blocks))
    return 0
