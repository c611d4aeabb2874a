"""Cards, plays and gives are frozen values (issue 12 item 3): once built nothing can change
them, so the interned three of clubs stays a three of clubs for every hand and pile."""

from __future__ import annotations

import copy
import pickle
from dataclasses import FrozenInstanceError

import pytest

from president.actions import PASS, Give, Play
from president.cards import CARDS, Card, Rank


@pytest.mark.parametrize("value,field,new", [
    (Card.parse("3C"), "rank", Rank.TWO),
    (Card.parse("3C"), "suit", 3),
    (Card.parse("3C"), "index", 51),
    (Card.parse("3C"), "bit", 1),
    (Play.parse("9S 9D"), "rank", Rank.KING),
    (Play.parse("9S 9D"), "count", 1),
    (Play.parse("9S 9D"), "mask", 0),
    (Give.parse("AH 2C"), "mask", 0),
    (Give.parse("AH 2C"), "cards", ()),
])
def test_assigning_or_deleting_a_field_raises(value, field, new):
    before = getattr(value, field)
    with pytest.raises(FrozenInstanceError, match=f"cannot assign to field '{field}'"):
        setattr(value, field, new)
    with pytest.raises(AttributeError):
        delattr(value, field)
    assert getattr(value, field) == before


def test_the_three_of_clubs_stays_a_three():
    with pytest.raises(AttributeError):
        Card.parse("3C").rank = Rank.TWO
    assert Card.parse("3C").rank == Rank.THREE and str(CARDS[0]) == "3C"


def test_no_new_attributes_either():
    for value in (Card.parse("QH"), Play.parse("QH"), Give.parse("QH"), PASS):
        with pytest.raises(AttributeError):
            value.note = "x"


def test_copies_and_pickles_keep_values_and_interning():
    c, p, g = Card.parse("10H"), Play.parse("KC KD KS"), Give.parse("2S 2H")
    assert pickle.loads(pickle.dumps(c)) is c and copy.deepcopy(c) is c
    assert pickle.loads(pickle.dumps(p)) is p and copy.copy(p) is p
    g2 = pickle.loads(pickle.dumps(g))
    assert g2 == g and g2.cards == g.cards and copy.deepcopy(g) == g
    assert hash(Give(g.mask)) == hash(g)
