"""president.env.pg: the masked policy, its bot playing legal actions (exchange gives
included), and a short training run. The learning itself is measured by its command
(docs/env.md), not here: minutes of training do not belong in the test suite."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numpy")

from president import Match, Rules  # noqa: E402
from president.env import NUM_ACTIONS, OBS_SIZE  # noqa: E402
from president.env.pg import Policy, PolicyPlayer, train  # noqa: E402


def test_policy_gives_no_weight_to_illegal_actions():
    rng = np.random.default_rng(0)
    p = Policy((rng.normal(size=(OBS_SIZE, NUM_ACTIONS)), rng.normal(size=NUM_ACTIONS)))
    mask = (rng.random((5, NUM_ACTIONS)) < 0.2).astype(np.int8)
    mask[:, 52] = 1
    probs = p.probs(rng.random((5, OBS_SIZE)), mask)
    assert np.all(probs[mask == 0] == 0) and np.allclose(probs.sum(axis=1), 1.0)
    assert np.allclose(Policy().probs(np.zeros((1, OBS_SIZE)), mask[:1])[0][mask[0] == 1],
                       1 / mask[0].sum())                     # zeros: uniform over the legal
    with pytest.raises(ValueError, match="weights must be W"):
        Policy((np.zeros((3, 3)), np.zeros(3)))


def test_trained_bot_plays_legal_actions_through_a_match_with_exchanges(tmp_path, monkeypatch):
    policy, _ = train(seconds=1.0, num_envs=8, seed=1)
    path = tmp_path / "w.npz"
    policy.save(str(path))
    bot = PolicyPlayer(weights=str(path))
    m = Match(Rules.preset("first-night", players=5, twists=["swap"]), seed=3)
    gives = 0
    for _ in range(3):                                        # three deals: two exchanges
        while m.to_act is not None:
            seat = m.to_act
            action = bot.act(m.observation(seat))
            assert m.is_legal(seat, action), (m.phase, action)
            gives += m.phase == "exchange"
            m.act(seat, action)
        m.start_next_deal()
    assert gives == 8
    monkeypatch.delenv("PRESIDENT_PG_WEIGHTS", raising=False)
    with pytest.raises(ValueError, match="needs weights"):
        PolicyPlayer()
