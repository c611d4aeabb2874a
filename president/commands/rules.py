"""``president rules [PRESET[+TWIST…]] [--players N]``: the rules in plain words
(:meth:`president.rules.Rules.describe`, which names each preset's source on its last line)."""

from __future__ import annotations

import argparse
import sys

from ..errors import RulesError
from ..rules import PRESETS, Rules

HELP = "Print a preset's rules in plain words."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``president rules``."""
    parser.add_argument("spec", nargs="?", metavar="PRESET[+TWIST...][/OPTION=VALUE...]",
                        help=f"a preset ({', '.join(PRESETS)}) with optional twists; "
                             "all presets if omitted")
    parser.add_argument("--players", type=int, default=None,
                        help="table size; without a preset, every preset that allows it")


def run(args: argparse.Namespace) -> int:
    """Print the rules; exit status 0, or 2 when the preset, a twist or the table size is
    refused (the message says what would be right).

    Without a preset every preset is printed; with ``--players N`` only the presets that
    allow N players, after a line naming the ones skipped and why.
    """
    if args.spec:
        try:
            blocks = [Rules.parse(args.spec, players=args.players).describe()]
        except RulesError as e:
            print(f"president rules: {e.message}", file=sys.stderr)
            return 2
        print("\n\n".join(blocks))
        return 0
    blocks, skipped = [], []
    for name in PRESETS:
        try:
            blocks.append(Rules.parse(name, players=args.players).describe())
        except RulesError as e:
            skipped.append((name, e.message))
    if not blocks:
        reasons = sorted({why for _, why in skipped})
        print(f"president rules: no preset allows {args.players} players: "
              f"{'; '.join(reasons)}", file=sys.stderr)
        return 2
    if skipped:
        shown = [name for name in PRESETS if name not in dict(skipped)]
        print(f"Presets for {args.players} players: {', '.join(shown)}. Skipped: "
              + "; ".join(f"{name} ({why})" for name, why in skipped) + ".\n")
    print("\n\n".join(blocks))
    return 0
