"""The terminal game's loop: a whole match, you in the first seat (index 0, shown as seat 1) against computer players.

:class:`TerminalGame` runs a whole match of any preset (docs/rules.md "Presets"; for
``practice``, seed ``003_e6cd2942d7a2654f.txt``, one deal against Robin, Alex and Sam) and
is the engine behind ``president play``. It holds the :class:`~president.match.Match` like a
table holds the cards, but shows you only what your seat may know: your own
:class:`~president.observation.Observation` and each event passed through
:func:`~president.events.visible_to` for your seat (:mod:`.view`). Each computer player is
handed only its own seat's observation. Your turns are read by :mod:`.input`.

End of input (Ctrl-D) and Ctrl-C end the game cleanly. The input function, the pause
function and the :class:`rich.console.Console` are injectable, so a test can drive a whole
match with scripted answers, no waiting, and read what was printed.
"""

from __future__ import annotations

import os
import random
import secrets
import shlex
import tempfile
import time
from typing import Callable, Sequence

from rich.console import Console
from rich.markup import escape

from ..actions import Give, Pass, Play
from ..errors import IllegalAction, PresidentError
from ..events import Dealt
from ..match import Match
from ..players import make_player
from ..rules import Rules
from .input import Quit, TurnInput
from .view import can_show_suit_symbols, can_write

__all__ = ["TerminalGame", "COMPUTER_NAMES", "SEED_LIMIT", "RESULT_PAUSE"]

#: Names of the computer players, clockwise from your left. The first three are the
#: opponents of the practice round (Robin, Alex and Sam, in that clockwise order).
COMPUTER_NAMES = ("Robin", "Alex", "Sam", "Casey", "Drew", "Blair")

#: A seed drawn when none is given is below this (six digits at most: easy to type back).
SEED_LIMIT = 1_000_000

#: The pause after a deal's result lasts this many times ``delay`` (time to read it).
RESULT_PAUSE = 4


def _replace_file(path: str, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` at once: into a new file in the same folder, then
    renamed over ``path`` (:func:`os.replace`), keeping an existing file's permissions.

    Raises:
        OSError: the folder or file cannot be written.
    """
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".president-", suffix=".json.tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fp:
            fp.write(text)
        try:
            mode = os.stat(path).st_mode & 0o777
        except FileNotFoundError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


class TerminalGame(TurnInput):
    """A match of President in the terminal: you (match player 0) against computer players.

    Args:
        rules: the table's :class:`Rules` (any preset, 3–7 players). With ``match`` it
            must be ``match.rules``.
        levels: computer level per opponent, clockwise from your left; a shorter list is
            repeated to fill the table (default ``("simple",)``). Names come from
            :data:`president.players.LEVELS`.
        seed: seeds the shuffles (the match generator) and the computer players; ``None``
            draws a fresh seed (from :func:`secrets.randbelow`, below :data:`SEED_LIMIT`),
            which is shown at the start so the same game can be played again. With
            ``match``, it seeds the deals still to come and the computer players.
        name: your name in the table (default ``"You"``; with ``match``, its player 0's).
        hint_level: the computer level asked by ``hint`` (default ``"simple"``).
        input_fn: reads one line of your input, ``() -> str``; raises :class:`EOFError` at
            the end of input (default: :func:`input`).
        console: where to draw (default: a new :class:`rich.console.Console`).
        echo: print each line you typed after its prompt (default: when the input is not
            a terminal, e.g. piped or scripted, so the transcript reads like a session).
        record: a file path; when the game ends (the match ends, you quit, end of input,
            Ctrl-C, or an error) the match record is written there with
            :func:`president.records.dump` (``docs/records.md``), for replays and bug
            reports. ``None`` (default) writes nothing.
        delay: seconds to pause before each computer player's action, so the plays can be
            followed, and :data:`RESULT_PAUSE` times as long after a deal's result when
            another deal follows at once (a float, ``0`` for no pause, the default here;
            ``president play`` passes its ``--delay``).
        sleep_fn: pauses for a number of seconds, ``(float) -> None`` (default:
            :func:`time.sleep`); called only when ``delay`` is above 0.
        auto_pass: pass for you, without asking, whenever passing is your only legal
            action (nothing you hold beats the pile), printing the reason.
        suit_symbols: show suits as ``♣ ♦ ♥ ♠`` (``True``) or as the letters C D H S
            (``False``); ``None`` (default) uses the symbols when the console's encoding
            can write them (:func:`can_show_suit_symbols`). Typed cards take either.
        match: a match in progress to continue (e.g. replayed from a game record with
            :func:`president.records.replay`) instead of dealing a new one. You are its
            player 0 and the names are its players'; the deals still to come are shuffled
            from ``seed``. Its current deal is told again from its start.
        resumed_from: with ``match``, the record file it was read from (``president play
            --resume FILE``), if any. When nothing is played before you leave, the match is
            still in that file: ``record`` is not rewritten when it is that same file, and
            the way to resume names it.

    Raises:
        ValueError: an unknown computer level (message lists the levels), a negative or
            not finite ``delay``, or a ``match`` whose rules are not ``rules``.
    """

    def __init__(self, rules: Rules, *, levels: Sequence[str] = ("simple",),
                 seed: int | None = None, name: str = "You", hint_level: str = "simple",
                 input_fn: Callable[[], str] | None = None,
                 console: Console | None = None, echo: bool | None = None,
                 record: str | os.PathLike[str] | None = None, delay: float = 0.0,
                 sleep_fn: Callable[[float], None] | None = None, auto_pass: bool = False,
                 suit_symbols: bool | None = None, match: Match | None = None,
                 resumed_from: str | os.PathLike[str] | None = None) -> None:
        n = rules.players
        if isinstance(delay, bool) or not isinstance(delay, (int, float)) \
                or not 0 <= delay < float("inf"):
            raise ValueError(f"delay must be a number of seconds, 0 or more, not {delay!r}")
        if match is not None and match.rules != rules:
            raise ValueError("the match to continue is played under other rules than "
                             f"{rules.name}")
        if seed is None:
            seed = secrets.randbelow(SEED_LIMIT)
        self.record_path = record
        self.resumed_from = resumed_from
        # Set when you leave the match (quit, q then y, end of input): say how to resume.
        self._left = False
        levels = list(levels) or ["simple"]
        self.rules = rules
        self.levels = [levels[i % len(levels)] for i in range(n - 1)]
        if match is None:
            self.names = [name] + list(COMPUTER_NAMES[: n - 1])
        else:
            self.names = list(match.players)
        self.seed = seed
        # One computer player per match player 1..n-1 (they keep their player through
        # reseating under ``by-finish``); each is seeded from the game seed.
        self.bots = {p: make_player(self.levels[p - 1], seed=seed * 31 + p)
                     for p in range(1, n)}
        self.hint_level = hint_level
        self._hint_players = {hint_level: make_player(hint_level, seed=seed * 31)}
        self._hint_memo = {}
        self.console = console or Console(highlight=False)
        self.input_fn = input_fn or input
        if echo is None:
            import sys
            echo = input_fn is not None or not sys.stdin.isatty()
        self.echo = echo
        self.delay = float(delay)
        self.sleep_fn = sleep_fn or time.sleep
        self.auto_pass = auto_pass
        self.symbols = (can_show_suit_symbols(self.console) if suit_symbols is None
                        else suit_symbols)
        # The separator in headings: a middle dot where the console has one.
        self._dot = "·" if can_write(self.console, "·") else "-"
        self.resumed = match is not None
        # Seeds of the deals still to come in a resumed match (the generator that shuffled
        # the recorded deals is not in the record); None: the match's own generator.
        self._deal_seeds: random.Random | None = None
        if match is None:
            self.match = Match(rules, self.names, seed=seed)
            self._events_shown = 0
        else:
            self.match = match
            self._resumed_at = len(match.events)
            self._deal_seeds = random.Random(seed)
            # Tell the current deal again from its start (earlier deals: see ``score``).
            self._events_shown = max(i for i, e in enumerate(match.events)
                                     if isinstance(e, Dealt))

    # ----- the loop -----------------------------------------------------------------

    def run(self) -> int:
        """Play the whole match. Returns the exit status: 0 when the match ended or you
        quit, 130 on Ctrl-C. With ``record`` set, the match record is written however the
        game ends."""
        try:
            return self._run()
        finally:
            held = self.write_record() if self.record_path is not None else None
            if self._left:
                self._say_how_to_resume(held)

    def _say_how_to_resume(self, held: str | None) -> None:
        """After you leave: the exact command that continues the match from the record file
        ``held`` (``None``: the match was not recorded, so it cannot be resumed; say how to
        keep the next one)."""
        c = self.console
        if held is None:
            if self.record_path is None:
                c.print("This match cannot be resumed: it was not recorded. To be able to "
                        "continue a match later, start it with [bold]president play --record "
                        "game.json[/] and continue it with [bold]president play --resume "
                        "game.json[/].")
            else:
                c.print("This match cannot be resumed: its record could not be written "
                        "(above).")
            return
        command = f"president play --resume {shlex.quote(held)}"
        if any(level != "simple" for level in self.levels):
            # The record keeps the moves, not the computer levels: give them again.
            levels = self.levels[:1] if len(set(self.levels)) == 1 else self.levels
            command += f" --levels {shlex.quote(','.join(levels))}"
        # soft_wrap: the command is never broken by an inserted newline (copy and paste).
        c.print(f"To continue this match later: [bold]{escape(command)}[/]", soft_wrap=True)

    def write_record(self) -> str | None:
        """Write the match so far to ``record`` with :func:`president.records.dumps` and say
        where. The file is replaced whole (written beside it, then renamed), so an earlier
        record there, such as the one a match was resumed from, is never left cut short.
        A file that cannot be written is reported, not raised (the game is over).
        A resumed match in which nothing happened since it was resumed is not written to the
        file it came from (that file keeps its comments and layout).

        Returns:
            The path of the file that holds the match as it stands (just written, or the
            untouched file it was resumed from), or ``None`` when it could not be written.
        """
        from .. import records

        assert self.record_path is not None, "no record file was named"
        path = os.fspath(self.record_path)
        same_file = self.resumed_from is None or os.path.abspath(
            os.fspath(self.resumed_from)) == os.path.abspath(path)
        if self.resumed and len(self.match.events) == self._resumed_at and same_file:
            self.console.print(f"Nothing was played since resuming; {escape(path)} is not "
                               "written.", soft_wrap=True)
            return path
        try:
            _replace_file(path, records.dumps(self.match))
        except (OSError, PresidentError) as e:
            why = e.message if isinstance(e, PresidentError) else (e.strerror or str(e))
            self.console.print(f"[red]Could not write the match record to {escape(path)}:[/] "
                               f"{escape(why)}", soft_wrap=True)
            return None
        # soft_wrap: a long path is never broken by an inserted newline (copy and paste).
        try:
            self.console.print(f"Match record written to {escape(path)} (seed {self.seed}); "
                               f"check it with: president replay {escape(path)}",
                               soft_wrap=True)
        except OSError:  # the terminal is gone (closed window); the record is written
            pass
        return path

    def _run(self) -> int:
        c = self.console
        try:
            self._intro()
            self._show_new_events()
            while True:
                m = self.match
                if m.phase == "match-over":
                    return 0
                if m.phase == "between-deals":
                    if m.rules.match_end == "never" and not self._ask_another_deal():
                        c.print("You leave the table. Thanks for playing.")
                        self._leave()
                        return 0
                    seed = None if self._deal_seeds is None else self._deal_seeds.getrandbits(32)
                    m.start_next_deal(seed=seed)
                    self._show_new_events()
                    continue
                seat = m.to_act
                assert seat is not None  # a seat acts in the exchange and in play
                if seat == self.seat:
                    action = self._your_action()
                    m.act(seat, action)
                else:
                    action = self._computer_action(seat)
                    try:
                        m.act(seat, action)
                    except IllegalAction as e:   # a bot of one's own that breaks the rules
                        level = self.levels[m.seating[seat] - 1]
                        c.print(f"\nThe computer player {escape(repr(level))} chose an action "
                                f"the rules refuse ({escape(str(action))}): {escape(e.message)}; a "
                                "player must return one of observation.legal_actions. The "
                                "match stops here.")
                        return 2
                self._show_new_events()
                if m.phase == "between-deals" and m.rules.match_end != "never":
                    self._pause(self.delay * RESULT_PAUSE)  # read the result; no question
        except Quit:
            c.print("\nYou leave the match. Thanks for playing.")
            self._leave()
            return 0
        except KeyboardInterrupt:
            c.print("\nInterrupted: the match is abandoned.")
            return 130

    def _leave(self) -> None:
        """You leave before the match is over: the standings so far, then (after the record
        is written, in :meth:`run`) how to resume."""
        self._left = True
        self.show_standings()

    def _pause(self, seconds: float) -> None:
        """Wait ``seconds`` with :attr:`sleep_fn` (nothing for 0)."""
        if seconds > 0:
            self.sleep_fn(seconds)

    def _computer_action(self, seat: int) -> Play | Pass | Give:
        """Ask the computer player at ``seat``, handing it only its own observation, after
        the ``delay`` pause. On a real terminal a status line shows who is thinking (strong
        levels take a moment)."""
        m = self.match
        bot = self.bots[m.seating[seat]]
        obs = m.observation(seat)
        if not self.console.is_terminal:
            self._pause(self.delay)
            return bot.act(obs)
        with self.console.status(f"{escape(obs.names[seat])} is thinking...", spinner="dots"):
            self._pause(self.delay)
            return bot.act(obs)
