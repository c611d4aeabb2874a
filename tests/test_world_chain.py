"""Markov chains over the hidden cards (president/search/world_chain.py): in the long run
they draw each deal of the hidden cards in proportion to (number of card-level deals it
stands for) x weight, keep to what the seat knows, and refuse bad settings."""

from __future__ import annotations

import math
import random
from collections import Counter
from itertools import product

import pytest

from president import Match, Rules
from president.players.expert import ExpertPlayer, sample_world, seat_constraints
from president.players.world_chain import WorldChains


def _cons(need: list[int], pool: list[int], *, cap: list[int] | None = None,
          floor: list[int] | None = None, known: list[list[int]] | None = None) -> dict:
    n = len(need)
    return {"me": 0, "own": [0] * 13, "known": known or [[] for _ in range(n)],
            "pool": pool, "need": need, "cap": cap or [12] * n, "floor": floor or [0] * n}


def _key(hands: list[list[int]]) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(h) for h in hands)


def test_the_chains_draw_deals_in_proportion_to_their_weight():
    """Seats 1 to 3 hold 2 hidden cards each out of two 3s, two 5s, a 9 and a king; the
    weight favours seat 1 holding the king (e^1.5) and seat 2 holding both 5s (e^1). Over
    60,000 draws every deal's share is within 0.01 of its exact probability: its number
    of card-level deals times its weight, normalised."""
    pool = [0, 0, 2, 2, 6, 10]
    need = [0, 2, 2, 2]

    def lw(hands: list[list[int]]) -> float:
        return 1.5 * hands[1][10] + 1.0 * (hands[2][2] == 2)

    exact: dict = {}
    cards = list(range(len(pool)))  # card identities; rank pool[c]
    for seats in product((1, 2, 3), repeat=len(cards)):
        if any(seats.count(s) != 2 for s in (1, 2, 3)):
            continue
        hands = [[0] * 13 for _ in range(4)]
        for c, s in zip(cards, seats, strict=True):
            hands[s][pool[c]] += 1
        exact[_key(hands)] = exact.get(_key(hands), 0.0) + math.exp(lw(hands))
    total = sum(exact.values())
    rng = random.Random(3)
    cons = _cons(need, pool)
    starts = [sample_world(cons, rng) for _ in range(8)]  # type: ignore[arg-type]
    chains = WorldChains(cons, starts, lw, rng, steps=2, burn_in=20)
    draws = 60_000
    seen = Counter(_key(chains.draw()) for _ in range(draws))
    assert set(seen) <= set(exact)
    worst = max(abs(seen[k] / draws - v / total) for k, v in exact.items())
    assert worst < 0.01, worst
    assert 0 < chains.accepted < chains.tried == draws * 2 + 8 * 20


def test_the_chains_keep_to_what_the_seat_knows():
    """A seat capped at rank 5 (it handed over its highest cards) holds no hidden card
    above it, a seat with a floor none below it, and known cards stay with their holder,
    at every draw, even under a weight that pulls the other way."""
    pool = [0, 1, 3, 5, 7, 8, 9, 11, 12, 12]
    cons = _cons([0, 4, 3, 3], pool, cap=[12, 5, 12, 12], floor=[0, 0, 3, 0],
                 known=[[], [], [], [12]])
    rng = random.Random(5)
    start = [[0] * 13 for _ in range(4)]
    for seat, ranks in ((1, [0, 1, 3, 5]), (2, [7, 8, 9]), (3, [11, 12, 12, 12])):
        for r in ranks:
            start[seat][r] += 1
    starts = [start, [list(h) for h in start]]

    def pull(hands: list[list[int]]) -> float:  # likes seat 1 high, seat 2 low
        return 0.5 * sum(r * hands[1][r] for r in range(13)) - 0.5 * sum(
            r * hands[2][r] for r in range(13))

    chains = WorldChains(cons, starts, pull, rng, steps=3, burn_in=5)
    for _ in range(3000):
        w = chains.draw()
        assert sum(w[1]) == 4 and sum(w[2]) == 3 and sum(w[3]) == 4
        assert not any(w[1][r] for r in range(6, 13))
        assert not any(w[2][r] for r in range(0, 3))
        assert w[3][12] >= 1
    assert chains.accepted > 100


def test_a_real_seat_constraint_is_kept():
    """On real observations of house 4p deals, every drawn world gives each other seat its
    card count and keeps what sample_world keeps."""
    m = Match(Rules.parse("house", players=4, match_end="single-deal"), seed=8,
              record_events=False)
    bot = ExpertPlayer(seed=1, playouts=50, time_limit=None)
    rng = random.Random(1)
    checked = 0
    while m.to_act is not None:
        seat = m.to_act
        obs = m.observation(seat)
        cons = seat_constraints(obs)
        starts = [sample_world(cons, rng) for _ in range(2)]
        chains = WorldChains(cons, starts, lambda h: rng.random(),  # type: ignore[arg-type]
                             rng, steps=2)
        for _ in range(20):
            w = chains.draw()
            for s in range(4):
                if s != seat:
                    assert sum(w[s]) == obs.hand_counts[s]
            for r in range(13):
                assert sum(w[s][r] for s in range(4)) == sum(starts[0][s][r] for s in range(4))
            checked += 1
        m.act(seat, bot.act(obs))
    assert checked > 200


@pytest.mark.parametrize("kwargs,needle", [({"steps": 0}, "steps = 0"),
                                           ({"steps": 1, "burn_in": -1}, "burn_in = -1")])
def test_bad_chain_settings_are_refused(kwargs, needle):
    cons = _cons([0, 1, 1], [0, 1])
    with pytest.raises(ValueError, match=needle):
        WorldChains(cons, [[[0] * 13, [1] + [0] * 12, [0, 1] + [0] * 11]], lambda h: 0.0,
                    random.Random(0), **kwargs)
    with pytest.raises(ValueError, match="at least one starting world"):
        WorldChains(cons, [], lambda h: 0.0, random.Random(0), steps=1)
    with pytest.raises(ValueError, match="chain_steps = -1"):
        ExpertPlayer(chain_steps=-1)
