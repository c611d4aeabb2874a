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

import importlib
from typing import Callable

from .base import Player
from .random_player import RandomPlayer
from .simple import SimplePlayer

__all__ = ["Player", "RandomPlayer", "SimplePlayer", "LEVELS", "make_player"]


def _lazy(module: str, cls: str) -> Callable[[int | None], Player]:
    def factory(seed: int | None) -> Player:
        return getattr(importlib.import_module(f"{__name__}.{module}"), cls)(seed=seed)
    return factory


# level name -> factory(seed), ordered weakest to strongest. Levels whose module is not
# there yet are skipped by make_player's error (see available_levels()).
LEVELS: dict[str, Callable[[int | None], Player]] = {
    "random": lambda seed: RandomPlayer(seed=seed),
    "beginner": _lazy("beginner", "BeginnerPlayer"),
    "simple": lambda seed: SimplePlayer(seed=seed),
    "intermediate": _lazy("intermediate", "IntermediatePlayer"),
    "expert": _lazy("expert", "ExpertPlayer"),
}


def available_levels() -> list[str]:
    """Level names whose implementation is installed, weakest first."""
    out = []
    for name in LEVELS:
        try:
            make_player(name, seed=0)
        except (ImportError, AttributeError):
            continue
        out.append(name)
    return out


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
