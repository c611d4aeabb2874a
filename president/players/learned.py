"""``learned``: a network trained by self-play in a league, played by its outputs alone.

The network (``president/players/data/learned.npz``, a multi-layer perceptron saved by
:meth:`president.env.policy.MLP.save`) reads the seat's observation vector
(:func:`president.env.encoding.encode_observation`: only what that seat may know) and scores
each of the 66 action indices; the player takes the legal action of the highest score
(:class:`president.env.policy.PolicyPlayer`). It was trained on single deals of the house
rules at four seats (docs/learning.md gives the recipe and the command that rebuilds it),
so in an exchange it gives cards as the ``simple`` level does. It needs numpy (the ``env``
extra); without it the level is not offered.
"""

from __future__ import annotations

import os
from functools import lru_cache

from ..env.policy import MLP, PolicyPlayer

__all__ = ["LearnedPlayer", "WEIGHTS"]

#: The shipped network's file.
WEIGHTS = os.path.join(os.path.dirname(__file__), "data", "learned.npz")


@lru_cache(maxsize=1)
def _network() -> MLP:
    return MLP.load(WEIGHTS)


class LearnedPlayer(PolicyPlayer):
    """The ``learned`` level: :class:`~president.env.policy.PolicyPlayer` of the shipped
    network. Deterministic; ``seed`` is accepted for a uniform API.

    Raises:
        ValueError: the shipped weights file is missing or damaged (saying which file).
    """

    def __init__(self, *, seed: int | None = None) -> None:
        super().__init__(_network(), seed=seed, level="learned")
