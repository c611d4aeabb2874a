"""president.env.policy: a saved network round-trips, a policy plays whole matches legally as
a player, a registered policy is a level everywhere levels are named, and bad files are
refused saying what is wrong."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("numpy")

from president import Match, Rules  # noqa: E402
from president.env import NUM_ACTIONS, OBS_SIZE, VectorEnv  # noqa: E402
from president.env.policy import MLP, PolicyPlayer, highest_policy, lowest_policy  # noqa: E402
from president.players import LEVELS, make_player, register_level, register_policy  # noqa: E402


def _observations(rows: int = 64) -> tuple[np.ndarray, np.ndarray]:
    v = VectorEnv(rows, preset="house", players=4)
    obs, info = v.reset(seed=5)
    return obs, info["action_mask"]


def _play(bot: PolicyPlayer, rules: Rules, *, deals: int, seed: int) -> tuple[int, int]:
    """Play ``deals`` deals of a match with ``bot`` at every seat; (decisions, gives)."""
    m = Match(rules, seed=seed)
    decisions = gives = 0
    for d in range(deals):
        while m.to_act is not None:
            seat = m.to_act
            action = bot.act(m.observation(seat))
            assert m.is_legal(seat, action), (m.phase, action)
            decisions += 1
            gives += m.phase == "exchange"
            m.act(seat, action)
        if d + 1 < deals:
            m.start_next_deal()
    return decisions, gives


def test_saved_network_round_trips_to_the_same_actions(tmp_path):
    net = MLP.random((32, 16), seed=3)
    net.trained = {"note": "round trip"}
    path = tmp_path / "net.npz"
    net.save(path)
    back = MLP.load(path)
    assert back.sizes == [OBS_SIZE, 32, 16, NUM_ACTIONS] == net.sizes
    assert back.trained == {"note": "round trip"} and back.exchange == "policy"
    obs, mask = _observations()
    assert np.array_equal(back(obs), net(obs))
    acts = net.act(obs, mask)
    assert np.array_equal(back.act(obs, mask), acts)
    assert mask[np.arange(len(acts)), acts].all()             # legal, every row
    with np.load(path) as f:                                   # the plain layout
        meta = json.loads(str(f["meta"]))
        assert sorted(f.files) == ["b0", "b1", "b2", "meta", "w0", "w1", "w2"]
        assert f["w1"].shape == (32, 16) and f["w1"].dtype == np.float32
    assert meta["layers"] == [702, 32, 16, 66] and meta["activation"] == "relu"
    assert meta["observation"] == "president-env-0" and meta["format"] == 1
    half = tmp_path / "half.npz"
    net.save(half, half=True)                                  # float16 on disk
    small = MLP.load(half)
    assert small.layers[0][0].dtype == np.float32
    assert np.array_equal(small.layers[0][0], net.layers[0][0].astype(np.float16))
    assert half.stat().st_size < 0.6 * path.stat().st_size
    # the same choices as players, seat by seat through a match
    m = Match(Rules.preset("house"), seed=11)
    a, b = PolicyPlayer(net), PolicyPlayer(str(path))
    while m.to_act is not None:
        o = m.observation(m.to_act)
        choice = a.act(o)
        assert b.act(o) == choice
        m.act(m.to_act, choice)


@pytest.mark.parametrize("preset,players,twists,deals,exchanges", [
    ("house", 4, [], 3, True), ("first-night", 5, ["swap"], 3, True), ("family", 4, [], 3, True),
    ("house", 7, [], 2, True), ("first-night", 3, [], 3, False), ("practice", 4, [], 1, False),
])
@pytest.mark.parametrize("exchange", ["policy", "simple"])
def test_policy_player_plays_whole_matches_legally(preset, players, twists, deals, exchanges,
                                                   exchange):
    net = MLP.random((24,), seed=players, exchange=exchange)
    rules = Rules.preset(preset, players=players, twists=twists)
    decisions, gives = _play(PolicyPlayer(net), rules, deals=deals, seed=players)
    assert decisions >= 12 * deals
    assert (gives > 0) == exchanges


def test_plain_functions_are_policies_and_illegal_choices_are_refused():
    rules = Rules.preset("house")
    assert _play(PolicyPlayer(lowest_policy), rules, deals=2, seed=1)[0] > 20
    assert _play(PolicyPlayer(highest_policy), rules, deals=2, seed=1)[0] > 20
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    mask[[4, 9, 40, 52]] = 1
    assert lowest_policy(np.zeros(OBS_SIZE), mask) == 4
    assert highest_policy(np.zeros(OBS_SIZE), mask) == 40
    mask[[4, 9, 40]] = 0
    assert highest_policy(np.zeros(OBS_SIZE), mask) == 52      # nothing to play: pass
    m = Match(rules, seed=2)
    with pytest.raises(ValueError, match="chose 65, which is not a legal action index"):
        PolicyPlayer(lambda o, k: 65, level="bad").act(m.observation(m.to_act))
    with pytest.raises(ValueError, match="is not a policy"):
        PolicyPlayer(42)  # type: ignore[arg-type]


def test_registered_policy_is_a_level_for_simulate_and_tournament(tmp_path):
    from president.simulate import SimulationConfig, simulate
    from president.tournament import TournamentConfig, run_tournament
    name = register_policy("test-lowest", lowest_policy)
    try:
        assert make_player(name, seed=1).level == "test-lowest"
        rules = Rules.preset("house")
        result = simulate(SimulationConfig(rules=rules, boards=3, seed=1,
                                           seats=(name, "simple", "simple", "simple")))
        entry = result["levels"][name]
        assert result["deals"] == 12 and entry["seats"] == 1
        assert 1.0 <= entry["mean_place"]["mean"] <= 4.0 and entry["mean_place"]["n"] == 3
        stats = run_tournament(TournamentConfig(rules=rules, bots=(name, "random"), boards=2))
        ratings = {r["bot"]: r["places_ahead"]["mean"] for r in stats.summary()["ratings"]}
        assert set(ratings) == {name, "random"} and ratings[name] == -ratings["random"]
    finally:
        LEVELS.pop(name, None)
    with pytest.raises(ValueError, match="is a built-in level"):
        register_policy("simple", lowest_policy)
    with pytest.raises(ValueError, match="must be a non-empty text"):
        register_policy("a|b", lowest_policy)


def test_saved_file_is_a_level_by_its_path_in_the_command_line(tmp_path, capsys):
    from president.cli import main
    path = str(tmp_path / "bot.npz")
    MLP.random((16,), seed=2, exchange="simple").save(path)
    assert main(["simulate", "--rules", "house", "--seats", f"{path},simple,simple,simple",
                 "--deals", "8", "--seed", "3"]) == 0
    assert path in capsys.readouterr().out
    assert main(["tournament", "--seats", f"{path},random", "--deals", "8"]) == 0
    assert "places ahead" in capsys.readouterr().out
    with pytest.raises(ValueError, match="only where imports are allowed"):
        make_player(path)                          # a name from outside never reads a file
    assert make_player(path, imports=True).level == path
    try:
        assert register_level(path) == path and make_player(path).level == path
    finally:
        LEVELS.pop(path, None)
    import argparse

    from president.commands.serve import add_arguments
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(["--level", path])
    assert args.extra_levels == [path]


def test_bad_files_say_what_is_wrong(tmp_path):
    with pytest.raises(ValueError, match="no policy file"):
        MLP.load(tmp_path / "missing.npz")
    text = tmp_path / "text.npz"
    text.write_text("not an archive")
    with pytest.raises(ValueError, match=r"is not an \.npz archive of arrays") as err:
        MLP.load(text)
    assert "pickle" not in str(err.value)       # numpy's hint to load pickles is not passed on
    broken = tmp_path / "broken.npz"           # a zip's first bytes, then nothing of a zip
    broken.write_bytes(b"PK\x03\x04" + b"\0" * 40)
    with pytest.raises(ValueError, match=r"is not an \.npz archive of arrays"):
        MLP.load(broken)
    with pytest.raises(ValueError, match="is a folder"):
        MLP.load(tmp_path)
    bare = tmp_path / "bare.npz"
    np.savez(bare, w=np.zeros(3))
    with pytest.raises(ValueError, match="has no 'meta' entry"):
        MLP.load(bare)
    net = MLP.random((8,), seed=0)
    good = tmp_path / "good.npz"
    net.save(good)
    with np.load(good) as f:
        arrays = {k: f[k] for k in f.files}
    meta = json.loads(str(arrays["meta"]))
    for change, message in (({"observation": "other-9"}, "trained on observation encoding"),
                            ({"format": 7}, "saved in format 7"),
                            ({"layers": [702, 9, 66]}, r"w0 has shape \(702, 8\)"),
                            ({"activation": "gelu"}, "activation = 'gelu' is not allowed")):
        bad = tmp_path / "bad.npz"
        np.savez(bad, **{**arrays, "meta": np.array(json.dumps({**meta, **change}))})
        with pytest.raises(ValueError, match=message):
            MLP.load(bad)
    with pytest.raises(ValueError, match="must give 66"):
        MLP([(np.zeros((OBS_SIZE, 5)), np.zeros(5))])
    with pytest.raises(ValueError, match="no policy file"):
        make_player(str(tmp_path / "nope.npz"), imports=True)


def test_learned_level_plays_legally():
    bot = make_player("learned", seed=0)
    assert bot.level == "learned"
    decisions, gives = _play(bot, Rules.preset("house"), deals=2, seed=4)  # type: ignore[arg-type]
    assert decisions > 20 and gives > 0
