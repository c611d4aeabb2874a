#!/usr/bin/env python3
"""The RL environments (``president.env``): steps per second with random masked actions.

Each figure runs one process, takes a uniformly random legal action from the action mask
every step (``mask.nonzero()[0]`` and a ``random.Random``, the cheapest
choice in plain numpy and Python, so the figure is mostly the environment's), and resets at the end of each
episode; the observation is built every step (``last()`` in the AEC loop, the return value of
``step`` in Gymnasium). Figures are per wall-clock second and per CPU second of this process.

- AEC (PettingZoo) ``house``, 4 players, one-deal episodes, flat observation: twice, once
  per backend (``backend="python"``, the engine's ``Match``; ``backend="compiled"``, one
  table of the C core ``president._vector``, "not built" when it is missing).
- AEC ``first-night+swap``, 5 players, whole matches (exchange gives as steps).
- Gymnasium ``President-v1``, ``house`` 4 players, the learner against three ``random``
  players (steps are the learner's; the others' turns run inside each step).
- ``GymVectorEnv``, 16 tables, the same learner against three ``random`` players at each
  (a step of the 16 tables counts 16 learner steps).
- ``VectorEnv``, 64 tables of ``house`` 4 players, one-deal episodes (auto-reset); a step of
  the 64 tables counts 64 steps. Measured twice in the same run, once per backend: the
  Python tables (``backend="python"``, the engine's ``Match`` per table) and the compiled
  core (``backend="compiled"``, ``president._vector``; "not built" when it is missing),
  with the ratio compiled / Python. The policy is drawn with numpy from the masks (the
  argmax of uniform noise over each row's mask), the same for both.
- ``VectorEnv`` with compiled opponents: 256 tables of ``house`` 4 players, the learner at
  seat 0 against three ``intermediate`` players played inside the compiled core
  (``opponents=[None, "intermediate", "intermediate", "intermediate"]``); a step takes the
  learner's action at every table and the opponents' turns until the learner's next one,
  and counts 256 learner steps; the learner's actions by :func:`president.env.sample_legal`,
  the observation built every step. Target: 200,000 learner steps per CPU second.
- Whole deals per second of ``VectorEnv`` (the "batched step-and-mask" path), 256 tables
  (and again 1,024: a larger batch spreads each call's fixed cost and fills the C core's
  four seeding lanes when many deals end in one step) of ``house`` 4 players on the compiled backend, a uniformly random legal action per table
  every step drawn from the masks by :func:`president.env.sample_legal` (one uniform number
  per row, the pick in C): once with :meth:`VectorEnv.step_masks` (masks, players, rewards
  and ends only, no observation) and once with ``step`` (the full observations), beside
  the project's target of 100,000 deals per second; then ``step_masks`` again with the same
  draw stated in plain numpy (a cumulative sum of each mask row), for comparison. Each also
  gives the environment's own figure: deals per CPU second spent inside ``step_masks`` (or
  ``step``), the draw left out. Beside them, OpenSpiel's ``crazy_eights`` (4 players, whole
  C++ games of random bots, ``bench_playouts.py``'s measurement) when ``pyspiel`` is
  installed: the target of 100,000 was set next to 28,248 of it (3.54x), so the ratio measured here
  says how far the target is at this machine's speed of the day.

The project's targets are 50,000 AEC steps per second on one core and 100,000 for the vector
environment, and 100,000 whole deals per second through batched step-and-mask. ``PRESIDENT_BENCH_QUICK=1`` (``run.py --quick``) shortens
the runs; ``--seconds S`` sets each run's length; ``--json`` prints JSON.

Then the **peers**, measured in the same run where they are installed (none is in the
project's install; each runs in a process of its own, with the same loop: a uniformly random
legal action every decision, the acting player's observation built before it, chance steps
of the deal not counted as steps), and the ratios ours / peer:

- OpenSpiel (``pip install open_spiel``): ``dou_dizhu`` (3 players, a climbing game like
  President) and ``crazy_eights`` (5 players), ``observation_tensor`` every decision;
- RLCard (``pip install rlcard``): ``doudizhu``, whose ``step`` builds the state;
- Chef's Hat (``pip install chefshatgym gym``; it pins numpy 1.26 and pandas 2.1, so install
  it in a venv of its own and name that venv's python in ``PRESIDENT_BENCH_PEER_PYTHON``):
  ``ChefsHatEnv``, 4 players, one match (a deal) counted as a deal.

A peer not importable by this Python (nor by the interpreters listed, separated by ``:``, in
``PRESIDENT_BENCH_PEER_PYTHON``) is reported as "not installed (pip install X)".

    .venv/bin/python benchmarks/bench_env.py --seconds 3
    PRESIDENT_BENCH_PEER_PYTHON=/tmp/peers/bin/python .venv/bin/python benchmarks/bench_env.py
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

TARGET_AEC_STEPS_PER_SECOND = 50_000
TARGET_VECTOR_STEPS_PER_SECOND = 100_000
TARGET_DEALS_PER_SECOND = 100_000
TARGET_OPPONENT_STEPS_PER_SECOND = 200_000
#: The same target as a ratio to OpenSpiel's crazy_eights (4 players, whole C++ games of
#: random bots per CPU second), measured at 28,248 when the targets were set.
TARGET_DEALS_RATIO_TO_CRAZY_EIGHTS = 100_000 / 28_248
#: Tables of the step-and-mask figures: the headline and a larger batch.
DEAL_BATCHES = (256, 1024)


def aec_figure(seconds: float, **options) -> dict:
    """Random masked steps of the AEC environment for about ``seconds``."""

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
            "steps_per_cpu_second": round(steps / max(cpu, 1e-9)),
            "episodes_per_cpu_second": round(episodes / max(cpu, 1e-9), 1)}


def compiled_aec_figure(seconds: float, **options) -> dict | None:
    """:func:`aec_figure` with ``backend="compiled"``, or ``None`` when the compiled core
    cannot run (not built, or ``PRESIDENT_PURE=1``)."""
    try:
        return aec_figure(seconds, backend="compiled", **options)
    except ValueError as e:
        if "backend = 'compiled'" not in str(e):
            raise
        return None


def deals_figure(seconds: float, num_envs: int = 256, observe: bool = False,
                 draw: str = "sample_legal", **options) -> dict | None:
    """Whole random deals per second of a compiled :class:`~president.env.VectorEnv` of
    ``num_envs`` one-deal tables for about ``seconds``: every step takes a uniformly random
    legal action per table, drawn from the masks with
    :func:`~president.env.vector.sample_legal` (the ``floor(u * legal)``-th legal action,
    one uniform ``u`` per row, in C), or with ``draw="numpy"`` by the same rule in plain
    numpy (the first position where the row's cumulative mask count passes it; about 70% of
    the loop's CPU).
    ``observe=False`` steps with :meth:`~president.env.VectorEnv.step_masks` (no
    observation is written); ``observe=True`` with ``step``. ``None`` when the compiled core
    cannot run."""
    import numpy as np

    from president.env import VectorEnv, sample_legal

    try:
        v = VectorEnv(num_envs, backend="compiled", **options)
    except ValueError as e:
        if "backend = 'compiled'" not in str(e):
            raise
        return None
    rng = np.random.default_rng(0)
    _, info = v.reset(seed=0)
    steps = deals = 0
    inside = 0.0  # CPU seconds inside step / step_masks (the environment's own share)
    clock = time.process_time
    start, cpu = time.perf_counter(), clock()
    while time.perf_counter() - start < seconds:
        for _ in range(20):
            if draw == "numpy":
                mask = info["action_mask"]
                counts = mask.cumsum(1, dtype=np.int8)
                pick = (rng.random(num_envs) * counts[:, -1]).astype(np.int8)
                actions = (counts > pick[:, None]).argmax(1)
            else:
                actions = sample_legal(info["action_mask"], rng)
            t = clock()
            if observe:
                _, _, term, _, info = v.step(actions)
            else:
                _, term, _, info = v.step_masks(actions)
            inside += clock() - t
            steps += num_envs
            deals += int(term.sum())
    wall, cpu = time.perf_counter() - start, clock() - cpu
    return {"env": f"VectorEnv N={num_envs} compiled "
                   f"{'step (observations)' if observe else 'step_masks'}"
                   f"{', numpy draw' if draw == 'numpy' else ''}", "draw": draw,
            "backend": "compiled", "observe": observe, "options": options, "steps": steps,
            "episodes": deals, "seconds": round(wall, 3),
            "steps_per_second": round(steps / wall),
            "steps_per_cpu_second": round(steps / max(cpu, 1e-9)),
            "episodes_per_cpu_second": round(deals / max(cpu, 1e-9), 1),
            "deals_per_second": round(deals / wall),
            "deals_per_cpu_second": round(deals / max(cpu, 1e-9)),
            "env_deals_per_cpu_second": round(deals / max(inside, 1e-9)),
            "env_share": round(inside / max(cpu, 1e-9), 2),
            "steps_per_deal": round(steps / max(deals, 1), 1)}


def gym_figure(seconds: float, **options) -> dict:
    """Random masked learner steps of ``President-v1`` for about ``seconds``."""
    import gymnasium as gym

    import president.env  # noqa: F401  (registers President-v1)

    e = gym.make("President-v1", **options)
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
    return {"env": "Gymnasium President-v1", "options": options, "steps": steps,
            "episodes": episodes, "seconds": round(wall, 3),
            "steps_per_second": round(steps / wall),
            "steps_per_cpu_second": round(steps / max(cpu, 1e-9))}


def _time_batched(v, info: dict, num_envs: int, seconds: float,
                  choose) -> tuple[int, int, float, float]:
    """Step the vector environment ``v`` (already reset, returning ``info``) for about
    ``seconds`` with ``choose(mask)`` as the actions; returns ``(steps, episodes, wall
    seconds, CPU seconds)``, a step of ``N`` tables counting ``N`` steps."""
    steps = episodes = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        for _ in range(10):
            obs, rewards, term, trunc, info = v.step(choose(info["action_mask"]))
            steps += num_envs
            episodes += int(term.sum() + trunc.sum())
    return steps, episodes, time.perf_counter() - start, time.process_time() - cpu


def gym_vector_figure(seconds: float, num_envs: int = 16, **options) -> dict:
    """Random masked learner steps of :class:`~president.env.GymVectorEnv` (``num_envs``
    tables, auto-reset) for about ``seconds``, the actions drawn by ``sample_legal``; a
    step of ``N`` tables counts ``N``."""
    import numpy as np

    from president.env import GymVectorEnv, sample_legal

    v = GymVectorEnv(num_envs, **options)
    rng = np.random.default_rng(0)
    steps, episodes, wall, cpu = _time_batched(
        v, v.reset(seed=0)[1], num_envs, seconds, lambda mask: sample_legal(mask.view(np.int8), rng))
    return {"env": f"GymVectorEnv N={num_envs}", "options": options, "steps": steps,
            "episodes": episodes, "seconds": round(wall, 3),
            "steps_per_second": round(steps / wall),
            "steps_per_cpu_second": round(steps / max(cpu, 1e-9))}


def vector_figure(seconds: float, num_envs: int = 64, backend: str = "python",
                  **options) -> dict:
    """Random masked steps of :class:`~president.env.VectorEnv` (``num_envs`` tables, the
    given ``backend``) for about ``seconds``; a step of ``N`` tables counts ``N`` steps.
    Actions are chosen for all tables at once: the argmax of uniform noise over each row's
    mask. Raises ``ValueError`` when ``backend="compiled"`` cannot run (not built)."""
    import numpy as np

    from president.env import VectorEnv

    v = VectorEnv(num_envs, backend=backend, **options)
    rng = np.random.default_rng(0)
    steps, episodes, wall, cpu = _time_batched(
        v, v.reset(seed=0)[1], num_envs, seconds, lambda mask: (rng.random(mask.shape) * mask).argmax(1))
    return {"env": f"VectorEnv N={num_envs} {v.backend}", "backend": v.backend,
            "options": options, "steps": steps, "episodes": episodes,
            "seconds": round(wall, 3), "steps_per_second": round(steps / wall),
            "steps_per_cpu_second": round(steps / max(cpu, 1e-9)),
            "episodes_per_cpu_second": round(episodes / max(cpu, 1e-9), 1)}


def compiled_vector_figure(seconds: float, num_envs: int = 64, **options) -> dict | None:
    """:func:`vector_figure` with ``backend="compiled"``, or ``None`` when the compiled core
    cannot run (not built, or ``PRESIDENT_PURE=1``)."""
    try:
        return vector_figure(seconds, num_envs, backend="compiled", **options)
    except ValueError as e:
        if "backend = 'compiled'" not in str(e):
            raise
        return None


def opponents_figure(seconds: float, num_envs: int = 256, level: str = "intermediate",
                     **options) -> dict | None:
    """Learner steps of a compiled :class:`~president.env.VectorEnv` whose seats 1.. are
    ``level`` players played in C (``num_envs`` tables, learner at seat 0, auto-reset) for
    about ``seconds``, the learner's actions by ``sample_legal``; a step counts ``N``
    learner steps. ``None`` when the compiled core cannot run (not built, or
    ``PRESIDENT_PURE=1``)."""
    import numpy as np

    from president.env import VectorEnv, sample_legal

    try:
        probe = VectorEnv(1, backend="compiled", **options)
    except ValueError as e:
        if "backend = 'compiled'" not in str(e):
            raise
        return None
    lineup = [None] + [level] * (probe.players - 1)
    v = VectorEnv(num_envs, backend="compiled", opponents=lineup, **options)
    rng = np.random.default_rng(0)
    steps, episodes, wall, cpu = _time_batched(
        v, v.reset(seed=0)[1], num_envs, seconds, lambda mask: sample_legal(mask, rng))
    return {"env": f"VectorEnv N={num_envs} compiled, {level} opponents",
            "options": {**options, "opponents": f"[None] + [{level!r}] * {len(lineup) - 1}"},
            "steps": steps, "episodes": episodes, "seconds": round(wall, 3),
            "steps_per_second": round(steps / wall),
            "steps_per_cpu_second": round(steps / max(cpu, 1e-9)),
            "episodes_per_cpu_second": round(episodes / max(cpu, 1e-9), 1)}


def _openspiel(game_name: str, seconds: float) -> dict:
    import pyspiel

    game = pyspiel.load_game(game_name)
    rng = random.Random(0)
    steps = deals = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():          # dealing: not a decision, not counted
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
                continue
            state.observation_tensor(state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
            steps += 1
        deals += 1
    from importlib.metadata import version
    return _peer_figure(steps, deals, time.process_time() - cpu, game.num_players(),
                        f"open_spiel {version('open_spiel')}")


def _rlcard(name: str, seconds: float) -> dict:
    import rlcard

    env = rlcard.make(name, config={"seed": 0})
    rng = random.Random(0)
    steps = deals = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        state, _ = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[int(rng.random() * len(legal))])
            steps += 1
        deals += 1
    return _peer_figure(steps, deals, time.process_time() - cpu, env.num_players,
                        f"rlcard {rlcard.__version__}")


def _chefs_hat(seconds: float) -> dict:
    import numpy as np
    from ChefsHatGym.env.ChefsHatEnv import GAMETYPE, ChefsHatEnv

    env = ChefsHatEnv()
    with tempfile.TemporaryDirectory() as tmp:   # it needs a log directory, even unused
        env.startExperiment(gameType=GAMETYPE["MATCHES"], stopCriteria=10 ** 9,
                            playerNames=["p0", "p1", "p2", "p3"],
                            logDirectory=os.path.join(tmp, "log"), verbose=0, saveLog=False,
                            saveDataset=False)
        env.reset()
        rng = random.Random(0)
        steps = deals = 0
        start, cpu = time.perf_counter(), time.process_time()
        while time.perf_counter() - start < seconds:
            obs = env.getObservation()             # board 11, hand 17, then the 200-action mask
            legal = np.flatnonzero(obs[28:])
            action = np.zeros(200, dtype=np.float32)
            action[legal[int(rng.random() * len(legal))]] = 1
            out = env.step(action)
            steps += 1
            if out[2]:                             # a match (one deal) is over
                deals += 1
                if env.gameFinished:
                    env.reset()
        cpu = time.process_time() - cpu
    from importlib.metadata import version
    return _peer_figure(steps, deals, cpu, 4, f"chefshatgym {version('chefshatgym')}")


def _peer_figure(steps: int, deals: int, cpu: float, players: int, version: str) -> dict:
    cpu = max(cpu, 1e-9)
    return {"steps": steps, "deals": deals, "players": players, "version": version,
            "steps_per_cpu_second": round(steps / cpu),
            "deals_per_cpu_second": round(deals / cpu, 1),
            "steps_per_deal": round(steps / max(deals, 1), 1)}


#: name -> (what is measured, module to import, install hint, measure(seconds) -> dict)
PEERS = {
    "openspiel-dou_dizhu": ("OpenSpiel dou_dizhu", "pyspiel", "pip install open_spiel",
                            lambda s: _openspiel("dou_dizhu", s)),
    "openspiel-crazy_eights": ("OpenSpiel crazy_eights", "pyspiel", "pip install open_spiel",
                               lambda s: _openspiel("crazy_eights", s)),
    "rlcard-doudizhu": ("RLCard doudizhu", "rlcard", "pip install rlcard",
                        lambda s: _rlcard("doudizhu", s)),
    "chefshat": ("Chef's Hat ChefsHatEnv", "ChefsHatGym", "pip install chefshatgym gym",
                 _chefs_hat),
}


def _measure_peer(name: str, seconds: float) -> int:
    """``--peer NAME``: measure one peer in this process and print one JSON line (or
    ``{"missing": module}`` when it does not import)."""
    label, module, hint, measure = PEERS[name]
    noise = io.StringIO()
    try:
        with contextlib.redirect_stdout(noise), contextlib.redirect_stderr(noise):
            __import__(module)
            figure = measure(seconds)
    except ImportError as e:
        figure = {"missing": e.name or module}
    print(json.dumps(figure))
    return 0


def peer_figures(seconds: float) -> list[dict]:
    """Every peer, each in a process of its own: this Python first, then the interpreters in
    ``PRESIDENT_BENCH_PEER_PYTHON``; a peer none of them imports is ``installed: False``."""
    pythons = [sys.executable] + [p for p in os.environ.get(
        "PRESIDENT_BENCH_PEER_PYTHON", "").split(os.pathsep) if p]
    out = []
    for name, (label, _module, hint, _) in PEERS.items():
        figure: dict = {"peer": name, "label": label, "installed": False, "install": hint}
        for python in pythons:
            proc = subprocess.run([python, __file__, "--peer", name, "--seconds", str(seconds)],
                                  capture_output=True, text=True)
            lines = proc.stdout.strip().splitlines()
            if proc.returncode != 0 or not lines:
                figure["error"] = (proc.stderr.strip().splitlines() or ["no output"])[-1]
                continue
            measured = json.loads(lines[-1])
            if "missing" not in measured:
                figure.update(measured, installed=True, python=python)
                figure.pop("error", None)
                break
        out.append(figure)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    quick = os.environ.get("PRESIDENT_BENCH_QUICK") == "1"
    parser.add_argument("--seconds", type=float, default=1.0 if quick else 3.0)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--peer", choices=sorted(PEERS), default=None,
                        help="measure only this peer, in this process (JSON line)")
    parser.add_argument("--no-peers", action="store_true", help="skip the peers")
    args = parser.parse_args(argv)
    if args.peer:
        return _measure_peer(args.peer, args.seconds)
    try:
        import numpy  # noqa: F401
        import pettingzoo  # noqa: F401
    except ImportError as e:
        print(f"skipped: the env extra is not installed ({e.name}); "
              "pip install -e '.[env]'")
        return 0
    aec_python = aec_figure(args.seconds, preset="house", players=4, backend="python")
    aec_compiled = compiled_aec_figure(args.seconds, preset="house", players=4)
    figures = [aec_python] + ([aec_compiled] if aec_compiled is not None else []) + [
        aec_figure(args.seconds, preset="first-night", twists=["swap"], players=5,
                   episode="match"),
        gym_figure(args.seconds, preset="house", players=4, opponents="random"),
        gym_vector_figure(args.seconds, 16, preset="house", players=4, opponents="random"),
        vector_figure(args.seconds, 64, preset="house", players=4),
    ]
    compiled = compiled_vector_figure(args.seconds, 64, preset="house", players=4)
    python_vector = figures[-1]
    if compiled is not None:
        compiled["ratio_to_python"] = round(compiled["steps_per_cpu_second"] /
                                            max(python_vector["steps_per_cpu_second"], 1), 2)
        figures.append(compiled)
    against = opponents_figure(args.seconds, 256, preset="house", players=4)
    if against is not None:
        figures.append(against)
    deal_figures = [f for f in (*(deals_figure(args.seconds, n, observe=False, preset="house",
                                                players=4) for n in DEAL_BATCHES),
                                deals_figure(args.seconds, 256, observe=True, preset="house",
                                             players=4),
                                deals_figure(args.seconds, 256, observe=False, draw="numpy",
                                             preset="house", players=4)) if f is not None]
    # the peer the deals target was set against, in this run (None without pyspiel)
    eights = None if args.no_peers or not deal_figures else \
        whole_games("crazy_eights", {"players": 4}, args.seconds)
    figures += deal_figures
    peers = [] if args.no_peers else peer_figures(args.seconds)
    ours = aec_compiled or aec_python
    for f in peers:
        if f["installed"]:
            f["ratio_steps"] = round(ours["steps_per_cpu_second"] /
                                     max(f["steps_per_cpu_second"], 1), 2)
            f["ratio_deals"] = round(ours["episodes_per_cpu_second"] /
                                     max(f["deals_per_cpu_second"], 1e-9), 2)
    if args.json:
        print(json.dumps({"target_aec_steps_per_second": TARGET_AEC_STEPS_PER_SECOND,
                          "target_vector_steps_per_second": TARGET_VECTOR_STEPS_PER_SECOND,
                          "target_deals_per_second": TARGET_DEALS_PER_SECOND,
                          "target_opponent_steps_per_second":
                              TARGET_OPPONENT_STEPS_PER_SECOND,
                          "target_deals_ratio_to_crazy_eights":
                              round(TARGET_DEALS_RATIO_TO_CRAZY_EIGHTS, 2),
                          "crazy_eights_whole_games": eights,
                          "figures": figures, "peers": peers}, indent=2))
        return 0
    print("Random masked actions, observation built every step, one process.")
    width = max(len(f["env"]) for f in figures)
    print(f"{'environment':<{width}} {'options':<64} {'steps/s':>9} {'per CPU-s':>10} "
          f"{'episodes':>9}")
    for f in figures:
        opts = ", ".join(f"{k}={v}" for k, v in f["options"].items())
        print(f"{f['env']:<{width}} {opts:<64} {f['steps_per_second']:>9,} "
              f"{f['steps_per_cpu_second']:>10,} {f['episodes']:>9,}")
    best = max(f["steps_per_cpu_second"] for f in (aec_python, aec_compiled) if f is not None)
    print(f"Target: {TARGET_AEC_STEPS_PER_SECOND:,} AEC steps/s on one core: "
          f"{'met' if best >= TARGET_AEC_STEPS_PER_SECOND else 'not met'} "
          f"({best:,} per CPU second, house, 4 players, the faster backend).")
    if aec_compiled is None:
        print("AEC compiled backend: not built (president._vector) or PRESIDENT_PURE=1.")
    else:
        print(f"AEC compiled / Python, same run: {aec_compiled['steps_per_cpu_second']:,} / "
              f"{aec_python['steps_per_cpu_second']:,} steps per CPU second = "
              f"{aec_compiled['steps_per_cpu_second'] / max(aec_python['steps_per_cpu_second'], 1):.1f}x.")
    if compiled is None:
        print("VectorEnv compiled backend: not built (president._vector; python setup.py "
              "build_ext --inplace) or PRESIDENT_PURE=1.")
    else:
        print(f"VectorEnv compiled / Python, same run: {compiled['steps_per_cpu_second']:,} / "
              f"{python_vector['steps_per_cpu_second']:,} steps per CPU second = "
              f"{compiled['ratio_to_python']}x; {compiled['episodes_per_cpu_second']:,} / "
              f"{python_vector['episodes_per_cpu_second']:,} one-deal episodes per CPU second.")
    vec = max(f["steps_per_cpu_second"] for f in figures
              if f["env"].startswith("VectorEnv N=64"))
    print(f"Target: {TARGET_VECTOR_STEPS_PER_SECOND:,} vector steps/s: "
          f"{'met' if vec >= TARGET_VECTOR_STEPS_PER_SECOND else 'not met'} "
          f"({vec:,} per CPU second, 64 tables, house, 4 players, the faster backend).")
    if against is not None:
        got = against["steps_per_cpu_second"]
        print(f"Target: {TARGET_OPPONENT_STEPS_PER_SECOND:,} learner steps/s against compiled "
              f"intermediate opponents: "
              f"{'met' if got >= TARGET_OPPONENT_STEPS_PER_SECOND else 'not met'} ({got:,} per "
              "CPU second, 256 tables, house, 4 players).")
    if deal_figures:
        print(deals_verdict(deal_figures, eights))
    if peers:
        print_peers(ours, peers)
    return 0


def deals_verdict(deal_figures: list[dict], eights: dict | None) -> str:
    """The step-and-mask target, read off the figures of one run: absolute (deals
    per CPU second) and as a ratio to OpenSpiel's ``crazy_eights`` measured beside them
    (``eights``, :func:`whole_games`; ``None`` without ``pyspiel``)."""
    masks = [f for f in deal_figures if not f["observe"] and f["draw"] != "numpy"]
    head = masks[0]
    best = max(masks, key=lambda f: f["deals_per_cpu_second"])
    full = next(f for f in deal_figures if f["observe"])
    slow = next((f for f in deal_figures if f["draw"] == "numpy"), None)
    numpy_part = ("" if slow is None else
                  f"; {slow['deals_per_cpu_second']:,} with the draw in plain numpy")
    sizes = ", ".join(f"{f['deals_per_cpu_second']:,} at {f['env'].split()[1]}" for f in masks)
    met = best["deals_per_cpu_second"] >= TARGET_DEALS_PER_SECOND
    text = (f"Target: {TARGET_DEALS_PER_SECOND:,} whole deals/s through batched "
            f"step-and-mask: {'met' if met else 'not met'} ({sizes} random deals per CPU "
            f"second with step_masks, {full['deals_per_cpu_second']:,} with full "
            f"observations at N=256; house, 4 players, {head['steps_per_deal']} steps a deal, "
            f"actions drawn by sample_legal{numpy_part}). The environment's own CPU (inside "
            f"step_masks; the draw of the actions left out): "
            f"{head['env_deals_per_cpu_second']:,} deals per CPU second at N=256 "
            f"({head['env_share']:.0%} of the loop), {best['env_deals_per_cpu_second']:,} "
            f"at {best['env'].split()[1]}; inside step: {full['env_deals_per_cpu_second']:,}.")
    if eights is None:
        return text + " OpenSpiel crazy_eights: not measured (pip install open_spiel)."
    ratio = best["deals_per_cpu_second"] / max(eights["games_per_cpu_second"], 1e-9)
    goal = TARGET_DEALS_RATIO_TO_CRAZY_EIGHTS
    return (text + f" As a ratio, same run: OpenSpiel crazy_eights (4 players, C++ random "
            f"bots) {eights['games_per_cpu_second']:,.0f} whole games per CPU second; ours "
            f"at {best['env'].split()[1]} / it = {ratio:.2f}x (the target as a ratio: "
            f"{goal:.2f}x, {goal * eights['games_per_cpu_second']:,.0f} deals per CPU second "
            f"on this machine today): {'met' if ratio >= goal else 'not met'}.")


def whole_games(name: str, params: dict, seconds: float) -> dict | None:
    """Whole OpenSpiel games per CPU second with C++ random bots: ``bench_playouts.peer``
    (the same measurement that sets the play-out target's ratio); ``None`` without
    ``pyspiel``."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_playouts import peer
    return peer(name, params, seconds)


def print_peers(ours: dict, peers: list[dict]) -> None:
    """The peers' table, with the ratios to our AEC figure (house, 4 players, one deal)."""
    print()
    print("Peers, same run, same loop (random legal action, the actor's observation built "
          "every decision; chance steps not counted).")
    print(f"Ours: AEC house 4 players {ours['steps_per_cpu_second']:,} steps and "
          f"{ours['episodes_per_cpu_second']:,} deals per CPU second.")
    print(f"{'peer':<24} {'version':<22} {'players':>7} {'steps/CPU-s':>12} "
          f"{'deals/CPU-s':>12} {'steps/deal':>10} {'ours/peer steps':>16} "
          f"{'ours/peer deals':>16}")
    for f in peers:
        if not f["installed"]:
            why = f" ({f['error']})" if f.get("error") else ""
            print(f"{f['label']:<24} not installed ({f['install']}){why}")
            continue
        print(f"{f['label']:<24} {f['version']:<22} {f['players']:>7} "
              f"{f['steps_per_cpu_second']:>12,} {f['deals_per_cpu_second']:>12,} "
              f"{f['steps_per_deal']:>10} {f['ratio_steps']:>16} {f['ratio_deals']:>16}")


if __name__ == "__main__":
    sys.exit(main())
