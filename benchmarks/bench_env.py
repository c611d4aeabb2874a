#!/usr/bin/env python3
"""The RL environments (``president.env``): steps per second with random masked actions.

Each figure runs one process, takes a uniformly random legal action from the action mask
every step (``mask.nonzero()[0]`` and a ``random.Random``, the cheapest
choice in plain numpy and Python, so the figure is mostly the environment's), and resets at the end of each
episode; the observation is built every step (``last()`` in the AEC loop, the return value of
``step`` in Gymnasium). Figures are per wall-clock second and per CPU second of this process.

- AEC (PettingZoo) ``house``, 4 players, one-deal episodes, flat observation.
- AEC ``first-night+swap``, 5 players, whole matches (exchange gives as steps).
- Gymnasium ``President-v0``, ``house`` 4 players, the learner against three ``random``
  players (steps are the learner's; the others' turns run inside each step).
- ``VectorEnv``, 64 tables of ``house`` 4 players, one-deal episodes (auto-reset); a step of
  the 64 tables counts 64 steps.

Issue 13's targets are 50,000 AEC steps per second on one core and 100,000 for the vector
environment; the figures say how far off them these pure-Python adapters are. ``PRESIDENT_BENCH_QUICK=1`` (``run.py --quick``) shortens
the runs; ``--seconds S`` sets each run's length; ``--json`` prints JSON.

    .venv/bin/python benchmarks/bench_env.py --seconds 3
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

TARGET_AEC_STEPS_PER_SECOND = 50_000
TARGET_VECTOR_STEPS_PER_SECOND = 100_000


def aec_figure(seconds: float, **options) -> dict:
    """Random masked steps of the AEC environment for about ``seconds``."""
    import numpy as np

    from president.env import env

    e = env(**options)
    rng = random.Random(0)
    e.reset(seed=0)
    steps = episodes = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        for _ in range(200):
            obs, reward, term, trunc, info = e.last()
            if term or trunc:
                e.reset()
                episodes += 1
                continue
            legal = info["action_mask"].nonzero()[0]
            e.step(int(legal[int(rng.random() * len(legal))]))
            steps += 1
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    return {"env": "AEC", "options": options, "steps": steps, "episodes": episodes,
            "seconds": round(wall, 3), "steps_per_second": round(steps / wall),
            "steps_per_cpu_second": round(steps / max(cpu, 1e-9))}


def gym_figure(seconds: float, **options) -> dict:
    """Random masked learner steps of ``President-v0`` for about ``seconds``."""
    import gymnasium as gym
    import numpy as np

    import president.env  # noqa: F401  (registers President-v0)

    e = gym.make("President-v0", **options)
    rng = random.Random(0)
    obs, info = e.reset(seed=0)
    steps = episodes = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        for _ in range(200):
            legal = info["action_mask"].nonzero()[0]
            obs, reward, term, trunc, info = e.step(int(legal[int(rng.random() * len(legal))]))
            steps += 1
            if term or trunc:
                obs, info = e.reset()
                episodes += 1
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    return {"env": "Gymnasium President-v0", "options": options, "steps": steps,
            "episodes": episodes, "seconds": round(wall, 3),
            "steps_per_second": round(steps / wall),
            "steps_per_cpu_second": round(steps / max(cpu, 1e-9))}


def vector_figure(seconds: float, num_envs: int = 64, **options) -> dict:
    """Random masked steps of :class:`~president.env.VectorEnv` (``num_envs`` tables) for about
    ``seconds``; a step of ``N`` tables counts ``N`` steps. Actions are chosen for all tables
    at once: the argmax of uniform noise over each row's mask."""
    import numpy as np

    from president.env import VectorEnv

    v = VectorEnv(num_envs, **options)
    rng = np.random.default_rng(0)
    obs, info = v.reset(seed=0)
    steps = episodes = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        for _ in range(10):
            actions = (rng.random(info["action_mask"].shape) * info["action_mask"]).argmax(1)
            obs, rewards, term, trunc, info = v.step(actions)
            steps += num_envs
            episodes += int(term.sum() + trunc.sum())
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    return {"env": f"VectorEnv N={num_envs}", "options": options, "steps": steps,
            "episodes": episodes, "seconds": round(wall, 3),
            "steps_per_second": round(steps / wall),
            "steps_per_cpu_second": round(steps / max(cpu, 1e-9))}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    quick = os.environ.get("PRESIDENT_BENCH_QUICK") == "1"
    parser.add_argument("--seconds", type=float, default=1.0 if quick else 3.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    try:
        import numpy  # noqa: F401
        import pettingzoo  # noqa: F401
    except ImportError as e:
        print(f"skipped: the env extra is not installed ({e.name}); "
              "pip install -e '.[env]'")
        return 0
    figures = [
        aec_figure(args.seconds, preset="house", players=4),
        aec_figure(args.seconds, preset="first-night", twists=["swap"], players=5,
                   episode="match"),
        gym_figure(args.seconds, preset="house", players=4, opponents="random"),
        vector_figure(args.seconds, 64, preset="house", players=4),
    ]
    if args.json:
        print(json.dumps({"target_aec_steps_per_second": TARGET_AEC_STEPS_PER_SECOND,
                          "target_vector_steps_per_second": TARGET_VECTOR_STEPS_PER_SECOND,
                          "figures": figures}, indent=2))
        return 0
    print("Random masked actions, observation built every step, one process.")
    print(f"{'environment':<26} {'options':<64} {'steps/s':>9} {'per CPU-s':>10} "
          f"{'episodes':>9}")
    for f in figures:
        opts = ", ".join(f"{k}={v}" for k, v in f["options"].items())
        print(f"{f['env']:<26} {opts:<64} {f['steps_per_second']:>9,} "
              f"{f['steps_per_cpu_second']:>10,} {f['episodes']:>9,}")
    best = figures[0]["steps_per_cpu_second"]
    print(f"Issue 13 target: {TARGET_AEC_STEPS_PER_SECOND:,} AEC steps/s on one core: "
          f"{'met' if best >= TARGET_AEC_STEPS_PER_SECOND else 'not met'} "
          f"({best:,} per CPU second, house, 4 players).")
    vec = figures[-1]["steps_per_cpu_second"]
    print(f"Issue 13 target: {TARGET_VECTOR_STEPS_PER_SECOND:,} vector steps/s: "
          f"{'met' if vec >= TARGET_VECTOR_STEPS_PER_SECOND else 'not met'} "
          f"({vec:,} per CPU second, 64 tables, house, 4 players).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
