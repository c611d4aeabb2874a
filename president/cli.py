"""The ``president`` command: one sub-command per module in :mod:`president.commands`.

Each command module defines ``HELP`` (one line), ``add_arguments(parser)`` and
``run(args) -> int`` (the exit status). Modules are imported only when their command runs,
so ``president rules`` never loads the web stack.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from types import ModuleType
from typing import NoReturn

COMMANDS = {
    "play": "Play a match in the terminal against computer players.",
    "serve": "Start the browser game (a web server on 127.0.0.1).",
    "rules": "Print a preset's rules in plain words.",
    "learn": "Step through a lesson: a short deal played face up, with why for every step.",
    "replay": "Check and replay a game record (JSON).",
    "bench": "Measure engine speed: random deals and decisions per second.",
    "simulate": "Play computer levels against each other and report their strength.",
    "tournament": "Round robin of computer levels or your own bots on duplicate deals, with ratings.",
    "export": "Export decisions (observation, mask, action, reward, seat) from records or self-play to NPZ.",
    "keep-score": "Keep the score of a match played at a real table with real cards.",
    "admin": "Back up, restore or list the browser game's stored tables.",
}


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (what was wrong, and where help is)
    instead of the whole usage block."""

    #: The sub-commands' parsers by name (on the top-level parser), so that arguments a
    #: sub-command does not know are reported by that sub-command, not by ``president``.
    commands: dict[str, argparse.ArgumentParser]

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


#: The name of the distribution on the package index (``pip install president-game``); the
#: import package and the command are both ``president``.
DISTRIBUTION = "president-game"


def version() -> str:
    """The installed version of the ``president-game`` distribution (its metadata), or
    :data:`president.__version__` when it runs from a source tree that is not installed."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed_version

    try:
        return installed_version(DISTRIBUTION)
    except PackageNotFoundError:
        from . import __version__
        return __version__


def build_parser() -> _Parser:
    """The argument parser with every sub-command, and ``--version``."""
    parser = _Parser(prog="president", description="President, the card game.")
    parser.add_argument("--version", action="version", version=f"president {version()}",
                        help="print the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    parser.commands = {}
    for name, help_text in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        parser.commands[name] = p
        module = _load(name)
        if module is not None:
            module.add_arguments(p)
    return parser


def _load(name: str) -> ModuleType | None:
    module = f"president.commands.{name.replace('-', '_')}"   # keep-score: keep_score.py
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as e:
        if e.name == module:
            return None
        raise


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``president`` console script; returns the exit status.

    When the reader of standard output goes away early (``president rules | head -1``),
    the command stops quietly with status 1 and no traceback, as the Python documentation
    advises for SIGPIPE (library/signal, "Note on SIGPIPE").
    """
    try:
        status = _main(argv)
        sys.stdout.flush()  # a broken pipe shows here rather than at interpreter exit
        return status
    except BrokenPipeError:
        _silence_stdout()
        return 1


def _silence_stdout() -> None:
    # Point stdout at devnull so the flush at interpreter exit does not raise again.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no real file descriptor (e.g. captured)
        pass


def _main(argv: list[str] | None) -> int:
    parser = build_parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown:      # said by the sub-command that does not know them, with its own help
        owner = parser.commands.get(args.command) if isinstance(parser, _Parser) else None
        (owner or parser).error(f"unrecognized arguments: {' '.join(unknown)}")
    if args.command is None:
        parser.print_help()
        return 0
    module = _load(args.command)
    if module is None:
        print(f"president {args.command}: not available in this build", file=sys.stderr)
        return 2
    try:
        return int(module.run(args) or 0)
    except ModuleNotFoundError as e:
        top = (e.name or "").partition(".")[0]
        if top not in OPTIONAL_MODULES:
            raise
        extra, what = OPTIONAL_MODULES[top]
        print(f"president {args.command}: needs {top} ({what}), which is not installed; "
              f"install it with: pip install '{DISTRIBUTION}[{extra}]'", file=sys.stderr)
        return 2


#: Third-party modules of the optional extras: module -> (extra, what it is for). A command
#: that needs a missing one says which extra to install instead of a traceback.
OPTIONAL_MODULES = {
    "rich": ("cli", "the terminal display"),
    "fastapi": ("web", "the web server"), "uvicorn": ("web", "the web server"),
    "numpy": ("env", "the RL environments"), "gymnasium": ("env", "the RL environments"),
    "pettingzoo": ("env", "the RL environments"),
    "ray": ("ray", "the Ray backend of simulate and tournament"),
}


if __name__ == "__main__":
    sys.exit(main())
