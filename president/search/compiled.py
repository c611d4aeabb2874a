"""The compiled play-outs (``president._playout``, C) with the pure-Python ones as fallback.

:mod:`president.search.fastsim` is the reference: the C code restates its random, greedy
and climbing play-outs and :meth:`FastDeal.random <president.search.fastsim.FastDeal.random>`
statement for statement, and takes its random numbers from the caller's
:class:`random.Random` (the generator's Mersenne Twister state is read, stepped in C exactly
as CPython steps it, and written back). So the same generator gives the same draws, the same
actions and the same finishing order as the Python code, and leaves the generator in the same
state; ``tests/test_compiled.py`` checks this over every preset, twist and table size of the
registries.

The ``intermediate`` policy is the ``intermediate`` player's own choice on counts
(:func:`~president.search.playout_policies.heuristic_choice`, without the endgame solve
that :func:`president.search.endgame.intermediate_choice` adds), restated in ``president/native/_intermediate.h``: :func:`intermediate_choice`
for one decision, :func:`intermediate_playout` (or :func:`playout` with ``policy=
"intermediate"``) for a whole play-out. It is deterministic: it draws nothing from the
generator. The same header restates the replay of
:func:`president.players.expert.style_likelihoods` (:func:`style_rows`).
``tests/test_compiled_intermediate.py`` checks all three against the Python code. Rules the C code
does not play (the allow-list of :mod:`president.native`: the ``reversal`` twist today)
take the Python path here too.

:func:`endgame_search` is the compiled exact endgame solver (``president/native/_endgame.h``), a
restatement of :mod:`president.search.endgame` with the same answers and the same count of
states searched (``tests/test_endgame_compiled.py``); that module's functions call it
themselves when it is available.

The extension is built by ``pip install`` (``setup.py``, an optional extension: a machine
without a C compiler installs the package without it). :data:`AVAILABLE` says whether it is
in use; it is ``False`` when the build is missing or the environment sets
``PRESIDENT_PURE=1``, and then every function here runs the Python code of
:mod:`~president.search.fastsim` instead, with the same results. A generator that is not
exactly :class:`random.Random` (a subclass may draw differently) also takes the Python path.

>>> from president import Rules
>>> orders = random_deals(Rules.preset("practice"), random.Random(5), 3)
>>> len(orders), sorted(orders[0])
(3, [0, 1, 2, 3])
>>> orders == random_deals(Rules.preset("practice"), random.Random(5), 3, pure=True)
True
"""

from __future__ import annotations

import os
import random
import time
from typing import Any, Callable

from ..kernel import clears_of
from ..native import deal_supported, native_supports
from ..rules import Rules
from . import playout_policies as _py  # the Python play-outs: the reference and the fallback
from .playout_policies import choice_playout, heuristic_choice
from .playout_policies import mixed_playout as _py_mixed
from .playout_state import _MODES, FastDeal

__all__ = ["AVAILABLE", "POLICIES", "PLAYOUT_NAMES", "random_playout", "greedy_playout",
           "climbing_playout", "intermediate_playout", "intermediate_choice", "style_rows", "playout",
           "traced_playout", "mixed_playout", "traced_mixed_playout", "random_deals", "measure_deals",
           "endgame_search"]

_ext: Any
if os.environ.get("PRESIDENT_PURE") == "1":
    _ext = None
else:
    try:
        from .. import _playout as _ext  # type: ignore[attr-defined, no-redef, unused-ignore]
    except ImportError:
        _ext = None

#: Whether the compiled play-outs are in use (built, and ``PRESIDENT_PURE`` is not ``1``).
AVAILABLE: bool = _ext is not None

#: The noisy play-out policies (those of :data:`fastsim.PLAYOUTS
#: <president.search.playout_policies.PLAYOUTS>`) -> the number the extension's ``playout``
#: and ``deals`` take for them.
POLICIES = {"random": 0, "greedy": 1, "climbing": 2}

#: Every play-out policy name the functions here take: :data:`POLICIES` and
#: ``"intermediate"`` (deterministic; the extension's ``intermediate_playout``).
PLAYOUT_NAMES = (*POLICIES, "intermediate")

_PYTHON: dict[str, Callable[[FastDeal, random.Random, float], list[int]]] = {
    "greedy": _py.greedy_playout, "climbing": _py.climbing_playout}
"""The Python play-outs that take an epsilon (``random`` has its own call)."""
_EPSILON = {"random": 0.0, "greedy": 0.1, "climbing": 0.05,
            "intermediate": 0.0}  # fastsim's defaults (intermediate has no noise)


def _in_c(rules: Rules | FastDeal, pure: bool = False) -> bool:
    """Whether the C code plays ``rules`` (or a deal under them): the extension is built,
    ``pure`` is not asked for, and the allow-list of :mod:`president.native` lets C play
    every option's value (:func:`president.native.native_supports` for rules,
    :func:`president.native.deal_supported` for a deal). Any other rules (the ``reversal``
    twist today, and any option or value C has not been taught) take the Python code."""
    if _ext is None or pure:
        return False
    if isinstance(rules, Rules):
        return native_supports(rules)
    return deal_supported(rules)


def _compiled(rng: random.Random, pure: bool, rules: Rules | FastDeal) -> bool:
    """:func:`_in_c`, with draws from ``rng`` (a plain ``random.Random``, whose state the C
    reads and writes)."""
    return _in_c(rules, pure) and type(rng) is random.Random


def _python_intermediate(deal: FastDeal, rng: object = None, epsilon: float = 0.0) -> list[int]:
    """The Python reference of the ``intermediate`` policy: the intermediate player's
    choice at every decision without its endgame solve (``rng`` and ``epsilon`` unused)."""
    return choice_playout(deal, heuristic_choice)


def playout(deal: FastDeal, rng: random.Random, policy: str = "greedy", *,
            epsilon: float | None = None, pure: bool = False) -> list[int]:
    """Play ``deal`` out in place with ``policy``, as :func:`fastsim.playout
    <president.search.fastsim.playout>` does, compiled when :data:`AVAILABLE`.

    Args:
        deal: the deal, changed in place (copy it first to keep it).
        rng: the generator the choices are drawn from; it ends in the same state as after
            the Python play-out.
        policy: ``"random"``, ``"greedy"``, ``"climbing"`` (see :mod:`fastsim
            <president.search.fastsim>`) or ``"intermediate"`` (:func:`intermediate_playout`;
            draws nothing from ``rng``).
        epsilon: the greedy or climbing policy's noise, a probability in [0, 1] (``None``:
            fastsim's default, 0.1 greedy, 0.05 climbing); unused by ``random`` and
            ``intermediate``.
        pure: run the Python code even when the compiled one is available.

    Returns:
        ``deal.finish``, the seats in finishing order.

    Raises:
        ValueError: for another policy name, or (compiled) a deal whose state is out of
            range (more than 7 seats, counts outside 0..4, card totals that disagree).
    """
    if policy not in PLAYOUT_NAMES:
        raise ValueError(f"no playout policy {policy!r}; use "
                         f"{', '.join(map(repr, PLAYOUT_NAMES))}")
    if policy == "intermediate":
        return intermediate_playout(deal, pure=pure)
    eps = _EPSILON[policy] if epsilon is None else epsilon
    if _compiled(rng, pure, deal):
        finish: list[int] = _ext.playout(deal, rng, POLICIES[policy], eps, False)
        return finish
    if policy == "random":
        return _py.random_playout(deal, rng)
    return _PYTHON[policy](deal, rng, eps)


def intermediate_playout(deal: FastDeal, rng: random.Random | None = None, *,
                         pure: bool = False) -> list[int]:
    """:func:`~president.search.playout_policies.choice_playout` with
    :func:`~president.search.playout_policies.heuristic_choice` (every seat plays the
    ``intermediate`` player's heuristic choice, no endgame solve: what
    :func:`fastsim.intermediate_playout <president.search.endgame.intermediate_playout>`
    does with ``endgame_limit=0``), compiled when :data:`AVAILABLE` and the
    rules have no ``reversal`` twist. Deterministic: ``rng`` is not used.

    Args:
        deal: the deal, changed in place.
        rng: unused (for the signature of the other play-outs).
        pure: run the Python code even when the compiled one is available.

    Returns:
        ``deal.finish``, the seats in finishing order.

    Raises:
        ValueError: (compiled) a deal whose state is out of range (more than 7 seats,
            counts outside 0..4, card totals that disagree, more than 4 cards of a rank).
    """
    if _in_c(deal, pure):
        finish: list[int] = _ext.intermediate_playout(deal, False)
        return finish
    return _python_intermediate(deal)


def intermediate_choice(deal: FastDeal, tot: list[int], *, pure: bool = False) -> int:
    """The ``intermediate`` player's choice for the seat to act of ``deal``, on counts, as
    :func:`~president.search.playout_policies.heuristic_choice` gives it (no endgame solve;
    :func:`fastsim.intermediate_choice <president.search.endgame.intermediate_choice>`
    ``(deal, tot, endgame_limit=0)`` alike),
    compiled when :data:`AVAILABLE` and the rules have no ``reversal`` twist.

    Args:
        deal: the deal (not changed); it must not be over.
        tot: cards per rank (13 ints) still in all hands together.
        pure: run the Python code even when the compiled one is available.

    Returns:
        The action int (``-1`` a pass).

    Raises:
        ValueError: (compiled) a deal that is over or out of range, or a ``tot`` that does
            not fit the hand to act (``tot[r] - hand[r]`` outside 0..4).
    """
    if _in_c(deal, pure):
        code: int = _ext.intermediate_choice(deal, tot)
        return code
    return heuristic_choice(deal, tot)


def style_rows(rules: Rules, start: list[list[int]], leader: int,
               history: list[tuple[int, int]], seats: list[int],
               noise: float) -> list[list[float]] | None:
    """The compiled replay of :func:`president.players.expert.style_likelihoods`: per seat
    of ``seats``, the log-likelihoods ``[intermediate, simple, random]`` of its actions in
    ``history`` had the deal started with the hands ``start`` (counts per rank per seat)
    and ``leader`` to lead, a deterministic style taking its own action with chance
    ``1 - noise`` and any legal action with ``noise``.

    Args:
        rules: the table's rules (``players``, ``beat``, ``passing``,
            ``last_of_rank_clears`` and ``reversal`` are read).
        start: the hands at the start of the deal, one list of 13 counts per seat.
        leader: the seat that led the deal.
        history: ``(seat, action int)`` in order.
        seats: the seats to score.
        noise: ``STYLE_NOISE``, in (0, 1).

    Returns:
        One row per seat of ``seats``; ``None`` when the Python code must answer: the
        extension is not :data:`AVAILABLE`, the rules have the ``reversal`` twist, or one of
        ``seats`` had a choice while only two seats held cards (the Python
        ``intermediate`` choice then solves the endgame).

    Raises:
        ValueError: (compiled) hands or seats out of range, or an action of ``history``
            that is not legal where it was taken.
    """
    if not _in_c(rules):
        return None
    rows: list[list[float]] | None = _ext.style_likelihoods(
        rules.players, rules.beat == "higher", _MODES[rules.passing],
        clears_of(rules), start, leader, history, seats, noise)
    return rows


def endgame_search(deal: FastDeal, kind: str, *, me: int = -1, prefer: int | None = None,
                   limit: int | None = None,
                   seconds: float | None = None) -> tuple[Any, int, bool] | None:
    """The compiled exact endgame solver (``president/native/_endgame.h``, a restatement of
    :mod:`president.search.endgame`), or ``None`` when the Python solver must answer: the
    extension is not :data:`AVAILABLE` or the rules have the ``reversal`` twist.

    Args:
        deal: a two-player endgame (not changed; :func:`endgame._check
            <president.search.endgame.solve_wins>` is the caller's).
        kind: ``"wins"`` (:func:`~president.search.endgame.solve_wins` for seat ``me``),
            ``"codes"`` (:func:`~president.search.endgame.winning_codes`) or ``"choose"``
            (:func:`~president.search.endgame.choose_code` with ``prefer``).
        limit, seconds: the solve's bounds in states and CPU seconds (``None``: none).

    Returns:
        ``(answer, states, stopped)``: the Python function's answer (``None`` when the
        bound stopped the search), the states searched (the budget spent, counted as the
        Python solver counts them) and whether the bound stopped it.
    """
    if not _in_c(deal):
        return None
    if kind == "wins":
        out: tuple[Any, int, bool] = _ext.endgame_wins(deal, me, limit, seconds)
    elif kind == "codes":
        out = _ext.endgame_winning_codes(deal, limit, seconds)
    elif kind == "choose":
        out = _ext.endgame_choose(deal, prefer, limit, seconds)
    else:
        raise ValueError(f"no endgame search {kind!r}; use 'wins', 'codes' or 'choose'")
    return out


def random_playout(deal: FastDeal, rng: random.Random) -> list[int]:
    """:func:`fastsim.random_playout <president.search.fastsim.random_playout>`, compiled
    when :data:`AVAILABLE`: every seat chooses uniformly among its legal actions; returns the
    finishing order. Same draws, same result."""
    return playout(deal, rng, "random")


def greedy_playout(deal: FastDeal, rng: random.Random, epsilon: float = 0.1) -> list[int]:
    """:func:`fastsim.greedy_playout <president.search.fastsim.greedy_playout>` (the
    ``simple`` player's idea with chance ``epsilon`` of noise), compiled when
    :data:`AVAILABLE`; returns the finishing order."""
    return playout(deal, rng, "greedy", epsilon=epsilon)


def climbing_playout(deal: FastDeal, rng: random.Random, epsilon: float = 0.05) -> list[int]:
    """:func:`fastsim.climbing_playout <president.search.fastsim.climbing_playout>` (the
    ``intermediate`` player's main habits), compiled when :data:`AVAILABLE`; returns the
    finishing order."""
    return playout(deal, rng, "climbing", epsilon=epsilon)


def trace(deal: FastDeal, rng: random.Random, policy: str = "random", *,
          epsilon: float | None = None) -> tuple[list[int], list[int]]:
    """The compiled play-out of ``deal`` (in place) with the actions it took:
    ``(finish, actions)``, actions as fastsim's ints (``-1`` a pass). For tests.

    Raises:
        RuntimeError: when the compiled play-outs are not :data:`AVAILABLE`.
        ValueError: for another policy name.
    """
    if _ext is None:
        raise RuntimeError("the compiled play-outs are not available")
    if policy not in PLAYOUT_NAMES:
        raise ValueError(f"no playout policy {policy!r}; use "
                         f"{', '.join(map(repr, PLAYOUT_NAMES))}")
    if policy == "intermediate":
        finish, actions = _ext.intermediate_playout(deal, True)
        return finish, actions
    eps = _EPSILON[policy] if epsilon is None else epsilon
    finish, actions = _ext.playout(deal, rng, POLICIES[policy], eps, True)
    return finish, actions


class _Recording(FastDeal):
    """A :class:`FastDeal` that records every action applied to it (for
    :func:`traced_playout` in Python: the greedy and climbing play-outs step through
    :meth:`FastDeal.apply`)."""

    __slots__ = ("taken",)
    taken: list[int]

    def apply(self, action: int) -> None:
        self.taken.append(action)
        FastDeal.apply(self, action)


def _python_random_trace(deal: FastDeal, rng: random.Random) -> list[int]:
    """:func:`fastsim.random_playout <president.search.fastsim.random_playout>` step by
    step through :meth:`FastDeal.apply`: ``legal[int(rng.random() * len(legal))]``, drawn
    only when there is more than one legal action (its documented choice); the actions."""
    taken = []
    while deal.to_act >= 0:
        legal = deal.legal_actions()
        a = legal[int(rng.random() * len(legal))] if len(legal) > 1 else legal[0]
        taken.append(a)
        deal.apply(a)
    return taken


def traced_playout(deal: FastDeal, rng: random.Random, policy: str = "greedy", *,
                   epsilon: float | None = None,
                   pure: bool = False) -> tuple[list[int], list[int]]:
    """:func:`playout` that also returns the actions it took: ``(finish, actions)``,
    actions as fastsim's ints (``-1`` a pass), compiled when :data:`AVAILABLE` (the
    extension's trace) and otherwise in Python with the same draws, the same actions and
    the same generator state afterwards. The play-out changes ``deal`` in place.

    Raises:
        ValueError: as :func:`playout`.
    """
    if policy not in PLAYOUT_NAMES:
        raise ValueError(f"no playout policy {policy!r}; use "
                         f"{', '.join(map(repr, PLAYOUT_NAMES))}")
    eps = _EPSILON[policy] if epsilon is None else epsilon
    if policy == "intermediate" and _in_c(deal, pure):
        finish, actions = _ext.intermediate_playout(deal, True)
        return finish, actions
    if policy != "intermediate" and _compiled(rng, pure, deal):
        finish, actions = _ext.playout(deal, rng, POLICIES[policy], eps, True)
        return finish, actions
    if policy == "random":
        return deal.finish, _python_random_trace(deal, rng)
    run = _python_intermediate if policy == "intermediate" else _PYTHON[policy]
    return _recorded(deal, lambda rec: run(rec, rng, eps))


def _recorded(deal: FastDeal, play: Callable[[FastDeal], object]) -> tuple[list[int], list[int]]:
    """Run the Python play-out ``play`` on ``deal`` (changed in place) while recording the
    actions it applies: ``(finish, actions)``, as the extension's traces give them."""
    rec = object.__new__(_Recording)
    for name in FastDeal.__slots__:
        setattr(rec, name, getattr(deal, name))
    rec.taken = []
    play(rec)
    for name in FastDeal.__slots__:
        setattr(deal, name, getattr(rec, name))
    return deal.finish, rec.taken


def mixed_playout(deal: FastDeal, rng: random.Random, styles: list[int], *,
                  pure: bool = False) -> list[int]:
    """:func:`fastsim.mixed_playout <president.search.playout_policies.mixed_playout>`:
    play ``deal`` out in place with seat ``s`` in style ``styles[s]`` (0 intermediate, 1
    simple, 2 random, drawing from ``rng``), compiled when :data:`AVAILABLE` (the same
    actions, finishing order and generator state as the Python code).

    Returns:
        ``deal.finish``, the seats in finishing order.

    Raises:
        ValueError: ``styles`` not one of 0, 1, 2 per seat; the ``reversal`` twist (normal
            rank order only); (compiled) a deal whose state is out of range.
    """
    if _compiled(rng, pure, deal):
        finish: list[int] = _ext.mixed_playout(deal, rng, list(styles), False)
        return finish
    return _py_mixed(deal, styles, rng)


def traced_mixed_playout(deal: FastDeal, rng: random.Random, styles: list[int], *,
                         pure: bool = False) -> tuple[list[int], list[int]]:
    """:func:`mixed_playout` that also returns the actions it took: ``(finish, actions)``
    (fastsim's ints, ``-1`` a pass), compiled or in Python alike.

    Raises:
        ValueError: as :func:`mixed_playout`.
    """
    if _compiled(rng, pure, deal):
        finish, actions = _ext.mixed_playout(deal, rng, list(styles), True)
        return finish, actions
    return _recorded(deal, lambda rec: _py_mixed(rec, styles, rng))


def random_deals(rules: Rules, rng: random.Random, count: int, *, policy: str = "random",
                 leader: int = 0, epsilon: float | None = None,
                 pure: bool = False) -> list[list[int]]:
    """``count`` whole deals: each a shuffled deck dealt by :meth:`FastDeal.random
    <president.search.fastsim.FastDeal.random>` (``leader`` leads and is dealt to first)
    and played out with ``policy``, all drawing from ``rng`` in turn. Compiled, the whole
    batch runs in C without the interpreter; the result equals the Python loop
    ``[playout(FastDeal.random(rules, rng, leader), rng, policy) for _ in range(count)]``.
    (The ``intermediate`` policy runs that loop, each play-out compiled.)

    Only ``rules.players``, ``beat``, ``passing`` and ``last_of_rank_clears`` matter (the play
    of one deal; no exchange or scoring).

    Returns:
        One finishing order (list of seats) per deal.

    Raises:
        ValueError: ``count`` below 0, ``leader`` not a seat, or an unknown policy.
    """
    if count < 0:
        raise ValueError(f"count must be 0 or more, not {count}")
    if not 0 <= leader < rules.players:
        raise ValueError(f"leader seat {leader} does not exist; seats are 0 to "
                         f"{rules.players - 1}")
    if policy not in PLAYOUT_NAMES:
        raise ValueError(f"no playout policy {policy!r}; use "
                         f"{', '.join(map(repr, PLAYOUT_NAMES))}")
    eps = _EPSILON[policy] if epsilon is None else epsilon
    if policy != "intermediate" and _compiled(rng, pure, rules):
        n = rules.players
        orders: list[list[int]] = _ext.deals(
            n, rules.beat == "higher", _MODES[rules.passing],
            clears_of(rules), leader, count, rng, POLICIES[policy], eps)
        return orders
    out = []
    for _ in range(count):
        fd = FastDeal.random(rules, rng, leader)
        out.append(playout(fd, rng, policy, epsilon=eps,
                           pure=pure or policy != "intermediate"))
    return out


def measure_deals(rules: Rules, *, compiled: bool, seconds: float = 1.0, seed: int = 0,
                  policy: str = "random") -> dict[str, float] | None:
    """Whole random deals (:func:`random_deals`) per CPU second, Python or compiled.

    Deals run in batches (1,000 compiled, 20 in Python) until ``seconds`` of this process's
    CPU time (:func:`time.process_time`) have passed.

    Args:
        rules: table size and play options.
        compiled: measure the C code (``None`` is returned when it is not available) or
            the Python code.
        seconds: CPU seconds to spend, > 0.
        seed: seeds the generator.
        policy: the play-out policy.

    Returns:
        ``{"deals_per_cpu_second": x, "deals": d, "cpu_seconds": s}``, or ``None`` for
        ``compiled=True`` without the extension.

    Raises:
        ValueError: ``seconds`` not above 0.
    """
    if not seconds > 0:
        raise ValueError(f"seconds must be above 0, not {seconds}")
    if compiled and not AVAILABLE:
        return None
    rng = random.Random(seed)
    batch = 1000 if compiled else 20
    random_deals(rules, rng, batch, policy=policy, pure=not compiled)  # warm up
    cpu = time.process_time
    start = cpu()
    deals = 0
    while True:
        random_deals(rules, rng, batch, policy=policy, pure=not compiled)
        deals += batch
        used = cpu() - start
        if used >= seconds:
            break
    return {"deals_per_cpu_second": round(deals / used, 1), "deals": deals,
            "cpu_seconds": round(used, 3)}


def playouts_report(*, seconds: float = 0.5, seed: int = 0) -> dict[str, Any]:
    """The ``"playouts"`` part of ``president bench --json``: whole random deals
    (``house``, 4 players, :func:`random_deals`) per CPU second, Python and compiled, each
    measured for ``seconds`` of CPU time in this run.

    Returns:
        ``{"rules": "house", "players": 4, "policy": "random", "python":
        {"deals_per_cpu_second": x, ...}, "compiled": {"deals_per_cpu_second": y, ...} or
        None}`` (``None`` when the extension is not :data:`AVAILABLE`).

    Raises:
        ValueError: ``seconds`` not above 0.
    """
    rules = Rules.preset("house", players=4)
    return {"rules": "house", "players": 4, "policy": "random",
            "python": measure_deals(rules, compiled=False, seconds=seconds, seed=seed),
            "compiled": measure_deals(rules, compiled=True, seconds=seconds, seed=seed)}
