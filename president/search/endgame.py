"""Exact endgames: the rest of a deal solved when every hidden card is known.

When only two seats still hold cards, every card a seat cannot see is in the other seat's
hand (all the rest were played face up or are its own), so the rest of the deal is a game
of perfect information between two players with one stake: the seat that goes out first
takes the better of the two places left (docs/rules.md, "End of the deal"). This module solves
that game exactly by depth-first search over the fast engine's states
(:class:`~president.search.playout_state.FastDeal`: the same rules as
:class:`president.deal.Deal`, for every ``beat``, ``passing`` and ``last_of_rank_clears``
option, tested action by action against the engine in ``tests/test_fastsim.py``), with a
memo of the states already solved and a cut as soon as one answer settles a state. Three
things keep the search small (measured on the two-player endgames of 100 deals at each of
``house`` 4 players, ``first-night`` 3 and 5 players; docs/strength.md):

- *transposition by rank pattern*: the memo key keeps only the ranks either seat still
  holds, in order, as (cards of one seat, cards of the other) pairs, with the rank on top of
  the pile given by its place among them. Only the order of ranks matters in play, so a
  3 and a 7 against a 9 is the same state as a 5 and a 7 against a 9 (about a third as
  many states as keying by the ranks themselves in a full solve);
- *move ordering*: a play that empties the hand first, then whole sets from the lowest,
  then broken sets from the lowest, then a pass. Shedding low sets first finds a winning
  line soonest: choosing a move in those endgames searched 18,000 states at most, against
  113,000 with the highest sets first and 508,000 before any of these three;
- *a sure win*: a seat leading with at most one set that the other seat could beat (whole
  sets; four of a kind under ``last_of_rank_clears`` clears the pile) wins by leading the
  unbeatable sets first, so the search stops there.

Nothing here restates what beats what: the legal actions and their effects are
:meth:`FastDeal.legal_actions` and :meth:`FastDeal.apply`.

The same search is compiled (``president/native/_endgame.h``, on the C fast engine of the compiled
play-outs, :func:`president.search.compiled.endgame_search`): the same order of moves, the
same cut, the same memo keys and the same count of states, so it gives the same answers and
stops at the same positions, much faster (docs/strength.md). :func:`solve_wins`,
:func:`winning_codes` and :func:`choose_code` use it when the extension is available
(:data:`president.search.compiled.AVAILABLE`), the rules have no ``reversal`` twist (the C
state has no reversed order), no ``memo`` is passed and ``pure`` is false; the Python code
here stays the statement and the fallback. ``tests/test_endgame_compiled.py`` checks the two
agree on endgames of every preset and twist.

A solve is bounded by ``limit`` states searched; a position too big for it is left to the
caller's heuristics (``None``). The bound is a count, not a time, so the same position
always gets the same answer (the fast copy of the ``intermediate`` player,
:func:`intermediate_choice` below, relies on that to choose exactly as the player does).
``seconds`` adds a bound in CPU seconds (checked every 256 states; ``None``, the default:
none), for a caller with a time budget (the expert); with it the answer for a position
near the bound can depend on the machine's load.

The ``intermediate`` player's whole choice on counts is here too (:func:`intermediate_choice`,
:func:`intermediate_playout`): its heuristics, from the play-out policies below, then this
solve. The policies never call the solver, so the solver can use the compiled play-outs'
module without an import circle.

>>> from president import Rules
>>> from president.search.playout_state import decode
>>> hands = [[1] + [0] * 12,                      # seat 0: a 3, goes out at once
...          [0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 2, 0, 0],  # seat 1: a 7 and two kings
...          [0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0]]  # seat 2: a 6, a 9 and an ace
>>> state = FastDeal(Rules.preset("first-night", players=3), hands, 0)
>>> state.apply(encode(0, 1))  # the 3 stays on the pile; seat 1 is to act
>>> [decode(a) for a in state.legal_actions()]  # (rank, count); -1 is a pass
[(4, 1), (10, 1), (-1, 4)]
>>> [decode(a) for a in winning_codes(state)]  # only a king (breaking the pair) wins
[(10, 1)]
"""

from __future__ import annotations

import random
import time

from ..actions import Give, Pass, Play
from ..kernel import CLEAR_TWOS, beats
from ..observation import Observation
from . import compiled
from .knowledge import rank_counts
from .playout_policies import choice_playout, heuristic_choice
from .playout_state import PASS, FastDeal, encode

__all__ = ["DEFAULT_LIMIT", "TooBig", "root_state", "endgame_state", "solve_wins",
           "winning_codes", "winning_moves", "endgame_choice", "choose_code",
           "intermediate_choice", "intermediate_playout"]

#: States searched per solve at most, by default (a few milliseconds of CPU at most).
DEFAULT_LIMIT = 4000


class TooBig(Exception):
    """Raised inside a solve when it would search more than its ``limit`` of states."""


def root_state(obs: Observation) -> FastDeal:
    """The current state of the deal on the fast engine, rebuilt from the public history
    (the pile, passes, who went out, whose turn). Hands of the other seats are left as
    zeros (fill them from a sampled world, or :func:`endgame_state` when they are known);
    the observing seat's hand is its own.

    Raises:
        ValueError: if the history does not lead to the observing seat's turn (the
            observation is not a decision of this seat in play).
    """
    n = obs.players
    played = [[0] * 13 for _ in range(n)]
    for seat, action in obs.history:
        if isinstance(action, Play):
            played[seat][action.rank] += action.count
    fd = FastDeal(obs.rules, played, obs.leader)
    fd.ncards = [sum(played[s]) + obs.hand_counts[s] for s in range(n)]
    for _seat, action in obs.history:
        fd.apply(_code(action))
    if fd.to_act != obs.seat or fd.ncards != list(obs.hand_counts):
        raise ValueError(f"the history does not lead to seat {obs.seat}'s turn; the expert "
                         "searches only its own decisions in play")
    fd.hands = [[0] * 13 for _ in range(n)]
    fd.hands[obs.seat] = rank_counts(obs.hand)
    return fd


def endgame_state(obs: Observation) -> FastDeal | None:
    """The whole state of the deal, both hands included, when the observing seat can know
    it: it is to act in play and exactly one other seat still holds cards, which then holds
    every card not seen face up and not in the observing hand. ``None`` otherwise (or when
    the history cannot be rebuilt)."""
    if obs.phase != "play" or obs.to_act != obs.seat or not obs.hand:
        return None
    others = [s for s, k in enumerate(obs.hand_counts) if s != obs.seat and k]
    if len(others) != 1:
        return None
    try:
        fd = root_state(obs)
    except ValueError:
        return None
    own = fd.hands[obs.seat]
    seen = [0] * 13
    for c in obs.cleared:
        seen[c.rank] += 1
    for _, play in obs.pile:
        seen[play.rank] += play.count
    other = [4 - own[r] - seen[r] for r in range(13)]
    if sum(other) != obs.hand_counts[others[0]] or min(other) < 0:
        return None  # a teaching position not dealt from a full pack: not knowable
    fd.hands[others[0]] = other
    return fd


def _code(action: Play | Pass) -> int:
    """The fast engine's action int of a play or PASS."""
    return encode(action.rank, action.count) if isinstance(action, Play) else PASS


#: A memo key of :func:`_key`.
_Key = tuple[tuple[int, ...], int, int, int, int, int, int, int, tuple[int, ...], bool]


class _Budget:
    """What a solve may still spend, for :func:`_wins`: states left, CPU deadline or
    ``None``."""

    __slots__ = ("left", "deadline")

    def __init__(self, left: int, deadline: float | None) -> None:
        self.left = left
        self.deadline = deadline


def _key(d: FastDeal) -> _Key:
    """The memo key of a state of a two-player endgame: the ranks either live seat holds,
    in order, as ``5 * (cards of the lower seat) + (cards of the higher seat)``; the pile's
    top as ``2 * (held ranks below it) + (1 if a live seat holds its rank)``; and the rest
    of the pile's state. Ranks no live seat holds can never be played again and only
    their order against the held ones matters (what beats what is a comparison of ranks),
    so states that differ only in such ranks are the same game."""
    hands = d.hands
    ncards = d.ncards
    a = b = None
    for s in range(d.players):
        if ncards[s]:
            if a is None:
                a = hands[s]
            else:
                b = hands[s]
                break
    assert a is not None and b is not None  # two seats hold cards (see _check)
    top = d.top
    pat = []
    at = 0
    for r in range(13):
        x = a[r]
        y = b[r]
        if x or y:
            pat.append(5 * x + y)
            if r < top:
                at += 2
            elif r == top:
                at += 1
    # under twos_clear the twos are the one rank whose place is not just its order
    twos = bool(d.clears & CLEAR_TWOS and (a[12] or b[12]))
    return (tuple(pat), at, d.to_act, d.need, d.same if d.lor else 0, d.last, d.passes,
            d.passed, tuple(d.round_left), twos)


def _sure(d: FastDeal) -> bool:
    """Whether the seat to act, on an empty pile, wins for sure: at most one of its whole
    sets can be beaten by the other live seat (a set of as many cards or more of a higher
    rank, or of the same rank under ``beat = equal-or-higher``; four of a kind clears the
    pile under ``last_of_rank_clears``). It leads the unbeatable sets one by one (each
    forces a pass, and the pile clears back to it), then the last set, and is out."""
    seat = d.to_act
    ncards = d.ncards
    opp = None
    for s in range(d.players):
        if s != seat and ncards[s]:
            opp = d.hands[s]
            break
    assert opp is not None  # another seat holds cards (see _check)
    # best[k]: the highest rank of which the other seat holds k cards or more
    best = [-1, -1, -1, -1, -1]
    for r in range(13):
        for k in range(1, opp[r] + 1):
            best[k] = r
    strict = d.strict
    four_clears = d.lor
    mine = d.hands[seat]
    loose = 0
    for r in range(13):
        k = mine[r]
        if not k or (k == 4 and four_clears):
            continue
        b = best[k]
        if beats(b, r, strict):
            loose += 1
            if loose > 1:
                return False
    return True


def _budget(limit: int | None, seconds: float | None) -> _Budget:
    """States left and CPU deadline (or None) for :func:`_wins`."""
    return _Budget((1 << 62) if limit is None else limit,
                   None if seconds is None else time.process_time() + seconds)


def solve_wins(state: FastDeal, me: int, *, limit: int | None = DEFAULT_LIMIT,
               memo: dict[_Key, bool] | None = None, seconds: float | None = None,
               pure: bool = False) -> bool:
    """Whether seat ``me`` goes out before the other seat still holding cards, with best
    play by both, from ``state`` (two seats holding cards, one of them ``me``; the state is
    not changed).

    Args:
        state: a fast-engine state with the true hands of both seats.
        me: the seat whose result is asked.
        limit: states searched at most (``None``: no bound).
        memo: solved states to reuse and extend (keyed by :func:`_key`, which assumes the
            same two seats and rules; pass the same dict to several solves of one
            position).
        seconds: CPU seconds at most (``None``: no bound).
        pure: search in Python even when the compiled solver is available (it is not used
            either when ``memo`` is given).

    Raises:
        TooBig: when the search would pass ``limit`` states or ``seconds``.
        ValueError: if ``state`` is over, or more or fewer than two seats hold cards, or
            ``me`` holds none.
    """
    _check(state, me)
    if memo is None and not pure:
        got = compiled.endgame_search(state, "wins", me=me, limit=limit, seconds=seconds)
        if got is not None:
            if got[2]:
                raise TooBig
            return bool(got[0])
    memo = {} if memo is None else memo
    return _wins(state, me, memo, _budget(limit, seconds))


def _check(state: FastDeal, me: int) -> None:
    live = [s for s in range(state.players) if state.ncards[s]]
    if state.over or len(live) != 2 or me not in live:
        raise ValueError("an endgame solve needs a deal in play with exactly two seats "
                         f"holding cards, one of them seat {me}; seats holding cards: {live}")


def _wins_after(state: FastDeal, action: int, me: int, memo: dict[_Key, bool],
                budget: _Budget) -> bool:
    """Whether ``me`` still wins after ``action`` from ``state`` (a copy is changed, never
    ``state``): at once if the deal ends with the other seat last, else by :func:`_wins`."""
    c = state.copy()
    c.apply(action)
    if c.to_act < 0:
        return c.finish[-1] != me
    return _wins(c, me, memo, budget)


def _wins(d: FastDeal, me: int, memo: dict[_Key, bool], budget: _Budget) -> bool:
    key = _key(d)
    got = memo.get(key)
    if got is not None:
        return got
    left = budget.left - 1
    budget.left = left
    if left < 0:
        raise TooBig
    if not left & 255 and budget.deadline is not None and time.process_time() > budget.deadline:
        raise TooBig
    mine = d.to_act == me
    if not d.need and _sure(d):
        memo[key] = mine
        return mine
    result = not mine
    for a in _ordered(d):
        c = d.copy()
        c.apply(a)
        if c.to_act < 0:
            win = c.finish[-1] != me
        else:
            win = _wins(c, me, memo, budget)
        if win == mine:
            result = mine
            break
    memo[key] = result
    return result


def _ordered(d: FastDeal) -> list[int]:
    """Legal action ints, the likeliest to settle the state first: a play that empties the
    hand, then plays of whole sets from the lowest, then broken sets from the lowest, then
    a pass."""
    acts = d.legal_actions()
    hand = d.hands[d.to_act]
    left = d.ncards[d.to_act]

    def order(a: int) -> tuple[int, int]:
        if a < 0:
            return (3, 0)
        r, k = a >> 2, (a & 3) + 1
        if k == left:
            return (0, 0)
        return (1 if k == hand[r] else 2, r)
    return sorted(acts, key=order)


def winning_codes(state: FastDeal, *, limit: int | None = DEFAULT_LIMIT,
                  seconds: float | None = None, pure: bool = False) -> list[int]:
    """Every legal action int (the play-outs' encoding) of the seat to act that wins the endgame
    for it (it goes out before the other seat whatever that seat does), in the order of
    :meth:`FastDeal.legal_actions`; empty when every action loses. Compiled unless
    ``pure`` (as :func:`solve_wins`).

    Raises:
        TooBig: when the solve would pass ``limit`` states (all candidates together) or
            ``seconds`` of CPU.
        ValueError: as :func:`solve_wins`.
    """
    me = state.to_act
    _check(state, me)
    if not pure:
        got = compiled.endgame_search(state, "codes", limit=limit, seconds=seconds)
        if got is not None:
            if got[2]:
                raise TooBig
            return list(got[0])
    memo: dict[_Key, bool] = {}
    budget = _budget(limit, seconds)
    out: list[int] = []
    for a in state.legal_actions():
        if _wins_after(state, a, me, memo, budget):
            out.append(a)
    return out


def winning_moves(obs: Observation, *, limit: int | None = DEFAULT_LIMIT,
                  seconds: float | None = None) -> list[Play | Pass]:
    """The observing seat's legal actions that win the endgame (one per rank and count:
    suits never matter in play), when :func:`endgame_state` knows the whole state; empty if
    it does not, if the solve passes ``limit`` states, or if every action loses."""
    state = endgame_state(obs)
    if state is None:
        return []
    try:
        codes = set(winning_codes(state, limit=limit, seconds=seconds))
    except TooBig:
        return []
    out: list[Play | Pass] = []
    for a in obs.legal_actions:
        if isinstance(a, Give):
            continue  # none in play
        code = _code(a)
        if code in codes:
            codes.discard(code)
            out.append(a)
    return out


def endgame_choice(obs: Observation, prefer: Play | Pass | None = None, *,
                   limit: int | None = DEFAULT_LIMIT,
                   seconds: float | None = None) -> Play | Pass | None:
    """A winning action for the observing seat in a solved endgame, or ``None`` when the
    position is not a known endgame, is too big to solve within ``limit`` states (or
    ``seconds`` of CPU), or every action loses (then the caller's heuristics choose).

    ``prefer`` (the caller's own choice) is kept when it wins; otherwise the first winning
    action in the fast engine's order of legal actions (lowest rank, then fewest cards,
    then a pass) is played.
    """
    state = endgame_state(obs)
    if state is None:
        return None
    code = choose_code(state, None if prefer is None else _code(prefer),
                       limit=limit, seconds=seconds)
    if code is None:
        return None
    if prefer is not None and code == _code(prefer):
        return prefer
    for a in obs.legal_actions:
        if not isinstance(a, Give) and _code(a) == code:  # no gives in play
            return a
    return None


def choose_code(state: FastDeal, prefer: int | None = None, *,
                limit: int | None = DEFAULT_LIMIT, seconds: float | None = None,
                pure: bool = False) -> int | None:
    """The action int that :func:`endgame_choice` plays for the seat to act in ``state``
    (both hands true, two seats holding cards): ``prefer`` when it wins, else the first
    winning action of :meth:`FastDeal.legal_actions`; ``None`` when every action loses or
    the solve passes ``limit`` states (or ``seconds`` of CPU). The fast copy of the
    ``intermediate`` player calls this on its play-out states, so its choices equal the
    player's. Compiled unless ``pure`` (as :func:`solve_wins`)."""
    me = state.to_act
    _check(state, me)
    if not pure:
        got = compiled.endgame_search(state, "choose", prefer=prefer, limit=limit,
                                      seconds=seconds)
        if got is not None:
            return None if got[0] is None else int(got[0])
    memo: dict[_Key, bool] = {}
    budget = _budget(limit, seconds)
    acts = state.legal_actions()
    if prefer is not None and prefer in acts:
        acts.remove(prefer)
        acts.insert(0, prefer)
    try:
        for a in acts:
            if _wins_after(state, a, me, memo, budget):
                return a
    except TooBig:
        return None
    return None


def intermediate_choice(deal: FastDeal, tot: list[int], endgame_limit: int | None = None, *,
                        break_sets: bool = True, keep_controls: bool = True) -> int:
    """The ``intermediate`` player's whole choice (:mod:`president.players.intermediate`)
    for the seat to act, on counts: its heuristics
    (:func:`~president.search.playout_policies.heuristic_choice`, with ``tot`` the cards per
    rank still in all hands together and ``break_sets`` / ``keep_controls`` the player's
    options), then, once only two seats hold cards (the other seat's hand is then
    ``tot - hand``), a winning action of the solved endgame when one exists
    (:func:`choose_code`, the heuristics' action preferred), searching at most
    ``endgame_limit`` states (``None``: :data:`DEFAULT_LIMIT`, as the player; ``0``: no
    solve, the heuristics alone). ``tests/test_fastsim.py`` checks it chooses as the player.

    The solve does not model the ``reversal`` twist; the play-outs use ``endgame_limit = 0``.

    Returns:
        The action int (``rank * 4 + count - 1``, or ``PASS``) for ``deal.to_act``.
    """
    code = heuristic_choice(deal, tot, break_sets, keep_controls)
    if deal.players - len(deal.finish) == 2 and endgame_limit != 0:
        solved = choose_code(deal, code,
                             limit=DEFAULT_LIMIT if endgame_limit is None else endgame_limit)
        if solved is not None:
            return solved
    return code


def intermediate_playout(deal: FastDeal, rng: random.Random | None = None,
                         endgame_limit: int | None = 0) -> list[int]:
    """Play ``deal`` (in place) to its end with every seat playing as the ``intermediate``
    player would (:func:`intermediate_choice`); deterministic, ``rng`` is unused. Returns
    the finishing order (seats).

    By default (``endgame_limit = 0``) the seats play the last two-player endgame by the
    heuristics alone, without the player's exact solve
    (:func:`~president.search.playout_policies.choice_playout` with
    :func:`~president.search.playout_policies.heuristic_choice`): solving at every decision
    of every play-out would make a play-out about 10 to 30 times slower (``None``: solve as
    the player does, at most :data:`DEFAULT_LIMIT` states).
    """
    if endgame_limit == 0:
        return choice_playout(deal, heuristic_choice)
    return choice_playout(deal, lambda d, tot: intermediate_choice(d, tot, endgame_limit))
