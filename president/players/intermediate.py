"""``intermediate``: hand planning, card counting and the table tips of the seeds.

Heuristics, from the family guide (``001_6a3b64d15368b01c.txt``, "Tips") and the first-night guide
(``004_7dd5a514fa081721.txt``, "Night-one habits"):

- keep *controls* to win a pile and lead the next one: twos, any other sure winner, and
  high sets (a single king, ace or two; a pair or larger set of jacks or higher); spend one
  only when winning the pile now helps: when the sets left that could lose are at most one
  more than the controls left to win piles for them, when it goes out, or when an opponent
  is close to going out (two cards or fewer). Keeping high pairs rather than burning them
  on low pairs is what puts this player ahead of ``simple`` by more than 0.2 places (see
  docs/strength.md);
- shed low singles early: on a lead, play the lowest set that could lose; when following,
  beat with the lowest rank that fits;
- do not break a pair (or a larger set) to beat a smaller play when a set of exactly the
  pile's size fits; only when none fits, break the lowest larger set rather than pass;
  never break four of a kind (it leads as a near-sure winner instead)
  (measured at ``house``, 300 boards, one seat against three ``beginner`` players: passing
  instead, the seed tip taken literally, is 0.08 ± 0.09 places *behind* them, breaking is
  0.99 ± 0.06 places ahead; see docs/strength.md);
- a plan of the hand: one play per rank held is the fewest plays that empty it; when all
  but one of those plays are sure winners, lead the winners first and the last set after;
- counting the cards seen: a play is a sure winner when no other seat can still hold a set
  of that size that beats it (cards seen face up and the seat's own hand are excluded,
  table sizes respected), or when it puts the fourth card of its rank on the pile under
  ``last_of_rank_clears``;
- four of a kind counts as a winner when planning a lead (only a higher four of a kind
  beats it), so it is kept for the end of the plan rather than led as a low set;
- when an opponent holds one card, lead a pair or more if possible rather than a single;
- exact endgames: once only one other seat holds cards, every hidden card is in its hand
  and the rest of the deal is solved (:mod:`~president.search.endgame`); the heuristic
  choice is kept when it wins, else a winning action is played when one exists.

Exchange: a forced give hands over the required highest cards; a free give returns the
cards whose loss leaves the best plan (:func:`~president.search.knowledge.choose_give`).
Deterministic: it uses no randomness (``seed`` is accepted for a uniform API).
"""

from __future__ import annotations

from ..actions import Give, Pass, Play
from ..observation import Observation
from ..search.endgame import DEFAULT_LIMIT, endgame_choice
from ..search.knowledge import choose_give, play_of, state_of
from ..search.playout_policies import HIGH_SET, HIGH_SINGLE, heuristic_choice, is_high

__all__ = ["IntermediatePlayer", "TWO", "HIGH_SINGLE", "HIGH_SET", "is_high", "state_of"]

TWO = 12
"""The rank of a two (0 = three), always kept as a control."""


class IntermediatePlayer:
    """The heuristic player described in the module docstring.

    Args:
        seed: accepted for a uniform API; the choices do not depend on it.
        break_sets: when no set of exactly the pile's size beats it, break the lowest
            larger set (default) instead of passing.
        keep_controls: keep twos, other sure winners and high sets for when winning the
            pile helps (default); if false, spend them like any other card.
        endgames: play a winning action of a solved endgame when one exists (default).
        endgame_limit: states searched per endgame solve at most (beyond it the
            heuristics choose).

    The heuristics are stated once, on counts, in
    :func:`~president.search.playout_policies.heuristic_choice` (which the expert's
    play-outs call too); this player reads its observation into that form
    (:func:`state_of`).
    """

    level = "intermediate"

    def __init__(self, *, seed: int | None = None, break_sets: bool = True,
                 keep_controls: bool = True, endgames: bool = True,
                 endgame_limit: int = DEFAULT_LIMIT) -> None:
        self.seed = seed
        self.break_sets = break_sets
        self.keep_controls = keep_controls
        self.endgames = endgames
        self.endgame_limit = endgame_limit

    def act(self, observation: Observation) -> Play | Pass | Give:
        """Choose a legal action for the observing seat (see the module docstring): the
        heuristics are those of :func:`~president.search.playout_policies.
        heuristic_choice`, read from this seat's observation."""
        obs = observation
        legal = obs.legal_actions
        if len(legal) == 1:
            return legal[0]
        if isinstance(legal[0], Give):
            return choose_give(obs)
        fd, tot = state_of(obs)
        code = heuristic_choice(fd, tot, self.break_sets, self.keep_controls)
        choice = play_of(code, legal)
        if self.endgames:
            solved = endgame_choice(obs, choice, limit=self.endgame_limit)
            if solved is not None:
                return solved
        return choice
