"""``beginner``: the lowest legal play, and now and then a random legal action.

A new player's habit: put down the lowest thing that is allowed. On a lead that is a single
of the lowest rank held (breaking a pair if it comes to that); when following, the lowest
rank that beats the pile in the pile's count; it passes only when it cannot play. With
chance ``mistakes`` (default 0.2) it takes a uniformly random legal action instead.
Exchange: a forced give hands over the required highest cards; a free give returns the
lowest card(s). Works under every preset and twist: it only ever picks from
``observation.legal_actions``.
"""

from __future__ import annotations

import random

from ..actions import PASS, Give, Pass, Play
from ..observation import Observation


class BeginnerPlayer:
    """The lowest legal play, with random slips.

    Args:
        seed: seed of the player's own :class:`random.Random` (same seed, same choices).
        mistakes: chance, 0 to 1, of a uniformly random legal action instead.

    Raises:
        ValueError: if ``mistakes`` is not between 0 and 1.
    """

    level = "beginner"

    def __init__(self, *, seed: int | None = None, mistakes: float = 0.2) -> None:
        if not 0.0 <= mistakes <= 1.0:
            raise ValueError(f"mistakes = {mistakes!r} must be a chance between 0 and 1")
        self.rng = random.Random(seed)
        self.mistakes = mistakes

    def act(self, observation: Observation) -> Play | Pass | Give:
        """The lowest legal play (lowest rank, fewest cards), or a random slip."""
        legal = observation.legal_actions
        if len(legal) == 1:
            return legal[0]
        if self.rng.random() < self.mistakes:
            return self.rng.choice(legal)
        if isinstance(legal[0], Give):
            if observation.pending_exchange is not None and observation.pending_exchange.forced:
                return legal[0]
            gives = [g for g in legal if isinstance(g, Give)]  # all of them, in an exchange
            return min(gives, key=lambda g: sorted((c.index for c in g.cards), reverse=True))
        plays = [a for a in legal if isinstance(a, Play)]  # all but PASS, outside an exchange
        return min(plays, key=lambda p: (p.rank, p.count)) if plays else PASS
