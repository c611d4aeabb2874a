"""The Gymnasium environment ``"President-v1"``: one learning seat against computer players.

The learner is one of the match's players; every other player is a computer level (or your
own bot, by import path) that sees only its own :class:`~president.observation.Observation`.
A step takes the learner's action, then lets the others act until it is the learner's turn
again or the episode ends. See docs/env.md.
"""

from __future__ import annotations

import random
from typing import Any, Sequence

import gymnasium
import numpy as np
from gymnasium import spaces

from ..errors import IllegalAction
from ..players import Player, make_player
from ..rules import Rules
from .aec import ILLEGAL, check_choice, observation_space_for
from .encoding import NUM_ACTIONS
from .table import Table, make_rules

__all__ = ["PresidentEnv", "check_opponents", "make_bots", "play_others"]

#: An observation: the flat vector, or with ``dict_obs`` the vector and the action mask.
_Obs = np.ndarray | dict[str, np.ndarray]


def check_opponents(opponents: str | Sequence[str], n: int) -> list[str]:
    """The computer players of the ``n - 1`` seats other than the learner's, one per seat in
    order of player index: ``opponents`` is one level name (:data:`president.players.LEVELS`)
    or import path ``"package.module:Class"`` for all of them, or a sequence of ``n - 1``.

    Raises:
        ValueError: the wrong number of them, or one that is no level nor importable bot
            (saying why).
    """
    if isinstance(opponents, str):
        opponents = [opponents] * (n - 1)
    names = list(opponents)
    for level in names:     # an unknown level or path is named first, with the reason
        make_player(level, seed=0, imports=True)
    if len(names) != n - 1:
        raise ValueError(f"{len(names)} opponent(s) given for a table of {n}; give one "
                         f"level for every other player ({n - 1}), or a single level")
    return names


def make_bots(opponents: Sequence[str], learner: int, rng: random.Random) -> list[Player | None]:
    """One computer player per player index (``None`` at ``learner``), the levels of
    ``opponents`` in order, each seeded from ``rng`` (63 bits, in order of player index)."""
    levels = iter(opponents)
    return [None if p == learner else make_player(next(levels), imports=True,
                                                  seed=rng.getrandbits(63))
            for p in range(len(opponents) + 1)]


def play_others(table: Table, bots: Sequence[Player | None], learner: int) -> float:
    """Let the computer players ``bots`` (by player index) act at ``table``, each on its own
    seat's engine observation, until it is ``learner``'s turn or the episode ends.

    Returns:
        the learner's reward from the deals that ended meanwhile (0.0 if none).
    """
    m = table.match
    assert m is not None
    total = 0.0
    while True:
        p = table.acting()
        if p is None or p == learner:
            return total
        seat = m.to_act
        bot = bots[p]
        assert seat is not None and bot is not None   # p acts, and p is not the learner
        rewards = table.act_engine(seat, bot.act(m.observation(seat)))
        if rewards is not None:
            total += rewards[learner]


class PresidentEnv(gymnasium.Env):
    """President for one learner (Gymnasium API).

    Keyword args:
        rules, preset, twists, players, episode, reward, max_deals, dict_obs,
            render_mode: as :class:`~president.env.aec.raw_env`.
        opponents: a level name (one of :data:`president.players.LEVELS`: ``"random"``
            up to ``"master"``) or an import path ``"package.module:Class"``
            for every other seat, or a sequence of them, one per other player in order of
            player index (default ``"simple"``).
        seat: the learner's player index, or ``"random"`` for a new one each episode
            (default 0). The first dealer is drawn each episode, so the learner's seat
            relative to the dealer varies either way.
        illegal, illegal_reward: as every environment of this package
            (:data:`~president.env.aec.ILLEGAL_POLICY`): ``"penalty"`` (default: the
            action is not played, the episode ends with ``illegal_reward``, default -1.0)
            or ``"raise"``.

    ``info["action_mask"]`` (int8, shape ``(66,)``) comes with every observation, and
    ``info["learner"]`` (int), the learner's player index (it changes per episode under
    ``seat="random"``; also :attr:`learner`).

    Raises:
        ValueError: for a bad option, saying which values are allowed.
    """

    # not a ClassVar: gymnasium.Env declares metadata as an instance attribute
    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(self, *, rules: Rules | str | None = None, preset: str | None = None,
                 twists: Any = (), players: int | None = None, episode: str = "deal",
                 reward: str = "place", max_deals: int = 20, dict_obs: bool = False,
                 opponents: str | Sequence[str] = "simple", seat: int | str = 0,
                 illegal: str = "penalty", illegal_reward: float = -1.0,
                 render_mode: str | None = None) -> None:
        check_choice("illegal", illegal, ILLEGAL)
        check_choice("render_mode", render_mode, (None, "human", "ansi"))
        check_choice("dict_obs", dict_obs, (True, False))
        self.table = Table(make_rules(rules=rules, preset=preset, twists=twists, players=players),
                           episode=episode, reward=reward, max_deals=max_deals)
        n = self.table.n
        if seat != "random" and (isinstance(seat, bool) or not isinstance(seat, int)
                                 or not 0 <= seat < n):
            raise ValueError(f"seat = {seat!r} is not allowed; give a player index 0 to {n - 1} "
                             "or 'random'")
        self.opponents = check_opponents(opponents, n)
        self.seat_option = seat
        self.dict_obs = dict_obs
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.observation_space = observation_space_for(self.table, dict_obs)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self._rng: random.Random | None = None
        self.learner = 0
        self.bots: list[Player | None] = []

    def _output(self) -> tuple[_Obs, dict[str, Any]]:
        mask = self.table.mask(self.learner)
        obs = self.table.observe(self.learner)
        info = {"action_mask": mask, "learner": self.learner}
        if self.dict_obs:
            return {"observation": obs, "action_mask": mask.copy()}, info
        return obs, info

    def _others(self) -> float:
        """Let the computer players act until the learner's turn or the episode's end;
        returns the learner's reward from deals that ended meanwhile."""
        return play_others(self.table, self.bots, self.learner)

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[_Obs, dict[str, Any]]:
        """Start an episode; with ``seed`` it is a pure function of the seed (match,
        first dealer, learner's index under ``seat = "random"``, computer players' seeds).
        The draws, in order: the learner's index (under ``seat = "random"`` only), the deal
        (as :meth:`~president.env.table.Table.reset`), the computer players' seeds (so a
        :class:`~president.env.gym_vector.GymVectorEnv` table plays the same episodes, on
        its compiled backend too for ``simple`` and ``intermediate`` opponents)."""
        super().reset(seed=seed)
        if seed is not None or self._rng is None:
            self._rng = random.Random(seed)
        rng = self._rng
        n = self.table.n
        seat = self.seat_option     # a player index, or "random" (checked when built)
        self.learner = seat if isinstance(seat, int) else rng.randrange(n)
        self.table.reset(rng)
        self.bots = make_bots(self.opponents, self.learner, rng)
        self._others()  # rewards before the learner's first turn: none (no deal ends)
        obs, info = self._output()
        if self.render_mode == "human":
            self.render()
        return obs, info

    def step(self, action: int) -> tuple[_Obs, float, bool, bool, dict[str, Any]]:
        """Take action index ``action`` (0..65) for the learner, then the others' turns.

        Returns:
            ``(observation, reward, terminated, truncated, info)``; ``reward`` sums the
            learner's rewards of the deals that ended during the step.

        Raises:
            IllegalAction: reason ``illegal-index`` under ``illegal = "raise"``.
        """
        table = self.table
        why = table.refusal(action)
        if why is not None:
            if self.illegal == "raise":
                raise IllegalAction("illegal-index", why)
            table.terminated = True
            obs, info = self._output()
            return obs, self.illegal_reward, True, False, info
        rewards = table.step_checked(int(action))
        reward = 0.0 if rewards is None else rewards[self.learner]
        reward += self._others()
        obs, info = self._output()
        if self.render_mode == "human":
            self.render()
        return obs, reward, table.terminated, table.truncated and not table.terminated, info

    def render(self) -> str | None:
        """The public state as text: returned under ``"ansi"``, printed under ``"human"``."""
        text = self.table.render_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text
