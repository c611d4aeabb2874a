"""``expert``: determinized Monte Carlo search over the cards hidden from its seat.

For each decision with more than one distinct choice (suits never matter in play, so plays
are compared by rank and count) the expert:

1. rebuilds the state of the pile from the deal's public history (who led, who passed,
   the cards on the pile, who went out) on the fast engine :mod:`~president.players.fastsim`;
2. samples *worlds*: hands for the other seats made of the cards it has not seen, consistent
   with everything its seat knows (RULES.md, "Information"): each seat's card count, its own
   hand, every card played this deal, the cards it gave in the exchange (still in the
   receiver's hand unless played since), when a seat had to give it their highest
   cards, that that seat holds nothing higher than the lowest of them (except cards handed
   to it afterwards), and, under ``give_back = lowest``, when a seat gave it cards back,
   that that seat holds nothing lower than the highest of them (seed 004's "two worst");
   each world is then weighed by ``surprise ** k``, where k counts the other seats'
   actions this deal that an intermediate player holding those cards would not have taken
   (an opponent model: worlds that explain the table's play count more);
3. plays every candidate out in every world with the fast play-out policy
   (:func:`~president.players.fastsim.intermediate_playout` by default), all candidates on
   the same worlds, keeping the better half of the candidates after each round
   (successive halving) and always the ``intermediate`` player's choice (the *guess*);
4. compares the best candidate with the guess *on the same worlds* (a paired comparison:
   the luck of a world cancels out of each difference of places) and overrides the guess
   only when the mean difference beats ``prior`` places by ``z`` standard errors of the
   paired differences (weights counted by their effective number). While the two are
   not told apart the rest of the budget (``duel`` of it is kept back for this) goes to
   more worlds for those two alone, so close calls get the most samples.

Before any of this, when only one other seat still holds cards, every hidden card is in
its hand: the expert solves the rest of the deal exactly
(:mod:`~president.players.endgame`, at most ``endgame_limit`` states, 40,000 by default,
and, under a time limit, at most ``endgame_seconds`` of CPU) and plays a winning action
whenever one exists, without sampling. The time of a solve counts against the decision's
time limit: a search after a solve that found no winning action (or ran out of states)
gets what is left of it.

The budget is ``playouts`` play-outs and ``time_limit`` seconds per decision, whichever
runs out first; a decision with one legal action (or one distinct play) is not searched.
Exchanges use the intermediate player's choice. ``stats`` counts decisions, searched
decisions, play-outs, wall-clock seconds and CPU seconds (``max_…``: the slowest decision)
for ``president simulate``.
"""

from __future__ import annotations

import random
import time

from ..actions import PASS, Give, Pass, Play
from ..observation import Observation
from . import fastsim
from .fastsim import FastDeal, encode
from .endgame import DEFAULT_LIMIT, endgame_choice, endgame_state, root_state
from .intermediate import IntermediatePlayer
from .knowledge import rank_counts

__all__ = ["ExpertPlayer", "root_state", "sample_world", "seat_constraints"]


class ExpertPlayer:
    """Determinized Monte Carlo search (see the module docstring).

    Args:
        seed: seed of the player's own :class:`random.Random` (same seed and same budget
            in play-outs, same choices, as long as ``time_limit`` is not what stops search).
        playouts: play-outs per decision at most (all candidates together), >= 1.
        time_limit: wall-clock seconds per decision at most (checked after every
            play-out), > 0; ``None``: no time limit, so that only ``playouts`` bounds the
            search and choices do not depend on the machine's load.
        prior: places of mean finishing place by which another candidate must beat the
            intermediate player's choice to be chosen, >= 0.
        z: standard errors of the paired differences by which that margin must be
            beaten, >= 0 (2.0: about a 2% chance, one-sided, that a candidate no better
            than the guess overrides it on one comparison).
        duel: share of the play-out budget, in [0, 1), kept for the final comparison of
            the best candidate with the guess when the halving rounds leave it open.
        endgame_limit: states searched at most when solving a two-player endgame
            exactly (0: no solve). 40,000 states take about 0.5 s of CPU here; the
            largest two-player endgames of 3-player deals (about 20 cards) that have a
            winning move needed up to 18,000 to find it (docs/strength.md).
        endgame_seconds: CPU seconds at most for that solve, > 0, when ``time_limit`` is
            set (``None``: only ``endgame_limit`` bounds it; with ``time_limit=None`` it
            is not used, so that choices do not depend on the machine's load).
        policy: play-out policy of :mod:`~president.players.fastsim`: ``"intermediate"``
            (default: every seat plays as the intermediate player), ``"climbing"``,
            ``"greedy"`` or ``"random"``.
        surprise: weight factor, in (0, 1], of a sampled world per action of another seat
            that an intermediate player would not have taken there (see
            :func:`surprises`); ``None`` weighs every world alike.

    Raises:
        ValueError: for a budget below those bounds.
    """

    level = "expert"

    def __init__(self, *, seed: int | None = None, playouts: int = 1000,
                 time_limit: float | None = 0.8, prior: float = 0.03,
                 policy: str = "intermediate", surprise: float | None = 0.25,
                 z: float = 2.0, duel: float = 0.3, endgame_limit: int = 40000,
                 endgame_seconds: float | None = 0.6) -> None:
        if not isinstance(playouts, int) or playouts < 1:
            raise ValueError(f"playouts = {playouts!r} must be a whole number of at least 1")
        if time_limit is not None and not time_limit > 0:
            raise ValueError(f"time_limit = {time_limit!r} must be more than 0 seconds, "
                             "or None for no limit")
        if not prior >= 0:
            raise ValueError(f"prior = {prior!r} must be 0 or more places")
        if not z >= 0:
            raise ValueError(f"z = {z!r} must be 0 or more standard errors")
        if not 0 <= duel < 1:
            raise ValueError(f"duel = {duel!r} must be at least 0 and below 1")
        if not isinstance(endgame_limit, int) or endgame_limit < 0:
            raise ValueError(f"endgame_limit = {endgame_limit!r} must be a whole number, 0 "
                             "or more")
        if endgame_seconds is not None and not endgame_seconds > 0:
            raise ValueError(f"endgame_seconds = {endgame_seconds!r} must be more than 0 "
                             "seconds, or None")
        if surprise is not None and not 0 < surprise <= 1:
            raise ValueError(f"surprise = {surprise!r} must be more than 0 and at most 1, "
                             "or None")
        self.surprise = surprise
        self.rng = random.Random(seed)
        self.playouts = playouts
        self.time_limit = time_limit
        self.prior = prior
        self.z = z
        self.duel = duel
        self.endgame_limit = endgame_limit
        self.endgame_seconds = endgame_seconds
        policies = {"intermediate": fastsim.intermediate_playout,
                    "climbing": fastsim.climbing_playout, "greedy": fastsim.greedy_playout,
                    "random": fastsim.random_playout}
        if policy not in policies:
            raise ValueError(f"no play-out policy {policy!r}; choose one of: "
                             f"{', '.join(policies)}")
        self.policy = policies[policy]
        # the guess: the intermediate player's choice, without its own endgame solve when
        # the expert's solve (which keeps the guess when it wins) covers it
        self.heuristic = IntermediatePlayer(seed=seed,
                                            endgames=endgame_limit < DEFAULT_LIMIT)
        # seconds / cpu_seconds: searched decisions (from the start of the decision, a
        # failed endgame solve included); endgame_…: every endgame solve tried (found a
        # winning action or not); decision_cpu_…: every decision with a choice
        self.stats = {"decisions": 0, "searched": 0, "playouts": 0, "seconds": 0.0,
                      "max_seconds": 0.0, "cpu_seconds": 0.0, "max_cpu_seconds": 0.0,
                      "solved": 0, "overrides": 0, "endgames": 0,
                      "endgame_cpu_seconds": 0.0, "max_endgame_cpu_seconds": 0.0,
                      "choices": 0, "decision_cpu_seconds": 0.0,
                      "max_decision_cpu_seconds": 0.0}

    def act(self, observation: Observation) -> Play | Pass | Give:
        """Choose a legal action for the observing seat (see the module docstring)."""
        obs = observation
        legal = obs.legal_actions
        self.stats["decisions"] += 1
        if len(legal) == 1:
            return legal[0]
        if isinstance(legal[0], Give):
            return self.heuristic.act(obs)
        by_code: dict[int, Play | Pass] = {}
        for a in legal:
            code = fastsim.PASS if a is PASS else encode(a.rank, a.count)
            by_code.setdefault(code, a)
        if len(by_code) == 1:
            return legal[0]
        started = time.perf_counter()
        cpu = time.process_time()
        st = self.stats
        guess = self.heuristic.act(obs)
        guess_code = fastsim.PASS if guess is PASS else encode(guess.rank, guess.count)
        if self.endgame_limit and endgame_state(obs) is not None:
            t0 = time.process_time()
            solved = endgame_choice(obs, guess, limit=self.endgame_limit,
                                    seconds=self.endgame_seconds
                                    if self.time_limit is not None else None)
            took = time.process_time() - t0
            st["endgames"] += 1
            st["endgame_cpu_seconds"] += took
            st["max_endgame_cpu_seconds"] = max(st["max_endgame_cpu_seconds"], took)
            if solved is not None:
                st["solved"] += 1
                self._decided(cpu)
                return solved
        try:
            code, used = self._search(obs, list(by_code), guess_code, started)
        except ValueError:  # a state the fast engine cannot rebuild: trust the heuristics
            self.stats["fallbacks"] = self.stats.get("fallbacks", 0) + 1
            return guess
        spent = time.perf_counter() - started
        cpu = self._decided(cpu)
        st["cpu_seconds"] += cpu
        st["max_cpu_seconds"] = max(st["max_cpu_seconds"], cpu)
        st["searched"] += 1
        st["playouts"] += used
        st["seconds"] += spent
        st["max_seconds"] = max(st["max_seconds"], spent)
        chosen = by_code[code]
        if code == guess_code:
            return guess
        st["overrides"] += 1
        return chosen

    def _decided(self, cpu: float) -> float:
        """Count a decision with a choice that began at process time ``cpu``; its CPU
        seconds."""
        took = time.process_time() - cpu
        st = self.stats
        st["choices"] += 1
        st["decision_cpu_seconds"] += took
        st["max_decision_cpu_seconds"] = max(st["max_decision_cpu_seconds"], took)
        return took

    def _search(self, obs: Observation, candidates: list[int], guess: int,
                started: float) -> tuple[int, int]:
        rng = self.rng
        policy = self.policy
        noisy = policy is not fastsim.intermediate_playout
        me = obs.seat
        root = root_state(obs)
        cons = seat_constraints(obs)
        deadline = started + self.time_limit if self.time_limit is not None else float("inf")
        clock = time.perf_counter
        surprise = self.surprise
        history = [(seat, fastsim.PASS if a is PASS else encode(a.rank, a.count))
                   for seat, a in obs.history]
        # with one other seat left there is one world: weights would change nothing
        others_acted = any(seat != me for seat, _ in history) and \
            sum(1 for s, k in enumerate(obs.hand_counts) if s != me and k) > 1
        played = [[0] * 13 for _ in range(obs.players)]
        for seat, a in obs.history:
            if a is not PASS:
                played[seat][a.rank] += a.count
        # per candidate: {world index: place}; per world: its weight
        places: dict[int, dict[int, int]] = {c: {} for c in candidates}
        budget = self.playouts
        weight: list[float] = []
        used = 0
        out_of_time = False

        def play(alive: list[int], worlds: int) -> None:
            nonlocal used, out_of_time
            for _ in range(worlds):
                if used + len(alive) > budget:
                    return
                hands = sample_world(cons, rng)
                w = 1.0
                if surprise is not None and others_acted:
                    w = surprise ** surprises(obs.rules, hands, played, obs.leader, history, me)
                i = len(weight)
                weight.append(w)
                seed = rng.random()
                for c in alive:
                    st = root.copy(hands)
                    st.apply(c)
                    order = policy(st, random.Random(seed) if noisy else None)
                    places[c][i] = order.index(me) + 1
                    used += 1
                    if clock() > deadline:
                        out_of_time = True
                        return

        def mean(c: int) -> float:
            got = places[c]
            tw = sum(weight[i] for i in got)
            return sum(weight[i] * p for i, p in got.items()) / tw if tw else 99.0

        halving = max(len(candidates), int(budget * (1 - self.duel)))
        alive = candidates[:]
        rounds = max(1, (len(candidates) - 1).bit_length())
        for rnd in range(rounds):
            play(alive, max(1, (halving - used) // ((rounds - rnd) * len(alive))))
            if out_of_time or len(alive) <= 2 or rnd == rounds - 1:
                break
            alive.sort(key=mean)
            keep = alive[:max(2, (len(alive) + 1) // 2)]
            if guess in alive and guess not in keep:
                keep.append(guess)
            alive = keep
        if guess not in alive:  # cannot happen (the guess is always kept); be safe
            return guess, used
        while True:
            rivals = [c for c in alive if c != guess and places[c]]
            if not rivals:
                return guess, used
            best = min(rivals, key=mean)
            verdict = self._verdict(places[best], places[guess], weight)
            if verdict is not None or out_of_time or used + 2 > budget:
                return (best if verdict else guess), used
            # not told apart yet: more worlds for these two alone
            alive = [guess, best]
            play(alive, max(1, min(32, (budget - used) // 2)))

    def _verdict(self, best: dict[int, int], guess: dict[int, int],
                 weight: list[float]) -> bool | None:
        """Paired comparison of two candidates' places on the worlds both were played in:
        ``True`` when ``best`` is better than ``guess`` by more than ``prior`` places with
        ``z`` standard errors to spare, ``False`` when it is clearly not, ``None`` while
        the difference is within the noise."""
        common = [i for i in best if i in guess]
        if len(common) < 8:  # too few worlds to judge the spread
            return None
        tw = sum(weight[i] for i in common)
        tw2 = sum(weight[i] ** 2 for i in common)
        if not tw:
            return None
        diff = {i: guess[i] - best[i] for i in common}  # > 0: best finishes higher
        mean = sum(weight[i] * d for i, d in diff.items()) / tw
        var = sum(weight[i] * (d - mean) ** 2 for i, d in diff.items()) / tw
        n_eff = tw * tw / tw2
        se = (var / n_eff) ** 0.5 if n_eff > 1 else float("inf")
        if mean - self.prior > self.z * se:
            return True
        if mean - self.prior < -self.z * se * 0.5 or se == 0:
            return False
        return None


def surprises(rules, hands: list[list[int]], played: list[list[int]], leader: int,
              history: list[tuple[int, int]], me: int) -> int:
    """How many of the other seats' actions so far in this deal an ``intermediate`` player
    would not have taken, had the hidden cards been dealt as in the world ``hands`` (counts
    per rank now; ``played``: counts per rank each seat has played this deal). The expert
    weighs a world by ``surprise ** surprises``: worlds that explain the table's play get
    more say. The hard constraints of :func:`sample_world` hold whatever the weights."""
    n = len(hands)
    start = [[hands[s][r] + played[s][r] for r in range(13)] for s in range(n)]
    fd = FastDeal(rules, start, leader)
    tot = [sum(start[s][r] for s in range(n)) for r in range(13)]
    missed = 0
    choose = fastsim.intermediate_choice
    for seat, code in history:
        if seat != me and choose(fd, tot) != code:
            missed += 1
        if code >= 0:
            tot[code >> 2] -= (code & 3) + 1
        fd.apply(code)
    return missed


def seat_constraints(obs: Observation) -> dict:
    """What the observing seat knows of the other hands, for :func:`sample_world`:
    ``own`` (its hand by rank), ``known`` (per seat, ranks of cards it must hold: cards
    this seat gave it in the exchange, that it has not played and that it did not give
    back), ``pool`` (ranks of the other hidden cards), ``need`` (per seat, how many hidden
    cards it holds beyond the known ones), ``cap`` (per seat, the highest rank it can hold
    among hidden cards: 12 unless it had to give this seat its highest cards) and
    ``floor`` (per seat, the lowest such rank: 0 unless it gave this seat cards back under
    ``give_back = lowest``, which were its lowest when it gave them; it has received
    nothing since)."""
    n = obs.players
    me = obs.seat
    own = rank_counts(obs.hand)
    played_cards = set()
    for _, action in obs.history:
        if action is not PASS:
            played_cards.update(action.cards)
    known: list[list[int]] = [[] for _ in range(n)]
    cap = [12] * n
    held = set(obs.hand)
    for giver, receiver, cards in obs.exchanges:
        if giver == me and receiver != me:
            # a card handed back to this seat afterwards is in its own hand, not theirs
            known[receiver].extend(c.rank for c in cards
                                   if c not in played_cards and c not in held)
    floor = [0] * n
    step_forced = _forced_givers(obs)
    for giver, cards in step_forced:
        cap[giver] = min(cap[giver], min(c.rank for c in cards))
    if obs.rules.give_back == "lowest":
        for giver, cards in _given_back(obs):
            floor[giver] = max(floor[giver], max(c.rank for c in cards))
    counts = [4 - own[r] for r in range(13)]
    for c in played_cards:
        counts[c.rank] -= 1
    for s in range(n):
        for r in known[s]:
            counts[r] -= 1
    pool = [r for r in range(13) for _ in range(counts[r])]
    need = [0 if s == me else obs.hand_counts[s] - len(known[s]) for s in range(n)]
    # cards this seat gave to a capped seat may be above its cap: they are in `known`.
    return {"me": me, "own": own, "known": known, "pool": pool, "need": need, "cap": cap,
            "floor": floor}


def _forced_givers(obs: Observation) -> list:
    """(giver, cards) of exchanges in which another seat handed this seat its highest cards.

    In an exchange the first give of a pair of seats is the forced one (the lower-placed
    seat gives its best cards); the observation lists this seat's transfers in order."""
    out = []
    me = obs.seat
    seen_pairs = set()
    for giver, receiver, cards in obs.exchanges:
        pair = frozenset((giver, receiver))
        if pair in seen_pairs:
            continue
        seen_pairs.add(pair)
        if receiver == me and giver != me:
            out.append((giver, cards))
    return out


def _given_back(obs: Observation) -> list:
    """(giver, cards) of exchanges in which another seat gave this seat cards back: the
    second give of a pair of seats (see :func:`_forced_givers`)."""
    out = []
    me = obs.seat
    seen_pairs = set()
    for giver, receiver, cards in obs.exchanges:
        pair = frozenset((giver, receiver))
        if pair not in seen_pairs:
            seen_pairs.add(pair)
            continue
        if receiver == me and giver != me:
            out.append((giver, cards))
    return out


def sample_world(cons: dict, rng: random.Random) -> list[list[int]]:
    """One deal of the hidden cards to the other seats, consistent with ``cons`` (from
    :func:`seat_constraints`): every seat gets exactly its count, known cards stay with
    their holder, no seat gets a card above its cap or below its floor, and no card the
    observing seat holds or has seen played is placed anywhere. Returns hands as counts per
    rank, per seat.

    Raises:
        ValueError: if the constraints cannot be met (they always can for a real deal).
    """
    me = cons["me"]
    need = cons["need"][:]
    cap = cons["cap"]
    floor = cons.get("floor") or [0] * len(need)
    n = len(need)
    hands = [[0] * 13 for _ in range(n)]
    hands[me] = cons["own"][:]
    for s in range(n):
        for r in cons["known"][s]:
            hands[s][r] += 1
    pool = cons["pool"][:]
    rng.shuffle(pool)
    bounded = [s for s in range(n) if s != me and (cap[s] < 12 or floor[s] > 0) and need[s]]
    if bounded:
        # Cards some bounded seat cannot hold go first, each to a seat that can (in a real
        # exchange one seat at most is bounded, so the others always have room for them).
        low = min(cap[s] for s in bounded)
        high_floor = max(floor[s] for s in bounded)
        high = [r for r in pool if r > low or r < high_floor]
        rest = [r for r in pool if high_floor <= r <= low]
        for r in high:
            seats = [s for s in range(n)
                     if s != me and need[s] and floor[s] <= r <= cap[s]]
            weights = [need[s] for s in seats]
            if not seats:
                raise ValueError("no seat can hold a hidden card of rank "
                                 f"{r}: the constraints contradict each other")
            s = rng.choices(seats, weights)[0]
            hands[s][r] += 1
            need[s] -= 1
        pool = rest
    i = 0
    for s in range(n):
        k = need[s]
        if s == me or not k:
            continue
        h = hands[s]
        for r in pool[i:i + k]:
            h[r] += 1
        i += k
    if i != len(pool):
        raise ValueError(f"{len(pool)} hidden cards for {i} places in the other hands")
    return hands
