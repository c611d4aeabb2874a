"""The PettingZoo AEC environment: every seat an agent, turns as the rules give them.

Agents are ``"player_0"`` … ``"player_{n-1}"``, the match's players (an agent keeps its
name when ``by-finish`` seating moves it to another seat). See docs/env.md for the
spaces, rewards and seeding.

Two backends play the episodes, to the same numbers (``backend=`` and
:attr:`raw_env.backend`), as :class:`~president.env.vector.VectorEnv`'s do:

- ``"python"``: a :class:`~president.env.table.Table`, every action through the engine's
  checked ``Match.act``;
- ``"compiled"``: one table of the C core ``president._vector``
  (:mod:`president.env._compiled_vector`), for one-deal episodes (``episode="deal"``) of
  every preset and twist but ``reversal``. It deals in C with the Python table's draws from
  the environment's generator, and gives byte-identical observations (of every agent, the
  one to act or not, during and after the episode), masks, rewards, terminations and
  refusals for the same seeds and actions (tests/test_env_aec_compiled.py checks them).
  Reading :attr:`raw_env.table` (the engine's table, e.g. to load chosen hands) moves the
  environment to the Python backend for good: the episode in progress is replayed there
  first, from its generator state and the actions taken, so nothing is lost.

``"auto"`` (the default) takes ``"compiled"`` when it is built, ``PRESIDENT_PURE`` is not
``1`` and it plays the options; else ``"python"``.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..errors import IllegalAction
from ..rules import Rules
from . import _compiled_vector
from .encoding import NUM_ACTIONS, OBS_SIZE, scale_scores
from .table import Table, make_rules

__all__ = ["raw_env", "env", "observation_space_for", "ILLEGAL", "ILLEGAL_POLICY", "BACKENDS"]

#: ``backend`` option values of :class:`raw_env`.
BACKENDS = ("auto", "compiled", "python")

#: ``illegal`` option values, the default first: end the episode with ``illegal_reward`` for
#: the offender (0 for the others), or raise :class:`~president.errors.IllegalAction`.
ILLEGAL = ("penalty", "raise")

#: The one rule for an action the mask refuses, in the AEC environment, ``PresidentEnv`` and
#: ``GymVectorEnv`` alike.
ILLEGAL_POLICY = (
    'illegal="penalty" (the default): the action is not played; the episode ends at once '
    "(terminated, not truncated) with illegal_reward (default -1.0) for the offender and 0 "
    "for every other player, and the final info still holds an all-zero action_mask. "
    'illegal="raise": IllegalAction (reason illegal-index) is raised and nothing changes.')


def observation_space_for(table: Table, dict_obs: bool) -> spaces.Space[Any]:
    """The observation space: a ``Box(0, 1, (OBS_SIZE,), float32)``, or with
    ``dict_obs`` a ``Dict`` of that box as ``"observation"`` and ``"action_mask"``
    (``Box(0, 1, (66,), int8)``)."""
    high = np.ones(OBS_SIZE, dtype=np.float32)
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
            (not together with ``preset`` or ``twists``: that raises ``ValueError``).
        preset: ``"house"`` (default), ``"family"``, ``"practice"`` or ``"first-night"``.
        twists: that preset's twists, a list or ``"a+b"``.
        players: 3–7 (default: the preset's smallest table).
        episode: ``"deal"`` (default) or ``"match"`` (exchanges as one-card give steps).
        reward: ``"place"`` (default) or ``"points"``.
        max_deals: a ``"match"`` episode is truncated after this many deals (default 20).
        dict_obs: observations as ``{"observation", "action_mask"}`` instead of the flat
            vector (the mask is then also in ``infos[agent]["action_mask"]``; it always is).
        illegal, illegal_reward: what an action the mask refuses does, as in every
            environment of this package (:data:`ILLEGAL_POLICY`): ``"penalty"`` (default)
            or ``"raise"``; the offender's reward under ``"penalty"`` (default -1.0).
        render_mode: ``None``, ``"ansi"`` or ``"human"`` (public state as text).
        backend: ``"auto"`` (default: the compiled core when it is built, the environment
            variable ``PRESIDENT_PURE`` is not ``"1"`` and it plays these options, i.e. a
            one-deal episode without the ``reversal`` twist; else Python), ``"compiled"``
            (the compiled core or a ``ValueError``) or ``"python"`` (the engine's
            :class:`~president.env.table.Table`). Both give the same numbers; see the
            module docstring.

    Attributes:
        backend: the backend in use, ``"compiled"`` or ``"python"``.
        table: the engine's :class:`~president.env.table.Table` (under the compiled
            backend, reading it replays the episode in progress there and moves the
            environment to the Python backend).

    Raises:
        ValueError: for a bad option, saying which values are allowed, or
            ``backend="compiled"`` when the compiled core cannot play these options
            (saying why).
    """

    metadata: ClassVar[dict[str, Any]] = {"name": "president_v1",
                                          "render_modes": ["human", "ansi"],
                                          "is_parallelizable": False, "render_fps": 4}

    def __init__(self, *, rules: Rules | str | None = None, preset: str | None = None,
                 twists: Any = (), players: int | None = None, episode: str = "deal",
                 reward: str = "place", max_deals: int = 20, dict_obs: bool = False,
                 illegal: str = "penalty", illegal_reward: float = -1.0,
                 render_mode: str | None = None, backend: str = "auto") -> None:
        super().__init__()
        check_choice("illegal", illegal, ILLEGAL)
        check_choice("render_mode", render_mode, (None, "human", "ansi"))
        check_choice("dict_obs", dict_obs, (True, False))
        check_choice("backend", backend, BACKENDS)
        self._table = Table(make_rules(rules=rules, preset=preset, twists=twists,
                                       players=players),
                            episode=episode, reward=reward, max_deals=max_deals)
        self.rules = self._table.rules
        why = None if backend == "python" else _compiled_vector.unsupported(self.rules, episode)
        if backend == "compiled" and why is not None:
            raise ValueError(f"backend = 'compiled' cannot run this environment: {why}; use "
                             "backend = 'auto' or 'python'")
        self.backend = "python" if backend == "python" or why is not None else "compiled"
        self._core: _compiled_vector.CompiledTables | None = None
        if self.backend == "compiled":
            self._core = _compiled_vector.CompiledTables(1, self.rules, reward)
        self._start: Any = None         # the generator's state before this episode's draws
        self._taken: list[int] = []     # this episode's actions (compiled backend)
        self._over = False              # this episode has ended (compiled backend)
        self._penalized = False         # ... by an illegal action under "penalty"
        n = self._table.n
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = observation_space_for(self._table, dict_obs)
        act_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self.dict_obs = dict_obs
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self._rng: random.Random | None = None

    @property
    def table(self) -> Table:
        """The engine's :class:`~president.env.table.Table` this environment drives. Under
        the compiled backend, reading it first replays the episode in progress on it and
        moves the environment to the Python backend for good (``backend`` then says
        ``"python"``)."""
        if self._core is not None:
            if self._start is not None:
                self._replay(self._table)
            self._core = None
            self.backend = "python"
        return self._table

    def _replay(self, table: Table) -> None:
        """Put ``table`` at the compiled episode's state: reset from the generator's state
        before the episode, then the episode's actions."""
        rng = random.Random()
        rng.setstate(self._start)
        table.reset(rng)
        for action in self._taken:
            table.step_checked(action)
        if self._penalized:
            table.terminated = True

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
        core = self._core
        if core is not None:
            self._reset_compiled(core, self._rng)
            return
        self._table.reset(self._rng)
        self._start_episode()
        self.infos = {a: {"action_mask": self._table.mask(i)} for i, a in enumerate(self.agents)}
        first = self._table.acting()
        assert first is not None    # a new episode has someone to act
        self.agent_selection = self.possible_agents[first]
        self._skip_agent_selection = None

    def _start_episode(self) -> None:
        """Every agent back in play, with no reward, ending or truncation yet."""
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._rewards_set = False
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}

    def _reset_compiled(self, core: _compiled_vector.CompiledTables,
                        rng: random.Random) -> None:
        """:meth:`reset` under the compiled backend: deal from ``rng`` in C."""
        self._start = rng.getstate()
        core.deal(0, rng)
        self._taken = []
        self._over = self._penalized = False
        self._start_episode()
        _, masks, players = core.observe(False)
        first = int(players[0])
        self.infos = {a: {"action_mask": masks[0].copy() if i == first
                          else np.zeros(NUM_ACTIONS, dtype=np.int8)}
                      for i, a in enumerate(self.agents)}
        self.agent_selection = self.possible_agents[first]
        self._skip_agent_selection = None

    def observe(self, agent: str) -> np.ndarray | dict[str, np.ndarray]:
        """The observation of ``agent`` (see docs/env.md): float32 ``(702,)``, or with
        ``dict_obs`` that under ``"observation"`` and the agent's int8 ``(66,)`` mask (zeros
        unless it is to act) under ``"action_mask"``. Any agent may be observed, at any
        time after :meth:`reset`. Raises ``KeyError`` for an unknown agent."""
        i = self._index[agent]
        core = self._core
        if core is not None:
            if not self.dict_obs:
                return scale_scores(core.observe_seat(0, i))
            mask = np.empty(NUM_ACTIONS, dtype=np.int8)
            obs = scale_scores(core.observe_seat(0, i, mask))
            if self._over:
                mask[:] = 0
            return {"observation": obs, "action_mask": mask}
        obs = self._table.observe(i)
        if self.dict_obs:
            return {"observation": obs, "action_mask": self._table.mask(i)}
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
        if self._core is not None:
            self._step_compiled(self._core, agent, action)
            return
        table = self._table
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

    def _step_compiled(self, core: _compiled_vector.CompiledTables, agent: str,
                       action: Any) -> None:
        """:meth:`step` under the compiled backend, for ``agent``, whose turn it is."""
        self._cumulative_rewards[agent] = 0.0
        index = action if type(action) is int else _as_index(action)
        mask = np.empty(NUM_ACTIONS, dtype=np.int8)
        nxt = -2 if index is None or not 0 <= index < NUM_ACTIONS else \
            core.act(0, index, mask)
        agents = self.possible_agents
        if nxt >= 0:                        # the deal goes on: no rewards on this step
            assert index is not None
            self._taken.append(index)
            if self._rewards_set:
                for a in self.rewards:
                    self.rewards[a] = 0.0
                self._rewards_set = False
            self.infos[agent] = {"action_mask": np.zeros(NUM_ACTIONS, dtype=np.int8)}
            nxt_agent = agents[nxt]
            self.infos[nxt_agent] = {"action_mask": mask}
            self.agent_selection = nxt_agent
        else:
            if nxt == -2:                   # refused
                why = (f"action {action!r} is not an action index; indices are 0 to "
                       f"{NUM_ACTIONS - 1} (see docs/env.md)") if index is None \
                    else _compiled_vector.refusal(index)
                if self.illegal == "raise":
                    raise IllegalAction("illegal-index", f"{agent}: {why}")
                rewards = [0.0] * len(agents)
                rewards[self._index[agent]] = self.illegal_reward
                self._penalized = True
            else:                           # the deal ended
                assert index is not None
                self._taken.append(index)
                rewards = core.rewards(0)
            self._over = True
            for i, a in enumerate(agents):
                self.rewards[a] = rewards[i]
            self._rewards_set = True
            zero = np.zeros(NUM_ACTIONS, dtype=np.int8)
            for a in self.agents:
                self.terminations[a] = True
                self.truncations[a] = False
                self.infos[a] = {"action_mask": zero.copy()}
        if self._rewards_set:
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The public state as text: returned under ``"ansi"``, printed under ``"human"``.
        (Under the compiled backend the text is the engine's, from the episode replayed on
        a Python table; the environment stays compiled.)"""
        if self._core is not None and self._start is not None:
            replayed = Table(self.rules, episode=self._table.episode,
                             reward=self._table.reward, max_deals=self._table.max_deals)
            self._replay(replayed)
            text = replayed.render_text()
        else:
            text = self._table.render_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def _as_index(action: object) -> int | None:
    """``action`` as an int when it is a whole number that is not a bool (Python or numpy
    integer), else ``None`` (what :meth:`~president.env.table.Table.refusal` accepts)."""
    if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
        return None
    return int(action)


def env(**kwargs: Any) -> raw_env:
    """The AEC environment (:class:`raw_env`; keyword options as documented there). The
    engine checks every action itself, so no PettingZoo wrapper is added."""
    return raw_env(**kwargs)
