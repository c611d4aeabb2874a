"""The former home of the play-out policies, kept so that this import path still works.

The policies now live in :mod:`president.search.playout_policies`; the ``intermediate``
player's whole choice, which adds an exact endgame solve to its heuristics, in
:mod:`president.search.endgame` (the solver is above the play-outs). This module gives the
names it always gave, from those two."""

from ..search.endgame import intermediate_choice, intermediate_playout
from ..search.playout_policies import (HIGH_SET, HIGH_SINGLE, MIXED_STYLES, PLAYOUTS,
                                       climbing_playout, greedy_playout, is_high,
                                       mixed_playout, playout, random_playout, simple_code)

__all__ = ["PLAYOUTS", "random_playout", "greedy_playout", "climbing_playout",
           "intermediate_choice", "intermediate_playout", "simple_code", "mixed_playout",
           "MIXED_STYLES", "playout", "HIGH_SINGLE", "HIGH_SET", "is_high"]
