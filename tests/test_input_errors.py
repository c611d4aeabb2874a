"""Bad input to the core gets a clear error with a reason, and changes nothing."""

import pytest

from president import PASS, Card, IllegalAction, Match, NotationError, Rules, RulesError


@pytest.mark.parametrize("text, words", [
    ("banana", "is not a card"),
    ("xyz", "is not a card"),
    ("9s9h", "runs cards together"),
    ("10H10S", "runs cards together"),
    ("9X", "does not end in a suit"),
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



def test_deal_seeds_can_be_too_large_to_search():
    """A server deals from 128-bit seeds: trying every seed against one's own hand is out of
    reach (with 32-bit seeds it takes hours on one core)."""
    short = Match(Rules.preset("house"), seed=5)
    long = Match(Rules.preset("house"), seed=5, deal_seed_bits=128)
    assert short.deal_seed < 2 ** 32
    assert long.deal_seed.bit_length() > 64
    with pytest.raises(RulesError) as info:
        Match(Rules.preset("house"), deal_seed_bits=16)
    assert info.value.option == "deal_seed_bits"


def test_web_tables_deal_from_unsearchable_seeds():
    pytest.importorskip("fastapi")
    from president.web.tables import Tables

    tables = Tables(sealer=None, bot_delay=0)
    table = tables.create(kind="match", preset="house", players=4)
    assert table.match.deal_seed_bits == 128
    assert table.match.deal_seed.bit_length() > 64
    assert table.seed.bit_length() > 64
