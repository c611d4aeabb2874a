"""A small learning example: a masked softmax policy (linear in the 702-number observation)
trained by policy gradient (REINFORCE with a running-mean baseline, Adam) on
:class:`~president.env.VectorEnv`, one learner seat against uniformly random players; then
measured against ``random`` by :func:`president.simulate.simulate` on duplicate deals.

numpy only (no deep-learning library). Run it::

    .venv/bin/python -m president.env.pg --seconds 120 --out pg.npz --eval-deals 2000

It prints the training curve and the learner's gain (places ahead of an even table) against
three ``random`` players with its 95% interval. :class:`PolicyPlayer` plays a saved policy
as a bot anywhere a level is named: ``president.env.pg:PolicyPlayer`` (the weights file
comes from ``weights=`` or the ``PRESIDENT_PG_WEIGHTS`` environment variable).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from ..actions import Action, Give
from ..rules import Rules
from .encoding import (NUM_ACTIONS, OBS_SIZE, encode_observation, give_card_for,
                       mask_from_legal, play_for)
from .vector import VectorEnv

if TYPE_CHECKING:
    from ..observation import Observation

__all__ = ["Policy", "PolicyPlayer", "train", "evaluate"]


class Policy:
    """``pi(a | obs) = softmax(obs @ W + b)`` over the legal actions (the mask).

    Args:
        weights: ``(W, b)`` with ``W`` float ``(702, 66)`` and ``b`` float ``(66,)``; zeros
            (uniform over the legal actions) when omitted.

    Raises:
        ValueError: weights of the wrong shapes.
    """

    def __init__(self, weights: tuple[np.ndarray, np.ndarray] | None = None) -> None:
        if weights is None:
            weights = (np.zeros((OBS_SIZE, NUM_ACTIONS)), np.zeros(NUM_ACTIONS))
        w, b = (np.asarray(x, dtype=np.float64) for x in weights)
        if w.shape != (OBS_SIZE, NUM_ACTIONS) or b.shape != (NUM_ACTIONS,):
            raise ValueError(f"weights must be W {(OBS_SIZE, NUM_ACTIONS)} and b "
                             f"{(NUM_ACTIONS,)}; got {w.shape} and {b.shape}")
        self.w, self.b = w, b

    def probs(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Action probabilities, shape ``(rows, 66)``, zero where ``mask`` is 0 (each row
        of ``mask`` must allow some action)."""
        logits = obs @ self.w + self.b
        logits = np.where(mask > 0, logits, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        probs: np.ndarray = p / p.sum(axis=1, keepdims=True)
        return probs

    def save(self, path: str) -> None:
        """Write ``W`` and ``b`` to an NPZ file."""
        np.savez(path, w=self.w, b=self.b)

    @classmethod
    def load(cls, path: str) -> "Policy":
        """A policy saved by :meth:`save`.

        Raises:
            ValueError: the file cannot be read or holds other arrays.
        """
        try:
            with np.load(path) as f:
                return cls((f["w"], f["b"]))
        except (OSError, KeyError) as e:
            raise ValueError(f"cannot read policy weights from {path}: {e}") from None


class PolicyPlayer:
    """A saved :class:`Policy` as a computer player (``act(observation)``); it takes the most
    probable legal action, so it plays deterministically.

    Args:
        seed: accepted for the player interface; unused.
        weights: the NPZ file of :meth:`Policy.save` (default: ``$PRESIDENT_PG_WEIGHTS``).

    Raises:
        ValueError: no weights file given, or one that cannot be read.
    """

    level = "pg"

    def __init__(self, *, seed: int | None = None, weights: str | None = None) -> None:
        path = weights or os.environ.get("PRESIDENT_PG_WEIGHTS")
        if not path:
            raise ValueError("PolicyPlayer needs weights=FILE.npz or PRESIDENT_PG_WEIGHTS")
        self.policy = Policy.load(path)

    def _best(self, observation: Observation, hand: int, chosen: int) -> int:
        obs = encode_observation(observation, chosen=chosen)[None, :]
        mask = mask_from_legal(list(observation.legal_actions), hand, chosen)[None, :]
        return int(np.argmax(self.policy.probs(obs, mask)[0]))

    def act(self, observation: Observation) -> Action:
        hand = 0
        for c in observation.hand:
            hand |= c.bit
        if observation.phase == "exchange":
            assert observation.pending_exchange is not None  # the exchange step to act in
            count = observation.pending_exchange.count
            chosen = 0
            for _ in range(count):
                a = self._best(observation, hand, chosen)
                chosen |= give_card_for(a, hand & ~chosen)
            return Give(chosen)
        play = play_for(self._best(observation, hand, 0), hand)
        assert play is not None     # the best legal action, so one the hand can make
        return play


def train(*, seconds: float = 60.0, num_envs: int = 64, rules: str = "house", players: int = 4,
          lr: float = 0.01, seed: int = 0, log: Callable[[str], object] | None = None,
          ) -> tuple[Policy, list[tuple[float, int, float]]]:
    """Train a :class:`Policy` for player 0 against random players for about ``seconds``.

    Returns:
        ``(policy, curve)``; ``curve`` lists ``(seconds, episodes, mean reward of the last
        episodes)`` about every 5 seconds (the reward is the place reward, +1 first … -1
        last; 0 is what a random player averages).
    """
    v = VectorEnv(num_envs, rules=Rules.parse(rules, players=players))
    rng = np.random.default_rng(seed)
    policy = Policy()
    params = [policy.w, policy.b]
    m = [np.zeros_like(p) for p in params]
    s = [np.zeros_like(p) for p in params]
    t_adam = 0
    obs, info = v.reset(seed=seed)
    trace: list[list[tuple[np.ndarray, np.ndarray, int, np.ndarray]]] = [[] for _ in range(num_envs)]
    done_batch: list[tuple[list[tuple[np.ndarray, np.ndarray, int, np.ndarray]], float]] = []
    baseline = 0.0
    recent: list[float] = []
    curve: list[tuple[float, int, float]] = []
    episodes = 0
    start = time.perf_counter()
    next_log = 5.0
    while time.perf_counter() - start < seconds:
        mask = info["action_mask"]
        mine = info["player"] == 0
        actions = (rng.random(mask.shape) * mask).argmax(1)      # random legal actions
        if mine.any():
            p = policy.probs(obs[mine], mask[mine])
            u = rng.random((len(p), 1))
            chosen = (p.cumsum(axis=1) < u).sum(axis=1).clip(0, NUM_ACTIONS - 1)
            # a rounding slip past the last legal action falls back to the likeliest
            bad = mask[mine][np.arange(len(p)), chosen] == 0
            chosen[bad] = p[bad].argmax(axis=1)
            actions[mine] = chosen
            for row, i in enumerate(np.flatnonzero(mine)):
                trace[i].append((obs[i], mask[i], int(chosen[row]), p[row]))
        obs, rewards, term, trunc, info = v.step(actions)
        for i in np.flatnonzero(term | trunc):
            done_batch.append((trace[i], float(rewards[i, 0])))
            recent.append(float(rewards[i, 0]))
            trace[i] = []
            episodes += 1
        if len(done_batch) >= num_envs:
            returns = np.array([r for _, r in done_batch])
            grads = [np.zeros_like(p) for p in params]
            xs, gs = [], []
            for steps, r in done_batch:
                adv = r - baseline
                for o, _mk, a, pr in steps:
                    g = -pr * adv
                    g[a] += adv
                    xs.append(o)
                    gs.append(g)
            if xs:
                x, g = np.array(xs), np.array(gs)
                grads[0] = x.T @ g / len(done_batch)
                grads[1] = g.sum(axis=0) / len(done_batch)
                t_adam += 1
                for k, (param, grad) in enumerate(zip(params, grads)):
                    m[k] = 0.9 * m[k] + 0.1 * grad
                    s[k] = 0.999 * s[k] + 0.001 * grad * grad
                    mh = m[k] / (1 - 0.9 ** t_adam)
                    sh = s[k] / (1 - 0.999 ** t_adam)
                    param += lr * mh / (np.sqrt(sh) + 1e-8)   # ascent on expected reward
            baseline = 0.9 * baseline + 0.1 * float(returns.mean())
            done_batch = []
        elapsed = time.perf_counter() - start
        if elapsed >= next_log and recent:
            curve.append((round(elapsed, 1), episodes, float(np.mean(recent[-500:]))))
            if log:
                log(f"{elapsed:6.1f} s  {episodes:7d} episodes  mean reward of the last 500: "
                    f"{np.mean(recent[-500:]):+.3f}")
            next_log += 5.0
    return policy, curve


def evaluate(weights: str, *, deals: int = 2000, rules: str = "house", players: int = 4,
             seed: int = 12345, jobs: int = 1, opponent: str = "random") -> dict[str, Any]:
    """The saved policy at one seat against ``opponent`` (a level) at the others, on
    duplicate deals (:func:`president.simulate.simulate`): its summary dict;
    ``levels[PATH]["gain"]`` is the places ahead of an even table with its 95% interval."""
    from ..simulate import SimulationConfig, simulate

    path = "president.env.pg:PolicyPlayer"
    table = Rules.parse(rules, players=players)
    config = SimulationConfig(rules=table, seats=(path,) + (opponent,) * (players - 1),
                              boards=-(-deals // players), seed=seed,
                              player_options={path: {"weights": os.path.abspath(weights)}})
    return simulate(config, jobs=jobs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Train a masked linear policy by policy "
                                     "gradient against random players, then measure it.")
    parser.add_argument("--seconds", type=float, default=120.0, help="training time (default 120)")
    parser.add_argument("--envs", type=int, default=64, help="tables stepped at once (default 64)")
    parser.add_argument("--lr", type=float, default=0.01, help="Adam step size (default 0.01)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="pg.npz", help="weights file to write (default pg.npz)")
    parser.add_argument("--eval-deals", type=int, default=2000,
                        help="deals of the measurement against random (default 2000; 0: none)")
    parser.add_argument("--jobs", type=int, default=1, help="processes for the measurement")
    parser.add_argument("--against", default="random,beginner",
                        help="levels to measure against, each at all other seats "
                             "(default random,beginner)")
    args = parser.parse_args(argv)
    policy, _ = train(seconds=args.seconds, num_envs=args.envs, lr=args.lr, seed=args.seed,
                      log=print)
    policy.save(args.out)
    print(f"weights written to {args.out}")
    for opponent in [x.strip() for x in args.against.split(",") if x.strip()]:
        if not args.eval_deals:
            break
        result = evaluate(args.out, deals=args.eval_deals, jobs=args.jobs, opponent=opponent)
        entry = result["levels"]["president.env.pg:PolicyPlayer"]
        g = entry["gain"]
        print(f"against 3 {opponent}: mean place {entry['mean_place']['mean']:.3f}, gain "
              f"{g['mean']:+.3f} [{g['low']:+.3f}, {g['high']:+.3f}] places ahead of an even "
              f"table ({result['deals']} deals, {result['boards']} boards, 95% interval)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
