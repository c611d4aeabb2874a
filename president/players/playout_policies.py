"""The former home of the play-out policies, kept so that this import path still works.

The policies now live in :mod:`president.search.playout_policies`; the ``intermediate``
player's whole choice, which adds an exact endgame solve to its heuristics, in
:mod:`president.search.endgame` (the solver is above the play-outs). This module gives the
names it always gave, from those two (``__all__`` as it always was)."""

from ..search.endgame import intermediate_choice, intermediate_playout
from ..search.playout_policies import HIGH_SET as HIGH_SET  # names it gave beyond __all__
from ..search.playout_policies import HIGH_SINGLE as HIGH_SINGLE
from ..search.playout_policies import (MIXED_STYLES, PLAYOUTS, climbing_playout, greedy_playout,
                                       mixed_playout, playout, random_playout, simple_code)
from ..search.playout_policies import is_high as is_high

__all__ = ["PLAYOUTS", "random_playout", "greedy_playout", "climbing_playout",
           "intermediate_choice", "intermediate_playout", "simple_code", "mixed_playout",
           "MIXED_STYLES", "playout"]
