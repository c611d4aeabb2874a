"""One deal: the play of the cards from the opening lead to the last finishing place.

This module implements the core of RULES.md (lead, beat, pass, clear, who leads after a
clear, going out, end of the deal) and the options ``beat``, ``passing`` and
``last_of_rank_clears``. Exchanges, scoring and the sequence of deals live in
:mod:`president.match`.

Hands are kept as 52-bit card masks (bit ``rank * 4 + suit``); this is what makes listing
legal actions cheap. Every entry point goes through :meth:`Deal.refusal`, the one legality
check; :meth:`Deal.legal_actions` lists exactly the actions it accepts (a property test holds
the two together).
"""

from __future__ import annotations

import random
from typing import Sequence

from .actions import ALL_SUBSETS, PASS, SUBSETS_BY_COUNT, Give, Pass, Play
from .cards import CARDS, DECK_MASK, Card, cards_from_mask, format_mask
from .errors import IllegalAction, PresidentError
from .events import DealEnded, Event, Passed, PileCleared, Played, WentOut, title_for_place
from .rules import Rules

__all__ = ["Deal", "deal_hands", "hand_sizes"]


def hand_sizes(players: int, cards: int = 52) -> tuple[int, ...]:
    """Cards per seat counted from the seat left of the dealer (RULES.md, "Deal"):
    the first seats dealt to get the extra card. E.g. ``hand_sizes(5) == (11, 11, 10, 10, 10)``."""
    base, extra = divmod(cards, players)
    return tuple(base + (1 if i < extra else 0) for i in range(players))


def deal_hands(players: int, dealer: int, seed: int | random.Random) -> list[int]:
    """Shuffle the 52 cards with ``seed`` and deal them one at a time clockwise from the seat
    left of ``dealer``. Returns a card mask per seat (index = seat).

    The same seed always gives the same hands (``random.Random(seed).shuffle``).
    """
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [0] * players
    seat = (dealer + 1) % players
    for index in deck:
        hands[seat] |= 1 << index
        seat = (seat + 1) % players
    return hands


class Deal:
    """The state of one deal in play. Build with :meth:`from_hands` or :meth:`shuffled`.

    Attributes (read-only by convention):
        rules: the :class:`Rules`.
        players: number of seats.
        dealer: seat of the dealer.
        hands: card mask per seat (use :meth:`hand` for cards).
        counts: cards held per seat.
        to_act: seat whose turn it is, or ``None`` when the deal is over.
        pile: ``[(seat, Play), ...]`` on the current pile, oldest first.
        passed: bit mask of seats that passed since the latest play (``re-enter``) or on
            this pile (``sit-out``, ``once-around``).
        cleared: card mask of cards cleared from earlier piles this deal.
        finish_order: seats in finishing order; complete when the deal is over.
        history: ``[(seat, Play | PASS), ...]`` every action of the deal in order.
        over: whether the deal has ended.
    """

    __slots__ = ("rules", "players", "dealer", "leader", "hands", "counts", "to_act", "pile",
                 "pile_count", "top_rank", "same_rank_cards", "last_player", "passes",
                 "passed", "round_left", "cleared", "finish_order", "history", "over",
                 "dealt", "_strict", "_mode", "_lor", "points")

    def __init__(self, rules: Rules, hands: Sequence[int], *, dealer: int, leader: int) -> None:
        n = rules.players
        if len(hands) != n:
            raise IllegalAction("bad-deal", f"{len(hands)} hands given for {n} players")
        seen = 0
        for seat, h in enumerate(hands):
            if not h:
                raise IllegalAction("bad-deal", f"seat {seat} has no cards; every seat needs a hand")
            if h & seen:
                raise IllegalAction("bad-deal", f"card(s) {format_mask(h & seen)} are in two hands")
            if h & ~DECK_MASK:
                raise IllegalAction("bad-deal", "a hand holds a card index above 51")
            seen |= h
        if not 0 <= dealer < n:
            raise IllegalAction("bad-deal", f"dealer seat {dealer} does not exist; seats are 0 to {n - 1}")
        if not 0 <= leader < n:
            raise IllegalAction("bad-deal", f"leader seat {leader} does not exist; seats are 0 to {n - 1}")
        self.rules = rules
        self.players = n
        self.dealer = dealer
        self.leader = leader
        self.hands = list(hands)
        self.dealt = tuple(hands)
        self.counts = [h.bit_count() for h in hands]
        self.to_act: int | None = leader
        self.pile: list[tuple[int, Play]] = []
        self.pile_count = 0
        self.top_rank = -1
        self.same_rank_cards = 0
        self.last_player = -1
        self.passes = 0
        self.passed = 0
        self.round_left: list[int] = []
        self.cleared = 0
        self.finish_order: list[int] = []
        self.history: list[tuple[int, Play | Pass]] = []
        self.over = False
        self.points: tuple[int, ...] | None = None
        self._strict = rules.beat == "higher"
        self._mode = rules.passing
        self._lor = rules.last_of_rank_clears

    # ----- construction -------------------------------------------------------------

    @classmethod
    def from_hands(cls, rules: Rules, hands: Sequence[str | Sequence[Card] | int], *,
                   dealer: int | None = None, leader: int | None = None) -> "Deal":
        """A deal from given hands (notation strings, card sequences or masks), per seat.

        Hands may be any disjoint non-empty sets of cards (a teaching position).
        ``dealer`` defaults to the last seat; ``leader`` to the seat left of the dealer.

        Raises:
            IllegalAction: ``bad-deal`` for overlapping or empty hands or bad seats;
                ``bad-notation`` for unreadable cards.
        """
        masks = [_to_mask(h) for h in hands]
        n = rules.players
        dealer = n - 1 if dealer is None else dealer
        return cls(rules, masks, dealer=dealer, leader=(dealer + 1) % n if leader is None else leader)

    @classmethod
    def shuffled(cls, rules: Rules, seed: int | random.Random, *, dealer: int | None = None,
                 leader: int | None = None) -> "Deal":
        """A deal of all 52 cards shuffled with ``seed`` (see :func:`deal_hands`)."""
        n = rules.players
        dealer = n - 1 if dealer is None else dealer
        return cls(rules, deal_hands(n, dealer, seed), dealer=dealer,
                   leader=(dealer + 1) % n if leader is None else leader)

    # ----- queries ------------------------------------------------------------------

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards held by ``seat``, sorted low to high."""
        return cards_from_mask(self.hands[seat])

    @property
    def to_beat(self) -> Play | None:
        """The latest play on the pile (the one to beat), or ``None`` on an empty pile."""
        return self.pile[-1][1] if self.pile else None

    def legal_actions(self) -> list[Play | Pass]:
        """Every action the seat to act may take: each distinct set of cards it may play
        (sorted by rank, then size), then :data:`PASS` if passing is allowed. Empty when
        the deal is over."""
        if self.over:
            return []
        hand = self.hands[self.to_act]
        need = self.pile_count
        acts: list[Play | Pass] = []
        if need == 0:
            for r in range(13):
                nib = (hand >> (r << 2)) & 15
                if nib:
                    acts.extend(ALL_SUBSETS[r][nib])
            return acts
        start = self.top_rank + 1 if self._strict else self.top_rank
        hand >>= start << 2
        for r in range(start, 13):
            nib = hand & 15
            hand >>= 4
            if nib:
                acts.extend(SUBSETS_BY_COUNT[r][nib][need])
        acts.append(PASS)
        return acts

    def refusal(self, seat: int, action: object) -> IllegalAction | None:
        """The one legality check: ``None`` if ``seat`` may take ``action`` now, else the
        :class:`IllegalAction` (not raised) saying why."""
        if self.over:
            return IllegalAction("deal-over", "the deal is over; no one plays until the next deal")
        if seat != self.to_act:
            if isinstance(seat, int) and 0 <= seat < self.players and self.counts[seat] == 0:
                return IllegalAction("not-your-turn", f"seat {seat} has gone out and takes no "
                                     f"more turns this deal; it is seat {self.to_act}'s turn")
            return IllegalAction("not-your-turn", f"it is seat {self.to_act}'s turn, not seat {seat}'s")
        if action is PASS:
            if self.pile_count == 0:
                return IllegalAction("cannot-pass-lead", "the pile is empty, so you lead and "
                                     "must play a single, pair, triple or quad; you cannot pass")
            return None
        if not isinstance(action, Play):
            if isinstance(action, Give):
                return IllegalAction("wrong-phase", "there is no exchange now; play cards or pass")
            return IllegalAction("bad-notation", f"{action!r} is not a play or a pass")
        if action.mask & ~self.hands[seat]:
            missing = format_mask(action.mask & ~self.hands[seat])
            return IllegalAction("not-in-hand", f"you do not hold {missing}")
        if self.pile_count:
            top = self.pile[-1][1]
            if action.count != self.pile_count:
                return IllegalAction("wrong-count", f"the pile is a {top.kind} "
                                     f"({top}); play exactly {self.pile_count} card"
                                     f"{'s' if self.pile_count > 1 else ''} of one rank or pass")
            if action.rank < self.top_rank or (self._strict and action.rank == self.top_rank):
                need = "higher than" if self._strict else "equal to or higher than"
                return IllegalAction("not-higher", f"{action.describe()} does not beat "
                                     f"{top.describe()}; play a rank {need} {top.rank.symbol} or pass")
        return None

    def is_legal(self, seat: int, action: object) -> bool:
        """Whether :meth:`refusal` accepts the action."""
        return self.refusal(seat, action) is None

    # ----- transitions --------------------------------------------------------------

    def apply(self, seat: int, action: Play | Pass) -> list[Event]:
        """Take ``action`` for ``seat`` and return the events it caused, in order.

        Raises:
            IllegalAction: if :meth:`refusal` refuses it; the deal is then unchanged.
        """
        err = self.refusal(seat, action)
        if err is not None:
            raise err
        return self.apply_unchecked(seat, action)

    def apply_unchecked(self, seat: int, action: Play | Pass) -> list[Event]:
        """:meth:`apply` without the legality check (for callers that listed the action from
        :meth:`legal_actions`). An illegal action here corrupts the state."""
        self.history.append((seat, action))
        if action is PASS:
            return self._pass(seat)
        return self._play(seat, action)

    def _next_with_cards(self, seat: int) -> int:
        n = self.players
        counts = self.counts
        s = (seat + 1) % n
        while not counts[s]:
            s = (s + 1) % n
        return s

    def _next_eligible(self, seat: int) -> int | None:
        # sit-out: next clockwise with cards who has not passed on this pile.
        n = self.players
        s = seat
        for _ in range(n - 1):
            s = (s + 1) % n
            if self.counts[s] and not (self.passed >> s) & 1:
                return s
        return None

    def _play(self, seat: int, play: Play) -> list[Event]:
        events: list[Event] = [Played(seat, play, self.pile_count == 0)]
        self.hands[seat] ^= play.mask
        self.counts[seat] -= play.count
        lead = self.pile_count == 0
        if lead:
            self.pile_count = play.count
            if self._mode == "once-around":
                n = self.players
                self.round_left = [s for s in ((seat + i) % n for i in range(1, n)) if self.counts[s]]
        elif self._mode == "once-around":
            self.round_left.pop(0)
        if play.rank == self.top_rank:
            self.same_rank_cards += play.count
        else:
            self.same_rank_cards = play.count
        self.top_rank = play.rank
        self.pile.append((seat, play))
        self.last_player = seat
        self.passes = 0
        if self._mode == "re-enter":
            self.passed = 0
        if not self.counts[seat]:
            self.finish_order.append(seat)
            place = len(self.finish_order)
            events.append(WentOut(seat, place, title_for_place(place, self.players,
                                                                naming=self.rules.titles)))
            if self.players - len(self.finish_order) == 1:
                self._end(events)
                return events
        if self._lor and self.same_rank_cards == 4:
            self._clear("last-of-rank", events)
            return events
        mode = self._mode
        if mode == "re-enter":
            self.to_act = self._next_with_cards(seat)
        elif mode == "sit-out":
            nxt = self._next_eligible(seat)
            if nxt is None:
                self._clear("all-passed", events)
            else:
                self.to_act = nxt
        else:
            if self.round_left:
                self.to_act = self.round_left[0]
            else:
                self._clear("once-around", events)
        return events

    def _pass(self, seat: int) -> list[Event]:
        events: list[Event] = [Passed(seat)]
        self.passes += 1
        self.passed |= 1 << seat
        mode = self._mode
        if mode == "re-enter":
            active = self.players - len(self.finish_order)
            others = active - 1 if self.counts[self.last_player] else active
            if self.passes >= others:
                self._clear("all-passed", events)
            else:
                self.to_act = self._next_with_cards(seat)
        elif mode == "sit-out":
            nxt = self._next_eligible(seat)
            if nxt is None or nxt == self.last_player:
                self._clear("all-passed", events)
            else:
                self.to_act = nxt
        else:
            self.round_left.pop(0)
            if self.round_left:
                self.to_act = self.round_left[0]
            else:
                self._clear("once-around", events)
        return events

    def _clear(self, reason: str, events: list[Event]) -> None:
        winner = self.last_player
        for _, p in self.pile:
            self.cleared |= p.mask
        self.pile = []
        self.pile_count = 0
        self.top_rank = -1
        self.same_rank_cards = 0
        self.passes = 0
        self.passed = 0
        self.round_left = []
        leader = winner if self.counts[winner] else self._next_with_cards(winner)
        self.to_act = leader
        events.append(PileCleared(reason, winner, leader))

    def settle(self, order: Sequence[int]) -> list[Event]:
        """End a deal played with real cards by its finishing order: ``order`` lists every
        seat once, first out first (RULES.md "End of the deal"; seed
        ``000_2ebb75a2290c9d05.txt`` keeps only each deal's finish order). Emits a
        :class:`WentOut` for each player out and the :class:`DealEnded` with the points and
        titles the rules give, as if the deal had been played here. The cards this object
        dealt play no part (they stand for the real ones).

        Raises:
            IllegalAction: ``wrong-phase`` once a card was played or the deal is over;
                ``bad-order`` for an order that does not name every seat exactly once.
        """
        n = self.players
        if self.over or self.history:
            raise IllegalAction("wrong-phase", "this deal is already being played (or over); a "
                                "finishing order can only be given instead of playing it")
        if (not isinstance(order, (list, tuple)) or not all(isinstance(s, int) and not isinstance(s, bool) for s in order)
                or sorted(order) != list(range(n))):
            shown = list(order) if isinstance(order, (list, tuple)) else order
            raise IllegalAction("bad-order", f"the finishing order {shown!r} must name every seat "
                                f"0 to {n - 1} exactly once, first out first")
        events: list[Event] = []
        for s in order[:-1]:
            self.finish_order.append(s)
            place = len(self.finish_order)
            events.append(WentOut(s, place, title_for_place(place, n, naming=self.rules.titles)))
        self._end(events, last=order[-1])
        return events

    def _end(self, events: list[Event], last: int | None = None) -> None:
        if last is None:
            last = next(s for s in range(self.players) if self.counts[s])
        self.finish_order.append(last)
        self.over = True
        self.to_act = None
        n = self.players
        scoring = self.rules.scoring or ()
        points = [0] * n
        for place, s in enumerate(self.finish_order):
            if place < len(scoring):
                points[s] = scoring[place]
        self.points = tuple(points)
        titles = [""] * n
        for place, s in enumerate(self.finish_order):
            titles[s] = title_for_place(place + 1, n, naming=self.rules.titles)
        events.append(DealEnded(tuple(self.finish_order), self.points, self.points, tuple(titles)))

    # ----- state snapshots ----------------------------------------------------------

    def snapshot(self) -> dict:
        """Full state as plain JSON-ready data (all hands: for records and tests, never for
        a seat's view)."""
        return {
            "hands": [format_mask(h) for h in self.hands],
            "pile": [str(p) for _, p in self.pile],
            "to_act": self.to_act,
            "finish_order": list(self.finish_order),
            "over": self.over,
        }


def _to_mask(hand: str | Sequence[Card] | int) -> int:
    from .cards import mask_from_cards, parse_cards
    from .errors import NotationError
    if isinstance(hand, int):
        return hand
    try:
        if isinstance(hand, str):
            return mask_from_cards(parse_cards(hand))
        return mask_from_cards(hand)
    except NotationError as e:
        raise IllegalAction("bad-notation", e.message) from None
