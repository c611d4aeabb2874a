"""The compiled ``intermediate`` policy and style likelihoods (president/native/_intermediate.h via
president.players.compiled) agree with their Python originals:

- the choice of one decision equals ``playout_policies.intermediate_choice(deal, tot,
  endgame_limit=0)`` in random positions of random deals;
- a whole play-out takes the same actions, ends in the same state and gives the same
  finishing order as ``intermediate_playout(deal, endgame_limit=0)``;
- the expert's style likelihoods are the same floats as the Python replay.

Every rules value comes from the registries (every preset, alone and with each twist, at every
table size it allows) except the ``reversal`` twist, which the compiled code hands to Python
(checked separately: same results through the fallback). The Python side is the reference.
"""

from __future__ import annotations

import random

import pytest

from president import Match, Rules
from president.players import compiled, expert
from president.players.expert import (STYLE_NOISE, _replay_rows, sample_world,
                                      seat_constraints, style_likelihoods)
from president.players.fastsim import FastDeal
from president.players.intermediate import IntermediatePlayer
from president.players.playout_policies import intermediate_choice, intermediate_playout, simple_code
from president.players.random_player import RandomPlayer
from president.players.simple import SimplePlayer

from tests.helpers import compiled_rules, fast_state, needs_compiled, twist_pairs  # noqa: E402

needs_c = needs_compiled(compiled.AVAILABLE)


ALL_RULES = compiled_rules()
IDS = [f"{r.name}-{r.players}" for r in ALL_RULES]
#: Each preset with each pair of its twists (the list above has them one at a time).
PAIRS = twist_pairs()
PAIR_IDS = [f"{r.name}-{r.players}" for r in PAIRS]
_state = fast_state


def _tot(fd: FastDeal) -> list[int]:
    return [sum(h[r] for h in fd.hands) for r in range(13)]


def _walk(fd: FastDeal, rng: random.Random, steps: int) -> None:
    """``steps`` actions of mixed policies (random legal, or the intermediate choice), so
    that positions of every kind come up: the deal is changed in place."""
    for _ in range(steps):
        if fd.over:
            return
        if rng.random() < 0.5:
            legal = fd.legal_actions()
            fd.apply(legal[int(rng.random() * len(legal))])
        else:
            fd.apply(intermediate_choice(fd, _tot(fd), endgame_limit=0))


def test_registries_give_every_option_and_size():
    assert {r.players for r in ALL_RULES} == {3, 4, 5, 6, 7}
    assert {r.passing for r in ALL_RULES} == {"re-enter", "sit-out", "once-around"}
    assert {r.beat for r in ALL_RULES} == {"higher", "equal-or-higher"}
    assert {r.last_of_rank_clears for r in ALL_RULES} == {True, False}


@needs_c
@pytest.mark.parametrize("rules", ALL_RULES, ids=IDS)
def test_choice_equals_python_in_every_position(rules):
    """At every position of 30 deals per rules value, played by a mix of random and
    intermediate choices, the compiled choice is the Python one (two-seat endgames
    included: both without the solve)."""
    n = rules.players
    checked = 0
    for seed in range(30):
        fd = FastDeal.shuffled(rules, seed * 13 + n, dealer=seed % n)
        rng = random.Random(seed)
        while not fd.over:
            tot = _tot(fd)
            before = _state(fd)
            want = intermediate_choice(fd, tot, endgame_limit=0)
            got = compiled.intermediate_choice(fd, tot)
            assert got == want, (rules.name, n, seed, before)
            assert _state(fd) == before  # the choice changes nothing
            assert compiled.intermediate_choice(fd, tot, pure=True) == want
            checked += 1
            _walk(fd, rng, 1)
    assert checked > 30 * 20


@needs_c
@pytest.mark.parametrize("rules", ALL_RULES + PAIRS, ids=IDS + PAIR_IDS)
def test_playout_same_actions_order_and_state(rules):
    """Whole play-outs from the start and from random positions part-way through: the
    compiled play-out's actions, finishing order and final state are the Python ones."""
    n = rules.players
    for seed in range(25):
        base = FastDeal.shuffled(rules, seed * 7 + 3 * n, dealer=(seed + 1) % n)
        _walk(base, random.Random(seed), seed % 5 * 8)  # 0 to 32 steps first
        py, c, ref = base.copy(), base.copy(), base.copy()
        py_finish, py_actions = compiled.traced_playout(py, random.Random(0), "intermediate",
                                                        pure=True)
        c_finish, c_actions = compiled.trace(c, random.Random(0), "intermediate")
        assert c_actions == py_actions, (rules.name, n, seed)
        assert c_finish == py_finish and sorted(c_finish) == list(range(n))
        assert intermediate_playout(ref, endgame_limit=0) == c_finish
        assert _state(c) == _state(ref) == _state(py)
        again = base.copy()
        assert compiled.playout(again, random.Random(1), "intermediate") == c_finish
        assert compiled.traced_playout(base.copy(), random.Random(1),
                                       "intermediate") == (c_finish, c_actions)


def test_whole_deals_with_the_intermediate_policy():
    """random_deals with ``policy="intermediate"``: compiled or pure, the same orders and
    the same generator state (the deals are drawn, the play-outs draw nothing)."""
    for rules in ALL_RULES[::5]:
        r1, r2 = random.Random(4), random.Random(4)
        a = compiled.random_deals(rules, r1, 20, policy="intermediate", leader=1)
        b = compiled.random_deals(rules, r2, 20, policy="intermediate", leader=1, pure=True)
        assert a == b and r1.getstate() == r2.getstate()


def test_reversal_takes_the_python_path():
    """Under the ``reversal`` twist the compiled entry points answer with the Python code."""
    for name in ("house", "family"):
        rules = Rules.preset(name, players=5, twists=("reversal",))
        for seed in range(10):
            fd = FastDeal.shuffled(rules, seed)
            _walk(fd, random.Random(seed), 20)
            if fd.over:
                continue
            tot = _tot(fd)
            assert compiled.intermediate_choice(fd, tot) == \
                intermediate_choice(fd, tot, endgame_limit=0)
            ref = fd.copy()
            assert compiled.intermediate_playout(fd) == intermediate_playout(ref, endgame_limit=0)
            assert _state(fd) == _state(ref)
        assert compiled.style_rows(rules, [[1] * 13] * 5, 0, [], [1], STYLE_NOISE) is None


@needs_c
def test_bad_inputs_are_refused():
    rules = Rules.preset("house", players=4)
    fd = FastDeal.shuffled(rules, 2)
    with pytest.raises(ValueError, match="does not fit the hand"):
        compiled.intermediate_choice(fd, [9] * 13)
    fd.hands[1][0] += 1
    fd.ncards[1] += 1
    with pytest.raises(ValueError, match="the hands hold 5 cards of rank 0"):
        compiled.intermediate_playout(fd)
    start = [h[:] for h in FastDeal.shuffled(rules, 2).hands]
    bad = [(0, 51 if start[0][12] < 4 else 0)]  # four twos not held
    with pytest.raises(ValueError, match="history action 0 is not legal"):
        compiled.style_rows(rules, start, 0, bad if start[0][12] < 4 else [(0, -1)], [1], 0.1)


# ----- style likelihoods -------------------------------------------------------------------

def _history_of(fd: FastDeal, rng: random.Random, stop_at_two: bool) -> list[tuple[int, int]]:
    """Actions of a deal played by a mix of random, simple-like and intermediate choices,
    as (seat, action); with ``stop_at_two`` it stops once only two seats hold cards."""
    hist = []
    while not fd.over and not (stop_at_two and fd.players - len(fd.finish) <= 2):
        seat = fd.to_act
        x = rng.random()
        if x < 0.3:
            legal = fd.legal_actions()
            a = legal[int(rng.random() * len(legal))]
        elif x < 0.5:
            a = simple_code(fd)
        else:
            a = intermediate_choice(fd, _tot(fd), endgame_limit=0)
        hist.append((seat, a))
        fd.apply(a)
    return hist


@needs_c
@pytest.mark.parametrize("rules", ALL_RULES, ids=IDS)
def test_style_rows_equal_the_python_replay(rules):
    """Full-information replays of random histories (up to two seats left), every prefix
    length in turn: the compiled rows are the Python rows, float for float."""
    n = rules.players
    for seed in range(6):
        fd = FastDeal.shuffled(rules, seed * 5 + n, dealer=seed % n)
        start = [h[:] for h in fd.hands]
        leader = fd.to_act
        hist = _history_of(fd, random.Random(seed), stop_at_two=True)
        for cut in range(0, len(hist) + 1, 3):
            part = hist[:cut]
            seats = [s for s in range(n) if (s + seed) % 3]
            got = compiled.style_rows(rules, start, leader, part, seats, STYLE_NOISE)
            assert got == _replay_rows(rules, start, leader, part, seats), (rules.name, n, seed,
                                                                             cut)


@needs_c
def test_style_rows_leave_two_seat_choices_to_python():
    """A seat with a choice while only two seats hold cards: the compiled replay declines
    (the Python intermediate choice solves that endgame) and style_likelihoods still gives
    the Python rows."""
    rules = Rules.preset("house", players=4)
    declined = 0
    for seed in range(10):
        fd = FastDeal.shuffled(rules, seed)
        start = [h[:] for h in fd.hands]
        hist = _history_of(fd, random.Random(seed), stop_at_two=False)
        seats = sorted({s for s, _ in hist[-6:]})
        got = compiled.style_rows(rules, start, 0, hist, seats, STYLE_NOISE)
        want = _replay_rows(rules, start, 0, hist, seats)
        if got is None:
            declined += 1
        else:
            assert got == want
        played = [[0] * 13 for _ in range(4)]
        hands = [h[:] for h in start]
        for s, a in hist:
            if a >= 0:
                played[s][a >> 2] += (a & 3) + 1
                hands[s][a >> 2] -= (a & 3) + 1
        assert style_likelihoods(rules, hands, played, 0, hist, 0, seats) == want
    assert declined >= 5


def _positions(rules: Rules, seed: int):
    """Observations of the seats of a match of mixed levels, at every decision with a
    choice (what the expert searches from)."""
    n = rules.players
    m = Match(rules, seed=seed, record_events=False)
    kinds = [IntermediatePlayer, SimplePlayer, RandomPlayer]
    players = [kinds[(s + seed) % 3](seed=s) for s in range(n)]
    while m.to_act is not None:
        s = m.to_act
        obs = m.observation(s)
        if len(obs.legal_actions) > 1:
            yield obs
        m.act(s, players[s].act(obs))


@needs_c
@pytest.mark.parametrize("spec,players", [("house", 4), ("first-night", 5), ("family", 6),
                                          ("first-night", 3), ("house", 7)])
def test_style_likelihoods_equal_python_on_sampled_worlds(spec, players):
    """The expert's own inputs: positions of real matches, worlds sampled from each seat's
    constraints, the other live seats scored (with and without the cache): compiled and
    Python rows are equal."""
    from president.players.playout_state import encode
    from president.actions import Play

    rules = Rules.preset(spec, players=players)
    compared = 0
    for seed in range(3):
        for obs in _positions(rules, seed):
            me = obs.seat
            live = [s for s, k in enumerate(obs.hand_counts) if s != me and k]
            if len(live) < 2:
                continue
            history = [(s, encode(a.rank, a.count) if isinstance(a, Play) else -1)
                       for s, a in obs.history]
            played = [[0] * 13 for _ in range(players)]
            for s, a in obs.history:
                if isinstance(a, Play):
                    played[s][a.rank] += a.count
            cons = seat_constraints(obs)
            rng = random.Random(seed)
            cache_c: dict = {}
            cache_py: dict = {}
            for _ in range(3):
                hands = sample_world(cons, rng)
                want = style_likelihoods(rules, hands, played, obs.leader, history, me, live,
                                         pure=True)
                assert style_likelihoods(rules, hands, played, obs.leader, history, me,
                                         live) == want
                assert style_likelihoods(rules, hands, played, obs.leader, history, me, live,
                                         cache_c) == want == \
                    style_likelihoods(rules, hands, played, obs.leader, history, me, live,
                                      cache_py, pure=True)
                compared += 1
    assert compared > 50


# ----- the expert on the compiled intermediate play-out ----------------------------------

def test_expert_intermediate_style_plays_the_intermediate_playout():
    """A world of the ``intermediate`` style (and ``policy="intermediate"``) is played by
    the intermediate play-out: the expert's place there is the Python play-out's."""
    from president.players.expert import ExpertPlayer

    rules = Rules.preset("house", players=5)
    for kwargs in ({}, {"policy": "intermediate", "styles": None}):
        bot = ExpertPlayer(seed=1, time_limit=None, **kwargs)
        for seed in range(20):
            fd = FastDeal.shuffled(rules, seed)
            _walk(fd, random.Random(seed), seed % 4 * 6)
            if fd.over:
                continue
            me = fd.to_act
            ref = fd.copy()
            want = intermediate_playout(ref, endgame_limit=0).index(me) + 1
            assert bot._place(fd.copy(), me, 0, 0.5) == want


@pytest.mark.parametrize("policy", ["mixture", "intermediate"])
def test_expert_chooses_alike_compiled_and_pure(policy, monkeypatch):
    """The whole search on a play-out budget: the same choices with the extension and with
    the Python code alone (every compiled path gives the Python results)."""
    from president.players.expert import ExpertPlayer

    rules = Rules.preset("house", players=4)
    styles = None if policy == "intermediate" else expert.STYLE_PRIOR
    obs_list = list(_positions(rules, 1))[:12]
    runs = []
    for ext in (compiled._ext, None):
        monkeypatch.setattr(compiled, "_ext", ext)
        bot = ExpertPlayer(seed=3, playouts=60, time_limit=None, policy=policy, styles=styles)
        runs.append(([bot.act(o) for o in obs_list], bot.stats["playouts"]))
    assert runs[0] == runs[1] and runs[0][1] > 100
