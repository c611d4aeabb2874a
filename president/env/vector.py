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

Opponents
---------

``opponents=[...]`` (one entry per player index, the same at every table) lets computer
players and frozen policies take seats: ``None`` is a learner seat (at least one),
``"random"``, ``"simple"`` and ``"intermediate"`` (:data:`OPPONENT_LEVELS`) computer players,
and a callable a frozen :data:`Policy`. :meth:`VectorEnv.step` then applies the learner's
action at each table and lets the others play until a learner is to act again (a deal that
ends meanwhile is dealt again at once, its opponents playing until a learner's first turn),
so every returned row is a learner's; ``rewards`` holds every player's rewards of the deals
that ended during the step. On the compiled backend the computer players play inside the C
core (the simple and intermediate players choose exactly as
:class:`~president.players.simple.SimplePlayer` and
:class:`~president.players.intermediate.IntermediatePlayer`, the latter's endgame solve
included; ``random`` as :class:`RandomIndexPlayer`); on the Python backend those players act
on their engine observations. A policy is called from Python once per round with the
observations and masks of all the tables waiting on its seat. Each episode draws one
``getrandbits(63)`` per seat that is not a learner after the deal's own draws, to seed its
computer player; the deal itself is the engine's for the seed.

>>> w = VectorEnv(4, preset="house", players=4, opponents=[None, "intermediate", "simple",
...                                                         "random"])
>>> _, first = w.reset(seed=0)
>>> first["player"].tolist()
[0, 0, 0, 0]

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
from typing import Any, Callable, Iterable, Sequence, Union

import numpy as np

from ..errors import IllegalAction
from ..players import Player, make_player
from ..rules import Rules
from . import _compiled_vector
from .encoding import NUM_ACTIONS, OBS_SIZE, encode_batch, scale_scores
from .table import Table, make_rules

__all__ = ["VectorEnv", "BACKENDS", "OPPONENT_LEVELS", "Policy", "Opponent", "sample_legal"]

#: ``backend`` option values of :class:`VectorEnv`.
BACKENDS = ("auto", "compiled", "python")

#: The computer players a :class:`VectorEnv` seat may be played by (``opponents=``), by name.
OPPONENT_LEVELS = ("random", "simple", "intermediate")

#: A frozen policy at an opponent seat: ``policy(observations, masks) -> actions`` with
#: observations float32 ``(k, 702)``, masks bool ``(k, 66)`` and actions ``(k,)`` whole
#: numbers, one row per table waiting on that seat.
Policy = Callable[[np.ndarray, np.ndarray], np.ndarray]

#: One entry of ``opponents``: ``None`` (a learner seat), a level of
#: :data:`OPPONENT_LEVELS`, or a :data:`Policy`.
Opponent = Union[str, Policy, None]


class RandomIndexPlayer:
    """The ``"random"`` opponent of :class:`VectorEnv`: at each of its decisions (even a
    forced one) one ``random()`` of its own generator ``u``, and the legal action index at
    position ``int(u * k)`` of its ``k`` legal indices in increasing order (plays by rank,
    then size, then the pass; the action indices of docs/env.md). The compiled core draws
    the same way (the random style of the compiled play-outs), so both backends play alike.

    It chooses among action indices, not among the sets of suits the engine lists (a pair
    of threes is one index however many pairs of threes the hand holds), so its draws are
    not those of :class:`~president.players.random_player.RandomPlayer`.

    Args:
        seed: seed of its :class:`random.Random`.
    """

    level = "random"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def pick(self, mask: bytes | bytearray) -> int:
        """The action index chosen among the nonzero entries of ``mask`` (66 bytes)."""
        legal = [a for a, m in enumerate(mask) if m]
        return legal[int(self.rng.random() * len(legal))]


def check_opponents_list(opponents: Sequence[Opponent] | None, players: int) -> list[Opponent]:
    """``opponents`` of :class:`VectorEnv` checked: one entry per seat (``None`` for all
    learners when ``opponents`` is ``None``).

    Raises:
        ValueError: not one entry per seat, an entry that is no level of
            :data:`OPPONENT_LEVELS`, ``None`` nor callable, or no ``None`` (learner) seat.
    """
    if opponents is None:
        return [None] * players
    if isinstance(opponents, str) or not isinstance(opponents, Sequence):
        raise ValueError(f"opponents = {opponents!r} must be a sequence of {players} entries, "
                         "one per seat: None (a learner), a level of "
                         f"{', '.join(OPPONENT_LEVELS)}, or a policy function")
    got = list(opponents)
    if len(got) != players:
        raise ValueError(f"{len(got)} opponents given for a table of {players}; give one entry "
                         "per seat (None for a learner seat)")
    for seat, o in enumerate(got):
        if o is None or callable(o) or (isinstance(o, str) and o in OPPONENT_LEVELS):
            continue
        raise ValueError(f"opponents[{seat}] = {o!r} is not allowed; give None (a learner), "
                         f"one of {', '.join(OPPONENT_LEVELS)}, or a policy function "
                         "policy(observations, masks) -> actions")
    if all(o is not None for o in got):
        raise ValueError("opponents has no learner seat; mark at least one seat None")
    return got


def _kind(o: Opponent) -> int:
    """The compiled core's code of what plays a seat (:data:`_compiled_vector.BOT_KINDS`)."""
    return _compiled_vector.BOT_KINDS["policy" if callable(o) else o]


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
        opponents: what plays each seat, one entry per player index, the same at every
            table (default ``None``: every seat is a learner). ``None`` marks a learner
            seat (at least one); ``"random"``, ``"simple"`` or ``"intermediate"`` a
            computer player (:data:`OPPONENT_LEVELS`; in C under the compiled backend,
            :class:`RandomIndexPlayer` and the players of those levels under Python); a
            callable a frozen :data:`Policy`. Steps then stop only at learner seats: see
            the module docstring, "Opponents".
        final_obs_seat: a player index whose observation of each episode's end is kept:
            every :meth:`step`, :meth:`step_masks` and :meth:`restart` then returns
            ``info["final_obs"]``, ``{table: float32 (702,)}`` for the tables whose episode
            ended (default ``None``: not kept).

    Attributes:
        num_envs: ``N``.
        players: players per table.
        rules: the tables' :class:`~president.rules.Rules`.
        backend: the backend in use, ``"compiled"`` or ``"python"``.
        tables: the Python backend's :class:`~president.env.table.Table` per table (empty
            under the compiled backend).
        opponents: what plays each seat (``None``: a learner), as given.
        observation_size: 702. num_actions: 66.

    Raises:
        ValueError: ``num_envs`` not a whole number of at least 1, a bad option (saying
            which values are allowed), an unknown ``backend``, or ``backend="compiled"``
            when the compiled core cannot run these tables (saying why: not built,
            ``PRESIDENT_PURE=1``, ``episode="match"``, the ``reversal`` twist); bad
            ``opponents`` (see :func:`check_opponents_list`) or ``final_obs_seat``.
    """

    def __init__(self, num_envs: int, *, rules: Rules | str | None = None,
                 preset: str | None = None, twists: Any = (), players: int | None = None,
                 episode: str = "deal", reward: str = "place", max_deals: int = 20,
                 backend: str = "auto", opponents: Sequence[Opponent] | None = None,
                 final_obs_seat: int | None = None) -> None:
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
        self.opponents = check_opponents_list(opponents, self.rules.players)
        self._kinds = [_kind(o) for o in self.opponents]
        self._bots_on = any(self._kinds)
        # the policy seats, each with its policy, in seat order
        self._policies = [(seat, o) for seat, o in enumerate(self.opponents) if callable(o)]
        if final_obs_seat is not None and (
                isinstance(final_obs_seat, bool) or not isinstance(final_obs_seat, int)
                or not 0 <= final_obs_seat < self.rules.players):
            raise ValueError(f"final_obs_seat = {final_obs_seat!r} is not allowed; give a "
                             f"player index 0 to {self.rules.players - 1} or None")
        self.final_obs_seat = final_obs_seat
        # the Python backend's computer players per table, by player index (None: a seat
        # the caller plays)
        self._bots: list[list[RandomIndexPlayer | Player | None]] = []
        self._compiled: _compiled_vector.CompiledTables | None = None
        if self.backend == "compiled":
            self.tables: list[Table] = []
            self._compiled = _compiled_vector.CompiledTables(self.num_envs, self.rules, reward,
                                                             self._kinds)
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
        else:
            self._bots = [[] for _ in range(n)]
            for i in range(n):
                self._new_episode(i)
        rewards = np.zeros((n, self.players), dtype=np.float32)
        ended = np.zeros(n, dtype=np.bool_)
        obs, masks, players = self._settle(rewards, ended, ended.copy(), {}, True)
        assert obs is not None
        return obs, {"action_mask": masks, "player": players}

    def _new_episode(self, i: int) -> None:
        """The Python backend: start table ``i``'s next episode from its generator, with new
        computer players (each seeded by one ``getrandbits(63)`` of the generator per seat
        that is not a learner, in seat order, after the deal's draws), who act until a
        learner or policy seat is to act."""
        assert self._rngs is not None
        rng = self._rngs[i]
        self.tables[i].reset(rng)
        if not self._bots_on:
            return
        bots: list[RandomIndexPlayer | Player | None] = []
        for o in self.opponents:
            if o is None:
                bots.append(None)
                continue
            seed = rng.getrandbits(63)
            if callable(o):
                bots.append(None)
            elif o == "random":
                bots.append(RandomIndexPlayer(seed))
            else:
                bots.append(make_player(o, seed=seed))
        self._bots[i] = bots
        self._play_bots(i)   # no deal ends before every seat has acted: nothing to reward

    def _play_bots(self, i: int) -> list[float] | None:
        """The Python backend: table ``i``'s computer players act until a learner or
        policy seat is to act or the episode ends. Returns the rewards of the deals that
        ended meanwhile (summed, by player), or ``None`` if none did."""
        table = self.tables[i]
        bots = self._bots[i]
        total: list[float] | None = None
        while True:
            p = table.acting()
            if p is None:
                return total
            bot = bots[p]
            if bot is None:
                return total
            if isinstance(bot, RandomIndexPlayer):
                got = table.step_checked(bot.pick(table.mask_bytes()))
            else:
                m = table.match
                assert m is not None and m.to_act is not None
                got = table.act_engine(m.to_act, bot.act(m.observation(m.to_act)))
            if got is not None:
                total = got if total is None else [a + b for a, b in zip(total, got)]

    def restart(self, index: Sequence[int] | np.ndarray) -> tuple[np.ndarray, dict[str, Any]]:
        """End the episodes at tables ``index`` now, with no reward, and start their next
        ones from their generators (the computer players acting until a learner is to act),
        as if each had ended there: for a caller that ends an episode itself (a penalty).

        Returns:
            ``(obs, info)`` of every table as :meth:`observe`; ``info["final_obs"]`` too
            under ``final_obs_seat`` (the restarted tables' last observations).

        Raises:
            RuntimeError: before the first :meth:`reset`.
            IndexError: an index that is not a table.
        """
        if self._rngs is None:
            raise RuntimeError("call reset() before restart()")
        n = self.num_envs
        idx = [int(i) for i in np.asarray(index, dtype=np.int64).reshape(-1)]
        for i in idx:
            if not 0 <= i < n:
                raise IndexError(f"table {i} is not a table; tables are 0 to {n - 1}")
        finals: dict[int, np.ndarray] = {}
        for i in idx:
            if self.final_obs_seat is not None:
                finals[i] = self._final(i)
            if self._compiled is not None:
                self._compiled.deal(i, self._rngs[i])
            else:
                self._new_episode(i)
        rewards = np.zeros((n, self.players), dtype=np.float32)
        ended = np.zeros(n, dtype=np.bool_)
        obs, masks, players = self._settle(rewards, ended, ended.copy(), finals, True)
        assert obs is not None
        info: dict[str, Any] = {"action_mask": masks, "player": players}
        if self.final_obs_seat is not None:
            info["final_obs"] = finals
        return obs, info

    def _final(self, i: int) -> np.ndarray:
        """Table ``i``'s observation of ``final_obs_seat`` now (before it is dealt again)."""
        seat = self.final_obs_seat
        assert seat is not None
        if self._compiled is not None:
            return scale_scores(self._compiled.observe_seat(i, seat))
        return self.tables[i].observe(seat)

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
        if self._compiled is not None and not self._bots_on and self.final_obs_seat is None:
            return self._step_compiled(acts, observations)
        rewards = np.zeros((n, self.players), dtype=np.float32)
        terminated = np.zeros(n, dtype=np.bool_)
        truncated = np.zeros(n, dtype=np.bool_)
        finals: dict[int, np.ndarray] = {}
        self._apply(None, acts, rewards, terminated, truncated, finals, "")
        obs, masks, who = self._settle(rewards, terminated, truncated, finals, observations)
        info: dict[str, Any] = {"action_mask": masks, "player": who}
        if self.final_obs_seat is not None:
            info["final_obs"] = finals
        return obs, rewards, terminated, truncated, info

    def step_at(self, index: Sequence[int] | np.ndarray,
                actions: Sequence[int] | np.ndarray) -> tuple[np.ndarray, np.ndarray,
                                                              np.ndarray, np.ndarray,
                                                              dict[str, Any]]:
        """:meth:`step` at some tables only: ``actions[k]`` at table ``index[k]`` (distinct
        tables); the other tables keep their turn (their rows come back as they were, with
        no reward). For a caller that handles some tables itself (a penalty that ends an
        episode, see :meth:`restart`).

        Returns:
            ``(obs, rewards, terminated, truncated, info)`` of every table, as :meth:`step`.

        Raises:
            RuntimeError: before the first :meth:`reset`.
            ValueError: ``index`` and ``actions`` not of one length of whole numbers, an
                index that is not a table, or one given twice.
            IllegalAction: as :meth:`step` (no table changes).
        """
        if self._rngs is None:
            raise RuntimeError("call reset() before step_at()")
        n = self.num_envs
        idx = np.asarray(index)
        acts = np.asarray(actions)
        if idx.ndim != 1 or acts.shape != idx.shape or (
                idx.size and not (np.issubdtype(idx.dtype, np.integer)
                                  and np.issubdtype(acts.dtype, np.integer))):
            raise ValueError(f"index and actions must be whole numbers of one length (one "
                             f"action per table listed); got shapes {idx.shape} and "
                             f"{acts.shape}")
        idx = idx.astype(np.int64)
        if idx.size and (idx.min() < 0 or idx.max() >= n or len(set(idx.tolist())) < idx.size):
            raise ValueError(f"index must list distinct tables 0 to {n - 1}; got "
                             f"{idx.tolist()}")
        rewards = np.zeros((n, self.players), dtype=np.float32)
        terminated = np.zeros(n, dtype=np.bool_)
        truncated = np.zeros(n, dtype=np.bool_)
        finals: dict[int, np.ndarray] = {}
        if idx.size:
            self._apply(idx, acts, rewards, terminated, truncated, finals, "")
        obs, masks, who = self._settle(rewards, terminated, truncated, finals, True)
        assert obs is not None
        info: dict[str, Any] = {"action_mask": masks, "player": who}
        if self.final_obs_seat is not None:
            info["final_obs"] = finals
        return obs, rewards, terminated, truncated, info

    def _apply(self, index: np.ndarray | None, acts: np.ndarray, rewards: np.ndarray,
               terminated: np.ndarray, truncated: np.ndarray, finals: dict[int, np.ndarray],
               who: str) -> None:
        """Take ``acts[k]`` at table ``index[k]`` (every table in order when ``index`` is
        ``None``), then let the computer players act there; a table whose episode ends
        gets its rewards added to its row of ``rewards`` and its flag set, its final
        observation kept (under ``final_obs_seat``) and its next episode started. All are
        checked first: an ``IllegalAction`` (naming the table, and ``who`` chose it) leaves
        every table as it was."""
        rngs = self._rngs
        assert rngs is not None
        tables_of = range(len(acts)) if index is None else index.tolist()
        compiled = self._compiled
        if compiled is not None:
            if acts.dtype.kind == "u":
                acts64 = np.minimum(acts, NUM_ACTIONS).astype(np.int64)
            else:
                acts64 = np.ascontiguousarray(acts, dtype=np.int64)
            idx = (np.arange(len(acts), dtype=np.int64) if index is None
                   else np.ascontiguousarray(index, dtype=np.int64))
            ended = np.zeros(self.num_envs, dtype=np.bool_)
            keep = self.final_obs_seat is not None
            done = compiled.step_at(idx, acts64, rewards, ended, None if keep else rngs)
            if done < 0:
                k = -1 - done
                raise IllegalAction("illegal-index", f"table {int(idx[k])}{who}: "
                                    f"{_compiled_vector.refusal(acts[k].item())}")
            if done:
                terminated |= ended
                if keep:
                    for i in np.flatnonzero(ended).tolist():
                        finals[i] = self._final(i)
                        compiled.deal(i, rngs[i])
            return
        actions = acts.tolist()
        tables = self.tables
        for i, a in zip(tables_of, actions):
            if not 0 <= a < NUM_ACTIONS or not tables[i].mask_bytes()[a]:
                raise IllegalAction("illegal-index", f"table {i}{who}: {tables[i].refusal(a)}")
        for i, a in zip(tables_of, actions):
            table = tables[i]
            got = table.step_checked(a)
            if self._bots_on and table.acting() is not None:
                more = self._play_bots(i)
                if more is not None:
                    got = more if got is None else [x + y for x, y in zip(got, more)]
            if got is not None:
                rewards[i] += got
            if table.terminated or table.truncated:
                terminated[i] = table.terminated
                truncated[i] = table.truncated and not table.terminated
                if self.final_obs_seat is not None:
                    finals[i] = self._final(i)
                self._new_episode(i)

    def _settle(self, rewards: np.ndarray, terminated: np.ndarray, truncated: np.ndarray,
                finals: dict[int, np.ndarray], observations: bool) -> tuple[
                    np.ndarray | None, np.ndarray, np.ndarray]:
        """Let the policy seats act (each policy called once per round for all the tables
        waiting on its seat) until a learner is to act at every table; returns the
        outputs there (observations only if ``observations``), as
        :meth:`_outputs_or_masks`."""
        if not self._policies:
            return self._outputs_or_masks(observations)
        while True:
            obs, masks, who = self._outputs_or_masks(True)
            assert obs is not None
            waiting = False
            for seat, policy in self._policies:
                idx = np.flatnonzero(who == seat)
                if not idx.size:
                    continue
                waiting = True
                got = np.asarray(policy(obs[idx], masks[idx].view(np.bool_)))
                if got.shape != idx.shape or not np.issubdtype(got.dtype, np.integer):
                    raise ValueError(f"the policy of seat {seat} returned shape {got.shape} of "
                                     f"{got.dtype}; it must return {idx.size} whole numbers "
                                     "(one action index per row of observations)")
                self._apply(idx, got, rewards, terminated, truncated, finals,
                            f" (the policy of seat {seat})")
            if not waiting:
                return (obs if observations else None), masks, who

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
