"""The terminal game: you at seat 0 of a match against computer players, drawn with ``rich``.

:class:`TerminalGame` runs a whole match of any preset (RULES.md "Presets"; for
``practice``, seed ``003_e6cd2942d7a2654f.txt``, one deal against Robin, Alex and Sam) and
is the engine behind ``president play``. It holds the :class:`~president.match.Match` like a
table holds the cards, but shows you only what your seat may know: your own
:class:`~president.observation.Observation` and each event passed through
:func:`~president.events.visible_to` for your seat. Each computer player is handed only
its own seat's observation.

What you can type at your turn:

- a rank alone (``9``, ``10`` or ``T``, ``k``, ``2``): the cards of that rank from your
  hand. On a lead that is all of them (your whole set); when following, as many as the pile
  needs, the lowest suits first (suits never matter in play). Repeat it to choose how many
  (``9 9`` is a pair of nines). If you hold none of that rank, or too few, you are told so;
- cards, by their text (``9s 9d``, ``10H``, ``th``, ``9♠``), to choose the exact cards;
- ``pass`` (or ``p``);
- ``hint``: asks a computer player of the hint level to choose for you, from your own
  observation only, and shows its choice (nothing is played); ``hint LEVEL`` (e.g.
  ``hint expert``) asks that level instead;
- ``help`` (or ``?``) and ``quit``.

Cards are never typed by their place in your hand: ranks are numbers too, so a number
always means a rank. ``q`` is the queen rank, not quit. During an exchange each rank typed
gives one card of that rank (``K A`` gives a king and an ace).

A refused entry shows the engine's reason (:attr:`IllegalAction.message`) and asks again;
the match does not change. End of input (Ctrl-D) and Ctrl-C end the game cleanly.

The input function and the :class:`rich.console.Console` are injectable, so a test can
drive a whole match with scripted answers and read what was printed.
"""

from __future__ import annotations

import os
import re
import secrets
from typing import Callable, Sequence

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from ..actions import KIND_NAMES, PASS, Give, Pass, Play
from ..cards import Card, Rank, Suit
from ..errors import IllegalAction, NotationError, PresidentError
from ..events import (DealEnded, Dealt, Event, Exchanged, MatchEnded, Passed, PileCleared,
                     Played, WentOut, title_for_place, visible_to)
from ..match import Match
from ..observation import Observation
from ..players import available_levels, make_player
from ..rules import Rules

__all__ = ["TerminalGame", "COMPUTER_NAMES", "Quit", "HELP_TEXT"]

#: Names of the computer players, clockwise from your left. The first three are the
#: opponents of seed 003's practice round (Robin, Alex and Sam, in that clockwise order).
COMPUTER_NAMES = ("Robin", "Alex", "Sam", "Casey", "Drew", "Blair")

HELP_TEXT = """\
At your turn, type one of:
  a rank  [bold]9[/], [bold]10[/] (or [bold]T[/]), [bold]k[/], [bold]2[/]: your cards of that rank. On a
          lead, all of them; when following, as many as the pile
          needs (lowest suits first). [bold]9 9[/] is two nines.
  cards   [bold]9s 9d[/], [bold]10H[/], [bold]th[/], [bold]9♠[/] (rank, then suit C D H S)
  pass    decline this turn (not on a lead); also [bold]p[/]
  hint    ask a computer player for a suggestion; [bold]hint expert[/] asks
          that level (random, beginner, simple, intermediate, expert)
  help    show this text; also [bold]?[/]
  quit    leave the match; also Ctrl-D ([bold]q[/] means queens)
A play is 1 to 4 cards of one rank. To beat the pile, play as
many cards as the lead, of a higher rank (or an equal one where
the rules allow it). 3 is the lowest rank, 2 the highest."""

_CLEAR_REASONS = {
    "all-passed": "everyone else passed",
    "last-of-rank": "all four cards of the rank are on the pile",
    "once-around": "everyone had their one turn on it",
}

#: What "passed" means in the table's "Now" column under each ``passing`` option
#: (RULES.md ``passing``): under ``re-enter`` a pass only declines one turn.
PASSED_LABELS = {
    "re-enter": "passed since the last play",
    "sit-out": "passed: out of this pile",
    "once-around": "passed: has had their turn",
}

_ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}

#: A seed drawn when none is given is below this (six digits at most: easy to type back).
SEED_LIMIT = 1_000_000

#: Deals shown one by one in the score table; earlier deals are summed in one column.
SCORE_COLUMNS = 8


class Quit(Exception):
    """Raised inside the game loop when you ask to leave (``quit``, end of input)."""


def _ordinal(n: int) -> str:
    return _ORDINALS.get(n, f"{n}th")


def card_text(card: Card) -> Text:
    """A card as typable text (``"10H"``), red for hearts and diamonds."""
    red = card.suit in (Suit.HEARTS, Suit.DIAMONDS)
    return Text(str(card), style="bold red" if red else "bold")


def cards_text(cards: Sequence[Card]) -> Text:
    """Cards separated by spaces, coloured by suit."""
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append(" ")
        out.append_text(card_text(c))
    return out


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
    if action is PASS:
        return "pass"
    if isinstance(action, Give):
        return f"give {action}"
    return f"{action.describe()} ({action})"


class TerminalGame:
    """A match of President in the terminal: you (match player 0) against computer players.

    Args:
        rules: the table's :class:`Rules` (any preset, 3–7 players).
        levels: computer level per opponent, clockwise from your left; a shorter list is
            repeated to fill the table (default ``("simple",)``). Names come from
            :data:`president.players.LEVELS`.
        seed: seeds the shuffles (the match generator) and the computer players; ``None``
            draws a fresh seed (from :func:`secrets.randbelow`, below :data:`SEED_LIMIT`),
            which is shown at the start so the same game can be played again.
        name: your name in the table (default ``"You"``).
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

    Raises:
        ValueError: an unknown computer level (message lists the levels).
    """

    def __init__(self, rules: Rules, *, levels: Sequence[str] = ("simple",),
                 seed: int | None = None, name: str = "You", hint_level: str = "simple",
                 input_fn: Callable[[], str] | None = None,
                 console: Console | None = None, echo: bool | None = None,
                 record: str | os.PathLike[str] | None = None) -> None:
        n = rules.players
        if seed is None:
            seed = secrets.randbelow(SEED_LIMIT)
        self.record_path = record
        levels = list(levels) or ["simple"]
        self.rules = rules
        self.levels = [levels[i % len(levels)] for i in range(n - 1)]
        self.names = [name] + list(COMPUTER_NAMES[: n - 1])
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
        self.match = Match(rules, self.names, seed=seed)
        # Points by match player index, one row per finished deal (for the score table).
        self.deal_points: list[tuple[int, ...]] = []
        self._events_shown = 0

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

    def _who(self, seat: int, obs: Observation, start: bool = True) -> str:
        """``"You"`` (``"you"`` when not at the start of a sentence) or the seat's name."""
        if seat == obs.seat:
            return "You" if start else "you"
        return obs.names[seat]

    def _verb(self, seat: int, obs: Observation, verb: str) -> str:
        """``"You play"`` / ``"Robin plays"``."""
        if seat == obs.seat:
            return f"You {verb}"
        ending = "es" if verb.endswith(("s", "sh", "ch")) else "s"
        return f"{obs.names[seat]} {verb}{ending}"

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
        """Write the match so far to ``record`` with :func:`president.records.dump` and say
        where. A file that cannot be written is reported, not raised (the game is over)."""
        from .. import records

        path = os.fspath(self.record_path)
        try:
            with open(path, "w", encoding="utf-8") as fp:
                records.dump(self.match, fp)
        except (OSError, PresidentError) as e:
            why = e.message if isinstance(e, PresidentError) else (e.strerror or str(e))
            self.console.print(f"[red]Could not write the match record to {escape(path)}:[/] "
                               f"{escape(why)}", soft_wrap=True)
            return
        # soft_wrap: a long path is never broken by an inserted newline (copy and paste).
        self.console.print(f"Match record written to {escape(path)} (seed {self.seed}); "
                           f"check it with: president replay {escape(path)}", soft_wrap=True)

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
                    m.start_next_deal()
                    self._show_new_events()
                    continue
                seat = m.to_act
                if seat == self.seat:
                    action = self._your_action()
                else:
                    action = self._computer_action(seat)
                m.act(seat, action)
                self._show_new_events()
        except Quit:
            c.print("\nYou leave the match. Thanks for playing.")
            return 0
        except KeyboardInterrupt:
            c.print("\nInterrupted: the match is abandoned.")
            return 130

    def _computer_action(self, seat: int) -> Play | Pass | Give:
        """Ask the computer player at ``seat``, handing it only its own observation. On a
        real terminal a status line shows who is thinking (strong levels take a moment)."""
        m = self.match
        bot = self.bots[m.seating[seat]]
        obs = m.observation(seat)
        if not self.console.is_terminal:
            return bot.act(obs)
        with self.console.status(f"{obs.names[seat]} is thinking...", spinner="dots"):
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
        self.show_table(obs)
        exchange = obs.phase == "exchange"
        if exchange:
            step = obs.pending_exchange
            legal = obs.legal_actions
            to = obs.names[step.receiver]
            what = f"{step.count} card{'s' if step.count > 1 else ''}"
            if step.forced and len(legal) == 1:
                give = legal[0]
                self.console.print(f"You must give your highest {what} to {to}: "
                                   f"[bold]{give}[/] goes.")
                return give
            if step.forced:
                prompt = (f"Give your highest {what} to {to}; type which "
                          f"(e.g. {legal[0]}): ")
            else:
                example = " ".join(str(c) for c in obs.hand[:step.count])
                prompt = (f"Choose {what} to give back to {to}; type the "
                          f"card{'s' if step.count > 1 else ''} (e.g. {example}): ")
        elif obs.pile:
            kind = KIND_NAMES[obs.to_beat.count]
            prompt = f"Beat {obs.to_beat}: a rank (a {kind} of it) or cards, or pass: "
        else:
            prompt = "You lead: a rank (all your cards of it) or cards: "
        while True:
            line = self._read(prompt)
            word = line.lower()
            if not word:
                continue
            if word in ("quit", "exit"):
                raise Quit
            if word in ("help", "?", "h"):
                self.console.print(self.exchange_help(obs) if exchange else HELP_TEXT)
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

    def exchange_help(self, obs: Observation) -> str:
        """The help shown for ``help`` during an exchange: what you give, to whom, and how
        to type it (RULES.md ``exchange``: ``one-card`` and ``two-and-one``).

        Args:
            obs: your observation; its ``pending_exchange`` is your step.
        """
        step = obs.pending_exchange
        to = obs.names[step.receiver]
        n = step.count
        what = f"{n} card{'s' if n > 1 else ''}"
        if step.forced:
            rule = (f"The rules make you give your highest {what}; when several of your "
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
        """Your entry as an action. A rank alone stands for your cards of that rank.

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
        if any(r is None for r in ranks):
            raise IllegalAction("bad-notation", "type ranks alone (9, or 9 9 for two) or the "
                                "cards themselves (9S 9D), not both in one entry")
        hand = obs.hand
        if obs.phase == "exchange":
            chosen: list[Card] = []
            for r in ranks:
                free = [c for c in hand if c.rank == r and c not in chosen]
                if not free:
                    held = sum(c.rank == r for c in hand)
                    raise IllegalAction("not-in-hand", _short_of(
                        r, held, ranks.count(r), f"you typed it {ranks.count(r)} times"))
                chosen.append(free[0])
            return Give(chosen)
        rank = ranks[0]
        if any(r != rank for r in ranks):
            raise IllegalAction("mixed-ranks", f"{' '.join(words)} mixes ranks; a play is "
                                "cards of one rank")
        held = [c for c in hand if c.rank == rank]
        if len(words) > 1:
            count, why = len(words), f"you typed it {len(words)} times"
        elif obs.pile:
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
        table = Table(title=f"Deal {obs.deal_number} · {obs.rules.name}", title_justify="left",
                      show_edge=False, pad_edge=False)
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
                marks.append(f"out {_ordinal(place)}")
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
        elif obs.phase == "exchange":
            step = obs.pending_exchange
            giver = self._who(step.giver, obs)
            c.print(f"Exchange now: {giver} {'give' if giver == 'You' else 'gives'} "
                    f"{step.count} card{'s' if step.count > 1 else ''} to "
                    f"{self._who(step.receiver, obs, start=False)}"
                    f"{' (the highest)' if step.forced else ' (any)'}.")
        c.print(f"Your hand ({len(obs.hand)} card{'s' if len(obs.hand) != 1 else ''}):")
        c.print(self._hand_text(obs.hand))

    def _pile_text(self, obs: Observation) -> Text:
        if not obs.pile:
            who = self._who(obs.to_act, obs) if obs.to_act is not None else "-"
            if who == "You":
                return Text("Pile: empty; you lead.")
            return Text(f"Pile: empty; {who} leads.")
        seat, top = obs.pile[-1]
        t = Text("Pile: ")
        t.append_text(cards_text(top.cards))
        t.append(f"  {top.describe()} by {self._who(seat, obs)}; "
                 f"{top.count} card{'s' if top.count > 1 else ''} a play; "
                 f"{len(obs.pile)} play{'s' if len(obs.pile) > 1 else ''} on the pile.")
        return t

    def _hand_text(self, hand: Sequence[Card]) -> Text:
        """Your hand, low to high, cards of one rank side by side and ranks two spaces
        apart; it wraps at the console width (rich wraps at the spaces), never truncated."""
        out = Text()
        for i, card in enumerate(hand):
            if i:
                out.append("  " if card.rank != hand[i - 1].rank else " ")
            out.append_text(card_text(card))
        return out

    def _intro(self) -> None:
        r = self.rules
        c = self.console
        opponents = ", ".join(f"{self.names[p]} ({self.levels[p - 1]})"
                              for p in range(1, r.players))
        c.print(f"[bold]President[/] · rules [bold]{r.name}[/] · {r.players} players · "
                f"seed {self.seed}")
        c.print(f"You play against {opponents}, clockwise from your left.")
        end = r.match_end
        if end == "single-deal":
            c.print("One deal. Type [bold]help[/] at your turn for how to play.")
        elif end == "never":
            c.print("Deal after deal, until you stop. Type [bold]help[/] at your turn.")
        elif end.startswith("points:"):
            c.print(f"The match ends after the deal in which someone reaches "
                    f"{end[7:]} points. Type [bold]help[/] at your turn.")
        else:
            c.print(f"The match is {end[6:]} deals. Type [bold]help[/] at your turn.")

    # ----- events -------------------------------------------------------------------

    def _show_new_events(self) -> None:
        events = self.match.events
        new = events[self._events_shown:]
        self._events_shown = len(events)
        obs = self.observation()
        for event in new:
            self.announce(visible_to(event, obs.seat), obs)

    def announce(self, event: Event, obs: Observation) -> None:
        """Print one event as your seat sees it (``event`` must already be
        :func:`visible_to` your seat)."""
        c = self.console
        if isinstance(event, Dealt):
            dealer = self._who(event.dealer, obs)
            c.rule(f"Deal {event.deal_number}")
            deals = "deal" if dealer == "You" else "deals"
            leader = self._who(obs.leader, obs)
            leads = "lead" if leader == "You" else "leads"
            why = self._lead_reason(event.deal_number)
            c.print(f"{dealer} {deals}. {leader} {leads} the first pile{why}.")
            if obs.phase == "exchange":
                self._announce_exchange_plan(obs)
        elif isinstance(event, Exchanged):
            giver, receiver = self._who(event.giver, obs), self._who(event.receiver, obs)
            n = event.count
            what = f"{n} card{'s' if n > 1 else ''}"
            if event.cards is None:
                c.print(f"{giver} gives {receiver} {what}.")  # neither is you
            elif event.receiver == obs.seat:
                t = Text(f"{giver} gives you ")
                t.append_text(cards_text(event.cards))
                t.append(" (their highest)." if event.forced else ".")
                c.print(t)
            else:
                t = Text(f"You give {receiver} ")
                t.append_text(cards_text(event.cards))
                t.append(".")
                c.print(t)
        elif isinstance(event, Played):
            t = Text(self._verb(event.seat, obs, "lead" if event.lead else "play") + " ")
            t.append(event.play.describe() + " ")
            t.append_text(cards_text(event.play.cards))
            t.append(".")
            c.print(t)
        elif isinstance(event, Passed):
            c.print(self._verb(event.seat, obs, "pass") + ".")
        elif isinstance(event, PileCleared):
            why = _CLEAR_REASONS.get(event.reason, event.reason)
            if event.leader is None:
                c.print(f"[dim]The pile is cleared ({why}).[/]")
            else:
                leader = self._who(event.leader, obs, start=False)
                c.print(f"[dim]The pile is cleared ({why}); {leader} "
                        f"lead{'' if leader == 'you' else 's'} next.[/]")
        elif isinstance(event, WentOut):
            title = title_for_place(event.place, obs.players)
            who = self._who(event.seat, obs)
            c.print(f"[bold]{who} {'go' if who == 'You' else 'goes'} out in "
                    f"{_ordinal(event.place)} place[/] ({title}).")
        elif isinstance(event, DealEnded):
            self._show_deal_end(event, obs)
        elif isinstance(event, MatchEnded):
            self._show_match_end(event)

    def _lead_reason(self, deal_number: int) -> str:
        r = self.rules
        if deal_number == 1:
            fl = r.first_lead
            if fl == "left-of-dealer":
                return " (left of the dealer)"
            if fl.startswith("holder-of:"):
                return f" (holds {fl[10:]})"
            return ""
        return " (the President leads)" if r.later_lead == "president" else " (left of the dealer)"

    def _announce_exchange_plan(self, obs: Observation) -> None:
        m = self.match
        parts = []
        for step in m.exchange_steps:  # public: who gives how many to whom
            what = f"{step.count} card{'s' if step.count > 1 else ''}"
            giver = self._who(step.giver, obs, start=not parts)
            receiver = self._who(step.receiver, obs, start=False)
            gives = "give" if giver.lower() == "you" else "gives"
            if step.forced:
                their = "your" if gives == "give" else "their"
                parts.append(f"{giver} {gives} {their} highest {what} to {receiver}")
            else:
                parts.append(f"{giver} {gives} back any {what}")
        if parts:
            self.console.print("Exchange: " + "; ".join(parts) + ".")

    def _show_deal_end(self, event: DealEnded, obs: Observation) -> None:
        c = self.console
        n = obs.players
        points_by_player = [0] * n
        for s in range(n):
            points_by_player[obs.seating[s]] = event.points[s]
        self.deal_points.append(tuple(points_by_player))
        last = event.finish_order[-1]
        who = self._who(last, obs)
        held = obs.hand_counts[last]
        c.print(f"[bold]{who} {'are' if who == 'You' else 'is'} left holding {held} "
                f"card{'s' if held != 1 else ''}: {_ordinal(n)} place[/] ({event.titles[last]}).")
        scored = self.rules.scoring is not None
        t = Table(title=f"Deal {len(self.deal_points)} result", title_justify="left",
                  show_edge=False, pad_edge=False)
        t.add_column("Place", justify="right")
        t.add_column("Player")
        t.add_column("Title")
        if scored:
            t.add_column("Points", justify="right")
            t.add_column("Total", justify="right")
        for place, s in enumerate(event.finish_order, 1):
            row = [_ordinal(place), self._name(s, obs),
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

    def _show_match_end(self, event: MatchEnded) -> None:
        c = self.console
        winners = [self.names[p] for p in event.winners]  # "You" for you by default
        together = " and ".join(winners) if len(winners) < 3 else \
            ", ".join(winners[:-1]) + " and " + winners[-1]
        c.print()
        if self.rules.match_end == "single-deal":
            c.print(f"[bold]The deal is over.[/] {escape(winners[0])} finished first.")
        else:
            c.rule("Match over")
            if len(winners) > 1:
                verb = "share the win"
            elif winners[0] == "You":
                verb = "win"
            else:
                verb = "wins"
            if self.rules.scoring is not None:
                scores = ", ".join(f"{self.names[p]} {s}" for p, s in enumerate(event.scores))
                c.print(f"[bold]{escape(together)} {verb}[/] (scores: {escape(scores)}).")
            else:
                c.print(f"[bold]{escape(together)} {verb}.[/]")
        if 0 in event.winners:
            c.print("Well played!")
