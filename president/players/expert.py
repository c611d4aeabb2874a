"""``expert``: determinized Monte Carlo search over the cards hidden from its seat.

For each decision with more than one distinct choice (suits never matter in play, so plays
are compared by rank and count) the expert:

1. rebuilds the state of the pile from the deal's public history (who led, who passed,
   the cards on the pile, who went out) on the fast engine :mod:`~president.search.fastsim`;
2. samples *worlds*: hands for the other seats made of the cards it has not seen, consistent
   with everything its seat knows (docs/rules.md, "Information"): each seat's card count, its own
   hand, every card played this deal, the cards it gave in the exchange (still in the
   receiver's hand unless played since), when a seat had to give it their highest
   cards, that that seat holds nothing higher than the lowest of them (except cards handed
   to it afterwards), and, under ``give_back = lowest``, when a seat gave it cards back,
   that that seat holds nothing lower than the highest of them (the first-night guide's
   "two worst");
   each world is then weighed by how well it explains the other seats' play this deal:
   each other seat still holding cards is modelled as a *mixture of styles*
   (:data:`STYLES`: ``intermediate``, ``simple``, ``random``, prior weights
   :data:`STYLE_PRIOR`), a world's weight is the product over those seats of
   ``sum(style weight * likelihood of the seat's actions under that style in this
   world)`` (:func:`style_likelihoods`), and each seat's style weights are learned from
   the worlds sampled so far (each style's mean likelihood times its prior): a seat that
   plays like ``simple`` gets mostly ``simple`` weight within a few actions. With
   ``spread`` above 0 the weights are tempered: each world's likelihood is raised to the
   largest power at most 1 that keeps that share of the worlds as an effective number
   (untempered, a few worlds often carry nearly all the weight; tempering measured
   weaker, and no level uses it). With ``chain_steps`` above 0 (``master``: 3) the
   worlds are instead drawn by Markov chains in proportion to their weight squared, each
   counted once (:mod:`~president.search.world_chain`). Only the seat's own observation
   goes in;
3. plays every candidate out in every world, all candidates on the same worlds, on the
   compiled play-outs (:mod:`~president.search.compiled`, with its identical Python
   fallback): in each world every live other seat plays a style drawn from its own
   style weights and this seat plays ``intermediate`` (the mixed play-out,
   :func:`~president.search.compiled.mixed_playout`: ``intermediate`` as the exact
   ``intermediate`` choice without its endgame solve, ``simple`` as the simple player's
   choice, ``random``; ``policy="mixture"``, and the ``reversal`` twist, play one style
   drawn from the mean weights for every seat instead), keeping the better half of the
   candidates after each round (successive halving) and always the ``intermediate``
   player's choice (the *guess*);
4. compares the best candidate with the guess *on the same worlds* (a paired comparison:
   the luck of a world cancels out of each difference of places) and overrides the guess
   only when the mean difference beats ``prior`` places by ``z`` standard errors of the
   paired differences (weights counted by their effective number). While the two are
   not told apart the rest of the budget (``duel`` of it is kept back for this) goes to
   more worlds for those two alone, so close calls get the most samples.

Before any of this, when only one other seat still holds cards, every hidden card is in
its hand: the expert solves the rest of the deal exactly
(:mod:`~president.search.endgame`, at most ``endgame_limit`` states, 500,000 by default,
and, under a time limit, at most ``endgame_seconds`` of CPU) and plays a winning action
whenever one exists, without sampling. The time of a solve counts against the decision's
time limit: a search after a solve that found no winning action (or ran out of states)
gets what is left of it.

The budget is ``playouts`` play-outs (12,000) and ``time_limit`` seconds (0.8, wall clock)
per decision, whichever runs out first (4,000 play-outs until 2 December 2026: 12,000
measured +0.11 places stronger against three ``intermediate`` players, docs/strength.md;
before the compiled play-outs: 1,000 play-outs of
the exact Python copy of ``intermediate``, with worlds weighed by surprises:
``policy="intermediate", styles=None, playouts=1000`` gives that search again, its
play-outs now compiled); a decision with one legal action (or one distinct play) is
not searched. Exchanges use the intermediate player's choice. ``stats`` counts decisions,
searched decisions, play-outs, wall-clock seconds and CPU seconds (``max_…``: the slowest
decision), and the worlds sampled and their effective number (Kish's, (sum of
weights)² / sum of squared weights, summed over the searches: ``effective_worlds`` /
``searched`` is the mean number of worlds a verdict rested on, in effect) for
``president simulate``; ``style_weights`` keeps, per other seat, the style
weights summed over the searches (and, last, how many searches).
"""

from __future__ import annotations

import math
import random
import time
from itertools import islice, repeat
from operator import mul, sub
from typing import Any

from ..actions import Give, Pass, Play
from ..observation import Observation
from ..rules import Rules
from ..search import compiled
from ..search.endgame import (DEFAULT_LIMIT, TooBig, endgame_choice, endgame_state,
                              intermediate_choice, root_state, solve_wins)
from ..search.playout_policies import simple_code
from ..search.playout_state import PASS, FastDeal, encode
from ..search.world_chain import WorldChains
from ..search.worlds import SeatConstraints as SeatConstraints  # its names from before the move
from ..search.worlds import sample_world, seat_constraints
from ..search.worlds import shuffle as shuffle
from .intermediate import IntermediatePlayer

__all__ = ["ExpertPlayer", "STYLES", "STYLE_PRIOR", "root_state", "sample_world",
           "seat_constraints", "style_likelihoods", "surprises"]

#: The styles of play the expert mixes in its model of each other seat, and the compiled
#: play-out (:mod:`~president.search.compiled`) that plays each: ``intermediate`` (the
#: ``intermediate`` play-out: the intermediate player's own choice at every decision,
#: without its endgame solve; it has no noise, so a world played in this style is played
#: the same way for every candidate and the spread comes from the worlds), ``simple`` (the
#: greedy play-out, the simple player's idea with 0.1 noise) and ``random``. (Before the
#: compiled ``intermediate`` play-out, that style was played by the climbing play-out, the
#: intermediate player's main habits with 0.05 noise: ``policy="climbing"`` still plays it.)
STYLES = ("intermediate", "simple", "random")
#: The compiled play-out of each fixed play-out policy index: the styles (0, 1, 2, as
#: :data:`STYLES`), then ``climbing`` (3).
_PLAYOUT_POLICY = ("intermediate", "greedy", "random", "climbing")
#: The generator handed to a mixed play-out in which no seat plays the random style (it
#: draws nothing from it).
_NO_DRAWS = random.Random(0)
#: Prior weights of :data:`STYLES` for a seat that has not acted yet this deal.
STYLE_PRIOR = (0.75, 0.2, 0.05)
#: With ``chain_steps``: worlds sampled independently to learn the style weights from and
#: to start the chains from, chains, and swaps tried on each chain before its first world.
CHAIN_SAMPLE = 256
CHAINS = 16
CHAIN_BURN_IN = 20
#: The chains draw worlds in proportion to their weight to this power: squared, the draws
#: put as many hidden cards in the right seat as the best-weighted independent worlds do
#: (65% against three experts; 59% in proportion to the weight itself, 51% unweighted).
CHAIN_SHARPEN = 2.0
#: Chance that a player of a deterministic style (intermediate, simple) takes another legal
#: action than its style's (any of them alike): a style never rules a world out.
STYLE_NOISE = 0.1


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
            exactly (0: no solve). With the compiled solver (:mod:`~president.players.
            endgame`) 500,000 states take about 0.35 s of CPU here (the Python fallback
            searches about 50,000 states a second, so under a time limit
            ``endgame_seconds`` stops it first); choosing a winning move in the two-player
            endgames of 300 3-player deals needed up to 59,000 (docs/strength.md).
        endgame_seconds: CPU seconds at most for that solve, > 0, when ``time_limit`` is
            set (``None``: only ``endgame_limit`` bounds it; with ``time_limit=None`` it
            is not used, so that choices do not depend on the machine's load).
        policy: play-out policy: ``"seats"`` (default: in each world every other live
            seat plays a style of its own, drawn from its own style weights, and the
            observing seat plays ``intermediate``: the compiled mixed play-out,
            :func:`~president.search.compiled.mixed_playout`; under the ``reversal``
            twist, which it does not play, ``"mixture"`` instead), ``"mixture"`` (one
            style per world for every seat, drawn from the mean of the other seats' style
            weights), or ``"intermediate"``,
            ``"climbing"``, ``"greedy"`` or ``"random"`` (that play-out in every world;
            ``"intermediate"`` is the intermediate player's choice without its endgame
            solve, :func:`~president.search.compiled.intermediate_playout`: compiled when
            the extension is built, else the Python copy, about 25 times slower).
        styles: prior weights of :data:`STYLES` (intermediate, simple, random) for the
            mixture model of the other seats that weighs the worlds (see the module
            docstring); ``None``: no mixture, worlds weighed by ``surprise`` instead
            (``policy="mixture"`` needs styles).
        surprise: with ``styles=None``, weight factor, in (0, 1], of a sampled world per
            action of another seat that an intermediate player would not have taken there
            (see :func:`surprises`); ``None`` weighs every world alike.
        leaf_limit: states at most of an exact solve of a play-out's last two-player
            part when the observing seat is in it (its place is then the solved one;
            0, the default: no solve; the ``master`` level solves).
        clock: what ``time_limit`` measures: ``"wall"`` (default) or ``"cpu"`` (this
            process's CPU time).
        chain_steps: 0 (the default): each world is sampled independently and weighed by
            the likelihood of the other seats' play; above 0, worlds are drawn in
            proportion to that weight by Markov chains
            (:class:`~president.search.world_chain.WorldChains`, that many swaps tried
            per world) and each counts once (``master`` uses 3).
        spread: share of the sampled worlds, in [0, 1], that their weights must keep as
            an effective number (Kish's: (sum of weights)² / sum of squared weights):
            when the other seats' play puts the weight on fewer worlds, every world's
            likelihood is raised to the largest power below 1 that keeps that many
            (tempering). 0 (the default): the likelihoods as they are. 0.2 measured
            weaker in ``master`` (docs/strength.md, "The worlds a verdict rests on"), and
            no level uses it.

    Raises:
        ValueError: for a budget below those bounds.
    """

    level = "expert"

    def __init__(self, *, seed: int | None = None, playouts: int = 12_000,
                 time_limit: float | None = 0.8, prior: float = 0.03,
                 policy: str = "seats", surprise: float | None = 0.25,
                 styles: tuple[float, float, float] | None = STYLE_PRIOR,
                 z: float = 2.0, duel: float = 0.3, endgame_limit: int = 500_000,
                 endgame_seconds: float | None = 0.6, leaf_limit: int = 0,
                 clock: str = "wall", spread: float = 0.0, chain_steps: int = 0) -> None:
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
        policies = {"seats": None, "mixture": None, "intermediate": 0, "climbing": 3,
                    "greedy": 1, "random": 2}
        if policy not in policies:
            raise ValueError(f"no play-out policy {policy!r}; choose one of: "
                             f"{', '.join(policies)}")
        if styles is not None and (len(styles) != len(STYLES) or min(styles) < 0
                                   or not sum(styles) > 0):
            raise ValueError(f"styles = {styles!r} must be {len(STYLES)} weights, 0 or more, "
                             "not all 0 (intermediate, simple, random), or None")
        if policy in ("seats", "mixture") and styles is None:
            raise ValueError(f"policy = {policy!r} needs styles (the prior weights of the "
                             "styles it mixes)")
        if not isinstance(leaf_limit, int) or leaf_limit < 0:
            raise ValueError(f"leaf_limit = {leaf_limit!r} must be a whole number, 0 or more")
        if clock not in ("wall", "cpu"):
            raise ValueError(f"clock = {clock!r} must be 'wall' or 'cpu'")
        if not 0 <= spread <= 1:
            raise ValueError(f"spread = {spread!r} must be a share of the worlds, from 0 "
                             "(weights as the likelihoods give them) to 1")
        self.spread = spread
        if not isinstance(chain_steps, int) or chain_steps < 0:
            raise ValueError(f"chain_steps = {chain_steps!r} must be a whole number of swaps, "
                             "0 (independent weighted worlds) or more")
        self.chain_steps = chain_steps
        self._chained = False  # this search's worlds come from chains
        self.policy = policy
        self._fixed = policies[policy]
        self.styles = None if styles is None else tuple(x / sum(styles) for x in styles)
        self.leaf_limit = leaf_limit
        self.clock = clock
        self._clock = time.perf_counter if clock == "wall" else time.process_time
        # the guess: the intermediate player's choice, without its own endgame solve when
        # the expert's solve (which keeps the guess when it wins) covers it
        self.heuristic = IntermediatePlayer(seed=seed,
                                            endgames=endgame_limit < DEFAULT_LIMIT)
        # seconds / cpu_seconds: searched decisions (from the start of the decision, a
        # failed endgame solve included); endgame_…: every endgame solve tried (found a
        # winning action or not); decision_cpu_…: every decision with a choice
        self.style_weights: dict[int, list[float]] = {}
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
            assert not isinstance(a, Give)  # plays and PASS, outside an exchange
            code = encode(a.rank, a.count) if isinstance(a, Play) else PASS
            by_code.setdefault(code, a)
        if len(by_code) == 1:
            return legal[0]
        started = time.perf_counter()
        cpu = time.process_time()
        begun = self._clock()
        st = self.stats
        guess = self.heuristic.act(obs)
        assert not isinstance(guess, Give)  # one of the legal plays and PASS
        guess_code = encode(guess.rank, guess.count) if isinstance(guess, Play) else PASS
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
            code, used = self._search(obs, list(by_code), guess_code, begun)
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
        me = obs.seat
        root = root_state(obs)
        cons = seat_constraints(obs)
        deadline = started + self.time_limit if self.time_limit is not None else float("inf")
        clock = self._clock
        untimed = deadline == float("inf")
        surprise = self.surprise
        prior = self.styles
        history = [(seat, encode(a.rank, a.count) if isinstance(a, Play) else PASS)
                   for seat, a in obs.history]
        live = [s for s, k in enumerate(obs.hand_counts) if s != me and k]
        n = obs.players
        per_seat = self.policy == "seats" and not obs.rules.reversal
        # with one other seat left there is one world: weights would change nothing
        others_acted = any(seat != me for seat, _ in history) and len(live) > 1
        played = [[0] * 13 for _ in range(obs.players)]
        for seat, a in obs.history:
            if isinstance(a, Play):
                played[seat][a.rank] += a.count
        # per candidate: {world index: place}; per world: its weight, and (style mixture)
        # per live other seat the log-likelihood of its play this deal under each style
        places: dict[int, dict[int, int]] = {c: {} for c in candidates}
        budget = self.playouts
        weight: list[float] = []
        loglik: list[list[list[float]]] = []
        mix = self.style_weights
        styles = {s: list(prior) for s in live} if prior is not None else {}
        used = 0
        out_of_time = False

        # The style weights are learned from the worlds so far at 16, 32, 64, ... worlds
        # (and at the end of a round of play-outs when the worlds have doubled since, or
        # were never learned from); in between, a new world is weighed with the weights
        # last learned, so a decision costs O(worlds), not O(worlds²) over its many short
        # rounds of the duel.
        refs: dict[int, float] = {}
        learned = 0   # worlds the style weights were last learned from
        weighed = 0   # worlds whose weight is set
        top = 0.0     # the largest log-weight when last learned
        beta = 1.0    # the tempering of the log-weights then: weights are exp(beta (lw - top))

        def world_logweight(ll: list[list[float]]) -> float:
            """Log-weight of a world: the sum over the live other seats of the log of
            their style mixture's likelihood (relative to ``refs``)."""
            lw = 0.0
            for j, s in enumerate(live):
                p = styles[s]
                ref = refs[s]
                lw += math.log(p[0] * math.exp(ll[j][0] - ref) + p[1] * math.exp(
                    ll[j][1] - ref) + p[2] * math.exp(ll[j][2] - ref) or 1e-300)
            return lw

        def learn() -> None:
            """The style weights of each live other seat from every world so far (each
            style's mean likelihood over them, times its prior), then every world's weight:
            the product over those seats of their mixture's likelihood."""
            nonlocal learned, weighed, top, beta
            verdict_memo.clear()    # every world's weight may change
            if not loglik or prior is None:  # no likelihoods without a style prior
                return
            for j, s in enumerate(live):
                ref = max(max(ll[j]) for ll in loglik)
                refs[s] = ref
                means = [sum(math.exp(ll[j][k] - ref) for ll in loglik) for k in range(3)]
                post = [prior[k] * means[k] for k in range(3)]
                tot = sum(post)
                if tot > 0:  # else (a style of prior 0 explains it best) keep the weights
                    styles[s] = [x / tot for x in post]
            for i, ll in enumerate(loglik):
                loglik_w[i] = world_logweight(ll)
            top = max(loglik_w)
            beta = self._temper(loglik_w, top)
            for i, lw in enumerate(loglik_w):
                weight[i] = math.exp(beta * (lw - top))
            learned = weighed = len(loglik)

        def weigh_new() -> None:
            """Weigh the worlds added since the last :func:`learn` with its style weights
            (learning again if the last learning saw fewer than half of the worlds, or if a
            new world outweighs the others by more than floats hold)."""
            nonlocal weighed
            if not loglik or prior is None:
                return
            if not learned or len(loglik) >= 2 * learned:
                learn()
                return
            for i in range(weighed, len(loglik)):
                lw = world_logweight(loglik[i])
                if beta * (lw - top) > 600.0:
                    learn()
                    return
                loglik_w[i] = lw
                weight[i] = math.exp(beta * (lw - top))
            weighed = len(loglik)

        loglik_w: list[float] = []
        cache: dict[tuple[int, tuple[int, ...]], list[float]] = {}
        verdict_memo: dict[str, Any] = {}   # _verdict's sums so far (cleared by learn)

        def play(alive: list[int], worlds: int, until: float = float("inf")) -> None:
            nonlocal used, out_of_time
            # with no deadline (a play-out budget only) the clock is not read
            timed = until != float("inf")
            try:
                for _ in range(worlds):
                    if used + len(alive) > budget or (timed and weight and clock() > until):
                        return
                    i = len(weight)
                    weight.append(1.0)
                    if chains is not None:  # drawn in proportion to weight: counted once
                        hands = chains.draw()
                    else:
                        hands = sample_world(cons, rng)
                        if prior is not None:
                            if others_acted:
                                loglik.append(style_likelihoods(obs.rules, hands, played,
                                                                obs.leader, history, me,
                                                                live, cache))
                                loglik_w.append(0.0)
                                k = len(loglik)
                                if k >= 16 and not k & (k - 1):  # 16, 32, 64, ... worlds
                                    learn()
                        elif surprise is not None and others_acted:
                            weight[i] = surprise ** surprises(obs.rules, hands, played,
                                                              obs.leader, history, me)
                    style: int | list[int] = (self._seat_styles(styles, live, rng, n)
                                               if per_seat else self._style(styles, live, rng))
                    seed = rng.random()
                    for c in alive:
                        st = root.copy(hands)
                        st.apply(c)
                        places[c][i] = self._candidate_place(c, st, me, style, seed)
                        used += 1
                        if not untimed and clock() > deadline:
                            out_of_time = True
                            return
            finally:
                weigh_new()

        def mean(c: int) -> float:
            # the weighted mean place of c's play-outs: the sums run over the worlds in the
            # order they were played (map: the same additions as a generator, faster)
            got = places[c]
            ws = list(map(weight.__getitem__, got))
            tw = sum(ws)
            return sum(map(mul, ws, got.values())) / tw if tw else 99.0

        chains: WorldChains | None = None
        self._chained = False
        if self.chain_steps and prior is not None and others_acted:
            # Worlds by Markov chains (president/search/world_chain.py): the style weights
            # are learned from an independent sample of worlds, the chains start from
            # worlds of it drawn by weight, and every world of the search is then a chain's
            # draw, counted once.
            pre = [sample_world(cons, rng) for _ in range(CHAIN_SAMPLE)]
            for hands in pre:
                loglik.append(style_likelihoods(obs.rules, hands, played, obs.leader,
                                                history, me, live, cache))
                loglik_w.append(0.0)
                weight.append(1.0)
            learn()
            starts = rng.choices(pre, weights=weight, k=CHAINS)

            def chain_logweight(hands: list[list[int]]) -> float:
                return CHAIN_SHARPEN * world_logweight(style_likelihoods(
                    obs.rules, hands, played, obs.leader, history, me, live, cache))

            chains = WorldChains(cons, starts, chain_logweight,  # type: ignore[arg-type]
                                 rng, self.chain_steps, CHAIN_BURN_IN)
            loglik.clear()
            loglik_w.clear()
            weight.clear()
            learned = weighed = 0
            self._chained = True
        try:
            halving = max(len(candidates), int(budget * (1 - self.duel)))
            halving_end = started + self.time_limit * (1 - self.duel) \
                if self.time_limit is not None else float("inf")
            alive = candidates[:]
            rounds = max(1, (len(candidates) - 1).bit_length())
            for rnd in range(rounds):
                per = (halving - used) // ((rounds - rnd) * len(alive))
                # the rounds share the time left for halving as they share the play-outs
                now = clock()
                play(alive, max(1, per), now + (halving_end - now) / (rounds - rnd))
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
                # (min would work out a lone rival's mean for nothing, every duel round)
                best = rivals[0] if len(rivals) == 1 else min(rivals, key=mean)
                verdict = self._verdict(places[best], places[guess], weight, verdict_memo)
                if verdict is not None or out_of_time or used + 2 > budget:
                    return (best if verdict else guess), used
                # not told apart yet: more worlds for these two alone
                alive = [guess, best]
                play(alive, max(1, min(32, (budget - used) // 2)))
        finally:
            if weight:  # how many worlds the verdict rested on, in effect
                tw = sum(weight)
                tw2 = sum(w * w for w in weight)
                self.stats["worlds"] = self.stats.get("worlds", 0) + len(weight)
                self.stats["effective_worlds"] = (self.stats.get("effective_worlds", 0.0)
                                                  + (tw * tw / tw2 if tw2 else 0.0))
            for s in live:
                mix.setdefault(s, [0.0, 0.0, 0.0, 0])
                got = mix[s]
                for k in range(3):
                    got[k] += styles[s][k] if styles else 0.0
                got[3] += 1

    def _style(self, styles: dict[int, list[float]], live: list[int],
               rng: random.Random) -> int:
        """The play-out of one world, an index into ``_PLAYOUT_POLICY`` (0 to 2: the
        styles of :data:`STYLES`; 3: climbing): the compiled play-out plays every seat
        alike, so one style is drawn per world from the mean of the live other seats' style
        weights (``policy = "mixture"``); else the policy's."""
        if self._fixed is not None:
            return self._fixed
        if not live:
            return 0
        x = rng.random() * len(live)
        for s in live:
            p = styles[s]
            if x < p[0]:
                return 0
            if x < p[0] + p[1]:
                return 1
            if x < 1.0:
                return 2
            x -= 1.0
        return 0

    @staticmethod
    def _seat_styles(styles: dict[int, list[float]], live: list[int], rng: random.Random,
                     n: int) -> list[int]:
        """The style of each seat in one world (``policy = "seats"``), indices of
        :data:`STYLES`: each live other seat's drawn from its own style weights (one
        ``rng.random()`` each, in seat order), ``intermediate`` (0) for the rest, the
        observing seat included."""
        out = [0] * n
        for s in live:
            p = styles[s]
            x = rng.random()
            out[s] = 0 if x < p[0] else 1 if x < p[0] + p[1] else 2
        return out

    def _candidate_place(self, candidate: int, st: FastDeal, me: int,
                         style: int | list[int], seed: float) -> int:
        """The observing seat's place in one play-out of ``candidate`` (already applied to
        ``st``): :meth:`_place` here; ``master`` may continue it in a tree of its own."""
        return self._place(st, me, style, seed)

    def _place(self, st: FastDeal, me: int, style: int | list[int], seed: float) -> int:
        """The observing seat's finishing place (1 = first) after playing ``st`` out (in
        place) with the world's style (one index of ``_PLAYOUT_POLICY`` for every seat, or
        a style per seat for the mixed play-out); with ``leaf_limit``, the last two-player
        part of the play-out is replaced by its exact solve when that seat is in it."""
        if isinstance(style, list):
            if not self.leaf_limit:
                # no seat of the random style: nothing is drawn, no generator is needed
                gen = random.Random(seed) if 2 in style else _NO_DRAWS
                return compiled.mixed_playout(st, gen, style).index(me) + 1
            base = st.copy()
            finish, actions = compiled.traced_mixed_playout(st, random.Random(seed), style)
            return self._leaf(base, finish, actions, me)
        policy = _PLAYOUT_POLICY[style]
        if policy == "intermediate" and not self.leaf_limit:  # deterministic: no generator
            return compiled.intermediate_playout(st).index(me) + 1
        if not self.leaf_limit or policy == "random":
            return compiled.playout(st, random.Random(seed), policy).index(me) + 1
        base = st.copy()
        finish, actions = compiled.traced_playout(st, random.Random(seed), policy)
        return self._leaf(base, finish, actions, me)

    def _leaf(self, base: FastDeal, finish: list[int], actions: list[int], me: int) -> int:
        """The observing seat's place in a play-out from ``base`` that took ``actions`` and
        ended in ``finish``, its last two-player part replaced by the exact solve (at most
        ``leaf_limit`` states) when that seat is in it."""
        n = base.players
        if me not in finish[-2:]:
            return finish.index(me) + 1
        for a in actions:
            if n - len(base.finish) <= 2:
                break
            base.apply(a)
        if base.to_act < 0 or me in base.finish:
            return finish.index(me) + 1
        self.stats["leaf_solves"] = self.stats.get("leaf_solves", 0) + 1
        try:
            won = solve_wins(base, me, limit=self.leaf_limit)
        except TooBig:
            return finish.index(me) + 1
        return n - 1 if won else n

    def _temper(self, logweights: list[float], top: float) -> float:
        """The power ``beta`` in (0, 1] to raise every world's likelihood to (its
        log-weight ``lw`` becomes ``beta * (lw - top)``; ``top`` is the largest) so that
        the worlds' effective number (Kish's, (sum of weights)² / sum of squared weights)
        is at least ``spread`` of their number: 1 when the weights already are that even
        (or ``spread`` is 0), else the largest such power, found by bisection to 1/4096."""
        n = len(logweights)
        if not self.spread or n < 2:
            return 1.0
        target = self.spread * n
        exp = math.exp

        def effective(b: float) -> float:
            s1 = s2 = 0.0
            for lw in logweights:
                w = exp(b * (lw - top))
                s1 += w
                s2 += w * w
            return s1 * s1 / s2

        if effective(1.0) >= target:
            return 1.0
        lo, hi = 0.0, 1.0  # effective(0) = n >= target
        for _ in range(12):
            mid = (lo + hi) / 2
            if effective(mid) >= target:
                lo = mid
            else:
                hi = mid
        return lo

    def _verdict(self, best: dict[int, int], guess: dict[int, int],
                 weight: list[float], memo: dict[str, Any] | None = None) -> bool | None:
        """Paired comparison of two candidates' places on the worlds both were played in:
        ``True`` when ``best`` is better than ``guess`` by more than ``prior`` places with
        ``z`` standard errors to spare, ``False`` when it is clearly not, ``None`` while
        the difference is within the noise.

        ``memo`` (a dict, empty at first) keeps the sums over the worlds already seen, for
        the next call on the same two candidates after more worlds were played for both
        (the duel): the caller empties it whenever the weights of worlds already played
        may change. The sums are then carried on from where they were, which adds the same
        numbers in the same order as summing every world again: the same figures."""
        if memo is None:
            memo = {}
        pair = (id(best), id(guess))
        if memo.get("pair") != pair:
            memo.clear()
            memo.update(pair=pair, seen=0, common=[], ws=[], ds=[], tw=0, tw2=0, twd=0)
        # the worlds of best since the last call (played after those seen) that guess has
        new = [i for i in islice(best, memo["seen"], None) if i in guess]
        memo["seen"] = len(best)
        common: list[int] = memo["common"]
        ws: list[float] = memo["ws"]
        ds: list[int] = memo["ds"]
        # every sum runs over the common worlds in order (map and zip: the same operations
        # as generators over them, faster)
        new_ws = list(map(weight.__getitem__, new))
        # > 0: best finishes higher
        new_ds = list(map(sub, map(guess.__getitem__, new), map(best.__getitem__, new)))
        common += new
        ws += new_ws
        ds += new_ds
        tw = memo["tw"] = sum(new_ws, memo["tw"])
        tw2 = memo["tw2"] = sum(map(pow, new_ws, repeat(2)), memo["tw2"])
        twd = memo["twd"] = sum(map(mul, new_ws, new_ds), memo["twd"])
        if len(common) < 8:  # too few worlds to judge the spread
            return None
        if not tw:
            return None
        mean = twd / tw
        var = sum(map(mul, ws, map(pow, map(sub, ds, repeat(mean)), repeat(2)))) / tw
        n_eff = tw * tw / tw2
        se = (var / n_eff) ** 0.5 if n_eff > 1 else float("inf")
        if self._chained:
            # worlds drawn by chains (world i from chain i % CHAINS) are not independent:
            # the spread of the chains' own means bounds the error from below
            sums = [0.0] * CHAINS
            counts = [0] * CHAINS
            for i, d in zip(common, ds):
                sums[i % CHAINS] += d
                counts[i % CHAINS] += 1
            means = [x / k for x, k in zip(sums, counts, strict=True) if k]
            if len(means) < 4:
                return None
            m = sum(means) / len(means)
            between = sum((x - m) ** 2 for x in means) / (len(means) - 1)
            se = max(se, (between / len(means)) ** 0.5)
        if mean - self.prior > self.z * se:
            return True
        if mean - self.prior < -self.z * se * 0.5 or se == 0:
            return False
        return None


_LOG_HIT: dict[int, float] = {}
_LOG_MISS: dict[int, float] = {}
_LOG_ONE: dict[int, float] = {}


def style_likelihoods(rules: Rules, hands: list[list[int]], played: list[list[int]],
                      leader: int, history: list[tuple[int, int]], me: int, seats: list[int],
                      cache: dict[tuple[int, tuple[int, ...]], list[float]] | None = None,
                      *, pure: bool = False) -> list[list[float]]:
    """Log-likelihoods of each of ``seats``' actions so far this deal under each of
    :data:`STYLES`, had the hidden cards been dealt as in the world ``hands`` (counts per
    rank now; ``played``: counts per rank each seat has played this deal; ``history``:
    ``(seat, action int)`` in order). Returns one ``[intermediate, simple, random]`` row
    per seat of ``seats``.

    Per decision with more than one legal action (by rank and count) of such a seat: a
    deterministic style (the ``intermediate`` choice of
    :func:`~president.search.endgame.intermediate_choice`, the ``simple`` choice) takes its
    own action with chance ``1 - STYLE_NOISE`` and any legal action with chance
    ``STYLE_NOISE`` (so ``1 - noise + noise / k`` or ``noise / k`` among ``k``); ``random``
    takes each with ``1 / k``. Only what the observing seat may know goes in: its own
    history and the world it sampled. The expert weighs a world by the product over the
    seats of ``sum(style weight * likelihood)`` and learns each seat's style weights from
    these rows (see :class:`ExpertPlayer`).

    A seat's row depends only on its own hand (the rest of the state is public), so
    ``cache`` (a dict kept for one decision) keeps rows by seat and hand.

    The replay runs compiled (:func:`president.search.compiled.style_rows`, the same sums
    in the same order, so the same floats) when the extension is available, and in Python
    (``pure=True``, the ``reversal`` twist, or a seat's choice while only two seats held
    cards, where the Python ``intermediate`` choice solves the endgame) otherwise.

    Raises:
        ValueError: (compiled) an action of ``history`` that is not legal where it was
            taken, or hands out of range."""
    n = len(hands)
    keys = [(s, tuple(hands[s])) for s in seats]
    if cache is not None:
        got = [cache.get(k) for k in keys]
        hits = [r for r in got if r is not None]
        if len(hits) == len(got):
            return hits
    start = [[hands[s][r] + played[s][r] for r in range(13)] for s in range(n)]
    todo = [s for j, s in enumerate(seats) if cache is None or got[j] is None]
    computed = None if pure else compiled.style_rows(rules, start, leader, history, todo,
                                                     STYLE_NOISE)
    if computed is None:
        computed = _replay_rows(rules, start, leader, history, todo)
    row_of = dict(zip(todo, computed))
    if cache is None:
        return [row_of[s] for s in seats]
    rows: list[list[float]] = []
    for j, s in enumerate(seats):
        row = got[j]
        if row is None:
            row = cache[keys[j]] = row_of[s]
        rows.append(row)
    return rows


def _replay_rows(rules: Rules, start: list[list[int]], leader: int,
                 history: list[tuple[int, int]], todo: list[int]) -> list[list[float]]:
    """:func:`style_likelihoods`' replay in Python: the deal from the hands ``start`` (counts
    per rank per seat at the start of the deal, ``leader`` to lead) through ``history``,
    adding up each of ``todo``'s rows (``[intermediate, simple, random]``, one per seat of
    ``todo``) at every decision of that seat with more than one legal action."""
    n = len(start)
    fd = FastDeal(rules, start, leader)
    tot = [sum(start[s][r] for s in range(n)) for r in range(13)]
    row_of = {s: [0.0, 0.0, 0.0] for s in todo}
    choose = intermediate_choice
    noise = STYLE_NOISE
    for seat, code in history:
        row = row_of.get(seat)
        if row is not None:
            k = len(fd.legal_actions())
            if k > 1:
                hit = _LOG_HIT.get(k)
                if hit is None:
                    hit = _LOG_HIT[k] = math.log(1 - noise + noise / k)
                    _LOG_MISS[k] = math.log(noise / k)
                    _LOG_ONE[k] = -math.log(k)
                miss = _LOG_MISS[k]
                row[0] += hit if choose(fd, tot) == code else miss
                row[1] += hit if simple_code(fd) == code else miss
                row[2] += _LOG_ONE[k]
        if code >= 0:
            tot[code >> 2] -= (code & 3) + 1
        fd.apply(code)
    return [row_of[s] for s in todo]


def surprises(rules: Rules, hands: list[list[int]], played: list[list[int]], leader: int,
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
    choose = intermediate_choice
    for seat, code in history:
        if seat != me and choose(fd, tot) != code:
            missed += 1
        if code >= 0:
            tot[code >> 2] -= (code & 3) + 1
        fd.apply(code)
    return missed
