"""examples/ppo_masked.py: the numpy maskable PPO runs on GymVectorEnv, its losses stay
finite, illegal actions get probability 0, and its hand-written gradients are right."""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from president.env import GymVectorEnv  # noqa: E402

_PATH = Path(__file__).parent.parent / "examples" / "ppo_masked.py"
_spec = importlib.util.spec_from_file_location("ppo_masked", _PATH)
assert _spec is not None and _spec.loader is not None
ppo = importlib.util.module_from_spec(_spec)
sys.modules["ppo_masked"] = ppo         # dataclasses look their module up there
_spec.loader.exec_module(ppo)


def test_a_tiny_run_trains_and_reports_finite_numbers():
    lines: list[str] = []
    out = ppo.train(updates=2, num_envs=2, num_steps=24, hidden=16, epochs=2, minibatches=2,
                    log=lines.append)
    assert len(lines) == 2 and lines[0].startswith("update   1  steps      48")
    history = out["history"]
    assert [h["update"] for h in history] == [1, 2] and history[-1]["steps"] == 96
    for h in history:
        for key in ("pg_loss", "v_loss", "entropy", "approx_kl", "clipfrac"):
            assert math.isfinite(h[key]), (key, h)
        assert h["entropy"] > 0
    assert all(np.isfinite(w).all() for w in out["params"].values())


def test_illegal_actions_get_zero_probability():
    params = ppo.init_params(np.random.default_rng(0), hidden=16)
    v = GymVectorEnv(6, preset="house", players=4)
    obs, info = v.reset(seed=2)
    rng = np.random.default_rng(1)
    for _ in range(20):
        mask = info["action_mask"]
        probs, logp, value, _ = ppo.forward(params, obs, mask)
        assert (probs[~mask] == 0.0).all() and np.isneginf(logp[~mask]).all()
        assert (probs[mask] > 0).all()
        assert np.allclose(probs.sum(1), 1.0) and np.isfinite(value).all()
        action = (probs.cumsum(1) < rng.random(6)[:, None]).sum(1)
        action = np.where(mask[np.arange(6), np.minimum(action, 65)], action, probs.argmax(1))
        obs, _, _, _, info = v.step(action)


def test_gradients_agree_with_finite_differences():
    rng = np.random.default_rng(3)
    obs_size, hidden, actions, n = 5, 4, 6, 7
    params = ppo.init_params(rng, obs_size=obs_size, hidden=hidden, actions=actions)
    params["Wp"] = rng.standard_normal((hidden, actions))     # away from the near-uniform start
    mask = rng.random((n, actions)) < 0.6
    mask[:, 0] = True
    obs = rng.standard_normal((n, obs_size))
    act = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
    old = ppo.forward(params, obs, mask)[1][np.arange(n), act] + rng.normal(0, 0.3, n)
    batch = ppo.Batch(obs, mask, act, old, rng.standard_normal(n), rng.standard_normal(n))
    _, _, grads = ppo.loss_and_grads(params, batch, ent_coef=0.05)
    eps = 1e-6
    for name, w in params.items():
        flat = w.reshape(-1)
        for k in range(min(flat.size, 6)):
            keep = flat[k]
            flat[k] = keep + eps
            up = ppo.loss_and_grads(params, batch, ent_coef=0.05)[0]
            flat[k] = keep - eps
            down = ppo.loss_and_grads(params, batch, ent_coef=0.05)[0]
            flat[k] = keep
            assert grads[name].reshape(-1)[k] == pytest.approx((up - down) / (2 * eps),
                                                               rel=1e-4, abs=1e-7), (name, k)


def test_adam_moves_against_the_gradient_by_about_the_learning_rate():
    opt = ppo.Adam(lr=0.1, max_norm=1e9)
    params = {"w": np.array([1.0, -2.0])}
    opt.step(params, {"w": np.array([3.0, -0.5])})
    # the first bias-corrected step is lr * g / |g| per entry
    assert params["w"] == pytest.approx([0.9, -1.9], abs=1e-5)


def test_the_command_line_refuses_counts_below_one(capsys):
    for flag in ("--steps", "--updates", "--envs", "--hidden"):
        with pytest.raises(SystemExit) as err:
            ppo.main([flag, "0"])
        assert err.value.code == 2
        assert "0 is too small; give 1 or more" in capsys.readouterr().err


def test_an_update_without_an_ended_episode_says_so():
    lines: list[str] = []
    ppo.train(updates=1, num_envs=1, num_steps=2, hidden=8, epochs=1, minibatches=1,
              log=lines.append)
    assert "no episode ended" in lines[0] and "nan" not in lines[0]
