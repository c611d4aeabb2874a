"""The state of a fast play-out: one deal on counts per rank instead of cards.

Suits never matter in the play of a deal (docs/rules.md, "Deck"), so a hand here is 13 small
ints, the number of cards held of each rank (index 0 = three … 12 = two), and an action is
one int:

============  =========================================================
``PASS``      ``-1``
a play        ``rank * 4 + count - 1`` (``rank`` 0..12, ``count`` 1..4)
============  =========================================================

The actions, what may be played and what a play or a pass does are the rules kernel's
(:mod:`president.kernel`), which :class:`president.deal.Deal` plays on too: :class:`FastDeal`
is the kernel's :class:`~president.kernel.PlayState` with the hands, for every ``beat``,
``passing``, ``last_of_rank_clears`` and ``reversal`` (a four of a kind flips the rank order
as in the engine); ``tests/test_fastsim.py`` plays random games on both and checks they agree
action by action. It has no exchange, scoring or events. The policies that play it out are in
:mod:`president.search.playout_policies`; :mod:`president.search.fastsim` gathers both.

>>> from president import Rules
>>> fd = FastDeal.shuffled(Rules.preset("practice"), seed=3)
>>> fd.ncards, fd.to_act, len(fd.legal_actions()) == sum(fd.hands[0])
([13, 13, 13, 13], 0, True)
"""

from __future__ import annotations

import random
from typing import Sequence

from ..deal import Deal, deal_hands
from ..kernel import (PASS, PASSING, PlayState, clears_of, decode, encode, legal_actions, mode_of,
                      strict_of)
from ..rules import Rules

__all__ = ["PASS", "FastDeal", "encode", "decode", "counts_of_mask"]

_DECK_RANKS = tuple(i >> 2 for i in range(52))
_MODES = {value: mode for mode, value in enumerate(PASSING)}  # as president.kernel.mode_of


def counts_of_mask(mask: int) -> list[int]:
    """Cards held per rank (13 ints) of a 52-bit card mask."""
    return [((mask >> (4 * r)) & 15).bit_count() for r in range(13)]


class FastDeal(PlayState):
    """The play of one deal on counts per rank (see the module docstring): the kernel's
    :class:`~president.kernel.PlayState` with every seat's hand.

    Attributes (mutable; ``copy`` before exploring): those of
    :class:`~president.kernel.PlayState` (``players``, ``ncards``, ``to_act`` (``-1`` once
    the deal is over), ``need``, ``top``, ``same``, ``last``, ``passes``, ``passed``,
    ``round_left``, ``finish``, ``strict``, ``mode``, ``clears``, ``reversal`` (the option,
    from the rules) and ``reversed`` (the current order)), and
        hands: per seat, a list of 13 counts per rank.
    """

    __slots__ = ("players", "hands", "ncards", "to_act", "need", "top", "same", "last",
                 "passes", "passed", "round_left", "finish", "strict", "mode", "clears",
                 "reversal", "reversed")

    def __init__(self, rules: Rules, hands: Sequence[Sequence[int]], leader: int) -> None:
        n = rules.players
        if len(hands) != n:
            raise ValueError(f"{len(hands)} hands given for {n} players; give one per seat")
        if not 0 <= leader < n:
            raise ValueError(f"leader seat {leader} does not exist; seats are 0 to {n - 1}")
        self.hands = [list(h) for h in hands]
        for seat, h in enumerate(self.hands):
            if len(h) != 13 or any(not 0 <= c <= 4 for c in h):
                raise ValueError(f"hand of seat {seat} must be 13 counts of 0 to 4 cards, not {h}")
        PlayState.__init__(self, n, [sum(h) for h in self.hands], leader,
                           strict=strict_of(rules.beat), mode=mode_of(rules.passing),
                           clears=clears_of(rules))
        self.reversal = bool(rules.reversal)
        self.reversed = False

    @classmethod
    def from_deal(cls, deal: Deal) -> "FastDeal":
        """A fast copy of an engine deal at its start (full information: only for tests,
        benchmarks and research; a player never sees other hands).

        Raises:
            ValueError: if the deal has already begun (its history is not empty).
        """
        if deal.history:
            raise ValueError("from_deal takes a deal before its first action")
        return cls(deal.rules, [counts_of_mask(h) for h in deal.hands], deal.leader)

    @classmethod
    def shuffled(cls, rules: Rules, seed: int, dealer: int | None = None) -> "FastDeal":
        """The deal :meth:`president.deal.Deal.shuffled` would give for ``seed``."""
        n = rules.players
        dealer = n - 1 if dealer is None else dealer
        return cls(rules, [counts_of_mask(h) for h in deal_hands(n, dealer, seed)],
                   (dealer + 1) % n)

    @classmethod
    def random(cls, rules: Rules, rng: random.Random, leader: int = 0) -> "FastDeal":
        """A deal of a shuffled deck straight into counts per rank (faster than
        :meth:`shuffled`, for play-out loops; not the engine's deal for any seed). The
        first seats dealt to from ``leader`` clockwise get the extra cards."""
        n = rules.players
        deck = list(_DECK_RANKS)
        rng.shuffle(deck)
        hands = [[0] * 13 for _ in range(n)]
        seat = leader
        for r in deck:
            hands[seat][r] += 1
            seat += 1
            if seat == n:
                seat = 0
        return cls(rules, hands, leader)

    def copy(self, hands: Sequence[Sequence[int]] | None = None) -> "FastDeal":
        """An independent copy; with ``hands`` (counts per rank per seat, copied), the same
        state with those hands instead (a sampled world of the hidden cards)."""
        c = object.__new__(FastDeal)
        c.players = self.players
        c.hands = [list(h) for h in (self.hands if hands is None else hands)]
        c.ncards = self.ncards[:]
        c.to_act = self.to_act
        c.need = self.need
        c.top = self.top
        c.same = self.same
        c.last = self.last
        c.passes = self.passes
        c.passed = self.passed
        c.round_left = self.round_left[:]
        c.finish = self.finish[:]
        c.strict = self.strict
        c.mode = self.mode
        c.clears = self.clears
        c.reversal = self.reversal
        c.reversed = self.reversed
        return c

    @property
    def over(self) -> bool:
        """Whether the deal has ended (one player left holding cards)."""
        return self.to_act < 0

    def legal_actions(self) -> list[int]:
        """Legal action ints of the seat to act (:func:`president.kernel.legal_actions`):
        plays by rank then count, then ``PASS`` when passing is allowed (never on an empty
        pile). Empty once the deal is over."""
        if self.to_act < 0:
            return []
        return legal_actions(self.hands[self.to_act], self.need, self.top, self.strict,
                             self.reversed)

    def apply(self, action: int) -> None:
        """Take ``action`` for the seat to act: the kernel's :meth:`~president.kernel.
        PlayState.play` or :meth:`~president.kernel.PlayState.pass_`, and the cards leave
        the hand. Unchecked: the action must come from :meth:`legal_actions` (an illegal
        one corrupts the state)."""
        seat = self.to_act
        if action < 0:
            self.pass_(seat)
        else:
            rank = action >> 2
            count = (action & 3) + 1
            self.hands[seat][rank] -= count
            self.play(seat, rank, count)
