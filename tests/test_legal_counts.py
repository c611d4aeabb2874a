"""Legal-action counts from fixed positions (``tests/data/legal_counts.json``), like the
perft files of chess engines: an oracle counted by hand from docs/rules.md, independent of the
engine. Each entry says in ``why`` how its count was reached."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from president import Match, Rules

DATA = json.loads((Path(__file__).parent / "data" / "legal_counts.json").read_text())
POSITIONS = DATA["positions"]


def build(position: dict) -> Match:
    """The match at the position: first deal from ``hands`` and ``moves``; if
    ``next_hands`` is given, the next deal from them after ``exchange_moves``."""
    rules = Rules.parse(position["rules"], players=position["players"],
                        **position.get("options", {}))
    match = Match(rules, hands=position["hands"], first_dealer=position["dealer"],
                  leader=position.get("leader"))
    for move in position["moves"]:
        match.act(match.to_act, move)
    if "next_hands" in position:
        assert match.phase == "between-deals"
        match.start_next_deal(hands=position["next_hands"])
        for move in position["exchange_moves"]:
            match.act(match.to_act, move)
    return match


def perft(match: Match, depth: int) -> int:
    """Number of action sequences of length ``depth`` (a sequence that ends the deal earlier
    counts once)."""
    if depth == 0 or match.phase not in ("play", "exchange"):
        return 1
    actions = match.legal_actions()
    if depth == 1:
        return len(actions)
    total = 0
    for action in actions:
        child = copy.deepcopy(match)
        child.act(child.to_act, action)
        total += perft(child, depth - 1)
    return total


def test_data_file_is_well_formed():
    assert DATA["format"] == "president-legal-counts/1"
    assert len(POSITIONS) >= 15
    names = [p["name"] for p in POSITIONS]
    assert len(set(names)) == len(names)
    for p in POSITIONS:
        assert p["count"] > 0 and p["why"]


@pytest.mark.parametrize("position", POSITIONS, ids=[p["name"] for p in POSITIONS])
def test_legal_action_count(position):
    match = build(position)
    assert perft(match, position["depth"]) == position["count"], position["why"]
    # legal_actions() agrees with is_legal() on every listed action, and lists no repeats.
    actions = match.legal_actions()
    assert len(set(actions)) == len(actions)
    assert all(match.is_legal(match.to_act, a) for a in actions)
