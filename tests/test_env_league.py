"""president.env.league: the Monte-Carlo gradients are the loss's, the scripted bots choose
what they say, and a tiny league run writes snapshots, real ratings and a best network. The
learning itself is measured by its command (docs/learning.md), not here."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

pytest.importorskip("numpy")

from president.env import NUM_ACTIONS, OBS_SIZE  # noqa: E402
from president.env.league import (LeagueConfig, Opponent, batch_highest,  # noqa: E402
                                  batch_lowest, main, mc_gradients, train_league)
from president.env.policy import MLP  # noqa: E402
from president.players import LEVELS  # noqa: E402


def test_mc_gradients_match_finite_differences():
    net = MLP.random((5, 4), seed=2)
    net.layers = [(w.astype(np.float64), b.astype(np.float64) + 0.1)   # float64: exact
                  for w, b in net.layers]
    rng = np.random.default_rng(0)
    obs = rng.random((6, OBS_SIZE))
    actions = rng.integers(0, NUM_ACTIONS, 6)
    targets = rng.uniform(-1, 1, 6)
    loss, grads = mc_gradients(net, obs, actions, targets)
    out = net(obs)[np.arange(6), actions]
    assert loss == pytest.approx(0.5 * np.mean((out - targets) ** 2))
    for k, j, idx in ((0, 0, (3, 1)), (1, 0, (2, 3)), (2, 0, (1, 7)), (2, 1, (actions[0],)),
                      (0, 1, (4,))):
        p = net.layers[k][j]
        old = p[idx]
        p[idx] = old + 1e-6
        up = 0.5 * np.mean((net(obs)[np.arange(6), actions] - targets) ** 2)
        p[idx] = old - 1e-6
        down = 0.5 * np.mean((net(obs)[np.arange(6), actions] - targets) ** 2)
        p[idx] = old
        assert grads[k][j][idx] == pytest.approx((up - down) / 2e-6, rel=1e-4, abs=1e-9)


def test_scripted_bots_play_lowest_and_highest():
    mask = np.zeros((3, NUM_ACTIONS), dtype=np.int8)
    mask[0, [8, 9, 30, 52]] = 1          # threes... : lowest 8 (single five), highest 30
    mask[1, [52]] = 1                    # only the pass
    mask[2, [0, 51]] = 1                 # a lead: single three or four twos
    obs = np.zeros((3, OBS_SIZE), dtype=np.float32)
    assert batch_lowest(obs, mask).tolist() == [8, 52, 0]
    assert batch_highest(obs, mask).tolist() == [30, 52, 51]


def test_tiny_league_writes_snapshots_and_real_ratings(tmp_path):
    out = tmp_path / "run"
    lines: list[str] = []
    summary = train_league(LeagueConfig(
        seconds=2.0, snapshot_seconds=0.7, hidden=(16,), batched_tables=8, level_tables=4,
        ladder=("random", "simple"), batch=64, rate_snapshots=2, rate_against=("random",),
        rate_boards=2, seed=3, out=str(out), log=lines.append))
    try:
        assert len(summary["snapshots"]) >= 3
        assert all(os.path.exists(p) for p in summary["snapshots"])
        assert summary["deals"] > 0 and summary["updates"] > 0
        assert summary["pool"]["simple"]["deals"] > 0 and summary["pool"]["random"]["deals"] > 0
        ratings = {r["bot"]: r["places_ahead"] for r in summary["ratings"]["ratings"]}
        assert set(ratings) == {"snapshot-000", f"snapshot-{len(summary['snapshots']) - 1:03d}",
                                "random"}
        assert sum(r["mean"] for r in ratings.values()) == pytest.approx(0.0, abs=1e-9)
        assert all(r["low"] is not None and r["low"] <= r["mean"] <= r["high"]
                   for r in ratings.values())
        best = MLP.load(summary["best"])
        assert best.sizes == [OBS_SIZE, 16, NUM_ACTIONS] and best.exchange == "simple"
        assert best.trained["recipe"] == "president.env.league" and best.trained["deals"] > 0
        with open(out / "league.json") as f:
            assert json.load(f)["deals"] == summary["deals"]
        assert any("places ahead of the field" in line for line in lines)
    finally:
        for name in list(LEVELS):
            if name.startswith("snapshot-"):
                del LEVELS[name]


def test_engine_levels_play_in_their_own_compiled_tables():
    assert Opponent("simple", level="simple").compiled
    assert Opponent("intermediate", level="intermediate").compiled
    assert not Opponent("expert", level="expert").compiled
    assert not Opponent("lowest", batch_lowest).compiled
    assert Opponent("x", level="simple", score=0.5, boost=3.0).weight() == pytest.approx(0.9)


def test_tiny_league_from_a_saved_network_with_a_boost(tmp_path):
    start = MLP.random((8,), seed=4)
    start.save(str(tmp_path / "start.npz"), half=True)
    summary = train_league(LeagueConfig(
        seconds=1.5, snapshot_seconds=10, hidden=(99,), batched_tables=4, level_tables=4,
        ladder=("random", "simple", "intermediate"), boost=(("intermediate", 50.0),),
        batch=64, rate_snapshots=0, seed=1, init=str(tmp_path / "start.npz"),
        out=str(tmp_path / "run")))
    pool = summary["pool"]
    assert {"lowest", "highest", "random", "simple", "intermediate"} <= set(pool)
    # the boosted level is drawn far more often than the other compiled ones
    assert pool["intermediate"]["deals"] > pool["simple"]["deals"] + pool["random"]["deals"]
    assert summary["ratings"] is None and summary["best"] is None
    last = MLP.load(summary["snapshots"][-1])
    assert last.sizes == [OBS_SIZE, 8, NUM_ACTIONS]          # the init's sizes, not hidden's
    assert last.trained["init"] == str(tmp_path / "start.npz")
    assert last.exchange == "simple"


def test_bad_init_and_boost_are_refused(tmp_path):
    with pytest.raises(ValueError, match=r"boost intermediate=0\.0: give a factor above 0"):
        train_league(LeagueConfig(seconds=1, boost=(("intermediate", 0.0),),
                                  out=str(tmp_path / "a")))
    with pytest.raises(SystemExit):
        main(["--boost", "intermediate=lots", "--out", str(tmp_path / "b")])


def test_command_line_refuses_bad_input(capsys, tmp_path):
    with pytest.raises(SystemExit):
        main(["--hidden", "a,b"])
    assert "--hidden 'a,b': give whole numbers" in capsys.readouterr().err
    assert main(["--ladder", "wizard", "--out", str(tmp_path / "x")]) == 2
    assert "no computer level 'wizard'" in capsys.readouterr().err
