"""VectorEnv with opponents: the computer players played in the compiled core (random,
simple, intermediate) against the same players in Python (backend="python", the engine's
players), byte for byte over many deals for each kind and mixed ones under several presets
and 3-7 players; frozen policies at seats; the deals those of the engine; final observations
and restart; the refusals. Skipped when the extension is not built."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tests.helpers import import_compiled

import_compiled("president._vector")  # skipped when not built or under PRESIDENT_PURE=1

from president.env.vector import RandomIndexPlayer, VectorEnv, sample_legal  # noqa: E402
from president.errors import IllegalAction  # noqa: E402
from president.rules import Rules  # noqa: E402


def lowest_legal(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """A frozen policy: the lowest legal action index of every row."""
    assert observations.dtype == np.float32 and observations.shape[1] == 702
    assert masks.dtype == np.bool_ and masks.shape == (observations.shape[0], 66)
    out: np.ndarray = masks.argmax(1)
    return out


def highest_legal(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """Another frozen policy: the highest legal action index that is not a give."""
    return 52 - masks[:, 52::-1].argmax(1)


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


RULES = {
    "house4": Rules.preset("house", players=4),
    "first-night5": Rules.preset("first-night", players=5),
    "family-once-around6": Rules.preset("family", players=6, twists=["once-around"]),
    "house-sit-out7": Rules.preset("house", players=7, twists=["sit-out"]),
    "first-night3": Rules.preset("first-night", players=3),
}

KINDS = ("random", "simple", "intermediate")


def _lineups(n: int) -> list[list]:
    """Each kind alone (learner at seat 0), then mixed ones with learners elsewhere."""
    out: list[list] = [[None] + [k] * (n - 1) for k in KINDS]
    mixed = [KINDS[(s + 1) % 3] for s in range(n)]
    mixed[n // 2] = None
    out.append(mixed)
    two = [KINDS[s % 3] for s in range(n)]
    two[0] = None
    two[-1] = None
    out.append(two)
    return out


CASES = [(name, lineup) for name, rules in RULES.items()
         for lineup in _lineups(rules.players)]


def _run_pair(rules: Rules, lineup: list, steps: int, n_envs: int = 4, seed: int = 7,
              masks_only_every: int = 5) -> int:
    """Step the two backends with the same random learner actions; every output byte for
    byte. Returns how many episodes ended."""
    py = VectorEnv(n_envs, rules=rules, backend="python", opponents=lineup)
    c = VectorEnv(n_envs, rules=rules, backend="compiled", opponents=lineup)
    o1, i1 = py.reset(seed=seed)
    o2, i2 = c.reset(seed=seed)
    assert _same(o1, o2) and _same(i1["action_mask"], i2["action_mask"])
    assert _same(i1["player"], i2["player"])
    learners = [s for s, o in enumerate(lineup) if o is None]
    assert set(i1["player"].tolist()) <= set(learners)
    rng = np.random.default_rng(seed)
    ended = 0
    for t in range(steps):
        acts = sample_legal(i1["action_mask"], rng)
        if t % masks_only_every == 0:
            r1, te1, tr1, i1 = py.step_masks(acts)
            r2, te2, tr2, i2 = c.step_masks(acts)
        else:
            o1, r1, te1, tr1, i1 = py.step(acts)
            o2, r2, te2, tr2, i2 = c.step(acts)
            assert _same(o1, o2), f"observations differ at step {t}"
        assert _same(r1, r2), f"rewards differ at step {t}"
        assert _same(te1, te2) and _same(tr1, tr2)
        assert _same(i1["action_mask"], i2["action_mask"]), f"masks differ at step {t}"
        assert _same(i1["player"], i2["player"])
        assert set(i1["player"].tolist()) <= set(learners)
        ended += int(te1.sum())
    for g1, g2 in zip(py.generators, c.generators):
        assert g1.getstate() == g2.getstate()
    return ended


@pytest.mark.parametrize(("name", "lineup"), CASES,
                         ids=[f"{n}-{'-'.join(str(o) for o in lu)}" for n, lu in CASES])
def test_compiled_opponents_play_as_the_python_players(name, lineup):
    rules = RULES[name]
    # about 8 learner turns a deal per learner: at least a dozen deals end
    steps = 150 * lineup.count(None)
    ended = _run_pair(rules, lineup, steps)
    assert ended >= 12


def test_many_deals_against_three_intermediate_players():
    """The intermediate player's endgame solve comes up (two seats holding cards) many
    times over 60 deals."""
    ended = _run_pair(RULES["house4"], [None, "intermediate", "intermediate", "intermediate"],
                      steps=500, n_envs=8, seed=3)
    assert ended >= 60


@pytest.mark.parametrize("name", ["house4", "first-night5", "house-sit-out7"])
def test_policy_opponents_match_the_python_backend(name):
    rules = RULES[name]
    n = rules.players
    lineup: list = [None, lowest_legal] + ["intermediate"] * (n - 2)
    lineup[-1] = highest_legal
    ended = _run_pair(rules, lineup, steps=120)
    assert ended >= 10


def test_policy_seats_only_with_learners_elsewhere():
    lineup = [lowest_legal, None, lowest_legal, None]
    assert _run_pair(RULES["house4"], lineup, steps=150) >= 10


def test_the_deals_are_those_of_the_engine_for_the_seed():
    """The first deal at each table is the one VectorEnv without opponents deals (the
    engine's for the seed): every seat's cards at the start, held or played since."""
    rules = RULES["first-night5"]
    plain = VectorEnv(6, rules=rules, backend="python")
    plain.reset(seed=11)
    for backend in ("python", "compiled"):
        v = VectorEnv(6, rules=rules, backend=backend,
                      opponents=[None, "simple", "random", "intermediate", "simple"])
        v.reset(seed=11)
        for i in range(6):
            want = [t.deal.hands for t in [plain.tables[i].match]][0]
            if backend == "python":
                m = v.tables[i].match
                got = [h | p for h, p in zip(m.deal.hands, v.tables[i].played)]
            else:
                assert v._compiled is not None
                s = v._compiled.state(i)
                got = [h | p for h, p in zip(s["hands"], s["played"])]
            assert got == list(want)


def test_each_episode_draws_one_seed_per_opponent_seat_after_the_deal():
    """The generator after reset: the deal's draws, then getrandbits(63) per seat that is
    not a learner (as the single-learner environments seed their computer players)."""
    rules = RULES["house4"]
    v = VectorEnv(2, rules=rules, opponents=[None, "random", lowest_legal, "simple"])
    v.reset(seed=5)
    plain = VectorEnv(2, rules=rules)
    plain.reset(seed=5)
    for g, h in zip(v.generators, plain.generators):
        seeds = [h.getrandbits(63) for _ in range(3)]
        assert g.getstate() == h.getstate()
        assert seeds[0] > 0


def test_random_index_player_draws_one_uniform_per_decision():
    p = RandomIndexPlayer(42)
    mask = bytearray(66)
    for a in (3, 7, 8, 52):
        mask[a] = 1
    u = random.Random(42).random()
    assert p.pick(mask) == [3, 7, 8, 52][int(u * 4)]
    forced = bytearray(66)
    forced[52] = 1
    q = RandomIndexPlayer(42)
    assert q.pick(forced) == 52 and q.rng.getstate() == _after_one(42)


def _after_one(seed: int) -> object:
    g = random.Random(seed)
    g.random()
    return g.getstate()


def test_all_learners_is_the_default_and_unchanged():
    rules = RULES["house4"]
    a = VectorEnv(3, rules=rules)
    b = VectorEnv(3, rules=rules, opponents=[None] * 4)
    assert a.opponents == b.opponents == [None] * 4
    o1, i1 = a.reset(seed=2)
    o2, i2 = b.reset(seed=2)
    assert _same(o1, o2)
    rng = np.random.default_rng(0)
    for _ in range(40):
        acts = sample_legal(i1["action_mask"], rng)
        o1, r1, _, _, i1 = a.step(acts)
        o2, r2, _, _, i2 = b.step(acts)
        assert _same(o1, o2) and _same(r1, r2)
    assert sorted(set(i1["player"].tolist())) != [0]    # every seat is played by the caller


@pytest.mark.parametrize("backend", ["python", "compiled"])
def test_final_observations_and_restart(backend):
    rules = RULES["house4"]
    lineup = [None, "intermediate", "simple", "random"]
    py = VectorEnv(3, rules=rules, backend="python", opponents=lineup, final_obs_seat=0)
    c = VectorEnv(3, rules=rules, backend=backend, opponents=lineup, final_obs_seat=0)
    _, i1 = py.reset(seed=9)
    c.reset(seed=9)
    rng = np.random.default_rng(1)
    finals = 0
    for t in range(60):
        acts = sample_legal(i1["action_mask"], rng)
        o1, r1, te1, _, i1 = py.step(acts)
        o2, r2, te2, _, i2 = c.step(acts)
        assert _same(o1, o2) and _same(r1, r2) and _same(te1, te2)
        assert sorted(i1["final_obs"]) == sorted(i2["final_obs"]) == np.flatnonzero(te1).tolist()
        for i, last in i1["final_obs"].items():
            assert _same(last, i2["final_obs"][i])
            assert last[690 + 3] == 1.0          # phase match-over
            finals += 1
        if t == 30:
            o1, i1 = py.restart([1])
            o2, i2 = c.restart([1])
            assert _same(o1, o2) and list(i1["final_obs"]) == [1]
            assert _same(i1["final_obs"][1], i2["final_obs"][1])
    assert finals >= 5


def test_bad_opponents_are_refused_with_the_reason():
    rules = RULES["house4"]
    with pytest.raises(ValueError, match="no learner seat"):
        VectorEnv(2, rules=rules, opponents=["random"] * 4)
    with pytest.raises(ValueError, match="3 opponents given for a table of 4"):
        VectorEnv(2, rules=rules, opponents=[None, "random", "simple"])
    with pytest.raises(ValueError, match=r"opponents\[2\] = 'master' is not allowed"):
        VectorEnv(2, rules=rules, opponents=[None, "random", "master", "simple"])
    with pytest.raises(ValueError, match="must be a sequence"):
        VectorEnv(2, rules=rules, opponents="random")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="final_obs_seat = 4"):
        VectorEnv(2, rules=rules, final_obs_seat=4)


@pytest.mark.parametrize("backend", ["python", "compiled"])
def test_a_policy_with_a_bad_answer_is_named(backend):
    rules = RULES["house4"]
    v = VectorEnv(2, rules=rules, backend=backend,
                  opponents=[lambda o, m: np.full(len(o), 65), None, None, None])
    with pytest.raises(IllegalAction, match=r"the policy of seat 0"):
        for _ in range(10):     # seat 0 acts within a round of the first lead
            _, info = v.reset(seed=1)
            acts = np.array([np.flatnonzero(m)[0] for m in info["action_mask"]])
            for _ in range(4):
                _, _, _, _, info = v.step(acts)
                acts = np.array([np.flatnonzero(m)[0] for m in info["action_mask"]])
    w = VectorEnv(2, rules=rules, backend=backend,
                  opponents=[lambda o, m: np.zeros((len(o), 2), dtype=np.int64), None, None,
                             None])
    with pytest.raises(ValueError, match="the policy of seat 0 returned shape"):
        for _ in range(10):
            _, info = w.reset(seed=1)
            acts = np.array([np.flatnonzero(m)[0] for m in info["action_mask"]])
            for _ in range(4):
                _, _, _, _, info = w.step(acts)
                acts = np.array([np.flatnonzero(m)[0] for m in info["action_mask"]])


def test_the_python_backend_plays_matches_with_opponents():
    """Under episode="match" (the Python tables) the computer players play the exchanges
    too and the learner meets only its own turns."""
    v = VectorEnv(2, preset="house", players=4, episode="match", max_deals=3,
                  opponents=[None, "random", "simple", "intermediate"])
    assert v.backend == "python"
    _, info = v.reset(seed=4)
    rng = np.random.default_rng(4)
    ends = 0
    for _ in range(400):
        assert (info["player"] == 0).all()
        _, _, te, tr, info = v.step(sample_legal(info["action_mask"], rng))
        ends += int(te.sum() + tr.sum())
    assert ends >= 2


@pytest.mark.parametrize("backend", ["python", "compiled"])
def test_copies_and_pickles_play_on_alike(backend):
    """A copy mid-deal (the random players' generators included) steps as the original."""
    import copy
    import pickle

    v = VectorEnv(3, preset="house", players=4, backend=backend,
                  opponents=[None, "random", "random", "intermediate"])
    _, info = v.reset(seed=1)
    rng = np.random.default_rng(0)
    for _ in range(13):
        _, _, _, _, info = v.step(sample_legal(info["action_mask"], rng))
    w = copy.deepcopy(v)
    u = pickle.loads(pickle.dumps(v))
    for _ in range(40):
        acts = sample_legal(info["action_mask"], rng)
        x, y, z = v.step(acts), w.step(acts), u.step(acts)
        info = x[4]
        for a, b, c in zip(x[:4], y[:4], z[:4]):
            assert _same(a, b) and _same(a, c)


@pytest.mark.parametrize("backend", ["python", "compiled"])
def test_an_illegal_learner_action_names_the_table_and_moves_none(backend):
    rules = RULES["house4"]
    lineup = [None, "intermediate", "random", "simple"]
    v = VectorEnv(3, rules=rules, backend=backend, opponents=lineup)
    w = VectorEnv(3, rules=rules, backend=backend, opponents=lineup)
    _, info = v.reset(seed=6)
    w.reset(seed=6)
    good = sample_legal(info["action_mask"], np.random.default_rng(2))
    bad = good.copy()
    bad[2] = 66
    with pytest.raises(IllegalAction, match="table 2: action 66 is not an action index"):
        v.step(bad)
    a, b = v.step(good), w.step(good)
    for x, y in zip(a[:4], b[:4]):
        assert _same(x, y)
    for g1, g2 in zip(v.generators, w.generators):
        assert g1.getstate() == g2.getstate()


def test_step_at_moves_only_the_tables_listed():
    rules = RULES["first-night5"]
    lineup = [None, "intermediate", None, "simple", "random"]
    py = VectorEnv(4, rules=rules, backend="python", opponents=lineup)
    c = VectorEnv(4, rules=rules, backend="compiled", opponents=lineup)
    o1, i1 = py.reset(seed=8)
    c.reset(seed=8)
    rng = np.random.default_rng(8)
    for t in range(80):
        idx = np.array([k for k in range(4) if (t + k) % 3])
        acts = sample_legal(i1["action_mask"], rng)[idx]
        before = o1
        o1, r1, te1, tr1, i1 = py.step_at(idx, acts)
        o2, r2, te2, tr2, i2 = c.step_at(idx, acts)
        assert _same(o1, o2) and _same(r1, r2) and _same(te1, te2)
        assert _same(i1["action_mask"], i2["action_mask"])
        rest = [k for k in range(4) if k not in idx.tolist()]
        assert _same(o1[rest], before[rest]) and not r1[rest].any()
    with pytest.raises(ValueError, match="distinct tables 0 to 3"):
        c.step_at([1, 1], [0, 0])
