"""president.env.VectorEnv: the same observations, masks and rewards as the AEC environment
on the same seeds and actions, auto-reset, seeding, shapes and refusals."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from president.env import NUM_ACTIONS, OBS_SIZE, VectorEnv, env, piece_slices  # noqa: E402
from president.errors import IllegalAction  # noqa: E402


@pytest.mark.parametrize("options, steps", [
    (dict(preset="house", players=4), 400),
    (dict(preset="first-night", twists="swap", players=5, episode="match", max_deals=3), 500),
    (dict(preset="family", players=6, reward="points"), 300),
])
def test_agrees_with_the_aec_environment_on_the_same_seeds(options, steps):
    n_envs, seed = 3, 11
    v = VectorEnv(n_envs, **options)
    obs, info = v.reset(seed=seed)
    aecs = [env(**options) for _ in range(n_envs)]
    for i, e in enumerate(aecs):
        e.reset(seed=seed + i)
    rng = random.Random(0)
    ended = 0
    giving = 0
    for _ in range(steps):
        for i, e in enumerate(aecs):
            agent = e.agent_selection
            assert info["player"][i] == int(agent.split("_")[1])
            assert np.array_equal(obs[i], e.observe(agent))
            assert np.array_equal(info["action_mask"][i], e.infos[agent]["action_mask"])
        giving += int(obs[:, piece_slices()["give_count"]].astype(bool).sum())
        actions = [int(rng.choice(np.flatnonzero(m))) for m in info["action_mask"]]
        obs, rewards, terminated, truncated, info = v.step(actions)
        for i, e in enumerate(aecs):
            e.step(actions[i])
            expected = [e.rewards[a] for a in e.possible_agents]
            assert rewards[i].tolist() == pytest.approx(expected)
            over = all(e.terminations.values()) or all(e.truncations.values())
            assert bool(terminated[i] or truncated[i]) == over
            assert bool(terminated[i]) == all(e.terminations.values())
            if over:
                ended += 1
                assert sum(expected) != 0 or options.get("reward") != "points"
                e.reset()  # continues the seeded generator, as the vector env's auto-reset
    assert ended >= 3
    if options.get("episode") == "match":
        assert giving > 10    # the exchange's give steps were compared too


def test_shapes_dtypes_and_seeding():
    v = VectorEnv(4, preset="house", players=4)
    obs, info = v.reset(seed=[7, 8, 9, 10])
    assert obs.shape == (4, OBS_SIZE) and obs.dtype == np.float32
    assert info["action_mask"].shape == (4, NUM_ACTIONS) and info["action_mask"].dtype == np.int8
    assert info["player"].dtype == np.int64 and info["player"].shape == (4,)
    same, _ = VectorEnv(4, preset="house", players=4).reset(seed=7)
    assert np.array_equal(obs, same)              # seed 7 gives tables seeds 7, 8, 9, 10
    other, _ = VectorEnv(4, preset="house", players=4).reset(seed=100)
    assert not np.array_equal(obs, other)
    obs[0, 0] = 5.0                                  # the arrays are the caller's
    info["action_mask"][0, 0] = 1
    acts = np.array([np.flatnonzero(m)[-1] for m in v.reset(seed=7)[1]["action_mask"]])
    obs2, rewards, term, trunc, info2 = v.step(acts)
    assert rewards.shape == (4, 4) and rewards.dtype == np.float32
    assert term.dtype == bool and trunc.shape == (4,)


def test_bad_input_is_refused_and_changes_nothing():
    with pytest.raises(ValueError, match="num_envs = 0 must be a whole number of at least 1"):
        VectorEnv(0)
    with pytest.raises(ValueError, match="players = 2 is not allowed"):
        VectorEnv(2, players=2)
    v = VectorEnv(2, preset="house", players=4)
    with pytest.raises(RuntimeError, match="call reset"):
        v.step([0, 0])
    obs, info = v.reset(seed=1)
    with pytest.raises(ValueError, match=r"actions must be 2 whole numbers \(shape \(2,\)\)"):
        v.step([0])
    with pytest.raises(ValueError, match="a sequence of 2 ints"):
        v.reset(seed=[1, 2, 3])
    for seed in (True, 1.5):    # not an int and not a sequence: a ValueError too, not a TypeError
        with pytest.raises(ValueError, match="a sequence of 2 ints"):
            v.reset(seed=seed)
    good = int(np.flatnonzero(info["action_mask"][0])[0])
    bad = int(np.flatnonzero(info["action_mask"][1] == 0)[0])
    with pytest.raises(IllegalAction, match=r"table 1: .* is not legal now"):
        v.step([good, bad])
    with pytest.raises(IllegalAction, match="table 0: action 66 is not an action index"):
        v.step([66, good])
    assert np.array_equal(v._outputs()[0], obs)     # nothing moved
