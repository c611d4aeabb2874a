"""president.env: PettingZoo's and Gymnasium's own checkers over presets, table sizes and
both episode kinds; the action indices; rewards; seeding; and information hiding (an
observation holds only what docs/rules.md "Information" lets that seat know)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import gymnasium as gym  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from president import PASS, Match, Play, Rules  # noqa: E402
from president.env import (GIVE_BASE, NUM_ACTIONS, OBS_SIZE, PASS_ACTION, PIECES,  # noqa: E402
                           PresidentEnv, describe_action, encode_observation, env,
                           piece_slices, raw_env)
from president.env.encoding import play_for  # noqa: E402
from president.env.vector import VectorEnv  # noqa: E402
from president.errors import IllegalAction  # noqa: E402
from president.rules import PRESETS  # noqa: E402

# every preset at its smallest and largest table, each in both episode kinds
CASES = [(preset, players, episode)
         for preset, (lo, hi, _) in PRESETS.items()
         for players in sorted({lo, hi})
         for episode in ("deal", "match")]


@pytest.fixture(autouse=True)
def _quiet_checker_warnings():
    # the checkers warn about all-zero masks of finished agents and about dict observations
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


def _random_episode(e, rng, *, limit=5000):
    """Play random legal actions to the end of the episode; returns the actions taken."""
    taken = []
    for agent in e.agent_iter(limit):
        obs, reward, term, trunc, info = e.last()
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(info["action_mask"])
        action = int(rng.choice(legal))
        taken.append((agent, action))
        e.step(action)
    return taken


@pytest.mark.parametrize("preset, players, episode", CASES)
def test_pettingzoo_api_and_seed_tests(preset, players, episode):
    api_test(env(preset=preset, players=players, episode=episode), num_cycles=100)
    seed_test(lambda: env(preset=preset, players=players, episode=episode), num_cycles=60)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_dict_observation_passes_api_test(preset):
    e = env(preset=preset, dict_obs=True, episode="match", max_deals=3)
    api_test(e, num_cycles=60)
    e.reset(seed=3)
    obs, *_ = e.last()
    assert set(obs) == {"observation", "action_mask"}
    assert obs["observation"].shape == (OBS_SIZE,) and obs["action_mask"].dtype == np.int8


@pytest.mark.parametrize("preset, players, episode",
                         [c for c in CASES if c[1] == PRESETS[c[0]][0]])
def test_gymnasium_check_env(preset, players, episode):
    check_env(PresidentEnv(preset=preset, players=players, episode=episode, opponents="random"),
              skip_render_check=True)


def test_gymnasium_make_registered_env_plays_to_the_end():
    e = gym.make("President-v1", preset="house", players=5, opponents="simple", seat=2)
    obs, info = e.reset(seed=11)
    assert obs.shape == (OBS_SIZE,) and obs.dtype == np.float32
    rng = np.random.default_rng(0)
    total, steps = 0.0, 0
    while True:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, term, trunc, info = e.step(action)
        total += reward
        steps += 1
        if term or trunc:
            break
    assert term and not trunc
    # place reward at 5 players: 1, 0.5, 0, -0.5, -1
    assert total in (1.0, 0.5, 0.0, -0.5, -1.0)
    assert 1 <= steps <= 11 * 4


def test_observation_layout_is_the_documented_table():
    slices = piece_slices()
    assert OBS_SIZE == 702 == sum(int(np.prod(shape)) for _, shape, _ in PIECES)
    assert [name for name, _, _ in PIECES][:3] == ["hand", "pile", "cleared"]
    assert slices["played"] == slice(156, 520)
    assert slices["give_to"].stop == OBS_SIZE
    e = env(preset="practice")
    space = e.observation_space("player_0")
    assert space.shape == (702,) and space.dtype == np.float32
    assert e.action_space("player_0").n == NUM_ACTIONS == 66


def test_actions_and_their_suits():
    hand = Play.parse("9C 9H 9S").mask | Play.parse("KD").mask
    # index rank * 4 + count - 1; suits: the lowest held, clubs first
    assert play_for(6 * 4 + 1, hand) is Play.parse("9C 9H")
    assert play_for(6 * 4 + 2, hand) is Play.parse("9C 9H 9S")
    assert play_for(6 * 4 + 3, hand) is None
    assert play_for(10 * 4, hand) is Play.parse("KD")
    assert play_for(PASS_ACTION, hand) is PASS
    assert describe_action(6 * 4 + 1) == "pair of nines"
    assert describe_action(PASS_ACTION) == "pass"
    assert describe_action(GIVE_BASE + 12) == "give a two"
    assert describe_action(GIVE_BASE + 11) == "give an ace"
    with pytest.raises(ValueError, match="indices are 0 to 65"):
        describe_action(66)


def test_mask_is_the_engines_legal_list():
    rules = Rules.preset("house", players=4)
    m = Match(rules, hands=["3C 3D 5S 9C 9H 9S", "4C 4D 6S", "7C 8C", "KD KH"], leader=0)
    e = raw_env(rules=rules.with_options(match_end="single-deal"))
    e.reset(seed=0)
    e.table.load(Match(e.rules, hands=["3C 3D 5S 9C 9H 9S", "4C 4D 6S", "7C 8C", "KD KH"],
                       leader=0))
    mask = e.table.mask(0)
    # a lead: every rank held in counts 1..held; no pass
    expected = {0, 1, 2 * 4, 6 * 4, 6 * 4 + 1, 6 * 4 + 2}
    assert set(np.flatnonzero(mask)) == expected
    # the engine lists every set of suits (3C, 3D, 3C 3D; 5S; seven sets of nines): 11
    assert len(m.legal_actions()) == 3 + 1 + 7
    e.table.step(6 * 4 + 1)  # pair of nines: 9C 9H
    assert e.table.match.deal.pile[-1][1] is Play.parse("9C 9H")
    mask = e.table.mask(1)
    assert set(np.flatnonzero(mask)) == {PASS_ACTION}  # nothing of seat 1 beats a pair of 9s


def test_illegal_actions_raise_or_end_the_episode():
    e = env(preset="house", illegal="raise")
    e.reset(seed=5)
    with pytest.raises(IllegalAction, match="pass is not legal now"):
        e.step(PASS_ACTION)  # the first turn is a lead
    with pytest.raises(IllegalAction, match="not an action index; indices are 0 to 65"):
        e.step(99)
    for e in (env(preset="house"), env(preset="house", backend="python")):  # the default
        e.reset(seed=5)
        agent = e.agent_selection
        e.step(PASS_ACTION)
        assert all(e.terminations.values()) and not any(e.truncations.values())
        assert e._cumulative_rewards[agent] == -1.0
        assert sorted(e._cumulative_rewards.values()) == [-1.0] + [0.0] * (len(e.agents) - 1)
        for a in e.agents:      # the mask is still in every info, all zero
            assert e.infos[a]["action_mask"].shape == (66,)
            assert not e.infos[a]["action_mask"].any()
        _, _, terminated, _, info = e.last()
        assert terminated and not info["action_mask"].any()
    with pytest.raises(ValueError, match="illegal = 'ignore' is not allowed; choose one of: "
                                         "penalty, raise"):
        env(illegal="ignore")


def test_bad_options_are_refused_with_the_allowed_values():
    with pytest.raises(ValueError, match="episode = 'game' is not allowed; choose one of: deal, "
                                         "match"):
        env(episode="game")
    with pytest.raises(ValueError, match="reward = 'points' needs rules that score points"):
        env(preset="first-night", reward="points")
    with pytest.raises(ValueError, match="house preset is for 4 to 7 players, not 3"):
        env(preset="house", players=3)
    with pytest.raises(ValueError, match="no preset named 'poker'"):
        env(preset="poker")
    with pytest.raises(ValueError, match="2 opponent"):
        PresidentEnv(players=4, opponents=["simple", "simple"])
    with pytest.raises(ValueError, match="no computer level 'grandmaster'"):
        PresidentEnv(opponents="grandmaster")
    with pytest.raises(ValueError, match="seat = 4 is not allowed"):
        PresidentEnv(players=4, seat=4)


@pytest.mark.parametrize("reward, players, expected", [
    ("place", 4, [1.0, 1 / 3, -1 / 3, -1.0]),
    ("place", 3, [1.0, 0.0, -1.0]),
    ("points", 4, [2.0, 1.0, 0.0, 0.0]),
])
def test_deal_rewards_by_finishing_place(reward, players, expected):
    preset = "first-night" if players == 3 else "house"
    e = env(preset=preset, players=players, reward=reward)
    e.reset(seed=21)
    total = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter(2000):
        _, r, term, trunc, info = e.last()
        total[agent] += r
        e.step(None if term or trunc else int(np.flatnonzero(info["action_mask"])[0]))
    order = e.table.match.results[-1].finish_order
    assert [total[f"player_{p}"] for p in order] == pytest.approx(expected)


def test_match_episode_plays_exchanges_one_card_at_a_time():
    # first-night+swap at 4: the bottom gives two cards, then the President two back,
    # one card a step; each step of a two-card give is the same agent's
    e = env(preset="first-night", twists=["swap"], players=4, episode="match", max_deals=3)
    e.reset(seed=2)
    rng = np.random.default_rng(1)
    gives = []
    for agent in e.agent_iter(5000):
        obs, _, term, trunc, info = e.last()
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(info["action_mask"])
        if legal[0] >= GIVE_BASE:
            assert legal.min() >= GIVE_BASE  # no play or pass in the exchange
            gives.append((e.table.match.deal_number, agent, int(obs[piece_slices()["give_count"]][0] * 2)))
        e.step(int(rng.choice(legal)))
    assert e.agents == []  # every agent stepped out after the truncation at 3 deals
    assert e.table.truncated and e.table.deals == 3
    second = [g for g in gives if g[0] == 2]
    # deal 2: 2 + 2 + 1 + 1 give steps; the counts left fall 2, 1 within a two-card give
    assert len(second) == 6
    assert [c for _, _, c in second] == [2, 1, 2, 1, 1, 1]
    assert second[0][1] == second[1][1] and second[2][1] == second[3][1]


def test_forced_give_offers_only_the_highest_rank():
    e = raw_env(preset="house", episode="match", max_deals=2)
    e.reset(seed=4)
    rng = np.random.default_rng(0)
    while e.table.match.phase != "exchange":
        e.step(int(rng.choice(np.flatnonzero(e.infos[e.agent_selection]["action_mask"]))))
    m = e.table.match
    step = m.pending_transfer
    assert step.forced
    top = max(c.rank for c in m.deal.hand(step.giver))
    agent = e.agent_selection
    assert agent == f"player_{m.seating[step.giver]}"
    assert list(np.flatnonzero(e.infos[agent]["action_mask"])) == [GIVE_BASE + top]


def test_same_seed_same_episode_and_a_new_seed_another():
    def run(seed):
        e = env(preset="family", players=5, episode="match", max_deals=2)
        e.reset(seed=seed)
        return _random_episode(e, np.random.default_rng(7))
    assert run(3) == run(3)
    assert run(3) != run(4)


@pytest.mark.parametrize("preset, players, twists", [
    ("house", 4, []), ("first-night", 3, ["swap"]), ("first-night", 6, ["swap"]),
    ("family", 5, ["once-around"]), ("house", 7, ["sit-out"]),
])
def test_observation_is_built_only_from_the_seats_own_view(preset, players, twists):
    """Every agent's vector, at every step of random matches (exchanges and gives in
    progress included), equals the one built from the engine's Observation for that seat
    alone, which holds exactly docs/rules.md "Information"."""
    e = raw_env(preset=preset, players=players, twists=twists, episode="match", max_deals=3)
    e.reset(seed=9)
    rng = np.random.default_rng(3)
    checked = 0
    for _agent in e.agent_iter(3000):
        _, _, term, trunc, info = e.last()
        if term or trunc:
            e.step(None)
            continue
        t = e.table
        for p in range(players):
            seat = t.seat_of[p]
            chosen = t.chosen if t.match.pending_transfer is not None and \
                t.match.pending_transfer.giver == seat else 0
            ref = encode_observation(t.match.observation(seat), chosen=chosen)
            assert np.array_equal(e.observe(f"player_{p}"), ref), (p, t.match.phase)
            checked += 1
        e.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    assert checked > 100 * players


def test_hidden_cards_do_not_change_an_observation():
    """Two deals alike in everything seat 0 may know, with seats 1 and 3 holding each
    other's hands: seat 0's observation is the same, seat 1's differs."""
    rules = Rules.preset("house", players=4, match_end="single-deal")
    a = ["3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC 2C", "3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD 2D",
         "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH 2H", "3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS 2S"]
    b = [a[0], a[3], a[2], a[1]]
    seen = []
    for hands in (a, b):
        e = raw_env(rules=rules)
        e.reset(seed=0)
        e.table.load(Match(rules, hands=hands, leader=0))
        e.table.step(0)            # seat 0 leads the 3C
        for _ in range(3):
            e.table.step(PASS_ACTION)
        seen.append((e.table.observe(0), e.table.observe(1)))
    assert np.array_equal(seen[0][0], seen[1][0])
    assert not np.array_equal(seen[0][1], seen[1][1])
    # and the pieces say what happened: the 3C cleared, seat 0 to lead with 12 cards
    obs = seen[0][0]
    s = piece_slices()
    assert obs[s["cleared"]][0] == 1 and obs[s["cleared"]].sum() == 1
    assert obs[s["to_act"]][0] == 1
    assert obs[s["hand_counts"]][:4] * 20 == pytest.approx([12, 13, 13, 13])


def test_gym_env_is_seeded_and_others_play_from_their_own_view():
    def trajectory(seed):
        e = PresidentEnv(preset="house", players=4, episode="match", max_deals=2,
                         opponents=["random", "simple", "beginner"], seat="random")
        obs, info = e.reset(seed=seed)
        out = [e.learner]
        rng = np.random.default_rng(0)
        while True:
            obs, r, term, trunc, info = e.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            out.append((float(obs.sum()), r))
            if term or trunc:
                return out
    assert trajectory(8) == trajectory(8)
    assert trajectory(8) != trajectory(9)


@pytest.mark.parametrize("make", [
    lambda **kw: raw_env(**kw),
    lambda **kw: gym.make("President-v1", **kw).unwrapped,
    lambda **kw: VectorEnv(2, **kw),
])
@pytest.mark.parametrize("extra", [{"twists": ["swap"]}, {"preset": "house"},
                                   {"twists": "swap"}])
def test_rules_with_preset_or_twists_is_refused_not_half_ignored(make, extra):
    """A researcher's trial: rules='first-night' with twists=['swap'] played first-night
    without the swap, silently."""
    with pytest.raises(ValueError, match=r"give rules = 'first-night' or (preset|twists), not "
                                         r"both .*rules='first-night\+swap'"):
        make(rules="first-night", players=5, **extra)
    made = make(rules="first-night+swap", players=5)          # the way to say it
    rules = made.rules if hasattr(made, "rules") else made.table.rules
    assert rules.twists == ("swap",)


def test_gymnasium_info_names_the_learner_under_a_random_seat():
    e = gym.make("President-v1", seat="random").unwrapped
    seen = set()
    for seed in range(12):
        _, info = e.reset(seed=seed)
        assert info["learner"] == e.learner
        seen.add(info["learner"])
    assert len(seen) > 1                      # the seat moves between episodes
