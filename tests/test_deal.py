"""Scenario tests of one deal: the worked examples of docs/rules.md and the seeds, the core rules
(lead, beat, pass, clear, going out, end of the deal, who leads after a clear), and the
deal-level options ``beat``, ``passing`` and ``last_of_rank_clears``.

Every position is built from notation (``Deal.from_hands`` / ``Match(..., hands=...)``); no
test relies on a pinned random stream. Seats are numbered clockwise; ``dealer`` defaults to
the last seat, so seat 0 leads unless a test says otherwise.
"""

from __future__ import annotations

import pytest

from president import (PASS, DealEnded, IllegalAction, Match, Passed, PileCleared, Play, Played,
                       Rules, WentOut)
from president.deal import Deal, deal_hands, hand_sizes

HOUSE = Rules.preset("house", players=4)
FIRST_NIGHT = Rules.preset("first-night", players=4)


def run(game, script):
    """Apply ``[(seat, "notation"), ...]`` to a Deal or Match; return all events in order."""
    events = []
    for seat, text in script:
        if isinstance(game, Deal):
            action = PASS if text == "pass" else Play.parse(text)
            events.extend(game.apply(seat, action))
        else:
            events.extend(game.act(seat, text))
    return events


def P(text: str) -> Play:
    return Play.parse(text)


# ----- worked examples (docs/rules.md "Worked examples from the seeds") -----------------------

ALEX, BLAIR, CASEY, DREW = 0, 1, 2, 3


def alex_to_kings(blair_hand: str) -> Deal:
    """Seed 000 (``000_2ebb75a2290c9d05.txt``): Alex leads a pair of fives, Blair passes,
    Casey plays a pair of nines, Drew passes, Alex passes, Blair plays a pair of kings."""
    deal = Deal.from_hands(HOUSE, ["5C 5D 8C", blair_hand, "9C 9D QC", "4C 6C 7C"], dealer=DREW)
    assert deal.to_act == ALEX
    events = run(deal, [(ALEX, "5C 5D"), (BLAIR, "pass"), (CASEY, "9C 9D"), (DREW, "pass"),
                        (ALEX, "pass")])
    # Only two passes since Casey's nines: the pile stays, and Blair may re-enter.
    assert not any(isinstance(e, PileCleared) for e in events)
    assert deal.to_act == BLAIR
    assert deal.is_legal(BLAIR, P("KC KD"))
    run(deal, [(BLAIR, "KC KD")])
    return deal


def test_seed000_reenter_all_three_pass_then_blair_leads():
    """Seed 000 (``000_2ebb75a2290c9d05.txt``) text example, and docs/rules.md worked example 1:
    Casey, Drew and Alex must each answer Blair's kings; if all three pass, the pile clears
    and Blair leads."""
    deal = alex_to_kings("KC KD 3C")
    seen = []
    for seat in (CASEY, DREW, ALEX):
        assert deal.to_act == seat
        seen.extend(deal.apply(seat, PASS))
    assert seen == [Passed(CASEY), Passed(DREW), Passed(ALEX),
                    PileCleared("all-passed", BLAIR, BLAIR)]
    assert deal.to_act == BLAIR and deal.pile == []
    assert deal.refusal(BLAIR, PASS).reason == "cannot-pass-lead"


def test_seed000_kings_were_blairs_last_cards_then_casey_leads():
    """Seed 000 (``000_2ebb75a2290c9d05.txt``): if Blair's kings emptied their hand, Blair
    goes out first and, after Casey, Drew and Alex pass, Casey leads the new pile."""
    deal = alex_to_kings("KC KD")
    assert deal.finish_order == [BLAIR]
    assert deal.counts[BLAIR] == 0
    # Blair is out: all three others must pass before the pile clears.
    assert run(deal, [(CASEY, "pass"), (DREW, "pass")]) == [Passed(CASEY), Passed(DREW)]
    assert deal.to_act == ALEX
    assert deal.apply(ALEX, PASS) == [Passed(ALEX), PileCleared("all-passed", BLAIR, CASEY)]
    assert deal.to_act == CASEY


def test_seed000_kings_going_out_are_recorded_at_once():
    """Seed 000: a player who uses their last cards is recorded at once, and their final play
    still sets the rank and number for the next player to beat."""
    deal = Deal.from_hands(HOUSE, ["5C 5D 8C", "KC KD", "9C 9D QC", "4C 6C 7C"])
    run(deal, [(0, "5C 5D"), (1, "pass"), (2, "9C 9D"), (3, "pass"), (0, "pass")])
    events = deal.apply(1, P("KC KD"))
    assert events == [Played(1, P("KC KD"), False), WentOut(1, 1, "President")]
    assert deal.to_beat is P("KC KD")
    assert deal.to_act == 2


@pytest.mark.parametrize("rules", [HOUSE, Rules.preset("practice"), Rules.preset("family")])
def test_worked_example_2_counts_and_twos(rules):
    """docs/rules.md worked example 2, seed 000 (``000_2ebb75a2290c9d05.txt``) and seed 003: a
    single 2 does not beat a pair; a pair of 2s beats a pair of aces; three kings do not beat
    a pair of queens, but two of those kings do, keeping the third."""
    deal = Deal.from_hands(rules, ["AC AD 4C", "2C 2D KC KD KH", "5C", "6C"])
    run(deal, [(0, "AC AD")])
    assert deal.refusal(1, P("2C")).reason == "wrong-count"
    assert deal.is_legal(1, P("2C 2D"))
    deal2 = Deal.from_hands(rules, ["QC QD 4C", "2C KC KD KH", "5C", "6C"])
    run(deal2, [(0, "QC QD")])
    assert deal2.refusal(1, P("2C")).reason == "wrong-count"
    assert deal2.refusal(1, P("KC KD KH")).reason == "wrong-count"
    assert set(deal2.legal_actions()) == {P("KC KD"), P("KC KH"), P("KD KH"), PASS}
    run(deal2, [(1, "KC KH")])
    assert set(map(str, deal2.hand(1))) == {"KD", "2C"}


WEST, NORTH, EAST, SOUTH = 0, 1, 2, 3
SEED004_HANDS = ["9C 9D AC 2C 2D", "JC JD 2H 4C 4D 4H 4S", "5C 5D 6C", "AH AS KC 7C 7D"]
SEED004_SCRIPT = [
    (WEST, "9C 9D"), (NORTH, "JC JD"), (EAST, "pass"), (SOUTH, "AH AS"),
    (WEST, "pass"), (NORTH, "pass"), (EAST, "pass"),
    (SOUTH, "KC"), (WEST, "AC"), (NORTH, "2H"), (EAST, "pass"), (SOUTH, "pass"), (WEST, "pass"),
    (NORTH, "4C 4D 4H 4S"),
]


def test_seed004_walk_through():
    """Seed 004 (``004_7dd5a514fa081721.txt``), "Walk through one first-night hand", and
    docs/rules.md worked example 3: West, North, East, South clockwise, South dealt, West leads a
    pair of 9s; ... North leads four 4s, goes out first, and the four 4s clear the pile at
    once (last of a rank); East, the next seat with cards, leads."""
    match = Match(FIRST_NIGHT, ["West", "North", "East", "South"], hands=SEED004_HANDS,
                  first_dealer=SOUTH)
    assert match.to_act == WEST  # left of the dealer leads the first deal
    ev = run(match, SEED004_SCRIPT[:7])
    assert ev[-1] == PileCleared("all-passed", SOUTH, SOUTH)
    assert match.to_act == SOUTH
    ev = run(match, SEED004_SCRIPT[7:13])
    assert ev[-1] == PileCleared("all-passed", NORTH, NORTH)
    assert match.to_act == NORTH
    ev = run(match, SEED004_SCRIPT[13:])
    assert ev == [Played(NORTH, P("4C 4D 4H 4S"), True), WentOut(NORTH, 1, "President"),
                  PileCleared("last-of-rank", NORTH, EAST)]
    assert match.to_act == EAST
    assert match.deal.pile == []
    # "East, South, and you keep climbing. You go out second... East third... South still
    # holds cards: bottom seat."
    ev = run(match, [(EAST, "5C 5D"), (SOUTH, "pass"), (WEST, "2C 2D")])
    assert ev[-1] == WentOut(WEST, 2, "Vice-President")
    # West went out: both East and South must pass before the pile clears; East then leads.
    ev = run(match, [(EAST, "pass"), (SOUTH, "pass")])
    assert ev[-1] == PileCleared("all-passed", WEST, EAST)
    ev = run(match, [(EAST, "6C")])
    # Seed 004 names this seat VP-bottom in the walk-through and Vice-Scum in its seating
    # rules; the engine says Vice-Scum. The seat still holding cards is the bottom.
    assert ev[1] == WentOut(EAST, 3, "Vice-Scum")
    assert isinstance(ev[2], DealEnded)
    assert ev[2].finish_order == (NORTH, WEST, EAST, SOUTH)
    assert ev[2].titles == ("Vice-President", "President", "Vice-Scum", "bottom")
    assert match.deal.hand(SOUTH) == tuple(sorted(Play.parse("7C 7D").cards))
    assert match.phase == "between-deals"


# ----- core rules ------------------------------------------------------------------------

def test_lead_fixes_count_and_latest_play_is_the_one_to_beat():
    """docs/rules.md "The pile" (seeds 000, 003): the lead fixes the count; the latest play, not
    the first, is the one to beat."""
    deal = Deal.from_hands(HOUSE, ["5C 5D 8C", "9C 9D 7C 7D", "6C 6D KH", "2C 2D"])
    run(deal, [(0, "5C 5D"), (1, "9C 9D")])
    assert deal.refusal(2, P("6C 6D")).reason == "not-higher"  # beats 5s, not 9s
    assert deal.refusal(2, P("KH")).reason == "wrong-count"
    assert deal.legal_actions() == [PASS]
    run(deal, [(2, "pass"), (3, "2C 2D")])
    assert deal.to_beat is P("2C 2D")


def test_anyone_but_the_leader_may_pass_even_holding_a_legal_play():
    """docs/rules.md "The leader must play" (seeds 000, 003)."""
    deal = Deal.from_hands(HOUSE, ["5C 8C", "9C 7C", "6C KH", "2C 3D"])
    assert PASS not in deal.legal_actions()
    run(deal, [(0, "5C")])
    assert P("9C") in deal.legal_actions() and PASS in deal.legal_actions()
    assert deal.apply(1, PASS) == [Passed(1)]
    assert deal.to_act == 2


def test_passes_are_counted_from_the_latest_play():
    """Seed 000: "Count passes from the most recent play, not from the start of the pile"."""
    deal = Deal.from_hands(HOUSE, ["5C 8C", "9C 7C", "6C KH", "2C 3D"])
    ev = run(deal, [(0, "5C"), (1, "pass"), (2, "pass"), (3, "2C"), (0, "pass"), (1, "pass")])
    assert not any(isinstance(e, PileCleared) for e in ev)
    assert deal.to_act == 2
    assert deal.apply(2, PASS)[-1] == PileCleared("all-passed", 3, 3)


def test_turn_order_skips_players_without_cards_and_cleared_cards_are_out():
    """docs/rules.md "Turn order" and "Clearing" (seed 003: "If it is your turn and you have no
    cards left, the turn moves on to the next player")."""
    deal = Deal.from_hands(HOUSE, ["4C 9C", "5C", "6C 3S", "7C 3H"])
    ev = run(deal, [(0, "4C"), (1, "5C")])
    assert ev[-1] == WentOut(1, 1, "President")
    run(deal, [(2, "6C"), (3, "7C"), (0, "9C")])
    # seat 0 went out too; the turn goes 0 -> 2 (1 is skipped, it is out).
    assert deal.finish_order == [1, 0]
    assert deal.to_act == 2
    ev = run(deal, [(2, "pass"), (3, "pass")])
    # The latest player (0) is out: the next seat clockwise that still holds cards leads,
    # skipping seat 1, which is out as well.
    assert ev[-1] == PileCleared("all-passed", 0, 2)
    assert deal.to_act == 2
    assert {str(c) for c in Play.parse("4C").cards} <= {str(c) for c in _cleared(deal)}
    assert len(_cleared(deal)) == 5


def _cleared(deal):
    from president.cards import cards_from_mask
    return cards_from_mask(deal.cleared)


def test_two_players_left_one_pass_clears():
    """Seed 000: "With two players still holding cards, one opponent's pass clears the
    pile"; docs/rules.md "End of the deal"."""
    deal = Deal.from_hands(HOUSE, ["4C 9C 10C", "5C", "6C 3S", "2C"])
    run(deal, [(0, "4C"), (1, "5C"), (2, "6C"), (3, "2C")])
    assert deal.finish_order == [1, 3]
    assert deal.to_act == 0
    ev = run(deal, [(0, "pass"), (2, "pass")])
    # Latest player (3) out: both remaining pass, seat 0 (next clockwise after 3) leads.
    assert ev[-1] == PileCleared("all-passed", 3, 0)
    run(deal, [(0, "9C")])
    assert deal.to_act == 2
    assert deal.apply(2, PASS) == [Passed(2), PileCleared("all-passed", 0, 0)]
    assert deal.to_act == 0


def test_going_out_with_a_two_and_end_of_deal_keeps_the_last_hand():
    """docs/rules.md "Going out" and "End of the deal" (seed 000: "When only one player has
    cards, record that player last and end the deal; they do not need to play the rest")."""
    deal = Deal.from_hands(HOUSE, ["2C", "3C 3D 5S", "2D", "4C"])
    ev = run(deal, [(0, "2C")])
    assert ev == [Played(0, P("2C"), True), WentOut(0, 1, "President")]
    run(deal, [(1, "pass"), (2, "pass"), (3, "pass")])  # all remaining pass: 1 leads
    assert deal.to_act == 1
    run(deal, [(1, "3C"), (2, "2D")])
    assert deal.finish_order == [0, 2]
    run(deal, [(3, "pass"), (1, "pass")])
    assert deal.to_act == 3
    ev = run(deal, [(3, "4C")])
    assert ev[1] == WentOut(3, 3, "3rd")
    assert ev[2] == DealEnded((0, 2, 3, 1), (2, 0, 1, 0), (2, 0, 1, 0),
                              ("President", "last", "Vice-President", "3rd"))
    assert deal.over and deal.to_act is None
    assert {str(c) for c in deal.hand(1)} == {"3D", "5S"}
    assert deal.refusal(1, P("3D")).reason == "deal-over"
    assert deal.legal_actions() == []


@pytest.mark.parametrize("players,sizes", [
    (3, (18, 17, 17)), (4, (13,) * 4), (5, (11, 11, 10, 10, 10)),
    (6, (9, 9, 9, 9, 8, 8)), (7, (8, 8, 8, 7, 7, 7, 7))])
def test_hand_sizes_first_seats_dealt_to_get_the_extra_card(players, sizes):
    """docs/rules.md "Deal" (seeds 000, 004): 3 → 18/17/17, 4 → 13, 5 → 11/10, 6 → 9/8, 7 → 8/7;
    the seats dealt to first, starting left of the dealer, get the extra card."""
    assert hand_sizes(players) == sizes
    for dealer in range(players):
        hands = deal_hands(players, dealer, seed=dealer + 17)
        got = [hands[(dealer + 1 + i) % players].bit_count() for i in range(players)]
        assert tuple(got) == sizes
        union = 0
        for h in hands:
            assert h & union == 0
            union |= h
        assert union == (1 << 52) - 1


def test_suits_never_break_ties():
    """docs/rules.md "Deck" (seed 003: suits "do not break equal-rank ties")."""
    deal = Deal.from_hands(HOUSE, ["7C 8C", "7S 9C", "3C", "4C"])
    run(deal, [(0, "7C")])
    assert deal.refusal(1, P("7S")).reason == "not-higher"


# ----- option: beat ----------------------------------------------------------------------

@pytest.mark.parametrize("beat,legal", [("higher", False), ("equal-or-higher", True)])
def test_beat_option_equal_rank(beat, legal):
    """Option ``beat``: seed 000 (strictly higher, "Equal ranks never beat each other") vs
    seed 004 / seed 001 Equal plays ("a pair of sevens on a pair of sevens")."""
    rules = Rules.preset("family", players=4, beat=beat)
    deal = Deal.from_hands(rules, ["7C 7D 3C", "7H 7S 4C", "5C", "6C"])
    run(deal, [(0, "7C 7D")])
    refusal = deal.refusal(1, P("7H 7S"))
    assert (refusal is None) == legal
    if not legal:
        assert refusal.reason == "not-higher"
    assert (P("7H 7S") in deal.legal_actions()) == legal
    assert deal.refusal(1, P("4C")).reason == "wrong-count"


# ----- option: passing -------------------------------------------------------------------

PASSING_HANDS = ["5C 3C", "KC 3D", "9C 3H", "6C 3S"]


@pytest.mark.parametrize("passing", ["re-enter", "sit-out", "once-around"])
def test_passing_options_differ_on_one_position(passing):
    """Option ``passing`` (seed 000 main rules: re-enter; seed 000 twist "Pass and sit out";
    seed 001 "Once around"). A leads 5, B passes, C plays 9, D passes:
    once-around clears here (everyone had one turn) and C leads; otherwise A may answer.
    A passes: sit-out clears (B sat out), re-enter gives B the turn to re-enter."""
    rules = Rules.preset("house", players=4, passing=passing)
    deal = Deal.from_hands(rules, PASSING_HANDS)
    ev = run(deal, [(0, "5C"), (1, "pass"), (2, "9C"), (3, "pass")])
    if passing == "once-around":
        assert ev[-1] == PileCleared("once-around", 2, 2)
        assert deal.to_act == 2
        return
    assert deal.to_act == 0
    ev = run(deal, [(0, "pass")])
    if passing == "sit-out":
        assert ev == [Passed(0), PileCleared("all-passed", 2, 2)]
        assert deal.to_act == 2
    else:
        assert ev == [Passed(0)]
        assert deal.to_act == 1
        assert deal.is_legal(1, P("KC"))


def test_sit_out_skips_passed_players():
    """Seed 000 twist "Pass and sit out": skip passed players as well as players with empty
    hands; the pile clears when only the latest player is eligible; everyone holding cards
    is eligible again on the next pile."""
    rules = Rules.parse("house+sit-out")
    deal = Deal.from_hands(rules, ["5C 10C 3C", "KC 4D", "9C 3H JH", "6C 3S"])
    run(deal, [(0, "5C"), (1, "pass"), (2, "9C"), (3, "pass"), (0, "10C")])
    # B and D sat out: C is next, not B.
    assert deal.to_act == 2
    ev = run(deal, [(2, "JH")])
    # Only A is still eligible besides C.
    assert deal.to_act == 0
    ev = run(deal, [(0, "pass")])
    assert ev == [Passed(0), PileCleared("all-passed", 2, 2)]
    assert deal.passed == 0
    run(deal, [(2, "3H")])
    assert deal.to_act == 3  # D passed on the old pile but is eligible again
    run(deal, [(3, "pass"), (0, "pass")])
    assert deal.to_act == 1  # B too


def test_sit_out_latest_player_went_out():
    """Seed 000 twist: "its last player leads, or the next clockwise player with cards leads
    if the last player went out"."""
    rules = Rules.parse("house+sit-out")
    deal = Deal.from_hands(rules, ["5C 3C", "KC", "9C 3H", "6C 3S"])
    ev = run(deal, [(0, "5C"), (1, "KC")])
    assert ev[-1] == WentOut(1, 1, "President")
    ev = run(deal, [(2, "pass"), (3, "pass"), (0, "pass")])
    assert ev[-1] == PileCleared("all-passed", 1, 2)


def test_once_around_with_a_player_going_out_mid_round():
    """Seed 001 "Once around": after the lead everyone gets just one chance to beat or
    pass, and the highest play starts the next round, even if a player went out mid-round;
    a player who went out gets no further turn."""
    rules = Rules.parse("family+once-around")
    deal = Deal.from_hands(rules, ["5C 3C", "KC", "9C 3H", "6C 3S"])
    ev = run(deal, [(0, "5C"), (1, "KC")])
    assert ev[-1] == WentOut(1, 1, "President")
    assert deal.to_act == 2
    ev = run(deal, [(2, "pass"), (3, "pass")])
    # Round over after D; the latest player (B) is out, so C leads.
    assert ev[-1] == PileCleared("once-around", 1, 2)
    assert deal.to_act == 2


def test_once_around_leader_gets_no_second_turn_and_lead_that_goes_out():
    """Seed 001 "Once around": the leader does not answer on the same pile; if all others
    pass, the leader leads again; a lead that empties the hand passes the next lead on."""
    rules = Rules.parse("family+once-around")
    deal = Deal.from_hands(rules, ["5C 3C", "KC 4S", "9C 3H", "6C 3S"])
    ev = run(deal, [(0, "5C"), (1, "pass"), (2, "pass"), (3, "pass")])
    assert ev[-1] == PileCleared("once-around", 0, 0)
    ev = run(deal, [(0, "3C")])
    assert ev[-1] == WentOut(0, 1, "President")
    ev = run(deal, [(1, "4S"), (2, "9C"), (3, "pass")])
    assert ev[-1] == PileCleared("once-around", 2, 2)
    # under re-enter, B would have had the turn again after D's pass
    rules2 = Rules.parse("family")
    d2 = Deal.from_hands(rules2, ["5C 3C", "KC 4S", "9C 3H", "6C 3S"])
    run(d2, [(0, "5C"), (1, "pass"), (2, "pass"), (3, "pass"), (0, "3C"), (1, "4S"),
             (2, "9C"), (3, "pass")])
    assert d2.to_act == 1


# ----- option: last_of_rank_clears --------------------------------------------------------

@pytest.mark.parametrize("lor", [True, False])
def test_last_of_rank_pair_onto_pair(lor):
    """Option ``last_of_rank_clears`` (seed 004 "the rest of the 7s onto 7s already there":
    the pile is done and that player leads again) vs seed 001 Equal plays without it."""
    rules = Rules.preset("first-night", players=4, last_of_rank_clears=lor)
    deal = Deal.from_hands(rules, ["7C 7D 3C", "7H 7S 4C", "5C 5D", "6C 6D"])
    ev = run(deal, [(0, "7C 7D"), (1, "7H 7S")])
    if lor:
        assert ev[-1] == PileCleared("last-of-rank", 1, 1)
        assert deal.to_act == 1 and deal.pile == []
    else:
        assert ev[-1] == Played(1, P("7H 7S"), False)
        assert deal.to_act == 2


@pytest.mark.parametrize("lor", [True, False])
def test_last_of_rank_quad_lead(lor):
    """Seed 004: "Four 9s ... the pile is done and that player leads again"; without the
    option a quad lead is answered like any other (a higher quad or pass)."""
    rules = Rules.preset("house", players=4, last_of_rank_clears=lor)
    deal = Deal.from_hands(rules, ["9C 9D 9H 9S 3C", "5C", "6C", "8C"])
    ev = run(deal, [(0, "9C 9D 9H 9S")])
    assert (ev[-1] == PileCleared("last-of-rank", 0, 0)) == lor
    assert deal.to_act == (0 if lor else 1)


def test_last_of_rank_fourth_single_and_going_out():
    """Seed 004: "the fourth 7" clears; when those were the player's last cards the next
    person still in leads."""
    deal = Deal.from_hands(FIRST_NIGHT, ["7C 3C", "7D 4C", "7H 5C", "7S"])
    ev = run(deal, [(0, "7C"), (1, "7D"), (2, "7H")])
    assert not any(isinstance(e, PileCleared) for e in ev)
    ev = run(deal, [(3, "7S")])
    assert ev == [Played(3, P("7S"), False), WentOut(3, 1, "President"), PileCleared("last-of-rank", 3, 0)]
    assert deal.to_act == 0


def test_last_of_rank_counts_only_the_current_pile():
    """docs/rules.md ``last_of_rank_clears``: all four cards of the rank on the *current* pile;
    7s cleared earlier do not count."""
    deal = Deal.from_hands(FIRST_NIGHT, ["7C 7D 3C", "7H 7S 4C", "5C 5D", "6C 6D"])
    run(deal, [(0, "7C 7D"), (1, "pass"), (2, "pass"), (3, "pass"), (0, "3C")])
    run(deal, [(1, "4C"), (2, "pass"), (3, "pass")])  # 0 is out; 1 played last
    assert deal.to_act == 1
    ev = run(deal, [(1, "7H 7S")])
    assert ev[-1] == WentOut(1, 2, "Vice-President")
    assert not any(isinstance(e, PileCleared) for e in ev)


# ----- illegal actions -------------------------------------------------------------------

def test_illegal_actions_change_nothing_in_a_deal():
    """docs/rules.md "Illegal actions": refused with the reason; nothing changes."""
    deal = Deal.from_hands(HOUSE, ["5C 5D 8C", "9C 9D 7C", "6C 6D KH", "2C 2D"])
    run(deal, [(0, "5C 5D")])
    before = deal.snapshot()
    for seat, action, reason in [
        (2, P("6C 6D"), "not-your-turn"),
        (1, P("9H 9S"), "not-in-hand"),
        (1, P("7C"), "wrong-count"),
        (1, P("5C 5D"), "not-in-hand"),
    ]:
        with pytest.raises(IllegalAction) as info:
            deal.apply(seat, action)
        assert info.value.reason == reason
        assert deal.snapshot() == before
