"""The kernel's state of the play in C (``president._playout.Position``, president/native/_position.h)
against the Python statement (:class:`president.kernel.Position`): from the same start, the
same transitions give the same outcomes and leave every attribute alike.

Every rules value comes from the registries (every preset, alone and with each of its
twists, ``reversal`` included, at every table size it allows), so a new preset or twist is
checked here without editing this file. The Python class is the reference."""

from __future__ import annotations

import copy
import os
import pickle
import random
import subprocess
import sys

import pytest

from president import deal as deal_module
from president.kernel import (PASS, STATE_SLOTS, Position, RANKS, legal_actions)
from president.match import Match
from president.rules import Rules
from tests.helpers import all_rules, import_compiled, needs_compiled, twist_pairs

_playout = import_compiled("president._playout") if os.environ.get("PRESIDENT_PURE") != "1" \
    else None
needs_c = needs_compiled(_playout is not None and hasattr(_playout, "Position"))

ATTRS = STATE_SLOTS + ("reversal", "reversed")


ALL_RULES = all_rules()


def _state(k: object) -> dict[str, object]:
    return {a: getattr(k, a) for a in ATTRS}


def _random_hands(rng: random.Random, players: int) -> list[list[int]]:
    """Counts per rank for each seat: the 52 cards dealt one at a time, as a deal does."""
    deck = [r for r in range(RANKS) for _ in range(4)]
    rng.shuffle(deck)
    hands = [[0] * RANKS for _ in range(players)]
    for i, r in enumerate(deck):
        hands[i % players][r] += 1
    return hands


def _play_both(rules: Rules, rng: random.Random, hoard: bool) -> int:
    """One deal played by random legal actions on both states side by side; every outcome and
    every attribute compared after every action. ``hoard``: seats lead their biggest set (so
    more fours of a kind, last-of-rank clears and reversals). Returns the actions taken."""
    n = rules.players
    hands = _random_hands(rng, n)
    leader = rng.randrange(n)
    counts = [sum(h) for h in hands]
    py = Position.for_rules(rules, counts, leader)
    c = Position.for_rules(rules, counts, leader, cls=_playout.Position)
    assert type(c).__name__ == "Position" and type(c) is not Position
    assert _state(c) == _state(py)
    steps = 0
    while py.to_act >= 0:
        seat = py.to_act
        acts = legal_actions(hands[seat], py.need, py.top, py.strict, py.reversed)
        if hoard and py.need == 0:
            act = max(acts, key=lambda a: (a % 4, rng.random()))
        else:
            act = acts[rng.randrange(len(acts))]
        if act == PASS:
            got, want = c.pass_(seat), py.pass_(seat)
        else:
            rank, count = act // 4, act % 4 + 1
            hands[seat][rank] -= count
            got, want = c.play(seat, rank, count), py.play(seat, rank, count)
        assert got == want, (rules.name, n, steps, act)
        assert _state(c) == _state(py), (rules.name, n, steps, act)
        steps += 1
    return steps


@needs_c
def test_compiled_position_takes_the_python_transitions_under_every_rules_value():
    rng = random.Random(2026_12_02)
    steps = 0
    for rules in ALL_RULES:
        for deal in range(6):
            steps += _play_both(rules, rng, hoard=deal % 2 == 1)
    assert steps > 60 * 6 * len(ALL_RULES)


@needs_c
def test_compiled_position_takes_the_python_transitions_under_twists_combined():
    """Each preset with each pair of its twists, ``reversal`` included (the list above has
    them one at a time)."""
    rng = random.Random(2026_12_04)
    pairs = twist_pairs(compiled=False)
    assert any(r.reversal and r.passing == "sit-out" for r in pairs)
    steps = 0
    for rules in pairs:
        for deal in range(4):
            steps += _play_both(rules, rng, hoard=deal % 2 == 1)
    assert steps > 60 * 4 * len(pairs)


@needs_c
def test_a_deal_runs_on_the_compiled_position_and_agrees_with_the_python_one(monkeypatch):
    """Whole matches through Match: the same seed gives the same events with the compiled
    Position as with the Python class (and Deal uses the compiled one when it is built)."""
    assert deal_module._POSITION_C is _playout.Position
    rng = random.Random(5)
    for rules in ALL_RULES[::3]:
        seed = rng.getrandbits(32)
        logs = []
        for compiled in (True, False):
            if not compiled:
                monkeypatch.setattr(deal_module, "_POSITION_C", None)
            match = Match(rules, seed=seed)
            pick = random.Random(seed)
            for _ in range(3):
                while match.phase in ("play", "exchange"):
                    actions = match.legal_actions()
                    match.act(match.to_act, actions[pick.randrange(len(actions))])
                if match.phase == "match-over":
                    break
                match.start_next_deal()
            assert isinstance(match.deal.state, Position) != compiled
            logs.append((match.events, match.scores))
            monkeypatch.undo()
        assert logs[0] == logs[1], rules.name


@needs_c
def test_compiled_position_copies_pickles_and_refuses_bad_input():
    rules = Rules.preset("family", players=5, twists=("once-around",))
    k = Position.for_rules(rules, [11, 11, 10, 10, 10], 2, cls=_playout.Position)
    assert k.play(2, 3, 1) == 0 and k.round_left == [3, 4, 0, 1]
    for twin in (copy.deepcopy(k), pickle.loads(pickle.dumps(k)), copy.copy(k)):
        assert type(twin) is _playout.Position and _state(twin) == _state(k)
    twin = copy.deepcopy(k)
    assert twin.pass_(3) == 0 and twin.to_act == 4 and k.to_act == 3   # independent
    assert twin.round_left == [4, 0, 1] and k.round_left == [3, 4, 0, 1]
    with pytest.raises(TypeError, match="strict, mode and clears"):
        _playout.Position(4, [13] * 4, 0)
    with pytest.raises(IndexError, match="not a seat"):
        k.pass_(9)
    with pytest.raises(IndexError, match="not a seat"):   # the Python class would store -2
        k.pass_(-2)
    twin = copy.deepcopy(k)
    twin.round_left = [3, -2]          # -2 was once read as the C code's own error value
    with pytest.raises(ValueError, match="round_left holds -2, not a seat"):
        twin.pass_(3)
    with pytest.raises(ValueError, match="a rank is 0 to 12"):
        k.play(3, 13, 1)
    k.need = None
    with pytest.raises(TypeError, match="need must be an int"):
        k.pass_(3)
    k.need = 1
    k.ncards = [1, 2]
    with pytest.raises(ValueError, match="ncards has 2 seats"):
        k.pass_(3)


def test_deal_uses_the_python_position_under_president_pure():
    code = ("from president import Match, Rules; from president.kernel import Position;"
            "m = Match(Rules.preset('house'), seed=3); print(type(m.deal.state) is Position)")
    env = dict(os.environ, PRESIDENT_PURE="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "True"


@pytest.mark.parametrize("mode", [0, 1, 2])
def test_a_state_where_no_seat_holds_cards_raises_instead_of_looping(mode):
    """A new-user trial set every count of a copied match's state to 0 and passed: the Python
    statement looped for ever. Both classes now raise ValueError saying why (a deal never
    reaches such a state: it ends when one seat is left holding cards)."""
    classes = [Position] + ([_playout.Position] if _playout is not None
                            and hasattr(_playout, "Position") else [])
    for cls in classes:
        k = cls(4, [3, 3, 3, 3], 1, strict=True, mode=mode, clears=0)
        assert k.play(1, 5, 1) == 0
        k.ncards[:] = [0, 0, 0, 0]
        if mode != 2:
            with pytest.raises(ValueError, match="no seat holds cards"):
                k.pass_(k.to_act)
        with pytest.raises(ValueError, match="no seat holds cards"):
            k.next_with_cards(0)
        with pytest.raises(ValueError, match="no seat holds cards"):
            k._clear(1)
        if mode == 0:   # seat 1 plays its last card, and no one else holds any
            k = cls(4, [3, 3, 3, 3], 1, strict=True, mode=mode, clears=0)
            k.ncards[:] = [0, 1, 0, 0]
            with pytest.raises(ValueError, match="no seat holds cards"):
                k.play(1, 5, 1)
