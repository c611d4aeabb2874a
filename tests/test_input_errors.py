"""Bad input to the core gets a clear error with a reason, and changes nothing."""

import pytest

from president import PASS, Card, IllegalAction, Match, NotationError, Rules, RulesError


@pytest.mark.parametrize("text, words", [
    ("banana", "is not a card"),
    ("xyz", "is not a card"),
    ("9s9h", "runs cards together"),
    ("10H10S", "runs cards together"),
    ("9X", "has no suit"),
    ("1H", "has no rank"),
])
def test_unreadable_card_text_says_what_is_wrong(text, words):
    with pytest.raises(NotationError) as info:
        Card.parse(text)
    assert words in info.value.message
    assert info.value.reason == "bad-notation"


@pytest.mark.parametrize("action", [None, 5, [1, 2], object()])
def test_act_with_a_non_action_is_refused_as_bad_notation(action):
    match = Match(Rules.preset("house"), seed=1)
    before = match.snapshot()
    with pytest.raises(IllegalAction) as info:
        match.act(0, action)
    assert info.value.reason == "bad-notation"
    assert match.snapshot() == before


@pytest.mark.parametrize("seat", [-1, 4, 9, "0", True])
def test_a_seat_that_does_not_exist_is_bad_seat(seat):
    match = Match(Rules.preset("house"), seed=1)
    before = match.snapshot()
    with pytest.raises(IllegalAction) as info:
        match.act(seat, PASS)
    assert info.value.reason == "bad-seat"
    assert "seats are 0 to 3" in info.value.message
    assert match.snapshot() == before


def test_wrong_number_of_names_is_a_rules_error_about_players():
    with pytest.raises(RulesError) as info:
        Match(Rules.preset("house"), ["a", "b", "c"])
    assert info.value.option == "players"
    assert "give exactly 4" in info.value.message


def test_a_twist_named_twice_is_refused():
    with pytest.raises(RulesError) as info:
        Rules.parse("house+sit-out+sit-out")
    assert info.value.option == "twist"
