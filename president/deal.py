"""One deal: the play of the cards from the opening lead to the last finishing place.

The rules of play (lead, beat, pass, clear, who leads after a clear, going out, end of the
deal; the options ``beat``, ``passing`` and ``last_of_rank_clears``) are stated once, on ranks
and counts, in :mod:`president.kernel`. A deal keeps the kernel's
:class:`~president.kernel.Position` (its copy in C, ``president._playout.Position``, when that
is built: the same state and transitions, checked against the Python class) and adds what
the kernel leaves out: suits (which cards, not just how many of a rank), the pile's plays,
the cleared cards, events, titles and points.
Exchanges, scoring and the sequence of deals live in :mod:`president.match`.

Hands are kept as 52-bit card masks (bit ``rank * 4 + suit``); this is what makes listing
legal actions cheap. Every entry point goes through :meth:`Deal.refusal`, the one legality
check; :meth:`Deal.legal_actions` lists exactly the actions it accepts (a property test holds
the two together).
"""

from __future__ import annotations

import os
import random
from typing import Any, Callable, Sequence

from .actions import PAIR_ALL, PAIR_BY_COUNT, PASS, Give, Pass, Play
from .cards import DECK_MASK, Card, cards_from_mask, format_mask
from .errors import IllegalAction, shown
from .events import DealEnded, Event, Passed, PileCleared, Played, WentOut, title_for_place
from .kernel import CLEAR_REASONS, ENDED, FOLLOW_RANKS, Position, may_pass
from .rules import Rules

__all__ = ["Deal", "deal_hands", "hand_sizes"]


# Events are frozen values: the few that plays and passes make are built once and shared
# (a pass by each seat; a play of each interned Play by each seat, as a lead or not, at most
# 195 x 7 x 2), which saves building a dataclass at every action.
_PASSED: tuple[Passed, ...] = tuple(Passed(seat) for seat in range(8))
_PLAYED: dict[int, Played] = {}


def hand_sizes(players: int, cards: int = 52) -> tuple[int, ...]:
    """Cards per seat counted from the seat left of the dealer (docs/rules.md, "Deal"):
    the first seats dealt to get the extra card. E.g. ``hand_sizes(5) == (11, 11, 10, 10, 10)``."""
    base, extra = divmod(cards, players)
    return tuple(base + (1 if i < extra else 0) for i in range(players))


def _compiled(name: str) -> Any:
    """A function of the compiled copy (``president._playout``) by ``name``, or ``None``
    without the build or under ``PRESIDENT_PURE=1``. Each one restates a piece of this module
    and ``tests/test_compiled.py`` holds it to the Python statement, which stays the
    reference."""
    if os.environ.get("PRESIDENT_PURE") == "1":
        return None
    try:
        from . import _playout  # type: ignore[attr-defined]
    except ImportError:
        return None
    return getattr(_playout, name, None)


# deal_hands's shuffle and deal, with CPython's Mersenne Twister seeded and stepped in C
_DEAL_HANDS_C: Callable[[int, int, int], list[int]] | None = _compiled("deal_hands")
# the byte loop of Deal.legal_actions: list_plays(table, hand, start, stop, tail) -> list
_LIST_PLAYS_C: Callable[[Any, int, int, int, Pass | None], list[Play | Pass]] | None = \
    _compiled("list_plays")
# the kernel's Position (the state of the play and its transitions play and pass_) in C
_POSITION_C: type[Position] | None = _compiled("Position")


def deal_hands(players: int, dealer: int, seed: int | random.Random) -> list[int]:
    """Shuffle the 52 cards with ``seed`` and deal them one at a time clockwise from the seat
    left of ``dealer``. Returns a card mask per seat (index = seat).

    The same seed always gives the same hands (``random.Random(seed).shuffle``). A seed
    ``0 <= seed < 2**64`` (a match draws 32 bits by default) at 2 to 7 seats is dealt by the
    compiled copy when it is built, with the same hands, about six times faster.
    """
    if _DEAL_HANDS_C is not None and type(seed) is int and 0 <= seed < 1 << 64 \
            and 2 <= players <= 7 and 0 <= dealer < players:
        return _DEAL_HANDS_C(players, dealer, seed)
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
        state: the kernel's :class:`~president.kernel.Position`: the same play on ranks
            and counts (``counts``, ``to_act``, ``passed``, ``finish_order`` and ``over``
            read it), which the transitions change.
    """

    __slots__ = ("rules", "players", "dealer", "leader", "hands", "pile", "cleared", "history",
                 "dealt", "points", "totals_before", "state", "counts", "to_act", "passed",
                 "finish_order", "over")

    def __init__(self, rules: Rules, hands: Sequence[int], *, dealer: int, leader: int,
                 totals: Sequence[int] | None = None) -> None:
        """``totals``: the match's points per seat before this deal (a
        :class:`~president.match.Match` passes them), so the deal-ended event carries the
        totals after it; ``None`` for a deal on its own (its totals are its points)."""
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
        self.pile: list[tuple[int, Play]] = []
        self.cleared = 0
        self.history: list[tuple[int, Play | Pass]] = []
        self.points: tuple[int, ...] | None = None
        if totals is not None and len(totals) != n:
            raise IllegalAction("bad-deal", f"{len(totals)} totals given for {n} players")
        self.totals_before = tuple(totals) if totals is not None else (0,) * n
        # the play on ranks and counts: the kernel's state and transitions
        self.state = Position.for_rules(rules, [h.bit_count() for h in hands], leader,
                                        cls=_POSITION_C)
        self.counts = self.state.ncards
        self.finish_order = self.state.finish
        self.to_act: int | None = leader
        self.passed = 0
        self.over = False

    # ----- the kernel's state, by the engine's names ---------------------------------
    # ``counts`` and ``finish_order`` are the kernel's own lists (``ncards``, ``finish``);
    # ``to_act``, ``passed`` and ``over`` are copied from it after each transition
    # (:meth:`_sync`), so that reading them costs no more than an attribute.

    def _sync(self) -> None:
        k = self.state
        seat = k.to_act
        self.to_act = None if seat < 0 else seat
        self.over = seat < 0
        self.passed = k.passed

    @property
    def pile_count(self) -> int:
        """Cards per play on the current pile, 0 when it is empty (the kernel's ``need``)."""
        return self.state.need

    @property
    def top_rank(self) -> int:
        """Rank (0–12) of the latest play on the pile, -1 when empty (the kernel's ``top``)."""
        return self.state.top

    @property
    def same_rank_cards(self) -> int:
        """Cards of rank ``top_rank`` put on this pile in a row (the kernel's ``same``)."""
        return self.state.same

    @property
    def last_player(self) -> int:
        """Seat of the latest play, -1 before the first (the kernel's ``last``)."""
        return self.state.last

    @property
    def passes(self) -> int:
        """Passes since the latest play (the kernel's ``passes``)."""
        return self.state.passes

    @property
    def reversed(self) -> bool:
        """Whether the rank order is reversed now (option ``reversal``: an odd number of
        fours of a kind played this deal; the kernel's ``reversed``)."""
        return self.state.reversed

    @property
    def round_left(self) -> list[int]:
        """``once-around``: seats still to answer the lead (the kernel's ``round_left``)."""
        return self.state.round_left

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
        the deal is over.

        The kernel's rule (:func:`president.kernel.legal_actions`) on the suits held: on an
        empty pile every set of 1–4 cards of one held rank; on a pile every set of exactly
        the pile's count of a rank that beats it (:func:`~president.kernel.follow_ranks`, in
        the current order under ``reversal``). The plays come from the tables of
        :mod:`president.actions`, two ranks at a time; that loop runs in C when the compiled
        copy is built (``president._playout.list_plays``, the same list; the Python loop
        below is the fallback and the reference)."""
        k = self.state
        seat = k.to_act
        if seat < 0:
            return []
        hand = self.hands[seat]
        need = k.need
        # two ranks (eight bits of the hand) at a time, low to high, until none is left
        if need == 0:
            if _LIST_PLAYS_C is not None:
                return _LIST_PLAYS_C(PAIR_ALL, hand, 0, 13, None)
            table = PAIR_ALL
            r = 0
        else:
            ranks = FOLLOW_RANKS[k.reversed][k.strict][k.top]
            if _LIST_PLAYS_C is not None:
                return _LIST_PLAYS_C(PAIR_BY_COUNT[need], hand, ranks.start, ranks.stop, PASS)
            r = ranks.start
            hand = (hand >> (r << 2)) & ((1 << ((ranks.stop - r) << 2)) - 1)
            table = PAIR_BY_COUNT[need]
        acts: list[Play | Pass] = []
        while hand:
            byte = hand & 255
            if byte:
                acts.extend(table[r][byte])
            hand >>= 8
            r += 2
        if need == 0:
            return acts
        acts.append(PASS)
        return acts

    def refusal(self, seat: int, action: object) -> IllegalAction | None:
        """The one legality check: ``None`` if ``seat`` may take ``action`` now, else the
        :class:`IllegalAction` (not raised) saying why (the kernel's
        :func:`~president.kernel.may_pass` and :func:`~president.kernel.beats`, on the
        cards held; ``beats`` as ``rank in follow_ranks(top, strict, reversed)``)."""
        k = self.state
        if k.to_act < 0:
            return IllegalAction("deal-over", "the deal is over; no one plays until the next deal")
        if seat != k.to_act:
            if isinstance(seat, int) and 0 <= seat < self.players and k.ncards[seat] == 0:
                return IllegalAction("not-your-turn", f"seat {seat} has gone out and takes no "
                                     f"more turns this deal; it is seat {k.to_act}'s turn")
            return IllegalAction("not-your-turn", f"it is seat {k.to_act}'s turn, not seat {seat}'s")
        return self._refusal_of_turn(action)

    def _refusal_of_turn(self, action: object) -> IllegalAction | None:
        """The rest of :meth:`refusal` once the seat is known to be the one to act (the deal
        goes on): :meth:`president.match.Match.act` calls it after making sure of that, to
        check a play or pass without checking the seat twice. Same answers as
        :meth:`refusal`."""
        k = self.state
        seat = k.to_act
        need = k.need
        if action is PASS:
            if not may_pass(need):
                return IllegalAction("cannot-pass-lead", "the pile is empty, so you lead and "
                                     "must play a single, pair, triple or quad; you cannot pass")
            return None
        if not isinstance(action, Play):
            if isinstance(action, Give):
                return IllegalAction("wrong-phase", "there is no exchange now; play cards or pass")
            return IllegalAction("bad-notation", f"{shown(action)} is not a play or a pass")
        if action.mask & ~self.hands[seat]:
            missing = format_mask(action.mask & ~self.hands[seat])
            return IllegalAction("not-in-hand", f"you do not hold {missing}")
        if need:
            if action.count != need:
                top = self.pile[-1][1]
                return IllegalAction("wrong-count", f"the pile is a {top.kind} "
                                     f"({top}); play exactly {need} card"
                                     f"{'s' if need > 1 else ''} of one rank or pass")
            ranks = FOLLOW_RANKS[k.reversed][k.strict][k.top]
            if action.rank not in ranks:  # kernel.beats
                top = self.pile[-1][1]
                words = ("lower than" if k.strict else "equal to or lower than") if k.reversed \
                    else "higher than" if k.strict else "equal to or higher than"
                why = " (four of a kind has reversed the rank order)" if k.reversed else ""
                answer = (f"play a rank {words} {top.rank.symbol} or pass" if ranks
                          else "nothing beats it, so pass")
                return IllegalAction("not-higher", f"{action.describe()} does not beat "
                                     f"{top.describe()}; {answer}{why}")
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
        :meth:`legal_actions`). An illegal action here corrupts the state.

        The kernel's :meth:`~president.kernel.PlayState.play` or
        :meth:`~president.kernel.PlayState.pass_` decides what happens; this method moves
        the cards and turns the kernel's outcome into events."""
        self.history.append((seat, action))
        k = self.state
        if action is PASS:
            events: list[Event] = [_PASSED[seat]]
            outcome = k.pass_(seat)
        else:
            play: Play = action  # type: ignore[assignment]  # not PASS: a Play (no isinstance here, the hot path)
            key = (play.mask << 4) | (seat << 1) | (k.need == 0)
            played = _PLAYED.get(key)
            if played is None:
                played = _PLAYED[key] = Played(seat, play, k.need == 0)
            events = [played]
            self.hands[seat] ^= play.mask
            self.pile.append((seat, play))
            outcome = k.play(seat, play.rank, play.count)
            if not k.ncards[seat]:
                place = k.finish.index(seat) + 1
                events.append(WentOut(seat, place, title_for_place(place, self.players,
                                                                    naming=self.rules.titles)))
        if outcome == ENDED:
            self._end(events)
        elif outcome:
            for _, p in self.pile:
                self.cleared |= p.mask
            self.pile = []
            reason = CLEAR_REASONS[outcome]
            assert reason is not None   # every outcome but GOES_ON and ENDED clears
            events.append(PileCleared(reason, k.last, k.to_act))
        nxt = k.to_act  # as _sync, written out: this runs at every action
        self.to_act = None if nxt < 0 else nxt
        self.over = nxt < 0
        self.passed = k.passed
        return events

    def settle(self, order: Sequence[int]) -> list[Event]:
        """End a deal played with real cards by its finishing order: ``order`` lists every
        seat once, first out first (docs/rules.md "End of the deal"; source
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
            given = list(order) if isinstance(order, (list, tuple)) else order
            raise IllegalAction("bad-order", f"the finishing order {shown(given)} must name every seat "
                                f"0 to {n - 1} exactly once, first out first")
        events: list[Event] = []
        finish = self.state.finish
        for s in order[:-1]:
            finish.append(s)
            place = len(finish)
            events.append(WentOut(s, place, title_for_place(place, n, naming=self.rules.titles)))
        finish.append(order[-1])
        self.state.to_act = -1
        self._sync()
        self._end(events)
        return events

    def _end(self, events: list[Event]) -> None:
        # The finishing order is complete (the kernel's, or settle's): points and titles.
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
        totals = tuple(t + p for t, p in zip(self.totals_before, points, strict=True))
        events.append(DealEnded(tuple(self.finish_order), self.points, totals, tuple(titles)))

    # ----- state snapshots ----------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
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
