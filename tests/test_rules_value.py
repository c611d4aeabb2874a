"""Rules as an honest value: every way of building the same rules gives one equal value,
with one name and one hash, whose ``str()`` reads back, and which cannot be changed."""

from __future__ import annotations

import dataclasses
import itertools
import pickle

import pytest

from president import Rules, RulesError
from president.rules import PRESETS, TWISTS


def _registry():
    """Every preset with every combination of its twists (read from the registries), at
    every table size the preset allows."""
    for preset, (lo, hi, _) in PRESETS.items():
        names = list(TWISTS[preset])
        for k in range(len(names) + 1):
            for combo in itertools.combinations(names, k):
                for players in range(lo, hi + 1):
                    yield preset, list(combo), players


REGISTRY = list(_registry())


def test_the_registry_has_the_combinations_counted():
    # house and family: 32 twist combinations at 4 sizes; practice: 1; first-night: 4 at 5.
    assert len(REGISTRY) == 32 * 4 + 32 * 4 + 1 + 4 * 5 == 277


@pytest.mark.parametrize("preset,twists,players", REGISTRY)
def test_every_way_of_building_registry_rules_agrees(preset, twists, players):
    """preset(), a sparse dict, the name and str() give the same value; str() is the name
    at the preset's smallest table and names the size at any other."""
    rules = Rules.preset(preset, players=players, twists=twists)
    sparse = {"preset": preset, "twists": twists, "players": players}
    assert Rules.from_dict(sparse) == rules
    assert Rules.from_dict(rules.to_dict()) == rules
    assert Rules.parse(rules.name, players=players) == rules
    assert Rules.parse(str(rules)) == rules
    assert rules.name == "+".join([preset, *twists]) and rules.overrides == {}
    if players == PRESETS[preset][0]:
        assert str(rules) == rules.name
    else:
        assert str(rules) == f"{rules.name}/players={players}"
    assert hash(Rules.parse(str(rules))) == hash(rules)


@pytest.mark.parametrize("preset,twists,players",
                         [r for r in REGISTRY if len(r[1]) >= 2 and r[2] == PRESETS[r[0]][0]])
def test_twists_in_any_order_give_one_value_one_name_one_hash(preset, twists, players):
    orders = [list(p) for p in itertools.permutations(twists)]
    values = [Rules.preset(preset, players=players, twists=order) for order in orders]
    values += [Rules.parse("+".join([preset, *order]), players=players) for order in orders]
    values += [Rules.from_dict({"preset": preset, "twists": order}) for order in orders]
    values += [Rules(preset_name=preset, players=players, twists=tuple(order),
                     **{k: v for k, v in values[0].to_dict().items()
                        if k not in ("preset", "twists", "players")}) for order in orders]
    assert all(v == values[0] for v in values)
    assert {v.name for v in values} == {"+".join([preset, *twists])}
    assert {hash(v) for v in values} == {hash(values[0])}
    assert {v.twists for v in values} == {tuple(twists)}
    assert len(set(values)) == 1


def test_no_two_twists_of_a_preset_set_one_option():
    """So the registry's order never changes what twists given together mean."""
    for preset, twists in TWISTS.items():
        for (a, (_, ca)), (b, (_, cb)) in itertools.combinations(twists.items(), 2):
            assert not set(ca) & set(cb), (preset, a, b)


def test_a_twist_argument_is_spelled_one_way():
    plain = Rules.preset("family", twists=["reversal", "lowest-three-starts"])
    assert Rules.preset("family", twists=["lowest-three-starts:3C", "reversal"]) == plain
    assert plain.twists == ("lowest-three-starts", "reversal")
    other = Rules.parse("family+reversal+lowest-three-starts:3D")
    assert other.twists == ("lowest-three-starts:3D", "reversal")
    assert other.name == "family+lowest-three-starts:3D+reversal"
    assert str(other.first_lead) == "holder-of:3D"
    assert Rules.parse(str(other)) == other
    with pytest.raises(RulesError) as info:
        Rules.preset("family", twists=["reversal", "reversal"])
    assert info.value.option == "twist" and "named twice" in info.value.message
    with pytest.raises(RulesError) as info:
        Rules.preset("house", twists=["sit-out:3C"])
    assert info.value.option == "twist" and "takes no argument" in info.value.message


def test_str_of_custom_rules_reads_back():
    """Custom rules (no preset) write every change from the constructor's defaults, and the
    table size when it is not 4."""
    rules = Rules(players=6, passing="sit-out", scoring="3,2,1", match_end="deals:5")
    assert rules.name == "custom/passing=sit-out/scoring=3,2,1/match_end=deals:5"
    assert str(rules) == "custom/players=6/passing=sit-out/scoring=3,2,1/match_end=deals:5"
    assert Rules.parse(str(rules)) == rules
    assert str(Rules()) == "custom" and Rules.parse("custom") == Rules()
    changed = Rules.preset("house", players=5, twists=["sit-out"], beat="equal-or-higher")
    assert str(changed) == "house+sit-out/players=5/beat=equal-or-higher"
    assert Rules.parse(str(changed)) == changed
    assert f"{changed}" == str(changed)


@pytest.mark.parametrize("spec,players,message", [
    ("house/players=5", 6, "give the table size once"),
    ("house/players=5/players=6", None, "changed twice"),
    ("house/players=3", None, "the house preset is for 4 to 7 players, not 3"),
    ("house/players=five", None, "players = 'five' is not allowed"),
    ("custom/players=8", None, "a table has 3 to 7 players"),
])
def test_a_table_size_in_a_name_is_checked(spec, players, message):
    with pytest.raises(RulesError) as info:
        Rules.parse(spec, players=players)
    assert info.value.option == "players" and message in info.value.message
    assert Rules.parse("house/players=5", players=5).players == 5


def test_a_rules_value_cannot_be_changed():
    rules = Rules.preset("first-night", players=5, twists=["swap"])
    assert not hasattr(rules, "__dict__")
    with pytest.raises(AttributeError):
        rules.__dict__  # noqa: B018
    for name, value in (("give_back", "any"), ("players", 6), ("twists", ()),
                        ("preset", "house"), ("something_new", 1)):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(rules, name, value)
    with pytest.raises(dataclasses.FrozenInstanceError):
        del rules.beat
    assert rules == Rules.preset("first-night", players=5, twists=["swap"])
    assert rules.with_options(give_back="any").give_back == "any"
    assert rules.give_back == "lowest"
    assert pickle.loads(pickle.dumps(rules)) == rules
