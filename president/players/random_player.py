"""``random``: uniform over the legal actions (for tests and as the weakest baseline)."""

from __future__ import annotations

import random

from ..actions import Give, Pass, Play
from ..observation import Observation


class RandomPlayer:
    """Chooses uniformly among ``observation.legal_actions`` with its own generator.

    Args:
        seed: seed of the player's own :class:`random.Random` (deterministic per seed).
    """

    level = "random"

    def __init__(self, *, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, observation: Observation) -> Play | Pass | Give:
        """A uniformly random legal action."""
        return self.rng.choice(observation.legal_actions)
