"""The twist ``twos-clear`` of ``house`` and ``family`` (option ``twos_clear``): a play of
twos clears the pile at once and the same player leads again (or, if the twos emptied their
hand, the next seat clockwise with cards). The house-match guide (000_2ebb75a2290c9d05.txt)
and the practice round (003_e6cd2942d7a2654f.txt) name it and keep it out of their main games:
off by default, never in ``practice``. Scenarios in the engine, then the compiled code held to
the Python statement on the same rules."""

from __future__ import annotations

import random

import pytest

from president import PASS, Deal, IllegalAction, Passed, PileCleared, Play, Played, Rules
from president.errors import RulesError
from president.kernel import PASS as PASS_ACTION
from president.kernel import (CLEAR_TWOS, CLEARED_TWOS, GOES_ON, Position, clears_of, decode,
                              legal_actions)
from president.narration import CLEAR_REASONS
from president.rules import TWISTS
from tests.helpers import import_compiled

HOUSE = Rules.preset("house", twists=["twos-clear"])


def run(deal: Deal, script: list[tuple[int, str]]) -> list[object]:
    events: list[object] = []
    for seat, text in script:
        events.extend(deal.apply(seat, PASS if text == "pass" else Play.parse(text)))
    return events


def test_the_twist_is_house_and_family_only_and_off_by_default():
    assert "twos-clear" in TWISTS["house"] and "twos-clear" in TWISTS["family"]
    assert "twos-clear" not in TWISTS["practice"] and "twos-clear" not in TWISTS["first-night"]
    for preset in ("house", "family", "practice", "first-night"):
        assert Rules.preset(preset).twos_clear is False
    assert HOUSE.twos_clear is True and Rules.preset("family", twists=["twos-clear"]).twos_clear
    with pytest.raises(RulesError, match="twos-clear"):
        Rules.preset("practice", twists=["twos-clear"])
    assert Rules.parse("house+twos-clear") == HOUSE and str(HOUSE) == "house+twos-clear"
    assert Rules.from_dict({"preset": "house", "twists": ["twos-clear"]}) == HOUSE


def test_a_single_two_on_a_single_clears_and_its_player_leads():
    deal = Deal.from_hands(HOUSE, ["5C 9D", "2H 3C 4C", "6C 7C", "8C 8D"])
    events = run(deal, [(0, "5C"), (1, "2H")])
    assert events[-2:] == [Played(1, Play.parse("2H"), False), PileCleared("twos", 1, 1)]
    assert deal.to_act == 1 and deal.pile == []


def test_without_the_twist_a_two_waits_for_the_others_to_pass():
    deal = Deal.from_hands(Rules.preset("house"), ["5C 9D", "2H 3C 4C", "6C 7C", "8C 8D"])
    events = run(deal, [(0, "5C"), (1, "2H")])
    assert events[-1] == Played(1, Play.parse("2H"), False)
    assert deal.to_act == 2
    events = run(deal, [(2, "pass"), (3, "pass"), (0, "pass")])
    assert events[-1] == PileCleared("all-passed", 1, 1)


def test_a_pair_of_twos_led_clears_at_once():
    deal = Deal.from_hands(HOUSE, ["2C 2D 4H", "3C 3D", "6C 7C", "8C 8D"])
    assert run(deal, [(0, "2C 2D")])[-1] == PileCleared("twos", 0, 0)
    assert deal.to_act == 0 and deal.pile == [] and deal.pile_count == 0


def test_going_out_on_twos_clears_and_the_next_seat_with_cards_leads():
    deal = Deal.from_hands(HOUSE, ["5C 2S", "6D 3C", "7C 4C", "8C 4D"])
    events = run(deal, [(0, "5C"), (1, "6D"), (2, "7C"), (3, "8C"), (0, "2S")])
    assert events[-1] == PileCleared("twos", 0, 1)     # after seat 0 went out
    assert deal.to_act == 1


def test_equal_plays_cannot_match_twos_that_clear():
    rules = Rules.preset("family", twists=["equal-plays", "twos-clear"])
    deal = Deal.from_hands(rules, ["2C 9D", "2H 3C 4C", "6C 7C", "8C 8D"])
    assert run(deal, [(0, "2C")])[-1] == PileCleared("twos", 0, 0)
    assert deal.to_act == 0           # seat 1 never gets to match the two


def test_twos_clear_in_a_reversed_order_too():
    """Under reversal too the twos are the twos: the lowest rank then, and still a clear."""
    rules = Rules.preset("family", twists=["reversal", "twos-clear"])
    deal = Deal.from_hands(rules, ["9C 9D 9H 9S 5C KC", "4H 2C 3C", "6C 7C", "8C 8D"])
    run(deal, [(0, "9C 9D 9H 9S"), (1, "pass"), (2, "pass"), (3, "pass"), (0, "5C"),
               (1, "4H"), (2, "pass"), (3, "pass"), (0, "pass")])
    assert deal.reversed and deal.to_act == 1 and deal.pile == []
    assert run(deal, [(1, "2C")])[-1] == PileCleared("twos", 1, 1)   # the lowest rank now


def test_an_illegal_play_leaves_the_deal_as_it_was():
    deal = Deal.from_hands(HOUSE, ["5C 9D", "2H 2S 4C", "6C 7C", "8C 8D"])
    run(deal, [(0, "5C")])
    with pytest.raises(IllegalAction):
        deal.apply(1, Play.parse("2H 2S"))      # a pair on a single
    assert deal.to_act == 1 and deal.pile_count == 1 and deal.top_rank == 2   # the 5C
    assert run(deal, [(1, "pass")])[-1] == Passed(1)


def test_the_reason_has_words():
    assert CLEAR_REASONS["twos"] == "twos were played"


def _random_walk(cls, rules: Rules, seed: int) -> list[tuple[int, int]]:
    """Outcomes and seats to act of a random deal on counts, with ``cls`` as the state."""
    rng = random.Random(seed)
    n = rules.players
    hands = [[0] * 13 for _ in range(n)]
    for card in rng.sample(range(52), 52):
        hands[card % n][card // 4] += 1
    s = cls(n, [sum(h) for h in hands], 0, strict=rules.beat == "higher",
            mode=["re-enter", "sit-out", "once-around"].index(rules.passing),
            clears=clears_of(rules))
    trail = []
    while s.to_act >= 0:
        seat = s.to_act
        legal = legal_actions(hands[seat], s.need, s.top, s.strict)
        a = rng.choice(legal)
        if a == PASS_ACTION:
            out = s.pass_(seat)
        else:
            rank, count = decode(a)
            hands[seat][rank] -= count
            out = s.play(seat, rank, count)
        trail.append((out, s.to_act))
    return trail


@pytest.mark.parametrize("rules", [HOUSE, Rules.preset("house", twists=["twos-clear", "sit-out"],
                                                        players=5),
                                   Rules.preset("family", twists=["once-around", "twos-clear"],
                                                players=6),
                                   Rules.preset("family", twists=["equal-plays", "twos-clear"])],
                         ids=str)
def test_the_compiled_position_agrees_with_the_kernel(rules):
    ext = import_compiled("president._playout")
    seen_twos = 0
    for seed in range(60):
        ours, theirs = _random_walk(Position, rules, seed), _random_walk(ext.Position, rules, seed)
        assert ours == theirs
        seen_twos += sum(out == CLEARED_TWOS for out, _ in ours)
    assert seen_twos > 20     # the walks did clear by twos


def test_the_compiled_code_plays_the_twist_and_refuses_a_clearing_rule_it_does_not_know():
    ext = import_compiled("president._playout")
    from president.native import native_supports
    assert ext.CLEARS_KNOWN & CLEAR_TWOS and native_supports(HOUSE)
    s = ext.Position(4, [13] * 4, 0, strict=True, mode=0, clears=CLEAR_TWOS)
    assert s.play(0, 12, 1) == CLEARED_TWOS and s.to_act == 0
    assert s.play(0, 11, 1) == GOES_ON
    with pytest.raises(ValueError, match="clearing rules"):
        ext.Position(4, [13] * 4, 0, strict=True, mode=0, clears=64).play(0, 3, 1)
