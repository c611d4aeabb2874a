"""``master``: the expert's determinized search with many more worlds, on the compiled
play-outs, with a search tree of its own later decisions and exact endgames at its
leaves, under a CPU time cap.

``master`` is :class:`~president.players.expert.ExpertPlayer`'s search (read its module
docstring) with a budget set by time rather than by play-outs:

- its worlds are hands for the other seats consistent with everything its seat knows
  (counts, cards seen, the exchange), as the expert's, but drawn by Markov chains in
  proportion to how well the same mixture of styles per other seat (learned from how
  that seat has played this deal) explains their play (see *worlds drawn by chains*
  below); it plays each world with each other seat in a style drawn from its own
  weights;
- it plays every candidate out on the compiled play-outs
  (:mod:`~president.search.compiled`) in as many worlds as fit in its time: about
  ``time_limit`` seconds of this process's CPU per decision (0.85 s, so that a decision
  with its guess, any endgame solve and the last play-out stays within 1 s of CPU), no
  play-out count bounds it by default (the expert stops at 12,000 play-outs);
- *a tree of its own later decisions* (``expand``, 8 by default; 0 turns it off): in each
  candidate's play-outs the expert plays itself as ``intermediate`` after the candidate;
  ``master`` keeps, per candidate, a tree of its own later turns, each reached by the
  public actions since the candidate (the other seats' actions and its own: the same
  turn in every world where they were taken, an information set of its seat). A turn
  reached more than ``expand`` times chooses among its seat's legal actions there by the
  mean place of the play-outs that took each (tried once each, the play-out's own choice
  first, then lowest mean place less ``explore`` (0.5) times sqrt(ln visits / tries));
  the other seats keep playing their drawn styles, and below the tree the play-out plays
  on as before. So a candidate is judged by how well ``master`` can follow it up, not by
  how ``intermediate`` would (single-observer information-set Monte Carlo tree search
  over its own turns, with the other seats played by their modelled styles). It makes
  about 40% fewer play-outs in the same time, and measured about 0.1 places stronger
  (docs/strength.md, "A tree of master's own turns");
- *exact endgames at the leaves*: when a play-out ends with this seat among the last two,
  the two-player part of that play-out is solved exactly
  (:func:`~president.search.endgame.solve_wins`, at most ``leaf_limit`` states, 300 by
  default; beyond it the play-out's result stands) and this seat's place is the solved
  one: both seats play that part perfectly, not by the play-out's habits;
- *worlds drawn by chains* (``chain_steps``, 3): the expert weighs each independent world
  by how well the modelled styles explain the other seats' play this deal, and that puts
  nearly all the weight on a few worlds (against three experts, half of the searched
  decisions ended with fewer than 5 effective worlds out of thousands), though those few
  are the closest to the real deal. ``master`` learns the style weights from 256
  independent worlds, then draws every world of its search from 16 Markov chains that
  swap hidden cards between the other seats and visit worlds in proportion to the square
  of that weight (:mod:`~president.search.world_chain`): as close to the real deal as
  the best-weighted worlds, and thousands of them, each counted once. The verdict's
  standard error is then at least the spread of the chains' own means. It costs about
  17% of the play-outs and measured about 0.15 places stronger (docs/strength.md, "The
  worlds a verdict rests on");
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

import math
import random

from ..observation import Observation
from ..search import compiled
from .expert import STYLE_PRIOR, ExpertPlayer
from ..search.playout_state import FastDeal

__all__ = ["MasterPlayer"]


class _Turn:
    """A decision of the observing seat in a candidate's continuation tree, reached by the
    public actions since the candidate (the same in every world where they were taken)."""

    __slots__ = ("visits", "edges")

    def __init__(self) -> None:
        self.visits = 0
        # action int -> its edge
        self.edges: dict[int, _Edge] | None = None


class _Edge:
    """One action of a :class:`_Turn`: the play-outs that took it there, the sum of this
    seat's places in them, and the turns that followed it, by the other seats' actions."""

    __slots__ = ("code", "n", "total", "after")

    def __init__(self, code: int) -> None:
        self.code = code
        self.n = 0
        self.total = 0
        self.after: dict[tuple[int, ...], _Turn] = {}


def _tree_step(turn: _Turn, default: int, legal: list[int], explore: float) -> _Edge:
    """The edge of ``turn`` to follow: one never tried (``default``, the play-out's own
    choice, first), else the lowest mean place minus ``explore`` * sqrt(ln N / n)."""
    edges = turn.edges
    if edges is None:
        edges = turn.edges = {}
        for code in [default] + legal:
            if code not in edges:
                edges[code] = _Edge(code)
    best = None
    score = math.inf
    log_n = math.log(turn.visits)
    for e in edges.values():
        n = e.n
        if not n:
            return e
        v = e.total / n - explore * math.sqrt(log_n / n)
        if v < score:
            score = v
            best = e
    assert best is not None
    return best


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
        expand: visits of a turn of its own in a candidate's tree before that turn chooses
            its action by search, >= 0 (0: no tree, every play-out plays this seat as
            ``intermediate`` after the candidate, as the expert does).
        explore: places of the exploration term at a tree's turns, >= 0 (mean place less
            ``explore * sqrt(ln visits / tries)``, the lowest is followed).
        spread: share of the worlds, in [0, 1], that tempered world weights keep as an
            effective number (see :class:`~president.players.expert.ExpertPlayer`; 0, the
            default: untempered. 0.2 measured weaker, docs/strength.md).
        chain_steps: swaps tried per world drawn by the Markov chains, >= 0 (0:
            independent worlds weighed by likelihood, as the expert).
        Other arguments as :class:`~president.players.expert.ExpertPlayer`.

    Raises:
        ValueError: as :class:`~president.players.expert.ExpertPlayer`.
    """

    level = "master"

    def __init__(self, *, seed: int | None = None, playouts: int = 1_000_000,
                 time_limit: float | None = 0.85, prior: float = 0.02, z: float = 1.5,
                 duel: float = 0.3, styles: tuple[float, float, float] | None = STYLE_PRIOR,
                 policy: str = "seats", leaf_limit: int = 300,
                 endgame_limit: int = 500_000, endgame_seconds: float | None = 0.5,
                 expand: int = 8, explore: float = 0.5, spread: float = 0.0,
                 chain_steps: int = 3) -> None:
        super().__init__(seed=seed, playouts=playouts, time_limit=time_limit, prior=prior,
                         z=z, duel=duel, styles=styles, policy=policy,
                         leaf_limit=leaf_limit, endgame_limit=endgame_limit,
                         endgame_seconds=endgame_seconds, clock="cpu", spread=spread,
                         chain_steps=chain_steps)
        if not isinstance(expand, int) or expand < 0:
            raise ValueError(f"expand = {expand!r} must be a whole number of play-outs, 0 "
                             "(no tree) or more")
        if not explore >= 0:
            raise ValueError(f"explore = {explore!r} must be 0 or more places")
        self.expand = expand
        self.explore = explore
        self._trees: dict[int, dict[tuple[int, ...], _Turn]] = {}

    def _search(self, obs: Observation, candidates: list[int], guess: int,
                started: float) -> tuple[int, int]:
        self._trees = {c: {} for c in candidates}
        try:
            return super()._search(obs, candidates, guess, started)
        finally:
            self._trees = {}  # not kept past the decision (about 2 MB at 15,000 play-outs)

    def _candidate_place(self, candidate: int, st: FastDeal, me: int,
                         style: int | list[int], seed: float) -> int:
        if not self.expand or not isinstance(style, list):
            return self._place(st, me, style, seed)
        return self._tree_place(self._trees[candidate], st, me, style, seed)

    def _tree_place(self, after: dict[tuple[int, ...], _Turn], st: FastDeal, me: int,
                    style: list[int], seed: float) -> int:
        """One play-out of ``st`` (a candidate just taken) in which this seat's own later
        decisions are chosen in the candidate's tree (``after``: its turns by the other
        seats' actions since) once a turn has been reached ``expand`` times; below that,
        the play-out's own choices. Returns the place; every edge followed counts it."""
        gen = random.Random(seed)
        path: list[_Edge] = []
        expand = self.expand
        while True:
            base = st.copy()
            finish, actions = compiled.traced_mixed_playout(st, gen, style)
            b = base.copy()
            k = 0
            turn: _Turn | None = None
            while True:
                # the others' actions up to this seat's next turn
                j = k
                while j < len(actions) and b.to_act != me:
                    b.apply(actions[j])
                    j += 1
                if j >= len(actions) or b.to_act != me:
                    turn = None
                    break
                key = tuple(actions[k:j])
                turn = after.get(key)
                if turn is None:
                    turn = after[key] = _Turn()
                turn.visits += 1
                if turn.visits <= expand:
                    turn = None
                    break
                legal = b.legal_actions()
                if len(legal) == 1:
                    turn = None
                    break
                edge = _tree_step(turn, actions[j], legal, self.explore)
                path.append(edge)
                after = edge.after
                if edge.code != actions[j]:
                    break  # a choice the play-out did not make: play out again from there
                b.apply(actions[j])
                k = j + 1
            if turn is None:
                place = (self._leaf(base, finish, actions, me) if self.leaf_limit
                         else finish.index(me) + 1)
                break
            b.apply(edge.code)
            st = b
        for e in path:
            e.n += 1
            e.total += place
        return place
