"""Worlds: deals of the cards hidden from one seat, consistent with what that seat knows.

A seat in play sees its own hand, every card played this deal and the exchanges it took
part in (docs/rules.md, "Information"). :func:`seat_constraints` reads from its
:class:`~president.observation.Observation` everything that bounds the other hands: each
seat's card count, the cards this seat gave it (still held unless played since), the cap
of a seat that had to give this seat its highest cards and, under ``give_back = lowest``,
the floor of a seat that gave it cards back. :func:`sample_world` deals the hidden cards
uniformly among the deals that meet them, and :class:`~president.search.world_chain.
WorldChains` draws deals in proportion to a weight instead. The expert and master
players search over such worlds.

Hands are counts per rank (13 ints, 0 = three … 12 = two) per seat.

>>> import random
>>> from president import Match, Rules
>>> match = Match(Rules.preset("practice"), seed=4)
>>> obs = match.observation(match.to_act)
>>> cons = seat_constraints(obs)
>>> hands = sample_world(cons, random.Random(1))
>>> [sum(h) for h in hands] == list(obs.hand_counts)
True
>>> hands[obs.seat] == cons["own"]
True
"""

from __future__ import annotations

import random
from typing import NotRequired, TypedDict

from ..actions import Play
from ..cards import Card
from ..observation import Observation
from .knowledge import rank_counts

__all__ = ["SeatConstraints", "seat_constraints", "sample_world", "shuffle"]


class SeatConstraints(TypedDict):
    """What :func:`seat_constraints` gives :func:`sample_world` (see there)."""

    me: int
    own: list[int]
    known: list[list[int]]
    pool: list[int]
    need: list[int]
    cap: list[int]
    floor: NotRequired[list[int]]


def seat_constraints(obs: Observation) -> SeatConstraints:
    """What the observing seat knows of the other hands, for :func:`sample_world`:
    ``own`` (its hand by rank), ``known`` (per seat, ranks of cards it must hold: cards
    this seat gave it in the exchange, that it has not played and that it did not give
    back), ``pool`` (ranks of the other hidden cards), ``need`` (per seat, how many hidden
    cards it holds beyond the known ones), ``cap`` (per seat, the highest rank it can hold
    among hidden cards: 12 unless it had to give this seat its highest cards) and
    ``floor`` (per seat, the lowest such rank: 0 unless it gave this seat cards back under
    ``give_back = lowest``, which were its lowest when it gave them; it has received
    nothing since)."""
    n = obs.players
    me = obs.seat
    own = rank_counts(obs.hand)
    played_cards: set[Card] = set()
    for _, action in obs.history:
        if isinstance(action, Play):
            played_cards.update(action.cards)
    known: list[list[int]] = [[] for _ in range(n)]
    cap = [12] * n
    held = set(obs.hand)
    for giver, receiver, cards in obs.exchanges:
        if giver == me and receiver != me:
            # a card handed back to this seat afterwards is in its own hand, not theirs
            known[receiver].extend(c.rank for c in cards
                                   if c not in played_cards and c not in held)
    floor = [0] * n
    step_forced = _forced_givers(obs)
    for giver, cards in step_forced:
        cap[giver] = min(cap[giver], min(c.rank for c in cards))
    if obs.rules.give_back == "lowest":
        for giver, cards in _given_back(obs):
            floor[giver] = max(floor[giver], max(c.rank for c in cards))
    counts = [4 - own[r] for r in range(13)]
    for c in played_cards:
        counts[c.rank] -= 1
    for s in range(n):
        for r in known[s]:
            counts[r] -= 1
    pool = [r for r in range(13) for _ in range(counts[r])]
    need = [0 if s == me else obs.hand_counts[s] - len(known[s]) for s in range(n)]
    # cards this seat gave to a capped seat may be above its cap: they are in `known`.
    return {"me": me, "own": own, "known": known, "pool": pool, "need": need, "cap": cap,
            "floor": floor}


def _forced_givers(obs: Observation) -> list[tuple[int, tuple[Card, ...]]]:
    """(giver, cards) of exchanges in which another seat handed this seat its highest cards
    (the observation's ``exchanges_forced``)."""
    return [(giver, cards) for (giver, receiver, cards), forced
            in zip(obs.exchanges, obs.exchanges_forced, strict=True)
            if forced and receiver == obs.seat and giver != obs.seat]


def _given_back(obs: Observation) -> list[tuple[int, tuple[Card, ...]]]:
    """(giver, cards) of exchanges in which another seat gave this seat cards back (the gives
    that were not forced)."""
    return [(giver, cards) for (giver, receiver, cards), forced
            in zip(obs.exchanges, obs.exchanges_forced, strict=True)
            if not forced and receiver == obs.seat and giver != obs.seat]


def shuffle(x: list[int], rng: random.Random) -> None:
    """Shuffle ``x`` in place exactly as ``rng.shuffle(x)`` does for a
    :class:`random.Random` (CPython 3.8 and later: Fisher–Yates from the end, each index
    drawn by ``getrandbits`` of its bit length with rejection): the same order and the
    generator left in the same state, at about half the cost (no method call per draw)."""
    getrandbits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def sample_world(cons: SeatConstraints, rng: random.Random) -> list[list[int]]:
    """One deal of the hidden cards to the other seats, consistent with ``cons`` (from
    :func:`seat_constraints`): every seat gets exactly its count, known cards stay with
    their holder, no seat gets a card above its cap or below its floor, and no card the
    observing seat holds or has seen played is placed anywhere. Returns hands as counts per
    rank, per seat.

    Raises:
        ValueError: if the constraints cannot be met (they always can for a real deal).
    """
    me = cons["me"]
    need = cons["need"][:]
    cap = cons["cap"]
    floor = cons.get("floor") or [0] * len(need)
    n = len(need)
    hands = [[0] * 13 for _ in range(n)]
    hands[me] = cons["own"][:]
    for s in range(n):
        for r in cons["known"][s]:
            hands[s][r] += 1
    pool = cons["pool"][:]
    shuffle(pool, rng)
    bounded = [s for s in range(n) if s != me and (cap[s] < 12 or floor[s] > 0) and need[s]]
    if bounded:
        # Cards some bounded seat cannot hold go first, each to a seat that can (in a real
        # exchange one seat at most is bounded, so the others always have room for them).
        low = min(cap[s] for s in bounded)
        high_floor = max(floor[s] for s in bounded)
        high = [r for r in pool if r > low or r < high_floor]
        rest = [r for r in pool if high_floor <= r <= low]
        for r in high:
            seats = [s for s in range(n)
                     if s != me and need[s] and floor[s] <= r <= cap[s]]
            weights = [need[s] for s in seats]
            if not seats:
                raise ValueError("no seat can hold a hidden card of rank "
                                 f"{r}: the constraints contradict each other")
            s = rng.choices(seats, weights)[0]
            hands[s][r] += 1
            need[s] -= 1
        pool = rest
    i = 0
    for s in range(n):
        k = need[s]
        if s == me or not k:
            continue
        h = hands[s]
        for r in pool[i:i + k]:
            h[r] += 1
        i += k
    if i != len(pool):
        raise ValueError(f"{len(pool)} hidden cards for {i} places in the other hands")
    return hands
