"""Rules: presets, twists and option values against docs/rules.md ("Options", "Presets")."""

from __future__ import annotations

import pytest

from president import Rules, RulesError
from president.events import TITLE_NAMINGS, title_for_place
from president.rules import (OPTION_HELP, OPTION_VALUES, PRESET_SEEDS, PRESETS, TWISTS,
                             describe_items)

# docs/rules.md "Presets", one row per seed, written out from the table (not from rules.py);
# ``titles`` from "Places and titles" as the seeds name the places (see tests/test_match.py);
# ``give_back`` from ``exchange``: any card (seeds 000, 001), the "worst" cards (seed 004).
PRESET_TABLE = {
    "house": dict(players=(4, 7), beat="higher", passing="re-enter", last_of_rank_clears=False,
                  exchange="one-card", give_back="any", seating="fixed",
                  first_lead="left-of-dealer", later_lead="president", scoring=(2, 1),
                  match_end="points:11", titles="places"),
    "family": dict(players=(4, 7), beat="higher", passing="re-enter", last_of_rank_clears=False,
                   exchange="one-card", give_back="any", seating="by-finish",
                   first_lead="left-of-dealer", later_lead="president", scoring=(2, 1),
                   match_end="points:11", titles="last-to-finish"),
    "practice": dict(players=(4, 4), beat="higher", passing="re-enter",
                     last_of_rank_clears=False, exchange="none", give_back="any",
                     seating="fixed",
                     first_lead="seat:0", scoring=None, match_end="single-deal",
                     titles="places"),
    "first-night": dict(players=(3, 7), beat="equal-or-higher", passing="re-enter",
                        last_of_rank_clears=True, exchange="none", give_back="lowest",
                        seating="by-finish",
                        first_lead="left-of-dealer", later_lead="president", scoring=None,
                        match_end="never", titles="roles"),
}


@pytest.mark.parametrize("name", list(PRESET_TABLE))
def test_presets_match_rules_md(name):
    want = dict(PRESET_TABLE[name])
    lo, hi = want.pop("players")
    for players in range(3, 8):
        if lo <= players <= hi:
            rules = Rules.preset(name, players=players)
            assert rules.players == players
            for option, value in want.items():
                assert getattr(rules, option) == value, option
        else:
            with pytest.raises(RulesError) as info:
                Rules.preset(name, players=players)
            assert info.value.option == "players"
            assert str(lo) in info.value.message
    assert Rules.preset(name).players == lo
    assert set(PRESETS) == set(PRESET_TABLE) == set(PRESET_SEEDS)


@pytest.mark.parametrize("spec,changes", [
    ("house+sit-out", dict(passing="sit-out")),
    ("house+fresh-hands", dict(exchange="none", later_lead="left-of-dealer")),
    ("house+three-deals", dict(match_end="deals:3")),
    ("family+equal-plays", dict(beat="equal-or-higher")),
    ("family+once-around", dict(passing="once-around")),
    ("family+lowest-three-starts", dict(first_lead="holder-of:3C")),
    ("family+lowest-three-starts:3h", dict(first_lead="holder-of:3H")),
    ("first-night+swap", dict(exchange="two-and-one", give_back="lowest")),
    ("first-night+three-of-clubs-starts", dict(first_lead="holder-of:3C")),
])
def test_twists_change_exactly_their_options(spec, changes):
    """docs/rules.md "Named twists" (seeds 000, 001, 004)."""
    preset = spec.split("+")[0]
    base = Rules.preset(preset, players=5)
    rules = Rules.parse(spec, players=5)
    for option in ("beat", "passing", "last_of_rank_clears", "exchange", "give_back", "seating",
                   "first_lead", "later_lead", "scoring", "match_end", "titles"):
        assert getattr(rules, option) == changes.get(option, getattr(base, option)), option
    assert rules.name.startswith(preset + "+")
    assert Rules.from_dict(rules.to_dict()) == rules


def test_twists_combine():
    rules = Rules.parse("house+sit-out+three-deals", players=6)
    assert (rules.passing, rules.match_end, rules.players) == ("sit-out", "deals:3", 6)
    assert rules.name == "house+sit-out+three-deals"


@pytest.mark.parametrize("kwargs,option", [
    (dict(beat="lower"), "beat"),
    (dict(passing="skip"), "passing"),
    (dict(last_of_rank_clears="yes"), "last_of_rank_clears"),
    (dict(exchange="three"), "exchange"),
    (dict(give_back="worst"), "give_back"),
    (dict(give_back=None), "give_back"),
    (dict(seating="random"), "seating"),
    (dict(first_lead="holder-of:XX"), "first_lead"),
    (dict(first_lead="seat:4"), "first_lead"),
    (dict(first_lead="dealer"), "first_lead"),
    (dict(later_lead="scum"), "later_lead"),
    (dict(scoring=(2, -1)), "scoring"),
    (dict(scoring=(5, 4, 3, 2, 1)), "scoring"),
    (dict(scoring=None), "scoring"),  # points:11 needs points
    (dict(match_end="points:0"), "match_end"),
    (dict(match_end="forever"), "match_end"),
    (dict(titles="scum"), "titles"),
    (dict(titles=None), "titles"),
    (dict(players=8), "players"),
    (dict(players=2), "players"),
])
def test_bad_option_values_name_the_option(kwargs, option):
    with pytest.raises(RulesError) as info:
        Rules(**kwargs)
    assert info.value.option == option
    assert info.value.reason == "bad-rules"
    assert len(info.value.message) > 20


@pytest.mark.parametrize("call", [
    lambda: Rules.preset("poker"),
    lambda: Rules.parse("house+swap"),
    lambda: Rules.parse("family+lowest-three-starts:4C"),
    lambda: Rules.parse("house+sit-out:3C"),
    lambda: Rules.preset("house", colour="red"),
    lambda: Rules.from_dict({"preset": "house", "colour": "red"}),
    lambda: Rules.from_dict({"twists": ["sit-out"]}),
])
def test_bad_names_raise_rules_error(call):
    with pytest.raises(RulesError) as info:
        call()
    assert info.value.message


def test_options_override_and_round_trip():
    rules = Rules.preset("house", players=5, scoring="3,2,1", match_end="deals:4")
    assert rules.scoring == (3, 2, 1)
    data = rules.to_dict()
    assert data["scoring"] == [3, 2, 1] and data["players"] == 5
    assert Rules.from_dict(data) == rules
    assert Rules.from_dict({"preset": "first-night", "players": 3, "scoring": "none"}).scoring \
        is None
    custom = Rules(players=3, beat="equal-or-higher", match_end="never", scoring=None)
    assert Rules(players=3).name == "custom"
    assert custom.name == "custom/beat=equal-or-higher/scoring=none/match_end=never"
    assert Rules.parse(custom.name, players=3) == custom
    assert Rules.from_dict(custom.to_dict()) == custom


def test_plain_constructor_has_no_preset():
    """``Rules()`` takes every option by keyword; without a preset its ``preset`` is None
    (the ``Rules.preset(...)`` constructor must not leak in as the field's default)."""
    rules = Rules()
    assert rules.preset is None and rules.twists == ()
    assert (rules.players, rules.beat, rules.scoring) == (4, "higher", (2, 1))
    assert Rules.from_dict(rules.to_dict()) == rules
    assert Rules.from_dict({"players": 5, "passing": "sit-out"}).passing == "sit-out"


def test_describe_names_every_option_in_words():
    text = Rules.parse("family+once-around", players=6).describe()
    for word in ("Players: 6", "Beat", "Passing", "Last of a rank", "Exchange", "Seating",
                 "First deal", "Scoring", "Match", "Titles: President, Vice-President, then "
                 "3rd, 4th, ... by finishing place, and last to finish",
                 "Source: a family guide (see docs/rules.md)"):
        assert word in text
    assert "one turn" in text


def test_twist_registry_is_per_preset():
    assert set(TWISTS["house"]) == {"sit-out", "fresh-hands", "three-deals", "reversal",
                                    "twos-clear"}
    assert set(TWISTS["family"]) == {"equal-plays", "once-around", "lowest-three-starts",
                                     "reversal", "twos-clear"}
    assert set(TWISTS["first-night"]) == {"swap", "three-of-clubs-starts"}
    assert TWISTS["practice"] == {}


def test_titles_option_values_words_and_help():
    """The ``titles`` option is checked, listed and explained like the others: its values are
    the namings of :func:`title_for_place`, every option has a "?" help text, and every
    preset's rules say in words how they name the places."""
    assert OPTION_VALUES["titles"] == ", ".join(TITLE_NAMINGS)
    assert set(OPTION_HELP) == set(OPTION_VALUES)
    for name in PRESETS:
        rules = Rules.preset(name)
        items = {option: text for option, _, text in describe_items(rules)}
        assert items["titles"] == TITLE_NAMINGS[rules.titles]
        assert set(items) <= set(OPTION_VALUES)
    assert Rules.preset("house", titles="roles").titles == "roles"
    with pytest.raises(RulesError) as info:
        Rules.preset("house", titles="Scum")
    assert info.value.option == "titles" and "places, last-to-finish" in info.value.message
    with pytest.raises(ValueError):
        title_for_place(1, 4, naming="scum")
    with pytest.raises(ValueError):
        title_for_place(5, 4, naming="places")


@pytest.mark.parametrize("name,players", [("house", 5), ("family", 4), ("practice", 4),
                                          ("first-night", 3), ("first-night", 6)])
def test_stored_rules_without_titles_still_load(name, players):
    """A rules dict written before ``titles`` existed (every other option spelled out, as
    ``to_dict`` wrote it) loads with its preset's naming; without a preset, the default."""
    data = Rules.preset(name, players=players).to_dict()
    del data["titles"]
    assert Rules.from_dict(data) == Rules.preset(name, players=players)
    custom = Rules(players=players, scoring=None, match_end="never").to_dict()
    del custom["titles"]
    assert Rules.from_dict(custom).titles == "places"


def test_give_back_option_values_words_and_help():
    """The ``give_back`` option (docs/rules.md ``exchange``): ``any`` card (seed 000: the President
    "returns any one card"; seed 001: "gives back any card they do not want") or the
    ``lowest`` (seed 004: "President gives two worst cards"), which the swap twist sets. It is
    listed, explained and described like the others, and shown only with an exchange."""
    assert OPTION_VALUES["give_back"] == "any, lowest"
    assert OPTION_HELP["give_back"]
    swap = Rules.parse("first-night+swap", players=5)
    assert swap.give_back == "lowest" and "give_back" in TWISTS["first-night"]["swap"][1]
    items = {option: text for option, _, text in describe_items(swap)}
    assert items["give_back"] == "the giver's lowest cards (any suit among equal ranks)"
    assert list(items).index("give_back") == list(items).index("exchange") + 1
    house = {option: text for option, _, text in describe_items(Rules.preset("house"))}
    assert house["give_back"] == "any card of the giver's choice"   # one card given back
    two = Rules.preset("house", exchange="two-and-one")
    assert {o: t for o, _, t in describe_items(two)}["give_back"] == "any cards of the giver's choice"
    assert "give_back" not in {o for o, _, _ in describe_items(Rules.preset("practice"))}
    assert "at 3 players one card each way" in TWISTS["first-night"]["swap"][0]
    assert Rules.preset("house", give_back="lowest").give_back == "lowest"
    assert Rules.preset("first-night", twists=["swap"], give_back="any").give_back == "any"
    with pytest.raises(RulesError) as info:
        Rules.preset("house", give_back="worst")
    assert info.value.option == "give_back" and "any, lowest" in info.value.message


@pytest.mark.parametrize("spec,players", [("house", 4), ("family", 7), ("practice", 4),
                                          ("first-night", 3), ("first-night+swap", 3),
                                          ("first-night+swap", 6)])
def test_stored_rules_without_give_back_load_as_their_preset(spec, players):
    """A rules dict without ``give_back`` gives back as its preset and twists say, like any
    other option left out (the older meaning of such a dict, any cards, is the record
    reader's: tests/test_records_versions.py). Writing them again spells the key."""
    rules = Rules.parse(spec, players=players)
    data = rules.to_dict()
    assert data["give_back"] == rules.give_back
    del data["give_back"]
    assert Rules.from_dict(data) == rules
    custom = Rules(players=players, exchange="two-and-one", give_back="lowest").to_dict()
    del custom["give_back"]
    assert Rules.from_dict(custom).give_back == "any"      # the constructor's default
