"""``simple``: the player of the practice-round source (``003_e6cd2942d7a2654f.txt``).

- Leading: plays its lowest set (every card of its lowest rank).
- Following: beats the pile whenever it can. It prefers the lowest play that does not
  break a larger set (the lowest rank that beats and of which it holds exactly the pile's
  count); when every play that beats breaks a set, it breaks the lowest one; it passes only
  when nothing beats.
- Exchange: a forced give hands over the highest cards (lowest suits on a tie in rank);
  a free give returns its lowest card(s).
"""

from __future__ import annotations

from typing import Sequence

from ..actions import Give, Pass, Play
from ..observation import Observation
from ..search.knowledge import play_of, state_of
from ..search.playout_policies import simple_code


class SimplePlayer:
    """The seed-003 practice player. Deterministic; ``seed`` is accepted for a uniform API."""

    level = "simple"

    def __init__(self, *, seed: int | None = None) -> None:
        self.seed = seed

    def act(self, observation: Observation) -> Play | Pass | Give:
        """The practice player's choice (see the module docstring)."""
        return simple_choice(observation)


def simple_choice(obs: Observation) -> Play | Pass | Give:
    """The practice player's choice for the observing seat, which is to act: in play the
    rule stated once on counts (:func:`~president.search.playout_policies.simple_code`,
    which the expert's play-outs use too), read from ``obs``; in an exchange
    :func:`simple_give`.

    Raises:
        ValueError: the seat is not to act (``obs.legal_actions`` is empty).
    """
    legal = obs.legal_actions
    if not legal:
        raise ValueError(f"seat {obs.seat} is not to act; give an observation of its own turn")
    if isinstance(legal[0], Give):
        return simple_give(legal)
    if len(legal) == 1:
        return legal[0]
    fd, _ = state_of(obs)
    return play_of(simple_code(fd), legal)


def simple_give(legal: Sequence[Play | Pass | Give]) -> Give:
    """The practice player's give among the ``legal`` gives of an exchange step: the one
    whose cards are the lowest (compared from each give's highest card down), which is its
    lowest cards for a free give and the lowest suits on a tie in rank for a forced one.

    Raises:
        ValueError: ``legal`` holds no give.
    """
    gives = [g for g in legal if isinstance(g, Give)]
    if not gives:
        raise ValueError("no give among the legal actions; call it during an exchange step")
    return min(gives, key=lambda g: sorted((c.index for c in g.cards), reverse=True))
