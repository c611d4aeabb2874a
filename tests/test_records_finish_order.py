"""Records of deals played with real cards (issue 10, item 2; docs/records.md "A deal played
with real cards"): a deal given as its ``finish_order`` replays through
``Match.finish_by_order``, and ``president replay`` reports ``next_deal`` for every record.

Seed ``000_2ebb75a2290c9d05.txt`` keeps "each deal's finish order" beside the score columns
and replays a deal that cannot be reconstructed "with scores and previous ranks unchanged";
seed ``001_6a3b64d15368b01c.txt`` reseats by finish order; seed ``004_7dd5a514fa081721.txt``
has the two-and-one swap.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import president.records as records
from president import Match, Rules
from president.cli import main
from president.records import (DealRecord, Record, RecordError, dumps, iter_replay, loads,
                               record_from_finish_orders, record_from_match, replay)

ROOT = Path(__file__).parent.parent
DATA = Path(__file__).parent / "data" / "records"
NAMES4 = ["Alex", "Blair", "Casey", "Drew"]
NAMES5 = ["Ann", "Bo", "Cy", "Di", "Ed"]


def record(preset: str, names: list[str], deals: list[dict], **rules) -> dict:
    spec, *twists = preset.split("+")
    return {"format": "president/1",
            "rules": {"preset": spec, "twists": twists, "players": len(names), **rules},
            "players": names, "deals": deals}


def orders_record(preset: str, names: list[str], orders: list[list[int]], **rules) -> dict:
    return record(preset, names, [{"finish_order": o} for o in orders], **rules)


def run_cli(capsys, tmp_path: Path, data, *flags: str) -> tuple[int, str, str]:
    path = tmp_path / "record.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    status = main(["replay", str(path), *flags])
    out, err = capsys.readouterr()
    return status, out.replace(str(path), "record.json"), err


def same_state(a: Match, b: Match) -> bool:
    """Equal matches, but for the stand-in cards of a deal kept by its finishing order (a
    record holds no cards for it: docs/records.md)."""
    sa, sb = a.snapshot(), b.snapshot()
    if a.deal.over and not a.deal.history:
        sa.pop("hands"), sb.pop("hands")
    return (sa == sb and a.results == b.results and a.winners == b.winners
            and a.deal.dealer == b.deal.dealer)


# ----- family: five players, three deals, reseated by finish order (seed 001) -------------

FAMILY_ORDERS = [[2, 0, 4, 1, 3], [4, 3, 2, 1, 0], [0, 1, 2, 3, 4]]


def test_family_five_players_three_deals_reseat_by_finish_order():
    result = replay(orders_record("family", NAMES5, FAMILY_ORDERS))
    assert result.ok, result.error
    # Deal 1: Cy, Ann, Ed, Bo, Di. They sit in that order for deal 2, the last (Di) deals.
    assert [d["seating"] for d in result.deals] == [[0, 1, 2, 3, 4], [2, 0, 4, 1, 3],
                                                    [3, 1, 4, 0, 2]]
    assert [d["dealer"] for d in result.deals] == [4, 4, 4]
    assert [d["finish_order"] for d in result.deals] == FAMILY_ORDERS
    for d in result.deals:
        assert d["hands"] is None and d["pile"] == [] and d["to_act"] is None and d["over"]
        assert d["phase"] == "between-deals"
    assert result.scores == [1, 2, 2, 4, 0] and not result.match_over
    # Deal 3 in seats of its seating [3, 1, 4, 0, 2]: Di, Bo, Ed, Ann, Cy.
    assert result.next_deal == {
        "number": 4, "dealer": 4, "seating": [3, 1, 4, 0, 2], "leader": 0,
        "exchange": [{"giver": 4, "receiver": 0, "count": 1, "forced": True},
                     {"giver": 0, "receiver": 4, "count": 1, "forced": False}]}
    titles = result.match.titles()
    assert titles[3] == "President" and titles[2] == "last to finish"


def test_family_record_may_confirm_the_seating_and_dealer_the_rules_give():
    deals = [{"finish_order": FAMILY_ORDERS[0]},
             {"dealer": 4, "seating": [2, 0, 4, 1, 3], "finish_order": FAMILY_ORDERS[1]},
             {"seating": [3, 1, 4, 0, 2], "leader": 0, "finish_order": FAMILY_ORDERS[2]}]
    result = replay(record("family", NAMES5, deals))
    assert result.ok and result.scores == [1, 2, 2, 4, 0]
    # Written records spell out the seating under by-finish, and replay to the same text.
    text = dumps(result.match)
    assert [d.get("seating") for d in json.loads(text)["deals"]] == [
        [0, 1, 2, 3, 4], [2, 0, 4, 1, 3], [3, 1, 4, 0, 2]]
    assert dumps(replay(loads(text)).match) == text


def test_family_seating_the_rules_do_not_give_is_refused_at_its_deal():
    deals = [{"finish_order": FAMILY_ORDERS[0]},
             {"seating": [0, 1, 2, 3, 4], "finish_order": FAMILY_ORDERS[1]}]
    result = replay(record("family", NAMES5, deals))
    err = result.error
    assert (err.deal, err.step, err.action, err.reason) == (1, "deal", None, "bad-deal")
    assert "finishing order" in err.message
    # The state is the end of deal 1; next_deal says what the rules would have given.
    assert len(result.deals) == 1 and result.scores == [1, 0, 2, 0, 0]
    assert result.next_deal["seating"] == [2, 0, 4, 1, 3]


# ----- first-night+swap at 3, 4 and 5 (seed 004) ----------------------------------------

@pytest.mark.parametrize("players, swaps", [
    (3, [(2, 0, 1, True), (0, 2, 1, False)]),
    (4, [(3, 0, 2, True), (0, 3, 2, False), (2, 1, 1, True), (1, 2, 1, False)]),
    (5, [(4, 0, 2, True), (0, 4, 2, False), (3, 1, 1, True), (1, 3, 1, False)]),
])
def test_first_night_swap_next_deal_exchange(players, swaps, capsys, tmp_path):
    """The bottom gives the President their two highest cards and gets two back; Vice-Scum
    and Vice-President swap one; at three only President and bottom, one card each. Seats of
    the next deal: by finish order, the President in seat 0, the bottom deals."""
    names = NAMES5[:players]
    # Two deals: the second in the seats of the first's finishing order.
    first = list(reversed(range(players)))
    data = orders_record("first-night+swap", names, [first, list(range(players))])
    status, out, _ = run_cli(capsys, tmp_path, data, "--json")
    report = json.loads(out)
    assert status == 0 and report["ok"] and report["scores"] == [0] * players
    assert report["match_over"] is False and report["winners"] == []
    plan = report["next_deal"]
    assert plan["number"] == 3 and plan["dealer"] == players - 1 and plan["leader"] == 0
    assert plan["seating"] == report["deals"][1]["seating"] == first
    assert [(x["giver"], x["receiver"], x["count"], x["forced"])
            for x in plan["exchange"]] == swaps
    status, out, _ = run_cli(capsys, tmp_path, data)
    exchange = next(line for line in out.splitlines() if line.startswith("  exchange: "))
    giver, receiver = swaps[0][:2]
    assert (f"seat {giver} {names[first[giver]]} gives seat {receiver} {names[first[receiver]]}"
            f" 2 card" if players > 3 else f"seat {giver} {names[first[giver]]} gives") in exchange
    assert exchange.count(" gives ") == len(swaps)


# ----- house to 11, a shared win (seed 000) -----------------------------------------------

HOUSE_TO_11 = [[1, 0, 2, 3], [0, 1, 2, 3], [1, 0, 2, 3], [0, 1, 2, 3], [1, 0, 2, 3],
               [1, 2, 0, 3], [0, 2, 1, 3], [0, 1, 2, 3]]


def test_house_ends_at_eleven_with_a_shared_win(capsys, tmp_path):
    data = orders_record("house", NAMES4, HOUSE_TO_11)
    status, out, _ = run_cli(capsys, tmp_path, data, "--json")
    report = json.loads(out)
    assert status == 0 and report["ok"]
    assert report["scores"] == [11, 11, 2, 0] and report["match_over"] is True
    assert report["winners"] == [0, 1] and report["winner_names"] == ["Alex", "Blair"]
    assert report["next_deal"] is None
    assert [d["dealer"] for d in report["deals"]] == [3, 0, 1, 2, 3, 0, 1, 2]
    assert report["deals"][-1]["phase"] == "match-over"
    status, out, _ = run_cli(capsys, tmp_path, data)
    assert status == 0
    assert "Match over; winners: Alex (player 0), Blair (player 1)" in out
    assert out.rstrip().endswith("Next deal: none; the match is over")


def test_a_deal_after_the_match_ended_is_refused():
    data = orders_record("house", NAMES4, HOUSE_TO_11 + [[0, 1, 2, 3]])
    err = replay(data).error
    assert (err.deal, err.step, err.reason) == (8, "deal", "match-over")


# ----- mixed records ------------------------------------------------------------------------

def test_a_played_deal_then_a_deal_kept_by_its_finishing_order():
    deals = [{"dealer": 3, "hands": ["3C", "4C", "5C", "6C"], "actions": ["0 3C", "1 4C", "2 5C"]},
             {"finish_order": [3, 2, 1, 0]}]
    result = replay(record("house", NAMES4, deals))
    assert result.ok, result.error
    assert result.deals[0]["hands"] == ["", "", "", "6C"]
    assert result.deals[1]["hands"] is None and result.deals[1]["dealer"] == 0
    assert result.scores == [2, 1, 1, 2]
    # Drew was President in deal 2, Alex last: Alex gives Drew, Drew leads deal 3.
    assert result.next_deal["exchange"][0] == {"giver": 0, "receiver": 3, "count": 1,
                                               "forced": True}
    assert result.next_deal["leader"] == 3 and result.next_deal["dealer"] == 1


def test_a_deal_kept_by_its_finishing_order_then_a_played_deal_with_its_exchange():
    deals = [{"finish_order": [3, 2, 1, 0]},
             {"hands": ["3D 4D", "5D 6D", "7D 8D", "9D 2D"], "exchange": ["0>3 4D", "3>0 9D"],
              "actions": ["3 4D", "0 9D", "1 pass", "2 pass", "3 2D", "0 pass", "1 pass",
                          "2 pass", "0 3D", "1 5D", "2 7D", "1 pass", "2 8D"]}]
    result = replay(record("house", NAMES4, deals))
    assert result.ok, result.error
    assert result.deals[1]["finish_order"] == [3, 0, 2, 1]
    assert result.scores == [1, 0, 1, 4]
    # The forced give is checked against the real cards of the played deal.
    deals[1]["exchange"] = ["0>3 3D", "3>0 9D"]
    err = replay(record("house", NAMES4, deals)).error
    assert (err.deal, err.step, err.action, err.reason) == (1, "exchange", 0, "bad-exchange")


def test_replayer_takes_one_finish_step_per_deal_kept_by_its_order():
    data = record("house", NAMES4, [{"finish_order": [1, 0, 2, 3]},
                                    {"seed": 4, "actions": []}])
    steps = list(iter_replay(loads(json.dumps(data))))
    assert [(s.deal, s.step, s.index, s.entry) for s in steps] == [
        (0, "deal", None, None), (0, "finish", None, "[1, 0, 2, 3]"), (1, "deal", None, None)]
    assert type(steps[1].events[-1]).__name__ == "DealEnded"
    assert replay(data).steps == 3


# ----- bad records ------------------------------------------------------------------------

@pytest.mark.parametrize("extra, field", [
    ({"actions": ["0 3C"]}, "actions"), ({"actions": []}, "actions"),
    ({"hands": ["3C", "4C", "5C", "6C"]}, "hands"), ({"seed": 7}, "seed"),
    ({"exchange": ["3>0 2S"]}, "exchange"),
])
def test_finish_order_with_cards_or_actions_is_refused(extra, field, capsys, tmp_path):
    data = orders_record("house", NAMES4, [[0, 1, 2, 3], [0, 1, 2, 3]])
    data["deals"][1].update(extra)
    with pytest.raises(RecordError) as e:
        loads(json.dumps(data))
    assert e.value.field == f"deals[1].{field}" and e.value.deal == 1
    assert "kept by its finishing order" in e.value.message and "not both" in e.value.message
    status, out, err = run_cli(capsys, tmp_path, data, "--json")
    report = json.loads(out)
    assert status == 2 and report["error"]["reason"] == "bad-record"
    assert report["error"]["field"] == f"deals[1].{field}" and report["next_deal"] is None
    assert "kept by its finishing order" in err


@pytest.mark.parametrize("order", ["0 1 2 3", None, 3, {"0": 1}])
def test_finish_order_that_is_not_a_list_is_a_bad_record(order):
    with pytest.raises(RecordError) as e:
        loads(json.dumps(orders_record("house", NAMES4, [order])))
    assert e.value.field == "deals[0].finish_order" and "not a list" in e.value.message


@pytest.mark.parametrize("order", [
    [0, 1, 2],              # a seat missing
    [0, 1, 2, 2],           # a seat twice
    [0, 1, 2, 4],           # a seat that does not exist
    [0, 1, 2, 3, 4],        # one seat too many
    ["0", 1, 2, 3],         # not whole numbers
    [0.0, 1, 2, 3],
    [True, 0, 2, 3],
    [],
])
def test_bad_finish_orders_are_refused_with_the_engines_reason(order, capsys, tmp_path):
    data = orders_record("house", NAMES4, [[1, 0, 2, 3], order])
    status, out, _ = run_cli(capsys, tmp_path, data, "--json")
    report = json.loads(out)
    assert status == 1 and report["ok"] is False
    assert report["error"] == {
        "deal": 1, "step": "finish", "action": None, "seat": None, "entry": json.dumps(order),
        "reason": "bad-order",
        "message": f"the finishing order {order!r} must name every seat 0 to 3 exactly once, "
                   "first out first"}
    # The state is the first deal's end and the second deal, started, not ended.
    assert report["scores"] == [1, 2, 0, 0] and len(report["deals"]) == 2
    assert report["deals"][1]["over"] is False and report["deals"][1]["hands"] is None
    assert report["next_deal"] is None
    status, out, _ = run_cli(capsys, tmp_path, data)
    assert status == 1
    lines = out.splitlines()
    assert lines[0] == (f"record.json: illegal in deal 2 (record index: deal 1, finish order) "
                        f"{json.dumps(json.dumps(order))}: bad-order")
    assert "must name every seat 0 to 3 exactly once" in lines[1]
    assert lines[-1] == "Next deal: not known yet; deal 2 has not ended"


def test_a_dealer_the_rules_do_not_give_is_refused_for_a_finish_order_deal():
    data = record("house", NAMES4, [{"finish_order": [0, 1, 2, 3]},
                                    {"dealer": 2, "finish_order": [0, 1, 2, 3]}])
    err = replay(data).error
    assert (err.deal, err.step, err.reason) == (1, "deal", "bad-deal")
    assert "dealer seat 2 is not what the rules give (seat 0)" in err.message


def test_a_bad_first_deal_order_names_deal_1_in_words(capsys, tmp_path):
    status, out, _ = run_cli(capsys, tmp_path, orders_record("house", NAMES4, [[3, 3, 1, 0]]))
    assert status == 1
    assert out.startswith('record.json: illegal in deal 1 (record index: deal 0, finish order) '
                          '"[3, 3, 1, 0]": bad-order')


# ----- next_deal for every record -----------------------------------------------------------

def test_next_deal_of_an_empty_record_is_the_first_deal(capsys, tmp_path):
    status, out, _ = run_cli(capsys, tmp_path, orders_record("house", NAMES4, []), "--json")
    assert status == 0
    assert json.loads(out)["next_deal"] == {"number": 1, "dealer": 3, "seating": [0, 1, 2, 3],
                                            "leader": 0, "exchange": []}
    status, out, _ = run_cli(capsys, tmp_path, orders_record("house", NAMES4, []))
    assert "Next deal: deal 1, dealt by seat 3 Drew; seat 0 Alex leads" in out


def test_next_deal_leader_unknown_when_a_card_gives_the_lead(capsys, tmp_path):
    data = orders_record("family+lowest-three-starts", NAMES4, [])
    status, out, _ = run_cli(capsys, tmp_path, data, "--json")
    assert json.loads(out)["next_deal"]["leader"] is None
    status, out, _ = run_cli(capsys, tmp_path, data)
    assert "whoever is dealt 3C leads" in out
    # After a deal the President leads.
    assert replay(orders_record("family+lowest-three-starts", NAMES4, [[1, 2, 3, 0]])
                  ).next_deal["leader"] == 0


def test_next_deal_is_null_during_a_played_deal_and_its_exchange():
    played = {"dealer": 3, "hands": ["3C 4C", "5C", "6C", "7C"], "actions": ["0 3C"]}
    assert replay(record("house", NAMES4, [played])).next_deal is None
    # Stopped in the exchange of deal 2.
    data = record("house", NAMES4, [{"finish_order": [0, 1, 2, 3]}, {"seed": 1}])
    result = replay(data)
    assert result.ok and result.match.phase == "exchange" and result.next_deal is None


def test_next_deal_of_a_played_record_in_the_data_files(capsys):
    status = main(["replay", str(DATA / "house_two_deals_exchange.json"), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert status == 0
    assert report["next_deal"] == {
        "number": 3, "dealer": 1, "seating": [0, 1, 2, 3], "leader": 0,
        "exchange": [{"giver": 3, "receiver": 0, "count": 1, "forced": True},
                     {"giver": 0, "receiver": 3, "count": 1, "forced": False}]}


def test_an_unreadable_file_has_no_next_deal(capsys, tmp_path):
    status, out, _ = run_cli(capsys, tmp_path, "{not json", "--json")
    assert status == 2 and json.loads(out)["next_deal"] is None


# ----- writing: dump/load round trips -------------------------------------------------------

def test_live_match_ended_by_finish_orders_round_trips():
    match = Match(Rules.preset("family", players=5), NAMES5, seed=1)
    for i, order in enumerate(FAMILY_ORDERS):
        if i:
            match.start_next_deal()
        match.finish_by_order(order)
    text = dumps(match)
    data = json.loads(text)
    assert data["deals"][1] == {"dealer": 4, "seating": [2, 0, 4, 1, 3],
                                "finish_order": [4, 3, 2, 1, 0]}
    assert loads(text) == record_from_match(match)
    result = replay(loads(text))
    assert result.ok and same_state(result.match, match)
    assert result.next_deal == match.next_deal_plan()
    assert dumps(result.match) == text


def test_record_from_finish_orders_is_what_a_live_match_writes():
    rules = Rules.preset("family", players=5)
    match = Match(rules, NAMES5, seed=9, first_dealer=2)
    for i, order in enumerate(FAMILY_ORDERS):
        if i:
            match.start_next_deal()
        match.finish_by_order(order)
    by_seat = record_from_finish_orders(rules, NAMES5, FAMILY_ORDERS, first_dealer=2)
    assert by_seat == record_from_match(match)
    # The same deals given by player: each order in seats of that deal's seating.
    seatings = [[0, 1, 2, 3, 4], [2, 0, 4, 1, 3], [3, 1, 4, 0, 2]]
    by_player = [[seating[s] for s in order] for seating, order in zip(seatings, FAMILY_ORDERS)]
    assert by_player == [[2, 0, 4, 1, 3], [3, 1, 4, 0, 2], [3, 1, 4, 0, 2]]
    assert record_from_finish_orders(rules.to_dict(), NAMES5, by_player, first_dealer=2,
                                     by="player") == by_seat
    assert record_from_finish_orders(rules, NAMES5, []) == Record(rules, tuple(NAMES5), ())


def test_record_from_finish_orders_refusals():
    rules = Rules.preset("house", players=4)
    with pytest.raises(RecordError) as e:
        record_from_finish_orders(rules, NAMES4, [[0, 1, 2, 3], [0, 1, 1, 3]])
    assert (e.value.field, e.value.deal, e.value.step) == ("deals[1].finish_order", 1, "finish")
    assert "must name every seat 0 to 3 exactly once" in e.value.message
    with pytest.raises(RecordError) as e:
        record_from_finish_orders(rules, NAMES4, HOUSE_TO_11 + [[0, 1, 2, 3]])
    assert e.value.field == "deals[8].finish_order"
    assert "the match ended with deal 8" in e.value.message
    with pytest.raises(RecordError, match="choose \"seat\" or \"player\""):
        record_from_finish_orders(rules, NAMES4, [], by="name")
    with pytest.raises(RecordError) as e:
        record_from_finish_orders(rules, NAMES4, [], first_dealer=4)
    assert e.value.field == "first_dealer"
    with pytest.raises(RecordError) as e:
        record_from_finish_orders({"preset": "house", "players": 9}, NAMES4, [])
    assert e.value.field.startswith("rules")
    with pytest.raises(RecordError) as e:
        record_from_finish_orders(rules, NAMES4[:3], [])
    assert e.value.field == "players"


def test_deal_record_writes_finish_order_alone():
    deal = DealRecord(dealer=2, finish_order=(1, 0, 2, 3))
    assert deal.by_order and deal.to_dict() == {"dealer": 2, "finish_order": [1, 0, 2, 3]}
    assert not DealRecord(seed=1).by_order


SPECS = [("house", (4, 5, 7)), ("house+fresh-hands", (4,)), ("house+three-deals", (4, 6)),
         ("family", (4, 5)), ("family+lowest-three-starts", (4,)), ("practice", (4,)),
         ("first-night", (3, 5)), ("first-night+swap", (3, 4, 5, 7))]


@st.composite
def mixed_matches(draw):
    """A live match whose deals are played card by card or ended by a finishing order,
    the last one possibly part-way."""
    spec, sizes = draw(st.sampled_from(SPECS))
    players = draw(st.sampled_from(sizes))
    seed = draw(st.integers(0, 2**32 - 1))
    kinds = draw(st.lists(st.sampled_from(["order", "play"]), min_size=1, max_size=4))
    cut = draw(st.integers(0, 400))
    match = Match(Rules.parse(spec, players=players), seed=seed, first_dealer=seed % players)
    rng = random.Random(seed)
    for i, kind in enumerate(kinds):
        if i:
            if match.phase == "match-over":
                break
            match.start_next_deal()
        last = i == len(kinds) - 1
        if kind == "order":
            order = list(range(players))
            rng.shuffle(order)
            match.finish_by_order(order)
            continue
        taken = 0
        while match.phase in ("exchange", "play") and not (last and taken >= cut):
            match.act(match.to_act, rng.choice(match.legal_actions()))
            taken += 1
    return match


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mixed_matches())
def test_mixed_live_matches_round_trip(match):
    text = dumps(match)
    record = loads(text)
    assert record == record_from_match(match)
    result = replay(record)
    assert result.ok, result.error
    assert same_state(result.match, match)
    assert result.scores == match.scores and result.winners == list(match.winners)
    assert result.next_deal == match.next_deal_plan()
    assert dumps(result.match) == text
    kept = [d.by_order for d in record.deals]
    assert [d["hands"] is None for d in result.deals] == kept


@settings(max_examples=150, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers(-2, 6) | st.text(max_size=4),
                    lambda inner: st.lists(inner, max_size=6), max_leaves=12))
def test_any_finish_order_value_is_a_record_error_or_a_replay_never_a_crash(order):
    data = orders_record("first-night", NAMES4, [[0, 1, 2, 3], order])
    try:
        rec = loads(json.dumps(data))
    except RecordError as e:
        assert e.field == "deals[1].finish_order"
        return
    result = replay(rec)
    assert result.ok or (result.error.reason == "bad-order" and result.error.deal == 1)
    json.dumps(result.to_dict())


# ----- the documentation ----------------------------------------------------------------------

def _block(doc: str, after: str, lang: str) -> str:
    section = doc[doc.index(after):]
    block = section[section.index(f"```{lang}\n") + len(lang) + 4:]
    return block[:block.index("```")]


def test_the_real_cards_example_in_docs_is_the_data_file_and_real_output(capsys):
    doc = (ROOT / "docs" / "records.md").read_text(encoding="utf-8")
    path = DATA / "house_real_cards.json"
    example = _block(doc, "### A deal played with real cards", "json")
    assert json.loads(example) == json.loads(path.read_text(encoding="utf-8"))
    assert example == path.read_text(encoding="utf-8")
    words = _block(doc, "### A deal played with real cards", "text")
    status = main(["replay", str(path)])
    out = capsys.readouterr().out
    assert status == 0 and out.replace(str(path), path.name) == words
    # The replayed deal is left out: three deals stood, numbered 1 to 3, and the sheet's
    # totals; the record is what a table companion's sheet would write.
    result = replay(loads(path.read_text(encoding="utf-8")))
    assert len(result.deals) == 3 and result.scores == [3, 1, 5, 0]
    orders = [d.finish_order for d in result.record.deals]
    assert record_from_finish_orders(Rules.preset("house", players=4), NAMES4, orders,
                                     first_dealer=1) == result.record
    json_doc = doc[doc.index("- `next_deal` is the deal"):]
    shown = json_doc[json_doc.index("`{") + 1:json_doc.index("}`") + 1]
    assert json.loads(shown) == result.next_deal


def test_the_api_md_records_example_runs():
    doc = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    code = _block(doc, "## Game records", "python")
    scope: dict = {}
    exec(compile(code, "api.md", "exec"), scope)
    assert scope["result"].scores == [3, 0, 3, 0]
    assert scope["result"].next_deal["number"] == 3
    assert records.loads(scope["text"]) == scope["record"]
