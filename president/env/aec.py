"""The PettingZoo AEC environment: every seat an agent, turns as the rules give them.

Agents are ``"player_0"`` … ``"player_{n-1}"``, the match's players (an agent keeps its
name when ``by-finish`` seating moves it to another seat). See docs/env.md for the
spaces, rewards and seeding.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..errors import IllegalAction
from ..rules import Rules
from .encoding import NUM_ACTIONS, OBS_SIZE, SLICES
from .table import Table, make_rules

__all__ = ["raw_env", "env", "observation_space_for", "ILLEGAL"]

#: ``illegal`` option values: raise :class:`~president.errors.IllegalAction`, or end the
#: episode with ``illegal_reward`` for the offender (0 for the others).
ILLEGAL = ("raise", "penalty")


def observation_space_for(table: Table, dict_obs: bool) -> spaces.Space[Any]:
    """The observation space: a ``Box(0, high, (OBS_SIZE,), float32)`` (``high`` is 1 except
    for the ``scores`` piece, whose bound is the most points an episode allows), or with
    ``dict_obs`` a ``Dict`` of that box as ``"observation"`` and ``"action_mask"``
    (``Box(0, 1, (66,), int8)``)."""
    high = np.ones(OBS_SIZE, dtype=np.float32)
    high[SLICES["scores"]] = table.score_high
    box = spaces.Box(low=np.zeros(OBS_SIZE, dtype=np.float32), high=high, dtype=np.float32)
    if not dict_obs:
        return box
    return spaces.Dict({"observation": box,
                        "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8)})


def check_choice(option: str, value: object, allowed: tuple[object, ...]) -> None:
    """Raise ``ValueError`` naming ``option`` when ``value`` is not one of ``allowed``."""
    if value not in allowed:
        raise ValueError(f"{option} = {value!r} is not allowed; choose one of: "
                         f"{', '.join(map(str, allowed))}")


# PettingZoo's name for the unwrapped class (N801); pettingzoo ships no types, so AECEnv is
# Any to mypy (misc)
class raw_env(AECEnv):  # type: ignore[misc]  # noqa: N801
    """President as a PettingZoo AEC environment.

    Keyword args:
        rules: a :class:`~president.rules.Rules` or a name such as ``"house+sit-out"``
            (overrides ``preset`` and ``twists``).
        preset: ``"house"`` (default), ``"family"``, ``"practice"`` or ``"first-night"``.
        twists: that preset's twists, a list or ``"a+b"``.
        players: 3–7 (default: the preset's smallest table).
        episode: ``"deal"`` (default) or ``"match"`` (exchanges as one-card give steps).
        reward: ``"place"`` (default) or ``"points"``.
        max_deals: a ``"match"`` episode is truncated after this many deals (default 20).
        dict_obs: observations as ``{"observation", "action_mask"}`` instead of the flat
            vector (the mask is then also in ``infos[agent]["action_mask"]``; it always is).
        illegal: ``"raise"`` (default) or ``"penalty"``.
        illegal_reward: the offender's reward under ``illegal = "penalty"`` (default -1.0).
        render_mode: ``None``, ``"ansi"`` or ``"human"`` (public state as text).

    Raises:
        ValueError: for a bad option, saying which values are allowed.
    """

    metadata: ClassVar[dict[str, Any]] = {"name": "president_v0",
                                          "render_modes": ["human", "ansi"],
                                          "is_parallelizable": False, "render_fps": 4}

    def __init__(self, *, rules: Rules | str | None = None, preset: str = "house",
                 twists: Any = (), players: int | None = None, episode: str = "deal",
                 reward: str = "place", max_deals: int = 20, dict_obs: bool = False,
                 illegal: str = "raise", illegal_reward: float = -1.0,
                 render_mode: str | None = None) -> None:
        super().__init__()
        check_choice("illegal", illegal, ILLEGAL)
        check_choice("render_mode", render_mode, (None, "human", "ansi"))
        check_choice("dict_obs", dict_obs, (True, False))
        self.table = Table(make_rules(rules=rules, preset=preset, twists=twists, players=players),
                           episode=episode, reward=reward, max_deals=max_deals)
        self.rules = self.table.rules
        n = self.table.n
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = observation_space_for(self.table, dict_obs)
        act_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self.dict_obs = dict_obs
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self._rng: random.Random | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ----- the AEC protocol ---------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start an episode. With ``seed`` the episode (match seed, first dealer) is a pure
        function of it; without, the next episode of the generator seeded last (or an
        unseeded one)."""
        if seed is not None or self._rng is None:
            self._rng = random.Random(seed)
        self.table.reset(self._rng)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._rewards_set = False
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {"action_mask": self.table.mask(i)} for i, a in enumerate(self.agents)}
        first = self.table.acting()
        assert first is not None    # a new episode has someone to act
        self.agent_selection = self.possible_agents[first]
        self._skip_agent_selection = None

    def observe(self, agent: str) -> np.ndarray | dict[str, np.ndarray]:
        i = self._index[agent]
        obs = self.table.observe(i)
        if self.dict_obs:
            return {"observation": obs, "action_mask": self.table.mask(i)}
        return obs

    def step(self, action: int | None) -> None:
        """Take action index ``action`` (0..65, see docs/env.md) for ``agent_selection``;
        ``None`` for an agent whose episode is over.

        Raises:
            IllegalAction: reason ``illegal-index`` under ``illegal = "raise"`` for an action
                the mask refuses (nothing changes).
            ValueError: an action other than ``None`` for a finished agent.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self.table
        self._cumulative_rewards[agent] = 0.0
        why = table.refusal(action)
        rewards = None
        if why is not None:
            if self.illegal == "raise":
                raise IllegalAction("illegal-index", f"{agent}: {why}")
            rewards = [0.0] * table.n
            rewards[self._index[agent]] = self.illegal_reward
            table.terminated = True
        else:
            assert action is not None   # refusal() refuses None
            rewards = table.step_checked(int(action))
        agents = self.possible_agents
        if rewards is None:
            if self._rewards_set:  # the step before gave rewards; this one gives none
                for a in self.rewards:
                    self.rewards[a] = 0.0
                self._rewards_set = False
        else:
            for i, a in enumerate(agents):
                self.rewards[a] = rewards[i]
            self._rewards_set = True
        nxt = table.acting()
        if nxt is None:
            over_t, over_tr = table.terminated, table.truncated
            zero = np.zeros(NUM_ACTIONS, dtype=np.int8)
            for a in self.agents:
                self.terminations[a] = over_t
                self.truncations[a] = over_tr and not over_t
                self.infos[a] = {"action_mask": zero.copy()}
        else:
            self.infos[agent] = {"action_mask": np.zeros(NUM_ACTIONS, dtype=np.int8)}
            nxt_agent = agents[nxt]
            self.infos[nxt_agent] = {"action_mask": table.mask(nxt)}
            self.agent_selection = nxt_agent
        if self._rewards_set:  # all zero otherwise: nothing to add
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The public state as text: returned under ``"ansi"``, printed under ``"human"``."""
        text = self.table.render_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def env(**kwargs: Any) -> raw_env:
    """The AEC environment (:class:`raw_env`; keyword options as documented there). The
    engine checks every action itself, so no PettingZoo wrapper is added."""
    return raw_env(**kwargs)
