"""``president learn [LESSON]``: step through a lesson in the terminal (:mod:`president.lessons`).

Without a lesson it lists them and asks which one; with one (its name or its number in the
list) it starts at once. ``--list`` only prints the list. See
:mod:`president.terminal.learn` for what can be typed during a lesson.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from rich.console import Console

HELP = "Step through a lesson: a short deal played face up, with why for every step."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``president learn``."""
    parser.add_argument("lesson", nargs="?", metavar="LESSON",
                        help="a lesson's name or number (see the list); without it, the "
                             "lessons are listed and you choose")
    parser.add_argument("--list", action="store_true", help="print the lessons and exit")


def run(args: argparse.Namespace, *, input_fn: Callable[[], str] | None = None,
        console: Console | None = None) -> int:
    """List or run a lesson; exit status 0, 2 for an unknown lesson, 130 on Ctrl-C.

    ``input_fn`` and ``console`` replace standard input and the terminal (tests)."""
    from rich.console import Console

    from ..lessons import LESSONS
    from ..terminal.learn import LessonRunner, choose_lesson, find_lesson, list_lessons

    console = console or Console(highlight=False)
    if args.list:
        list_lessons(console)
        return 0
    if args.lesson is None:
        list_lessons(console)
        echo = input_fn is not None or not sys.stdin.isatty()
        try:
            lesson = choose_lesson(console, input_fn or input, echo=echo)
        except KeyboardInterrupt:
            console.print()
            return 130
        if lesson is None:
            return 0
    else:
        lesson = find_lesson(args.lesson)
        if lesson is None:
            print(f"president learn: no lesson {args.lesson!r}; give a number from 1 to "
                  f"{len(LESSONS)} or one of: {', '.join(LESSONS)}", file=sys.stderr)
            return 2
    return LessonRunner(lesson, input_fn=input_fn, console=console,
                        echo=None if input_fn is not None else not sys.stdin.isatty()).run()
