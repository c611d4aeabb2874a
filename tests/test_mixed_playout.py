"""The mixed play-out (each seat in a style of its own: ``intermediate``, ``simple`` or
``random``), in Python (``playout_policies.mixed_playout``, the reference) and compiled
(president/native/_mixed.h via ``president.players.compiled.mixed_playout``):

- each style plays as its own policy: a seat of style 0 takes exactly the ``intermediate``
  heuristic choice, style 1 the ``simple`` choice, style 2 a random legal action (one draw
  per decision);
- the compiled play-out takes the same actions, ends in the same state, gives the same
  finishing order and leaves the generator in the same state as the Python one, for every
  rules value of the registries (but ``reversal``, which both refuse) at every table size,
  and for every mixture of styles.
"""

from __future__ import annotations

import itertools
import random

import pytest

from president import Rules
from president.players import compiled
from president.players.fastsim import FastDeal
from president.players.playout_policies import (intermediate_choice, mixed_playout,
                                                simple_code)

from tests.helpers import compiled_rules, fast_state, needs_compiled, twist_pairs

needs_c = needs_compiled(compiled.AVAILABLE)

ALL_RULES = compiled_rules()
IDS = [f"{r.name}-{r.players}" for r in ALL_RULES]
#: Each preset with each pair of its twists (the list above has them one at a time).
PAIRS = twist_pairs()
PAIR_IDS = [f"{r.name}-{r.players}" for r in PAIRS]


def _tot(fd: FastDeal) -> list[int]:
    return [sum(h[r] for h in fd.hands) for r in range(13)]


def _styles(n: int, seed: int) -> list[int]:
    return [random.Random(seed * 7 + s).randrange(3) for s in range(n)]


def test_each_seat_plays_its_own_style():
    """Replaying the Python play-out's actions, every action is its seat's style's choice:
    the intermediate heuristic, the simple choice, or the random draw's index."""
    rules = Rules.preset("house", players=4)
    styles = [0, 1, 2, 0]
    for seed in range(20):
        fd = FastDeal.shuffled(rules, seed, dealer=3)
        replay = fd.copy()
        rng = random.Random(seed)
        draws = random.Random(seed)
        finish, actions = compiled.traced_mixed_playout(fd, rng, styles, pure=True)
        for a in actions:
            style = styles[replay.to_act]
            if style == 0:
                assert a == intermediate_choice(replay, _tot(replay), endgame_limit=0)
            elif style == 1:
                assert a == simple_code(replay)
            else:
                legal = replay.legal_actions()
                assert a == legal[int(draws.random() * len(legal))]
            replay.apply(a)
        assert replay.over and replay.finish == finish == fd.finish
        assert rng.getstate() == draws.getstate()   # one draw per random-style decision


def test_all_intermediate_is_the_intermediate_playout_and_draws_nothing():
    rules = Rules.preset("first-night", players=5)
    for seed in range(10):
        a = FastDeal.shuffled(rules, seed, dealer=seed % 5)
        b = a.copy()
        rng = random.Random(seed)
        before = rng.getstate()
        assert mixed_playout(a, [0] * 5, rng) == compiled.intermediate_playout(b, pure=True)
        assert rng.getstate() == before


def test_bad_styles_and_reversal_are_refused():
    fd = FastDeal.shuffled(Rules.preset("house", players=4), 1)
    with pytest.raises(ValueError, match=r"one of 0 \(intermediate\), 1 \(simple\) or 2"):
        mixed_playout(fd.copy(), [0, 1, 2], random.Random(0))
    with pytest.raises(ValueError, match="one of 0"):
        mixed_playout(fd.copy(), [0, 1, 2, 3], random.Random(0))
    rev = FastDeal.shuffled(Rules.parse("house+reversal", players=4), 1)
    with pytest.raises(ValueError, match="normal rank order"):
        mixed_playout(rev, [0, 0, 0, 0], random.Random(0))


@needs_c
@pytest.mark.parametrize("rules", ALL_RULES + PAIRS, ids=IDS + PAIR_IDS)
def test_compiled_equals_python(rules):
    """20 deals per rules value, each from a position some actions in, every seat in a
    style drawn per deal (and every seat random, every seat simple): same actions, same
    end state, same generator state."""
    n = rules.players
    mixes = [_styles(n, k) for k in range(18)] + [[2] * n, [1] * n]
    for seed, styles in enumerate(mixes):
        fd = FastDeal.shuffled(rules, seed * 31 + n, dealer=seed % n)
        walk = random.Random(seed)
        for _ in range(seed % 9):   # start some deals mid-way
            if fd.over:
                break
            legal = fd.legal_actions()
            fd.apply(legal[int(walk.random() * len(legal))])
        if fd.over:
            continue
        py, c = fd.copy(), fd.copy()
        r1, r2 = random.Random(seed), random.Random(seed)
        f1, a1 = compiled.traced_mixed_playout(py, r1, styles, pure=True)
        f2, a2 = compiled.traced_mixed_playout(c, r2, styles)
        assert a2 == a1
        assert f2 == f1
        assert fast_state(c) == fast_state(py)
        assert r2.getstate() == r1.getstate()
        c2 = fd.copy()
        assert compiled.mixed_playout(c2, random.Random(seed), styles) == f1


@needs_c
def test_compiled_refuses_bad_styles():
    fd = FastDeal.shuffled(Rules.preset("house", players=4), 2)
    for bad in ([0, 1, 2], [0, 1, 2, 5], [0, -1, 0, 0]):
        with pytest.raises(ValueError):
            compiled.mixed_playout(fd.copy(), random.Random(0), bad)


def test_every_style_combination_finishes_every_seat():
    rules = Rules.preset("first-night", players=3)
    for styles in itertools.product(range(3), repeat=3):
        fd = FastDeal.shuffled(rules, sum(styles), dealer=2)
        finish = compiled.mixed_playout(fd, random.Random(1), list(styles))
        assert sorted(finish) == [0, 1, 2] and fd.over
