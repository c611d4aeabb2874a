"""The compiled VectorEnv backend (president._vector) against the Python one: on the same
seeds and the same random legal actions, byte-identical observations, masks, rewards,
terminated, truncated and players over every preset and twist of the registries (but
reversal, played in Python), 3-7 players and both reward kinds, auto-resets included; the
same refusals; backend selection. Skipped when the extension is not built."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from tests.helpers import import_compiled

import_compiled("president._vector")  # skipped when not built or under PRESIDENT_PURE=1

from president.env import _compiled_vector  # noqa: E402
from president.env import vector  # noqa: E402
from president.env.vector import VectorEnv, sample_legal  # noqa: E402
from president.errors import IllegalAction  # noqa: E402
from president.rules import Rules  # noqa: E402
from president.kernel import PASSING  # noqa: E402

from tests.helpers import compiled_env_cases, compiled_env_pair_cases  # noqa: E402


def _option_cases() -> list[tuple[Rules, str]]:
    """Every combination of the options of the play (beat, passing, last of rank) that the
    presets do not reach on their own, at 3 and 7 players; and twists combined."""
    cases = []
    for beat, passing, lor, players in itertools.product(
            ("higher", "equal-or-higher"), PASSING, (False, True), (3, 7)):
        cases.append((Rules(players=players, beat=beat, passing=passing,
                            last_of_rank_clears=lor), "points"))
    cases.append((Rules.preset("family", players=5,
                               twists=["equal-plays", "once-around", "lowest-three-starts:3D"]),
                  "place"))
    cases.append((Rules.preset("house", players=6, twists=["sit-out", "fresh-hands"]), "points"))
    cases.append((Rules(players=4, first_lead="seat:2", scoring=(3, 2, 1)), "points"))
    return cases


CASES = compiled_env_cases() + _option_cases() + compiled_env_pair_cases()


def _twins(rules: Rules, reward: str, n_envs: int = 3) -> tuple[VectorEnv, VectorEnv]:
    py = VectorEnv(n_envs, rules=rules, reward=reward, backend="python")
    c = VectorEnv(n_envs, rules=rules, reward=reward, backend="compiled")
    assert (py.backend, c.backend) == ("python", "compiled")
    return py, c


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def _same_state(py: VectorEnv, c: VectorEnv) -> None:
    """The core's play state equals the engine's, table by table."""
    assert c._compiled is not None
    for i, table in enumerate(py.tables):
        assert table.match is not None
        deal = table.match.deal
        k = deal.state
        got = c._compiled.state(i)
        want = {"hands": list(deal.hands), "played": list(table.played), "pile": sum(
            p.mask for _, p in deal.pile), "cleared": deal.cleared, "ncards": list(k.ncards),
            "finish": list(k.finish), "to_act": k.to_act, "need": k.need, "top": k.top,
            "same": k.same, "last": k.last, "passes": k.passes, "passed": k.passed,
            "round_left": list(k.round_left)}
        assert got == want, i


@pytest.mark.parametrize("rules, reward", CASES,
                         ids=[f"{r.name}-{r.players}p-{w}" for r, w in CASES])
def test_same_bytes_as_the_python_tables(rules, reward):
    py, c = _twins(rules, reward)
    seed = 5 + rules.players
    out_py = py.reset(seed=seed)
    out_c = c.reset(seed=seed)
    rng = np.random.default_rng(rules.players)
    ended = 0
    for step in range(300):
        obs_p, info_p = out_py[0], out_py[-1]
        obs_c, info_c = out_c[0], out_c[-1]
        assert _same(obs_p, obs_c), step
        assert _same(info_p["action_mask"], info_c["action_mask"]), step
        assert _same(info_p["player"], info_c["player"]), step
        if step % 25 == 0:
            _same_state(py, c)
        mask = info_p["action_mask"]
        actions = (rng.random(mask.shape) * mask).argmax(1)
        out_py = py.step(actions)
        out_c = c.step(actions)
        for name, a, b in zip(("rewards", "terminated", "truncated"), out_py[1:4], out_c[1:4]):
            assert _same(a, b), (step, name, a, b)
        ended += int(out_c[2].sum())
    assert ended >= 3                      # auto-resets were compared too
    # reset() without a seed continues each table's generator the same way
    assert _same(py.reset()[0], c.reset()[0])


def test_refusals_are_the_python_words_and_change_nothing():
    py, c = _twins(Rules.preset("house", players=4), "place", n_envs=2)
    obs_p, info_p = py.reset(seed=3)
    obs_c, info_c = c.reset(seed=3)
    mask = info_c["action_mask"]
    good = int(np.flatnonzero(mask[0])[0])
    bad = int(np.flatnonzero(mask[1] == 0)[0])
    for actions in ([good, bad], [66, good], [good, -1], [good, 53], [52, good]):
        if actions == [52, good] and mask[0][52]:
            continue                       # a pass is legal there: not a refusal
        with pytest.raises(IllegalAction) as want:
            py.step(np.array(actions))
        with pytest.raises(IllegalAction) as got:
            c.step(np.array(actions))
        assert got.value.reason == want.value.reason == "illegal-index"
        assert str(got.value) == str(want.value)
        assert str(got.value).startswith(f"table {0 if actions[0] != good else 1}: ")
    # numbers beyond int64 are refused too, with the number given
    with pytest.raises(IllegalAction, match=f"table 1: action {2 ** 64 - 1} is not an action"):
        c.step(np.array([good, 2 ** 64 - 1], dtype=np.uint64))
    # nothing moved: the same outputs, and the next legal step agrees with Python
    after = c._outputs()
    assert _same(after[0], obs_c) and _same(after[1], info_c["action_mask"])
    assert _same(after[2], info_c["player"])
    _same_state(py, c)
    acts = np.array([good, int(np.flatnonzero(mask[1])[0])])
    assert _same(py.step(acts)[0], c.step(acts)[0])


def test_the_first_lead_is_a_refusal_to_pass():
    c = VectorEnv(1, preset="first-night", players=3, backend="compiled")
    _, info = c.reset(seed=0)
    assert info["action_mask"][0][52] == 0         # the leader may not pass
    with pytest.raises(IllegalAction, match=r"table 0: pass is not legal now \(see the action mask\)"):
        c.step([52])


def test_backend_selection_and_errors(monkeypatch):
    monkeypatch.delenv("PRESIDENT_PURE", raising=False)
    assert VectorEnv(2, preset="house", players=4).backend == "compiled"
    assert VectorEnv(2, preset="house", players=4, backend="python").backend == "python"
    assert VectorEnv(2, preset="house", players=4, backend="python").tables
    assert VectorEnv(2, preset="house", players=4, twists="reversal").backend == "python"
    assert VectorEnv(2, preset="house", players=4, episode="match").backend == "python"
    with pytest.raises(ValueError, match="backend = 'gpu' is not allowed; choose one of: "
                                         "auto, compiled, python"):
        VectorEnv(2, backend="gpu")
    with pytest.raises(ValueError, match="backend = 'compiled' cannot run these tables: "
                                         "the reversal twist \\(reversal = on\\) is played in Python only"):
        VectorEnv(2, preset="family", players=4, twists="reversal", backend="compiled")
    with pytest.raises(ValueError, match="cannot run these tables: episode = 'match'"):
        VectorEnv(2, preset="house", players=4, episode="match", backend="compiled")
    with pytest.raises(ValueError, match="reward = 'points' needs rules that score points"):
        VectorEnv(2, preset="practice", reward="points", backend="compiled")   # options first


def test_president_pure_falls_back(monkeypatch):
    monkeypatch.setenv("PRESIDENT_PURE", "1")
    v = VectorEnv(2, preset="house", players=4)
    assert v.backend == "python" and len(v.tables) == 2
    with pytest.raises(ValueError, match="PRESIDENT_PURE=1 is set"):
        VectorEnv(2, preset="house", players=4, backend="compiled")
    obs, _ = v.reset(seed=1)
    monkeypatch.delenv("PRESIDENT_PURE")
    assert _same(obs, VectorEnv(2, preset="house", players=4).reset(seed=1)[0])


def test_shapes_dtypes_fresh_arrays_and_bad_input():
    c = VectorEnv(4, preset="family", players=5, backend="compiled")
    with pytest.raises(RuntimeError, match="call reset"):
        c.step([0, 0, 0, 0])
    obs, info = c.reset(seed=[1, 2, 3, 4])
    assert obs.shape == (4, 702) and obs.dtype == np.float32 and obs.flags.writeable
    assert info["action_mask"].shape == (4, 66) and info["action_mask"].dtype == np.int8
    assert info["player"].shape == (4,) and info["player"].dtype == np.int64
    with pytest.raises(ValueError, match=r"actions must be 4 whole numbers \(shape \(4,\)\)"):
        c.step(np.zeros(4, dtype=np.float32))
    with pytest.raises(ValueError, match="a sequence of 4 ints"):
        c.reset(seed=[1, 2])
    keep = obs.copy()
    acts = np.array([np.flatnonzero(m)[-1] for m in info["action_mask"]], dtype=np.int32)
    obs2, rewards, term, trunc, info2 = c.step(acts)
    assert _same(obs, keep)                        # the earlier arrays are the caller's
    assert rewards.shape == (4, 5) and rewards.dtype == np.float32
    assert term.dtype == bool and trunc.dtype == bool and not trunc.any()


def test_the_core_refuses_bad_calls():
    core = _compiled_vector.CompiledTables(2, Rules.preset("house", players=4), "place").core
    with pytest.raises(RuntimeError, match="table 0 has no deal in play"):
        core.observe(np.empty((2, 702), np.float32), np.empty((2, 66), np.int8),
                     np.empty(2, np.int64))
    hands = [0xF, 0xF0, 0xF00, 0xF000]
    with pytest.raises(ValueError, match="disjoint, non-empty"):
        core.load(0, [0xF, 0xF, 0xF00, 0xF000], 0)
    with pytest.raises(IndexError):
        core.load(2, hands, 0)
    with pytest.raises(ValueError, match="leader"):
        core.load(0, hands, 4)
    core.load(0, hands, 0)
    core.load(1, hands, 1)
    with pytest.raises(ValueError, match="obs must be a C-contiguous buffer of 1404 items"):
        core.observe(np.empty((1, 702), np.float32), np.empty((2, 66), np.int8),
                     np.empty(2, np.int64))
    obs = np.empty((2, 702), np.float32)
    masks = np.empty((2, 66), np.int8)
    players = np.empty(2, np.int64)
    core.observe(obs, masks, players)
    assert players.tolist() == [0, 1]
    assert np.flatnonzero(masks[0]).tolist() == [0, 1, 2, 3]   # one to four threes


def test_without_the_extension_auto_plays_python(monkeypatch):
    monkeypatch.setattr(_compiled_vector, "_ext", None)
    monkeypatch.setattr(_compiled_vector, "BUILT", False)
    assert VectorEnv(2, preset="house", players=4).backend == "python"
    with pytest.raises(ValueError, match=r"president\._vector is not built"):
        VectorEnv(2, preset="house", players=4, backend="compiled")


def test_the_layout_check_agrees_with_the_encoding():
    assert _compiled_vector.BUILT          # the built core writes encoding.PIECES' layout


@pytest.mark.parametrize("rules", [Rules.preset("house", players=4),
                                   Rules.preset("first-night", players=7),
                                   Rules.preset("family", players=5,
                                                twists=["lowest-three-starts:3D"]),
                                   Rules(players=3, first_lead="seat:2")],
                         ids=lambda r: f"{r.name}-{r.players}p")
def test_dealing_in_c_draws_what_python_draws(rules):
    """The core deals in C what deal_hands deals from Table.reset's draws (hands and
    leader), and leaves each generator in the state the Python draws leave it in."""
    import random

    from president.deal import deal_hands
    from president.match import Match

    core = _compiled_vector.CompiledTables(1, rules, "place")
    for seed in range(60):
        mine, theirs = random.Random(seed), random.Random(seed)
        core.deal(0, mine)
        dealer = theirs.randrange(rules.players)
        m = Match(rules.with_options(match_end="single-deal"), seed=theirs.getrandbits(63),
                  first_dealer=dealer, record_events=False)
        state = core.state(0)
        assert state["hands"] == list(m.deal.hands)
        assert state["hands"] == deal_hands(rules.players, dealer, m.deal_seed)
        assert state["to_act"] == m.deal.to_act
        assert mine.getstate() == theirs.getstate()


def test_generators_end_where_the_python_tables_leave_them():
    py, c = _twins(Rules.preset("house", players=5), "place", n_envs=4)
    out = py.reset(seed=11)
    c.reset(seed=11)
    rng = np.random.default_rng(2)
    ended = 0
    for _ in range(200):
        mask = out[-1]["action_mask"]
        actions = (rng.random(mask.shape) * mask).argmax(1)
        out = py.step(actions)
        ended += int(c.step(actions)[2].sum())
    assert ended >= 4
    assert py._rngs is not None and c._rngs is not None
    assert [r.getstate() for r in py._rngs] == [r.getstate() for r in c._rngs]


def test_the_core_deals_from_a_generator_read_through_getstate():
    """A random.Random subclass that keeps its own attributes still deals alike (the
    state may be read through getstate/setstate rather than the generator's memory)."""
    import random

    class Mine(random.Random):
        pass

    core = _compiled_vector.CompiledTables(2, Rules.preset("house", players=4), "place")
    a, b = Mine(3), random.Random(3)
    core.deal(0, a)
    core.deal(1, b)
    assert core.state(0) == core.state(1) and a.getstate() == b.getstate()
    with pytest.raises((TypeError, AttributeError)):
        core.deal(0, object())


@pytest.mark.parametrize("backend", ["python", "compiled"])
def test_step_masks_steps_as_step_does(backend):
    """step_masks gives the rewards, ends, masks and players of step, on both backends,
    and mixing the two keeps the tables on the same episodes."""
    rules = Rules.preset("house", players=4, twists=["sit-out"])
    full = VectorEnv(5, rules=rules, backend="python")
    fast = VectorEnv(5, rules=rules, backend=backend)
    _, info = full.reset(seed=4)
    fast.reset(seed=4)
    rng = np.random.default_rng(5)
    for step in range(250):
        mask = info["action_mask"]
        actions = (rng.random(mask.shape) * mask).argmax(1)
        obs, rewards, term, trunc, info = full.step(actions)
        if step % 7 == 0:
            obs2, *got = fast.step(actions)
            assert _same(obs, obs2)
        else:
            got = list(fast.step_masks(actions))
        for a, b in zip((rewards, term, trunc), got[:3]):
            assert _same(a, b), step
        assert _same(info["action_mask"], got[3]["action_mask"])
        assert _same(info["player"], got[3]["player"])
    with pytest.raises(IllegalAction, match="table 0"):
        fast.step_masks(np.full(5, 66))


def test_dealing_through_getstate_setstate_gives_the_same():
    """With the generator's memory not read directly (the fallback for interpreters whose
    layout the core cannot prove), dealing goes through getstate()/setstate(), to the same
    hands and the same generator state."""
    import random

    from president import _vector

    core = _compiled_vector.CompiledTables(2, Rules.preset("house", players=5), "place")
    assert _vector.direct()
    try:
        assert not _vector.set_direct(False)
        a = random.Random(21)
        a.gauss(0, 1)                      # a gauss_next kept aside must survive
        core.deal(0, a)
    finally:
        assert _vector.set_direct(True)
    b = random.Random(21)
    b.gauss(0, 1)
    core.deal(1, b)
    assert core.state(0) == core.state(1)
    assert a.getstate() == b.getstate()


# ----- sample_legal: the random player of every table at once ---------------------------------

def _sample_cases(rng: np.random.Generator) -> np.ndarray:
    """Masks of real tables (every step of 64 house tables' deals) and synthetic ones with
    1 to 66 legal actions anywhere."""
    v = VectorEnv(64, preset="house", players=4, backend="compiled")
    _, info = v.reset(seed=3)
    rows = []
    for _ in range(60):
        rows.append(info["action_mask"].copy())
        _, _, _, info = v.step_masks(sample_legal(info["action_mask"], rng))
    synthetic = np.zeros((400, 66), dtype=np.int8)
    for row in synthetic:
        row[rng.choice(66, size=int(rng.integers(1, 67)), replace=False)] = 1
    # any nonzero byte is legal (2, -1, -128...), and rows legal only near the end
    loud = synthetic[:100] * rng.choice(np.array([1, 2, 7, 127, -1, -128], dtype=np.int8),
                                       size=(100, 66))
    ends = np.zeros((6, 66), dtype=np.int8)
    for row, legal in zip(ends, ([64], [65], [64, 65], [63, 65], [0, 65], [52, 64])):
        row[legal] = 1
    return np.concatenate(rows + [synthetic, loud, ends])


def test_sample_legal_in_c_and_in_numpy_take_the_same_actions_for_the_same_draws(monkeypatch):
    masks = _sample_cases(np.random.default_rng(1))
    compiled = sample_legal(masks, np.random.default_rng(7))
    monkeypatch.setenv("PRESIDENT_PURE", "1")
    pure = sample_legal(masks, np.random.default_rng(7))
    assert compiled.dtype == pure.dtype == np.int64
    assert np.array_equal(compiled, pure)
    assert masks[np.arange(len(masks)), compiled].all()          # every one legal
    # the rule itself, row by row: the floor(u * k)-th legal action
    u = np.random.default_rng(7).random(len(masks))
    for i in range(0, len(masks), 37):
        legal = np.flatnonzero(masks[i])
        assert compiled[i] == legal[int(u[i] * len(legal))]


@pytest.mark.parametrize("pure", [False, True], ids=["compiled", "numpy"])
def test_sample_legal_is_uniform_and_refuses_bad_masks(monkeypatch, pure):
    if pure:
        monkeypatch.setenv("PRESIDENT_PURE", "1")
    legal = [0, 5, 13, 52, 65]
    masks = np.zeros((20_000, 66), dtype=np.int8)
    masks[:, legal] = 1
    counts = np.bincount(sample_legal(masks, np.random.default_rng(2)), minlength=66)
    assert counts[legal].sum() == 20_000
    assert all(abs(c - 4_000) < 250 for c in counts[legal]), counts[legal]  # ~4 sd
    # a draw just below 1 still lands on the last legal action
    out = np.empty(1, dtype=np.int64)
    one = np.array([np.nextafter(1.0, 0.0)])
    if not pure:
        assert _compiled_vector.sample(masks[:1], one, out) == 0 and out[0] == 65
    assert vector._sample_numpy(masks[:1], one)[0] == 65
    bad = masks[:3].copy()
    bad[1] = 0
    with pytest.raises(ValueError, match="row 1 of masks has no legal action"):
        sample_legal(bad)
    with pytest.raises(ValueError, match=r"shape \(N, 66\)"):
        sample_legal(np.ones((3, 65), dtype=np.int8))
    assert sample_legal(np.zeros((0, 66), dtype=np.int8)).shape == (0,)
