"""Fast play-outs of one deal, on counts per rank instead of cards: the state and the policies
in one namespace.

- :mod:`president.search.playout_state`: :class:`FastDeal` (the kernel's
  :class:`~president.kernel.PlayState` with 13 counts per seat; what may be played and what a
  play or a pass does are the kernel's), dealing into counts, :func:`counts_of_mask`, and the
  action ints (:data:`PASS` ``-1``, :func:`encode` ``rank * 4 + count - 1``, :func:`decode`);
- :mod:`president.search.playout_policies`: how the seats choose while a deal is played to
  its end: :func:`random_playout`, :func:`greedy_playout`, :func:`climbing_playout`,
  :func:`simple_code`, :func:`mixed_playout` (a style per seat), and :func:`playout` with a
  policy named in :data:`PLAYOUTS`;
- :mod:`president.search.endgame`: :func:`intermediate_choice` /
  :func:`intermediate_playout`, the ``intermediate`` player's whole choice (its heuristics
  and its exact endgame solve).

This module only re-exports them (every name importable from here before the split still
is); nothing in the search engine imports it, so it may gather from every layer. They exist for the expert player's search and for research loops that need many deals
per second; ``tests/test_fastsim.py`` checks them against the engine action by action
(``tests/test_reversal.py`` under ``reversal``), :mod:`president.search.compiled` has the
same play-outs in C.

>>> import random
>>> from president import Rules
>>> fd = FastDeal.shuffled(Rules.preset("practice"), seed=3)
>>> order = random_playout(fd, random.Random(1))
>>> sorted(order)
[0, 1, 2, 3]
"""

from __future__ import annotations

from .endgame import intermediate_choice, intermediate_playout
from .playout_policies import (MIXED_STYLES, PLAYOUTS, climbing_playout, greedy_playout,
                               mixed_playout, playout, random_playout, simple_code)
from .playout_state import _MODES as _MODES  # this module's name for it before the split
from .playout_state import PASS, FastDeal, counts_of_mask, decode, encode

__all__ = ["PASS", "FastDeal", "encode", "decode", "counts_of_mask", "random_playout",
           "greedy_playout", "climbing_playout", "intermediate_choice", "intermediate_playout",
           "simple_code", "mixed_playout", "MIXED_STYLES", "playout", "PLAYOUTS"]
