"""The compiled endgame solver (president/native/_endgame.h, via president.players.compiled.
endgame_search) agrees with the Python one (president.players.endgame), which is the
statement: the same answer, the same winning actions, the same choice with and without a
preferred action, the same number of states searched, and so the same positions stopped by
a limit of states.

The positions are two-player endgames of random deals, for every preset alone and with each
of its twists, at 3 to 7 players (read from the registries: a new preset or twist is tested
here without editing this file): each deal is played by random legal actions until only two
seats hold cards, and every state of a random walk from there to the end of the deal is a
position (empty piles and piles, passes, seats sitting out, the once-around round).
"""

from __future__ import annotations

import random

import pytest

from president.players import compiled, endgame
from president.players.endgame import TooBig, choose_code, solve_wins, winning_codes
from president.players.fastsim import FastDeal
from president.rules import PRESETS, TWISTS, Rules

from tests.helpers import NOT_COMPILED, needs_compiled

needs_c = needs_compiled(compiled.AVAILABLE)

RULES = [Rules.preset(name, players=n, twists=(twist,) if twist else ())
         for name, (lo, hi, _) in PRESETS.items()
         for twist in (None, *TWISTS[name]) if twist not in NOT_COMPILED
         for n in range(max(lo, 3), min(hi, 7) + 1)]
IDS = [f"{r.name}-{r.players}" for r in RULES]
LIMITS = (50, 300, 4000)


def endgame_positions(rules: Rules, seed: int, deals: int = 2,
                      hoard: bool = False) -> list[FastDeal]:
    """Every state of a random walk through the two-player endgame of ``deals`` random
    deals, each played by random legal actions until two seats hold cards. With ``hoard``
    two seats pass when they may and lead their lowest single while the others lead their
    largest sets, so the two that are left hold many cards (big endgames)."""
    rng = random.Random(seed)
    out = []
    for _ in range(deals):
        fd = FastDeal.random(rules, rng, leader=rng.randrange(rules.players))
        keep = rng.sample(range(rules.players), 2)
        while fd.players - len(fd.finish) > 2:
            acts = fd.legal_actions()
            if not hoard:
                fd.apply(acts[rng.randrange(len(acts))])
            elif fd.to_act in keep:
                fd.apply(acts[-1] if fd.need and rng.random() < 0.8 else acts[0])
            else:
                fd.apply(max(acts, key=lambda a: (a & 3, rng.random())))
        while not fd.over:
            out.append(fd.copy())
            acts = fd.legal_actions()
            fd.apply(acts[rng.randrange(len(acts))])
    return out


def python_codes(state: FastDeal, limit: int | None,
                 seconds: float | None = None) -> tuple[list[int] | None, int]:
    """endgame.winning_codes in Python, with the states it searched (its budget spent);
    ``None`` for the codes when it stopped (TooBig)."""
    budget = endgame._budget(limit, seconds)
    start = budget.left
    memo: dict = {}
    out = []
    try:
        for a in state.legal_actions():
            if endgame._wins_after(state, a, state.to_act, memo, budget):
                out.append(a)
    except TooBig:
        return None, start - budget.left
    return out, start - budget.left


def python_wins(state: FastDeal, me: int, limit: int | None) -> tuple[bool | None, int]:
    """endgame.solve_wins in Python with the states it searched (``None``: TooBig)."""
    budget = endgame._budget(limit, None)
    start = budget.left
    try:
        won = endgame._wins(state, me, {}, budget)
    except TooBig:
        return None, start - budget.left
    return won, start - budget.left


def _live(state: FastDeal) -> list[int]:
    return [s for s in range(state.players) if state.ncards[s]]


@needs_c
@pytest.mark.parametrize("case", range(len(RULES)), ids=IDS)
def test_compiled_solver_agrees_with_the_python_one(case: int) -> None:
    rules = RULES[case]
    rng = random.Random(case)
    positions = (endgame_positions(rules, seed=case)
                 + endgame_positions(rules, seed=case, deals=1, hoard=True))
    settled = 0
    for state in positions:
        before = state.copy()
        for limit in LIMITS:
            want, spent = python_codes(state, limit)
            got = compiled.endgame_search(state, "codes", limit=limit)
            assert got == (want, spent, want is None), limit
            if want is None:
                with pytest.raises(TooBig):
                    winning_codes(state, limit=limit)
            else:
                settled += 1
                assert winning_codes(state, limit=limit) == want
        for me in _live(state):
            for limit in (300, 4000):
                want_won, spent = python_wins(state, me, limit)
                got = compiled.endgame_search(state, "wins", me=me, limit=limit)
                assert got == (want_won, spent, want_won is None), limit
                if want_won is None:
                    with pytest.raises(TooBig):
                        solve_wins(state, me, limit=limit)
                else:
                    assert solve_wins(state, me, limit=limit) is want_won
        legal = state.legal_actions()
        for prefer, limit in ((None, 4000), (rng.choice(legal), 4000), (legal[-1], 300),
                              (99, 50)):
            want_code = choose_code(state, prefer, limit=limit, pure=True)
            assert choose_code(state, prefer, limit=limit) == want_code
            got = compiled.endgame_search(state, "choose", prefer=prefer, limit=limit)
            assert got is not None and got[0] == want_code
        assert vars_of(state) == vars_of(before)  # the solves leave the state alone
    assert settled


def vars_of(fd: FastDeal) -> dict:
    return {k: getattr(fd, k) for k in FastDeal.__slots__}


@needs_c
@pytest.mark.parametrize("name", ["first-night", "house", "family"])
def test_full_solves_and_the_cpu_bound_agree(name: str) -> None:
    """Without a limit (the largest endgames of a deal at the smallest table), and with a
    CPU bound that has already run out: both stop at the first check, when the states
    left are a multiple of 256."""
    rules = Rules.preset(name, players=PRESETS[name][0])
    positions = endgame_positions(rules, seed=11, deals=3, hoard=True)
    big = sorted(positions, key=lambda s: -sum(s.ncards))[:6]
    for state in big:
        want, spent = python_codes(state, None)
        assert compiled.endgame_search(state, "codes") == (want, spent, False)
        if spent > 256:
            want, spent = python_codes(state, None, seconds=0.0)
            assert (want, spent) == (None, 256)
            assert compiled.endgame_search(state, "codes", seconds=0.0) == (None, 256, True)
            assert compiled.endgame_search(state, "codes", limit=1000, seconds=0.0) == \
                (None, 1000 - 768, True)  # the check when the states left are 768
            with pytest.raises(TooBig):
                winning_codes(state, limit=None, seconds=0.0)


@needs_c
def test_limits_beyond_the_budget_and_below_zero() -> None:
    state = endgame_positions(Rules.preset("house", players=4), seed=3)[0]
    want, spent = python_codes(state, None)
    for limit in (None, 1 << 62, 1 << 80, 10 ** 30):
        assert compiled.endgame_search(state, "codes", limit=limit) == (want, spent, False)
    for limit in (0, -1, -(1 << 80)):
        assert python_codes(state, limit) == (None, 1)
        assert compiled.endgame_search(state, "codes", limit=limit) == (None, 1, True)


def test_errors_and_the_python_paths() -> None:
    rules = Rules.preset("house", players=4)
    fd = FastDeal.random(rules, random.Random(1))
    for f in (lambda: winning_codes(fd), lambda: choose_code(fd),
              lambda: solve_wins(fd, 0)):
        with pytest.raises(ValueError, match="exactly two seats"):
            f()
    end = endgame_positions(rules, seed=5)[0]
    other = [s for s in range(4) if s not in _live(end)][0]
    with pytest.raises(ValueError, match="exactly two seats"):
        solve_wins(end, other)
    # a memo given, or the reversal twist: the Python solver answers
    memo: dict = {}
    assert solve_wins(end, end.to_act, memo=memo, limit=None) == \
        solve_wins(end, end.to_act, limit=None, pure=True)
    assert memo
    rev = endgame_positions(Rules.preset("house", players=4, twists=("reversal",)), seed=5)[0]
    assert compiled.endgame_search(rev, "codes") is None
    assert winning_codes(rev, limit=None) == winning_codes(rev, limit=None, pure=True)


def test_without_the_extension_the_python_solver_answers(monkeypatch) -> None:
    state = endgame_positions(Rules.preset("first-night", players=3), seed=2)[0]
    want = winning_codes(state, limit=None, pure=True)
    monkeypatch.setattr(compiled, "_ext", None)
    assert compiled.endgame_search(state, "codes") is None
    assert winning_codes(state, limit=None) == want
