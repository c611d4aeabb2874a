"""The compiled tables of :class:`~president.env.vector.VectorEnv` (``backend="compiled"``).

:class:`CompiledTables` keeps ``N`` one-deal tables in the C extension ``president._vector``
(source ``president/_vector.c``): the play of each deal, the card masks the observation
shows, and the rewards. One :meth:`CompiledTables.step` applies ``N`` action indices and one
:meth:`CompiledTables.observe` writes the ``N`` observations (the 702 numbers of
:data:`~president.env.encoding.PIECES`), the ``int8`` masks and the players to act straight
into numpy arrays.

What stays in Python, here: dealing. :meth:`CompiledTables.deal` draws from a table's
``random.Random`` exactly what :meth:`president.env.table.Table.reset` draws (the first
dealer, the match seed, the match's deal seed, the shuffle of
:func:`president.deal.deal_hands`) and finds the opening leader as
:class:`president.match.Match` does for a match's first deal, so a seed gives the same deal
under both backends. The C plays the deal with the rules of :mod:`president.kernel`,
restated statement for statement; tests/test_env_vector_compiled.py checks every output
against the Python tables, byte for byte, over every preset and twist it covers.

What the compiled core does not play (:func:`unsupported` says why, and ``VectorEnv``
falls back to its Python tables under ``backend="auto"``): ``episode="match"`` (exchanges,
seating and scores between deals) and the ``reversal`` twist.
"""

from __future__ import annotations

import os
import random
from typing import Any

import numpy as np

from ..deal import deal_hands
from ..kernel import mode_of, strict_of
from ..rules import Rules
from .encoding import NUM_ACTIONS, OBS_SIZE, describe_action, piece_slices

__all__ = ["BUILT", "CompiledTables", "unsupported", "refusal"]

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


def unsupported(rules: Rules, episode: str) -> str | None:
    """Why the compiled core cannot run tables of ``rules`` with ``episode``, in words, or
    ``None`` when it can. Reads the environment variable ``PRESIDENT_PURE`` now (``"1"``
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
    if rules.reversal:
        return "the reversal twist is played in Python only"
    return None


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

    Raises:
        ValueError: rules the core does not play (see :func:`unsupported`).
    """

    def __init__(self, num_envs: int, rules: Rules, reward: str) -> None:
        why = unsupported(rules, "deal")
        if why is not None:
            raise ValueError(why)
        n = rules.players
        if reward == "points":
            scoring = rules.scoring or ()
            by_place = [float(scoring[p]) if p < len(scoring) else 0.0 for p in range(n)]
        else:
            by_place = [1.0 - 2.0 * place / (n - 1) for place in range(n)]
        self.num_envs = num_envs
        self.players = n
        self.rules = rules
        fl = rules.first_lead
        self._lead_seat = fl.seat
        self._lead_bit = fl.card.bit if fl.card is not None else 0
        self.core = _ext.Core(num_envs, n, int(strict_of(rules.beat)), mode_of(rules.passing),
                              int(bool(rules.last_of_rank_clears)), by_place)

    def deal(self, i: int, rng: random.Random) -> None:
        """Start a new deal at table ``i`` with the draws of
        :meth:`~president.env.table.Table.reset` from ``rng``: the first dealer, the match
        seed, then that match's first deal (its seed of 32 bits and the shuffle)."""
        n = self.players
        dealer = rng.randrange(n)
        match_rng = random.Random(rng.getrandbits(63))
        hands = deal_hands(n, dealer, match_rng.getrandbits(32))
        if self._lead_seat is not None:           # first_lead = seat:<n>
            leader = self._lead_seat
        else:                                     # left-of-dealer, or holder-of:<card>
            leader = (dealer + 1) % n
            bit = self._lead_bit
            if bit:
                for seat, hand in enumerate(hands):
                    if hand & bit:
                        leader = seat
                        break
        self.core.load(i, hands, leader)

    def step(self, actions: np.ndarray, rewards: np.ndarray, ended: np.ndarray) -> int:
        """Apply ``actions`` (int64, ``(N,)``) at every table; fill ``rewards`` (float32,
        ``(N, players)``) and ``ended`` (bool, ``(N,)``). Returns how many deals ended (those
        tables must be dealt again with :meth:`deal`), or ``-1 - i`` when table ``i`` is the
        first to refuse its action (nothing changed then)."""
        result: int = self.core.step(actions, rewards, ended)
        return result

    def observe(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every table's observation of its player to act (float32 ``(N, 702)``), that
        player's mask (int8 ``(N, 66)``) and index (int64 ``(N,)``), in new arrays."""
        n = self.num_envs
        obs = np.empty((n, OBS_SIZE), dtype=np.float32)
        masks = np.empty((n, NUM_ACTIONS), dtype=np.int8)
        players = np.empty(n, dtype=np.int64)
        self.core.observe(obs, masks, players)
        return obs, masks, players

    def state(self, i: int) -> dict[str, Any]:
        """Table ``i``'s play state in the core (hands, pile, counts, turn, passes, ...), for
        tests and debugging."""
        out: dict[str, Any] = self.core.state(i)
        return out
