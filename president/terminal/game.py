"""The terminal game: you at seat 0 of a match against computer players, drawn with ``rich``.

:class:`TerminalGame` runs a whole match of any preset (RULES.md "Presets"; for
``practice``, seed ``003_e6cd2942d7a2654f.txt``, one deal against Robin, Alex and Sam) and
is the engine behind ``president play``. It holds the :class:`~president.match.Match` like a
table holds the cards, but shows you only what your seat may know: your own
:class:`~president.observation.Observation` and each event passed through
:func:`~president.events.visible_to` for your seat. Each computer player is handed only
its own seat's observation.

At each of your turns the table shows every play on the current pile (oldest first), the
play to beat, and a line of the cards gone so far this deal, per rank (the cards played
face up: the pile and the cleared piles; never a hand, never an exchanged card).

What you can type at your turn:

- a rank alone (``9``, ``10`` or ``T``, ``k``, ``2``) or its name (``nine``, ``queens``):
  the cards of that rank from your hand. On a lead that is all of them (your whole set);
  when following, as many as the pile needs, the lowest suits first (suits never matter in
  play). Repeat it to choose how many (``9 9`` is a pair of nines). If you hold none of
  that rank, or too few, you are told so;
- cards, by their text (``9s 9d``, ``10H``, ``th``, ``9♠``), to choose the exact cards;
- ``pass`` (or ``p``); an empty line (Enter) passes too, but only when nothing you hold
  beats the pile, and says why; otherwise it asks again;
- ``hint``: asks a computer player of the hint level to choose for you, from your own
  observation only, and shows its choice (nothing is played); ``hint LEVEL`` (e.g.
  ``hint expert``) asks that level instead;
- ``history`` (this deal's plays and passes, in order), ``score`` (totals, and each
  deal's places and titles), ``seen`` (the cards gone this deal, per rank);
- ``help`` (or ``?``) and ``quit``.

Cards are never typed by their place in your hand: ranks are numbers too, so a number
always means a rank. ``q`` alone never plays a card: it asks whether you want to quit
(queens are ``queen``, ``q q`` or the cards, e.g. ``QS``). During an exchange each rank
typed gives one card of that rank (``K A`` gives a king and an ace).

A refused entry shows the engine's reason (:attr:`IllegalAction.message`) and asks again;
the match does not change. End of input (Ctrl-D) and Ctrl-C end the game cleanly.

The input function, the pause function and the :class:`rich.console.Console` are
injectable, so a test can drive a whole match with scripted answers, no waiting, and read
what was printed.
"""

from __future__ import annotations

import os
import random
import re
import secrets
import tempfile
import time
from typing import Callable, Sequence

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from ..actions import KIND_NAMES, PASS, Give, Pass, Play
from ..cards import Card, Rank, Suit
from ..errors import IllegalAction, NotationError, PresidentError
from ..events import (DealEnded, Dealt, Event, Exchanged, MatchEnded, Passed, PileCleared,
                     Played, WentOut, visible_to)
from ..match import Match
from ..narration import (SUIT_SYMBOLS, Line, Reader, card_label, exchange_plan, left_holding,
                         narrate, ordinal)
from ..observation import Observation
from ..players import available_levels, make_player
from ..rules import Rules

__all__ = ["TerminalGame", "COMPUTER_NAMES", "Quit", "HELP_TEXT"]

#: Names of the computer players, clockwise from your left. The first three are the
#: opponents of seed 003's practice round (Robin, Alex and Sam, in that clockwise order).
COMPUTER_NAMES = ("Robin", "Alex", "Sam", "Casey", "Drew", "Blair")

HELP_TEXT = (
    "At your turn, type one of:\n"
    "  a rank  [bold]9[/], [bold]10[/] (or [bold]T[/]), [bold]k[/], [bold]2[/], or a name"
    " ([bold]nine[/], [bold]queens[/]): your cards\n"
    "          of that rank. On a lead, all of them; when following, as\n"
    "          many as the pile needs (lowest suits first); [bold]9 9[/]: two 9s.\n"
    "  cards   [bold]9s 9d[/], [bold]10H[/], [bold]th[/], [bold]9♠[/]"
    " (rank, then suit: C D H S or ♣ ♦ ♥ ♠)\n"
    "  pass    decline this turn (not on a lead); also [bold]p[/]\n"
    "  Enter   passes when nothing you hold beats the pile (says why)\n"
    "  hint    ask a computer player for a suggestion; [bold]hint expert[/] asks\n"
    "          that level (random, beginner, simple, intermediate, expert,\n"
    "          master)\n"
    "  history this deal's plays and passes, in order\n"
    "  score   the scores, and each deal's places and titles\n"
    "  seen    the cards gone this deal (played face up), per rank\n"
    "  help    show this text; also [bold]?[/]\n"
    "  quit    leave the match; also Ctrl-D. [bold]q[/] alone asks first and\n"
    "          never plays queens: for queens type [bold]queen[/], [bold]q q[/] or [bold]QS[/]\n"
    "A play is 1 to 4 cards of one rank. To beat the pile, play as\n"
    "many cards as the lead, of a higher rank (or an equal one where\n"
    "the rules allow it). 3 is the lowest rank, 2 the highest.")

#: What "passed" means in the table's "Now" column under each ``passing`` option
#: (RULES.md ``passing``): under ``re-enter`` a pass only declines one turn.
PASSED_LABELS = {
    "re-enter": "passed since the last play",
    "sit-out": "passed: out of this pile",
    "once-around": "passed: has had their turn",
}

#: A seed drawn when none is given is below this (six digits at most: easy to type back).
SEED_LIMIT = 1_000_000

#: Deals shown one by one in the score table; earlier deals are summed in one column.
SCORE_COLUMNS = 8

#: The pause after a deal's result lasts this many times ``delay`` (time to read it).
RESULT_PAUSE = 4

#: Rank names typed instead of a rank symbol (``queen``, ``queens``, ``sixes``): the
#: unambiguous way to name queens, since ``q`` alone asks whether you want to quit.
RANK_NAMES = {name: rank for rank in Rank
              for name in (rank.word, "sixes" if rank.word == "six" else rank.word + "s")}


class Quit(Exception):
    """Raised inside the game loop when you ask to leave (``quit``, end of input)."""


def can_write(console: Console, text: str) -> bool:
    """Whether ``console``'s output encoding (:attr:`rich.console.Console.encoding`, e.g.
    ``"utf-8"``) can write every character of ``text``."""
    try:
        text.encode(console.encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def can_show_suit_symbols(console: Console) -> bool:
    """Whether ``console`` can write the suit symbols ``♣ ♦ ♥ ♠``. An ASCII or Latin-1
    terminal gets the suit letters C D H S instead."""
    return can_write(console, SUIT_SYMBOLS)


def help_text(symbols: bool = True) -> str:
    """:data:`HELP_TEXT`, without the suit symbols when the console cannot show them."""
    if symbols:
        return HELP_TEXT
    return HELP_TEXT.replace(", [bold]9♠[/]", "").replace(" or ♣ ♦ ♥ ♠", "")


def _card_style(card: Card) -> str:
    return "bold red" if card.suit in (Suit.HEARTS, Suit.DIAMONDS) else "bold"


def card_text(card: Card, symbols: bool = False) -> Text:
    """A card as styled text (:func:`~president.narration.card_label`), red for hearts and
    diamonds."""
    return Text(card_label(card, symbols), style=_card_style(card))


def line_text(line: Line) -> Text:
    """A narration :class:`~president.narration.Line` (its sentence, not its title) as styled
    text: cards coloured by suit, strong parts bold, a quiet line dim and a strong one bold."""
    out = Text(style={"quiet": "dim", "strong": "bold"}.get(line.tone, ""))
    for span in line.spans:
        if span.card is not None:
            out.append(span.text, style=_card_style(span.card))
        else:
            out.append(span.text, style="bold" if span.strong else "")
    return out


def cards_text(cards: Sequence[Card], symbols: bool = False) -> Text:
    """Cards separated by spaces, coloured by suit."""
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append(" ")
        out.append_text(card_text(c, symbols))
    return out


def cards_gone(obs: Observation) -> dict[Rank, list[Card]]:
    """The cards of each rank played face up this deal, lowest rank first: those on the
    current pile and those cleared from earlier piles (RULES.md "Information"). Public
    information only: never a hand, never a card handed over in an exchange.

    Args:
        obs: any seat's observation (every seat gets the same answer).

    Returns:
        Every rank (3 to 2) mapped to its gone cards, sorted; an empty list for none.
    """
    gone: dict[Rank, list[Card]] = {rank: [] for rank in Rank}
    for card in obs.cleared:
        gone[card.rank].append(card)
    for _, play in obs.pile:
        gone[play.rank].extend(play.cards)
    return {rank: sorted(cards) for rank, cards in gone.items()}


def _plural(rank: Rank) -> str:
    word = rank.word
    return "sixes" if word == "six" else word + "s"


def _short_of(rank: Rank, held: int, wanted: int, why: str = "") -> str:
    """The refusal when you hold fewer cards of ``rank`` than your entry asks for."""
    if not held:
        return f"you hold no {_plural(rank)} ({rank.symbol})"
    have = f"one {rank.word}" if held == 1 else f"{held} {_plural(rank)}"
    return f"you hold only {have} ({rank.symbol}) and {why or f'asked for {wanted}'}"


def describe_action(action: Play | Pass | Give) -> str:
    """Plain words for an action: ``"pair of nines (9D 9S)"``, ``"pass"``, ``"give 2S"``."""
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, Give):
        return f"give {action}"
    return f"{action.describe()} ({action})"


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


class TerminalGame:
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
                 suit_symbols: bool | None = None, match: Match | None = None) -> None:
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

    @property
    def deal_points(self) -> list[tuple[int, ...]]:
        """Points by match player index, one row per finished deal (for the score table)."""
        return [r.points for r in self.match.results]

    # ----- where am I ---------------------------------------------------------------

    @property
    def seat(self) -> int:
        """Your seat in the current deal (it moves under ``by-finish`` seating)."""
        return self.match.seating.index(0)

    def observation(self) -> Observation:
        """Your own observation: the only view of the table the screen is drawn from."""
        return self.match.observation(self.seat)

    def _name(self, seat: int, obs: Observation) -> str:
        """The name at a seat for tables: yours marked ``(you)`` unless it is ``"You"``."""
        name = obs.names[seat]
        return f"{name} (you)" if seat == obs.seat and name != "You" else name

    def reader(self, obs: Observation) -> Reader:
        """You as the reader of the narration (:mod:`president.narration`): the names by
        seat, your seat, and the suits as the console shows them."""
        return Reader(tuple(obs.names), obs.seat, self.symbols, player=0)

    def _who(self, seat: int, obs: Observation, start: bool = True) -> str:
        """``"You"`` (``"you"`` when not at the start of a sentence) or the seat's name."""
        return self.reader(obs).who(seat, start=start)

    # ----- the loop -----------------------------------------------------------------

    def run(self) -> int:
        """Play the whole match. Returns the exit status: 0 when the match ended or you
        quit, 130 on Ctrl-C. With ``record`` set, the match record is written however the
        game ends."""
        try:
            return self._run()
        finally:
            if self.record_path is not None:
                self.write_record()

    def write_record(self) -> None:
        """Write the match so far to ``record`` with :func:`president.records.dumps` and say
        where. The file is replaced whole (written beside it, then renamed), so an earlier
        record there, such as the one a match was resumed from, is never left cut short.
        A file that cannot be written is reported, not raised (the game is over).
        A resumed match in which nothing happened since it was resumed is not written (the
        file it came from keeps its comments and layout)."""
        from .. import records

        assert self.record_path is not None, "no record file was named"
        path = os.fspath(self.record_path)
        if self.resumed and len(self.match.events) == self._resumed_at:
            self.console.print(f"Nothing was played since resuming; {escape(path)} is not "
                               "written.", soft_wrap=True)
            return
        try:
            _replace_file(path, records.dumps(self.match))
        except (OSError, PresidentError) as e:
            why = e.message if isinstance(e, PresidentError) else (e.strerror or str(e))
            self.console.print(f"[red]Could not write the match record to {escape(path)}:[/] "
                               f"{escape(why)}", soft_wrap=True)
            return
        # soft_wrap: a long path is never broken by an inserted newline (copy and paste).
        try:
            self.console.print(f"Match record written to {escape(path)} (seed {self.seed}); "
                               f"check it with: president replay {escape(path)}",
                               soft_wrap=True)
        except OSError:  # the terminal is gone (closed window); the record is written
            pass

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
                        return 0
                    seed = None if self._deal_seeds is None else self._deal_seeds.getrandbits(32)
                    m.start_next_deal(seed=seed)
                    self._show_new_events()
                    continue
                seat = m.to_act
                assert seat is not None  # a seat acts in the exchange and in play
                if seat == self.seat:
                    action = self._your_action()
                else:
                    action = self._computer_action(seat)
                m.act(seat, action)
                self._show_new_events()
                if m.phase == "between-deals" and m.rules.match_end != "never":
                    self._pause(self.delay * RESULT_PAUSE)  # read the result; no question
        except Quit:
            c.print("\nYou leave the match. Thanks for playing.")
            return 0
        except KeyboardInterrupt:
            c.print("\nInterrupted: the match is abandoned.")
            return 130

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
        with self.console.status(f"{obs.names[seat]} is thinking...", spinner="dots"):
            self._pause(self.delay)
            return bot.act(obs)

    def _read(self, prompt: str) -> str:
        self.console.print(prompt, end="", markup=True)
        try:
            line = self.input_fn()
        except EOFError:
            if self.echo:
                self.console.print()
            raise Quit from None
        if self.echo:
            self.console.print(escape(line.rstrip("\n")), markup=True)
        return line.strip()

    def _ask_another_deal(self) -> bool:
        while True:
            line = self._read("Another deal? [bold]Enter[/] or [bold]y[/] to deal, "
                              "[bold]quit[/] to stop: ").lower()
            if line in ("", "y", "yes"):
                return True
            if line in ("q", "quit", "exit", "n", "no"):
                return False
            self.console.print("Please answer y (or just Enter) or quit.")

    # ----- your turn ----------------------------------------------------------------

    def _your_action(self) -> Play | Pass | Give:
        obs = self.observation()
        forced_pass = self.nothing_beats(obs)
        if forced_pass is not None and self.auto_pass:
            self.console.print(f"{forced_pass} (auto-pass).")
            return PASS
        self.show_table(obs)
        exchange = obs.phase == "exchange"
        if exchange:
            step = obs.pending_exchange
            assert step is not None  # your step of the exchange
            legal = obs.legal_actions
            to = obs.names[step.receiver]
            what = f"{step.count} card{'s' if step.count > 1 else ''}"
            if step.forced and len(legal) == 1:
                give = legal[0]
                assert isinstance(give, Give)  # an exchange's actions are gives
                t = Text(f"You must give your highest {what} to {to}: ")
                t.append_text(cards_text(give.cards, self.symbols))
                t.append(" goes.")
                self.console.print(t)
                return give
            if step.forced:
                prompt = (f"Give your highest {what} to {to}; type which "
                          f"(e.g. {legal[0]}): ")
            elif obs.rules.give_back == "lowest":
                prompt = (f"Give back your lowest {what} to {to}; type which "
                          f"(e.g. {legal[0]}): ")
            else:
                example = " ".join(str(c) for c in obs.hand[:step.count])
                prompt = (f"Choose {what} to give back to {to}; type the "
                          f"card{'s' if step.count > 1 else ''} (e.g. {example}): ")
        elif obs.to_beat is not None and (forced_pass is not None or obs.pile):
            to_beat = obs.to_beat
            if forced_pass is not None:
                prompt = (f"Nothing you hold beats {self._labels(to_beat.cards)}: "
                          "[bold]Enter[/] passes: ")
            else:
                kind = KIND_NAMES[to_beat.count]
                prompt = (f"Beat {self._labels(to_beat.cards)}: a rank (a {kind} of it) or "
                          "cards, or pass: ")
        else:
            prompt = "You lead: a rank (all your cards of it) or cards: "
        while True:
            line = self._read(prompt)
            word = line.lower()
            if not word:
                if forced_pass is not None:
                    self.console.print(f"{forced_pass}.")
                    return PASS
                self._enter_does_not_pass(obs)
                continue
            if word in ("quit", "exit"):
                raise Quit
            if word == "q":
                self._confirm_quit()
                continue
            if word in ("help", "?", "h"):
                self.console.print(self.exchange_help(obs) if exchange
                                   else help_text(self.symbols))
                continue
            if word == "history":
                self.show_history(obs)
                continue
            if word in ("score", "scores"):
                self.show_score()
                continue
            if word in ("seen", "gone"):
                self.show_seen(obs)
                continue
            words = word.split()
            if words[0] == "hint" and len(words) <= 2:
                self._hint(obs, words[1] if len(words) == 2 else self.hint_level)
                continue
            if word == "p":
                line = "pass"
            try:
                action = self._parse(line, obs)
            except PresidentError as e:
                self.console.print(f"[red]Not accepted:[/] {escape(e.message)}")
                continue
            refusal = self.match.refusal(self.seat, action)
            if refusal is not None:
                self.console.print(f"[red]Not accepted:[/] {escape(refusal.message)}")
                continue
            return action

    def _labels(self, cards: Sequence[Card]) -> str:
        """Cards as plain text, with suit symbols where the console shows them."""
        return " ".join(card_label(c, self.symbols) for c in cards)

    def nothing_beats(self, obs: Observation) -> str | None:
        """Why you must pass, when passing is your only legal action: ``"Nothing you hold
        beats the pair of nines (9♦ 9♠): no pair of a higher rank"``. ``None``
        when you can play (or lead, or are not to act, or it is the exchange).

        Args:
            obs: your observation.
        """
        if obs.phase != "play" or obs.to_act != obs.seat or obs.legal_actions != (PASS,):
            return None
        top = obs.to_beat
        assert top is not None  # only a pass is legal: there is a pile to beat
        kind = "card" if top.count == 1 else KIND_NAMES[top.count]
        cards = self._labels(top.cards)
        way = "lower" if obs.reversed else "higher"
        why = " (four of a kind has reversed the rank order)" if obs.reversed else ""
        if obs.rules.beat == "equal-or-higher":
            return (f"Nothing you hold matches or beats the {top.describe()} ({cards}): "
                    f"no {kind} of an equal or {way} rank{why}")
        return (f"Nothing you hold beats the {top.describe()} ({cards}): no {kind} of a "
                f"{way} rank{why}")

    def _enter_does_not_pass(self, obs: Observation) -> None:
        """The note for an empty line when it does not pass: a lead, a pile you can beat,
        or the exchange. Nothing is played."""
        if obs.phase == "exchange":
            note = "Enter does not give cards: type the cards (or ranks) to give."
        elif not obs.pile:
            note = "You lead, so you cannot pass: type a rank or cards (help for more)."
        else:
            note = ("You can beat the pile, so Enter does not pass: type a rank or cards to "
                    "play, or [bold]pass[/] (p).")
        self.console.print(note)

    def _confirm_quit(self) -> None:
        """``q`` alone: ask before leaving (``q`` never plays queens).

        Raises:
            Quit: when you answer ``y`` (or ``yes``, ``quit``), or at the end of input.
        """
        answer = self._read("Quit the match? [bold]y[/] quits, [bold]Enter[/] goes on: ")
        if answer.lower() in ("y", "yes", "quit"):
            raise Quit
        self.console.print("Not quitting. (q alone never plays queens: type [bold]queen[/], "
                           "[bold]q q[/] or the cards, e.g. [bold]QS[/].)")

    def exchange_help(self, obs: Observation) -> str:
        """The help shown for ``help`` during an exchange: what you give, to whom, and how
        to type it (RULES.md ``exchange``: ``one-card`` and ``two-and-one``).

        Args:
            obs: your observation; its ``pending_exchange`` is your step.
        """
        step = obs.pending_exchange
        assert step is not None  # asked during the exchange
        to = obs.names[step.receiver]
        n = step.count
        what = f"{n} card{'s' if n > 1 else ''}"
        if step.forced:
            rule = (f"The rules make you give your highest {what}; when several of your "
                    "cards share that rank, you choose which.")
        elif obs.rules.give_back == "lowest":
            rule = (f"The rules make you give back your lowest {what}; when several of your "
                    "cards share that rank, you choose which.")
        else:
            rule = f"You choose any {what} of your hand to give back."
        hand = obs.hand
        card_example = " ".join(str(c) for c in (hand[-n:] if step.forced else hand[:n]))
        rank_example = " ".join(c.rank.symbol for c in (hand[-n:] if step.forced else hand[:n]))
        return (f"Exchange: you give {what} to {escape(to)} before the deal is played.\n"
                f"  {rule}\n"
                f"  Type the card{'s' if n > 1 else ''}: [bold]{card_example}[/] (rank, then "
                "suit C D H S),\n"
                f"  or rank{'s' if n > 1 else ''}: [bold]{rank_example}[/] (each rank gives "
                "one card of it, lowest suit first).\n"
                "  hint    ask a computer player for a suggestion (hint LEVEL: that level)\n"
                "  quit    leave the match")

    def _hint(self, obs: Observation, level: str) -> None:
        """Print the choice of the ``level`` computer player for ``obs`` (plays nothing)."""
        if level not in self._hint_players:
            try:
                self._hint_players[level] = make_player(level, seed=self.seed * 31)
            except ValueError:
                levels = ", ".join(available_levels())
                self.console.print(f"[red]Not accepted:[/] no computer level {escape(level)!r} "
                                   f"for a hint; type hint or hint LEVEL, LEVEL one of {levels}")
                return
        choice = self._hint_players[level].act(obs)
        self.console.print(f"Hint ({level}): {describe_action(choice)}")

    def _parse(self, line: str, obs: Observation) -> Play | Pass | Give:
        """Your entry as an action. A rank alone (or its name, :data:`RANK_NAMES`) stands
        for your cards of that rank.

        During play, one rank alone means all your cards of it on a lead, and as many as
        the pile needs when following (lowest suits first; suits never matter, RULES.md
        "Core"); a rank typed ``k`` times means ``k`` cards of it. During an exchange each
        rank typed is one card of that rank. Anything else is read as card notation.

        Raises:
            IllegalAction: ``bad-notation`` for a number that is not a rank, a ``#``
                position, a mix of ranks and cards or unreadable cards; ``not-in-hand``
                when you hold none (or too few) of a rank typed; ``mixed-ranks`` for cards
                or ranks of different ranks in a play.
        """
        words = [w for w in re.split(r"[\s,]+", line.strip()) if w]
        ranks: list[Rank | None] = []
        for w in words:
            if w.lower() in RANK_NAMES:
                ranks.append(RANK_NAMES[w.lower()])
                continue
            try:
                ranks.append(Rank.parse(w))
            except NotationError:
                if w.startswith("#") or w.isdigit():
                    raise IllegalAction(
                        "bad-notation", f"{w!r} is not a rank or a card; cards are not "
                        "typed by their place in your hand. Type a rank (9, 10, K, 2) for "
                        "your cards of that rank, or the cards themselves (9S 9D)") from None
                ranks.append(None)
        if not words or all(r is None for r in ranks):
            return self.match.parse_action(" ".join(words))
        typed = [r for r in ranks if r is not None]
        if len(typed) != len(ranks):
            raise IllegalAction("bad-notation", "type ranks alone (9, or 9 9 for two) or the "
                                "cards themselves (9S 9D), not both in one entry")
        hand = obs.hand
        if obs.phase == "exchange":
            chosen: list[Card] = []
            for r in typed:
                free = [c for c in hand if c.rank == r and c not in chosen]
                if not free:
                    n_held = sum(c.rank == r for c in hand)
                    raise IllegalAction("not-in-hand", _short_of(
                        r, n_held, typed.count(r), f"you typed it {typed.count(r)} times"))
                chosen.append(free[0])
            return Give(chosen)
        rank = typed[0]
        if any(r != rank for r in typed):
            raise IllegalAction("mixed-ranks", f"{' '.join(words)} mixes ranks; a play is "
                                "cards of one rank")
        held = [c for c in hand if c.rank == rank]
        if len(words) > 1:
            count, why = len(words), f"you typed it {len(words)} times"
        elif obs.to_beat is not None:  # a pile to beat
            count = obs.to_beat.count
            why = f"the pile needs a {KIND_NAMES[count]}"
        else:
            count, why = len(held), ""
        if not held or len(held) < count:
            raise IllegalAction("not-in-hand", _short_of(rank, len(held), count, why))
        return Play.of(held[:count])

    # ----- drawing ------------------------------------------------------------------

    def show_table(self, obs: Observation) -> None:
        """Draw the table as your seat sees it: seats, card counts, passes, finishing
        places, titles and scores, the pile and your hand (wrapped to the console width)."""
        c = self.console
        n = obs.players
        scored = obs.rules.scoring is not None
        table = Table(title=f"Deal {obs.deal_number} {self._dot} {obs.rules.name}",
                      title_justify="left", show_edge=False, pad_edge=False)
        table.add_column("Seat", justify="right")
        table.add_column("Player", min_width=14)  # "(intermediate)" whole on a narrow screen
        table.add_column("Cards", justify="right")
        table.add_column("Now")
        table.add_column("Title", min_width=14, no_wrap=True)  # "Vice-President" whole
        if scored:
            table.add_column("Score", justify="right")
        for s in range(n):
            name = self._name(s, obs)
            if s != obs.seat:
                name += f" [dim]({self.levels[obs.seating[s] - 1]})[/]"
            marks = []
            if s == obs.dealer:
                marks.append("dealer")
            if s in obs.finish_order:
                place = obs.finish_order.index(s) + 1
                marks.append(f"out {ordinal(place)}")
            elif s == obs.to_act:
                marks.append("[bold]to act[/]")
            elif s in obs.passed:
                marks.append(PASSED_LABELS[obs.rules.passing])
            row = [str(s), name, str(obs.hand_counts[s]), ", ".join(marks),
                   obs.previous_titles[s] or "-"]
            if scored:
                row.append(str(obs.scores[s]))
            table.add_row(*row)
        c.print()
        c.print(table)
        if obs.phase == "play":
            c.print(self._pile_text(obs))
            c.print(self._gone_line(obs))
        elif obs.phase == "exchange":
            step = obs.pending_exchange
            assert step is not None  # someone's step of the exchange
            giver = self._who(step.giver, obs)
            c.print(f"Exchange now: {giver} {'give' if giver == 'You' else 'gives'} "
                    f"{step.count} card{'s' if step.count > 1 else ''} to "
                    f"{self._who(step.receiver, obs, start=False)}"
                    f"{' (the highest)' if step.forced else ' (any)'}.")
        c.print(f"Your hand ({len(obs.hand)} card{'s' if len(obs.hand) != 1 else ''}):")
        c.print(self._hand_text(obs.hand))

    def _pile_text(self, obs: Observation) -> Text:
        """The whole current pile, oldest play first with who made it, then the play to
        beat: ``Pile, oldest first: Sam 5♦ 5♠, You 8♣ 8♥`` / ``To beat: pair of eights
        (8♣ 8♥) by you; 2 cards a play.`` An empty pile says who leads."""
        if not obs.pile:
            who = self._who(obs.to_act, obs) if obs.to_act is not None else "-"
            t = Text("Pile: empty; you lead." if who == "You" else f"Pile: empty; {who} leads.")
            if obs.reversed:
                t.append(" The rank order is reversed: lower ranks beat.", style="bold")
            return t
        t = Text("Pile, oldest first: ")
        for i, (seat, play) in enumerate(obs.pile):
            if i:
                t.append(", ")
            t.append(self._who(seat, obs) + " ")
            t.append_text(cards_text(play.cards, self.symbols))
        seat, top = obs.pile[-1]
        t.append(f"\nTo beat: {top.describe()} (")
        t.append_text(cards_text(top.cards, self.symbols))
        t.append(f") by {self._who(seat, obs, start=False)}; "
                 f"{top.count} card{'s' if top.count > 1 else ''} a play.")
        if obs.reversed:
            t.append(" The rank order is reversed: lower ranks beat.", style="bold")
        return t

    def _gone_line(self, obs: Observation) -> Text:
        """One line of the cards gone this deal per rank (:func:`cards_gone`):
        ``Gone by rank: 3:2 4:0 … 2:1``, ranks with none dimmed, whole ranks in bold."""
        gone = cards_gone(obs)
        if not any(gone.values()):
            return Text("Gone by rank: nothing yet this deal.")
        t = Text("Gone by rank:")
        for rank, cards in gone.items():
            style = "dim" if not cards else "bold" if len(cards) == 4 else ""
            t.append(" ")
            t.append(f"{rank.symbol}:{len(cards)}", style=style)
        return t

    def _hand_text(self, hand: Sequence[Card]) -> Text:
        """Your hand, low to high, cards of one rank side by side and ranks two spaces
        apart; it wraps at the console width (rich wraps at the spaces), never truncated.
        Suits are symbols where the console can show them (:attr:`symbols`)."""
        out = Text()
        for i, card in enumerate(hand):
            if i:
                out.append("  " if card.rank != hand[i - 1].rank else " ")
            out.append_text(card_text(card, self.symbols))
        return out

    # ----- commands at your turn -------------------------------------------------------

    def _deal_events(self, obs: Observation) -> list[Event]:
        """This deal's events after its deal, as your seat may see them."""
        events = self.match.events
        start = max(i for i, e in enumerate(events) if isinstance(e, Dealt))
        return [visible_to(e, obs.seat) for e in events[start + 1:]]

    def show_history(self, obs: Observation) -> None:
        """``history``: this deal's plays and passes in order, numbered, with who made
        them, the exchange you saw, the piles cleared and who went out."""
        c = self.console
        lines: list[Text] = []
        number = 0
        for event in self._deal_events(obs):
            line = self._event_text(event, obs)
            if line is None:
                continue
            if isinstance(event, (Played, Passed)):
                number += 1
                prefix = f"{number:>4}  "
            else:
                prefix = "      "
            lines.append(Text(prefix).append_text(line))
        if number == 0:
            c.print(f"Nothing has been played yet in deal {obs.deal_number}.")
            for line in lines:  # the exchange, if any
                c.print(line)
            return
        c.print(f"Deal {obs.deal_number} so far, oldest first, {number} "
                f"turn{'s' if number != 1 else ''}:")
        for line in lines:
            c.print(line)

    def show_seen(self, obs: Observation) -> None:
        """``seen``: the cards gone this deal per rank, one rank a line with the cards
        themselves (the pile and the cleared piles only; see :func:`cards_gone`)."""
        gone = cards_gone(obs)
        total = sum(len(cards) for cards in gone.values())
        c = self.console
        c.print(f"Cards gone in deal {obs.deal_number}, {total} of 52 (played face up: the "
                "pile and the cleared piles):")
        grid = Table.grid(padding=(0, 2))
        grid.add_column(justify="right")
        grid.add_column()
        grid.add_column()
        for rank, cards in gone.items():
            n = len(cards)
            count = Text(f"{n} gone" + (", all" if n == 4 else ""),
                         style="dim" if not n else "bold" if n == 4 else "")
            grid.add_row(Text(f"{rank.symbol}:", style="dim" if not n else ""), count,
                         cards_text(cards, self.symbols))
        c.print(grid)

    def show_score(self) -> None:
        """``score``: a row per player with each finished deal's place (and points, with
        scoring) and the total, the title each place gives, and how the match ends. The
        latest deals that fit the console width get a column each; earlier ones are summed
        in one column (points, or deals won without scoring)."""
        c = self.console
        r = self.rules
        scored = r.scoring is not None
        end = r.match_end
        if end == "single-deal":
            how = "One deal; no points."
        elif end == "never":
            how = "Deal after deal, until you stop; the titles are the prize."
        elif end.target is not None:
            how = f"The match ends after the deal in which someone reaches {end.target} points."
        else:
            how = f"The match is {end.deals} deals."
        summaries = self._deal_summaries()
        if not summaries:
            totals = "; everyone has 0 points" if scored else ""
            c.print(f"No deal has finished yet{totals}. {how}")
            return
        # Columns: the names, then each deal ("1st +2", or "1st", and 3 for the rule),
        # then the total; earlier deals share one column when the width runs out.
        names_width = max(len(n) for n in self.names) + 6
        room = c.width - names_width - (8 if scored else 0) - 10
        fit = max(1, room // (9 if scored else 6))
        first = 0 if len(summaries) <= fit else len(summaries) - (fit - 1)
        c.print(f"Score after {len(summaries)} deal{'s' if len(summaries) != 1 else ''}:")
        t = Table(show_edge=False, pad_edge=False)
        t.add_column("Player", no_wrap=True)
        if first:
            t.add_column("D1" if first == 1 else f"D1-{first}", justify="right", no_wrap=True)
        for number, *_ in summaries[first:]:
            t.add_column(f"D{number}", justify="right", no_wrap=True)
        if scored:
            t.add_column("Total", justify="right")
        for p, name in enumerate(self.names):
            row = [name + (" (you)" if p == 0 and name != "You" else "")]
            if first:
                earlier = summaries[:first]
                row.append(str(sum(s[3][p] for s in earlier)) if scored
                           else f"{sum(s[1][p] == 1 for s in earlier)} won")
            for _, places, _, points in summaries[first:]:
                row.append(f"{ordinal(places[p])} +{points[p]}" if scored
                           else ordinal(places[p]))
            if scored:
                row.append(str(self.match.scores[p]))
            t.add_row(*row)
        c.print(t)
        _, places, titles, _ = summaries[-1]
        groups: list[tuple[int, int, str]] = []  # (first place, last place, title), equal
        for place, title in sorted(zip(places, titles)):  # titles together
            if groups and groups[-1][2] == title:
                groups[-1] = (groups[-1][0], place, title)
            else:
                groups.append((place, place, title))
        # A title that is only the place ("3rd" under the rules' place naming) is not repeated.
        named = ", ".join(f"{ordinal(a)}{'' if a == b else f' to {ordinal(b)}'}"
                          f"{'' if title == ordinal(a) else f' {title}'}"
                          for a, b, title in groups)
        each = "place and points" if scored else "place"
        c.print(f"Each deal's {each} per player. Titles by place: {named}. {how}")

    def _deal_summaries(self) -> list[tuple[int, list[int], list[str], tuple[int, ...]]]:
        """Per finished deal: its number, and by match player index the place (1 first),
        the title and the points; from the match's public events (titles as the rules
        named them when the deal ended)."""
        out = []
        seating: tuple[int, ...] = ()
        number = 0
        for event in self.match.events:
            if isinstance(event, Dealt):
                seating, number = event.seating, event.deal_number
            elif isinstance(event, DealEnded):
                n = len(seating)
                places, titles = [0] * n, [""] * n
                for place, seat in enumerate(event.finish_order, 1):
                    places[seating[seat]] = place
                    titles[seating[seat]] = event.titles[seat]
                points = [0] * n
                for seat in range(n):
                    points[seating[seat]] = event.points[seat]
                out.append((number, places, titles, tuple(points)))
        return out

    def _intro(self) -> None:
        r = self.rules
        c = self.console
        opponents = ", ".join(f"{self.names[p]} ({self.levels[p - 1]})"
                              for p in range(1, r.players))
        dot = self._dot
        c.print(f"[bold]President[/] {dot} rules [bold]{r.name}[/] {dot} {r.players} players "
                f"{dot} seed {self.seed}")
        if self.resumed:
            m = self.match
            done = len(m.results)
            scores = ""
            if r.scoring is not None:
                scores = "; scores: " + ", ".join(f"{escape(self.names[p])} {s}"
                                                  for p, s in enumerate(m.scores))
            you = "" if self.names[0] == "You" else f" You are {escape(self.names[0])}."
            c.print(f"Resuming a recorded match: {done} deal{'s' if done != 1 else ''} "
                    f"finished{scores}.{you} The deals still to come are shuffled from seed "
                    f"{self.seed}.")
        c.print(f"You play against {opponents}, clockwise from your left.")
        end = r.match_end
        if end == "single-deal":
            c.print("One deal. Type [bold]help[/] at your turn for how to play.")
        elif end == "never":
            c.print("Deal after deal, until you stop. Type [bold]help[/] at your turn.")
        elif end.target is not None:
            c.print(f"The match ends after the deal in which someone reaches "
                    f"{end.target} points. Type [bold]help[/] at your turn.")
        else:
            c.print(f"The match is {end.deals} deals. Type [bold]help[/] at your turn.")

    # ----- events -------------------------------------------------------------------

    def _show_new_events(self) -> None:
        events = self.match.events
        new = events[self._events_shown:]
        self._events_shown = len(events)
        obs = self.observation()
        for event in new:
            self.announce(visible_to(event, obs.seat), obs)

    def _event_text(self, event: Event, obs: Observation) -> Text | None:
        """The line for an exchange, a play, a pass, a cleared pile or a player going out,
        as your seat sees it (:func:`~president.narration.narrate`); ``None`` for other
        events. Shared by the running story and ``history``."""
        if not isinstance(event, (Exchanged, Played, Passed, PileCleared, WentOut)):
            return None
        return line_text(narrate(event, self.reader(obs), rules=obs.rules))

    def announce(self, event: Event, obs: Observation) -> None:
        """Print one event as your seat sees it (``event`` must already be
        :func:`visible_to` your seat)."""
        c = self.console
        if isinstance(event, Dealt):
            line = narrate(event, self.reader(obs), leader=obs.leader, rules=self.rules)
            c.rule(line.title or "")
            if self.rules.seating == "by-finish" and event.deal_number > 1:
                self._announce_reseating(event, obs)
            c.print(line_text(line))
            if obs.phase == "exchange":
                plan = exchange_plan(self.match.exchange_steps, self.reader(obs),
                                     obs.rules.give_back)
                if plan is not None:
                    c.print(line_text(plan))
        elif isinstance(event, DealEnded):
            self._show_deal_end(event, obs)
        elif isinstance(event, MatchEnded):
            self._show_match_end(event, obs)
        else:
            text = self._event_text(event, obs)
            if text is not None:
                c.print(text)

    def _announce_reseating(self, event: Dealt, obs: Observation) -> None:
        """Under ``by-finish`` seating (RULES.md ``seating``): the new seats, clockwise,
        in the last deal's finishing order, with the titles; and your move, if any."""
        before = self.match.results[event.deal_number - 2].seating  # the deal before
        seats = ", ".join(
            f"{s} {self._who(s, obs)}" + (f" ({obs.previous_titles[s]})"
                                           if obs.previous_titles[s] else "")
            for s in range(len(event.seating)))
        c = self.console
        if tuple(event.seating) == tuple(before):
            c.print(f"Seats stay as they were (the last deal finished in seat order): {seats}.")
            return
        c.print(f"Reseated in the last deal's finishing order, clockwise: {seats}.")
        old, new = before.index(0), event.seating.index(0)
        if old != new:
            c.print(f"You move from seat {old} to seat {new}.")
        else:
            c.print(f"You stay in seat {new}.")

    def _show_deal_end(self, event: DealEnded, obs: Observation) -> None:
        c = self.console
        n = obs.players
        last = event.finish_order[-1]
        c.print(line_text(left_holding(last, obs.hand_counts[last], n, event.titles[last],
                                       self.reader(obs))))
        scored = self.rules.scoring is not None
        t = Table(title=f"Deal {obs.deal_number} result", title_justify="left",
                  show_edge=False, pad_edge=False)
        t.add_column("Place", justify="right")
        t.add_column("Player")
        t.add_column("Title")
        if scored:
            t.add_column("Points", justify="right")
            t.add_column("Total", justify="right")
        for place, s in enumerate(event.finish_order, 1):
            row = [ordinal(place), self._name(s, obs),
                   event.titles[s]]
            if scored:
                row += [str(event.points[s]), str(event.totals[s])]
            t.add_row(*row)
        c.print()
        c.print(t)
        if scored and len(self.deal_points) > 1:
            c.print(self._score_table())

    def _score_table(self) -> Table:
        t = Table(title="Scores across the match", title_justify="left",
                  show_edge=False, pad_edge=False)
        t.add_column("Player")
        first = max(0, len(self.deal_points) - SCORE_COLUMNS)  # the latest deals only
        if first:
            t.add_column("D1" if first == 1 else f"D1-{first}", justify="right")
        for i in range(first, len(self.deal_points)):
            t.add_column(f"D{i + 1}", justify="right")
        t.add_column("Total", justify="right")
        for p, name in enumerate(self.names):
            pts = [row[p] for row in self.deal_points]
            label = name + (" (you)" if p == 0 and name != "You" else "")
            earlier = [str(sum(pts[:first]))] if first else []
            t.add_row(label, *earlier, *map(str, pts[first:]), str(sum(pts)))
        return t

    def _show_match_end(self, event: MatchEnded, obs: Observation) -> None:
        c = self.console
        line = narrate(event, self.reader(obs), rules=self.rules, player_names=self.names)
        c.print()
        if line.title is not None:  # a match of more than one deal
            c.rule(line.title)
        c.print(line_text(line))
        if 0 in event.winners:
            c.print("Well played!")
