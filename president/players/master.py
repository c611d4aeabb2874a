"""``master``: the expert's determinized search with many more worlds, on the compiled
play-outs, with exact endgames at its leaves, under a CPU time cap.

``master`` is :class:`~president.players.expert.ExpertPlayer`'s search (read its module
docstring) with a budget set by time rather than by play-outs:

- it samples the same worlds (hands for the other seats consistent with everything its
  seat knows: counts, cards seen, the exchange) and weighs them by the same mixture of
  styles per other seat, learned from how that seat has played this deal, and plays each
  world with each other seat in a style drawn from its own weights;
- it plays every candidate out on the compiled play-outs
  (:mod:`~president.players.compiled`) in as many worlds as fit in its time: about
  ``time_limit`` seconds of this process's CPU per decision (0.85 s, so that a decision
  with its guess, any endgame solve and the last play-out stays within 1 s of CPU), no
  play-out count bounds it by default (the expert stops at 12,000 play-outs);
- *exact endgames at the leaves*: when a play-out ends with this seat among the last two,
  the two-player part of that play-out is solved exactly
  (:func:`~president.players.endgame.solve_wins`, at most ``leaf_limit`` states, 300 by
  default; beyond it the play-out's result stands) and this seat's place is the solved
  one: both seats play that part perfectly, not by the play-out's habits;
- it overrides the ``intermediate`` choice when the paired difference on the same worlds
  beats ``prior`` (0.02) places by ``z`` (1.5) standard errors: with many more worlds the
  errors are smaller, so it overrides more often than the expert;
- a real two-player endgame is solved exactly first (500,000 states, 0.5 s of CPU at most),
  as the expert does.

Every input is the seat's own :class:`~president.observation.Observation`. Same seed, same
choices when the budget is a play-out count (``time_limit=None`` with ``playouts``); under
the time cap the number of worlds depends on the machine's speed and load.

>>> from president import Match, Rules
>>> m = Match(Rules.preset("practice"), seed=4)
>>> bot = MasterPlayer(seed=1, playouts=40, time_limit=None)
>>> bot.act(m.observation(0)) in m.observation(0).legal_actions
True
"""

from __future__ import annotations

from .expert import STYLE_PRIOR, ExpertPlayer

__all__ = ["MasterPlayer"]


class MasterPlayer(ExpertPlayer):
    """The ``master`` level (see the module docstring).

    Args:
        seed: seed of the player's own generator.
        time_limit: CPU seconds of search per decision at most, > 0 (checked after every
            play-out; the decision's guess and endgame solve count against it), or
            ``None`` for no time cap (then ``playouts`` bounds the search and choices do
            not depend on the machine).
        playouts: play-outs per decision at most (default: no practical bound; the time
            cap stops the search).
        leaf_limit: states at most of each exact solve at a play-out's leaf (0: none).
        Other arguments as :class:`~president.players.expert.ExpertPlayer`.

    Raises:
        ValueError: as :class:`~president.players.expert.ExpertPlayer`.
    """

    level = "master"

    def __init__(self, *, seed: int | None = None, playouts: int = 1_000_000,
                 time_limit: float | None = 0.85, prior: float = 0.02, z: float = 1.5,
                 duel: float = 0.3, styles: tuple[float, float, float] | None = STYLE_PRIOR,
                 policy: str = "seats", leaf_limit: int = 300,
                 endgame_limit: int = 500_000, endgame_seconds: float | None = 0.5) -> None:
        super().__init__(seed=seed, playouts=playouts, time_limit=time_limit, prior=prior,
                         z=z, duel=duel, styles=styles, policy=policy,
                         leaf_limit=leaf_limit, endgame_limit=endgame_limit,
                         endgame_seconds=endgame_seconds, clock="cpu")
