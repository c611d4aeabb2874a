"""The compiled tables of :class:`~president.env.vector.VectorEnv` (``backend="compiled"``).

:class:`CompiledTables` keeps ``N`` one-deal tables in the C extension ``president._vector``
(source ``president/native/_vector.c``): the play of each deal, the card masks the observation
shows, and the rewards. One :meth:`CompiledTables.step` applies ``N`` action indices (and
deals again, in C, every table whose deal ended) and one :meth:`CompiledTables.observe`
writes the ``N`` observations (the 702 numbers of :data:`~president.env.encoding.PIECES`),
the ``int8`` masks and the players to act straight into numpy arrays;
``observe(observations=False)`` writes only the masks and players (the step-and-mask path).

Dealing is in C too: :meth:`CompiledTables.deal` makes from a table's ``random.Random``
exactly the draws :meth:`president.env.table.Table.reset` makes (the first dealer, the match
seed, the match's deal seed, the shuffle of :func:`president.deal.deal_hands`), stepping
CPython's Mersenne Twister state in C (``president/native/_mt.h``), and finds the opening leader
as :class:`president.match.Match` does for a match's first deal; so a seed gives the same
deal under both backends and the generator ends in the same state. The one-table entry
points :meth:`CompiledTables.act`, :meth:`CompiledTables.rewards` and
:meth:`CompiledTables.observe_seat` serve the AEC environment
(:class:`president.env.aec.raw_env`). The C plays the deal with the rules of
:mod:`president.kernel`, restated statement for statement; tests/test_env_vector_compiled.py
and tests/test_env_aec_compiled.py check every output against the Python tables, byte for
byte, over every preset and twist the core covers.

Computer players (``bots=`` of :class:`CompiledTables`, the ``opponents`` of
:class:`~president.env.vector.VectorEnv`): seats played inside the core by the random,
simple or intermediate player (the C choices of the compiled play-outs, and the exact
endgame search), so that :meth:`CompiledTables.step` and :meth:`CompiledTables.step_at`
stop only at the caller's seats; each deal then draws one ``getrandbits(63)`` per
computer or policy seat after its own draws, as
:func:`president.env.single.make_bots` seeds computer players.

What the compiled core does not play (:func:`unsupported` says why, and ``VectorEnv``
falls back to its Python tables under ``backend="auto"``): ``episode="match"`` (exchanges,
seating and scores between deals) and the rules the allow-list of :mod:`president.native`
leaves to Python (the ``reversal`` twist today).
"""

from __future__ import annotations

import os
import random
from typing import Any, Callable

import numpy as np

from ..kernel import clears_of, mode_of, strict_of
from ..native import native_refusal
from ..rules import Rules
from .encoding import NUM_ACTIONS, OBS_SIZE, describe_action, piece_slices

__all__ = ["BUILT", "BOT_KINDS", "CompiledTables", "unsupported", "refusal", "sample"]

#: The core's code of what plays a seat (``CompiledTables(bots=...)``): the caller (a
#: learner, 0), a computer player played in C (1 to 3), or a policy the caller plays (4).
BOT_KINDS = {None: 0, "random": 1, "simple": 2, "intermediate": 3, "policy": 4}

_ext: Any
try:
    from .. import _vector as _ext  # type: ignore[attr-defined, no-redef]
except ImportError:
    _ext = None


def _layout_agrees() -> bool:
    """Whether the extension writes the pieces where :func:`piece_slices` puts them."""
    if _ext is None:
        return False
    layout = dict(_ext.LAYOUT)
    if layout.pop("OBS_SIZE") != OBS_SIZE or layout.pop("NUM_ACTIONS") != NUM_ACTIONS:
        return False
    return layout == {name: s.start for name, s in piece_slices().items()}


#: Whether ``president._vector`` is built and writes this version's observation layout.
BUILT: bool = _layout_agrees()


#: The C sampler of a build that has one and agrees with this layout, else ``None``.
_SAMPLE: Callable[..., Any] | None = getattr(_ext, "sample", None) if BUILT else None


def sample(masks: np.ndarray, u: np.ndarray, out: np.ndarray) -> int | None:
    """:func:`president.env.vector.sample_legal` in C: ``out[i]`` (int64) becomes the
    ``floor(u[i] * k)``-th legal action of row ``i`` of ``masks`` (int8 ``(N, 66)``,
    C-contiguous), ``k`` its count of legal actions. Returns ``-1 - i`` for the first row
    with none, else 0; ``None`` when the built core lacks it or ``PRESIDENT_PURE`` is ``1``
    (then nothing is written)."""
    if _SAMPLE is None:
        return None
    done = _SAMPLE(masks, u, out)   # None under PRESIDENT_PURE=1 (the C reads it each call)
    return None if done is None else int(done)


def unsupported(rules: Rules, episode: str) -> str | None:
    """Why the compiled core cannot run tables of ``rules`` with ``episode``, in words, or
    ``None`` when it can: the extension is built, the episode is one deal, and the
    allow-list of :mod:`president.native` lets C play the rules
    (:func:`president.native.native_refusal`). Reads the environment variable ``PRESIDENT_PURE`` now (``"1"``
    asks for the pure-Python code everywhere)."""
    if _ext is None:
        return ("the extension president._vector is not built (build it with "
                "`python setup.py build_ext --inplace` or `pip install -e .`, which needs a "
                "C compiler and the Python headers)")
    if not BUILT:
        return ("the built president._vector writes another observation layout than "
                "president.env.encoding; rebuild it")
    if os.environ.get("PRESIDENT_PURE") == "1":
        return "PRESIDENT_PURE=1 is set, which asks for the pure-Python code"
    if episode != "deal":
        return (f"episode = {episode!r}: the compiled core plays one-deal episodes only "
                "(a match's exchanges, seating and scores are played in Python)")
    return native_refusal(rules)


def refusal(action: int) -> str:
    """Why a table refuses action index ``action`` in the play of a deal: the words of
    :meth:`president.env.table.Table.refusal` (there is no exchange in a one-deal episode)."""
    if not 0 <= action < NUM_ACTIONS:
        return (f"action {action!r} is not an action index; indices are 0 to "
                f"{NUM_ACTIONS - 1} (see docs/env.md)")
    return f"{describe_action(action)} is not legal now (see the action mask)"


class CompiledTables:
    """``num_envs`` one-deal tables of ``rules`` in the C core.

    Args:
        num_envs: number of tables ``N`` (at least 1).
        rules: the tables' rules, as :class:`~president.env.table.Table` keeps them (the
            ``match_end`` of a deal episode); :func:`unsupported` must accept them.
        reward: ``"place"`` or ``"points"``, as :class:`~president.env.table.Table`.
        bots: what plays each seat, one of :data:`BOT_KINDS` per seat (``None``: every
            seat is the caller's, as ``[0] * players``): the computer players (random,
            simple, intermediate) are played inside the core, which stops only at the
            caller's seats (kinds 0 and 4). See :meth:`set_bots`.

    Raises:
        ValueError: rules the core does not play (see :func:`unsupported`), or bad
            ``bots``.
    """

    def __init__(self, num_envs: int, rules: Rules, reward: str,
                 bots: list[int] | None = None) -> None:
        why = unsupported(rules, "deal")
        if why is not None:
            raise ValueError(why)
        n = rules.players
        if reward == "points":
            scoring = rules.scoring or ()
            by_place = [float(scoring[p]) if p < len(scoring) else 0.0 for p in range(n)]
        else:
            by_place = [1.0 - 2.0 * place / (n - 1) for place in range(n)]
        scoring = rules.scoring or ()
        points = [float(scoring[p]) if p < len(scoring) else 0.0 for p in range(n)]
        self.num_envs = num_envs
        self.players = n
        self.rules = rules
        self.reward = reward
        fl = rules.first_lead
        self.core = _ext.Core(num_envs, n, int(strict_of(rules.beat)), mode_of(rules.passing),
                              clears_of(rules), by_place,
                              lead_seat=-1 if fl.seat is None else fl.seat,
                              lead_card=-1 if fl.card is None else fl.card.index,
                              points=points)
        self.bots = [0] * n if bots is None else list(bots)
        if any(self.bots):
            self.core.set_bots(self.bots)

    def __getstate__(self) -> dict[str, Any]:
        """The tables for pickling and ``copy.deepcopy``: the arguments and the core's play
        state (as bytes of this build's layout)."""
        return {"num_envs": self.num_envs, "rules": self.rules, "reward": self.reward,
                "bots": self.bots, "deals": self.core.snapshot()}

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Rebuild from :meth:`__getstate__`. Raises ``ValueError`` for a state of another
        build or out-of-range contents."""
        self.__init__(state["num_envs"], state["rules"], state["reward"],  # type: ignore[misc]
                      state.get("bots"))
        self.core.restore(state["deals"])

    def deal(self, i: int, rng: random.Random) -> None:
        """Start a new deal at table ``i`` with the draws of
        :meth:`~president.env.table.Table.reset` from ``rng`` (the first dealer, the match
        seed, then that match's first deal: its seed of 32 bits and the shuffle), made in C;
        ``rng`` ends in the state those Python draws leave it in.

        Raises:
            IndexError: ``i`` not a table. TypeError: ``rng`` whose ``getstate()`` is not
                a Mersenne Twister state of ``random.Random``.
        """
        self.core.deal(i, rng)

    def step(self, actions: np.ndarray, rewards: np.ndarray, ended: np.ndarray,
             rngs: list[random.Random] | None = None) -> int:
        """Apply ``actions`` (int64, ``(N,)``) at every table; fill ``rewards`` (float32,
        ``(N, players)``) and ``ended`` (bool, ``(N,)``). With ``rngs`` (one generator per
        table), every table whose deal ended is dealt again at once from its generator, as
        :meth:`deal`; without, those tables must be dealt again before the next step.
        Returns how many deals ended, or ``-1 - i`` when table ``i`` is the first to refuse
        its action (nothing changed then)."""
        result: int = self.core.step(actions, rewards, ended, rngs)
        return result

    def step_at(self, index: np.ndarray, actions: np.ndarray, rewards: np.ndarray,
                ended: np.ndarray, rngs: list[random.Random] | None) -> int:
        """:meth:`step` at the tables ``index`` (int64, ``(m,)``, distinct) only, with
        ``actions`` (int64, ``(m,)``), the computer players then acting there; ``rewards``
        and ``ended`` (of all ``N`` tables) are added to, not overwritten. Returns how many
        deals ended, or ``-1 - k`` when ``index[k]`` is the first table to refuse its
        action (nothing changed then)."""
        result: int = self.core.step_at(index, actions, rewards, ended, rngs)
        return result

    def observe(self, observations: bool = True) -> tuple[np.ndarray | None, np.ndarray,
                                                          np.ndarray]:
        """Every table's observation of its player to act (float32 ``(N, 702)``; ``None``
        when ``observations`` is false, which skips writing them), that player's mask (int8
        ``(N, 66)``) and index (int64 ``(N,)``), in new arrays."""
        n = self.num_envs
        obs = np.empty((n, OBS_SIZE), dtype=np.float32) if observations else None
        masks = np.empty((n, NUM_ACTIONS), dtype=np.int8)
        players = np.empty(n, dtype=np.int64)
        self.core.observe(obs, masks, players)
        return obs, masks, players

    def act(self, i: int, action: int, mask: np.ndarray) -> int:
        """Take action index ``action`` at table ``i`` alone (the AEC path). Returns the
        seat to act next, its mask written into ``mask`` (int8 ``(66,)``); ``-1`` when the
        deal ended (see :meth:`rewards`); ``-2`` when the table refuses ``action`` (nothing
        changes)."""
        result: int = self.core.act(i, action, mask)
        return result

    def rewards(self, i: int) -> list[float]:
        """The rewards by seat of table ``i``'s ended deal. Raises ``RuntimeError`` while
        it is in play."""
        out: list[float] = self.core.rewards(i)
        return out

    def observe_seat(self, i: int, seat: int, mask: np.ndarray | None = None) -> np.ndarray:
        """The observation (float32 ``(702,)``, a new array) of ``seat`` at table ``i``, in
        play or after the deal ended, byte for byte what
        :meth:`president.env.table.Table.observe` gives; ``mask`` (int8 ``(66,)``) gets that
        seat's legal actions (zeros unless it is to act)."""
        obs = np.empty(OBS_SIZE, dtype=np.float32)
        self.core.observe_seat(i, seat, obs, mask)
        return obs

    def state(self, i: int) -> dict[str, Any]:
        """Table ``i``'s play state in the core (hands, pile, counts, turn, passes, ...), for
        tests and debugging."""
        out: dict[str, Any] = self.core.state(i)
        return out
