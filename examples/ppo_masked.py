#!/usr/bin/env python3
"""Maskable PPO in numpy alone, CleanRL-style, on President's ``GymVectorEnv``.

One file, no torch: a small MLP (one ``tanh`` hidden layer shared by a policy head of 66
logits and a value head), illegal actions removed by a masked softmax (their logits set to
``-inf``, so they get probability exactly 0 and are never sampled), the clipped PPO
objective with an entropy bonus and a value loss, generalised advantage estimation, and
Adam, every gradient written out by hand. The learner plays seat 0 of ``N`` tables
(``president.env.GymVectorEnv``) against computer players (default three ``random``), and
each update prints its progress: learner steps, the mean return of the episodes that ended
(the place reward: +1 President … -1 last), the policy and value losses, the entropy and the
approximate KL divergence.

Run from a clone with the ``env`` extra installed (``pip install -e '.[env]'`` or
``make setup``)::

    python examples/ppo_masked.py                       # 24 updates of 8 x 128 steps
    python examples/ppo_masked.py --updates 100 --opponents simple

The auto-reset is Gymnasium's ``SAME_STEP`` (``metadata["autoreset_mode"]``): on the step an
episode ends, the returned observation is already the next episode's, so the advantage
estimate stops at every ``terminated`` and, for a ``truncated`` episode (``match`` episodes
that reach ``max_deals``), adds the discounted value of ``info["final_obs"]`` to the reward.
tests/test_env_ppo_example.py runs two tiny updates and checks the gradients against finite
differences.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from president.env import NUM_ACTIONS, OBS_SIZE, GymVectorEnv

Params = dict[str, np.ndarray]


def init_params(rng: np.random.Generator, obs_size: int = OBS_SIZE, hidden: int = 64,
                actions: int = NUM_ACTIONS) -> Params:
    """The network's weights: ``W1`` ``(obs_size, hidden)``, ``b1``; the policy head ``Wp``
    ``(hidden, actions)``, ``bp``; the value head ``Wv`` ``(hidden, 1)``, ``bv``. Scaled
    orthogonal-like draws as CleanRL uses (small policy head, so the first policy is near
    uniform over the legal actions)."""
    def layer(n_in: int, n_out: int, scale: float) -> np.ndarray:
        w = rng.standard_normal((n_in, n_out))
        q, _ = np.linalg.qr(w if n_in >= n_out else w.T)
        return (scale * (q if n_in >= n_out else q.T)).astype(np.float64)
    return {"W1": layer(obs_size, hidden, np.sqrt(2.0)), "b1": np.zeros(hidden),
            "Wp": layer(hidden, actions, 0.01), "bp": np.zeros(actions),
            "Wv": layer(hidden, 1, 1.0), "bv": np.zeros(1)}


def forward(params: Params, obs: np.ndarray, mask: np.ndarray) -> tuple[
        np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The policy and value for a batch.

    Args:
        obs: float ``(B, obs_size)``. mask: bool ``(B, actions)``, at least one True a row.

    Returns:
        ``(probs, logp, value, hidden)``: the masked softmax ``(B, actions)`` (exactly 0 where
        ``mask`` is False), its log (``-inf`` there), the values ``(B,)`` and the hidden
        layer ``(B, hidden)``.
    """
    h = np.tanh(obs @ params["W1"] + params["b1"])
    logits = np.where(mask, h @ params["Wp"] + params["bp"], -np.inf)
    z = logits - logits.max(1, keepdims=True)
    logsum = np.log(np.exp(z).sum(1, keepdims=True))
    logp = z - logsum
    probs = np.exp(logp)                 # exp(-inf) = 0: illegal actions get no probability
    value = (h @ params["Wv"] + params["bv"])[:, 0]
    return probs, logp, value, h


@dataclass
class Batch:
    """One minibatch: observations, masks, actions taken, their log-probabilities when
    taken, advantages and returns (``B`` rows each)."""
    obs: np.ndarray
    mask: np.ndarray
    action: np.ndarray
    old_logp: np.ndarray
    advantage: np.ndarray
    ret: np.ndarray


def loss_and_grads(params: Params, b: Batch, *, clip: float = 0.2, ent_coef: float = 0.01,
                   vf_coef: float = 0.5) -> tuple[float, dict[str, float], Params]:
    """The PPO loss ``pg_loss - ent_coef * entropy + vf_coef * v_loss`` on a minibatch
    (advantages normalised within it), and its gradient with respect to every weight.

    ``pg_loss = mean(max(-A r, -A clip(r, 1 - clip, 1 + clip)))`` with ``r`` the ratio of the
    new to the old probability of the action taken; ``entropy`` the mean entropy of the
    masked policy; ``v_loss = mean((V - return)^2) / 2``.

    Returns:
        ``(loss, stats, grads)``: ``stats`` with ``pg_loss``, ``v_loss``, ``entropy``,
        ``approx_kl``, ``clipfrac``; ``grads`` shaped as ``params``.
    """
    n = len(b.action)
    rows = np.arange(n)
    probs, logp, value, h = forward(params, b.obs, b.mask)
    adv = (b.advantage - b.advantage.mean()) / (b.advantage.std() + 1e-8)
    logp_a = logp[rows, b.action]
    log_ratio = logp_a - b.old_logp
    ratio = np.exp(log_ratio)
    unclipped = -adv * ratio
    clipped = -adv * np.clip(ratio, 1 - clip, 1 + clip)
    pg_loss = float(np.maximum(unclipped, clipped).mean())
    plogp = np.where(b.mask, probs * np.where(b.mask, logp, 0.0), 0.0)
    ent = -plogp.sum(1)
    entropy = float(ent.mean())
    v_loss = float(0.5 * ((value - b.ret) ** 2).mean())
    loss = pg_loss - ent_coef * entropy + vf_coef * v_loss
    # d loss / d logits: the policy term through log p(a), the entropy term through p
    g_logp = np.where(unclipped >= clipped, -adv * ratio, 0.0) / n
    onehot = np.zeros_like(probs)
    onehot[rows, b.action] = 1.0
    dz = g_logp[:, None] * (onehot - probs)
    safe_logp = np.where(b.mask, logp, 0.0)
    d_ent = -probs * (safe_logp + ent[:, None])          # d entropy_i / d z_i
    dz -= ent_coef * d_ent / n
    dv = vf_coef * (value - b.ret) / n
    grads = {"Wp": h.T @ dz, "bp": dz.sum(0), "Wv": h.T @ dv[:, None], "bv": dv.sum(keepdims=True)}
    dh = dz @ params["Wp"].T + dv[:, None] @ params["Wv"].T
    dpre = dh * (1.0 - h * h)
    grads["W1"] = b.obs.T @ dpre
    grads["b1"] = dpre.sum(0)
    stats = {"pg_loss": pg_loss, "v_loss": v_loss, "entropy": entropy,
             "approx_kl": float(((ratio - 1) - log_ratio).mean()),
             "clipfrac": float((np.abs(ratio - 1) > clip).mean())}
    return loss, stats, grads


@dataclass
class Adam:
    """Adam (Kingma and Ba), written out: ``m`` and ``v`` the running first and second
    moments, bias-corrected, ``eps`` inside the square root's sum as PyTorch does; the
    gradients clipped to a global norm of ``max_norm`` first (CleanRL's 0.5)."""
    lr: float = 2.5e-4
    beta1: float = 0.9
    beta2: float = 0.999
    eps: float = 1e-5
    max_norm: float = 0.5
    t: int = 0
    m: Params = field(default_factory=dict)
    v: Params = field(default_factory=dict)

    def step(self, params: Params, grads: Params) -> None:
        """Move ``params`` in place by one Adam step along ``-grads``."""
        norm = np.sqrt(sum(float((g * g).sum()) for g in grads.values()))
        scale = min(1.0, self.max_norm / (norm + 1e-6))
        self.t += 1
        for k, g in grads.items():
            g = g * scale
            m = self.m[k] = self.beta1 * self.m.get(k, 0.0) + (1 - self.beta1) * g
            v = self.v[k] = self.beta2 * self.v.get(k, 0.0) + (1 - self.beta2) * g * g
            m_hat = m / (1 - self.beta1 ** self.t)
            v_hat = v / (1 - self.beta2 ** self.t)
            params[k] -= self.lr * m_hat / (np.sqrt(v_hat) + self.eps)


def train(*, updates: int = 24, num_envs: int = 8, num_steps: int = 128, seed: int = 0,
          opponents: str = "random", preset: str = "house", players: int = 4,
          hidden: int = 64, lr: float = 2.5e-4, gamma: float = 1.0, gae_lambda: float = 0.95,
          epochs: int = 4, minibatches: int = 4, clip: float = 0.2, ent_coef: float = 0.01,
          vf_coef: float = 0.5, log: Callable[[str], Any] | None = print) -> dict[str, Any]:
    """Train for ``updates`` rounds of ``num_envs * num_steps`` learner steps.

    Returns:
        ``{"params": ..., "history": [stats per update], "env": the GymVectorEnv}``; each
        stats dict holds ``update``, ``steps``, ``mean_return`` (``nan`` if no episode ended
        in that round), ``episodes``, and the last minibatch's ``pg_loss``, ``v_loss``,
        ``entropy``, ``approx_kl``, ``clipfrac``.
    """
    rng = np.random.default_rng(seed)
    envs = GymVectorEnv(num_envs, preset=preset, players=players, opponents=opponents)
    params = init_params(rng, hidden=hidden)
    opt = Adam(lr=lr)
    obs, info = envs.reset(seed=seed)
    mask = info["action_mask"]
    shape = (num_steps, num_envs)
    buf_obs = np.zeros((*shape, OBS_SIZE), dtype=np.float32)
    buf_mask = np.zeros((*shape, NUM_ACTIONS), dtype=np.bool_)
    buf_act = np.zeros(shape, dtype=np.int64)
    buf_logp = np.zeros(shape)
    buf_val = np.zeros(shape)
    buf_rew = np.zeros(shape)
    buf_done = np.zeros(shape, dtype=np.bool_)
    history = []
    steps = 0
    start = time.perf_counter()
    for update in range(1, updates + 1):
        returns: list[float] = []
        running = np.zeros(num_envs)
        for t in range(num_steps):
            probs, _, value, _ = forward(params, obs, mask)
            u = rng.random(num_envs)[:, None]
            action = (probs.cumsum(1) < u).sum(1)     # inverse CDF: never an illegal index
            action = np.minimum(action, NUM_ACTIONS - 1)
            action = np.where(mask[np.arange(num_envs), action], action, probs.argmax(1))
            buf_obs[t], buf_mask[t], buf_act[t], buf_val[t] = obs, mask, action, value
            buf_logp[t] = np.log(probs[np.arange(num_envs), action])
            obs, reward, term, trunc, info = envs.step(action)
            mask = info["action_mask"]
            reward = reward.astype(np.float64)
            if trunc.any():     # bootstrap a cut-off episode from its last observation
                last = np.stack([info["final_obs"][i] for i in np.flatnonzero(trunc)])
                last_mask = np.ones((len(last), NUM_ACTIONS), dtype=np.bool_)
                reward[trunc] += gamma * forward(params, last, last_mask)[2]
            buf_rew[t], buf_done[t] = reward, term | trunc
            running += reward
            for i in np.flatnonzero(term | trunc):
                returns.append(float(running[i]))
                running[i] = 0.0
            steps += num_envs
        # generalised advantage estimation, stopping at every episode end
        next_value = forward(params, obs, mask)[2]
        adv = np.zeros(shape)
        gae = np.zeros(num_envs)
        for t in reversed(range(num_steps)):
            nv = next_value if t == num_steps - 1 else buf_val[t + 1]
            live = ~buf_done[t]
            delta = buf_rew[t] + gamma * nv * live - buf_val[t]
            gae = delta + gamma * gae_lambda * live * gae
            adv[t] = gae
        ret = adv + buf_val
        flat = num_steps * num_envs
        idx = np.arange(flat)
        size = flat // minibatches
        stats: dict[str, float] = {}
        for _ in range(epochs):
            rng.shuffle(idx)
            for k in range(minibatches):
                j = idx[k * size:(k + 1) * size]
                b = Batch(buf_obs.reshape(flat, -1)[j].astype(np.float64),
                          buf_mask.reshape(flat, -1)[j], buf_act.reshape(flat)[j],
                          buf_logp.reshape(flat)[j], adv.reshape(flat)[j], ret.reshape(flat)[j])
                _, stats, grads = loss_and_grads(params, b, clip=clip, ent_coef=ent_coef,
                                                 vf_coef=vf_coef)
                opt.step(params, grads)
        row = {"update": update, "steps": steps, "episodes": len(returns),
               "mean_return": float(np.mean(returns)) if returns else float("nan"), **stats}
        history.append(row)
        if log is not None:
            log(f"update {update:3d}  steps {steps:7,d}  episodes {len(returns):4d}  "
                + (f"mean return {row['mean_return']:+.3f}" if returns else "no episode ended")
                + f"  pg {stats['pg_loss']:+.4f}  "
                f"value {stats['v_loss']:.4f}  entropy {stats['entropy']:.3f}  "
                f"kl {stats['approx_kl']:.4f}  ({time.perf_counter() - start:.1f} s)")
    envs.close()
    return {"params": params, "history": history, "env": envs}


def _positive(text: str) -> int:
    """An argument that must be a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is too small; give 1 or more")
    return value


def main(argv: list[str] | None = None) -> None:
    """Command line: ``python examples/ppo_masked.py [--updates N] ...``."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--updates", type=_positive, default=24, help="PPO updates (default 24)")
    p.add_argument("--envs", type=_positive, default=8, help="tables (default 8)")
    p.add_argument("--steps", type=_positive, default=128,
                   help="learner steps per table per update (default 128)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--opponents", default="random", help="computer level at the other seats")
    p.add_argument("--preset", default="house")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--hidden", type=_positive, default=64,
                   help="units of the hidden layer (default 64)")
    p.add_argument("--lr", type=float, default=2.5e-4, help="Adam's step size (default 2.5e-4)")
    a = p.parse_args(argv)
    out = train(updates=a.updates, num_envs=a.envs, num_steps=a.steps, seed=a.seed,
                opponents=a.opponents, preset=a.preset, players=a.players, hidden=a.hidden,
                lr=a.lr)
    history = out["history"]
    done = [(h["update"], h["mean_return"]) for h in history if h["episodes"]]
    if done:
        print(f"mean return: update {done[0][0]} {done[0][1]:+.3f}, "
              f"update {done[-1][0]} {done[-1][1]:+.3f}")


if __name__ == "__main__":
    main()
