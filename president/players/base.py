"""The player interface."""

from __future__ import annotations

from typing import Protocol

from ..actions import Give, Pass, Play
from ..observation import Observation


class Player(Protocol):
    """Anything that chooses an action from its own observation.

    ``act`` is called only when ``observation.to_act == observation.seat`` and must return
    one of ``observation.legal_actions``.
    """

    level: str

    def act(self, observation: Observation) -> Play | Pass | Give:
        """Choose a legal action for the observing seat."""
        ...
