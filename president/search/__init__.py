"""The search engine the computer players think with, below the players themselves.

Layer by layer, each module importing only those above it in this list (and the rules
core: cards, rules, kernel, deal, observation, actions):

- :mod:`~president.search.playout_state`: :class:`FastDeal`, one deal on counts per rank
  (the kernel's play state with the hands), and the action ints;
- :mod:`~president.search.playout_policies`: how the seats choose while a deal is played
  out (random, greedy, climbing, the ``intermediate`` and ``simple`` players' choices on
  counts, a style per seat);
- :mod:`~president.search.knowledge`: what a seat can work out from its own observation,
  and its decision read into a :class:`FastDeal`;
- :mod:`~president.search.compiled`: the same play-outs and the endgame solver's search in C
  (an optional extension), the Python code as the fallback;
- :mod:`~president.search.endgame`: exact solves of two-player endgames, and the
  ``intermediate`` player's whole choice (heuristics, then the solve);
- :mod:`~president.search.fastsim`: the state, the policies and that choice in one
  namespace;
- :mod:`~president.search.worlds` and :mod:`~president.search.world_chain`: deals of the
  cards hidden from a seat (worlds), drawn uniformly or by Markov chains.

The players (:mod:`president.players`) build on these; nothing here imports a player. The
modules were first written under :mod:`president.players` (``president.players.fastsim``
and so on): those import paths still work and give the modules here.
"""
