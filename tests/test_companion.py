"""The table companion's core (issue 10): a score sheet of a match played with real cards,
replayed through the engine (``president.companion``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from president import Match, Rules, records
from president.companion import (REPLAYED, Sheet, SheetError, record_from_sheet, sheet_from_record,
                                 view)

HOUSE = ["Alex", "Blair", "Casey", "Drew"]


def enter_all(sheet: Sheet, orders) -> Sheet:
    for order in orders:
        sheet = sheet.enter(order)
    return sheet


def test_a_whole_house_match_to_eleven_with_a_shared_win():
    """Seed ``000_2ebb75a2290c9d05.txt``: 2 and 1 points, the deal that takes a total to 11
    is played out and ends the match, tied highest totals share the win; fixed seats and the
    dealer moves one seat clockwise; the last player gives the President their highest card."""
    sheet = Sheet("house", HOUSE, first_dealer=3)
    v = view(sheet)
    assert v["now"]["number"] == 1 and v["now"]["dealer"] == "Drew" and v["now"]["leader"] == "Alex"
    assert v["now"]["exchange"] == ["No exchange before the first deal of a match."]
    assert v["totals"] == [0, 0, 0, 0] and v["titles"] == ["", "", "", ""]
    orders = [["Blair", "Alex", "Casey"], ["Alex", "Blair", "Casey"], ["Blair", "Alex", "Casey"],
              ["Alex", "Blair", "Casey"], ["Blair", "Alex", "Casey"], ["Blair", "Casey", "Alex"],
              ["Alex", "Casey", "Blair"]]
    dealers = []
    for order in orders:
        dealers.append(view(sheet)["now"]["dealer"])
        sheet = sheet.enter(order)
    v = view(sheet)
    assert dealers == ["Drew", "Alex", "Blair", "Casey", "Drew", "Alex", "Blair"]
    assert v["totals"] == [9, 10, 2, 0] and not v["over"]
    assert v["now"]["dealer"] == "Casey" and v["now"]["leader"] == "Alex"
    assert v["now"]["exchange"] == ["Drew must give their highest card to Alex; Alex gives back "
                                    "1 card to Drew.", "The others keep their cards."]
    assert v["now"]["reseated"] is False
    sheet = sheet.enter(["Alex", "Blair", "Casey", "Drew"])   # Alex 11, Blair 11
    v = view(sheet)
    assert v["over"] and v["now"] is None
    assert v["totals"] == [11, 11, 2, 0] and v["winners"] == ["Alex", "Blair"]
    assert v["result"] == "Alex and Blair share the win with 11 points each."
    last = v["deals"][-1]
    assert last["number"] == 8 and last["totals"] == [11, 11, 2, 0]
    assert [(o["name"], o["title"], o["points"]) for o in last["order"]] == [
        ("Alex", "President", 2), ("Blair", "Vice-President", 1), ("Casey", "3rd", 0),
        ("Drew", "last", 0)]
    assert v["deals"][0]["totals"] == [1, 2, 0, 0]          # running totals per deal
    before = sheet.to_dict()
    for bad in (lambda s: s.enter(["Alex", "Blair", "Casey"]), lambda s: s.replay_deal()):
        with pytest.raises(SheetError) as e:
            bad(sheet)
        assert e.value.reason == "match-over" and "start a new match" in e.value.message
    assert sheet.to_dict() == before


def test_a_three_deal_match_ends_after_deal_three_and_a_deal_dealt_again_does_not_count():
    """Seed ``000_2ebb75a2290c9d05.txt``, three-deal twist: exactly three complete deals, the
    exchange before deals two and three; a deal that is replayed is not one of them."""
    sheet = Sheet("house+three-deals", HOUSE, first_dealer=0)
    sheet = sheet.enter(["Casey", "Drew", "Alex"])
    assert view(sheet)["now"]["exchange"][0] == ("Blair must give their highest card to Casey; "
                                                 "Casey gives back 1 card to Blair.")
    sheet = sheet.replay_deal()
    sheet = sheet.enter(["Drew", "Casey", "Alex"])
    v = view(sheet)
    assert not v["over"] and v["deals_played"] == 2 and v["now"]["number"] == 3
    assert v["rules"]["end"].startswith("The match is 3 complete deals")
    sheet = sheet.enter(["Casey", "Alex", "Drew"])
    v = view(sheet)
    assert v["over"] and v["totals"] == [1, 0, 5, 3] and v["winners"] == ["Casey"]
    assert v["result"] == "Casey wins with 5 points."
    assert [(d["number"], d["replayed"]) for d in v["deals"]] == [(1, False), (2, True),
                                                                   (2, False), (3, False)]


def test_family_at_five_reseats_by_finish_with_the_circle_and_the_exchange():
    """Seed ``001_6a3b64d15368b01c.txt``: sit in finishing order (Vice-President on the
    President's left, the last to finish on the President's right), the last to finish
    deals starting with the President, gives the President their best card and gets any
    card back, and the President starts."""
    sheet = Sheet("family", ["Ann", "Bo", "Cy", "Di", "Ed"], first_dealer=4)
    sheet = sheet.enter(["Cy", "Ann", "Ed", "Bo"])            # Di is last
    now = view(sheet)["now"]
    assert now["seating"] == ["Cy", "Ann", "Ed", "Bo", "Di"] and now["reseated"]
    assert now["dealer"] == "Di" and now["leader"] == "Cy"
    assert now["deal"] == ("Di deals, one card at a time clockwise, starting with Cy on their "
                           "left.")
    assert now["lead"] == "Cy leads (the President)."
    assert [(c["name"], c["left"], c["title"]) for c in now["circle"]] == [
        ("Cy", "Ann", "President"), ("Ann", "Ed", "Vice-President"), ("Ed", "Bo", "3rd"),
        ("Bo", "Di", "4th"), ("Di", "Cy", "last to finish")]
    assert [c["name"] for c in now["circle"] if c["dealer"]] == ["Di"]
    assert [c["name"] for c in now["circle"] if c["leader"]] == ["Cy"]
    assert "Ann sits on Cy's left." in now["seating_words"]
    assert "Cy sits on Di's left." in now["seating_words"]
    assert now["exchange"] == ["Di must give their highest card to Cy; Cy gives back 1 card to Di.",
                               "The others keep their cards."]
    # Orders are entered by name whatever the seats; the next deal reseats again.
    sheet = sheet.enter(["Di", "Bo", "Ed", "Cy"])             # Ann is last
    now = view(sheet)["now"]
    assert now["seating"] == ["Di", "Bo", "Ed", "Cy", "Ann"] and now["dealer"] == "Ann"
    assert view(sheet)["totals"] == [1, 1, 2, 2, 0]


@pytest.mark.parametrize("players, sentences", [
    (3, ["Cy must give their highest card to Ann; Ann gives back their lowest card to Cy.",
         "Bo (Neutral) keeps their cards."]),
    (4, ["Di must give their highest 2 cards to Ann; Ann gives back their lowest 2 cards to Di.",
         "Cy must give their highest card to Bo; Bo gives back their lowest card to Cy."]),
    (5, ["Ed must give their highest 2 cards to Ann; Ann gives back their lowest 2 cards to Ed.",
         "Di must give their highest card to Bo; Bo gives back their lowest card to Di.",
         "Cy (Neutral) keeps their cards."]),
    (6, ["Fay must give their highest 2 cards to Ann; Ann gives back their lowest 2 cards to Fay.",
         "Ed must give their highest card to Bo; Bo gives back their lowest card to Ed.",
         "Cy and Di (Neutrals) keep their cards."]),
])
def test_first_night_swap_in_words_at_three_four_and_five(players, sentences):
    """Seed ``004_7dd5a514fa081721.txt``, the swap: the bottom gives the President two best
    and gets two worst, the Vice-President and VP-bottom swap one; at three one card each way
    and no vice ranks; Neutrals keep their deal; the bottom deals and the President leads.
    Roles are the prize: no points, no totals, no end."""
    names = ["Ann", "Bo", "Cy", "Di", "Ed", "Fay"][:players]
    sheet = Sheet("first-night+swap", names, first_dealer=players - 1).enter(names)
    v = view(sheet)
    assert v["now"]["exchange"] == sentences
    assert v["now"]["dealer"] == names[-1] and v["now"]["leader"] == "Ann"
    assert v["totals"] is None and v["deals"][0]["totals"] is None
    assert [o["points"] for o in v["deals"][0]["order"]] == [None] * players
    assert v["titles"][0] == "President" and v["titles"][-1] == "bottom"
    assert v["rules"]["scoring"] is None and not v["over"]


def test_leads_and_exchanges_the_rules_leave_out():
    fresh = Sheet("house+fresh-hands", HOUSE, first_dealer=3).enter(["Drew", "Casey", "Blair"])
    now = view(fresh)["now"]
    assert now["exchange"] == ["No card exchange under these rules: play the cards you are "
                               "dealt."]
    assert now["dealer"] == "Alex" and now["lead"] == "Blair leads (on the dealer's left)."
    three = Sheet("family+lowest-three-starts", HOUSE)
    assert view(three)["now"]["leader"] is None
    assert view(three)["now"]["lead"] == "Whoever is dealt the three of clubs leads."
    assert view(three.enter([0, 1, 2]))["now"]["leader"] == "Alex"


def test_the_last_player_is_filled_in_and_orders_take_names_or_indexes():
    sheet = Sheet("house", HOUSE)
    a = sheet.enter(["blair", " ALEX ", "Casey"])
    b = sheet.enter([1, 0, 2, 3])
    c = sheet.enter(["Blair", "Alex", "Casey", "Drew"])
    assert a.entries == b.entries == c.entries == (("Blair", "Alex", "Casey", "Drew"),)
    assert a == b == c


def test_undo_takes_back_the_last_entry_only():
    sheet = enter_all(Sheet("house", HOUSE), [["Alex", "Blair", "Casey"],
                                              ["Drew", "Casey", "Blair"]])
    once = enter_all(Sheet("house", HOUSE), [["Alex", "Blair", "Casey"]])
    assert sheet.undo() == once and view(sheet.undo()) == view(once)
    assert sheet.replay_deal().undo() == sheet
    with pytest.raises(SheetError) as e:
        Sheet("house", HOUSE).undo()
    assert e.value.reason == "nothing-to-undo"


def test_a_deal_dealt_again_keeps_scores_ranks_dealer_seats_and_exchange():
    """Seed ``000_2ebb75a2290c9d05.txt``: a deal that cannot be put right is replayed with
    scores and ranks unchanged."""
    sheet = Sheet("family", ["Ann", "Bo", "Cy", "Di", "Ed"]).enter(["Cy", "Ann", "Ed", "Bo"])
    v = view(sheet)
    again = view(sheet.replay_deal())
    assert again["totals"] == v["totals"] and again["titles"] == v["titles"]
    for key in ("number", "dealer", "leader", "seating", "circle", "exchange"):
        assert again["now"][key] == v["now"][key], key
    assert again["now"]["replays"] == 1 and view(sheet.replay_deal().replay_deal())["now"]["replays"] == 2
    assert again["deals"][-1] == {"number": 2, "replayed": True, "dealer": "Di",
                                  "seating": ["Cy", "Ann", "Ed", "Bo", "Di"], "order": [],
                                  "totals": None}
    assert sheet.replay_deal().entries[-1] == REPLAYED


@pytest.mark.parametrize("order, reason, words", [
    (["Alex", "Blair", "alex"], "name-twice", "Alex is named twice"),
    (["Alex", "Blair"], "missing-player", "leaves out Casey and Drew"),
    ([], "missing-player", "leaves out Alex, Blair, Casey and Drew"),
    (["Alex", "Blair", "Zed"], "unknown-name", "'Zed' is not at this table"),
    ([0, 1, 9], "unknown-name", "no player 9"),
    (["Alex", "Blair", "Casey", "Drew", "Alex"], "name-twice", "named twice"),
    ("Alex", "bad-sheet", "list of names"),
    ([1.5], "bad-sheet", "not a name"),
])
def test_bad_orders_are_refused_and_change_nothing(order, reason, words):
    sheet = Sheet("house", HOUSE).enter(["Drew", "Casey", "Blair"])
    before, seen = sheet.to_dict(), view(sheet)
    with pytest.raises(SheetError) as e:
        sheet.enter(order)
    assert isinstance(e.value, ValueError)
    assert e.value.reason == reason and words in e.value.message, e.value.message
    assert e.value.message.startswith("Deal 2: ")
    assert sheet.to_dict() == before and view(sheet) == seen


@pytest.mark.parametrize("players, dealer, rules, reason, words", [
    (["Alex", "Blair", "alex ", "Drew"], None, "house", "same-name", "seats 1 and 3"),
    (["Alex", "Blair", " ", "Drew"], None, "house", "bad-name", "seat 3's name is empty"),
    (["Alex", "Blair", "7", "Drew"], None, "house", "bad-name", "only a number"),
    (["Alex", "Bl,air", "Casey", "Drew"], None, "house", "bad-name", "comma"),
    (["Alex", "Bl\u202eair", "Casey", "Drew"], None, "house", "bad-name", "invisible"),
    (["A" * 25, "Blair", "Casey", "Drew"], None, "house", "bad-name", "longer than 24"),
    (["Alex", "Blair", "Casey"], None, "house", "bad-rules", "3"),
    (HOUSE * 2, None, "house", "bad-rules", "too many"),
    (HOUSE, 4, "house", "bad-dealer", "not a seat"),
    (HOUSE, True, "house", "bad-dealer", "not a seat"),
    (HOUSE, None, "house+nope", "bad-rules", "no twist 'nope'"),
    (HOUSE, None, "poker", "bad-rules", "no preset"),
    ("Alex", None, "house", "bad-sheet", "list of names"),
])
def test_bad_tables_are_refused(players, dealer, rules, reason, words):
    with pytest.raises(SheetError) as e:
        Sheet(rules, players, dealer)
    assert e.value.reason == reason and words in e.value.message, e.value.message


def test_players_change_only_between_matches_everyone_back_to_zero():
    """Seed ``000_2ebb75a2290c9d05.txt``: player changes between matches, everyone at zero,
    no exchange on the first deal."""
    sheet = enter_all(Sheet("house", HOUSE), [["Alex", "Blair", "Casey"]] * 2)
    new = sheet.new_match(players=["Alex", "Blair", "Casey", "Drew", "Eve"])
    v = view(new)
    assert new.entries == () and v["totals"] == [0] * 5 and v["titles"] == [""] * 5
    assert v["now"]["exchange"] == ["No exchange before the first deal of a match."]
    assert v["now"]["dealer"] == "Eve"
    same = sheet.new_match()
    assert same.players == sheet.players and same.entries == () and same.rules == "house"
    assert sheet.new_match(rules="house+three-deals", first_dealer=0).first_dealer == 0


def test_a_sheet_round_trips_through_plain_data_and_refuses_what_is_not_one():
    sheet = enter_all(Sheet("house+sit-out", HOUSE, 1), [["Alex", "Blair", "Casey"]])
    sheet = sheet.replay_deal()
    data = sheet.to_dict()
    assert data == {"format": "president-sheet/1", "rules": "house+sit-out", "players": HOUSE,
                    "first_dealer": 1,
                    "entries": [["Alex", "Blair", "Casey", "Drew"], "replayed"]}
    assert Sheet.from_dict(data) == sheet
    for bad, words in [({**data, "extra": 1}, "no field 'extra'"),
                       ({**data, "format": "x"}, "is not 'president-sheet/1'"),
                       ({"players": HOUSE}, "needs 'rules'"), ([1], "JSON object"),
                       ({**data, "entries": ["again"]}, "list of names"),
                       ({**data, "entries": [[]] * 501}, "more than a sheet holds")]:
        with pytest.raises(SheetError) as e:
            Sheet.from_dict(bad)
        assert words in e.value.message, e.value.message


# ----- game records -----------------------------------------------------------------------

DATA = Path(__file__).parent / "data" / "records"


def test_export_is_a_record_replay_accepts_with_the_same_totals_and_imports_back():
    sheet = Sheet("family", ["Ann", "Bo", "Cy", "Di", "Ed"], first_dealer=2).replay_deal()
    sheet = enter_all(sheet, [["Cy", "Ann", "Ed", "Bo"], ["Di", "Bo", "Ed", "Cy"]])
    sheet = enter_all(sheet.replay_deal().replay_deal(), [["Ann", "Bo", "Cy", "Di"]])
    sheet = sheet.replay_deal()
    data = record_from_sheet(sheet)
    assert data["format"] == "president/2" and data["players"] == list(sheet.players)
    assert [d.get("finish_order") for d in data["deals"]] == [[2, 0, 4, 1, 3], [4, 3, 2, 0, 1],
                                                            [4, 1, 3, 0, 2]]
    result = records.replay(records.loads(json.dumps(data)))
    assert result.ok and result.scores == view(sheet)["totals"] == [3, 2, 2, 2, 0]
    assert result.next_deal["seating"] == [0, 1, 2, 3, 4]          # Ann sits first, as shown
    assert view(sheet)["now"]["seating"] == ["Ann", "Bo", "Cy", "Di", "Ed"]
    assert [d.get("comment", "")[:18] for d in data["deals"]] == ["Dealt again once b", "", "Dealt again twice "]
    assert sheet_from_record(data) == sheet
    assert sheet_from_record(json.dumps(data)) == sheet
    empty = Sheet("house", HOUSE, 1)
    assert sheet_from_record(record_from_sheet(empty)) == empty


def test_records_from_elsewhere_import_their_finishing_orders():
    kitchen = sheet_from_record((DATA / "house_real_cards.json").read_text())
    assert kitchen.players == tuple(HOUSE) and kitchen.first_dealer == 1
    assert len(kitchen.entries) == 3 and REPLAYED not in kitchen.entries
    assert view(kitchen)["totals"] == records.replay(records.loads(
        (DATA / "house_real_cards.json").read_text())).scores
    m = Match(Rules.preset("house"), HOUSE, seed=5)
    while m.phase in ("play", "exchange"):
        m.act(m.to_act, m.legal_actions()[0])
    played = sheet_from_record(records.dumps(m))
    assert played.entries == (tuple(HOUSE[p] for p in m.results[0].finish_order),)


@pytest.mark.parametrize("change, words", [
    (lambda d: {**d, "format": "president/9"}, "not a score sheet or game record"),
    (lambda d: {**d, "rules": {**d["rules"], "scoring": [3, 1]}}, "not a preset with twists"),
    (lambda d: {**d, "deals": [{**d["deals"][0], "finish_order": [0, 0, 1, 2]}]},
     "breaks the rules in deal 1"),
    (lambda d: "{not json", "not JSON"),
])
def test_records_the_companion_cannot_keep_are_refused(change, words):
    data = record_from_sheet(Sheet("house", HOUSE).enter(["Alex", "Blair", "Casey"]))
    with pytest.raises(SheetError) as e:
        sheet_from_record(change(data))
    assert e.value.reason == "bad-record" and words in e.value.message, e.value.message


def test_a_record_stopped_in_the_middle_of_a_deal_is_refused():
    m = Match(Rules.preset("house"), HOUSE, seed=5)
    m.act(m.to_act, m.legal_actions()[0])
    with pytest.raises(SheetError) as e:
        sheet_from_record(records.dumps(m))
    assert "deal 1 of the record has not ended" in e.value.message


def test_a_refused_record_counts_its_deals_from_1_throughout():
    # The replayer names deals by their 0-based index; the sheet's words count from 1, so
    # one sentence never names "deal 2" and "deal 0" for neighbouring deals.
    m = Match(Rules.preset("house"), HOUSE, seed=5)
    m.act(m.to_act, m.legal_actions()[0])
    data = json.loads(records.dumps(m))
    data["deals"].append({"seed": 7})
    with pytest.raises(SheetError) as e:
        sheet_from_record(data)
    assert "in deal 2: deal 1 has not ended" in e.value.message, e.value.message
