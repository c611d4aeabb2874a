"""Cards, plays, passes and gives, and their text notation (docs/rules.md "Deck", "A play")."""

from __future__ import annotations

import pickle

import pytest

from president import (CARDS, PASS, Card, Give, IllegalAction, NotationError, Pass, Play, Rank,
                       Suit, format_cards, parse_action, parse_cards)
from president.actions import plays_table
from president.cards import cards_from_mask, format_mask, mask_from_cards, parse_mask


def test_rank_order_three_lowest_two_highest():
    """docs/rules.md "Deck" (all seeds): 3 4 5 6 7 8 9 10 J Q K A 2, low to high."""
    symbols = [r.symbol for r in sorted(Rank)]
    assert symbols == ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]
    assert Rank.TWO > Rank.ACE > Rank.KING > Rank.THREE
    assert Rank.parse("T") is Rank.TEN and Rank.parse("10") is Rank.TEN
    assert Rank.parse(" q ") is Rank.QUEEN and Rank.parse("2") is Rank.TWO
    assert Rank.SIX.word == "six"


@pytest.mark.parametrize("text", ["1", "11", "B", "", "0"])
def test_bad_rank(text):
    with pytest.raises(NotationError) as info:
        Rank.parse(text)
    assert info.value.reason == "bad-notation"
    assert "3 4 5 6 7 8 9 10" in info.value.message


@pytest.mark.parametrize("text,canonical", [
    ("10H", "10H"), ("TH", "10H"), ("th", "10H"), ("10♥", "10H"), ("qs", "QS"), ("2C", "2C"),
    ("a♠", "AS"), ("3♦", "3D"), (" 9s ", "9S")])
def test_card_notation(text, canonical):
    card = Card.parse(text)
    assert str(card) == canonical
    assert Card.parse(str(card)) is card
    assert eval(repr(card)) is card


@pytest.mark.parametrize("text", ["", "H", "10", "1H", "10X", "KK", "ZZ", "10HH"])
def test_bad_card_says_what_would_be_right(text):
    with pytest.raises(NotationError) as info:
        Card.parse(text)
    assert info.value.reason == "bad-notation"
    assert "like" in info.value.message or "ranks are" in info.value.message


def test_the_deck_has_52_interned_cards():
    assert len(CARDS) == 52 and len({str(c) for c in CARDS}) == 52
    for i, card in enumerate(CARDS):
        assert card.index == i and card.bit == 1 << i
        assert Card(card.rank, card.suit) is card
        assert pickle.loads(pickle.dumps(card)) is card
    assert Card(Rank.TWO, Suit.SPADES).index == 51
    with pytest.raises(NotationError):
        Card(13, 0)


def test_parse_and_format_cards_round_trip():
    cards = parse_cards("9S, 9d 3C 2H")
    assert format_cards(cards) == "3C 9D 9S 2H"
    assert parse_cards("") == ()
    assert format_cards(parse_cards(format_cards(cards))) == "3C 9D 9S 2H"
    mask = parse_mask("9S 9D")
    assert format_mask(mask) == "9D 9S"
    assert cards_from_mask(mask) == tuple(sorted(parse_cards("9S 9D")))
    assert mask_from_cards(cards_from_mask(mask)) == mask
    with pytest.raises(NotationError) as info:
        parse_cards("9S 9S")
    assert "twice" in info.value.message


def test_play_kinds_and_words():
    """docs/rules.md "A play": 1, 2, 3 or 4 cards of one rank (single, pair, triple, four)."""
    assert Play.parse("KS").kind == "single" and Play.parse("KS").describe() == "single king"
    pair = Play.parse("9S 9D")
    assert (pair.kind, pair.count, pair.rank) == ("pair", 2, Rank.NINE)
    assert pair.describe() == "pair of nines" and str(pair) == "9D 9S"
    assert Play.parse("6C 6D 6H").describe() == "triple of sixes"
    assert Play.parse("4C 4D 4H 4S").kind == "quad"
    assert Play.parse("9D 9S") is pair and Play.of(parse_cards("9S 9D")) is pair
    assert eval(repr(pair)) is pair
    assert pickle.loads(pickle.dumps(pair)) is pair


def test_there_are_195_plays():
    """13 ranks times 15 non-empty sets of suits (docs/rules.md "A play")."""
    plays = [p for row in plays_table() for p in row if p is not None]
    assert len(plays) == 195 == len({str(p) for p in plays})
    assert sum(p.count == 1 for p in plays) == 52
    assert sum(p.count == 2 for p in plays) == 78
    assert sum(p.count == 3 for p in plays) == 52
    assert sum(p.count == 4 for p in plays) == 13
    for p in plays:
        assert Play.parse(str(p)) is p
        assert len({c.rank for c in p.cards}) == 1


@pytest.mark.parametrize("rank,suits", [(3, 0), (0, 16), (13, 1), ("3", 1)])
def test_play_of_rank_and_suit_mask_out_of_range_raises(rank, suits):
    """``Play(rank, suits)`` takes suits 1..15: an empty mask is no play (it returned None)."""
    with pytest.raises(NotationError) as info:
        Play(rank, suits)
    assert "suits 1..15" in info.value.message


@pytest.mark.parametrize("text,reason", [
    ("5C 6C", "mixed-ranks"), ("", "bad-notation"), ("5C 5C", "bad-notation"),
    ("5X", "bad-notation"), ("KS KD 2S", "mixed-ranks")])
def test_bad_plays(text, reason):
    with pytest.raises(IllegalAction) as info:
        Play.parse(text)
    assert info.value.reason == reason
    assert len(info.value.message) > 10


def test_pass_and_parse_action():
    assert Pass() is PASS and str(PASS) == "pass" and repr(PASS) == "PASS"
    assert pickle.loads(pickle.dumps(PASS)) is PASS
    assert parse_action(" Pass ") is PASS
    assert parse_action("9s 9d") is Play.parse("9D 9S")
    give = parse_action("AH 2C", exchange=True)
    assert isinstance(give, Give) and str(give) == "AH 2C"
    assert give == Give.parse("2C AH") and hash(give) == hash(Give.parse("2C AH"))
    assert Give(give.mask) == give and eval(repr(give)) == give
    with pytest.raises(IllegalAction):
        Give.parse("2C 2C")


def test_cards_from_mask_remembers_a_bounded_number_of_answers_and_they_stay_right():
    import random

    from president import cards as C

    rng = random.Random(4)
    masks = [rng.getrandbits(52) for _ in range(C._MASK_CARDS_SIZE + 500)]
    for mask in masks + masks[:50]:          # past the bound, then some asked again
        got = cards_from_mask(mask)
        assert got == C._cards_of(mask)
        assert mask_from_cards(got) == mask
        assert len(C._MASK_CARDS) <= C._MASK_CARDS_SIZE
    assert cards_from_mask(0) == ()
