"""The allow-list of the compiled code (:mod:`president.native`): every option of the rules
is decided, a value C does not know is refused in words, and both compiled parts (the
play-outs and the vector core) ask the same list."""

from __future__ import annotations

import dataclasses
import random

import pytest

from president.env import _compiled_vector
from president.native import EVERY_VALUE, NATIVE_VALUES, deal_supported, native_refusal, \
    native_supports
from president.players import compiled
from president.players.playout_state import FastDeal
from president.rules import PRESETS, TWISTS, Rules


def test_every_option_of_the_rules_is_named_in_the_allow_list():
    names = [f.name for f in dataclasses.fields(Rules)]
    missing = [n for n in names if n not in NATIVE_VALUES]
    assert missing == [], f"decide which values of {missing} the C code plays (president.native)"
    assert sorted(NATIVE_VALUES) == sorted(names)


def test_presets_play_in_c_and_the_reversal_twist_does_not():
    for name in PRESETS:
        assert native_supports(Rules.preset(name)), name
        assert native_refusal(Rules.preset(name)) is None
    rules = Rules.preset("house", twists=("reversal",))
    assert not native_supports(rules)
    assert native_refusal(rules) == ("the reversal twist (reversal = on) is played in Python "
                                     "only; the compiled code plays reversal = off")
    assert "reversal" in TWISTS["house"]


def _with(name: str, value: object) -> Rules:
    """House rules with ``name`` set to ``value`` past the rules' own checks: a value a
    later version of the rules might allow."""
    rules = dataclasses.replace(Rules.preset("house"))
    object.__setattr__(rules, name, value)
    return rules


def test_an_unknown_option_value_is_refused_by_name():
    rules = _with("beat", "stronger")
    assert not native_supports(rules)
    assert native_refusal(rules) == ("beat = stronger is played in Python only; the compiled "
                                     "code plays beat = equal-or-higher or higher")
    rules = _with("players", 9)
    assert native_refusal(rules) == ("players = 9 is played in Python only; the compiled code "
                                     "plays players = 2, 3, 4, 5, 6 or 7")


def test_an_option_missing_from_the_table_means_python(monkeypatch):
    monkeypatch.delitem(NATIVE_VALUES, "titles")
    reason = native_refusal(Rules.preset("house"))
    assert reason == ("the option titles is new to the compiled code, which does not play it "
                      "yet; these rules are played in Python only")
    monkeypatch.setitem(NATIVE_VALUES, "titles", EVERY_VALUE)
    assert native_supports(Rules.preset("house"))


def test_both_compiled_parts_ask_the_allow_list(monkeypatch):
    house = Rules.preset("house")
    monkeypatch.setitem(NATIVE_VALUES, "passing", frozenset({"sit-out"}))
    assert not native_supports(house)
    assert compiled._in_c(house) is False
    deal = FastDeal.random(house, random.Random(1), 0)
    assert deal_supported(deal) is False
    assert compiled._in_c(deal) is False
    monkeypatch.delenv("PRESIDENT_PURE", raising=False)
    if _compiled_vector.BUILT:
        assert _compiled_vector.unsupported(house, "deal") == (
            "passing = re-enter is played in Python only; the compiled code plays "
            "passing = sit-out")
        assert "episode = 'match'" in str(_compiled_vector.unsupported(house, "match"))


def test_deals_are_judged_by_the_options_they_carry():
    deal = FastDeal.random(Rules.preset("first-night", players=3), random.Random(2), 0)
    assert deal_supported(deal)
    deal.reversal = True
    assert not deal_supported(deal)
    deal.reversal = False
    deal.mode = 7          # no rules give it: a broken state, which the C loader refuses
    assert deal_supported(deal)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_compiled_and_python_play_outs_agree_under_the_allow_list(name):
    rules = Rules.preset(name)
    a = compiled.random_deals(rules, random.Random(5), 20)
    b = compiled.random_deals(rules, random.Random(5), 20, pure=True)
    assert a == b
