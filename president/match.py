"""A match: a sequence of deals with exchanges, seating, dealer changes, scoring and an end.

Implements the options ``exchange``, ``seating``, ``first_lead``, ``later_lead``,
``scoring`` and ``match_end`` of docs/rules.md; the play of each deal is
:class:`~president.deal.Deal`.

>>> from president import Match, Rules
>>> m = Match(Rules.preset("practice"), ["You", "Robin", "Alex", "Sam"], seed=1)
>>> m.to_act, m.phase
(0, 'play')

Players are numbered by their index in ``players`` (match player index). Seats are
numbered clockwise within a deal; ``seating[seat]`` gives the player at a seat. Under
``fixed`` seating seat and player numbers coincide; under ``by-finish`` they change each deal.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from typing import Any, Iterable, Sequence, TypeGuard, overload

from .actions import PASS, Give, Pass, Play, parse_action
from .cards import Card, cards_from_mask, format_mask
from .deal import Deal, deal_hands
from .errors import IllegalAction, RulesError, shown
from .events import (Dealt, Event, Exchanged, MatchEnded, title_for_place)
from .observation import Observation, Transfer
from .rules import Rules

__all__ = ["Match", "Transfer", "DealResult"]


@dataclass(frozen=True, slots=True)
class DealResult:
    """A finished deal: ``finish_order`` and ``points`` by match player index (not seat)."""

    number: int
    seating: tuple[int, ...]
    dealer: int
    finish_order: tuple[int, ...]
    points: tuple[int, ...]


class Match:
    """A match of President under some :class:`Rules`.

    Args:
        rules: the rules; ``rules.players`` must equal ``len(players)``.
        players: names by match player index (default ``"Player 1"`` …).
        seed: seeds the match's random generator, which draws one seed per deal.
        first_dealer: seat of the first deal's dealer (default: the last seat, so seat 0 is
            dealt to first and, under ``left-of-dealer``, leads).
        hands: the first deal's hands instead of a shuffle (notation, cards or masks).
        leader: the first deal's opening leader instead of what ``first_lead`` says.
        record_events: keep every event in :attr:`events` (turn off for speed).
        deal_seed_bits: size of each deal's seed drawn from the match generator: 32 keeps
            seeds short in records; use 128 wherever a player must not be able to find the
            other hands by trying every seed against their own hand (a server), together
            with a match ``seed`` of as many random bits.

    Attributes:
        phase: ``"exchange"``, ``"play"``, ``"between-deals"`` or ``"match-over"``.
        deal: the current :class:`Deal`.
        deal_number: 1 for the first deal.
        seating: player index per seat in the current deal.
        scores: match totals by player index.
        results: the finished deals, as :class:`DealResult`.
        exchange_steps: the current deal's exchange steps (done and pending).
        exchange_log: ``[(Transfer, Give), ...]`` done so far this deal.
        events: every event of the match in order (full information; see
            :func:`~president.events.visible_to` before showing one to a seat).

    Raises:
        RulesError / IllegalAction: on a wrong number of names or a bad first deal.
    """

    def __init__(self, rules: Rules, players: Sequence[str] | None = None, *,
                 seed: int | None = None, first_dealer: int | None = None,
                 hands: Sequence[str | Sequence[Card] | int] | None = None,
                 leader: int | None = None, record_events: bool = True,
                 deal_seed_bits: int = 32) -> None:
        n = rules.players
        if players is None:
            players = [f"Player {i + 1}" for i in range(n)]
        if len(players) != n:
            raise RulesError("players", f"{len(players)} player names given for a table of "
                             f"{n}; give exactly {n}")
        self.rules = rules
        self.players = tuple(players)
        if deal_seed_bits not in (32, 64, 128):
            raise RulesError("deal_seed_bits", f"deal_seed_bits = {deal_seed_bits!r} is not "
                             "allowed; choose 32, 64 or 128")
        self.deal_seed_bits = deal_seed_bits
        self.rng = random.Random(seed)
        self.scores = [0] * n
        self.results: list[DealResult] = []
        self._by_seat_memo: tuple[Any, tuple[tuple[str, ...], tuple[int, ...], tuple[str, ...]]] = (
            None, ((), (), ()))
        self.events: list[Event] = []
        self._record = record_events
        self.deal_number = 0
        self.seating = tuple(range(n))
        self.winners: tuple[int, ...] = ()
        dealer = n - 1 if first_dealer is None else first_dealer
        self.deal: Deal
        self.phase = "between-deals"
        self.start_next_deal(hands=hands, leader=leader, dealer=dealer)

    # ----- deals --------------------------------------------------------------------

    def next_seating_and_dealer(self) -> tuple[tuple[int, ...], int]:
        """Seating (player per seat) and dealer seat for the next deal (docs/rules.md
        ``seating``)."""
        n = self.rules.players
        if not self.results:
            return self.seating, n - 1
        last = self.results[-1]
        if self.rules.seating == "fixed":
            return last.seating, (last.dealer + 1) % n
        return last.finish_order, n - 1

    def start_next_deal(self, *, seed: int | None = None,
                        hands: Sequence[str | Sequence[Card] | int] | None = None,
                        leader: int | None = None, dealer: int | None = None,
                        seating: Sequence[int] | None = None) -> list[Event]:
        """Deal the next deal (from ``hands``, from ``seed``, or from the match generator),
        set up its exchange and opening lead, and return the events.

        ``dealer``/``seating`` may only confirm what the rules say, except for the first deal
        where ``dealer`` chooses the first dealer. ``leader`` overrides the opening lead
        (a teaching position).

        Raises:
            IllegalAction: ``wrong-phase`` if a deal is in progress or the match is over;
                ``bad-deal`` for bad hands or a seating/dealer the rules do not give.
        """
        if self.phase != "between-deals":
            raise IllegalAction("wrong-phase" if self.phase != "match-over" else "match-over",
                                "a deal is still in progress" if self.phase != "match-over"
                                else "the match is over; start a new match")
        n = self.rules.players
        first = not self.results
        want_seating, want_dealer = self.next_seating_and_dealer()
        if first and dealer is not None:
            want_dealer = dealer
        if seating is not None and tuple(seating) != tuple(want_seating):
            raise IllegalAction("bad-deal", f"seating {list(seating)} is not what the rules give "
                                f"({list(want_seating)})")
        if dealer is not None and dealer != want_dealer:
            raise IllegalAction("bad-deal", f"dealer seat {dealer} is not what the rules give "
                                f"(seat {want_dealer})")
        if hands is None:
            if seed is None:
                seed = self.rng.getrandbits(self.deal_seed_bits)
            masks = deal_hands(n, want_dealer, seed)
        else:
            from .deal import _to_mask
            masks = [_to_mask(h) for h in hands]
        self.deal_seed = seed
        prev_seating = self.seating
        self.seating = tuple(want_seating)
        rules = self.rules
        if leader is None:
            leader = self._opening_lead(want_dealer, self.seating, masks)
        self.deal = Deal(rules, masks, dealer=want_dealer, leader=leader,
                         totals=[self.scores[p] for p in self.seating])
        self.deal_number += 1
        events: list[Event] = [Dealt(self.deal_number, want_dealer, self.seating,
                                     tuple(m.bit_count() for m in masks),
                                     tuple(cards_from_mask(m) for m in masks))]
        self.exchange_steps = self._exchange_steps()
        self.exchange_log: list[tuple[Transfer, Give]] = []
        self.phase = "exchange" if self.exchange_steps else "play"
        self._sync_to_act()
        del prev_seating
        if self._record:
            self.events.extend(events)
        return events

    @overload
    def _opening_lead(self, dealer: int, seating: Sequence[int], masks: Sequence[int]) -> int: ...

    @overload
    def _opening_lead(self, dealer: int, seating: Sequence[int], masks: None) -> int | None: ...

    def _opening_lead(self, dealer: int, seating: Sequence[int], masks: Sequence[int] | None) -> int | None:
        """The seat that opens the next deal (docs/rules.md ``first_lead``, ``later_lead``), given
        its dealer and seating; ``masks`` are the dealt hands (``None`` for a deal not dealt
        here: a lead by the holder of a card is then unknown, ``None``)."""
        n = self.rules.players
        if not self.results:
            fl = self.rules.first_lead
            if fl.seat is not None:
                return fl.seat
            if fl.card is None:  # left of the dealer
                return (dealer + 1) % n
            if masks is None:
                return None
            bit = fl.card.bit
            holder = next((s for s, h in enumerate(masks) if h & bit), None)
            # card not dealt (a teaching position): left of the dealer
            return (dealer + 1) % n if holder is None else holder
        if self.rules.later_lead == "president":
            return list(seating).index(self.results[-1].finish_order[0])
        return (dealer + 1) % n

    def finish_by_order(self, order: Sequence[int]) -> list[Event]:
        """End the current deal, played with real cards, by its finishing order: ``order``
        lists every seat of this deal once, first out first (seed ``000_2ebb75a2290c9d05.txt``
        keeps each deal's finish order in a score column). Points, titles, totals, the match
        end and the next seating follow as for a deal played here; an exchange due before it
        is taken as done at the table. Returns the events (:class:`WentOut` per player out,
        :class:`DealEnded`, and :class:`MatchEnded` when the match ends).

        Raises:
            IllegalAction: ``wrong-phase`` once a card of this deal was given or played here,
                between deals or after the match (``match-over``); ``bad-order`` for an order
                that does not name every seat exactly once.
        """
        if self.phase == "match-over":
            raise IllegalAction("match-over", "the match is over; start a new match")
        if self.phase == "between-deals":
            raise IllegalAction("wrong-phase", "no deal is in progress; start the next deal first")
        if self.exchange_log:
            raise IllegalAction("wrong-phase", "cards of this deal were already exchanged here; "
                                "play it out instead of giving its finishing order")
        events = self.deal.settle(order)
        events = self._finish_deal(events)
        self._sync_to_act()
        if self._record:
            self.events.extend(events)
        return events

    def next_deal_plan(self) -> dict[str, Any] | None:
        """What the next deal will be, before it is dealt: ``None`` while a deal is played or
        after the match; else ``{"number", "dealer", "seating", "leader", "exchange"}`` with
        ``number`` 1-based, ``seating`` the match player index per seat, ``dealer`` and
        ``leader`` seats of that deal (``leader`` ``None`` when it is whoever is dealt a named
        card), and ``exchange`` the transfers in the order the rules take them
        (``[{"giver", "receiver", "count", "forced"}]``, seats of that deal)."""
        if self.phase != "between-deals":
            return None
        seating, dealer = self.next_seating_and_dealer()
        steps = self._exchange_steps(seating)
        return {"number": self.deal_number + 1, "dealer": dealer, "seating": list(seating),
                "leader": self._opening_lead(dealer, seating, None),
                "exchange": [{"giver": t.giver, "receiver": t.receiver, "count": t.count,
                              "forced": t.forced} for t in steps]}

    def _exchange_steps(self, seating: Sequence[int] | None = None) -> list[Transfer]:
        """The exchange before the deal seated ``seating`` (default: the current one)."""
        rules = self.rules
        if rules.exchange == "none" or not self.results:
            return []
        seating = list(self.seating if seating is None else seating)
        order = [seating.index(p) for p in self.results[-1].finish_order]
        pres, scum = order[0], order[-1]
        if rules.exchange == "one-card":
            return [Transfer(scum, pres, 1, True), Transfer(pres, scum, 1, False)]
        if rules.players == 3:
            return [Transfer(scum, pres, 1, True), Transfer(pres, scum, 1, False)]
        vp, vscum = order[1], order[-2]
        return [Transfer(scum, pres, 2, True), Transfer(pres, scum, 2, False),
                Transfer(vscum, vp, 1, True), Transfer(vp, vscum, 1, False)]

    def _sync_to_act(self) -> None:
        if self.phase == "exchange":
            self.to_act: int | None = self.exchange_steps[len(self.exchange_log)].giver
        elif self.phase == "play":
            self.to_act = self.deal.to_act
        else:
            self.to_act = None

    @property
    def pending_transfer(self) -> Transfer | None:
        """The exchange step waiting for its giver, or ``None`` outside the exchange."""
        if self.phase != "exchange":
            return None
        return self.exchange_steps[len(self.exchange_log)]

    # ----- legality -----------------------------------------------------------------

    def legal_actions(self) -> list[Play | Pass | Give]:
        """Every legal action of the seat to act: plays and pass in play; the possible gives
        during an exchange; nothing between deals or after the match."""
        if self.phase == "play":
            return self.deal.legal_actions()  # type: ignore[return-value]  # a new list each time
        if self.phase == "exchange":
            step = self.exchange_steps[len(self.exchange_log)]
            allowed = self._allowed_gives(step)
            if allowed is not None:
                return [Give.of_mask(m) for m in allowed]
            of_mask = Give.of_mask
            bits = [c.bit for c in cards_from_mask(self.deal.hands[step.giver])]
            return [of_mask(sum(combo)) for combo in itertools.combinations(bits, step.count)]
        return []

    def _allowed_gives(self, step: Transfer) -> list[int] | None:
        """The exchange rule, stated once for :meth:`legal_actions` and :meth:`refusal`: the
        masks the giver of ``step`` may hand over, or ``None`` when any ``step.count`` cards
        of their hand will do. A forced step takes the highest cards (docs/rules.md ``exchange``);
        a give back under ``give_back = lowest`` the lowest (the first-night guide's "two
        worst"); among equal ranks at the boundary the giver picks the suits."""
        hand = self.deal.hands[step.giver]
        if step.forced:
            return _forced_gives(hand, step.count)
        if self.rules.give_back == "lowest":
            return _lowest_gives(hand, step.count)
        return None

    def _as_action(self, action: object) -> Play | Pass | Give:
        """What :meth:`act` and :meth:`refusal` read as an action: a :class:`Play`,
        :data:`PASS` or :class:`Give` as it is; notation (``"9S 9D"``, ``"pass"``); one card
        or a collection of cards (a play, or a give during the exchange).

        Raises:
            IllegalAction: ``bad-notation`` or ``mixed-ranks``."""
        if isinstance(action, (Play, Pass, Give)):
            return action
        if isinstance(action, str):
            return self.parse_action(action)
        if isinstance(action, Card):
            action = (action,)
        return self._action_from_cards(action)

    def _action_from_cards(self, cards: object) -> Play | Give:
        try:
            items: tuple[object, ...] | None = tuple(cards)  # type: ignore[arg-type]
        except TypeError:
            items = None
        if items is None or not _all_cards(items):
            raise IllegalAction("bad-notation", f"{shown(cards)} is not an action; give a Play, PASS, "
                                "a Give, cards, or text such as '9S 9D' or 'pass'")
        return Give(items) if self.phase == "exchange" else Play.of(items)

    def refusal(self, seat: int, action: object) -> IllegalAction | None:
        """The legality check for every entry point: ``None`` if legal, else the error.
        ``action`` may be anything :meth:`act` takes (notation such as ``"9S 9D"`` or
        ``"pass"``, one card, a collection of cards), read as :meth:`act` reads it."""
        n = self.rules.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            return IllegalAction("bad-seat", f"seat {shown(seat)} does not exist; seats are 0 to {n - 1}")
        try:
            action = self._as_action(action)
        except IllegalAction as err:
            return err
        if self.phase == "play":
            return self.deal.refusal(seat, action)
        if self.phase == "match-over":
            return IllegalAction("match-over", "the match is over; start a new match")
        if self.phase == "between-deals":
            return IllegalAction("deal-over", "the deal is over; start the next deal first")
        step = self.exchange_steps[len(self.exchange_log)]
        if seat != step.giver:
            return IllegalAction("not-your-turn", f"it is seat {step.giver}'s turn to give "
                                 f"{step.count} card{'s' if step.count > 1 else ''} to seat "
                                 f"{step.receiver}, not seat {seat}'s")
        if isinstance(action, Play):
            action = Give(action.mask)
        if not isinstance(action, Give):
            return IllegalAction("bad-exchange", "during the exchange you must give cards; "
                                 "you cannot pass")
        hand = self.deal.hands[seat]
        if action.mask & ~hand:
            return IllegalAction("not-in-hand", f"you do not hold {format_mask(action.mask & ~hand)}")
        if action.mask.bit_count() != step.count:
            return IllegalAction("bad-exchange", f"give exactly {step.count} card"
                                 f"{'s' if step.count > 1 else ''}, not {action.mask.bit_count()}")
        allowed = self._allowed_gives(step)
        if allowed is not None and action.mask not in allowed:
            which = "highest" if step.forced else "lowest"
            return IllegalAction("bad-exchange", f"give your {_gives_in_words(allowed, which)}")
        return None

    def is_legal(self, seat: int, action: object) -> bool:
        """Whether :meth:`refusal` accepts the action."""
        return self.refusal(seat, action) is None

    def parse_action(self, text: str) -> Play | Pass | Give:
        """Parse ``"pass"`` or cards as the kind of action the current phase takes.

        Raises:
            IllegalAction: ``bad-notation`` or ``mixed-ranks``.
        """
        return parse_action(text, exchange=self.phase == "exchange")

    # ----- transitions --------------------------------------------------------------

    def act(self, seat: int, action: Play | Pass | Give | str | Card | Iterable[Card]) -> list[Event]:
        """Take an action for ``seat``: a :class:`Play`, :data:`PASS`, a :class:`Give`, its
        notation (``"9S 9D"``, ``"pass"``), one card or a collection of cards. Returns the
        events.

        Raises:
            IllegalAction: with a ``reason`` (``not-your-turn``, ``not-in-hand``,
                ``mixed-ranks``, ``wrong-count``, ``not-higher``, ``cannot-pass-lead``,
                ``deal-over``, ``bad-exchange``, ``bad-notation``, ``match-over``,
                ``wrong-phase``, ``bad-seat``). Nothing changes when it is raised.
        """
        if self.phase == "play" and seat == self.to_act and type(seat) is int \
                and (action is PASS or type(action) is Play):
            # The common case, same check as below without the conversions.
            deal = self.deal
            err = deal._refusal_of_turn(action)   # the seat is the one to act
            if err is not None:
                raise err
            events = deal.apply_unchecked(seat, action)
            if deal.over:
                events = self._finish_deal(events)
                self._sync_to_act()
            else:
                self.to_act = deal.to_act
            if self._record:
                self.events.extend(events)
            return events
        action = self._as_action(action)
        err = self.refusal(seat, action)
        if err is not None:
            raise err
        if self.phase == "exchange":
            assert not isinstance(action, Pass)  # refused above
            events = self._give(seat, action)
        else:
            assert not isinstance(action, Give)  # refused above (the deal's check)
            events = self.deal.apply_unchecked(seat, action)
            if self.deal.over:
                events = self._finish_deal(events)
        self._sync_to_act()
        if self._record:
            self.events.extend(events)
        return events

    def _give(self, seat: int, action: Play | Give) -> list[Event]:
        if isinstance(action, Play):
            action = Give(action.mask)
        step = self.exchange_steps[len(self.exchange_log)]
        hands = self.deal.hands
        hands[step.giver] ^= action.mask
        hands[step.receiver] |= action.mask
        counts = self.deal.counts  # keep card counts true between the halves of a swap
        counts[step.giver] -= step.count
        counts[step.receiver] += step.count
        self.exchange_log.append((step, action))
        if len(self.exchange_log) == len(self.exchange_steps):
            self.phase = "play"
        return [Exchanged(step.giver, step.receiver, step.count, step.forced, action.cards)]

    def _finish_deal(self, events: list[Event]) -> list[Event]:
        deal = self.deal
        n = self.rules.players
        points_by_player = [0] * n
        for seat, pts in enumerate(deal.points or ()):
            points_by_player[self.seating[seat]] = pts
        for p in range(n):
            self.scores[p] += points_by_player[p]
        result = DealResult(self.deal_number, self.seating, deal.dealer,
                            tuple(self.seating[s] for s in deal.finish_order),
                            tuple(points_by_player))
        self.results.append(result)
        if self._match_is_over():
            self.phase = "match-over"
            if self.rules.scoring is None:
                self.winners = (result.finish_order[0],)
            else:
                top = max(self.scores)
                self.winners = tuple(p for p in range(n) if self.scores[p] == top)
            events.append(MatchEnded(self.winners, tuple(self.scores)))
        else:
            self.phase = "between-deals"
        return events

    def _match_is_over(self) -> bool:
        end = self.rules.match_end
        if end.target is not None:
            return max(self.scores) >= end.target
        if end.deals is not None:
            return self.deal_number >= end.deals
        return end.kind == "single-deal"

    # ----- information --------------------------------------------------------------

    def titles(self) -> tuple[str, ...]:
        """Titles from the latest finished deal, by match player index (``""`` before any),
        as ``rules.titles`` names the places (:func:`~president.events.title_for_place`)."""
        if not self.results:
            return ("",) * self.rules.players
        n = self.rules.players
        out = [""] * n
        for place, p in enumerate(self.results[-1].finish_order):
            out[p] = title_for_place(place + 1, n, naming=self.rules.titles)
        return tuple(out)

    def rename(self, player: int, name: str) -> None:
        """Give match player ``player`` (an index of :attr:`players`) the name ``name`` (a
        seat taken at an open table of the browser game, while it waits for people). Names
        are labels only: no rule depends on them.

        Raises:
            IllegalAction: ``bad-player`` for an index that is not a player's.
        """
        if not 0 <= player < len(self.players):
            raise IllegalAction("bad-player", f"player {player} does not exist; players are 0 "
                                f"to {len(self.players) - 1}")
        names = list(self.players)
        names[player] = name
        self.players = tuple(names)
        self._by_seat_memo = (None, ((), (), ()))

    def _by_seat(self) -> tuple[tuple[str, ...], tuple[int, ...], tuple[str, ...]]:
        """Names, match totals and previous titles by seat: they change only when a deal ends
        (totals, titles) or starts (seating), so they are worked out once per change."""
        key = (self.seating, len(self.results))
        if self._by_seat_memo[0] != key:
            titles = self.titles()
            self._by_seat_memo = (key, (tuple(self.players[p] for p in self.seating),
                                        tuple(self.scores[p] for p in self.seating),
                                        tuple(titles[p] for p in self.seating)))
        return self._by_seat_memo[1]

    def observation(self, seat: int) -> Observation:
        """Everything ``seat`` may know now, and nothing more (docs/rules.md, "Information")."""
        deal = self.deal
        n = self.rules.players
        if not 0 <= seat < n:
            raise IllegalAction("bad-seat", f"seat {seat} does not exist; seats are 0 to {n - 1}")
        mine: tuple[tuple[int, int, tuple[Card, ...]], ...] = ()
        forced: tuple[bool, ...] = ()
        if self.exchange_log:           # (a deal without an exchange has none)
            seen = [(t, g) for t, g in self.exchange_log if seat in (t.giver, t.receiver)]
            mine = tuple((t.giver, t.receiver, g.cards) for t, g in seen)
            forced = tuple(t.forced for t, _ in seen)
        names, scores, previous_titles = self._by_seat()
        # positional: the fields in Observation's order (a frozen class: each keyword costs)
        return Observation(
            seat, self.rules, names, self.seating, self.phase, self.deal_number,
            deal.dealer, deal.leader, deal.hand(seat), tuple(deal.counts), tuple(deal.pile),
            cards_from_mask(deal.cleared), _seat_set(deal.passed), self.to_act,
            tuple(deal.finish_order), tuple(deal.history), mine, self.pending_transfer,
            scores, previous_titles,
            tuple(self.legal_actions()) if self.to_act == seat else (),
            deal.reversed, forced)

    def snapshot(self) -> dict[str, Any]:
        """Full state as plain data (every hand; for records and tests, not for a seat)."""
        return {**self.deal.snapshot(), "phase": self.phase, "scores": list(self.scores),
                "seating": list(self.seating), "deal_number": self.deal_number}


_SEAT_SETS = tuple(frozenset(s for s in range(7) if mask >> s & 1) for mask in range(1 << 7))


def _seat_set(mask: int) -> frozenset[int]:
    """The seats of a bit mask of seats (bit ``s`` for seat ``s``; tables have 3 to 7)."""
    return _SEAT_SETS[mask]


def _all_cards(items: tuple[object, ...]) -> TypeGuard[tuple[Card, ...]]:
    return all(isinstance(c, Card) for c in items)


def _gives_in_words(allowed: list[int], which: str) -> str:
    """The gives ``allowed`` (masks of the highest or lowest cards, as :func:`_forced_gives`
    and :func:`_lowest_gives` list them) in words, ``which`` being ``"highest"`` or
    ``"lowest"``: ``"2 lowest cards: 3C and one of your fours (4C, 4D or 4H)"``,
    ``"highest card: 2S"``."""
    sure = allowed[0]
    for m in allowed[1:]:
        sure &= m
    count = allowed[0].bit_count()
    parts = [str(c) for c in cards_from_mask(sure)]
    if len(allowed) > 1:
        tied = 0
        for m in allowed:
            tied |= m & ~sure
        word = Card.from_index((tied & -tied).bit_length() - 1).rank.word
        plural = "sixes" if word == "six" else word + "s"
        k = (allowed[0] & ~sure).bit_count()
        held = [str(c) for c in cards_from_mask(tied)]
        among = ", ".join(held[:-1]) + " or " + held[-1]
        parts.append(f"{('one', 'two', 'three')[k - 1]} of your {plural} ({among})")
    what = f"{count} {which} cards" if count > 1 else f"{which} card"
    listed = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return f"{what}: {listed}"


def _lowest_gives(hand: int, count: int) -> list[int]:
    """The masks of ``count`` lowest cards of ``hand``: all cards of ranks below the boundary
    rank, plus each choice of the rest from the boundary rank (the giver picks suits)."""
    return _end_gives(hand, count, range(13))


def _forced_gives(hand: int, count: int) -> list[int]:
    """The masks of ``count`` highest cards of ``hand``: all cards of ranks above the boundary
    rank, plus each choice of the rest from the boundary rank (the giver picks suits)."""
    return _end_gives(hand, count, range(12, -1, -1))


def _end_gives(hand: int, count: int, ranks: range) -> list[int]:
    """The masks of ``count`` cards of ``hand`` taken rank by rank in the order ``ranks``
    (high to low for the highest cards, low to high for the lowest)."""
    taken = 0
    need = count
    for r in ranks:
        nib = (hand >> (4 * r)) & 15
        k = nib.bit_count()
        if not k:
            continue
        if k <= need:
            taken |= nib << (4 * r)
            need -= k
            if need == 0:
                return [taken]
        else:
            suits = [s for s in range(4) if nib >> s & 1]
            return [taken | sum(1 << (4 * r + s) for s in combo)
                    for combo in itertools.combinations(suits, need)]
    return [taken]
