"""The fast play-out policies: how each seat chooses while a :class:`~president.search.
playout_state.FastDeal` is played to its end.

- :func:`random_playout`: uniformly among the legal actions;
- :func:`greedy_playout`: the ``simple`` player's idea with a little noise;
- :func:`climbing_playout`: the ``intermediate`` player's main habits, with noise;
- :func:`heuristic_choice`: the ``intermediate`` player's heuristics themselves, on counts
  (the player's whole choice adds an exact solve of two-player endgames:
  :func:`president.search.endgame.intermediate_choice`, above the play-outs, which the
  solver's compiled copy is part of); :func:`choice_playout` plays a deal out with such a
  choice at every decision;
- :func:`mixed_playout`: each seat in a style of its own (``intermediate``, ``simple`` or
  ``random``), as the expert's worlds model the other seats;
- :func:`playout` plays a deal out with a policy named in :data:`PLAYOUTS`.

A policy only chooses; every change of the state goes through the kernel's transitions
(:meth:`~president.kernel.PlayState.play` and :meth:`~president.kernel.PlayState.pass_`,
directly or through :meth:`FastDeal.apply <president.search.playout_state.FastDeal.apply>`).
The compiled play-outs (:mod:`president.search.compiled`) restate the random, greedy,
climbing, intermediate and mixed ones draw for draw.

>>> import random
>>> from president import Rules
>>> fd = FastDeal.shuffled(Rules.preset("practice"), seed=3)
>>> order = random_playout(fd, random.Random(1))
>>> sorted(order), fd.over
([0, 1, 2, 3], True)
"""

from __future__ import annotations

import random
from typing import Callable

from ..kernel import (ENDED, FOLLOW_RANKS, PASS, completes_rank, first_rank_to_follow,
                      follow_masks, follow_ranks)
from .playout_state import FastDeal

#: The lowest rank (0 = three) of a single (a king) and of a pair or larger set (jacks) that
#: the ``intermediate`` player keeps as a control (:func:`is_high`); the player's module
#: exports them.
HIGH_SINGLE = 10
HIGH_SET = 8

__all__ = ["PLAYOUTS", "random_playout", "greedy_playout", "climbing_playout",
           "heuristic_choice", "choice_playout", "simple_code", "mixed_playout",
           "MIXED_STYLES", "playout", "HIGH_SINGLE", "HIGH_SET", "is_high"]


def random_playout(deal: FastDeal, rng: random.Random) -> list[int]:
    """Play ``deal`` (in place) to its end with every seat choosing uniformly among its
    legal action ints; returns the finishing order (seats).

    The choice is ``legal_actions()[int(rng.random() * len(legal_actions()))]``, drawn
    only when there is more than one legal action (a forced pass or a last card takes no
    draw), made on per-seat masks of the ranks held k times or more and the kernel's
    :func:`~president.kernel.follow_masks` (which ranks beat the pile, in the current order)
    without listing the actions. Every transition is the kernel's: a play is
    :meth:`~president.kernel.PlayState.play`, a pass :meth:`~president.kernel.PlayState.pass_`
    (under ``reversal`` the kernel flips ``deal.reversed`` there, and the masks follow it). ``tests/test_compiled.py`` and ``tests/test_fastsim.py`` check that the same
    generator gives the same game as :meth:`FastDeal.apply` step by step, over every rules
    value.
    """
    seat = deal.to_act
    if seat < 0:
        return deal.finish
    random_ = rng.random
    play = deal.play
    pass_ = deal.pass_
    hands = deal.hands
    ncards = deal.ncards
    strict = deal.strict
    reversal = deal.reversal
    need = deal.need
    # at_least[seat][k]: bit mask of the ranks of which the seat holds k cards or more
    at_least = []
    for h in hands:
        a1 = a2 = a3 = a4 = 0
        bit = 1
        for k in h:
            if k:
                a1 |= bit
                if k > 1:
                    a2 |= bit
                    if k > 2:
                        a3 |= bit
                        if k > 3:
                            a4 |= bit
            bit <<= 1
        at_least.append([0, a1, a2, a3, a4])
    rev = deal.reversed
    above = follow_masks(strict, rev)
    while True:
        if need == 0:  # a lead: the options are (rank, 1..held) by rank, ncards of them
            hand = hands[seat]
            i = int(random_() * ncards[seat]) if ncards[seat] > 1 else 0
            rank = 0
            while i >= hand[rank]:
                i -= hand[rank]
                rank += 1
            count = i + 1
        else:
            avail = at_least[seat][need] & above[deal.top]
            nopts = avail.bit_count()
            i = int(random_() * (nopts + 1)) if nopts else 0
            if i == nopts:  # pass (a pass never ends the deal)
                pass_(seat)
                seat = deal.to_act
                need = deal.need
                continue
            while i:
                avail &= avail - 1
                i -= 1
            rank = (avail & -avail).bit_length() - 1
            count = need
            hand = hands[seat]
        # a play of ``count`` cards of ``rank``: the cards leave the hand and its masks
        a = at_least[seat]
        bit = ~(1 << rank)
        k = hand[rank]
        a[k] &= bit
        if count > 1:
            for j in range(k - count + 1, k):
                a[j] &= bit
        hand[rank] = k - count
        if play(seat, rank, count) == ENDED:
            return deal.finish
        if reversal and deal.reversed != rev:  # the kernel reversed the order
            rev = deal.reversed
            above = follow_masks(strict, rev)
        seat = deal.to_act
        need = deal.need


def greedy_playout(deal: FastDeal, rng: random.Random, epsilon: float = 0.1) -> list[int]:
    """Play ``deal`` (in place) to its end with the fast playout policy; returns the
    finishing order (seats).

    The policy, per seat: on a lead, play every card of the lowest rank held (with chance
    ``epsilon`` the whole set of another rank, chosen at random); when following, beat with
    the lowest rank held in exactly the pile's count (no broken sets), passing otherwise;
    a two (rank 12) is kept unless it wins the deal out or nothing else is left to lead
    with. It is the ``simple`` player's idea with a little noise, so search sees varied
    opponents. While the order is reversed (``reversal``) "lowest" and "two" are read in
    the current order: the highest rank held goes first and the three (rank 0) is kept.
    """
    rand = rng.random
    apply = deal.apply
    hands = deal.hands
    ncards = deal.ncards
    strict = deal.strict
    reversal = deal.reversal
    while True:
        seat = deal.to_act
        if seat < 0:
            return deal.finish
        hand = hands[seat]
        need = deal.need
        if reversal and deal.reversed:
            apply(_greedy_reversed(deal, hand, need, ncards[seat], rand, epsilon))
            continue
        if need == 0:
            if rand() < epsilon:
                ranks = [r for r in range(13) if hand[r]]
                r = ranks[int(rand() * len(ranks))]
            else:
                r = 0
                while not hand[r]:
                    r += 1
            apply(r * 4 + hand[r] - 1)
            continue
        r = first_rank_to_follow(deal.top, strict)
        act = PASS
        while r < 13:
            k = hand[r]
            if k == need:
                if r < 12 or ncards[seat] == need or ncards[seat] - hand[12] == 0 \
                        or rand() < epsilon:
                    act = r * 4 + need - 1
                break
            r += 1
        apply(act)


def _greedy_reversed(deal: FastDeal, hand: list[int], need: int, mine: int,
                     rand: Callable[[], float], epsilon: float) -> int:
    # greedy_playout's choice in reversed order: ranks read from the two down to the three
    if need == 0:
        if rand() < epsilon:
            ranks = [r for r in range(13) if hand[r]]
            r = ranks[int(rand() * len(ranks))]
        else:
            r = 12
            while not hand[r]:
                r -= 1
        return r * 4 + hand[r] - 1
    for r in reversed(follow_ranks(deal.top, deal.strict, True)):
        if hand[r] == need:
            if r > 0 or mine == need or mine - hand[0] == 0 or rand() < epsilon:
                return r * 4 + need - 1
            break
    return PASS


def climbing_playout(deal: FastDeal, rng: random.Random, epsilon: float = 0.05) -> list[int]:
    """Play ``deal`` (in place) to its end with the ``intermediate`` player's main habits;
    returns the finishing order (seats).

    Per seat: on a lead, every card of the lowest rank held (with chance ``epsilon`` the
    whole set of a random rank); when following, the lowest rank held in exactly the pile's
    count, else the lowest larger set broken to fit (twos excepted); twos are spent only
    when at most one other rank would be left or an opponent holds two cards or fewer.
    While the order is reversed (``reversal``) "lowest" and "two" are read in the current
    order: ranks from the two down, and the three (rank 0) is the card kept back.
    """
    rand = rng.random
    apply = deal.apply
    hands = deal.hands
    ncards = deal.ncards
    strict = deal.strict
    reversal = deal.reversal
    n = deal.players
    while True:
        seat = deal.to_act
        if seat < 0:
            return deal.finish
        hand = hands[seat]
        need = deal.need
        if reversal and deal.reversed:
            apply(_climbing_reversed(deal, seat, hand, need, rand, epsilon))
            continue
        if need == 0:
            if rand() < epsilon:
                ranks = [r for r in range(13) if hand[r]]
                r = ranks[int(rand() * len(ranks))]
            else:
                r = 0
                while not hand[r]:
                    r += 1
            apply(r * 4 + hand[r] - 1)
            continue
        start = first_rank_to_follow(deal.top, strict)
        act = PASS
        broken = -1
        for r in range(start, 12):
            k = hand[r]
            if k == need:
                act = r * 4 + need - 1
                break
            if k > need and broken < 0:
                broken = r
        if act == PASS:
            if broken >= 0:
                act = broken * 4 + need - 1
            elif start <= 12 and hand[12] >= need:  # a two beats the pile
                mine = ncards[seat]
                if mine == need or mine - hand[12] == 0:
                    act = 48 + need - 1
                else:
                    left = sum(1 for r in range(12) if hand[r])
                    danger = min((ncards[s] for s in range(n) if s != seat and ncards[s]),
                                 default=99) <= 2
                    if left <= 1 or danger:
                        act = 48 + need - 1
        apply(act)


def _climbing_reversed(deal: FastDeal, seat: int, hand: list[int], need: int,
                       rand: Callable[[], float], epsilon: float) -> int:
    # climbing_playout's choice in reversed order: ranks read from the two down to the
    # three, the three (rank 0, the highest card now) kept back as the two is
    if need == 0:
        if rand() < epsilon:
            ranks = [r for r in range(13) if hand[r]]
            r = ranks[int(rand() * len(ranks))]
        else:
            r = 12
            while not hand[r]:
                r -= 1
        return r * 4 + hand[r] - 1
    stop = follow_ranks(deal.top, deal.strict, True).stop  # ranks 0 .. stop - 1 beat the pile
    broken = -1
    for r in range(stop - 1, 0, -1):
        k = hand[r]
        if k == need:
            return r * 4 + need - 1
        if k > need and broken < 0:
            broken = r
    if broken >= 0:
        return broken * 4 + need - 1
    if stop > 0 and hand[0] >= need:  # a three beats the pile
        ncards = deal.ncards
        mine = ncards[seat]
        if mine == need or mine - hand[0] == 0:
            return need - 1
        left = sum(1 for r in range(1, 13) if hand[r])
        danger = min((ncards[s] for s in range(deal.players) if s != seat and ncards[s]),
                     default=99) <= 2
        if left <= 1 or danger:
            return need - 1
    return PASS


def is_high(rank: int, count: int) -> bool:
    """Whether a set of ``count`` cards of ``rank`` (0 = three … 12 = two) is high enough
    for the ``intermediate`` player to keep as a control: a single king or higher, a pair
    (or more) of jacks or higher."""
    return rank >= (HIGH_SINGLE if count == 1 else HIGH_SET)


def heuristic_choice(deal: FastDeal, tot: list[int], break_sets: bool = True,
                     keep_controls: bool = True) -> int:
    """The ``intermediate`` player's heuristics (:mod:`president.players.intermediate`) for
    the seat to act, on counts: the one statement of them (the player reads its observation
    into this form and calls it; the compiled play-outs restate it in C). ``tot`` is the
    cards per rank still in all hands together, so the cards hidden from the seat are
    ``tot[r] - hand[r]``, exactly what that seat could count from its own observation.

    This is the player's choice without its exact solve of two-player endgames: the solver
    (:mod:`president.search.endgame`) sits above the play-outs, and
    :func:`president.search.endgame.intermediate_choice` adds the solve, as the player does.

    While the order is reversed (``reversal``) the heuristics read the position in the
    current order: rank ``r`` then plays as rank ``12 - r`` does in normal order, so the
    choice is made on the mirrored position.

    ``break_sets`` and ``keep_controls`` are the player's options of the same names (see
    :class:`~president.players.intermediate.IntermediatePlayer`); the play-outs use the
    defaults.

    Returns:
        The action int (``rank * 4 + count - 1``, or ``PASS``) for ``deal.to_act``.
    """
    if deal.reversed:
        # In reversed order rank r plays as rank 12 - r does in normal order (kernel.beats):
        # choose on the mirrored position and mirror the choice back.
        m = deal.copy([h[::-1] for h in deal.hands])
        m.reversed = False
        if m.top >= 0:
            m.top = 12 - m.top
        code = heuristic_choice(m, tot[::-1], break_sets, keep_controls)
        return code if code < 0 else (12 - (code >> 2)) * 4 + (code & 3)
    seat = deal.to_act
    hand = deal.hands[seat]
    need = deal.need
    strict = deal.strict
    if need:
        start = first_rank_to_follow(deal.top, strict)
        fit = -1
        broken = -1
        for r in range(start, 13):
            k = hand[r]
            if k == need:
                fit = r
                break
            if need < k < 4 and broken < 0:  # never break four of a kind
                broken = r
        if fit < 0:
            if broken < 0 or not break_sets:
                return PASS
            fit = broken
        elif deal.ncards[seat] == need:
            return fit * 4 + need - 1  # goes out
    ncards = deal.ncards
    lor = deal.lor
    most = 0
    least = 99
    for s in range(deal.players):
        if s != seat:
            k = ncards[s]
            if k > most:
                most = k
            if k and k < least:
                least = k
    # top[k]: the highest rank of which some other seat may hold k cards (-1 if none);
    # a play of k cards of rank r can be beaten iff most >= k and top[k] beats r.
    tops = [-1, -1, -1, -1, -1]
    for q in range(12, -1, -1):
        h = tot[q] - hand[q]
        while h > 0 and tops[h] < 0:
            tops[h] = q
            h -= 1
    edge = first_rank_to_follow(0, strict)  # rank r is beaten by the ranks r + edge and up
    if need == 0:
        held = [r for r in range(13) if hand[r]]
        if len(held) == 1:
            r = held[0]
            return r * 4 + hand[r] - 1
        winners = []
        losers = []
        for r in held:
            k = hand[r]
            if k == 4 or most < k or tops[k] < r + edge:
                winners.append(r)
            else:
                losers.append(r)
        if winners and len(losers) <= 1:
            r = winners[0]
        elif least == 1:
            sets = [r for r in losers if hand[r] >= 2]
            r = sets[0] if sets else losers[-1]
        else:
            r = losers[0]
        return r * 4 + hand[r] - 1
    # following: ``fit`` is the lowest rank held in exactly the pile's count, or else the
    # lowest larger set but a four (broken); the intermediate player considers only it
    r = fit
    if not keep_controls:
        return r * 4 + need - 1
    top = deal.top
    completes = lor and completes_rank(r, need, top, deal.same)
    high = r >= (HIGH_SINGLE if need == 1 else HIGH_SET)
    if r != 12 and not completes and not high and most >= need and tops[need] >= r + edge:
        return r * 4 + need - 1
    if least <= 2:
        return r * 4 + need - 1
    n_losers = 0
    controls = 0
    for q in range(13):
        k = hand[q] - need if q == r else hand[q]
        if not k:
            continue
        if q == 12 or q >= (HIGH_SINGLE if k == 1 else HIGH_SET) or (lor and k == 4) \
                or most < k or tops[k] < q + edge:
            controls += 1
        else:
            n_losers += 1
    if n_losers <= controls + 1:
        return r * 4 + need - 1
    return PASS




def choice_playout(deal: FastDeal, choose: Callable[[FastDeal, list[int]], int]) -> list[int]:
    """Play ``deal`` (in place) to its end with every seat choosing by ``choose(deal, tot)``
    (``tot``: the cards per rank still in all hands together, kept up to date), for instance
    :func:`heuristic_choice`: every seat plays as the ``intermediate`` player would without
    its endgame solve. Returns the finishing order (seats)."""
    tot = [sum(h[r] for h in deal.hands) for r in range(13)]
    apply = deal.apply
    while deal.to_act >= 0:
        a = choose(deal, tot)
        if a >= 0:
            tot[a >> 2] -= (a & 3) + 1
        apply(a)
    return deal.finish


def simple_code(deal: FastDeal) -> int:
    """The ``simple`` player's choice for the seat to act, on counts: the one statement of
    its rule (:class:`~president.players.simple.SimplePlayer` reads its observation into
    this form and calls it). On a lead every card of its lowest rank; when following, the
    lowest rank held in exactly the pile's count that beats it, else the lowest rank that
    beats it (a set broken), else a pass. "Lowest" is by rank number (three first) in
    either order, so while four of a kind has reversed the order (``reversal``) it answers
    with its strongest set, as the player always has."""
    hand = deal.hands[deal.to_act]
    need = deal.need
    if not need:
        r = 0
        while not hand[r]:
            r += 1
        return r * 4 + hand[r] - 1
    broken = -1
    for r in FOLLOW_RANKS[deal.reversed][deal.strict][deal.top]:  # low to high, either order
        k = hand[r]
        if k == need:
            return r * 4 + need - 1
        if k > need and broken < 0:
            broken = r
    return broken * 4 + need - 1 if broken >= 0 else PASS


MIXED_STYLES = ("intermediate", "simple", "random")
"""The styles of :func:`mixed_playout`, by index (the expert's :data:`~president.players.
expert.STYLES`)."""


def mixed_playout(deal: FastDeal, styles: list[int] | tuple[int, ...],
                  rng: random.Random) -> list[int]:
    """Play ``deal`` (in place) to its end with each seat ``s`` in its own style
    ``styles[s]``, an index into :data:`MIXED_STYLES`: 0 the ``intermediate`` player's
    heuristic choice (:func:`heuristic_choice`), 1 the
    ``simple`` player's (:func:`simple_code`), 2 a uniformly random legal action (one
    ``rng.random()`` at each of that seat's decisions, even a forced one: the action at
    index ``int(rng.random() * len(legal))`` of :meth:`FastDeal.legal_actions`). Seats of
    the first two styles draw nothing. Normal rank order only (the expert's worlds never
    use it under ``reversal``). Returns the finishing order (seats).

    Raises:
        ValueError: ``styles`` not one index 0–2 per seat.
    """
    if len(styles) != deal.players or any(st not in (0, 1, 2) for st in styles):
        raise ValueError(f"styles {list(styles)!r}: give one of 0 (intermediate), 1 (simple) "
                         f"or 2 (random) for each of the {deal.players} seats")
    if deal.reversed or deal.reversal:
        raise ValueError("mixed_playout plays in normal rank order only (no reversal twist)")
    tot = [sum(h[r] for h in deal.hands) for r in range(13)]
    apply = deal.apply
    while deal.to_act >= 0:
        style = styles[deal.to_act]
        if style == 0:
            a = heuristic_choice(deal, tot)
        elif style == 1:
            a = simple_code(deal)
        else:
            legal = deal.legal_actions()
            a = legal[int(rng.random() * len(legal))]
        if a >= 0:
            tot[a >> 2] -= (a & 3) + 1
        apply(a)
    return deal.finish


PLAYOUTS: dict[str, Callable[[FastDeal, random.Random], list[int]]] = {
    "greedy": greedy_playout, "climbing": climbing_playout, "random": random_playout}
"""The play-out policies by name, as :func:`playout` takes them (each with its default noise;
:mod:`president.search.compiled` names the same three)."""


def playout(deal: FastDeal, rng: random.Random, policy: str = "greedy") -> list[int]:
    """Play ``deal`` out in place with ``policy`` (``"greedy"``, ``"climbing"`` or ``"random"``,
    the names of :data:`PLAYOUTS`).

    Raises:
        ValueError: for another policy name.
    """
    run = PLAYOUTS.get(policy)
    if run is None:
        raise ValueError(f"no playout policy {policy!r}; use 'greedy', 'climbing' or 'random'")
    return run(deal, rng)
