"""The ``master`` level (president/players/master.py): legal, sees only its own observation,
keeps to its CPU time cap, deterministic for a seed under a play-out budget, and wins a
solved two-player endgame."""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import pytest

from president import PASS, Match, Rules
from president.observation import Observation
from president.players import LEVELS, available_levels, make_player
from president.players.fastsim import PASS as FAST_PASS
from president.players.fastsim import encode
from president.players.intermediate import IntermediatePlayer
from president.players.master import MasterPlayer
from tests.test_endgame import BIG, POSITIONS, _cards, brute_winning, position


def _quick(seed: int) -> MasterPlayer:
    return MasterPlayer(seed=seed, playouts=60, time_limit=None)


def _play(rules: Rules, seed: int, deals: int = 2,
          make: Callable[[int], MasterPlayer] | None = None) -> list:
    """A match with master in every seat (``make(seed)``, default a small play-out budget);
    every action is checked legal. Returns the actions taken."""
    m = Match(rules, seed=seed, record_events=False)
    bots = [(make or _quick)(seed * 10 + i) for i in range(rules.players)]
    taken = []
    for _ in range(deals):
        while m.to_act is not None:
            seat = m.to_act
            obs = m.observation(seat)
            assert isinstance(obs, Observation)
            a = bots[m.seating[seat]].act(obs)
            assert a in obs.legal_actions and m.is_legal(seat, a)
            m.act(seat, a)
            taken.append(a)
        if m.phase != "between-deals":
            break
        m.start_next_deal()
    return taken


def test_master_is_registered_as_the_top_level():
    assert list(LEVELS)[-1] == "master" and "master" in available_levels()
    assert make_player("master", seed=1).level == "master"


@pytest.mark.parametrize("spec,players", [("house", 4), ("first-night+swap", 5),
                                          ("family+once-around", 4), ("first-night", 3),
                                          ("house+sit-out", 6)])
def test_master_plays_only_legal_actions(spec, players):
    assert _play(Rules.parse(spec, players=players, match_end="deals:2"), seed=1)


def test_master_is_deterministic_for_a_seed():
    rules = Rules.parse("first-night+swap", players=4)
    assert _play(rules, seed=3) == _play(rules, seed=3)


def test_master_sees_only_its_observation():
    """Two deals that look the same from seat 0 (its hand; the other seats' hands swapped
    around) get the same choices from master with the same seed: nothing hidden from its
    seat goes in."""
    rules = Rules.preset("practice")
    mine = "3C 3D 5C 7C 8C 9H 10C JC QC KC AC 2C 4H"
    others = ["3H 4C 5D 6C 7D 8D 9C 10D JD QD KD AD 2D",
              "3S 4D 5H 6D 7H 8H 9D 10H JH QH KH AH 2H",
              "4S 5S 6H 6S 7S 8S 9S 10S JS QS KS AS 2S"]
    chosen = []
    for order in (others, [others[2], others[0], others[1]]):
        m = Match(rules, hands=[mine, *order], record_events=False)
        obs = m.observation(0)
        bot = MasterPlayer(seed=5, playouts=200, time_limit=None)
        chosen.append(bot.act(obs))
    assert chosen[0] == chosen[1]


def test_master_keeps_to_its_cpu_time_cap():
    """At its default cap (0.85 s of CPU) every decision takes at most 1 s of CPU."""
    rules = Rules.parse("house", players=4, match_end="single-deal")
    m = Match(rules, seed=2, record_events=False)
    master = make_player("master", seed=1)
    others = [IntermediatePlayer() for _ in range(3)]
    timed = 0
    while m.to_act is not None and timed < 4:
        seat = m.to_act
        obs = m.observation(seat)
        if seat == 0:
            t0 = time.process_time()
            a = master.act(obs)
            took = time.process_time() - t0
            assert took <= 1.0, took
            if master.stats["searched"] > timed:
                timed = master.stats["searched"]
        else:
            a = others[seat - 1].act(obs)
        m.act(seat, a)
    assert timed >= 1
    assert master.stats["max_decision_cpu_seconds"] <= 1.0


def test_master_wins_solved_two_player_endgames():
    for spec, m in POSITIONS:
        obs = m.observation(m.to_act)
        expected = brute_winning(m.deal)
        a = _quick(1).act(obs)
        key = "pass" if a is PASS else (a.rank, a.count)
        if expected:
            assert key in expected, (spec, key, expected)
    # an endgame of 21 cards that the intermediate player's heuristic alone loses
    leader_hand, other_hand = BIG[0]
    rules = Rules.preset("first-night", players=3)
    m = position(rules, [_cards(leader_hand), _cards(other_hand, "HSCD")], empty_pile=True,
                 rng=random.Random(1))
    obs = m.observation(m.to_act)
    plain = IntermediatePlayer(endgames=False).act(obs)
    a = _quick(1).act(obs)
    code = FAST_PASS if a is PASS else encode(a.rank, a.count)
    assert code != (FAST_PASS if plain is PASS else encode(plain.rank, plain.count))
    from president.players.endgame import endgame_state, winning_codes
    assert code in set(winning_codes(endgame_state(obs), limit=None))


def test_the_style_mixture_learns_each_seats_style_from_its_play():
    """The expert's (and master's) model of the other seats: a seat of the simple player,
    one of the random player and one of the intermediate player, over two deals, end up
    with most weight (averaged over the searches) on their own style, from the prior
    0.75 / 0.2 / 0.05 (intermediate / simple / random)."""
    from president.deal import deal_hands
    from president.players.expert import STYLE_PRIOR, ExpertPlayer
    rules = Rules.parse("house", players=4, match_end="single-deal")
    ex = ExpertPlayer(seed=1, playouts=600, time_limit=None)
    for d in range(2):
        m = Match(rules, hands=deal_hands(4, 3, 7000 + d), record_events=False)
        bots = [ex, make_player("simple"), make_player("random", seed=3),
                make_player("intermediate")]
        while m.to_act is not None:
            s = m.to_act
            m.act(s, bots[s].act(m.observation(s)))
    mean = {s: [x / v[3] for x in v[:3]] for s, v in ex.style_weights.items()}
    assert mean[1][1] > 2 * STYLE_PRIOR[1] and mean[1][1] > mean[2][1]   # simple
    assert mean[2][2] > 5 * STYLE_PRIOR[2] and mean[2][2] > mean[1][2]   # random
    assert mean[3][0] > STYLE_PRIOR[0] and mean[3][0] > max(mean[1][0], mean[2][0])


def _states(count: int, seed: int):
    """``count`` positions of house 4p deals part-played at random, with seat to act ``me``
    holding more than one distinct choice, as (state, me)."""
    from president.players.playout_state import FastDeal
    rng = random.Random(seed)
    rules = Rules.preset("house")
    out = []
    while len(out) < count:
        st = FastDeal.random(rules, rng)
        for _ in range(rng.randrange(0, 20)):
            if st.over:
                break
            st.apply(rng.choice(st.legal_actions()))
        if not st.over and len(st.legal_actions()) > 1:
            out.append((st, st.to_act))
    return out


@pytest.mark.parametrize("leaf_limit", [0, 300])
def test_a_tree_play_out_with_no_turn_expanded_is_the_plain_play_out(leaf_limit):
    """Until a turn of its own has been reached ``expand`` times, master's continuation
    tree plays the world's play-out unchanged: the same place as the plain play-out from
    the same seed, in every style of the other seats."""
    bot = MasterPlayer(seed=1, expand=10**9, leaf_limit=leaf_limit, time_limit=None)
    rng = random.Random(7)
    for st, me in _states(60, 3):
        code = rng.choice(st.legal_actions())
        styles = [rng.randrange(3) for _ in range(4)]
        styles[me] = 0
        seed = rng.random()
        a, b = st.copy(), st.copy()
        a.apply(code)
        b.apply(code)
        after: dict = {}
        assert bot._tree_place(after, a, me, styles, seed) == bot._place(b, me, styles, seed)
        # every turn of its own that the play-out reached was counted, none expanded
        assert all(t.visits == 1 and t.edges is None for t in after.values())


def test_the_tree_counts_every_play_out_through_each_expanded_turn():
    """With ``expand=2`` every visit of a turn after its second follows exactly one edge:
    per expanded turn the edges' play-outs add up to its visits less 2, and the search
    follows choices other than the play-out's own."""
    trees: dict[int, dict] = {}

    class Watched(MasterPlayer):
        def _tree_place(self, after, st, me, style, seed):  # type: ignore[no-untyped-def]
            trees[id(after)] = after  # each candidate's tree, as the search grows it
            return super()._tree_place(after, st, me, style, seed)

    bot = Watched(seed=2, expand=2, playouts=3000, time_limit=None)
    m = Match(Rules.parse("house", players=4, match_end="single-deal"), seed=11,
              record_events=False)
    seat = m.to_act
    bot.act(m.observation(seat))
    assert bot.stats["searched"] == 1
    expanded = 0
    off_default = 0

    def walk(turns: dict) -> None:
        nonlocal expanded, off_default
        for turn in turns.values():
            if turn.edges is None:  # reached at most twice, or one legal action there
                continue
            expanded += 1
            assert sum(e.n for e in turn.edges.values()) == turn.visits - 2
            default = next(iter(turn.edges))
            off_default += sum(e.n for code, e in turn.edges.items() if code != default)
            for e in turn.edges.values():
                walk(e.after)

    assert len(trees) >= 2 and bot._trees == {}  # not kept past the decision
    for after in trees.values():
        walk(after)
    assert expanded >= 100 and off_default > 300


def test_master_with_a_tree_is_legal_and_deterministic_for_a_seed():
    rules = Rules.parse("house", players=4, match_end="deals:2")

    def tree(seed: int) -> MasterPlayer:
        return MasterPlayer(seed=seed, expand=4, playouts=150, time_limit=None)

    assert _play(rules, 5, make=tree) == _play(rules, 5, make=tree)


@pytest.mark.parametrize("kwargs,needle", [({"expand": -1}, "expand = -1"),
                                           ({"expand": 2.5}, "expand = 2.5"),
                                           ({"explore": -0.1}, "explore = -0.1")])
def test_master_refuses_a_bad_tree_setting(kwargs, needle):
    with pytest.raises(ValueError, match=needle):
        MasterPlayer(**kwargs)
