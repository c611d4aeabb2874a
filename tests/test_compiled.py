"""The compiled play-outs (president._playout via president.players.compiled) agree draw for
draw with the Python reference (president.players.fastsim): the same random.Random in, the
same actions, the same finishing order and the same generator state out.

Every rules value is generated from the registries (every preset, with no twist and with each
of its twists, at every table size it allows), so a new preset or twist is tested here without
editing this file. The Python side is the reference; the C side is checked against it.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest

from president.actions import Play
from president.rules import Rules
from president.players import compiled, fastsim
from president.players.fastsim import FastDeal

from tests.helpers import (FAST_STATE, compiled_rules, fast_state, needs_compiled,  # noqa: E402
                           twist_pairs)

needs_c = needs_compiled(compiled.AVAILABLE)


ALL_RULES = compiled_rules()
IDS = [f"{r.name}-{r.players}" for r in ALL_RULES]
#: Each preset with each pair of its twists (the list above has them one at a time).
PAIRS = twist_pairs()
PAIR_IDS = [f"{r.name}-{r.players}" for r in PAIRS]
_state = fast_state


class _Logged(FastDeal):
    """A FastDeal that records every action applied (for the Python greedy and climbing
    play-outs, which step through ``apply``)."""

    __slots__ = ("log",)

    def apply(self, action: int) -> None:
        self.log.append(action)
        super().apply(action)


def _logged(fd: FastDeal) -> _Logged:
    c = object.__new__(_Logged)
    for k in FAST_STATE:
        v = getattr(fd, k)
        setattr(c, k, [list(h) for h in v] if k == "hands" else (v[:] if isinstance(v, list)
                                                                  else v))
    c.log = []
    return c


def _python_random_steps(fd: FastDeal, rng: random.Random) -> list[int]:
    """The rule of fastsim.random_playout stated step by step: the seat to act takes
    ``legal_actions()[int(rng.random() * len)]``, drawing only when it has a choice."""
    acts = []
    while not fd.over:
        legal = fd.legal_actions()
        a = legal[int(rng.random() * len(legal))] if len(legal) > 1 else legal[0]
        acts.append(a)
        fd.apply(a)
    return acts


def test_registries_give_every_option_and_size():
    assert {r.players for r in ALL_RULES} == {3, 4, 5, 6, 7}
    assert {r.passing for r in ALL_RULES} == {"re-enter", "sit-out", "once-around"}
    assert {r.beat for r in ALL_RULES} == {"higher", "equal-or-higher"}
    assert {r.last_of_rank_clears for r in ALL_RULES} == {True, False}


@needs_c
@pytest.mark.parametrize("rules", ALL_RULES + PAIRS, ids=IDS + PAIR_IDS)
def test_random_playout_same_actions_and_order(rules):
    """From the start of a deal and from states part-way through it (Python plays the
    first steps), the C play-out takes the same actions as the Python rule, ends in the same
    state as fastsim.random_playout and leaves the generator where Python leaves it."""
    n = rules.players
    for seed in range(25):
        deal = FastDeal.shuffled(rules, seed * 31 + n, dealer=seed % n)
        pre = random.Random(seed)
        for _ in range(seed % 9 * 3):  # 0 to 24 Python steps first
            if deal.over:
                break
            legal = deal.legal_actions()
            deal.apply(legal[int(pre.random() * len(legal))])
        py, c, ref = deal.copy(), deal.copy(), deal.copy()
        r_py, r_c, r_ref = (random.Random(1000 + seed) for _ in range(3))
        py_actions = _python_random_steps(py, r_py)
        finish, c_actions = compiled.trace(c, r_c, "random")
        assert c_actions == py_actions, (rules.name, n, seed)
        assert finish == py.finish and sorted(finish) == list(range(n))
        assert fastsim.random_playout(ref, r_ref) == finish
        assert _state(c) == _state(ref)
        assert r_c.getstate() == r_py.getstate() == r_ref.getstate()


@needs_c
@pytest.mark.parametrize("policy", ["greedy", "climbing"])
def test_greedy_and_climbing_same_actions(policy):
    """The simple player's policy (greedy) and the climbing one, with their noise, over
    every rules value: same actions, order, state and generator state."""
    for i, rules in enumerate(ALL_RULES):
        for seed in range(15):
            _trace_agrees(rules, policy, seed, i)


def _trace_agrees(rules: Rules, policy: str, seed: int, salt: int) -> None:
    """One shuffled deal played out by the compiled ``policy`` (greedy or climbing, with the
    noise ``seed`` picks) and by the Python one: same actions, finish, state and generator
    state."""
    py_play = fastsim.greedy_playout if policy == "greedy" else fastsim.climbing_playout
    base = FastDeal.shuffled(rules, seed * 7 + salt, dealer=seed % rules.players)
    py, c = _logged(base), base.copy()
    eps = (0.0, 0.1, 0.5)[seed % 3]
    r_py, r_c = random.Random(seed), random.Random(seed)
    py_play(py, r_py, eps)
    finish, c_actions = compiled.trace(c, r_c, policy, epsilon=eps)
    assert c_actions == py.log, (rules.name, rules.players, seed)
    assert finish == py.finish
    assert _state(c) == _state(py)
    assert r_c.getstate() == r_py.getstate()


@needs_c
@pytest.mark.parametrize("policy", ["random", "greedy", "climbing"])
def test_whole_deals_batched_agree(policy):
    """random_deals: shuffle (FastDeal.random) and play-out, many deals per call; 100 deals
    per rules value (4,800 in all per policy), same orders and generator state."""
    total = 0
    for i, rules in enumerate(ALL_RULES):
        leader = i % rules.players
        r_c, r_py = random.Random(i), random.Random(i)
        c = compiled.random_deals(rules, r_c, 100, policy=policy, leader=leader)
        py = [fastsim.playout(FastDeal.random(rules, r_py, leader), r_py, policy)
              for _ in range(100)]
        assert c == py, (rules.name, rules.players)
        assert r_c.getstate() == r_py.getstate()
        total += len(c)
    assert total == 100 * len(ALL_RULES) >= 4000


@needs_c
@pytest.mark.parametrize("policy", ["random", "greedy", "climbing"])
def test_twist_pairs_agree_step_by_step_and_in_batches(policy):
    """Twists combined (each preset with each pair of its twists): the greedy and climbing
    play-outs step for step, and every policy's batched whole deals, as in Python."""
    for i, rules in enumerate(PAIRS):
        for seed in range(6 if policy != "random" else 0):
            _trace_agrees(rules, policy, seed, i)
        r_c, r_py = random.Random(i), random.Random(i)
        leader = i % rules.players
        c_deals = compiled.random_deals(rules, r_c, 30, policy=policy, leader=leader)
        py_deals = [fastsim.playout(FastDeal.random(rules, r_py, leader), r_py, policy)
                    for _ in range(30)]
        assert c_deals == py_deals, (rules.name, rules.players)
        assert r_c.getstate() == r_py.getstate()


def test_pure_path_is_the_python_code():
    rules = Rules.preset("family", players=6, twists=("once-around",))
    a = compiled.random_deals(rules, random.Random(3), 30, pure=True)
    rng = random.Random(3)
    assert a == [fastsim.random_playout(FastDeal.random(rules, rng, 0), rng) for _ in range(30)]
    fd = FastDeal.shuffled(rules, 9)
    ref = fd.copy()
    assert compiled.greedy_playout(fd, random.Random(4)) == \
        fastsim.greedy_playout(ref, random.Random(4))


def test_a_random_subclass_takes_the_python_path():
    class Loaded(random.Random):
        def random(self) -> float:
            return 0.0  # always the first legal action

    rules = Rules.preset("house", players=4)
    fd = FastDeal.shuffled(rules, 5)
    ref = fd.copy()
    assert compiled.random_playout(fd, Loaded(1)) == fastsim.random_playout(ref, Loaded(1))


@needs_c
def test_bad_states_are_refused_not_read():
    rules = Rules.preset("house", players=4)
    fd = FastDeal.shuffled(rules, 1)
    fd.hands[0][0] = 5
    with pytest.raises(ValueError, match="holds 5 cards of rank 0"):
        compiled.random_playout(fd, random.Random(1))
    fd = FastDeal.shuffled(rules, 1)
    fd.ncards[2] += 1
    with pytest.raises(ValueError, match="seat 2: ncards 14 but the hand holds 13"):
        compiled.random_playout(fd, random.Random(1))


@needs_c
def test_out_of_range_seats_and_counts_are_refused_before_they_are_read():
    """A new-user trial crashed the interpreter (a read far outside ncards) with a FastDeal
    whose to_act was 100,000, and found 2**32 read as seat 0 and -5 as a finished deal: every
    play-out that loads a deal refuses such a state with ValueError, in a child process so
    that a crash fails the test instead of ending the run."""
    code = """if True:
        import random
        from president import Rules
        from president.players import compiled
        from president.players.fastsim import FastDeal
        answers = []
        for attr, value in (("to_act", 100_000), ("to_act", 2**32), ("to_act", -5),
                            ("to_act", -2**40), ("players", 2**40), ("last", -7),
                            ("last", 10**6), ("mode", 3), ("need", 2**31),
                            ("finish", [1, 1]), ("finish", [0, 1, 2, 3])):
            for play in (lambda d: compiled.random_playout(d, random.Random(0)),
                         lambda d: compiled.playout(d, random.Random(0), "greedy"),
                         lambda d: compiled.playout(d, random.Random(0), "climbing")):
                d = FastDeal.shuffled(Rules.preset("house", players=4), 3)
                setattr(d, attr, value)
                try:
                    play(d)
                    answers.append(f"{attr}={value}: played")
                except ValueError as e:
                    answers.append("refused")
        print("|".join(answers))
    """
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().split("|") == ["refused"] * 33


@needs_c
def test_empty_hands_outside_the_finishing_order_and_huge_counts_are_refused():
    """A fuzzing trial built FastDeals with empty hands not listed in ``finish``: the
    compiled endgame solver crashed the interpreter and every compiled play-out looked for
    the next seat with cards for ever; and a count of 2**62 deals overflowed a buffer. Each
    now raises (ValueError, or MemoryError for the count); checked in a child process with
    a time limit, so that a crash or a hang fails the test instead of the run."""
    code = """if True:
        import random
        from president import Rules
        from president.players import compiled, endgame
        from president.players.fastsim import FastDeal
        R = Rules.preset("practice")
        out = []
        fd = FastDeal(R, [[1, 1] + [0] * 11, [0] * 5 + [1, 1] + [0] * 6, [0] * 13, [0] * 13], 0)
        for call in (lambda: endgame.solve_wins(fd, 0, limit=None),
                     lambda: endgame.winning_codes(fd, limit=None),
                     lambda: compiled.playout(fd.copy(), random.Random(0), "greedy"),
                     lambda: compiled.random_playout(fd.copy(), random.Random(0)),
                     lambda: compiled.intermediate_playout(fd.copy())):
            try:
                call()
                out.append("answered")
            except ValueError as e:
                out.append("refused" if "finish must list" in str(e) else str(e))
        try:
            compiled.random_deals(R, random.Random(0), 2**62)
            out.append("answered")
        except (ValueError, MemoryError, OverflowError):
            out.append("refused")
        print("|".join(out))
    """
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().split("|") == ["refused"] * 6


@needs_c
def test_python_code_run_by_an_input_cannot_pull_the_state_from_under_the_c_code():
    """A fuzzing trial passed objects whose ``__index__`` changes what the C code is reading:
    a hand list cleared while read, a seat read twice that answers differently, a seat
    argument that deletes an attribute of the kernel's Position. Each crashed the
    interpreter; each is now an error (in a child process, so a crash fails the test)."""
    code = """if True:
        import random
        from president import Rules
        from president import _playout
        from president.players import compiled
        from president.players.fastsim import FastDeal
        from president.kernel import Position
        out = []

        def attempt(call):
            try:
                call()
                out.append("answered")
            except (ValueError, TypeError, IndexError) as e:
                out.append(type(e).__name__)

        fd = FastDeal.shuffled(Rules.preset("house", players=4), 2)
        hand = fd.hands[1]

        class Clears:
            def __index__(self):
                hand.clear()
                return 0
        hand[0] = Clears()
        attempt(lambda: compiled.intermediate_playout(fd))

        class Twice:
            calls = 0
            def __index__(self):
                Twice.calls += 1
                return 0 if Twice.calls == 1 else 10**9
        start = [h[:] for h in FastDeal.shuffled(Rules.preset("house", players=4), 3).hands]
        attempt(lambda: out.append(len(_playout.style_likelihoods(4, 1, 0, 0, start, 0, [],
                                                                  [Twice()], 0.1))))

        k = Position.for_rules(Rules.preset("house", players=4), [13] * 4, 0,
                               cls=_playout.Position)

        class Deletes:
            def __index__(self):
                del k.reversed
                return 0
        attempt(lambda: k.play(Deletes(), 3, 1))
        k2 = Position.for_rules(Rules.preset("house", players=4), [13] * 4, 0,
                                cls=_playout.Position)
        k2.ncards[1] = Clears()          # the next seat, read by the pass
        attempt(lambda: k2.pass_(0))
        k3 = Position.for_rules(Rules.preset("family", players=4, twists=("once-around",)),
                                [13] * 4, 0, cls=_playout.Position)

        class Gone(int):          # freed when a lead replaces round_left: its __del__ ran
            def __del__(self):    # while the C code still read ncards
                k3.ncards = None
        k3.round_left = [Gone(5)]
        attempt(lambda: k3.play(0, 3, 1))
        out.append(k3.ncards)
        print("|".join(str(x) for x in out))
    """
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().split("|") == ["ValueError", "1", "answered", "TypeError",
                                             "TypeError", "answered", "None"]


def test_bad_arguments():
    rules = Rules.preset("house", players=4)
    with pytest.raises(ValueError, match="no playout policy 'best'"):
        compiled.playout(FastDeal.shuffled(rules, 1), random.Random(), "best")
    with pytest.raises(ValueError, match="count must be 0 or more, not -1"):
        compiled.random_deals(rules, random.Random(), -1)
    with pytest.raises(ValueError, match="leader seat 4 does not exist"):
        compiled.random_deals(rules, random.Random(), 1, leader=4)
    assert compiled.random_deals(rules, random.Random(), 0) == []


def _probe(env_extra: dict, code: str) -> str:
    env = dict(os.environ, **env_extra)
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, check=True).stdout.strip()


PROBE = ("import random; from president import Rules; from president.players import compiled;"
         "print(compiled.AVAILABLE, compiled.random_deals(Rules.preset('house', players=5),"
         " random.Random(8), 3))")


def test_president_pure_and_a_missing_build_fall_back_to_python():
    rng = random.Random(8)
    rules = Rules.preset("house", players=5)
    want = str([fastsim.random_playout(FastDeal.random(rules, rng, 0), rng) for _ in range(3)])
    assert _probe({"PRESIDENT_PURE": "1"}, PROBE) == f"False {want}"
    missing = "import sys; sys.modules['president._playout'] = None; " + PROBE
    assert _probe({"PRESIDENT_PURE": ""}, missing) == f"False {want}"
    if compiled.AVAILABLE:
        assert _probe({"PRESIDENT_PURE": ""}, PROBE) == f"True {want}"


def test_measure_deals_reports_figures():
    rules = Rules.preset("house", players=4)
    py = compiled.measure_deals(rules, compiled=False, seconds=0.05)
    assert py["deals"] >= 20 and py["deals_per_cpu_second"] > 0
    c = compiled.measure_deals(rules, compiled=True, seconds=0.05)
    assert (c is None) == (not compiled.AVAILABLE)
    with pytest.raises(ValueError, match="seconds must be above 0"):
        compiled.measure_deals(rules, compiled=False, seconds=0)


@pytest.mark.parametrize("policy", ["random", "greedy", "climbing"])
def test_every_action_taken_is_legal(policy):
    """Both sides take only legal actions (the Python climbing policy once played a two on a
    two under ``beat = higher``; both now pass there)."""
    for i, rules in enumerate(ALL_RULES[::3]):
        for seed in range(10):
            base = FastDeal.shuffled(rules, seed + 100 * i)
            py = _logged(base)
            if policy == "random":
                py.log = _python_random_steps(py, random.Random(seed))
            else:
                compiled.playout(py, random.Random(seed), policy, pure=True)
            runs = [py.log]
            if compiled.AVAILABLE:
                runs.append(compiled.trace(base.copy(), random.Random(seed), policy)[1])
            for actions in runs:
                fd = base.copy()
                for a in actions:
                    assert a in fd.legal_actions(), (rules.name, rules.players, seed, a)
                    fd.apply(a)
                assert fd.over


@needs_c
def test_generator_state_by_getstate_and_directly_agree():
    """The extension reads the generator's memory directly once it has proved the layout at
    import; through getstate/setstate only, the results and the generator state are the
    same."""
    assert compiled._ext.set_direct(True) is True  # proved on this interpreter
    try:
        for direct in (False, True):
            compiled._ext.set_direct(direct)
            rules = Rules.preset("first-night", players=5, twists=("swap",))
            rng = random.Random(42)
            orders = compiled.random_deals(rules, rng, 50, policy="greedy")
            fd = FastDeal.shuffled(rules, 3)
            order = compiled.random_playout(fd, rng)
            ref_rng = random.Random(42)
            assert orders == [fastsim.greedy_playout(FastDeal.random(rules, ref_rng, 0), ref_rng)
                              for _ in range(50)]
            assert order == fastsim.random_playout(FastDeal.shuffled(rules, 3), ref_rng)
            assert rng.getstate() == ref_rng.getstate()
            assert rng.random() == ref_rng.random()
    finally:
        compiled._ext.set_direct(True)


def test_bench_json_has_the_playouts(capsys):
    import json

    from president.cli import main

    assert main(["bench", "--deals", "3", "--no-presets", "--json"]) == 0
    p = json.loads(capsys.readouterr().out)["playouts"]
    assert (p["rules"], p["players"], p["policy"]) == ("house", 4, "random")
    assert p["python"]["deals_per_cpu_second"] > 0 and p["python"]["deals"] >= 20
    if compiled.AVAILABLE:
        assert p["compiled"]["deals_per_cpu_second"] > p["python"]["deals_per_cpu_second"]
    else:
        assert p["compiled"] is None


def _python_deal_hands(players: int, dealer: int, seed: int) -> list[int]:
    """deal.deal_hands's Python statement, through its random.Random path (which the
    compiled copy never takes)."""
    from president.deal import deal_hands
    return deal_hands(players, dealer, random.Random(seed))


@needs_c
def test_compiled_deal_hands_gives_the_python_hands():
    """The C dealing (president._playout.deal_hands, which deal.deal_hands uses for seeds
    below 2**64) gives every seed's hands exactly as random.Random(seed).shuffle does, at
    every table size of the registries and every dealer, seeds of every width included."""
    from president import _playout
    from president.deal import deal_hands
    rng = random.Random(12)
    seeds = [0, 1, 2**32 - 1, 2**32, 2**63, 2**64 - 1] + [rng.getrandbits(32) for _ in range(150)] \
        + [rng.getrandbits(64) for _ in range(150)]
    sizes = sorted({r.players for r in ALL_RULES})
    assert sizes == [3, 4, 5, 6, 7]
    for n in sizes:
        for seed in seeds:
            dealer = seed % n
            want = _python_deal_hands(n, dealer, seed)
            assert _playout.deal_hands(n, dealer, seed) == want
            assert deal_hands(n, dealer, seed) == want
    # outside its range the compiled copy refuses, and deal_hands takes the Python path
    with pytest.raises(OverflowError):
        _playout.deal_hands(4, 0, 2**64)
    with pytest.raises(OverflowError):
        _playout.deal_hands(4, 0, -1)
    with pytest.raises(ValueError, match="dealer seat"):
        _playout.deal_hands(4, 4, 1)
    with pytest.raises(TypeError):
        _playout.deal_hands(4, 0, 1.5)
    for seed in (2**64, 2**127 + 5, -7):
        assert deal_hands(4, 1, seed) == _python_deal_hands(4, 1, seed)


def test_deal_hands_is_the_python_statement_under_president_pure():
    code = ("from president import deal; print(deal._DEAL_HANDS_C is None, "
            "deal.deal_hands(5, 2, 77))")
    want = _python_deal_hands(5, 2, 77)
    assert _probe({"PRESIDENT_PURE": "1"}, code) == f"True {want}"


@needs_c
def test_compiled_listing_of_plays_gives_the_python_list(monkeypatch):
    """Deal.legal_actions lists the same actions, in the same order, with its byte loop in C
    (president._playout.list_plays) as with the Python loop, at every decision of random
    deals under every rules value of the registries (reversal's reversed order included)."""
    from president import deal as deal_module
    from president.deal import Deal
    from president.match import Match
    assert deal_module._LIST_PLAYS_C is not None
    rng = random.Random(31)
    seen = 0
    for rules in ALL_RULES:
        match = Match(rules, seed=rng.getrandbits(32))
        for _ in range(3):
            while match.phase in ("play", "exchange"):
                actions = match.legal_actions()
                if match.phase == "play":
                    monkeypatch.setattr(deal_module, "_LIST_PLAYS_C", None)
                    python = Deal.legal_actions(match.deal)
                    monkeypatch.undo()
                    assert actions == python and [type(a) for a in actions] == \
                        [type(a) for a in python]
                    seen += 1
                match.act(match.to_act, actions[rng.randrange(len(actions))])
            if match.phase == "match-over":
                break
            match.start_next_deal()
    assert seen > 1000 * len(ALL_RULES) // 10


@needs_c
def test_compiled_listing_refuses_what_it_cannot_read():
    from president import _playout
    from president.actions import PAIR_ALL, PAIR_BY_COUNT, PASS
    assert _playout.list_plays(PAIR_BY_COUNT[2], 0, 5, 13, PASS) == [PASS]
    assert _playout.list_plays(PAIR_BY_COUNT[1], 1 << 51, 13, 13, PASS) == [PASS]   # none beats
    assert _playout.list_plays(PAIR_ALL, 0b0011, 0, 13, None) == \
        [Play.parse("3C"), Play.parse("3D"), Play.parse("3C 3D")]
    # ranks start to stop - 1 only: a four (bits 4-7) and a five (8-11), from the four up to it
    assert _playout.list_plays(PAIR_BY_COUNT[1], 0b0001_0001_0001, 1, 2, PASS) == \
        [Play.parse("4C"), PASS]
    with pytest.raises(ValueError, match="0 <= start <= stop <= 13"):
        _playout.list_plays(PAIR_ALL, 1, 0, 14, None)
    with pytest.raises(ValueError, match="0 <= start <= stop <= 13"):
        _playout.list_plays(PAIR_ALL, 1, 5, 4, None)
    with pytest.raises(ValueError, match="a mask of the 52 cards"):
        _playout.list_plays(PAIR_ALL, 1 << 52, 0, 13, None)
    with pytest.raises(TypeError, match="13 rows"):
        _playout.list_plays((), 1, 0, 13, None)
    with pytest.raises(TypeError, match="takes table, hand, start, stop and tail"):
        _playout.list_plays(PAIR_ALL, 1)
