"""Deals played with real cards, kept by their finishing order (issue 10): ``Match.finish_by_order``
and what the next deal will be, ``Match.next_deal_plan`` (seats, dealer, lead, exchange)."""

from __future__ import annotations

import pytest

from president import Match, Rules
from president.errors import IllegalAction
from president.events import DealEnded, MatchEnded, WentOut


def test_family_five_players_three_deals_reseat_by_finish():
    """Seed ``001_6a3b64d15368b01c.txt``: sit in finishing order, the last to finish deals,
    the President leads, 2 and 1 points; titles President, Vice-President, 3rd, 4th, last to
    finish."""
    names = ["Ann", "Bo", "Cy", "Di", "Ed"]
    m = Match(Rules.preset("family", players=5), names, seed=1)
    assert m.phase == "play"
    events = m.finish_by_order([2, 0, 4, 1, 3])
    assert [type(e) for e in events] == [WentOut] * 4 + [DealEnded]
    ended = events[-1]
    assert ended.finish_order == (2, 0, 4, 1, 3)
    assert [ended.titles[s] for s in ended.finish_order] == ["President", "Vice-President", "3rd",
                                                              "4th", "last to finish"]
    assert m.scores == [1, 0, 2, 0, 0] and m.phase == "between-deals"
    plan = m.next_deal_plan()
    # Players sit in finishing order; the last to finish (Di, player 3) deals; Cy leads.
    assert plan["number"] == 2 and plan["seating"] == [2, 0, 4, 1, 3]
    assert plan["dealer"] == 4 and plan["leader"] == 0
    assert plan["exchange"] == [{"giver": 4, "receiver": 0, "count": 1, "forced": True},
                                {"giver": 0, "receiver": 4, "count": 1, "forced": False}]
    m.start_next_deal()
    assert m.seating == (2, 0, 4, 1, 3) and m.deal.dealer == 4 and m.phase == "exchange"
    m.finish_by_order([4, 3, 2, 1, 0])         # the exchange was made at the table
    assert m.scores == [1, 1, 2, 2, 0]          # Di (seat 4) President, Bo (seat 3) Vice
    assert m.next_deal_plan()["seating"] == [3, 1, 4, 0, 2]
    m.start_next_deal()
    m.finish_by_order([0, 1, 2, 3, 4])
    assert m.scores == [1, 2, 2, 4, 0] and m.deal_number == 3


@pytest.mark.parametrize("players, swaps", [
    (3, [(2, 0, 1, True), (0, 2, 1, False)]),
    (4, [(3, 0, 2, True), (0, 3, 2, False), (2, 1, 1, True), (1, 2, 1, False)]),
    (5, [(4, 0, 2, True), (0, 4, 2, False), (3, 1, 1, True), (1, 3, 1, False)]),
])
def test_first_night_swap_plan_at_3_4_and_5(players, swaps):
    """Seed ``004_7dd5a514fa081721.txt`` with the swap: the bottom gives two to the President
    and gets two back, VP-bottom and Vice-President swap one; at three only one card each way
    between President and bottom; the bottom seat deals and the President leads."""
    m = Match(Rules.preset("first-night", players=players, twists=["swap"]), seed=2)
    m.finish_by_order(list(range(players)))
    plan = m.next_deal_plan()
    assert plan["seating"] == list(range(players)) and plan["dealer"] == players - 1
    assert plan["leader"] == 0
    assert [(x["giver"], x["receiver"], x["count"], x["forced"]) for x in plan["exchange"]] == swaps


def test_house_to_eleven_with_a_shared_win():
    """Seed ``000_2ebb75a2290c9d05.txt``: 2 and 1 points, the deal that takes a total to 11
    ends the match, tied highest totals share the win; fixed seats, the dealer moves left."""
    m = Match(Rules.preset("house", players=4), ["A", "B", "C", "D"], seed=3)
    dealers = []
    # A and B reach 9 and 10, then finish first and second together: 11 each.
    orders = [[1, 0, 2, 3], [0, 1, 2, 3], [1, 0, 2, 3], [0, 1, 2, 3], [1, 0, 2, 3],
              [1, 2, 0, 3], [0, 2, 1, 3], [0, 1, 2, 3]]
    for order in orders:
        dealers.append(m.deal.dealer)
        events = m.finish_by_order(order)
        if m.phase == "match-over":
            break
        m.start_next_deal()
    assert isinstance(events[-1], MatchEnded)
    assert m.scores[0] >= 11 and m.scores[0] == m.scores[1] and m.winners == (0, 1)
    assert dealers[:5] == [3, 0, 1, 2, 3] and len(dealers) == 8
    assert m.next_deal_plan() is None


def test_bad_orders_are_refused_and_change_nothing():
    m = Match(Rules.preset("house", players=4), seed=4)
    before = m.snapshot()
    for bad, reason in [([0, 1, 2], "bad-order"), ([0, 1, 2, 2], "bad-order"),
                        ([0, 1, 2, 4], "bad-order"), (["0", 1, 2, 3], "bad-order"),
                        ([True, 0, 2, 3], "bad-order")]:
        with pytest.raises(IllegalAction) as e:
            m.finish_by_order(bad)
        assert e.value.reason == reason and "every seat" in e.value.message
    assert m.snapshot() == before and m.events[-1].__class__.__name__ == "Dealt"
    m.act(m.to_act, m.legal_actions()[0])
    with pytest.raises(IllegalAction) as e:
        m.finish_by_order([0, 1, 2, 3])
    assert e.value.reason == "wrong-phase"
    assert m.next_deal_plan() is None           # a deal is being played


def test_holder_of_a_card_lead_is_unknown_before_the_deal():
    m = Match(Rules.preset("family", players=4, twists=["lowest-three-starts"]), seed=5)
    # Only the first deal's lead depends on a card; later deals the President leads.
    m.finish_by_order([1, 2, 3, 0])
    assert m.next_deal_plan()["leader"] == 0    # the President sits first when reseated
