"""Reinforcement-learning environments over the rules engine (needs the ``env`` extra, which
brings numpy, Gymnasium and PettingZoo: ``pip install -e '.[env]'`` in a clone; docs/env.md).

- :func:`env` / :class:`raw_env`: a PettingZoo AEC environment, every player an agent.
- ``gymnasium.make("President-v1", ...)`` (registered when this package is imported), or
  :class:`PresidentEnv`: one learning seat against computer levels or your own bots.
- :class:`GymVectorEnv` (:mod:`president.env.gym_vector`), also
  ``gymnasium.make_vec("President-v1", num_envs=N, ...)``: ``N`` such tables as a
  ``gymnasium.vector.VectorEnv`` (the learner's observations, rewards and masks, batched).
- :class:`VectorEnv` (:mod:`president.env.vector`): ``N`` tables stepped at once, numpy
  arrays of shape ``(N, ...)`` in and out, auto-reset.
- :mod:`president.env.trajectories`: decisions of game records or self-play as arrays
  (observation, mask, action, reward, seat) saved as NPZ (``president export``).
- :mod:`president.env.pg`: a small policy-gradient learner and :class:`~president.env.pg.PolicyPlayer`.
- :mod:`president.env.policy`: any policy ``(observation, mask) -> index`` or a network saved
  as ``.npz`` as a player (:class:`~president.env.policy.PolicyPlayer`), and as a level
  (:func:`president.players.register_policy`).
- :mod:`president.env.league`: self-play against past snapshots and the built-in levels,
  the snapshots rated on duplicate deals (``python -m president.env.league``).
- :mod:`president.env.encoding`: the 66 action indices and the observation vector, with
  :func:`encode_observation` to turn any seat's :class:`~president.observation.Observation`
  into the same vector (for a trained policy playing as a bot).

On their Python backend both environments drive the engine's :class:`~president.match.Match`
through its checked ``act`` and hold no copy of the rules. Their compiled backend
(``backend="auto"``, the default, where ``president._vector`` is built: one-deal episodes
without the ``reversal`` twist) is a C restatement of :mod:`president.kernel` that tests
check byte for byte against the Python tables; ``backend="python"`` always drives the engine.
docs/env.md is the user's page: spaces, rewards, seeding, speed and version history.

>>> from president.env import env
>>> e = env(preset="first-night", players=3)
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> obs.shape, obs.dtype.name, info["action_mask"].dtype.name
((702,), 'float32', 'int8')
"""

from __future__ import annotations

import gymnasium

from .aec import env, raw_env
from .encoding import (GIVE_BASE, NUM_ACTIONS, OBS_SIZE, PASS_ACTION, PIECES,
                       describe_action, encode_observation, piece_slices)
from .gym_vector import GymVectorEnv
from .single import PresidentEnv
from .vector import VectorEnv, sample_legal

__all__ = ["env", "raw_env", "PresidentEnv", "GymVectorEnv", "VectorEnv", "sample_legal", "encode_observation", "describe_action",
           "NUM_ACTIONS", "PASS_ACTION", "GIVE_BASE", "OBS_SIZE", "PIECES", "piece_slices",
           "ENV_ID", "VERSION"]

#: The Gymnasium id registered on import.
ENV_ID = "President-v1"
#: Version of the environments' spaces and dynamics (docs/env.md, "Version history"); the
#: AEC environment's ``metadata["name"]`` is ``president_v1``.
VERSION = 1

if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="president.env.single:PresidentEnv",
                       vector_entry_point="president.env.gym_vector:GymVectorEnv")
