"""The terminal game: you at seat 0 of a match against computer players, drawn with ``rich``.

:class:`TerminalGame` runs a whole match of any preset (RULES.md "Presets"; for
``practice``, seed ``003_e6cd2942d7a2654f.txt``, one deal against Robin, Alex and Sam) and
is the engine behind ``president play``. It holds the :class:`~president.match.Match` like a
table holds the cards, but shows you only what your seat may know: your own
:class:`~president.observation.Observation` and each event passed through
:func:`~president.events.visible_to` for your seat. Each computer player is handed only
its own seat's observation.

What you can type at your turn:

- cards, by their text (``9s 9d``, ``10H``, ``th``, ``9♠``) or by their number in your hand
  as shown (``3 4``), or a mix of both;
- ``pass`` (or ``p``);
- ``hint``: asks a computer player of the hint level to choose for you, from your own
  observation only, and shows its choice (nothing is played);
- ``help`` (or ``?``) and ``quit`` (or ``q``).

A refused entry shows the engine's reason (:attr:`IllegalAction.message`) and asks again;
the match does not change. End of input (Ctrl-D) and Ctrl-C end the game cleanly.

The input function and the :class:`rich.console.Console` are injectable, so a test can
drive a whole match with scripted answers and read what was printed.
"""

from __future__ import annotations

import re
from typing import Callable, Sequence

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from ..actions import PASS, Give, Pass, Play
from ..cards import Card, Suit
from ..errors import IllegalAction, PresidentError
from ..events import (DealEnded, Dealt, Event, Exchanged, MatchEnded, Passed, PileCleared,
                     Played, WentOut, title_for_place, visible_to)
from ..match import Match
from ..observation import Observation
from ..players import make_player
from ..rules import Rules

__all__ = ["TerminalGame", "COMPUTER_NAMES", "Quit", "HELP_TEXT"]

#: Names of the computer players, clockwise from your left. The first three are the
#: opponents of seed 003's practice round (Robin, Alex and Sam, in that clockwise order).
COMPUTER_NAMES = ("Robin", "Alex", "Sam", "Casey", "Drew", "Blair")

HELP_TEXT = """\
At your turn, type one of:
  cards   by text: [bold]9s 9d[/], [bold]10H[/], [bold]th[/], [bold]9♠[/] (rank, then suit C D H S),
          or by their numbers in your hand as shown: [bold]3 4[/]
  pass    decline this turn (not when you lead an empty pile); also [bold]p[/]
  hint    ask a computer player for a suggestion (nothing is played)
  help    show this text; also [bold]?[/]
  quit    leave the match; also [bold]q[/] (Ctrl-D and Ctrl-C also leave)
A play is 1 to 4 cards of one rank. To beat the pile, play as many
cards as the lead, of a higher rank (or an equal one where the rules
allow it). 3 is the lowest rank, 2 the highest."""

_CLEAR_REASONS = {
    "all-passed": "everyone else passed",
    "last-of-rank": "all four cards of the rank are on the pile",
    "once-around": "everyone had their one turn on it",
}

_ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}

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
            for a fresh game each time.
        name: your name in the table (default ``"You"``).
        hint_level: the computer level asked by ``hint`` (default ``"simple"``).
        input_fn: reads one line of your input, ``() -> str``; raises :class:`EOFError` at
            the end of input (default: :func:`input`).
        console: where to draw (default: a new :class:`rich.console.Console`).
        echo: print each line you typed after its prompt (default: when the input is not
            a terminal, e.g. piped or scripted, so the transcript reads like a session).

    Raises:
        ValueError: an unknown computer level (message lists the levels).
    """

    def __init__(self, rules: Rules, *, levels: Sequence[str] = ("simple",),
                 seed: int | None = None, name: str = "You", hint_level: str = "simple",
                 input_fn: Callable[[], str] | None = None,
                 console: Console | None = None, echo: bool | None = None) -> None:
        n = rules.players
        levels = list(levels) or ["simple"]
        self.rules = rules
        self.levels = [levels[i % len(levels)] for i in range(n - 1)]
        self.names = [name] + list(COMPUTER_NAMES[: n - 1])
        self.seed = seed
        # One computer player per match player 1..n-1 (they keep their player through
        # reseating under ``by-finish``); each is seeded from the game seed.
        self.bots = {p: make_player(self.levels[p - 1],
                                    seed=None if seed is None else seed * 31 + p)
                     for p in range(1, n)}
        self.hint_player = make_player(hint_level, seed=None if seed is None else seed * 31)
        self.hint_level = hint_level
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
        quit, 130 on Ctrl-C."""
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
                prompt = (f"Give your highest {what} to {to}; choose which "
                          f"(e.g. {legal[0]}): ")
            else:
                prompt = f"Choose {what} to give back to {to}: "
        elif obs.pile:
            prompt = f"Beat {obs.to_beat} or pass: "
        else:
            prompt = "You lead; play a single, pair, triple or quad: "
        while True:
            line = self._read(prompt)
            word = line.lower()
            if not word:
                continue
            if word in ("quit", "q", "exit"):
                raise Quit
            if word in ("help", "?", "h"):
                self.console.print(HELP_TEXT)
                continue
            if word == "hint":
                choice = self.hint_player.act(obs)
                self.console.print(f"Hint ({self.hint_level}): {describe_action(choice)}")
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

    def _parse(self, line: str, obs: Observation) -> Play | Pass | Give:
        """Your entry as an action; numbers stand for the cards of your hand as shown.

        Raises:
            IllegalAction: ``bad-notation`` for a number outside your hand or unreadable
                cards, ``mixed-ranks`` for cards of different ranks.
        """
        words = re.split(r"[\s,]+", line.strip())
        hand = obs.hand
        out = []
        for w in words:
            if w.isdigit():
                i = int(w)
                if not 1 <= i <= len(hand):
                    raise IllegalAction("bad-notation", f"there is no card number {i}; your "
                                        f"cards are numbered 1 to {len(hand)}")
                out.append(str(hand[i - 1]))
            else:
                out.append(w)
        return self.match.parse_action(" ".join(out))

    # ----- drawing ------------------------------------------------------------------

    def show_table(self, obs: Observation) -> None:
        """Draw the table as your seat sees it: seats, card counts, passes, finishing
        places, titles and scores, the pile and your hand with numbers to type."""
        c = self.console
        n = obs.players
        scored = obs.rules.scoring is not None
        table = Table(title=f"Deal {obs.deal_number} · {obs.rules.name}", title_justify="left",
                      show_edge=False, pad_edge=False)
        table.add_column("Seat", justify="right")
        table.add_column("Player")
        table.add_column("Cards", justify="right")
        table.add_column("Now")
        table.add_column("Title")
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
                marks.append("passed")
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
        c.print(self._hand_table(obs.hand))

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

    def _hand_table(self, hand: Sequence[Card]) -> Table:
        t = Table(show_header=False, box=None, pad_edge=False, padding=(0, 1))
        for _ in hand:
            t.add_column(justify="center")
        if hand:
            t.add_row(*[Text(str(i + 1), style="dim") for i in range(len(hand))])
            t.add_row(*[card_text(card) for card in hand])
        return t

    def _intro(self) -> None:
        r = self.rules
        c = self.console
        opponents = ", ".join(f"{self.names[p]} ({self.levels[p - 1]})"
                              for p in range(1, r.players))
        c.print(f"[bold]President[/] · rules [bold]{r.name}[/] · {r.players} players · "
                f"seed {self.seed if self.seed is not None else 'random'}")
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
        winners = ["you" if p == 0 and self.names[0] == "You" else self.names[p]
                   for p in event.winners]
        c.print()
        if self.rules.match_end == "single-deal":
            c.print(f"[bold]The deal is over.[/] {winners[0]} finished first.")
        else:
            c.rule("Match over")
            verb = "wins" if len(winners) == 1 else "share the win"
            if self.rules.scoring is not None:
                scores = ", ".join(f"{self.names[p]} {s}" for p, s in enumerate(event.scores))
                c.print(f"[bold]{' and '.join(winners)} {verb}[/] (scores: {scores}).")
            else:
                c.print(f"[bold]{' and '.join(winners)} {verb}.[/]")
        if 0 in event.winners:
            c.print("Well played!")
