"""``president keep-score``: the table companion in the terminal, for a group playing with a
real deck. See :mod:`president.terminal.keep_score`.

It asks for the rules, the names in seating order and the first dealer, then after each deal
reads the finishing order and shows the points, totals and titles, the next dealer, the
seats, who leads and the exchange in plain words. The sheet is saved after every change in
``$XDG_STATE_HOME/president/keep-score.json`` (mode 0600) and resumed from there.
"""

from __future__ import annotations

import argparse

HELP = "Keep the score of a match played at a real table with real cards."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``president keep-score``."""
    parser.add_argument("--file", default=None, metavar="FILE",
                        help="keep the sheet in FILE instead of "
                             "$XDG_STATE_HOME/president/keep-score.json")


def run(args: argparse.Namespace) -> int:
    """Keep score until ``quit`` or the end of input; exit status 0."""
    from ..terminal.keep_score import ScoreKeeper

    return ScoreKeeper(path=args.file if args.file is not None else True).run()
