"""Engine speed: random full deals through the checked public API, on one core.

Each decision lists :meth:`Match.legal_actions() <president.match.Match.legal_actions>`,
picks one uniformly with a seeded :class:`random.Random`, and passes it to the checked
:meth:`Match.act() <president.match.Match.act>` (which runs the one legality check,
:meth:`Match.refusal`, again). Deals run inside matches, so exchanges, scoring, reseating and
the start of each next deal are part of the cost; a match that ends (or, under
``match_end = never``, reaches :data:`MAX_DEALS_PER_MATCH` deals) is replaced by a new one.

The project's target is at least :data:`TARGET_DEALS_PER_SECOND` random
full deals per second with 4 players under ``house`` in a single process. The figures are
wall-clock and noisy on a shared machine; they belong in ``benchmarks/``, never in a
timed unit test.

>>> r = measure(Rules.preset("practice"), deals=3, seed=1)
>>> r.deals, r.decisions > 3 * 13
(3, True)
"""

from __future__ import annotations

import platform
import random
import sys
import time
from dataclasses import asdict, dataclass
from typing import Any

from .match import Match
from .rules import PRESETS, Rules

__all__ = ["BenchResult", "measure", "preset_figures", "TARGET_DEALS_PER_SECOND",
           "MAX_DEALS_PER_MATCH", "environment"]

#: Random full deals per second the engine must reach (4 players, ``house``, one core).
TARGET_DEALS_PER_SECOND = 1000

#: A match of ``match_end = never`` is restarted after this many deals.
MAX_DEALS_PER_MATCH = 20


@dataclass(frozen=True)
class BenchResult:
    """Figures of one measurement.

    Attributes:
        rules: the rules name, e.g. ``"house"`` or ``"house+sit-out"``.
        players: table size.
        deals: complete deals played while timing.
        decisions: actions taken (plays, passes and exchange gives) while timing.
        seconds: wall-clock time measured, in seconds.
        deals_per_second: ``deals / seconds``.
        decisions_per_second: ``decisions / seconds``.
        us_per_decision: microseconds per decision, ``1e6 * seconds / decisions``.
        decisions_per_deal: ``decisions / deals``.
        cpu_seconds: CPU time of this process over the same run (:func:`time.process_time`),
            in seconds; below ``seconds`` when other processes share the core.
        cpu_deals_per_second: ``deals / cpu_seconds``: the core's speed net of sharing.
    """

    rules: str
    players: int
    deals: int
    decisions: int
    seconds: float
    deals_per_second: float
    decisions_per_second: float
    us_per_decision: float
    decisions_per_deal: float
    cpu_seconds: float
    cpu_deals_per_second: float

    def to_dict(self) -> dict[str, Any]:
        """The figures as a JSON-ready dict (rounded for reading)."""
        d = asdict(self)
        for k in ("seconds", "deals_per_second", "decisions_per_second", "us_per_decision",
                  "decisions_per_deal", "cpu_seconds", "cpu_deals_per_second"):
            d[k] = round(d[k], 3)
        return d


def measure(rules: Rules, *, deals: int | None = None, seconds: float | None = None,
            seed: int = 0, warmup: int = 5) -> BenchResult:
    """Play random full deals under ``rules`` through the checked public API and time them.

    Args:
        rules: the rules to play (any preset, twists and table size).
        deals: stop after this many complete deals.
        seconds: stop at the end of the first deal after this much time (wall clock).
            With neither ``deals`` nor ``seconds``, 2 seconds.
        seed: seeds the shuffles and the random choices (the same seed plays the same
            deals).
        warmup: deals played before timing starts (not counted).

    Returns:
        A :class:`BenchResult`.

    Raises:
        ValueError: ``deals`` below 1 or ``seconds`` not above 0.
    """
    if deals is not None and deals < 1:
        raise ValueError(f"deals must be at least 1, not {deals}")
    if seconds is not None and not seconds > 0:
        raise ValueError(f"seconds must be above 0, not {seconds}")
    if deals is None and seconds is None:
        seconds = 2.0
    rng = random.Random(seed)
    if warmup:
        _play(rules, rng, warmup, None)
    clock = time.perf_counter
    cpu = time.process_time
    start, cpu_start = clock(), cpu()
    played, decisions = _play(rules, rng, deals, seconds)
    elapsed, cpu_elapsed = clock() - start, cpu() - cpu_start
    return BenchResult(
        rules=rules.name, players=rules.players, deals=played, decisions=decisions,
        seconds=elapsed,
        deals_per_second=played / elapsed if elapsed else float("inf"),
        decisions_per_second=decisions / elapsed if elapsed else float("inf"),
        us_per_decision=1e6 * elapsed / decisions if decisions else 0.0,
        decisions_per_deal=decisions / played if played else 0.0,
        cpu_seconds=cpu_elapsed,
        cpu_deals_per_second=played / cpu_elapsed if cpu_elapsed else float("inf"),
    )


def _play(rules: Rules, rng: random.Random, deals: int | None,
          seconds: float | None) -> tuple[int, int]:
    """The timed loop: (deals completed, decisions taken)."""
    clock = time.perf_counter
    stop_at = clock() + seconds if seconds is not None else None
    randrange = rng.randrange
    uniform = rng.random  # int(uniform() * k) is a uniform choice of k, cheaper than randrange
    played = 0
    decisions = 0
    match = Match(rules, seed=randrange(1 << 32))
    while True:
        phase = match.phase
        if phase == "play" or phase == "exchange":
            actions = match.legal_actions()
            seat = match.to_act
            assert seat is not None     # someone acts in play and in the exchange
            match.act(seat, actions[int(uniform() * len(actions))])
            decisions += 1
            continue
        played += 1
        if deals is not None and played >= deals:
            break
        if stop_at is not None and clock() >= stop_at:
            break
        if phase == "match-over" or match.deal_number >= MAX_DEALS_PER_MATCH:
            match = Match(rules, seed=randrange(1 << 32))
        else:
            match.start_next_deal()
    return played, decisions


def preset_figures(*, players: int = 4, deals: int | None = None,
                   seconds: float | None = None, seed: int = 0) -> list[BenchResult]:
    """:func:`measure` for every preset (no twists) at ``players`` seats (``practice`` is
    always 4), for context beside the ``house`` target."""
    out = []
    for name in PRESETS:
        lo, hi, _ = PRESETS[name]
        n = min(max(players, lo), hi)
        out.append(measure(Rules.preset(name, players=n), deals=deals, seconds=seconds,
                           seed=seed))
    return out


def environment() -> dict[str, Any]:
    """Where the figures were measured: Python version and implementation, machine."""
    return {
        "python": platform.python_version(),
        "implementation": sys.implementation.name,
        "machine": platform.machine(),
        "system": platform.system(),
        "processes": 1,
    }
