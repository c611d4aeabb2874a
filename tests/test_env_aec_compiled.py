"""The AEC environment on the compiled core (``backend="compiled"``) against the Python one
(``backend="python"``): for the same seeds and the same random legal actions, byte-identical
observations of every agent (the one to act and the others, during the episode and after it
ends), masks, rewards, cumulative rewards, terminations, truncations and agent selection,
over every preset and twist of the registries (but reversal, played in Python) and every
table size they allow; refusals and the penalty; PettingZoo's api_test and seed_test on both
backends; the hand-over to the Python table. Skipped when the extension is not built."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from tests.helpers import import_compiled

pytest.importorskip("pettingzoo")
import_compiled("president._vector")  # skipped when not built or under PRESIDENT_PURE=1

from pettingzoo.test import api_test, seed_test  # noqa: E402

from president import Match  # noqa: E402
from president.env import _compiled_vector, env, raw_env  # noqa: E402
from president.errors import IllegalAction  # noqa: E402
from president.rules import Rules  # noqa: E402

from tests.helpers import compiled_env_cases, compiled_env_pair_cases  # noqa: E402


CASES = compiled_env_cases() + compiled_env_pair_cases()  # twists alone, then in pairs


@pytest.fixture(autouse=True)
def _quiet_checker_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


def _twins(**options) -> tuple[raw_env, raw_env]:
    py = raw_env(backend="python", **options)
    c = raw_env(backend="compiled", **options)
    assert (py.backend, c.backend) == ("python", "compiled")
    return py, c


def _same(a, b) -> bool:
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def _compare(py: raw_env, c: raw_env, where) -> None:
    """Everything an agent or a wrapper can read, byte for byte."""
    assert py.agent_selection == c.agent_selection, where
    assert py.agents == c.agents, where
    for name in ("rewards", "_cumulative_rewards", "terminations", "truncations"):
        assert getattr(py, name) == getattr(c, name), (where, name)
    assert py.infos.keys() == c.infos.keys(), where
    for a in py.infos:
        assert _same(py.infos[a]["action_mask"], c.infos[a]["action_mask"]), (where, a)
    for a in py.possible_agents:
        assert _same(py.observe(a), c.observe(a)), (where, a)


def _play_twins(py: raw_env, c: raw_env, seed: int, episodes: int, rng) -> int:
    """Play ``episodes`` episodes from ``seed`` on both, comparing after every step; the
    first episode seeded, the others continuing the generator. Returns the steps taken."""
    steps = 0
    for episode in range(episodes):
        py.reset(seed=seed if episode == 0 else None)
        c.reset(seed=seed if episode == 0 else None)
        _compare(py, c, (episode, "reset"))
        for agent in py.agent_iter(3000):
            assert c.agent_selection == agent
            obs, reward, term, trunc, info = py.last()
            got = c.last()
            assert _same(obs, got[0]) and (reward, term, trunc) == got[1:4]
            assert _same(info["action_mask"], got[4]["action_mask"])
            if term or trunc:
                action = None
            else:
                action = int(rng.choice(np.flatnonzero(info["action_mask"])))
                steps += 1
            py.step(action)
            c.step(action)
            _compare(py, c, (episode, steps))
        assert py.agents == c.agents == []
    assert py._rng is not None and c._rng is not None
    assert py._rng.getstate() == c._rng.getstate()
    return steps


@pytest.mark.parametrize("rules, reward", CASES,
                         ids=[f"{r.name}-{r.players}p-{w}" for r, w in CASES])
def test_same_bytes_as_the_python_environment(rules, reward):
    py, c = _twins(rules=rules, reward=reward)
    steps = _play_twins(py, c, 3 + rules.players, 2, np.random.default_rng(rules.players))
    assert steps > 20


def test_dict_observations_and_options_agree():
    rules = Rules(players=5, beat="equal-or-higher", passing="once-around",
                  last_of_rank_clears=True, first_lead="holder-of:3D", scoring=(3, 2, 1))
    py, c = _twins(rules=rules, reward="points", dict_obs=True)
    _play_twins(py, c, 8, 3, np.random.default_rng(0))


@pytest.mark.parametrize("illegal", ["raise", "penalty"])
def test_refusals_and_the_penalty_agree(illegal):
    py, c = _twins(preset="house", players=4, illegal=illegal, illegal_reward=-2.5)
    for e in (py, c):
        e.reset(seed=5)
    mask = py.infos[py.agent_selection]["action_mask"]
    good = int(np.flatnonzero(mask)[0])
    for e in (py, c):
        e.step(good)
    _compare(py, c, "first")
    bads = [99, -1, np.int64(70), None, 1.5, True, "x", int(np.flatnonzero(
        py.infos[py.agent_selection]["action_mask"] == 0)[0])]
    for bad in bads:
        if illegal == "raise":
            with pytest.raises(IllegalAction) as want:
                py.step(bad)
            with pytest.raises(IllegalAction) as got:
                c.step(bad)
            assert str(got.value) == str(want.value) and got.value.reason == "illegal-index"
            _compare(py, c, bad)
        else:
            a, b = _twins(preset="house", players=4, illegal=illegal, illegal_reward=-2.5)
            for e in (a, b):
                e.reset(seed=5)
                e.step(good)
                e.step(bad)
            _compare(a, b, bad)
            assert all(b.terminations.values())
            # the finished agents step out alike
            for agent in a.agent_iter(10):
                assert b.agent_selection == agent
                a.step(None)
                b.step(None)
                _compare(a, b, (bad, agent))
            assert b.agents == []
            assert b.table.terminated          # the hand-over keeps the penalty's end


@pytest.mark.parametrize("backend", ["python", "compiled"])
@pytest.mark.parametrize("preset, players", [("house", 4), ("first-night", 3),
                                             ("family", 7), ("practice", 4)])
def test_pettingzoo_api_and_seed_tests_on_both_backends(backend, preset, players):
    e = env(preset=preset, players=players, backend=backend)
    assert e.backend == backend
    api_test(e, num_cycles=100)
    assert e.backend == backend            # the checker never needed the engine's table
    seed_test(lambda: env(preset=preset, players=players, backend=backend), num_cycles=60)
    api_test(env(preset=preset, players=players, backend=backend, dict_obs=True),
             num_cycles=50)


def test_reading_the_table_hands_over_to_python_mid_episode():
    py, c = _twins(preset="family", players=5, twists=["once-around"])
    rng = np.random.default_rng(4)
    for e in (py, c):
        e.reset(seed=12)
    for _ in range(17):
        a = int(rng.choice(np.flatnonzero(py.infos[py.agent_selection]["action_mask"])))
        py.step(a)
        c.step(a)
    table = c.table                        # replays the 17 actions on the engine's table
    assert c.backend == "python"
    assert table.match is not None and py.table.match is not None
    assert table.match.deal.hands == py.table.match.deal.hands
    _compare(py, c, "hand-over")
    # and the episode goes on alike, now in Python
    for agent in py.agent_iter(3000):
        assert c.agent_selection == agent
        _, _, term, trunc, info = py.last()
        a = None if term or trunc else int(rng.choice(np.flatnonzero(info["action_mask"])))
        py.step(a)
        c.step(a)
        _compare(py, c, agent)
    assert c.agents == []
    c2 = raw_env(preset="family", players=5, twists=["once-around"], backend="compiled")
    c2.reset(seed=12)
    c2.table.load(Match(c2.rules, hands=["3C 4C", "5C 6C", "7C 8C", "9C 10C", "JC QC"],
                        leader=0))
    assert c2.backend == "python" and c2.table.acting() == 0


def test_render_under_the_compiled_backend_is_the_engines_text():
    py, c = _twins(preset="house", players=4, render_mode="ansi")
    for e in (py, c):
        e.reset(seed=1)
    assert c.render() == py.render()
    a = int(np.flatnonzero(py.infos[py.agent_selection]["action_mask"])[0])
    py.step(a)
    c.step(a)
    assert c.render() == py.render() and c.backend == "compiled"


def test_backend_selection_and_errors(monkeypatch):
    monkeypatch.delenv("PRESIDENT_PURE", raising=False)
    assert env(preset="house").backend == "compiled"
    assert env(preset="house", backend="python").backend == "python"
    assert env(preset="house", twists="reversal").backend == "python"
    assert env(preset="house", episode="match").backend == "python"
    with pytest.raises(ValueError, match="backend = 'gpu' is not allowed; choose one of: "
                                         "auto, compiled, python"):
        env(backend="gpu")
    with pytest.raises(ValueError, match="backend = 'compiled' cannot run this environment: "
                                         "episode = 'match'"):
        env(episode="match", backend="compiled")
    monkeypatch.setenv("PRESIDENT_PURE", "1")
    assert env(preset="house").backend == "python"
    monkeypatch.setattr(_compiled_vector, "_ext", None)
    monkeypatch.delenv("PRESIDENT_PURE")
    assert env(preset="house").backend == "python"


def test_a_compiled_environment_copies_and_pickles():
    """copy.deepcopy and pickle give an independent environment at the same state (as the
    Python backend's do), e.g. for a search that branches on copies."""
    import copy
    import pickle

    py, c = _twins(preset="first-night", players=6)
    rng = np.random.default_rng(9)
    for e in (py, c):
        e.reset(seed=30)
    for _ in range(25):
        a = int(rng.choice(np.flatnonzero(py.infos[py.agent_selection]["action_mask"])))
        py.step(a)
        c.step(a)
    for twin in (copy.deepcopy(c), pickle.loads(pickle.dumps(c))):
        assert twin.backend == "compiled"
        _compare(py, twin, "copy")
        branch = copy.deepcopy(py)
        for agent in branch.agent_iter(3000):
            _, _, term, trunc, info = branch.last()
            a = None if term or trunc else int(np.flatnonzero(info["action_mask"])[-1])
            branch.step(a)
            twin.step(a)
            _compare(branch, twin, agent)
        _compare(py, c, "the original did not move")


def test_the_core_refuses_a_bad_snapshot():
    core = _compiled_vector.CompiledTables(2, Rules.preset("house", players=4), "place").core
    data = core.snapshot()
    with pytest.raises(ValueError, match="another number of tables"):
        core.restore(data[:-1])
    bad = bytearray(data)
    bad[:8] = (1 << 60).to_bytes(8, "little")        # a card past the deck in hand 0
    with pytest.raises(ValueError, match="table 0 is not a state of this core"):
        core.restore(bytes(bad))
    core.restore(data)


def _patched(data: bytes, table: int, **fields: int | list[int]) -> bytes:
    """A snapshot with some fields of one table's Deal changed (this build's layout, as
    president/native/_vector.c and _rules.h declare it: 7 hands, 7 played, pile and cleared
    as 64-bit masks, then the RState of 32-bit ints: n, strict, mode, clears, reversal,
    hands[7][13], ncards[7], to_act, need, top, same, last, passes, passed, reversed,
    round_left[7], rl_head, rl_len, finish[7], nfinish, after[7]; then loaded, over)."""
    import struct
    size = len(data) // 2                # two tables
    ints = ["n", "strict", "mode", "clears", "reversal"] + ["hands"] * 91 + ["ncards"] * 7 + \
        ["to_act", "need", "top", "same", "last", "passes", "passed", "reversed"] + \
        ["round_left"] * 7 + ["rl_head", "rl_len"] + ["finish"] * 7 + ["nfinish"] + \
        ["after"] * 7 + ["loaded", "over"]
    at = {}
    for i, name in enumerate(ints):
        at.setdefault(name, 128 + 4 * i)
    out = bytearray(data)
    for name, value in fields.items():
        values = value if isinstance(value, list) else [value]
        for j, v in enumerate(values):
            struct.pack_into("<i", out, table * size + at[name] + 4 * j, v)
    return bytes(out)


def test_the_core_refuses_snapshots_that_would_crash_it_later():
    """A fuzzing trial restored states whose finishing order or once-around round were out of
    range, or repeated a seat: the core took them, and reading rewards or acting then crashed
    the interpreter. Each is now refused by restore, and a good snapshot still restores."""
    import random
    for rules in (Rules.preset("house", players=4),
                  Rules.preset("family", players=4, twists=("once-around",))):
        core = _compiled_vector.CompiledTables(2, rules, "place").core
        core.deal(0, random.Random(1))
        core.deal(1, random.Random(2))
        data = core.snapshot()
        core.restore(data)
        for bad in (dict(over=1, loaded=0, nfinish=0, finish=[10**8]),
                    dict(over=1, loaded=0, nfinish=3, finish=[0, 0, 0]),
                    dict(nfinish=1, finish=[2]),                 # a seat still holding cards
                    dict(passes=-2**30), dict(passed=1 << 20), dict(same=9)):
            with pytest.raises(ValueError, match="table 1 is not a state of this core"):
                core.restore(_patched(data, 1, **bad))
        if rules.passing == "once-around":
            with pytest.raises(ValueError, match="table 0 is not a state of this core"):
                core.restore(_patched(data, 0, need=1, top=3, last=1, rl_len=0,
                                      round_left=[0, 10**8]))
        assert core.snapshot() == data


def test_a_core_whose_init_fails_keeps_its_tables():
    import random
    core = _compiled_vector.CompiledTables(2, Rules.preset("house", players=4), "place").core
    with pytest.raises(MemoryError):
        core.__init__(2**60, 4, 1, 0, 0, [1.0, 0.0, 0.0, -1.0])
    core.deal(1, random.Random(1))       # crashed: the tables were freed, their count kept
    assert len(core.snapshot()) % 2 == 0
