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

from typing import Iterable, Sequence

from ..actions import PASS, Give, Pass, Play
from ..cards import Card
from ..observation import Observation


class SimplePlayer:
    """The seed-003 practice player. Deterministic; ``seed`` is accepted for a uniform API."""

    level = "simple"

    def __init__(self, *, seed: int | None = None) -> None:
        self.seed = seed

    def act(self, observation: Observation) -> Play | Pass | Give:
        """The practice player's choice (see the module docstring)."""
        return simple_choice(observation.legal_actions, observation.hand)


def simple_choice(legal: Sequence[Play | Pass | Give], hand: Iterable[Card]) -> Play | Pass | Give:
    """The practice player's choice among ``legal`` actions given its ``hand`` (cards)."""
    if legal and isinstance(legal[0], Give):
        # Gives are listed lowest cards first for free choices; forced gives have one rank order.
        gives = [g for g in legal if isinstance(g, Give)]  # all of them, in an exchange
        return min(gives, key=lambda g: sorted((c.index for c in g.cards), reverse=True))
    held = [0] * 13
    for card in hand:
        held[card.rank] += 1
    plays = [p for p in legal if isinstance(p, Play)]  # all but PASS, outside an exchange
    if PASS not in legal:  # leading: lowest rank, all of it
        lowest = min(p.rank for p in plays)
        return next(p for p in plays if p.rank == lowest and p.count == held[lowest])
    best: Play | None = None
    for p in plays:
        if held[p.rank] == p.count and (best is None or p.rank < best.rank):
            best = p
    if best is not None:
        return best
    return min(plays, key=lambda p: p.rank) if plays else PASS
