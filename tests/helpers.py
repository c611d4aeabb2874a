"""Small helpers shared by several test files."""

from __future__ import annotations

import asyncio
import concurrent.futures
import importlib
import itertools
import os
from types import ModuleType
from typing import TYPE_CHECKING, Any, Awaitable, Callable

import pytest

if TYPE_CHECKING:
    from president.rules import Rules

#: ``PRESIDENT_REQUIRE_COMPILED=1`` (set by ``make test`` and CI): a test that needs the
#: compiled extensions fails instead of skipping when they are not built (tests/conftest.py).
REQUIRE_COMPILED = os.environ.get("PRESIDENT_REQUIRE_COMPILED") == "1"

#: The reason of every "the compiled extension is missing" skip; tests/conftest.py turns a
#: skip with this reason into a failure under ``PRESIDENT_REQUIRE_COMPILED=1``.
NOT_BUILT = "the compiled extension is not built (or PRESIDENT_PURE=1)"

#: What to do about it, in the failure's words.
HOW_TO_BUILD = (
    "The compiled extensions president._playout and president._vector are not importable "
    "(or PRESIDENT_PURE=1 is set), and PRESIDENT_REQUIRE_COMPILED=1 asks for them. Install a "
    "C compiler and the Python headers (Debian/Ubuntu: `apt-get install gcc python3-dev`), "
    "then rebuild: `.venv/bin/pip install -e '.[all]'` (or `rm .venv/.all-ready && make "
    "setup`, or `python setup.py build_ext --inplace`). To run the tests without them on "
    "purpose, leave PRESIDENT_REQUIRE_COMPILED unset (`make test PRESIDENT_REQUIRE_COMPILED=0`"
    "): their tests are then skipped.")


def needs_compiled(available: bool) -> pytest.MarkDecorator:
    """The mark of a test that needs a compiled extension: a skip with :data:`NOT_BUILT`
    when ``available`` is false (a failure under ``PRESIDENT_REQUIRE_COMPILED=1``)."""
    return pytest.mark.skipif(not available, reason=NOT_BUILT)


def import_compiled(name: str) -> ModuleType:
    """``pytest.importorskip`` for a compiled extension, at a test module's top: skips the
    module with :data:`NOT_BUILT` when ``name`` is not built or ``PRESIDENT_PURE=1``; fails
    it (with what to install) under ``PRESIDENT_REQUIRE_COMPILED=1``."""
    try:
        if os.environ.get("PRESIDENT_PURE") == "1":
            raise ImportError("PRESIDENT_PURE=1")
        return importlib.import_module(name)
    except ImportError as e:
        if REQUIRE_COMPILED:
            pytest.fail(f"{name}: {e}. {HOW_TO_BUILD}", pytrace=False)
        pytest.skip(NOT_BUILT, allow_module_level=True)

#: Twists the compiled environment core leaves to the Python tables.
NOT_COMPILED = {"reversal"}


def run_async(make: Callable[[], Awaitable[Any]]) -> Any:
    """``asyncio.run(make())`` in a thread of its own: ``asyncio.run`` refuses to start inside
    the event loop Playwright's sync API leaves running once the browser tests have run."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(make())).result()


def compiled_env_cases() -> list[tuple[Rules, str]]:
    """Every preset alone and with each of its twists (bar :data:`NOT_COMPILED`), at every
    table size it allows, with each reward kind its scoring allows: the rules the compiled
    environment core is checked on, read from the registries."""
    from president.rules import PRESETS, TWISTS, Rules
    cases = []
    for preset, (lo, hi, _) in PRESETS.items():
        twists = [()] + [(t,) for t in TWISTS[preset] if t not in NOT_COMPILED]
        for twist, players in itertools.product(twists, range(max(lo, 3), min(hi, 7) + 1)):
            rules = Rules.preset(preset, players=players, twists=list(twist))
            for reward in ("place", "points") if rules.scoring else ("place",):
                cases.append((rules, reward))
    return cases


def all_rules() -> list[Rules]:
    """Every preset alone and with each of its twists, at every table size it allows (read
    from the registries, so a new preset or twist is in every test that uses this)."""
    from president.rules import PRESETS, TWISTS, Rules
    out = []
    for name, (lo, hi, _) in PRESETS.items():
        for twist in (None, *TWISTS[name]):
            for n in range(lo, hi + 1):
                out.append(Rules.preset(name, players=n, twists=(twist,) if twist else ()))
    return out


def compiled_rules() -> list[Rules]:
    """Every preset alone and with each of its twists (bar :data:`NOT_COMPILED`: the C
    play-outs leave ``reversal`` to the Python ones, which tests/test_reversal.py checks
    against the engine), at every table size it allows."""
    from president.rules import PRESETS, TWISTS, Rules
    out = []
    for name, (lo, hi, _) in PRESETS.items():
        for twist in (None, *TWISTS[name]):
            if twist in NOT_COMPILED:
                continue
            for n in range(lo, hi + 1):
                out.append(Rules.preset(name, players=n, twists=(twist,) if twist else ()))
    return out


def twist_pairs(*, compiled: bool = True) -> list[Rules]:
    """Every preset with every pair of its twists (bar :data:`NOT_COMPILED` when
    ``compiled``), at every table size it allows within 3-7 players: the twists combined,
    where :func:`compiled_rules` and :func:`all_rules` take them one at a time (read from the
    registries, so a new twist is paired here without editing this)."""
    from president.rules import PRESETS, TWISTS, Rules
    out = []
    for name, (lo, hi, _) in PRESETS.items():
        twists = [t for t in TWISTS[name] if not (compiled and t in NOT_COMPILED)]
        for pair in itertools.combinations(twists, 2):
            for n in range(max(lo, 3), min(hi, 7) + 1):
                out.append(Rules.preset(name, players=n, twists=list(pair)))
    return out


def compiled_env_pair_cases() -> list[tuple[Rules, str]]:
    """:func:`twist_pairs` for the compiled environment core, each with one reward kind its
    scoring allows (in turn, so both kinds are met)."""
    cases = []
    for i, rules in enumerate(twist_pairs()):
        kinds = ("place", "points") if rules.scoring else ("place",)
        cases.append((rules, kinds[i % len(kinds)]))
    return cases


#: The attributes of a play-out's FastDeal that C and Python must leave alike.
FAST_STATE = ("players", "hands", "ncards", "to_act", "need", "top", "same", "last", "passes",
              "passed", "round_left", "finish", "strict", "mode", "clears", "reversal", "reversed")


def fast_state(fd: Any) -> dict[str, Any]:
    """A FastDeal's :data:`FAST_STATE`, to compare two of them."""
    return {k: getattr(fd, k) for k in FAST_STATE}
