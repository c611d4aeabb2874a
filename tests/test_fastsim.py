"""The fast play-out engine agrees with the rules engine (president.deal.Deal).

Random games are played on both at once with the same actions; after every action the seat
to act, the cards held and the legal actions (as rank and count) must agree, and at the end
the finishing order. Every passing mode, both beat rules, last-of-rank clears and 3–7 seats.
"""

from __future__ import annotations

import random

import pytest

from president import PASS, Rules
from president.rules import PRESETS, TWISTS
from president.deal import Deal
from president.players import fastsim
from president.players.fastsim import FastDeal, counts_of_mask, decode, encode

# Every preset alone and with each of its twists, from the registries (a new twist is
# checked here without a change: this is the test that compares FastDeal's legality with
# the engine's).
RULESETS = [(name, ()) for name in PRESETS] + \
    [(name, (twist,)) for name in PRESETS for twist in TWISTS[name]]


def _engine_actions_by_rank(deal: Deal) -> dict[int, object]:
    out = {}
    for a in deal.legal_actions():
        out[fastsim.PASS if a is PASS else encode(a.rank, a.count)] = a
    return out


def _play_both(rules: Rules, seed: int) -> None:
    deal = Deal.shuffled(rules, seed, dealer=seed % rules.players)
    fd = FastDeal.from_deal(deal)
    rng = random.Random(seed)
    steps = 0
    while not deal.over:
        engine = _engine_actions_by_rank(deal)
        fast = fd.legal_actions()
        assert sorted(fast) == sorted(engine), (rules.name, seed, steps)
        assert len(fast) == len(set(fast))
        assert fd.to_act == deal.to_act
        assert fd.ncards == deal.counts
        assert fd.hands == [counts_of_mask(h) for h in deal.hands]
        # favour passes a little so piles clear in every way, including by passes
        act = fastsim.PASS if fastsim.PASS in fast and rng.random() < 0.3 else rng.choice(fast)
        deal.apply(deal.to_act, engine[act])
        fd.apply(act)
        steps += 1
        assert fd.need == (deal.pile_count), (rules.name, seed, steps)
    assert fd.over and fd.to_act == -1
    assert fd.finish == deal.finish_order
    assert fd.legal_actions() == []


@pytest.mark.parametrize("preset,twists,players", [
    (preset, twists, players) for preset, twists in RULESETS for players in (3, 4, 5, 7)
    if PRESETS[preset][0] <= players <= PRESETS[preset][1]])
def test_agrees_with_engine_on_random_games(preset, twists, players):
    rules = Rules.preset(preset, players=players, twists=twists)
    for seed in range(12):
        _play_both(rules, seed * 7919 + players)


def test_shuffled_matches_the_engine_deal():
    rules = Rules.preset("house", players=5)
    deal = Deal.shuffled(rules, 42)
    fd = FastDeal.shuffled(rules, 42)
    assert fd.hands == [counts_of_mask(h) for h in deal.hands]
    assert fd.to_act == deal.to_act == 0
    assert fd.ncards == [11, 11, 10, 10, 10]


def test_encode_decode_round_trip():
    for r in range(13):
        for k in range(1, 5):
            assert decode(encode(r, k)) == (r, k)
    assert len({encode(r, k) for r in range(13) for k in range(1, 5)}) == 52


def test_last_of_rank_clears_and_leader_plays_again():
    rules = Rules.preset("first-night", players=4)
    # seat 0: two 9s and a 3; seat 1: two 9s and a 4; others low cards
    hands = [[0] * 13 for _ in range(4)]
    hands[0][6], hands[0][0] = 2, 1
    hands[1][6], hands[1][1] = 2, 1
    hands[2][2] = 3
    hands[3][3] = 3
    fd = FastDeal(rules, hands, leader=0)
    fd.apply(encode(6, 2))            # pair of nines
    assert fd.to_act == 1
    fd.apply(encode(6, 2))            # the other two nines: all four on the pile
    assert fd.need == 0 and fd.to_act == 1   # cleared, seat 1 leads again


def test_copy_is_independent():
    fd = FastDeal.shuffled(Rules.preset("practice"), seed=9)
    c = fd.copy()
    fastsim.random_playout(c, random.Random(0))
    assert c.over and not fd.over
    assert sum(fd.ncards) == 52


@pytest.mark.parametrize("policy", ["greedy", "climbing", "random"])
def test_playouts_finish_with_every_seat_placed(policy):
    rules = Rules.preset("family", players=6, twists=("once-around",))
    for seed in range(20):
        fd = FastDeal.shuffled(rules, seed)
        order = fastsim.playout(fd, random.Random(seed), policy)
        assert sorted(order) == list(range(6))
        assert sum(1 for n in fd.ncards if n) == 1


def test_bad_input_is_refused_with_the_reason():
    rules = Rules.preset("house")
    with pytest.raises(ValueError, match="4 players"):
        FastDeal(rules, [[1] * 13] * 3, leader=0)
    with pytest.raises(ValueError, match="13 counts"):
        FastDeal(rules, [[5] + [0] * 12] * 4, leader=0)
    with pytest.raises(ValueError, match="policy"):
        fastsim.playout(FastDeal.shuffled(rules, 1), random.Random(0), "clever")


@pytest.mark.parametrize("spec,players", [("house", 4), ("house+sit-out", 5),
                                          ("family+once-around", 4), ("family+equal-plays", 6),
                                          ("first-night", 3), ("first-night", 5)])
def test_intermediate_choice_matches_the_intermediate_player(spec, players):
    """The play-out copy of the intermediate player chooses the same rank and count as
    the player itself, from the seat's own observation, at every decision."""
    from president import Match
    from president.players.intermediate import IntermediatePlayer

    rules = Rules.parse(spec, players=players)
    bot = IntermediatePlayer()
    for seed in range(4):
        m = Match(rules, seed=seed, record_events=False)
        fd = FastDeal(rules, [counts_of_mask(h) for h in m.deal.hands], m.deal.to_act)
        while m.to_act is not None:
            tot = [sum(h[r] for h in fd.hands) for r in range(13)]
            code = fastsim.intermediate_choice(fd, tot)
            a = bot.act(m.observation(m.to_act))
            assert code == (fastsim.PASS if a is PASS else encode(a.rank, a.count))
            m.act(m.to_act, a)
            fd.apply(code)
        assert fd.finish == list(m.deal.finish_order)


@pytest.mark.parametrize("spec,players", [("house", 4), ("house+sit-out", 5),
                                          ("family+once-around", 6), ("first-night", 3),
                                          ("first-night", 7), ("family+equal-plays", 4)])
def test_random_playout_is_the_same_game_as_apply(spec, players):
    """random_playout chooses on rank masks without listing the actions (for speed); with the
    same generator it must play the same game as legal_actions() + apply() step by step."""
    rules = Rules.parse(spec, players=players)
    for seed in range(25):
        fast = FastDeal.shuffled(rules, seed)
        slow = fast.copy()
        order = fastsim.random_playout(fast, random.Random(seed))
        rng = random.Random(seed)
        while not slow.over:
            legal = slow.legal_actions()
            slow.apply(legal[int(rng.random() * len(legal))] if len(legal) > 1 else legal[0])
        assert order == slow.finish
        assert fast.hands == slow.hands and fast.ncards == slow.ncards and fast.over


def test_random_deal_hands_out_the_whole_deck():
    rules = Rules.preset("first-night", players=5)
    fd = FastDeal.random(rules, random.Random(4), leader=2)
    assert [sum(h[r] for h in fd.hands) for r in range(13)] == [4] * 13
    assert fd.ncards == [10, 10, 11, 11, 10] and fd.to_act == 2


def test_fastsim_gathers_the_state_and_the_policies():
    """fastsim re-exports the play-out state (playout_state) and policies (playout_policies):
    the same objects, every name in its __all__, and the policies the compiled code names."""
    from president.players import compiled, playout_policies, playout_state

    for mod in (playout_state, playout_policies):
        for name in mod.__all__:
            assert getattr(fastsim, name) is getattr(mod, name), name
    assert set(fastsim.__all__) == set(playout_state.__all__) | set(playout_policies.__all__)
    assert set(fastsim.PLAYOUTS) == set(compiled.POLICIES)
