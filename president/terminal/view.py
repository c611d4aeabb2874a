"""The terminal game's view: the table, your hand, the pile and the story, drawn with ``rich``.

Everything here is drawn from your own :class:`~president.observation.Observation` and the
events as :func:`~president.events.visible_to` gives them to your seat; the sentences come
from :mod:`president.narration` (this module only colours them: cards by suit, a cleared
pile dim, a player going out in bold, headings as rules).

At each of your turns the table shows every play on the current pile (oldest first), the
play to beat, and a line of the cards gone so far this deal, per rank (the cards played
face up: the pile and the cleared piles; never a hand, never an exchanged card).
:class:`TableView` holds the drawing; :class:`~president.terminal.loop.TerminalGame` is one.
"""

from __future__ import annotations

from typing import Sequence

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from ..cards import Card, Rank, Suit
from ..events import (DealEnded, Dealt, Event, Exchanged, MatchEnded, Passed, PileCleared,
                      Played, WentOut, visible_to)
from ..match import Match
from ..narration import (SUIT_SYMBOLS, Line, Reader, card_label, exchange_duty, exchange_plan, left_holding,
                         narrate, ordinal)
from ..observation import Observation
from ..rules import Rules

__all__ = ["TableView", "PASSED_LABELS", "SCORE_COLUMNS", "can_write", "can_show_suit_symbols",
           "card_text", "cards_text", "line_text", "cards_gone", "card_label", "SUIT_SYMBOLS"]

#: What "passed" means in the table's "Now" column under each ``passing`` option
#: (docs/rules.md ``passing``): under ``re-enter`` a pass only declines one turn.
PASSED_LABELS = {
    "re-enter": "passed since the last play",
    "sit-out": "passed: out of this pile",
    "once-around": "passed: has had their turn",
}

#: Deals shown one by one in the score table; earlier deals are summed in one column.
SCORE_COLUMNS = 8


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
    current pile and those cleared from earlier piles (docs/rules.md "Information"). Public
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


class TableView:
    """The drawing half of the terminal game: what the screen shows, from your seat.

    A base of :class:`~president.terminal.loop.TerminalGame`, which sets the attributes
    below.
    """

    console: Console
    symbols: bool
    rules: Rules
    match: Match
    names: list[str]
    levels: list[str]
    seed: int
    resumed: bool
    _dot: str
    _events_shown: int

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

    def _labels(self, cards: Sequence[Card]) -> str:
        """Cards as plain text, with suit symbols where the console shows them."""
        return " ".join(card_label(c, self.symbols) for c in cards)

    # ----- drawing ------------------------------------------------------------------

    def show_table(self, obs: Observation) -> None:
        """Draw the table as your seat sees it: seats (numbered from 1 on screen, as in
        ``learn``, ``keep-score`` and the browser), card counts, passes, finishing places,
        titles and scores, the pile and your hand (wrapped to the console width)."""
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
            name = escape(self._name(s, obs))    # a table cell is rich markup
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
            row = [str(s + 1), name, str(obs.hand_counts[s]), ", ".join(marks),
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
            duty = exchange_duty(step, self.reader(obs), obs.rules.give_back)
            c.print(f"Exchange now: {escape(duty)}.")
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
            row = [escape(name) + (" (you)" if p == 0 and name != "You" else "")]
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

    def show_standings(self) -> None:
        """When you leave before the match is over: the score so far (:meth:`show_score`:
        each finished deal's places, and the points) and, in a deal not finished, who has
        gone out so far."""
        c = self.console
        c.print("[bold]Standings when you left[/]")
        self.show_score()
        if self.match.phase not in ("exchange", "play"):
            return
        obs = self.observation()
        if not obs.finish_order:
            c.print(f"Deal {obs.deal_number} is not finished: nobody has gone out yet.")
            return
        out = ", ".join(f"{ordinal(place)} {escape(self._who(s, obs, start=False))}"
                        for place, s in enumerate(obs.finish_order, 1))
        holding = ", ".join(escape(self._who(s, obs, start=False)) for s in range(obs.players)
                            if s not in obs.finish_order)
        c.print(f"Deal {obs.deal_number} is not finished: out so far {out}; still holding "
                f"cards: {holding}.")

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
        opponents = ", ".join(f"{escape(self.names[p])} ({escape(self.levels[p - 1])})"
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
        """Under ``by-finish`` seating (docs/rules.md ``seating``): the new seats, clockwise,
        in the last deal's finishing order, with the titles; and your move, if any (seats
        numbered from 1, as on every screen)."""
        before = self.match.results[event.deal_number - 2].seating  # the deal before
        seats = ", ".join(
            f"{s + 1} {escape(self._who(s, obs))}" + (f" ({obs.previous_titles[s]})"
                                           if obs.previous_titles[s] else "")
            for s in range(len(event.seating)))
        c = self.console
        if tuple(event.seating) == tuple(before):
            c.print(f"Seats stay as they were (the last deal finished in seat order): {seats}.")
            return
        c.print(f"Reseated in the last deal's finishing order, clockwise: {seats}.")
        old, new = before.index(0), event.seating.index(0)
        if old != new:
            c.print(f"You move from seat {old + 1} to seat {new + 1}.")
        else:
            c.print(f"You stay in seat {new + 1}.")

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
            row = [ordinal(place), escape(self._name(s, obs)),
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
            label = escape(name) + (" (you)" if p == 0 and name != "You" else "")
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
