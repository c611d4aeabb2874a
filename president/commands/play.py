"""``president play``: a match in the terminal, you (the first seat, seat 1 on screen) against computer players.

See :mod:`president.terminal` for the game itself. Rules come from a preset with optional
twists (docs/rules.md "Presets"); ``practice`` is the practice round's single deal against
Robin, Alex and Sam. ``--resume FILE`` continues a match from its game record (``docs/records.md``)
instead: the rules and the names come from the record, and the record is written back to
``FILE`` as the match goes on (or to ``--record``'s file, if given).
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import signal
import sys
from typing import TYPE_CHECKING, Iterator

from ..errors import RulesError
from ..players import LEVELS, level_choices
from ..rules import PRESETS, Rules

if TYPE_CHECKING:
    from ..match import Match

HELP = "Play a match in the terminal against computer players."

#: Seconds between computer plays when ``--delay`` is not given.
DEFAULT_DELAY = 0.6

#: The longest ``--delay`` accepted, in seconds.
MAX_DELAY = 10.0


def seconds(text: str) -> float:
    """An ``argparse`` type: ``text`` as seconds from 0 to :data:`MAX_DELAY`.

    Raises:
        argparse.ArgumentTypeError: for text that is not a number, or is out of range.
    """
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a number of seconds; give e.g. 0.5, or 0 for no pause") from None
    if not math.isfinite(value) or not 0 <= value <= MAX_DELAY:
        raise argparse.ArgumentTypeError(
            f"{text} seconds is out of range; give 0 to {MAX_DELAY:g} seconds (0: no pause)")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``president play``."""
    parser.add_argument("--rules", default=None, metavar="PRESET[+TWIST...][/OPTION=VALUE...]",
                        help=f"a preset ({', '.join(PRESETS)}) with optional twists, e.g. "
                             "house+sit-out (default: house)")
    parser.add_argument("--players", type=int, default=None,
                        help="table size including you (default: the preset's smallest)")
    parser.add_argument("--seed", type=int, default=None,
                        help="seed for the shuffles and computer players (default: a fresh "
                             "one, printed at the start so you can play the game again)")
    parser.add_argument("--name", default=None, help="your name at the table (default: You)")
    parser.add_argument("--levels", default=None, metavar="LEVEL,...",
                        help=f"computer level per opponent clockwise from your left, comma "
                             f"separated, from: {level_choices()}; a shorter list repeats "
                             "(default: simple)")
    parser.add_argument("--record", default=None, metavar="FILE",
                        help="write the match record (JSON, docs/records.md) to FILE when the "
                             "game ends or you quit; attach it to a bug report")
    parser.add_argument("--resume", default=None, metavar="FILE",
                        help="continue the match recorded in FILE (written by --record); you "
                             "are its first player, the rules and names are the record's. "
                             "The record is written back to FILE (or to --record FILE)")
    parser.add_argument("--hint-level", default="simple", metavar="LEVEL",
                        help=f"computer level that answers 'hint', from: {', '.join(LEVELS)}, "
                             f"or your own bot (default: simple; 'hint LEVEL' at the prompt "
                             f"asks another level once)")
    parser.add_argument("--delay", type=seconds, default=DEFAULT_DELAY, metavar="SECONDS",
                        help="pause before each computer play, and four times as long after "
                             f"each deal's result (default: {DEFAULT_DELAY:g}; 0: no pause)")
    parser.add_argument("--auto-pass", action="store_true",
                        help="pass for you, without asking, whenever nothing you hold beats "
                             "the pile (the reason is shown)")


def _check_levels(levels: list[str], available: list[str]) -> str | None:
    for level in levels:
        if level not in available:
            return (f"no computer level {level!r} is available; choose from: "
                    f"{', '.join(available)}, or your own bot as package.module:ClassName or "
                    "a saved network FILE.npz")
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


def load_match(path: str) -> Match:
    """The match recorded in the game record at ``path``, replayed through the rules
    engine to its last step, ready to continue.

    Returns:
        The :class:`~president.match.Match`.

    Raises:
        ValueError: with a one-line reason: the file cannot be read, is not a valid
            record, has a step the rules refuse, has no deal, or holds a match that is
            over (deal numbers in the message count from 1).
    """
    from ..records import RecordError, loads, replay
    from ..records import count_deals_from_1
    from .replay import read_text

    if os.path.isdir(path):
        raise ValueError("is a folder; give the record file, e.g. game.json")
    try:
        record = loads(read_text(path))
    except OSError as e:
        raise ValueError(f"cannot read the file: {e.strerror or e}") from None
    except RecordError as e:
        raise ValueError(f"not a valid game record: {e.message}") from None
    result = replay(record)
    if result.error is not None:
        raise ValueError(f"the record breaks the rules in deal {result.error.deal + 1}: "
                         f"{count_deals_from_1(result.error.message)} (see: president "
                         f"replay {path})")
    if result.match is None:
        raise ValueError("the record has no deal to continue; start a new match instead")
    if result.match_over:
        names = ", ".join(record.players[p] for p in result.winners)
        raise ValueError(f"the match is over (deal {result.match.deal_number} was its last; "
                         f"won by {names}); start a new match instead")
    return result.match


def run(args: argparse.Namespace) -> int:
    """Play the match; exit status 0 when it ends or you quit, 2 for bad options, 130 on
    Ctrl-C, 129 when the terminal hangs up (the record, if any, is written in every case)."""
    from ..players import available_levels, is_import_path, register_level

    match = None
    if args.resume is not None:
        given = [flag for flag, value in (("--rules", args.rules), ("--players", args.players),
                                          ("--name", args.name)) if value is not None]
        if given:
            print(f"president play: {' and '.join(given)} cannot be used with --resume: the "
                  f"rules and names come from the record", file=sys.stderr)
            return 2
        try:
            match = load_match(args.resume)
        except ValueError as e:
            print(f"president play: --resume {args.resume!r}: {e}", file=sys.stderr)
            return 2
        rules = match.rules
    else:
        try:
            rules = Rules.parse(args.rules or "house", players=args.players)
        except RulesError as e:
            print(f"president play: {e.message}", file=sys.stderr)
            return 2
    levels_text = "simple" if args.levels is None else args.levels
    levels = [w.strip() for w in levels_text.split(",")]
    if not any(levels):
        print("president play: --levels needs at least one level, e.g. --levels simple",
              file=sys.stderr)
        return 2
    if "" in levels:
        where = levels.index("") + 1
        print(f"president play: --levels {levels_text!r} has an empty entry (entry {where}); "
              "separate levels with single commas, e.g. --levels simple,random",
              file=sys.stderr)
        return 2
    if len(levels) > rules.players - 1:
        more = "" if match is not None else ", or raise --players"
        print(f"president play: --levels gives {len(levels)} levels for the "
              f"{rules.players - 1} computer seats of a {rules.players}-player table; give at "
              f"most {rules.players - 1} (a shorter list repeats){more}",
              file=sys.stderr)
        return 2
    for level in dict.fromkeys(levels + [args.hint_level]):
        if is_import_path(level):  # your own bot: known to this process from here on
            try:
                register_level(level)
            except ValueError as e:
                print(f"president play: {e}", file=sys.stderr)
                return 2
    available = available_levels()
    problem = _check_levels(levels + [args.hint_level], available)
    if problem:
        print(f"president play: {problem}", file=sys.stderr)
        return 2
    name = "You" if args.name is None else args.name.strip()
    if not name:
        print("president play: --name must not be empty", file=sys.stderr)
        return 2
    from ..terminal import COMPUTER_NAMES, TerminalGame

    taken = [n for n in COMPUTER_NAMES[: rules.players - 1]]
    if match is None and name.lower() in (n.lower() for n in taken):
        print(f"president play: the name {name!r} belongs to a computer player "
              f"at this table ({', '.join(taken)}); choose another --name", file=sys.stderr)
        return 2

    record = args.record if args.record is not None else args.resume
    if record is not None:
        problem = _check_record_path(record)
        if problem:
            flag = "--record" if args.record is not None else "--resume"
            print(f"president play: {flag} {record!r}: {problem}", file=sys.stderr)
            return 2
    if match is not None and args.levels is None:
        # A record keeps the rules, names and moves, not who played the computer seats.
        print("The record does not say the computer players' levels: they play as simple "
              "now (--levels chooses them, e.g. --levels expert,intermediate,simple).")
    game = TerminalGame(rules, levels=levels, seed=args.seed, name=name,
                        hint_level=args.hint_level, record=record, delay=args.delay,
                        auto_pass=args.auto_pass, match=match, resumed_from=args.resume)
    with _exit_on_hang_up():
        return game.run()


@contextlib.contextmanager
def _exit_on_hang_up() -> Iterator[None]:
    """While in effect, a hang-up (SIGHUP: the terminal window was closed) ends the game
    with :class:`SystemExit` (status 129) instead of killing the process at once, so the
    match record is still written. Does nothing where there is no SIGHUP (Windows)."""
    if not hasattr(signal, "SIGHUP"):
        yield
        return
    previous = signal.signal(signal.SIGHUP, _hang_up)
    try:
        yield
    finally:
        signal.signal(signal.SIGHUP, previous)


def _hang_up(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)
