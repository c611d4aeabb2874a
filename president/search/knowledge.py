"""What a seat can work out from its own :class:`~president.observation.Observation`.

Only public information and the seat's own hand and exchanges are used (docs/rules.md,
"Information"): counts per rank of the own hand, the cards seen face up this deal, the cards
still hidden (in some other hand), which plays are sure winners, and a plan of the hand.
Ranks are ints 0 (three) … 12 (two); counts are lists of 13 ints.
"""

from __future__ import annotations

from typing import Hashable, Iterable, TypeVar

from .. import kernel
from ..actions import Give, Pass, Play
from ..cards import Card
from ..kernel import first_rank_to_follow
from ..observation import Observation
from .playout_state import FastDeal

__all__ = ["rank_counts", "seen_counts", "hidden_counts", "pile_same_rank", "beats",
           "can_be_beaten", "plan_size", "choose_give", "one_per_play", "state_of", "play_of"]


def rank_counts(cards: Iterable[Card]) -> list[int]:
    """Cards per rank (13 ints) of ``cards``."""
    out = [0] * 13
    for c in cards:
        out[c.rank] += 1
    return out


def seen_counts(obs: Observation) -> list[int]:
    """Cards per rank played face up this deal (cleared piles and the current pile)."""
    out = rank_counts(obs.cleared)
    for _, play in obs.pile:
        out[play.rank] += play.count
    return out


def hidden_counts(obs: Observation, own: list[int] | None = None) -> list[int]:
    """Cards per rank that are in some other seat's hand: 4 minus own minus seen."""
    own = rank_counts(obs.hand) if own is None else own
    seen = seen_counts(obs)
    return [4 - own[r] - seen[r] for r in range(13)]


def pile_same_rank(obs: Observation) -> int:
    """Cards of the latest play's rank put on the current pile in a row (the kernel's
    ``same``, which :func:`president.kernel.completes_rank` adds to); 0 on an empty pile."""
    if not obs.pile:
        return 0
    top = obs.pile[-1][1].rank
    n = 0
    for _, play in reversed(obs.pile):
        if play.rank != top:
            break
        n += play.count
    return n


beats = kernel.beats  # whether ``rank`` beats ``top``: the kernel's rule, re-exported


def can_be_beaten(obs: Observation, rank: int, count: int, hidden: list[int],
                  completes_rank: bool = False) -> bool:
    """Whether some other seat still holding cards might beat a play of ``count`` cards of
    ``rank`` with cards hidden from this seat (a play that cannot be beaten is a sure
    winner of its pile). ``completes_rank``: the play puts the fourth card of its rank on
    the pile under ``last_of_rank_clears``, which clears the pile at once."""
    if completes_rank:
        return False
    most = max((k for s, k in enumerate(obs.hand_counts) if s != obs.seat), default=0)
    if most < count:
        return False
    start = first_rank_to_follow(rank, kernel.strict_of(obs.rules.beat))
    return any(hidden[r] >= count for r in range(start, 13))


def plan_size(own: list[int], hidden: list[int], strict: bool = True) -> int:
    """Plays this hand still needs that could lose, net of sure winners: the number of
    ranks held (one play per rank is the fewest plays that empty the hand) minus twice the
    sets that no hidden set of the same size can beat (each wins its pile and leads one
    more set for free). Lower is better; it guides exchanges and which cards to keep."""
    plays = 0
    winners = 0
    for r in range(13):
        k = own[r]
        if not k:
            continue
        plays += 1
        start = first_rank_to_follow(r, strict)
        if not any(hidden[q] >= k for q in range(start, 13)):
            winners += 1
    return plays - 2 * winners


_A = TypeVar("_A", bound="Play | Pass | Give")


def one_per_play(legal: Iterable[_A]) -> list[_A]:
    """The legal actions with one play kept per (rank, count): suits never matter in play."""
    seen: set[Hashable] = set()
    out: list[_A] = []
    for a in legal:
        key: Hashable = (a.rank, a.count) if isinstance(a, Play) else a
        if key not in seen:
            seen.add(key)
            out.append(a)
    return out


def choose_give(obs: Observation) -> Give:
    """An exchange choice: a forced give hands over the required highest cards (any suits);
    a free give returns the cards whose loss leaves the best plan (:func:`plan_size`),
    lowest cards first on ties: in practice the lowest cards that are alone in their rank.
    """
    legal = obs.legal_actions
    step = obs.pending_exchange
    gives = [g for g in legal if isinstance(g, Give)]  # all of them, in an exchange
    if step is None or step.forced or len(legal) == 1:
        return gives[0]
    own = rank_counts(obs.hand)
    hidden = hidden_counts(obs, own)
    best: tuple[tuple[int, list[int]], Give] | None = None
    for g in gives:
        left = own[:]
        for c in g.cards:
            left[c.rank] -= 1
        key = (plan_size(left, hidden, kernel.strict_of(obs.rules.beat)),
               sorted((c.index for c in g.cards), reverse=True))
        if best is None or key < best[0]:
            best = (key, g)
    assert best is not None  # more than one give
    return best[1]


def state_of(obs: Observation) -> tuple[FastDeal, list[int]]:
    """The seat's decision in play on counts, as the play-out policies read it
    (:func:`~president.search.playout_policies.heuristic_choice`,
    :func:`~president.search.playout_policies.simple_code`): a
    :class:`~president.search.playout_state.FastDeal` with the seat to act, its own hand (every other hand left at zeros: the choice reads
    only the card counts), the pile's count, rank and run of one rank, the rank order now,
    and the cards per rank not yet seen face up (``tot``: own plus hidden; a full pack is
    assumed, as the card counting does).

    Raises:
        ValueError: the observation is not this seat's turn in play.
    """
    if obs.phase != "play" or obs.to_act != obs.seat:
        raise ValueError(f"seat {obs.seat} is not to act in play (phase {obs.phase!r}, "
                         f"seat to act {obs.to_act}); give an observation of its own turn")
    n = obs.players
    own = rank_counts(obs.hand)
    hands = [[0] * 13 for _ in range(n)]
    hands[obs.seat] = own
    fd = FastDeal(obs.rules, hands, obs.seat)
    fd.ncards = list(obs.hand_counts)
    top = obs.to_beat
    if top is not None:
        fd.need, fd.top, fd.same = top.count, top.rank, pile_same_rank(obs)
    fd.reversed = obs.reversed
    hidden = hidden_counts(obs, own)
    return fd, [own[r] + hidden[r] for r in range(13)]


def play_of(code: int, legal: Iterable[Play | Pass | Give]) -> Play | Pass:
    """The legal action of a play-out action int (``rank * 4 + count - 1``, or ``-1`` for a
    pass): the first legal play of that rank and count (suits never matter in play).

    Raises:
        ValueError: no legal action has that rank and count.
    """
    if code < 0:
        for action in legal:
            if isinstance(action, Pass):
                return action
    else:
        for action in legal:
            if isinstance(action, Play) and action.rank * 4 + action.count - 1 == code:
                return action
    raise ValueError(f"action {code} is not among the legal actions; give one of them")
