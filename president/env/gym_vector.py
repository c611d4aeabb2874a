"""``GymVectorEnv``: ``N`` tables as a :class:`gymnasium.vector.VectorEnv`, one learner a table.

At every table one seat is the learner's and the others are computer players (levels of
:mod:`president.players` by name, or your own bots by import path). One :meth:`step` takes
the learner's action at each table, then lets the computer players act until it is the
learner's turn again or the episode ends, so the returned observations, rewards and masks
are all the learner's: the shapes Gymnasium's vector API, CleanRL-style scripts,
Stable-Baselines3 and sb3-contrib's ``MaskablePPO`` expect.

====================== ================ ======= =============================================
returned               shape            dtype   meaning
====================== ================ ======= =============================================
``obs``                (N, 702)         float32 the learner's observation at each table
``rewards``            (N,)             float32 the learner's reward on this step (the deals
                                                that ended during it, or the penalty)
``terminations``       (N,)             bool    the table's episode ended
``truncations``        (N,)             bool    a ``match`` episode reached ``max_deals``
``info["action_mask"]``  (N, 66)        bool    the learner's legal actions (on every reset
                                                and step; also :meth:`GymVectorEnv.action_masks`)
====================== ================ ======= =============================================

Auto-reset is Gymnasium's ``AutoresetMode.SAME_STEP`` (``metadata["autoreset_mode"]``): on
the step a table's episode ends, its row of ``obs`` and of ``info["action_mask"]`` is
already the next episode's first turn, and the ended episode's last observation is in
``info["final_obs"]`` (an object array, ``None`` at the other tables) with
``info["final_info"]`` (its ``"action_mask"``, all zero), both flagged by
``info["_final_obs"]`` / ``info["_final_info"]`` (bool ``(N,)``), as Gymnasium's
``SyncVectorEnv`` builds them. The next :meth:`step` acts in the new episode.

Two backends play the tables (``backend=``, :attr:`GymVectorEnv.backend`):

- ``"compiled"`` (the default where it can): a :class:`~president.env.vector.VectorEnv` of
  the compiled core with the computer players at the other seats played in C, stepped only
  at the learner's turns. It plays one-deal episodes of the rules the compiled core plays
  (:func:`president.native.native_supports`) against ``"random"``, ``"simple"`` and
  ``"intermediate"`` opponents. The simple and intermediate players choose exactly as the
  Python players of those names, so each table plays the episodes of
  :class:`~president.env.single.PresidentEnv` (a test checks it). The compiled ``"random"``
  player draws among action indices
  (:class:`~president.env.vector.RandomIndexPlayer`), not among the engine's sets of suits
  as :class:`~president.players.random_player.RandomPlayer` does: it is as random, but its
  episodes are not ``PresidentEnv``'s for the same seed;
- ``"python"``: :class:`~president.env.vector.VectorEnv`'s Python tables (the engine's
  checked ``Match.act``) with the computer players of :mod:`president.players` acting in
  Python, every level and bot by import path, match episodes and every twist: each table
  plays ``PresidentEnv``'s episodes for the same seed. Observations of all ``N`` tables are
  built in one batch.

``"auto"`` takes the compiled backend when the rules, the episode and the opponents allow
it (and the core is built and ``PRESIDENT_PURE`` is not ``1``), else the Python one.

>>> from president.env import GymVectorEnv
>>> v = GymVectorEnv(4, preset="house", players=4, opponents="random")
>>> obs, info = v.reset(seed=0)
>>> obs.shape, info["action_mask"].shape, info["action_mask"].dtype.name
((4, 702), (4, 66), 'bool')
>>> v.single_observation_space.shape, v.action_space
((702,), MultiDiscrete([66 66 66 66]))
>>> import numpy as np
>>> actions = np.array([np.flatnonzero(m)[0] for m in v.action_masks()])
>>> obs, rewards, terminations, truncations, info = v.step(actions)
>>> rewards.shape, terminations.dtype.name
((4,), 'bool')
>>> v.close()
"""

from __future__ import annotations

from typing import Any, Sequence

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from ..errors import IllegalAction
from ..players import Player
from ..rules import Rules
from . import _compiled_vector
from .aec import ILLEGAL, check_choice, observation_space_for
from .encoding import NUM_ACTIONS
from .single import check_opponents, make_bots, play_others
from .table import Table, make_rules
from .vector import BACKENDS, OPPONENT_LEVELS, Opponent, VectorEnv

__all__ = ["GymVectorEnv"]


class GymVectorEnv(gymnasium.vector.VectorEnv):
    """President for one learner per table, ``num_envs`` tables (Gymnasium's vector API;
    see the module docstring for what comes back).

    Args:
        num_envs: number of tables ``N`` (at least 1).
        rules, preset, twists, players, episode, reward, max_deals: as
            :class:`~president.env.aec.raw_env`, the same for every table.
        opponents: the computer players at the other seats, the same at every table: one
            level name (``"random"`` … ``"master"``, :data:`president.players.LEVELS`) or
            import path ``"package.module:Class"`` for all of them, or one per other player
            in order of player index (default ``"random"``). Each is seeded from its
            table's generator at the start of every episode.
        seat: the learner's player index at every table (default 0). The first dealer is
            drawn each episode, so the learner meets every position.
        illegal, illegal_reward: as every environment of this package
            (:data:`~president.env.aec.ILLEGAL_POLICY`): ``"penalty"`` (default; that
            table's episode ends with ``illegal_reward``, default -1.0, and auto-resets,
            the other tables step as usual) or ``"raise"`` (``IllegalAction`` naming the
            first such table; no table moves).
        backend: ``"auto"`` (default), ``"compiled"`` or ``"python"``: see the module
            docstring.

    Attributes:
        num_envs: ``N``. single_observation_space: ``Box(0, 1, (702,), float32)``.
        single_action_space: ``Discrete(66)``. observation_space, action_space: their
            batches (``Box`` of shape ``(N, 702)``, ``MultiDiscrete([66] * N)``).
        metadata: ``{"autoreset_mode": AutoresetMode.SAME_STEP, ...}``.
        core: the :class:`~president.env.vector.VectorEnv` whose tables are played.
        backend: ``"compiled"`` or ``"python"``, the backend in use.

    Raises:
        ValueError: a bad option, saying which values are allowed (as :class:`VectorEnv`
            and :class:`~president.env.single.PresidentEnv` do); ``backend="compiled"``
            where it cannot play these tables (saying why).
    """

    # not a ClassVar: gymnasium's VectorEnv declares metadata as an instance attribute
    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP,  # noqa: RUF012
                                "render_modes": []}

    def __init__(self, num_envs: int, *, rules: Rules | str | None = None,
                 preset: str | None = None, twists: Any = (), players: int | None = None,
                 episode: str = "deal", reward: str = "place", max_deals: int = 20,
                 opponents: str | Sequence[str] = "random", seat: int = 0,
                 illegal: str = "penalty", illegal_reward: float = -1.0,
                 backend: str = "auto") -> None:
        check_choice("illegal", illegal, ILLEGAL)
        check_choice("backend", backend, BACKENDS)
        made = make_rules(rules=rules, preset=preset, twists=twists, players=players)
        n = made.players
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) \
                or not 0 <= seat < n:
            raise ValueError(f"seat = {seat!r} is not allowed; give a player index 0 to {n - 1}")
        self.seat = int(seat)
        self.opponents = check_opponents(opponents, n)
        first = Table(made, episode=episode, reward=reward, max_deals=max_deals)
        why = None
        if backend != "python":
            why = _compiled_vector.unsupported(first.rules, episode)
            if why is None and not all(o in OPPONENT_LEVELS for o in self.opponents):
                why = (f"opponents {self.opponents!r}: the compiled core plays only "
                       f"{', '.join(OPPONENT_LEVELS)}")
            if backend == "compiled" and why is not None:
                raise ValueError(f"backend = 'compiled' cannot run these tables: {why}; use "
                                 "backend = 'auto' or 'python'")
        self.backend = "python" if backend == "python" or why is not None else "compiled"
        lineup: list[Opponent] | None = None
        if self.backend == "compiled":
            levels = iter(self.opponents)
            lineup = [None if p == self.seat else next(levels) for p in range(n)]
        self.core = VectorEnv(num_envs, rules=made, episode=episode, reward=reward,
                              max_deals=max_deals, backend=self.backend, opponents=lineup,
                              final_obs_seat=self.seat if lineup else None)
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.num_envs = self.core.num_envs
        self.single_observation_space = observation_space_for(first, False)
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._bots: list[list[Player | None]] = []
        self._masks: np.ndarray | None = None

    def reset(self, *, seed: int | Sequence[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Start an episode at every table, the computer players acting until the
        learner's first turn. ``seed``: an int ``s`` (table ``i`` gets ``s + i``), one int
        per table, or ``None`` (continue each table's generator); a seed makes every
        table's episodes, computer players included, a pure function of it.

        Returns:
            ``(obs, info)``: float32 ``(N, 702)`` and ``{"action_mask": bool (N, 66)}``.

        Raises:
            ValueError: a bad seed (as :meth:`VectorEnv.reset`).
        """
        super().reset(seed=int(seed) if isinstance(seed, (int, np.integer)) else None)
        if self.backend == "compiled":
            obs, info = self.core.reset(seed=seed)
            self._masks = info["action_mask"].view(np.bool_)
            return obs, {"action_mask": self._masks}
        self.core.reset(seed=seed)
        self._bots = [[] for _ in range(self.num_envs)]
        for i in range(self.num_envs):
            self._start(i, new_deal=False)
        return self._observe()

    def _start(self, i: int, *, new_deal: bool) -> None:
        """A new episode at table ``i`` (dealt now if ``new_deal``): new computer players
        seeded from its generator, who act until the learner's first turn."""
        rng = self.core.generators[i]
        table = self.core.tables[i]
        if new_deal:
            table.reset(rng)
        self._bots[i] = make_bots(self.opponents, self.seat, rng)
        # no deal ends before every player has had a turn: no reward comes before the first
        play_others(table, self._bots[i], self.seat)

    def _observe(self) -> tuple[np.ndarray, dict[str, Any]]:
        obs, info = self.core.observe()
        masks = info["action_mask"].view(np.bool_)     # 0/1 bytes: the same memory as bool
        self._masks = masks
        return obs, {"action_mask": masks}

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions at every table, bool ``(N, 66)``, as the last reset
        or step returned them in ``info["action_mask"]`` (sb3-contrib's ``MaskablePPO``
        reads this method).

        Raises:
            RuntimeError: before the first :meth:`reset`.
        """
        if self._masks is None:
            raise RuntimeError("call reset() before action_masks()")
        return self._masks

    def step(self, actions: Sequence[int] | np.ndarray) -> tuple[
            np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Take ``actions[i]`` (0..65) for the learner at table ``i``, then the computer
        players' turns until the learner's next turn or the episode's end; ended tables
        start their next episode at once (``AutoresetMode.SAME_STEP``, see the module
        docstring).

        Returns:
            ``(obs, rewards, terminations, truncations, info)``: float32 ``(N, 702)``,
            float32 ``(N,)``, bool ``(N,)``, bool ``(N,)``, and ``info`` with
            ``"action_mask"`` bool ``(N, 66)`` and, where episodes ended, ``"final_obs"``,
            ``"final_info"`` and their ``"_final_obs"`` / ``"_final_info"`` flags.

        Raises:
            RuntimeError: before the first :meth:`reset`, or after :meth:`close`.
            ValueError: ``actions`` not ``N`` whole numbers.
            IllegalAction: under ``illegal="raise"``, reason ``illegal-index``, naming the
                first table whose mask refuses its action; no table moves.
        """
        masks = self._masks
        if masks is None or self.closed:
            raise RuntimeError("call reset() before step()" if not self.closed
                               else "this GymVectorEnv is closed")
        n = self.num_envs
        acts = np.asarray(actions)
        if acts.shape != (n,) or not np.issubdtype(acts.dtype, np.integer):
            raise ValueError(f"actions must be {n} whole numbers (shape ({n},)), one action "
                             f"index per table; got shape {acts.shape} of {acts.dtype}")
        inside = (acts >= 0) & (acts < NUM_ACTIONS)
        legal = inside & masks[np.arange(n), np.where(inside, acts, 0)]
        tables = self.core.tables
        if self.illegal == "raise" and not legal.all():
            i = int(np.flatnonzero(~legal)[0])
            why = (_compiled_vector.refusal(acts[i].item()) if self.backend == "compiled"
                   else tables[i].refusal(acts[i].item()))
            raise IllegalAction("illegal-index", f"table {i}: {why}")
        if self.backend == "compiled":
            return self._step_compiled(acts, legal)
        seat = self.seat
        rewards = np.zeros(n, dtype=np.float32)
        terminations = np.zeros(n, dtype=np.bool_)
        truncations = np.zeros(n, dtype=np.bool_)
        ended: list[tuple[int, np.ndarray]] = []
        for i, table in enumerate(tables):
            if legal[i]:
                got = table.step_checked(int(acts[i]))
                total = 0.0 if got is None else got[seat]
                if table.acting() is not None:
                    total += play_others(table, self._bots[i], seat)
                rewards[i] = total
            else:       # the penalty: the action is not played and the episode ends
                rewards[i] = self.illegal_reward
                table.terminated = True
            if table.acting() is None:     # the episode is over
                terminations[i] = table.terminated
                truncations[i] = table.truncated and not table.terminated
                ended.append((i, table.observe(seat)))
                self._start(i, new_deal=True)
        obs, info = self._observe()
        for i, last in ended:
            info = self._add_info(info, {"final_obs": last, "final_info": {
                "action_mask": np.zeros(NUM_ACTIONS, dtype=np.bool_)}}, i)
        return obs, rewards, terminations, truncations, info

    def _step_compiled(self, acts: np.ndarray, legal: np.ndarray) -> tuple[
            np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """:meth:`step` on the compiled core: ``acts`` are ``N`` whole numbers, ``legal``
        says where they are legal (elsewhere the penalty)."""
        core = self.core
        if legal.all():
            obs, got, terminations, truncations, info = core.step(acts)
            finals = info["final_obs"]
            rewards = got[:, self.seat].copy()
        else:       # the penalty: those episodes end unplayed, the others step
            bad = np.flatnonzero(~legal)
            _, ended = core.restart(bad)
            good = np.flatnonzero(legal)
            obs, got, terminations, truncations, info = core.step_at(good, acts[good])
            finals = {**info["final_obs"], **ended["final_obs"]}
            rewards = got[:, self.seat].copy()
            rewards[bad] = self.illegal_reward
            terminations[bad] = True
        masks = info["action_mask"].view(np.bool_)
        self._masks = masks
        out: dict[str, Any] = {"action_mask": masks}
        for i in sorted(finals):
            out = self._add_info(out, {"final_obs": finals[i], "final_info": {
                "action_mask": np.zeros(NUM_ACTIONS, dtype=np.bool_)}}, i)
        return obs, rewards, terminations, truncations, out

    def close_extras(self, **kwargs: Any) -> None:
        """Let the tables and computer players go (:meth:`close` calls this)."""
        self._bots = []
        self._masks = None
