"""Worlds drawn by Markov chains: deals of the hidden cards in proportion to how well they
explain the other seats' play, for the expert's search (``chain_steps``; ``master`` uses it).

The expert samples each world independently (:func:`~president.search.worlds.sample_world`:
every deal of the hidden cards consistent with what its seat knows is equally likely) and
weighs it by the likelihood of the other seats' play this deal under their style mixture.
Those likelihoods are sharp: after a few actions of the other seats nearly all the weight
sits on a handful of the thousands of worlds sampled, and the search's verdict rests on
those few. The weighting itself is right: the heavy worlds are the ones closest to the
real deal (against three experts, the weighted worlds put 65% of the hidden cards in the
right seat, unweighted ones 51%); what is missing is enough of them.

:class:`WorldChains` draws worlds in proportion to that same weight instead (the
Metropolis-Hastings algorithm): several chains start from worlds drawn by weight from an
independent sample; each step picks two other seats and one hidden card of each that the
seat is not known to hold (each such card equally likely), swaps them when both seats
may hold what they get (caps and floors from the exchange), and keeps the swap with
chance ``min(1, new weight / old weight)``. Swapping two cards is its own reverse and
equally likely both ways, so the worlds the chains visit come, in the long run, in
proportion to their weight (``exp(logweight)``; the expert passes the weight squared)
under the uniform deal of the hidden cards: each drawn world counts once, unweighted.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

__all__ = ["WorldChains"]


class WorldChains:
    """Metropolis-Hastings chains over deals of the hidden cards (see the module docstring).

    Args:
        cons: the observing seat's constraints (:func:`~president.search.worlds.
            seat_constraints`): ``me``, ``known`` (ranks each seat must hold), ``cap`` and
            ``floor`` per seat.
        starts: the chains' first worlds, hands as counts per rank per seat (copied), each
            consistent with ``cons``; one chain per world.
        logweight: log of a world's weight (any constant offset), from its hands.
        rng: the generator of proposals and acceptances.
        steps: swaps tried per world drawn, >= 1.
        burn_in: swaps tried on each chain before its first world is drawn, >= 0.

    Raises:
        ValueError: no start, or ``steps`` below 1 or ``burn_in`` below 0.
    """

    def __init__(self, cons: dict, starts: list[list[list[int]]],  # type: ignore[type-arg]
                 logweight: Callable[[list[list[int]]], float], rng: random.Random,
                 steps: int, burn_in: int = 0) -> None:
        if not starts:
            raise ValueError("the chains need at least one starting world")
        if not isinstance(steps, int) or steps < 1:
            raise ValueError(f"steps = {steps!r} must be a whole number of swaps, 1 or more")
        if not isinstance(burn_in, int) or burn_in < 0:
            raise ValueError(f"burn_in = {burn_in!r} must be a whole number of swaps, 0 or "
                             "more")
        me = cons["me"]
        n = len(cons["cap"])
        self.known = [[0] * 13 for _ in range(n)]
        for s in range(n):
            for r in cons["known"][s]:
                self.known[s][r] += 1
        self.cap = cons["cap"]
        self.floor = cons.get("floor") or [0] * n
        # seats with cards that could move: hidden cards beyond the known ones
        first = starts[0]
        self.seats = [s for s in range(n) if s != me
                      and sum(first[s]) > sum(self.known[s])]
        self.logweight = logweight
        self.rng = rng
        self.steps = steps
        self.chains = [[list(h) for h in w] for w in starts]
        self.weights = [logweight(w) for w in self.chains]
        self.next_chain = 0
        self.tried = 0
        self.accepted = 0
        if len(self.seats) >= 2:
            for k in range(len(self.chains)):
                for _ in range(burn_in):
                    self._step(k)

    def _free_card(self, hand: list[int], known: list[int]) -> int:
        """A rank drawn with chance proportional to the seat's cards of that rank that it
        is not known to hold (one card drawn uniformly among them)."""
        total = 0
        for r in range(13):
            total += hand[r] - known[r]
        x = self.rng.randrange(total)
        for r in range(13):
            x -= hand[r] - known[r]
            if x < 0:
                return r
        raise AssertionError("unreachable: x < total")

    def _step(self, k: int) -> None:
        """One proposed swap on chain ``k``, kept with the Metropolis-Hastings chance."""
        rng = self.rng
        w = self.chains[k]
        a, b = rng.sample(self.seats, 2)
        ra = self._free_card(w[a], self.known[a])
        rb = self._free_card(w[b], self.known[b])
        self.tried += 1
        if ra == rb:
            self.accepted += 1  # the same world: a swap that changes nothing is kept
            return
        if not (self.floor[a] <= rb <= self.cap[a] and self.floor[b] <= ra <= self.cap[b]):
            return  # a seat may not hold that card: the proposal is refused
        w[a][ra] -= 1
        w[a][rb] += 1
        w[b][rb] -= 1
        w[b][ra] += 1
        lw = self.logweight(w)
        old = self.weights[k]
        if lw >= old or rng.random() < math.exp(lw - old):
            self.weights[k] = lw
            self.accepted += 1
            return
        w[a][ra] += 1  # refused: undo
        w[a][rb] -= 1
        w[b][rb] += 1
        w[b][ra] -= 1

    def draw(self) -> list[list[int]]:
        """The next world: the next chain in turn, moved ``steps`` proposed swaps on.
        Returns a copy of its hands (counts per rank per seat)."""
        k = self.next_chain
        self.next_chain = (k + 1) % len(self.chains)
        if len(self.seats) >= 2:
            for _ in range(self.steps):
                self._step(k)
        return [list(h) for h in self.chains[k]]
