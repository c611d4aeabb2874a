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
  and the rest of the deal is solved (:mod:`~president.players.endgame`); the heuristic
  choice is kept when it wins, else a winning action is played when one exists.

Exchange: a forced give hands over the required highest cards; a free give returns the
cards whose loss leaves the best plan (:func:`~president.players.knowledge.choose_give`).
Deterministic: it uses no randomness (``seed`` is accepted for a uniform API).
"""

from __future__ import annotations

from typing import Sequence

from ..actions import PASS, Give, Pass, Play
from ..kernel import completes_rank
from ..observation import Observation
from .endgame import DEFAULT_LIMIT, endgame_choice
from .knowledge import can_be_beaten, choose_give, hidden_counts, pile_same_rank, rank_counts

TWO = 12
#: lowest rank of a single (king) and of a pair or larger set (jack) kept as a control
HIGH_SINGLE = 10
HIGH_SET = 8


def is_high(rank: int, count: int) -> bool:
    """Whether a set of ``count`` cards of ``rank`` (0 = three … 12 = two) is high enough
    to keep as a control: a single king or higher, a pair (or more) of jacks or higher."""
    return rank >= (HIGH_SINGLE if count == 1 else HIGH_SET)


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

    The expert's play-outs copy the default behaviour
    (:func:`~president.players.fastsim.intermediate_choice`).
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
        """Choose a legal action for the observing seat (see the module docstring)."""
        obs = observation
        legal = obs.legal_actions
        if len(legal) == 1:
            return legal[0]
        if isinstance(legal[0], Give):
            return choose_give(obs)
        own = rank_counts(obs.hand)
        hidden = hidden_counts(obs, own)
        plays = [a for a in legal if isinstance(a, Play)]  # all but PASS, outside an exchange
        choice: Play | Pass
        if PASS not in legal:
            choice = self._lead(obs, plays, own, hidden)
        else:
            choice = self._follow(obs, plays, own, hidden)
        if self.endgames:
            solved = endgame_choice(obs, choice, limit=self.endgame_limit)
            if solved is not None:
                return solved
        return choice

    # ----- leading --------------------------------------------------------------------

    def _lead(self, obs: Observation, legal: Sequence[Play], own: list[int],
              hidden: list[int]) -> Play:
        held = [r for r in range(13) if own[r]]

        def whole(r: int) -> Play:
            return next(p for p in legal if p.rank == r and p.count == own[r])

        if len(held) == 1:
            return whole(held[0])
        # four of a kind is a winner here: only a higher four of a kind can beat it
        winners = [r for r in held if not can_be_beaten(obs, r, own[r], hidden, own[r] == 4)]
        losers = [r for r in held if r not in winners]
        if len(losers) <= 1 and winners:
            return whole(winners[0])
        others = [k for s, k in enumerate(obs.hand_counts) if s != obs.seat and k]
        if others and min(others) == 1:
            sets = [r for r in losers if own[r] >= 2]
            if sets:
                return whole(sets[0])
            return whole(losers[-1])
        return whole(losers[0])

    # ----- following ------------------------------------------------------------------

    def _follow(self, obs: Observation, legal: Sequence[Play], own: list[int],
                hidden: list[int]) -> Play | Pass:
        top_play = obs.to_beat
        assert top_play is not None  # following: there is a play to beat
        need = top_play.count
        top = top_play.rank
        lor = obs.rules.last_of_rank_clears
        same = pile_same_rank(obs)
        total = sum(own)
        fits = [p for p in legal if own[p.rank] == need]
        if not fits and self.break_sets:  # break the lowest larger set, never a four
            fits = [p for p in legal if own[p.rank] < 4][:1]
        if total == need and fits:
            return fits[0]  # goes out
        others = [k for s, k in enumerate(obs.hand_counts) if s != obs.seat and k]
        danger = bool(others) and min(others) <= 2
        for p in fits:
            r = p.rank
            completes = lor and completes_rank(r, need, top, same)
            sure = completes or not can_be_beaten(obs, r, need, hidden)
            if (r != TWO and not sure and not is_high(r, need)) or not self.keep_controls:
                return p
            # a control: spend it only when winning the pile now helps
            left = own[:]
            left[r] -= need
            losers = 0
            controls = 0
            for q in range(13):
                k = left[q]
                if not k:
                    continue
                if q == TWO or is_high(q, k) or \
                        not can_be_beaten(obs, q, k, hidden, lor and k == 4):
                    controls += 1
                else:
                    losers += 1
            if losers <= controls + 1 or danger:
                return p
            return PASS
        return PASS
