"""Every event in plain words, as one seat may read it: the one place the sentences live.

The terminal game (:mod:`president.terminal`) and the browser game
(:func:`president.web.protocol.event_message`) both tell a match as it happens: "Robin
deals. You lead the first pile.", "Alex plays a pair of nines (9♦ 9♠).", "The pile is
cleared (everyone else passed); you lead next.". This module states each of those sentences
once. A front end only dresses them: the terminal colours the cards and draws headings as
rules; the browser joins a heading to its sentence ("Deal 2: Robin deals. ...").

A sentence is a :class:`Line`: its words in :class:`Span` pieces (a piece that names a card
carries the card, a piece to stress is marked ``strong``), a ``tone`` for the whole line
and an optional ``title`` (a heading such as ``"Deal 2"``). ``line.text`` is the sentence
alone, ``line.full`` the heading and the sentence in one (``"Deal 2: Robin deals. ..."``).

Grammar follows the reader (a :class:`Reader`: the names by seat and the reader's seat):
the reader is "You" ("you" inside a sentence) with the verb unchanged ("You play"), anyone
else is their name ("Alex plays").

Information: every event is passed through :func:`~president.events.visible_to` for the
reader's seat before it is put into words, so a sentence never names a card the reader may
not know (another seat's hand, the cards of an exchange between two other seats; docs/rules.md
"Information").

Standard library and the rules core only (like :mod:`president.events`).

>>> from president.actions import Play
>>> from president.events import Played
>>> reader = Reader(("You", "Robin", "Alex", "Sam"), seat=0)
>>> narrate(Played(2, Play.parse("9D 9S"), lead=False), reader).text
'Alex plays a pair of nines (9♦ 9♠).'
>>> narrate(Played(0, Play.parse("3C"), lead=True), reader).text
'You lead a single three (3♣).'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .actions import KIND_NAMES, PASS, Play
from .cards import Card
from .kernel import CLEAR_REASONS as KERNEL_REASONS
from .kernel import CLEARS_OPTIONS, TOP_RANK, follow_ranks, strict_of
from .events import (DealEnded, Dealt, Event, Exchanged, MatchEnded, Passed, PileCleared,
                     Played, WentOut, visible_to)
from .observation import Observation, Transfer
from .rules import OPTIONS, Rules

__all__ = ["Span", "Line", "Reader", "narrate", "card_label", "ordinal", "lead_reason",
           "NOTHING_BEATS", "pass_hint_reason", "why_pass", "what_beats", "exchange_duty",
           "exchange_plan", "left_holding", "CLEAR_REASONS", "SUIT_SYMBOLS"]

#: The suit symbols, clubs, diamonds, hearts, spades (the order of :class:`~president.cards.Suit`).
SUIT_SYMBOLS = "♣♦♥♠"

#: Why a pile cleared (:attr:`PileCleared.reason`), in words: the passing rules' reasons, then
#: each clearing option's (:data:`president.kernel.CLEARS_OPTIONS`, words from its
#: :attr:`president.rules.Option.cleared`).
CLEAR_REASONS = {
    "all-passed": "everyone else passed",
    "once-around": "everyone had their one turn on it",
    **{str(KERNEL_REASONS[outcome]): str(OPTIONS[option].cleared)
       for option, _, outcome in CLEARS_OPTIONS},
}


def ordinal(n: int) -> str:
    """``1`` → ``"1st"``, ``2`` → ``"2nd"``, ``11`` → ``"11th"``, ``23`` → ``"23rd"``."""
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def card_label(card: Card, symbols: bool = True) -> str:
    """A card as a person reads it: ``"10♥"``, or ``"10H"`` without ``symbols`` (both can
    be typed in the terminal)."""
    return card.rank.symbol + (SUIT_SYMBOLS[card.suit] if symbols else card.suit.letter)


def _many(count: int, what: str = "card") -> str:
    return f"{count} {what}{'s' if count != 1 else ''}"


def _a(play: Play) -> str:
    text = play.describe()
    return ("an " if text[0] in "aeiou" else "a ") + text


@dataclass(frozen=True, slots=True)
class Span:
    """A piece of a sentence: ``text``; ``card`` when the piece names that card (its label),
    ``strong`` when it is to be stressed (the terminal shows it in bold)."""

    text: str
    card: Card | None = None
    strong: bool = False


@dataclass(frozen=True, slots=True)
class Line:
    """One sentence (or two) about one event.

    Attributes:
        spans: the words, in order; ``"".join(s.text for s in spans)`` is the sentence.
        tone: how the whole line reads: ``""`` (plain), ``"quiet"`` (a pile cleared: the
            terminal dims it) or ``"strong"`` (someone went out: bold).
        title: a heading the sentence belongs under (``"Deal 2"``, ``"Deal over"``,
            ``"Match over"``) or ``None``.
    """

    spans: tuple[Span, ...]
    tone: str = ""
    title: str | None = None

    @property
    def text(self) -> str:
        """The sentence alone, without the title."""
        return "".join(s.text for s in self.spans)

    @property
    def full(self) -> str:
        """The title and the sentence in one: ``"Deal 2: Robin deals. ..."`` (the text
        alone when there is no title)."""
        return self.text if self.title is None else f"{self.title}: {self.text}"

    def __str__(self) -> str:
        return self.full


class _Words:
    """Builds a :class:`Line` piece by piece."""

    def __init__(self, symbols: bool) -> None:
        self.spans: list[Span] = []
        self.symbols = symbols

    def say(self, text: str, strong: bool = False) -> _Words:
        if text:
            self.spans.append(Span(text, strong=strong))
        return self

    def cards(self, cards: Sequence[Card]) -> _Words:
        for i, card in enumerate(cards):
            if i:
                self.say(" ")
            self.spans.append(Span(card_label(card, self.symbols), card=card))
        return self

    def line(self, tone: str = "", title: str | None = None) -> Line:
        return Line(tuple(self.spans), tone, title)


@dataclass(frozen=True, slots=True)
class Reader:
    """Who reads the sentences.

    Attributes:
        names: player names by seat in the current deal.
        seat: the reader's seat (their own moves read "You play", "you lead"), or ``None``
            for an onlooker who sees every card (a lesson, a replay shown face up): everyone
            is then named and nothing is hidden.
        symbols: cards with suit symbols (``9♠``) or suit letters (``9S``).
        player: the reader's match player index (to find the reader among a match's winners,
            which are match players, not seats); ``None`` when it is not known.
    """

    names: tuple[str, ...]
    seat: int | None
    symbols: bool = True
    player: int | None = None

    def who(self, seat: int, *, start: bool = True) -> str:
        """``"You"`` (``"you"`` inside a sentence) for the reader, else the seat's name."""
        if seat == self.seat:
            return "You" if start else "you"
        return self.names[seat]

    def does(self, seat: int, verb: str, *, start: bool = True) -> str:
        """``"You play"`` for the reader, ``"Robin plays"`` (``"passes"``, ``"goes"``) for
        anyone else."""
        if seat == self.seat:
            return f"{self.who(seat, start=start)} {verb}"
        ending = "es" if verb.endswith(("s", "sh", "ch", "o")) else "s"
        return f"{self.names[seat]} {verb}{ending}"


NOTHING_BEATS = "nothing you hold beats the pile"
"""Why a hint says pass when it must (every legal action is a pass)."""


def pass_hint_reason(level: str) -> str:
    """Why a hint of the ``level`` computer player says pass when the seat could beat the
    pile: the words after "Pass:" in the browser and in brackets in the terminal."""
    return f"you could beat the pile, but the {level} player would keep its cards for later"


def why_pass(obs: Observation, *, symbols: bool = True) -> str | None:
    """Why the observing seat must pass, when passing is its only legal action, in its own
    words: ``"Nothing you hold beats the pair of nines (9♦ 9♠): no pair of a higher rank"``;
    under ``beat = equal-or-higher`` ``"Nothing you hold matches or beats ...: no pair of
    an equal or higher rank"``; while four of a kind has turned the order around (the
    ``reversal`` twist) ``"... no single of a lower rank (four of a kind has reversed the
    rank order)"``; when the hand is smaller than the pile's set ``"...: you hold only 1
    card"``. No full stop: a front end ends the sentence (``": pass."``, ``" (auto-pass)."``).

    Args:
        obs: the seat's own observation.
        symbols: cards with suit symbols (``9♠``) or letters (``9S``).

    Returns:
        The sentence, or ``None`` when the seat may do something else (it leads, it can
        beat the pile, it is not its turn, or it is the exchange).
    """
    if obs.phase != "play" or obs.to_act != obs.seat or obs.legal_actions != (PASS,):
        return None
    top = obs.to_beat
    if top is None:  # only a pass is legal with no pile: not a rule of any preset
        return None
    cards = " ".join(card_label(c, symbols) for c in top.cards)
    verb = "matches or beats" if obs.rules.beat == "equal-or-higher" else "beats"
    head = f"Nothing you hold {verb} the {top.describe()} ({cards})"
    if len(obs.hand) < top.count:
        return f"{head}: you hold only {_many(len(obs.hand))}"
    kind = "card" if top.count == 1 else KIND_NAMES[top.count]
    way = "lower" if obs.reversed else "higher"
    rank = f"an equal or {way}" if obs.rules.beat == "equal-or-higher" else f"a {way}"
    why = " (four of a kind has reversed the rank order)" if obs.reversed else ""
    return f"{head}: no {kind} of {rank} rank{why}"


def what_beats(top: Play, beat: str, reversed: bool = False) -> str:
    """What answers the play to beat, in words, from the kernel's ``beat`` rule in the
    current order (:func:`president.kernel.follow_ranks`; ``reversed`` under the
    ``reversal`` twist): ``"Needs 2 cards, higher than 9."``, ``"Needs 2 cards, 9 or
    higher."`` (``equal-or-higher``), ``"Needs 1 card, lower than 9 (the order is
    reversed)."``, ``"Nothing beats it: pass."``, ``"Only a 2 can match it, or pass."``.

    Args:
        top: the latest play on the pile.
        beat: the rules' ``beat`` (``"higher"`` or ``"equal-or-higher"``).
        reversed: whether the rank order is reversed now.
    """
    ranks = follow_ranks(top.rank, strict_of(beat), reversed)
    size = top.count
    many = _many(size)
    symbol = top.rank.symbol
    if not ranks:
        return "Nothing beats it: pass."
    if reversed:
        how = f"{symbol} or lower" if top.rank in ranks else f"lower than {symbol}"
        return f"Needs {many}, {how} (the order is reversed)."
    if ranks[0] == top.rank:  # the same rank answers it
        if top.rank == TOP_RANK:
            return f"Only {f'{size} twos' if size > 1 else 'a 2'} can match it, or pass."
        return f"Needs {many}, {symbol} or higher."
    return f"Needs {many}, higher than {symbol}."


def exchange_duty(step: Transfer, reader: Reader, give_back: str, *, then: bool = False) -> str:
    """One exchange step that is waiting, in the reader's words (docs/rules.md
    ``exchange`` and ``give_back``), without a full stop:

    - the reader gives (an instruction): ``"Give your highest 2 cards to Sam"`` (a forced
      step), ``"Give back your lowest card to Sam"`` (``give_back = lowest``), ``"Choose 1
      card to give back to Sam"`` (``give_back = any``);
    - someone else gives: ``"Sam must give their highest card to you"``, ``"Robin gives
      back their lowest 2 cards to Alex"``, ``"Robin gives back 1 card to you"``.

    Args:
        step: the waiting step (:attr:`Observation.pending_exchange`).
        reader: who reads it.
        give_back: the rules' ``give_back`` (``"any"`` or ``"lowest"``).
        then: the step follows the one being told: the sentence starts with "Then"
            (``"Then choose 1 card to give back to Sam"``, ``"Then Robin gives back 1 card
            to you"``).
    """
    if then:
        text = exchange_duty(step, reader, give_back)
        return "Then " + (text[0].lower() + text[1:] if step.giver == reader.seat else text)
    to = reader.who(step.receiver, start=False)
    which = "card" if step.count == 1 else f"{step.count} cards"
    if step.giver == reader.seat:
        if step.forced:
            return f"Give your highest {which} to {to}"
        if give_back == "lowest":
            return f"Give back your lowest {which} to {to}"
        return f"Choose {_many(step.count)} to give back to {to}"
    giver = reader.who(step.giver)
    if step.forced:
        return f"{giver} must give their highest {which} to {to}"
    if give_back == "lowest":
        return f"{giver} gives back their lowest {which} to {to}"
    return f"{giver} gives back {_many(step.count)} to {to}"


def lead_reason(rules: Rules, deal_number: int) -> str:
    """Why a seat leads the deal, in words: ``"left of the dealer"``, ``"holds 3C"``, ``"the
    President leads"`` (docs/rules.md ``first_lead`` and ``later_lead``); ``""`` when the rules
    name the seat (``seat:<n>``)."""
    if deal_number == 1:
        fl = rules.first_lead
        if fl.kind == "left-of-dealer":
            return "left of the dealer"
        if fl.card is not None:
            return f"holds {fl.card}"
        return ""
    return "the President leads" if rules.later_lead == "president" else "left of the dealer"


def exchange_plan(steps: Sequence[Transfer], reader: Reader, give_back: str) -> Line | None:
    """The exchange of a deal before it starts (public: who gives how many to whom):
    ``"Exchange: Sam gives their highest 1 card to you; you give back any 1 card."``
    ``None`` when there is no exchange.

    Args:
        steps: the deal's exchange steps in order (:attr:`Match.exchange_steps`).
        reader: who reads it.
        give_back: the rules' ``give_back`` (``"any"`` or ``"lowest"``).
    """
    parts: list[str] = []
    for step in steps:
        what = _many(step.count)
        giver = reader.does(step.giver, "give", start=not parts)
        their = "your" if step.giver == reader.seat else "their"
        if step.forced:
            receiver = reader.who(step.receiver, start=False)
            parts.append(f"{giver} {their} highest {what} to {receiver}")
        elif give_back == "lowest":
            parts.append(f"{giver} back {their} lowest {what}")
        else:
            parts.append(f"{giver} back any {what}")
    if not parts:
        return None
    return Line((Span("Exchange: " + "; ".join(parts) + "."),))


def left_holding(seat: int, held: int, place: int, title: str, reader: Reader) -> Line:
    """The last player of a deal: ``"Sam is left holding 3 cards: 4th place (last)."``
    (the first part strong)."""
    be = "are" if seat == reader.seat else "is"
    w = _Words(reader.symbols)
    w.say(f"{reader.who(seat)} {be} left holding {_many(held)}: {ordinal(place)} place",
          strong=True)
    return w.say(f" ({title}).").line()


def narrate(event: Event, reader: Reader, *, leader: int | None = None,
            rules: Rules | None = None, player_names: Sequence[str] | None = None) -> Line:
    """One event in words, as ``reader`` may know it.

    Args:
        event: any engine event (full information: what the reader may not know is removed
            here with :func:`~president.events.visible_to`).
        reader: who reads it.
        leader: for :class:`Dealt`, the seat that leads the deal (``None``: not said).
        rules: the table's rules, when known: they add why that seat leads
            (:func:`lead_reason`), the note that four of a kind turns the rank order around
            (the ``reversal`` twist), the scores at the end of a scored match and "The deal
            is over." for a single deal. ``None`` leaves those out.
        player_names: names by match player index, for :class:`MatchEnded` (its winners are
            match players); default ``reader.names``.

    Returns:
        The :class:`Line`. Its ``title``, when set, is a heading: ``"Deal 2"`` for
        :class:`Dealt`, ``"Deal over"`` for :class:`DealEnded`, ``"Match over"`` for
        :class:`MatchEnded` of a match of more than one deal.

    Raises:
        TypeError: ``event`` is not an engine event.
    """
    ev = event if reader.seat is None else visible_to(event, reader.seat)
    w = _Words(reader.symbols)
    if isinstance(ev, Dealt):
        w.say(reader.does(ev.dealer, "deal") + ".")
        if leader is not None:
            why = lead_reason(rules, ev.deal_number) if rules is not None else ""
            w.say(f" {reader.does(leader, 'lead')} the first pile{f' ({why})' if why else ''}.")
        return w.line(title=f"Deal {ev.deal_number}")
    if isinstance(ev, Exchanged):
        if ev.receiver == reader.seat:
            w.say(f"{reader.who(ev.giver)} gives you ")
        else:
            w.say(f"{reader.does(ev.giver, 'give')} {reader.who(ev.receiver, start=False)} ")
        if ev.cards is None:  # neither seat is the reader's
            w.say(_many(ev.count))
        else:
            w.cards(ev.cards)
        if ev.forced:
            w.say(" (your highest)" if ev.giver == reader.seat else " (their highest)")
        return w.say(".").line()
    if isinstance(ev, Played):
        w.say(f"{reader.does(ev.seat, 'lead' if ev.lead else 'play')} {_a(ev.play)} (")
        w.cards(ev.play.cards).say(").")
        if rules is not None and rules.reversal and ev.play.count == 4:
            w.say(" Four of a kind turns the rank order around.", strong=True)
        return w.line()
    if isinstance(ev, Passed):
        return w.say(reader.does(ev.seat, "pass") + ".").line()
    if isinstance(ev, PileCleared):
        why = CLEAR_REASONS.get(ev.reason, ev.reason)
        if ev.leader is None:
            return w.say(f"The pile is cleared ({why}).").line("quiet")
        return w.say(f"The pile is cleared ({why}); "
                     f"{reader.does(ev.leader, 'lead', start=False)} next.").line("quiet")
    if isinstance(ev, WentOut):
        place = ordinal(ev.place)
        title = "" if ev.title == place else f" ({ev.title})"  # the place is not said twice
        return w.say(f"{reader.does(ev.seat, 'go')} out in {place} place{title}.").line("strong")
    if isinstance(ev, DealEnded):
        order = ", ".join(f"{reader.names[s]} ({ev.titles[s]})" for s in ev.finish_order)
        return w.say(order + ".").line(title="Deal over")
    if isinstance(ev, MatchEnded):
        return _match_over(ev, reader, rules, player_names)
    raise TypeError(f"not an event: {event!r}")


def _match_over(ev: MatchEnded, reader: Reader, rules: Rules | None,
                player_names: Sequence[str] | None) -> Line:
    names = list(reader.names if player_names is None else player_names)
    winners = [("You" if not i else "you") if p == reader.player else names[p]
               for i, p in enumerate(ev.winners)]
    w = _Words(reader.symbols)
    if rules is not None and rules.match_end == "single-deal":
        return w.say("The deal is over.", strong=True).say(
            f" {winners[0]} finished first.").line()
    together = " and ".join(winners) if len(winners) < 3 else \
        ", ".join(winners[:-1]) + " and " + winners[-1]
    if len(winners) > 1:
        verb = "share the win"
    elif ev.winners[0] == reader.player:
        verb = "win"
    else:
        verb = "wins"
    if rules is not None and rules.scoring is not None:
        scores = ", ".join(f"{names[p]} {s}" for p, s in enumerate(ev.scores))
        w.say(f"{together} {verb}", strong=True).say(f" (scores: {scores}).")
    else:
        w.say(f"{together} {verb}.", strong=True)
    return w.line(title="Match over")
