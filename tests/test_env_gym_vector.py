"""GymVectorEnv: a gymnasium.vector.VectorEnv of one learner per table, its masks, auto-reset
(SAME_STEP), illegal-action policy, and agreement with PresidentEnv table by table."""

from __future__ import annotations

import os

import numpy as np
import pytest

pytest.importorskip("gymnasium")

import gymnasium  # noqa: E402
from gymnasium import spaces  # noqa: E402
from gymnasium.vector import AutoresetMode  # noqa: E402

from president.env import GymVectorEnv, PresidentEnv, sample_legal  # noqa: E402
from president.env.encoding import SLICES  # noqa: E402
from president.errors import IllegalAction  # noqa: E402


def _legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return sample_legal(masks.view(np.int8), rng)


def test_it_is_a_gymnasium_vector_env_with_batched_spaces():
    v = GymVectorEnv(3, preset="house", players=4)
    assert isinstance(v, gymnasium.vector.VectorEnv)
    assert v.num_envs == 3
    assert v.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    assert v.single_observation_space == spaces.Box(0, 1, (702,), np.float32)
    assert v.single_action_space == spaces.Discrete(66)
    assert v.observation_space.shape == (3, 702) and v.observation_space.dtype == np.float32
    assert v.action_space == spaces.MultiDiscrete([66, 66, 66])
    obs, info = v.reset(seed=0)
    assert obs.shape == (3, 702) and obs.dtype == np.float32
    assert v.observation_space.contains(obs)
    mask = info["action_mask"]
    assert mask.shape == (3, 66) and mask.dtype == np.bool_
    assert np.array_equal(v.action_masks(), mask)
    assert mask.any(1).all()
    obs, rewards, terminations, truncations, info = v.step(_legal(mask, np.random.default_rng(1)))
    assert rewards.shape == (3,) and rewards.dtype == np.float32
    assert terminations.shape == truncations.shape == (3,)
    assert terminations.dtype == truncations.dtype == np.bool_
    assert info["action_mask"].shape == (3, 66) and info["action_mask"].dtype == np.bool_
    assert np.array_equal(v.action_masks(), info["action_mask"])
    v.close()
    assert v.closed
    with pytest.raises(RuntimeError, match="closed"):
        v.step(np.zeros(3, dtype=np.int64))


@pytest.mark.parametrize(("options", "backend"), [
    ({"preset": "house", "players": 4, "opponents": "random", "seat": 0}, "python"),
    ({"preset": "first-night", "players": 5, "opponents": ["simple", "random", "beginner",
                                                           "random"], "seat": 3}, "python"),
    ({"preset": "house", "players": 4, "episode": "match", "max_deals": 3, "seat": 1,
      "opponents": "random"}, "python"),
    ({"preset": "house", "players": 4, "opponents": "intermediate", "seat": 0}, "compiled"),
    ({"preset": "first-night", "players": 5, "opponents": ["simple", "intermediate",
                                                           "intermediate", "simple"],
      "seat": 2}, "compiled"),
    ({"preset": "family", "players": 6, "twists": ["once-around"], "opponents": "simple",
      "seat": 5}, "compiled"),
])
def test_each_table_plays_the_episodes_of_president_env(options, backend):
    """Table i of reset(seed=s) plays President-v1's reset(seed=s + i) and its following
    reset() calls: the same observations, masks, rewards and ends for the same actions.
    The compiled opponents (simple, intermediate) choose as the Python players; the
    compiled random one draws otherwise, so the random lineups are checked in Python."""
    n, steps = 3, 150
    if backend == "compiled":
        pytest.importorskip("president._vector")
        if os.environ.get("PRESIDENT_PURE") == "1":
            pytest.skip("PRESIDENT_PURE=1 asks for the Python code")
    v = GymVectorEnv(n, backend=backend, **options)
    assert v.backend == backend
    singles = [PresidentEnv(**options) for _ in range(n)]
    obs, info = v.reset(seed=40)
    want = [s.reset(seed=40 + i) for i, s in enumerate(singles)]
    rng = np.random.default_rng(5)
    ends = 0
    for _ in range(steps):
        for i, (o, inf) in enumerate(want):
            assert np.array_equal(obs[i], o)
            assert np.array_equal(info["action_mask"][i], inf["action_mask"].astype(bool))
        actions = _legal(info["action_mask"], rng)
        obs, rewards, terms, truncs, info = v.step(actions)
        for i, s in enumerate(singles):
            o, r, term, trunc, inf = s.step(int(actions[i]))
            assert rewards[i] == np.float32(r)
            assert (terms[i], truncs[i]) == (term, trunc)
            if term or trunc:
                ends += 1
                assert info["_final_obs"][i] and info["_final_info"][i]
                assert np.array_equal(info["final_obs"][i], o)       # the last observation
                assert not info["final_info"]["action_mask"][i].any()
                o, inf = s.reset()                                    # SAME_STEP: the next one
            else:
                assert "final_obs" not in info or not info["_final_obs"][i]
            want[i] = (o, inf)
    assert ends >= 2


def test_rewards_are_the_learners_and_sum_to_the_place_rewards():
    v = GymVectorEnv(16, preset="house", players=4, opponents="random")
    _, info = v.reset(seed=3)
    rng = np.random.default_rng(0)
    got = []
    for _ in range(120):
        _, rewards, terms, _, info = v.step(_legal(info["action_mask"], rng))
        got.extend(rewards[terms].tolist())
        assert not rewards[~terms].any()          # one-deal episodes: reward only at the end
    assert got and set(got) <= {1.0, np.float32(1 / 3), np.float32(-1 / 3), -1.0}


def test_an_illegal_action_is_penalised_at_its_table_only_and_the_mask_stays():
    v = GymVectorEnv(3, preset="house", players=4, illegal_reward=-2.5)
    _, info = v.reset(seed=9)
    actions = _legal(info["action_mask"], np.random.default_rng(0))
    actions[1] = int(np.flatnonzero(~info["action_mask"][1])[0])    # refused at table 1
    obs, rewards, terms, truncs, info = v.step(actions)
    assert rewards[1] == -2.5 and terms[1] and not truncs[1]
    assert not terms[0] and not terms[2] and rewards[0] == rewards[2] == 0.0
    assert info["_final_obs"].tolist() == [False, True, False]
    assert info["final_info"]["action_mask"].shape == (3, 66)
    assert not info["final_info"]["action_mask"][1].any()
    assert info["action_mask"].shape == (3, 66) and info["action_mask"].any(1).all()
    assert info["final_obs"][1].shape == (702,)


def test_illegal_raise_names_the_table_and_moves_none():
    v = GymVectorEnv(2, preset="house", players=4, illegal="raise")
    w = GymVectorEnv(2, preset="house", players=4, illegal="raise")
    obs, info = v.reset(seed=1)
    w.reset(seed=1)
    good = _legal(info["action_mask"], np.random.default_rng(0))
    bad = good.copy()
    bad[1] = 66
    with pytest.raises(IllegalAction, match="table 1: action 66 is not an action index"):
        v.step(bad)
    a = v.step(good)
    b = w.step(good)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])


def test_bad_options_and_actions_are_refused_with_the_reason():
    with pytest.raises(ValueError, match="seat = 4 is not allowed; give a player index 0 to 3"):
        GymVectorEnv(2, preset="house", players=4, seat=4)
    with pytest.raises(ValueError, match=r"2 opponent\(s\) given for a table of 4"):
        GymVectorEnv(2, preset="house", players=4, opponents=["random", "simple"])
    with pytest.raises(ValueError, match="illegal = 'ignore' is not allowed"):
        GymVectorEnv(2, illegal="ignore")
    with pytest.raises(ValueError, match="num_envs = 0 must be a whole number of at least 1"):
        GymVectorEnv(0)
    v = GymVectorEnv(2, preset="house", players=4)
    with pytest.raises(RuntimeError, match="call reset"):
        v.step([0, 0])
    with pytest.raises(RuntimeError, match="call reset"):
        v.action_masks()
    v.reset(seed=0)
    with pytest.raises(ValueError, match=r"actions must be 2 whole numbers \(shape \(2,\)\)"):
        v.step([0.5, 1.0])


def test_seeding_makes_the_episodes_reproducible():
    def run(seed):
        v = GymVectorEnv(4, preset="house", players=4, opponents="simple")
        obs, info = v.reset(seed=seed)
        rng = np.random.default_rng(0)
        out = [obs.sum()]
        for _ in range(30):
            obs, r, *_ , info = v.step(_legal(info["action_mask"], rng))
            out.append((float(obs.sum()), r.tolist()))
        return out
    assert run(2) == run(2)
    assert run(2) != run(3)


def test_scores_are_scaled_into_the_unit_interval():
    """In a match episode the scores piece shows each relative seat's points / (points + 10),
    the points the engine's observation of that seat gives."""
    e = PresidentEnv(preset="house", players=4, episode="match", max_deals=5, opponents="random")
    obs, info = e.reset(seed=0)
    rng = np.random.default_rng(0)
    seen = 0
    for _ in range(600):
        m = e.table.match
        assert m is not None
        seat = m.seating.index(e.learner)
        points = m.observation(seat).scores
        want = [points[(seat + k) % 4] / (points[(seat + k) % 4] + 10) for k in range(4)]
        got = obs[SLICES["scores"]]
        assert np.array_equal(got, np.array(want + [0.0] * 3, dtype=np.float32))
        assert e.observation_space.contains(obs)
        seen = max(seen, max(points))
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, _, term, trunc, info = e.step(action)
        if term or trunc:
            break
    assert seen >= 2                  # points were shown, scaled


def test_only_the_current_version_is_registered():
    import president.env
    assert president.env.ENV_ID == "President-v1" and president.env.VERSION == 1
    assert isinstance(gymnasium.make("President-v1").unwrapped, PresidentEnv)
    with pytest.warns(DeprecationWarning, match="out of date"), \
            pytest.raises(gymnasium.error.DeprecatedEnv, match="President-v1"):
        gymnasium.make("President-v0")


def test_make_vec_builds_it_and_sync_mode_still_wraps_president_env():
    v = gymnasium.make_vec("President-v1", num_envs=3, preset="house", players=4,
                           opponents="simple")
    assert isinstance(v, GymVectorEnv) and v.num_envs == 3 and v.opponents == ["simple"] * 3
    obs, info = v.reset(seed=0)
    assert obs.shape == (3, 702) and info["action_mask"].shape == (3, 66)
    s = gymnasium.make_vec("President-v1", num_envs=2, vectorization_mode="sync",
                           preset="house", players=4)
    assert isinstance(s, gymnasium.vector.SyncVectorEnv)
    assert s.reset(seed=0)[0].shape == (2, 702)


def test_the_compiled_backend_is_the_default_where_it_can_play():
    pytest.importorskip("president._vector")
    if os.environ.get("PRESIDENT_PURE") == "1":
        pytest.skip("PRESIDENT_PURE=1 asks for the Python code")
    assert GymVectorEnv(2, preset="house", players=4).backend == "compiled"
    assert GymVectorEnv(2, preset="house", players=4, opponents="beginner").backend == "python"
    assert GymVectorEnv(2, preset="house", players=4, episode="match").backend == "python"
    with pytest.raises(ValueError, match="cannot run these tables: opponents"):
        GymVectorEnv(2, preset="house", players=4, opponents="beginner", backend="compiled")
    # the penalty on the compiled backend: that table's episode ends, its next one starts
    v = GymVectorEnv(3, preset="house", players=4, opponents="intermediate", seat=1)
    w = GymVectorEnv(3, preset="house", players=4, opponents="intermediate", seat=1,
                     backend="python")
    _, info = v.reset(seed=2)
    w.reset(seed=2)
    rng = np.random.default_rng(3)
    for t in range(60):
        acts = _legal(info["action_mask"], rng)
        if t % 7 == 3:
            acts[t % 3] = 65
        a = v.step(acts)
        b = w.step(acts)
        info = a[4]
        for x, y in zip(a[:4], b[:4]):
            assert np.array_equal(x, y)
        assert np.array_equal(a[4]["action_mask"], b[4]["action_mask"])
        assert np.array_equal(a[4].get("_final_obs", np.zeros(3, bool)),
                              b[4].get("_final_obs", np.zeros(3, bool)))
        for i in np.flatnonzero(a[4].get("_final_obs", np.zeros(3, bool))):
            assert np.array_equal(a[4]["final_obs"][i], b[4]["final_obs"][i])


def test_an_unknown_opponent_in_a_list_is_named_before_the_count():
    from president.env.single import check_opponents
    with pytest.raises(ValueError, match="bogus"):
        check_opponents(["bogus"], 4)
    with pytest.raises(ValueError, match="1 opponent"):
        check_opponents(["simple"], 4)
