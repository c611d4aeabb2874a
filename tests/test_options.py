"""The options defined once (president/rules.py ``OPTIONS``): typed values, the structured
first lead and end of a match, the docs table made from the definitions, ``Rules.preset`` as
constructor and field, and rules names that carry their overrides and parse back."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from president import Rules, RulesError
from president.cards import CARDS, Card
from president.events import TITLE_NAMINGS
from president.rules import (OPTION_HELP, OPTION_VALUES, OPTIONS, PRESETS, TWIST_DEFAULT_ARG,
                             TWISTS, FirstLead, MatchEnd, Titles, describe_items,
                             options_table)

ROOT = Path(__file__).resolve().parents[1]


# ----- one definition per option -----------------------------------------------------

def test_docs_options_table_is_the_generated_one():
    """docs/rules.md "Options" shows the table that the definitions make."""
    lines = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8").splitlines()
    start = lines.index(options_table().splitlines()[0])
    end = start
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    assert "\n".join(lines[start:end]) == options_table()


def test_public_tables_come_from_the_definitions():
    assert list(OPTION_VALUES) == list(OPTION_HELP) == list(OPTIONS)
    for name, option in OPTIONS.items():
        assert option.name == name
        assert OPTION_VALUES[name] == option.values and OPTION_HELP[name] == option.help
        assert option.label and option.meaning and option.sources()
        if option.choices is not None:
            assert option.values == ", ".join(option.choices)
            assert option.table_values == " · ".join(f"`{v}`" for v in option.choices)
            assert set(option.texts) == set(option.choices)
    assert [o for o in OPTIONS if o not in ("players", "preset_name", "twists")] == \
        [f for f in Rules.__dataclass_fields__ if f not in ("players", "preset_name", "twists")]
    assert set(Titles) == set(TITLE_NAMINGS)


@pytest.mark.parametrize("name", [n for n, o in OPTIONS.items() if o.choices is not None])
def test_every_value_of_a_choice_is_allowed_and_said_in_words(name):
    """Each value of a choice option builds rules, is stored as its enum member (equal to its
    text) and has its own words in ``describe_items``."""
    option = OPTIONS[name]
    assert option.choices is not None
    texts = set()
    for value in option.choices:
        extra = {"exchange": "one-card"} if name == "give_back" else {}
        rules = Rules(**{name: str(value)}, **extra)
        assert getattr(rules, name) is value and getattr(rules, name) == str(value)
        items = {o: t for o, _, t in describe_items(rules)}
        texts.add(items[name])
    assert len(texts) == len(option.choices)
    with pytest.raises(RulesError) as info:
        Rules(**{name: "no-such-value"})
    assert info.value.option == name and option.values in info.value.message


def test_sources_name_each_preset_seed():
    """The seeds column is read from the registries: every preset's seed is named for every
    option, and a twist by its seed where it sets the option."""
    from president.rules import PRESET_SEEDS
    for option in OPTIONS.values():
        text = option.sources()
        for preset in PRESETS:
            assert PRESET_SEEDS[preset][:3] in text
        for preset, twists in TWISTS.items():
            for twist, (_, changes) in twists.items():
                assert (f"{PRESET_SEEDS[preset][:3]}'s {twist}" in text) == \
                    (option.name in changes)


# ----- first lead and end of a match ---------------------------------------------------

@pytest.mark.parametrize("text,kind,card,seat", [
    ("left-of-dealer", "left-of-dealer", None, None),
    ("holder-of:3C", "holder-of", "3C", None),
    ("holder-of:10H", "holder-of", "10H", None),
    ("seat:0", "seat", None, 0),
    ("seat:6", "seat", None, 6),
])
def test_first_lead_is_structured(text, kind, card, seat):
    lead = FirstLead.parse(text)
    assert (lead.kind, lead.seat) == (kind, seat)
    assert lead.card == (None if card is None else Card.parse(card))
    assert str(lead) == text and lead == text and text == lead and hash(lead) == hash(text)
    assert FirstLead.parse(lead) is lead and eval(repr(lead)) == lead
    assert lead != FirstLead.parse("seat:1") and lead != 3


def test_first_lead_text_is_normalised_and_checked():
    assert str(FirstLead.parse("holder-of:th")) == "holder-of:10H"
    assert Rules(first_lead="holder-of:3h").first_lead.card == Card.parse("3H")
    for bad in ("dealer", "holder-of:XX", "seat:x", "seat:-1", "", None, 3):
        with pytest.raises(RulesError) as info:
            FirstLead.parse(bad)
        assert info.value.option == "first_lead"
    with pytest.raises(RulesError) as info:
        Rules(players=4, first_lead="seat:4")
    assert info.value.option == "first_lead" and "0 to 3" in info.value.message
    for bad in (dict(kind="seat"), dict(kind="holder-of", seat=1),
                dict(kind="left-of-dealer", card=CARDS[0]), dict(kind="other")):
        with pytest.raises(RulesError):
            FirstLead(**bad)


@pytest.mark.parametrize("text,kind,target,deals", [
    ("points:11", "points", 11, None),
    ("deals:3", "deals", None, 3),
    ("single-deal", "single-deal", None, None),
    ("never", "never", None, None),
])
def test_match_end_is_structured(text, kind, target, deals):
    end = MatchEnd.parse(text)
    assert (end.kind, end.target, end.deals) == (kind, target, deals)
    assert str(end) == text and end == text and text == end and hash(end) == hash(text)
    assert eval(repr(end)) == end and MatchEnd(kind, target=target, deals=deals) == end
    rules = Rules(match_end=text, scoring=(2, 1))
    assert rules.match_end == end and rules.to_dict()["match_end"] == text


def test_match_end_text_is_checked():
    for bad in ("points:0", "deals:-1", "points:x", "forever", "points", None, 11):
        with pytest.raises(RulesError) as info:
            MatchEnd.parse(bad)
        assert info.value.option == "match_end"
    for bad in (dict(kind="points"), dict(kind="deals", deals=0), dict(kind="never", target=3),
                dict(kind="points", target=True)):
        with pytest.raises(RulesError):
            MatchEnd(**bad)


def test_records_keep_text_and_old_text_loads():
    """``to_dict`` writes plain JSON text as before; a dict written with text loads."""
    rules = Rules.parse("family+lowest-three-starts:3D", players=5)
    data = rules.to_dict()
    assert data["first_lead"] == "holder-of:3D" and type(data["first_lead"]) is str
    assert all(type(v) in (str, bool, int, list, type(None)) for v in data.values())
    assert type(data["beat"]) is str and type(data["match_end"]) is str
    assert Rules.from_dict(json.loads(json.dumps(data))) == rules
    assert rules.first_lead.card == Card.parse("3D") and rules.match_end.target == 11


def test_no_module_slices_first_lead_or_match_end():
    """The two structured options are read by their attributes, never cut out of text."""
    pattern = re.compile(r'startswith\("(points|deals|holder-of|seat)|'
                         r'(first_lead|match_end)(\.partition|\.split|\[)')
    for path in (ROOT / "president").rglob("*.py"):
        if path.relative_to(ROOT).as_posix() == "president/rules/options.py":
            continue      # where the two are read from their text
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            assert not pattern.search(line), f"{path.relative_to(ROOT)}:{n}: {line.strip()}"


# ----- Rules.preset: constructor on the class, the preset's name on a value -------------

def test_preset_is_a_constructor_and_a_name():
    rules = Rules.preset("house", players=5, twists=["sit-out"])
    assert rules == Rules.from_preset("house", players=5, twists=["sit-out"])
    assert rules.preset == rules.preset_name == "house"
    assert Rules().preset is None and Rules(preset_name="family").preset == "family"
    assert Rules.preset.__name__ == "from_preset"
    with pytest.raises(AttributeError):
        rules.preset = "family"  # type: ignore[misc]
    with pytest.raises(RulesError) as info:
        Rules(preset_name="poker")
    assert info.value.option == "preset"
    with pytest.raises(RulesError):
        Rules(twists=("sit-out",))  # a twist needs its preset
    with pytest.raises(RulesError):
        Rules(preset_name="house", twists=("swap",))


# ----- names that carry their overrides ------------------------------------------------

def _twist_combinations():
    for preset in PRESETS:
        lo, hi, _ = PRESETS[preset]
        names = list(TWISTS[preset])
        for k in range(len(names) + 1):
            for combo in itertools.combinations(names, k):
                yield preset, lo, list(combo)


@pytest.mark.parametrize("preset,players,twists", list(_twist_combinations()))
def test_names_without_overrides_are_unchanged(preset, players, twists):
    """Every preset and combination of its twists (read from the registries) keeps the
    name shown in the terminal and the browser."""
    rules = Rules.preset(preset, players=players, twists=twists)
    assert rules.name == "+".join([preset, *twists]) and rules.overrides == {}
    assert Rules.parse(rules.name, players=players) == rules


def test_names_with_overrides():
    rules = Rules.preset("house", players=5, twists=["sit-out"], beat="equal-or-higher",
                         scoring="3,2,1")
    assert rules.name == "house+sit-out/beat=equal-or-higher/scoring=3,2,1"
    assert rules.overrides == {"beat": "equal-or-higher", "scoring": (3, 2, 1)}
    assert Rules.parse(rules.name, players=5) == rules
    # an override equal to what the preset gives is no override
    assert Rules.preset("house", passing="re-enter").name == "house"
    fn = Rules.parse("first-night+swap/give_back=any/last_of_rank_clears=false/"
                     "first_lead=holder-of:4D/match_end=deals:2", players=3)
    assert (fn.give_back, fn.last_of_rank_clears, fn.first_lead.card, fn.match_end.deals) == \
        ("any", False, Card.parse("4D"), 2)
    # the name lists the changes in the order of OPTIONS, whatever order they came in
    assert fn.name == ("first-night+swap/last_of_rank_clears=false/give_back=any/"
                       "first_lead=holder-of:4D/match_end=deals:2")
    assert Rules.parse("custom", players=6) == Rules(players=6)
    assert Rules.parse("custom/scoring=none/match_end=never").name == \
        "custom/scoring=none/match_end=never"
    # keyword options come after the name's
    assert Rules.parse("house/beat=equal-or-higher", beat="higher").name == "house"


@pytest.mark.parametrize("spec,option", [
    ("house/beat", "rules"),
    ("house/=higher", "rules"),
    ("house/colour=red", "colour"),
    ("house/players=5/players=6", "players"),
    ("house/beat=higher/beat=equal-or-higher", "beat"),
    ("house/beat=lower", "beat"),
    ("house/last_of_rank_clears=yes", "last_of_rank_clears"),
    ("custom+sit-out", "twist"),
    ("house/scoring=none", "scoring"),
])
def test_bad_names_name_what_is_wrong(spec, option):
    with pytest.raises(RulesError) as info:
        Rules.parse(spec)
    assert info.value.option == option and info.value.message


# Values to try for each option that is not a choice; a new such option needs one here.
OTHER_VALUES = {
    # every yes-or-no option
    **{name: (lambda players: st.booleans()) for name, option in OPTIONS.items()
       if option.table_values == "bool"},
    "first_lead": lambda players: st.one_of(
        st.just("left-of-dealer"),
        st.sampled_from(CARDS).map(lambda c: f"holder-of:{c}"),
        st.integers(0, players - 1).map(lambda s: f"seat:{s}")),
    "scoring": lambda players: st.one_of(
        st.none(), st.lists(st.integers(0, 12), min_size=1, max_size=players).map(tuple)),
    "match_end": lambda players: st.one_of(
        st.sampled_from(["single-deal", "never"]),
        st.integers(1, 40).map(lambda n: f"points:{n}"),
        st.integers(1, 9).map(lambda n: f"deals:{n}")),
}


def test_every_option_has_values_to_try():
    for name, option in OPTIONS.items():
        assert name == "players" or option.choices is not None or name in OTHER_VALUES


@st.composite
def rules_values(draw):
    preset = draw(st.sampled_from([None, *PRESETS]))
    lo, hi = (3, 7) if preset is None else PRESETS[preset][:2]
    players = draw(st.integers(lo, hi))
    twists = []
    if preset is not None and TWISTS[preset]:
        for twist in draw(st.lists(st.sampled_from(list(TWISTS[preset])), unique=True)):
            if twist in TWIST_DEFAULT_ARG:
                twist += draw(st.sampled_from(["", ":3C", ":3D", ":3H", ":3S"]))
            twists.append(twist)
    options = {}
    for name in draw(st.lists(st.sampled_from([o for o in OPTIONS if o != "players"]),
                              unique=True, max_size=5)):
        choices = OPTIONS[name].choices
        options[name] = draw(st.sampled_from(list(choices)) if choices is not None
                             else OTHER_VALUES[name](players))
    try:
        if preset is None:
            return Rules(players=players, **options), options
        return Rules.preset(preset, players=players, twists=twists, **options), options
    except RulesError:
        assume(False)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules_values())
def test_every_rules_value_round_trips_through_its_name(drawn):
    rules, options = drawn
    name = rules.name
    assert Rules.parse(name, players=rules.players) == rules
    assert Rules.parse(str(rules)) == rules
    assert Rules.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules
    assert set(rules.overrides) <= set(options)
    head, *pairs = name.split("/")
    assert head == "+".join([rules.preset or "custom", *rules.twists])
    assert [p.split("=", 1)[0] for p in pairs] == list(rules.overrides)
    assert all(p.count("=") == 1 for p in pairs)


@pytest.mark.parametrize("spec, option", [
    ("house/scoring=1000001,1", "scoring"),
    ("house/match_end=points:1000001", "match_end"),
    ("house/match_end=deals:" + "9" * 5000, "match_end"),
    ("house/match_end=points:\u00b2", "match_end"),
    ("house/scoring=" + "9" * 5000 + ",1", "scoring"),
])
def test_numbers_in_the_rules_are_bounded_and_never_crash(spec, option):
    # A rule's numbers go up to MAX_NUMBER; a longer run of digits (past Python's limit for
    # turning text into a number) or a digit that is not 0-9 is refused, not a crash.
    from president.rules import MAX_NUMBER
    with pytest.raises(RulesError) as e:
        Rules.parse(spec)
    assert e.value.option == option and len(e.value.message) < 400
    assert Rules.parse(f"house/scoring={MAX_NUMBER},1").scoring == (MAX_NUMBER, 1)
