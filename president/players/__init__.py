"""Computer players. Each sees only its own :class:`~president.observation.Observation`.

A player is any object with ``act(observation) -> action`` (a :class:`~president.Play`,
:data:`~president.PASS`, or a :class:`~president.Give` during an exchange), returning one of
``observation.legal_actions``. Build one by level name with :func:`make_player`.

>>> from president import Match, Rules
>>> from president.players import make_player
>>> m = Match(Rules.preset("practice"), seed=4)
>>> bot = make_player("simple", seed=1)
>>> m.observation(0).legal_actions[0] == bot.act(m.observation(0))
True
"""

from __future__ import annotations

from typing import Callable

from .base import Player
from .random_player import RandomPlayer
from .simple import SimplePlayer

__all__ = ["Player", "RandomPlayer", "SimplePlayer", "LEVELS", "make_player"]

# level name -> factory(seed) ; ordered weakest to strongest.
LEVELS: dict[str, Callable[[int | None], Player]] = {
    "random": lambda seed: RandomPlayer(seed=seed),
    "simple": lambda seed: SimplePlayer(seed=seed),
}


def make_player(level: str, *, seed: int | None = None) -> Player:
    """A computer player of the named level (see :data:`LEVELS`).

    Raises:
        ValueError: for an unknown level, listing the known ones.
    """
    try:
        factory = LEVELS[level]
    except KeyError:
        raise ValueError(f"no computer level {level!r}; levels are: {', '.join(LEVELS)}") from None
    return factory(seed)
