"""A vector environment: ``num_envs`` tables stepped at once, numpy arrays in and out.

Each of the ``N`` tables is the AEC environment's (:class:`~president.env.table.Table`,
driving the engine's checked ``Match.act``): the same 66 actions, the same 702-number
observation and ``int8`` mask, the same rewards. One :meth:`VectorEnv.step` takes one action
per table, for the player whose turn it is there, and returns that table's next player's
observation. A table whose episode ends starts its next one at once (auto-reset).

===================== ============== ========= ===============================================
returned              shape          dtype     meaning
===================== ============== ========= ===============================================
``obs``               (N, 702)       float32   observation of the player to act at each table
``info["action_mask"]`` (N, 66)      int8      that player's legal actions
``info["player"]``    (N,)           int64     that player's index (0..players-1)
``rewards``           (N, players)   float32   rewards of every player at each table on this
                                               step, by player index (nonzero when a deal ended)
``terminated``        (N,)           bool      the table's episode ended on this step (the
                                               returned row is already the next episode's)
``truncated``         (N,)           bool      a ``match`` episode reached ``max_deals``
===================== ============== ========= ===============================================

Seeding follows Gymnasium's vector environments: ``reset(seed=s)`` seeds table ``i`` with
``s + i`` (or give one seed per table), and table ``i`` then plays exactly the episodes of
``env(...).reset(seed=s + i)`` followed by ``reset()`` calls, for the same actions (a test
checks observations, masks and rewards against the AEC environment).

Two backends play the tables, to the same numbers (``backend=`` and :attr:`VectorEnv.backend`):

- ``"python"``: one :class:`~president.env.table.Table` per table, each action through the
  engine's checked ``Match.act``;
- ``"compiled"``: the C core ``president._vector``
  (:mod:`president.env._compiled_vector`), which holds every table's deal in C arrays, takes
  the ``N`` actions in one call and writes the observations, masks, rewards and ends straight
  into numpy arrays. It plays one-deal episodes (``episode="deal"``) of every preset and
  twist and 3–7 players, except the ``reversal`` twist; it deals in C too, with the same
  draws from each table's ``random.Random`` as the Python tables, so a seed gives the same
  episodes under both and leaves the generators alike (a test checks every output byte for
  byte).

:meth:`VectorEnv.step_masks` is :meth:`VectorEnv.step` without the observations: it returns
the rewards, ends and the next masks and players only (the batched step-and-mask path, for
playing many deals fast where no observation is read; the compiled backend then writes no
observation at all). ``"auto"`` (the default) takes it when it is built,
  ``PRESIDENT_PURE`` is not ``1`` and it plays the rules, else ``"python"``.

>>> import numpy as np
>>> from president.env.vector import VectorEnv
>>> v = VectorEnv(8, preset="house", players=4)
>>> obs, info = v.reset(seed=0)
>>> obs.shape, obs.dtype.name, info["action_mask"].shape, info["action_mask"].dtype.name
((8, 702), 'float32', (8, 66), 'int8')
>>> actions = [np.flatnonzero(row)[0] for row in info["action_mask"]]
>>> obs, rewards, terminated, truncated, info = v.step(actions)
>>> rewards.shape
(8, 4)

:func:`sample_legal` draws a uniformly random legal action for every table at once from the
masks (random play, exploration): in the compiled core when it is built, else in numpy, to the
same actions for the same generator.

>>> rng = np.random.default_rng(0)
>>> actions = sample_legal(info["action_mask"], rng)
>>> actions.shape, actions.dtype.name, bool(info["action_mask"][np.arange(8), actions].all())
((8,), 'int64', True)
"""

from __future__ import annotations

import random
from typing import Any, Iterable, Sequence

import numpy as np

from ..errors import IllegalAction
from ..rules import Rules
from . import _compiled_vector
from .encoding import NUM_ACTIONS, OBS_SIZE, encode_batch, scale_scores
from .table import Table, make_rules

__all__ = ["VectorEnv", "BACKENDS", "sample_legal"]

#: ``backend`` option values of :class:`VectorEnv`.
BACKENDS = ("auto", "compiled", "python")


class VectorEnv:
    """``num_envs`` President tables stepped together (see the module docstring).

    :meth:`step` returns every table's next observation; :meth:`step_masks` steps the same
    way but returns only the rewards, ends, masks and players (no observation is built:
    the fast path for playing whole deals).

    Args:
        num_envs: number of tables ``N`` (at least 1).
        rules, preset, twists, players, episode, reward, max_deals: as
            :class:`~president.env.aec.raw_env`, the same for every table.
        backend: ``"auto"`` (the compiled core when it is built, the environment variable
            ``PRESIDENT_PURE`` is not ``"1"`` and it plays these options; else Python),
            ``"compiled"`` (the compiled core or a ``ValueError``) or ``"python"`` (the
            engine's ``Match`` per table). Both give the same numbers.

    Attributes:
        num_envs: ``N``.
        players: players per table.
        rules: the tables' :class:`~president.rules.Rules`.
        backend: the backend in use, ``"compiled"`` or ``"python"``.
        tables: the Python backend's :class:`~president.env.table.Table` per table (empty
            under the compiled backend).
        observation_size: 702. num_actions: 66.

    Raises:
        ValueError: ``num_envs`` not a whole number of at least 1, a bad option (saying
            which values are allowed), an unknown ``backend``, or ``backend="compiled"``
            when the compiled core cannot run these tables (saying why: not built,
            ``PRESIDENT_PURE=1``, ``episode="match"``, the ``reversal`` twist).
    """

    def __init__(self, num_envs: int, *, rules: Rules | str | None = None,
                 preset: str | None = None, twists: Any = (), players: int | None = None,
                 episode: str = "deal", reward: str = "place", max_deals: int = 20,
                 backend: str = "auto") -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) \
                or num_envs < 1:
            raise ValueError(f"num_envs = {num_envs!r} must be a whole number of at least 1")
        if backend not in BACKENDS:
            raise ValueError(f"backend = {backend!r} is not allowed; choose one of: "
                             f"{', '.join(BACKENDS)}")
        made = make_rules(rules=rules, preset=preset, twists=twists, players=players)
        first = Table(made, episode=episode, reward=reward, max_deals=max_deals)
        self.num_envs = int(num_envs)
        self.rules = first.rules
        why = None if backend == "python" else _compiled_vector.unsupported(self.rules, episode)
        if backend == "compiled" and why is not None:
            raise ValueError(f"backend = 'compiled' cannot run these tables: {why}; use "
                             "backend = 'auto' or 'python'")
        self.backend = "python" if backend == "python" or why is not None else "compiled"
        self._compiled: _compiled_vector.CompiledTables | None = None
        if self.backend == "compiled":
            self.tables: list[Table] = []
            self._compiled = _compiled_vector.CompiledTables(self.num_envs, self.rules, reward)
            # a one-deal episode always ends in full: one read-only array of N False serves
            # every step's truncated
            self._never_truncated = np.zeros(self.num_envs, dtype=np.bool_)
            self._never_truncated.flags.writeable = False
        else:
            self.tables = [first] + [Table(made, episode=episode, reward=reward,
                                           max_deals=max_deals)
                                     for _ in range(self.num_envs - 1)]
        self.players = self.rules.players
        self.observation_size = OBS_SIZE
        self.num_actions = NUM_ACTIONS
        self._rngs: list[random.Random] | None = None

    def reset(self, *, seed: int | Sequence[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Start an episode at every table. ``seed``: an int ``s`` (table ``i`` gets
        ``s + i``), a sequence of ``num_envs`` ints, or ``None`` (continue each table's
        generator; unseeded before the first seed).

        Returns:
            ``(obs, info)``: ``obs`` float32 ``(N, 702)``; ``info`` with ``"action_mask"``
            int8 ``(N, 66)`` and ``"player"`` int64 ``(N,)``.

        Raises:
            ValueError: a sequence of seeds of the wrong length, or a seed that is not an int.
        """
        n = self.num_envs
        if seed is not None:
            if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
                seeds = [int(seed) + i for i in range(n)]
            else:   # a sequence; anything else (True, 1.5) is refused below, like a bad one
                seeds = list(seed) if isinstance(seed, Iterable) else []
                if len(seeds) != n or not all(isinstance(s, (int, np.integer))
                                              and not isinstance(s, bool) for s in seeds):
                    raise ValueError(f"seed must be an int or a sequence of {n} ints (one per "
                                     f"table); got {seed!r}")
            self._rngs = [random.Random(int(s)) for s in seeds]
        elif self._rngs is None:
            self._rngs = [random.Random() for _ in range(n)]
        compiled = self._compiled
        if compiled is not None:
            for i, rng in enumerate(self._rngs):
                compiled.deal(i, rng)
        for table, rng in zip(self.tables, self._rngs):
            table.reset(rng)
        obs, masks, players = self._outputs()
        return obs, {"action_mask": masks, "player": players}

    @property
    def generators(self) -> list[random.Random]:
        """Each table's ``random.Random`` (its deals are drawn from it), as the last
        :meth:`reset` seeded them.

        Raises:
            RuntimeError: before the first :meth:`reset`.
        """
        if self._rngs is None:
            raise RuntimeError("call reset() before reading the generators")
        return self._rngs

    def observe(self) -> tuple[np.ndarray, dict[str, Any]]:
        """Every table's observation of the player to act, with the masks and players, as
        :meth:`reset` returns them (new arrays; for a caller that moved the Python tables
        itself, as :class:`~president.env.gym_vector.GymVectorEnv` does).

        Raises:
            RuntimeError: before the first :meth:`reset`.
        """
        if self._rngs is None:
            raise RuntimeError("call reset() before observe()")
        obs, masks, players = self._outputs()
        return obs, {"action_mask": masks, "player": players}

    def _outputs(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every table's observation, mask and player to act (new arrays)."""
        obs, masks, players = self._outputs_or_masks(True)
        assert obs is not None
        return obs, masks, players

    def _outputs_or_masks(self, observations: bool) -> tuple[np.ndarray | None, np.ndarray,
                                                             np.ndarray]:
        """Every table's mask and player to act (new arrays), and, if ``observations``,
        its observation (else ``None``)."""
        if self._compiled is not None:
            obs, mask, who = self._compiled.observe(observations)
            return (None if obs is None else scale_scores(obs)), mask, who
        lanes: list[int] = []
        ints: list[int] = []
        per_seat: list[int] = []
        masks = []
        players = []
        for table in self.tables:
            p = table.acting()
            assert p is not None    # a table whose episode ends is reset at once
            players.append(p)
            if observations:
                table.observe_raw(p, lanes, ints, per_seat)
            masks.append(table.mask_bytes())
        mask = np.frombuffer(bytearray(b"".join(masks)), dtype=np.int8).reshape(
            self.num_envs, NUM_ACTIONS)
        obs = encode_batch(self.players, lanes, ints, per_seat) if observations else None
        return obs, mask, np.array(players, dtype=np.int64)

    def step(self, actions: Sequence[int] | np.ndarray) -> tuple[np.ndarray, np.ndarray,
                                                                  np.ndarray, np.ndarray,
                                                                  dict[str, Any]]:
        """Take ``actions[i]`` (an index 0..65) at table ``i`` for its player to act.

        Returns:
            ``(obs, rewards, terminated, truncated, info)`` as in the module docstring.

        Raises:
            RuntimeError: before the first :meth:`reset`.
            ValueError: ``actions`` not ``num_envs`` whole numbers.
            IllegalAction: reason ``illegal-index``, naming the first table whose mask
                refuses its action and why; no table changes.
        """
        obs, rewards, terminated, truncated, info = self._step(actions, True)
        assert obs is not None
        return obs, rewards, terminated, truncated, info

    def step_masks(self, actions: Sequence[int] | np.ndarray) -> tuple[np.ndarray, np.ndarray,
                                                                        np.ndarray,
                                                                        dict[str, Any]]:
        """:meth:`step` without the observations: the batched step-and-mask path for
        playing many deals fast (random or scripted play, search, rollouts), where only the
        masks, players, rewards and ends are needed. The tables change exactly as under
        :meth:`step` (the same episodes for the same actions; the two may be mixed).

        Returns:
            ``(rewards, terminated, truncated, info)``: float32 ``(N, players)``, bool
            ``(N,)``, bool ``(N,)``, and ``info`` with ``"action_mask"`` int8 ``(N, 66)``
            and ``"player"`` int64 ``(N,)``, as :meth:`step` returns them.

        Raises:
            The errors of :meth:`step`.
        """
        _, rewards, terminated, truncated, info = self._step(actions, False)
        return rewards, terminated, truncated, info

    def _step(self, actions: Sequence[int] | np.ndarray, observations: bool) -> tuple[
            np.ndarray | None, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """:meth:`step`, with the observations (else ``None``) if ``observations``."""
        if self._rngs is None:
            raise RuntimeError("call reset() before step()")
        n = self.num_envs
        acts = np.asarray(actions)
        if acts.shape != (n,) or (acts.dtype is not _INT64
                                  and not np.issubdtype(acts.dtype, np.integer)):
            raise ValueError(f"actions must be {n} whole numbers (shape ({n},)), one action "
                             f"index per table; got shape {acts.shape} of {acts.dtype}")
        if self._compiled is not None:
            return self._step_compiled(acts, observations)
        acts = acts.tolist()
        tables = self.tables
        for i, (table, a) in enumerate(zip(tables, acts)):
            if not 0 <= a < NUM_ACTIONS or not table.mask_bytes()[a]:
                why = table.refusal(a)
                raise IllegalAction("illegal-index", f"table {i}: {why}")
        players = self.players
        rewards = [[0.0] * players for _ in range(n)]
        terminated = [False] * n
        truncated = [False] * n
        for i, table in enumerate(tables):
            r = table.step_checked(acts[i])
            if r is not None:
                rewards[i] = r
                if table.terminated or table.truncated:
                    terminated[i] = table.terminated
                    truncated[i] = table.truncated and not table.terminated
                    table.reset(self._rngs[i])
        obs, masks, who = self._outputs_or_masks(observations)
        return (obs, np.array(rewards, dtype=np.float32), np.array(terminated),
                np.array(truncated), {"action_mask": masks, "player": who})

    def _step_compiled(self, acts: np.ndarray, observations: bool) -> tuple[
            np.ndarray | None, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """:meth:`_step` under the compiled backend: ``acts`` is checked to be ``N``
        integers."""
        compiled = self._compiled
        rngs = self._rngs
        assert compiled is not None and rngs is not None
        n = self.num_envs
        # an unsigned number past int64 is no index either: cap it at 66, which the core
        # refuses (the message names the number given)
        if acts.dtype is _INT64 and acts.flags.c_contiguous:
            acts64 = acts       # sample_legal's own output: as it is
        elif acts.dtype.kind == "u":
            acts64 = np.minimum(acts, NUM_ACTIONS).astype(np.int64)
        else:
            acts64 = np.ascontiguousarray(acts, dtype=np.int64)
        rewards = np.empty((n, self.players), dtype=np.float32)
        ended = np.empty(n, dtype=np.bool_)
        done = compiled.step(acts64, rewards, ended, rngs)
        if done < 0:
            i = -1 - done
            raise IllegalAction("illegal-index",
                                f"table {i}: {_compiled_vector.refusal(acts[i].item())}")
        obs, masks, who = self._outputs_or_masks(observations)
        return (obs, rewards, ended, self._never_truncated,
                {"action_mask": masks, "player": who})


_INT8 = np.dtype(np.int8)
_INT64 = np.dtype(np.int64)
_FLOAT64 = np.dtype(np.float64)


def _sample_numpy(masks: np.ndarray, u: np.ndarray) -> np.ndarray:
    """:func:`sample_legal`'s rule stated in numpy: the ``floor(u[i] * k_i)``-th legal action
    of row ``i`` (0-based, in index order; ``k_i`` its count of legal actions, and ``k_i - 1``
    if rounding reaches ``k_i``). Rows with no legal action give 0 (the caller refuses them)."""
    counts = (masks != 0).cumsum(1, dtype=np.int64)
    k = counts[:, -1]
    pick = np.minimum((u * k).astype(np.int64), np.maximum(k - 1, 0))
    picked: np.ndarray = (counts > pick[:, None]).argmax(1).astype(np.int64)
    return picked


def sample_legal(masks: np.ndarray, rng: np.random.Generator | None = None) -> np.ndarray:
    """A uniformly random legal action for each row of ``masks``: the random player of a
    :class:`VectorEnv`, for all its tables in one call.

    Row ``i`` gets its ``floor(u_i * k_i)``-th legal action (0-based, in index order), ``k_i``
    its number of legal actions and ``u_i`` the ``i``-th of ``rng.random(N)``: the compiled
    core (``president._vector``) does it when built, else numpy (``PRESIDENT_PURE=1`` too),
    to the same actions for the same generator (a test checks both on the same draws).

    Args:
        masks: action masks, int8 ``(N, 66)``, nonzero where legal (``info["action_mask"]``
            of :meth:`VectorEnv.reset`, :meth:`VectorEnv.step` or :meth:`VectorEnv.step_masks`).
        rng: where the ``N`` uniforms come from; default a new unseeded generator.

    Returns:
        int64 ``(N,)``: one legal action index per row.

    Raises:
        ValueError: ``masks`` is not of shape ``(N, 66)`` (N >= 0), or a row has no legal
            action (the first such row is named).
    """
    if type(masks) is np.ndarray and masks.dtype is _INT8 and masks.ndim == 2 \
            and masks.shape[1] == NUM_ACTIONS and masks.flags.c_contiguous:
        rows = masks            # as the environment returns them: no copy, no conversion
    else:
        masks = np.asarray(masks)
        if masks.ndim != 2 or masks.shape[1] != NUM_ACTIONS:
            raise ValueError(f"masks must have shape (N, {NUM_ACTIONS}), one action mask per "
                             f"table; got shape {masks.shape}")
        rows = np.ascontiguousarray(masks, dtype=np.int8)
    n = rows.shape[0]
    if rng is None:
        rng = np.random.default_rng()
    u: np.ndarray = np.asarray(rng.random(n))      # already an array: no copy
    if u.dtype is not _FLOAT64:
        u = u.astype(np.float64)
    out = np.empty(n, dtype=np.int64)
    done = _compiled_vector.sample(rows, u, out)
    if done is None:
        out = _sample_numpy(rows, u)
        empty = np.flatnonzero(~rows.any(1))
        done = -1 - int(empty[0]) if empty.size else 0
    if done < 0:
        raise ValueError(f"row {-1 - done} of masks has no legal action; a table always has "
                         "one (pass, a play or a give): give the masks the environment returned")
    return out
