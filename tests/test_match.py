"""Scenario tests of a match: the options ``exchange``, ``seating``, ``first_lead``,
``later_lead``, ``scoring`` and ``match_end``, titles, illegal actions at every phase, and
what an observation shows.

Positions are built from notation. ``finish_deal`` searches the legal actions of a small
position for a line of play that ends the deal with a chosen finishing order, so a test can
say "the deal ends P0, P2, P3, P1" without spelling out every card.
"""

from __future__ import annotations

import copy

import pytest

from president import (PASS, PRESETS, DealEnded, Dealt, Exchanged, Give, IllegalAction, Match,
                       MatchEnded, Play, Rules, Transfer, WentOut, visible_to)
from president.cards import parse_cards
from president.deal import Deal


def finish_deal(match: Match, order) -> list:
    """Play the current deal of ``match`` to its end with ``order`` (seats, first to last) as
    the finishing order; return the events. Fails the test if no line of play gives it."""
    line = _search(match.deal, list(order), set())
    assert line is not None, f"no line of play finishes {order}"
    events = []
    for seat, action in line:
        events.extend(match.act(seat, action))
    return events


def _search(deal: Deal, order, dead: set):
    """Depth-first search for a line of play; ``dead`` remembers positions that fail."""
    if deal.over:
        return [] if deal.finish_order == order else None
    if deal.finish_order != order[:len(deal.finish_order)]:
        return None
    key = (tuple(deal.hands), tuple(deal.pile), deal.to_act, deal.passes, deal.passed,
           tuple(deal.round_left), tuple(deal.finish_order))
    if key in dead:
        return None
    seat = deal.to_act
    target = order[len(deal.finish_order)]
    acts = deal.legal_actions()
    size = lambda a: 0 if a is PASS else a.count  # noqa: E731
    acts.sort(key=(lambda a: -size(a)) if seat == target else (lambda a: (a is not PASS, size(a))))
    for action in acts:
        child = copy.deepcopy(deal)
        child.apply(seat, action)
        rest = _search(child, order, dead)
        if rest is not None:
            return [(seat, action)] + rest
    dead.add(key)
    return None


def do_exchange(match: Match) -> list:
    """Make every exchange step with the first legal give; return the events."""
    events = []
    while match.phase == "exchange":
        events.extend(match.act(match.to_act, match.legal_actions()[0]))
    return events


def cards(text):
    return tuple(sorted(parse_cards(text)))


SMALL4 = ["3C 7C", "4C 8C", "5C 9C", "6C 10C"]


def _house(**options):
    return Rules.preset("house", players=4, **options)


# ----- no exchange before a match's first deal; exchange option values --------------------

@pytest.mark.parametrize("spec,players", [("house", 4), ("family", 5), ("first-night+swap", 3),
                                          ("first-night+swap", 4)])
def test_no_exchange_before_a_matchs_first_deal(spec, players):
    """docs/rules.md ``exchange`` "never before the first deal of a match" (seed 000: "start
    everyone at zero with no exchange on the first deal")."""
    match = Match(Rules.parse(spec, players=players), seed=5)
    assert match.phase == "play"
    assert match.exchange_steps == []
    assert match.scores == [0] * players


@pytest.mark.parametrize("exchange,steps", [
    ("none", []),
    ("one-card", [Transfer(1, 2, 1, True), Transfer(2, 1, 1, False)]),
    ("two-and-one", [Transfer(1, 2, 2, True), Transfer(2, 1, 2, False),
                     Transfer(3, 0, 1, True), Transfer(0, 3, 1, False)]),
])
def test_exchange_option_values(exchange, steps):
    """Option ``exchange``: the same finished deal (places: seat 2, 0, 3, 1) leads to no
    exchange, the one-card exchange (seed 000/001) or the two-and-one swap (seed 004)."""
    match = Match(_house(exchange=exchange), hands=SMALL4)
    finish_deal(match, [2, 0, 3, 1])
    match.start_next_deal(hands=SMALL4)
    assert match.exchange_steps == steps
    assert match.phase == ("play" if exchange == "none" else "exchange")
    if steps:
        assert match.to_act == steps[0].giver
        assert match.pending_transfer == steps[0]


def test_one_card_exchange_forced_highest_giver_picks_suit_free_give_back():
    """Seed 000: "The previous last-place player hands their single highest-ranked card ...
    to the President; if tied in rank, choose either suit. The President adds it to their
    hand, then returns any one card ... Check that both hands retain their dealt sizes."
    Seed 001: the President "gives back any card they do not want"."""
    match = Match(_house(), hands=SMALL4)
    finish_deal(match, [2, 0, 3, 1])  # President seat 2, last seat 1
    hands = ["3C 4C 5C", "4D 7D 2C 2D", "9C 10C JC", "QC KC AC"]
    match.start_next_deal(hands=hands)
    assert match.to_act == 1
    assert set(match.legal_actions()) == {Give.parse("2C"), Give.parse("2D")}
    before = match.snapshot()
    for bad in ("7D", "4D 7D", "2C 2D"):
        with pytest.raises(IllegalAction) as info:
            match.act(1, Give.parse(bad))
        assert info.value.reason == "bad-exchange"
        assert "2" in info.value.message
    assert match.snapshot() == before
    ev = match.act(1, "2D")
    assert ev == [Exchanged(1, 2, 1, True, cards("2D"))]
    assert match.to_act == 2
    # The President may give back any one card, even the one just received.
    assert set(match.legal_actions()) == {Give.parse(c) for c in "9C 10C JC 2D".split()}
    ev = match.act(2, "2D")
    assert ev == [Exchanged(2, 1, 1, False, cards("2D"))]
    assert match.phase == "play"
    assert [match.deal.counts[s] for s in range(4)] == [3, 4, 3, 3]
    assert match.deal.hand(1) == cards("4D 7D 2C 2D")
    # Seed 000: "The previous President opens this deal".
    assert match.to_act == 2


def test_exchange_give_back_of_a_different_card():
    """Seed 000/001 one-card exchange, the President keeps the 2 and returns a low card."""
    match = Match(_house(), hands=SMALL4)
    finish_deal(match, [2, 0, 3, 1])
    match.start_next_deal(hands=["3C 4C 5C", "4D 7D 2C", "9C 10C JC", "QC KC AC"])
    match.act(1, "2C")
    match.act(2, "9C")
    assert match.deal.hand(1) == cards("4D 7D 9C")
    assert match.deal.hand(2) == cards("10C JC 2C")


def test_two_and_one_forced_two_highest_with_tied_boundary():
    """Seed 004 swap: the bottom gives their two best cards; at a tie the giver picks which
    (docs/rules.md ``two-and-one``)."""
    rules = Rules.parse("first-night+swap", players=4)
    match = Match(rules, hands=SMALL4)
    finish_deal(match, [2, 0, 3, 1])
    # by-finish seating: seats now President, VP, Vice-Scum, Scum = players 2, 0, 3, 1
    assert match.next_seating_and_dealer() == ((2, 0, 3, 1), 3)
    match.start_next_deal(hands=["3C 4C 5C", "6C 7C 8C", "9C 10C JC", "5D AC AD AH 2S"])
    assert match.exchange_steps == [Transfer(3, 0, 2, True), Transfer(0, 3, 2, False),
                                    Transfer(2, 1, 1, True), Transfer(1, 2, 1, False)]
    assert set(match.legal_actions()) == {Give.parse(t) for t in ("AC 2S", "AD 2S", "AH 2S")}
    with pytest.raises(IllegalAction) as info:
        match.act(3, "AC AD")
    assert info.value.reason == "bad-exchange"
    match.act(3, "AH 2S")
    # Seed 004: "President gives two worst cards" (give_back = lowest under the swap).
    assert match.legal_actions() == [Give.parse("3C 4C")]
    match.act(0, "3C 4C")
    assert match.to_act == 2  # the Vice-Scum gives one highest card to the VP
    assert match.legal_actions() == [Give.parse("JC")]
    match.act(2, "JC")
    match.act(1, "6C")
    assert match.phase == "play"
    assert match.deal.hand(0) == cards("5C AH 2S")
    assert match.deal.hand(3) == cards("3C 4C 5D AC AD")
    assert match.deal.hand(1) == cards("7C 8C JC")
    assert match.deal.hand(2) == cards("6C 9C 10C")
    assert match.to_act == 0  # President leads


def test_two_and_one_with_three_players_one_card_each():
    """Seed 004: "At three: President gives one, gets one from the bottom. No vice swap"."""
    rules = Rules.parse("first-night+swap", players=3)
    match = Match(rules, hands=["3C 4C", "6C 7C", "9C 10C"])
    finish_deal(match, [1, 2, 0])
    match.start_next_deal(hands=["3C 4C", "6C 7C", "9C 10C 2C"])
    assert match.seating == (1, 2, 0)
    assert match.exchange_steps == [Transfer(2, 0, 1, True), Transfer(0, 2, 1, False)]


@pytest.mark.parametrize("players", [5, 6, 7])
def test_two_and_one_neutrals_keep_their_cards(players):
    """Seed 004: "At five or more: President swaps two with the bottom; VP swaps one with
    Vice-Scum. Neutrals keep their deal"."""
    rules = Rules.parse("first-night+swap", players=players)
    small = [f"{r}C {r}D" for r in "3 4 5 6 7 8 9".split()[:players]]
    match = Match(rules, hands=small)
    finish_deal(match, list(range(players)))
    match.start_next_deal(seed=11)
    dealt = list(match.deal.hands)
    n = players
    assert match.exchange_steps == [Transfer(n - 1, 0, 2, True), Transfer(0, n - 1, 2, False),
                                    Transfer(n - 2, 1, 1, True), Transfer(1, n - 2, 1, False)]
    do_exchange(match)
    for seat in range(2, n - 2):
        assert match.deal.hands[seat] == dealt[seat]
    assert [h.bit_count() for h in match.deal.hands] == [h.bit_count() for h in dealt]
    assert match.deal.counts == [h.bit_count() for h in dealt]


# ----- seating, dealer, first and later lead ---------------------------------------------

def test_fixed_seating_dealer_moves_clockwise():
    """Option ``seating = fixed`` (seed 000: "move the dealer one seat clockwise")."""
    match = Match(_house(exchange="none", later_lead="left-of-dealer"), hands=SMALL4,
                  first_dealer=1)
    assert match.deal.dealer == 1 and match.to_act == 2
    for expected_dealer in (2, 3, 0, 1):
        finish_deal(match, [0, 1, 2, 3] if match.to_act == 0 else _order_from(match.to_act))
        ev = match.start_next_deal(hands=SMALL4)
        assert match.seating == (0, 1, 2, 3)
        assert match.deal.dealer == expected_dealer
        assert ev[0].dealer == expected_dealer
        assert match.to_act == (expected_dealer + 1) % 4


def _order_from(seat, n=4):
    return [(seat + i) % n for i in range(n)]


def test_by_finish_seating_president_dealt_first_last_player_deals():
    """Option ``seating = by-finish`` (seed 001: "sit in that order: Vice-President on the
    President's left, the last to finish on the President's right. The last to finish
    shuffles and deals, starting with the President"; seed 004: "the bottom seat deals")."""
    rules = Rules.preset("family", players=5)
    match = Match(rules, ["A", "B", "C", "D", "E"],
                  hands=["3C 8C", "4C 9C", "5C 10C", "6C JC", "7C QC"])
    finish_deal(match, [3, 1, 4, 0, 2])
    ev = match.start_next_deal(seed=3)
    assert match.seating == (3, 1, 4, 0, 2)
    assert match.deal.dealer == 4  # the last player (C) deals, from the President's right
    assert isinstance(ev[0], Dealt)
    assert ev[0].hand_sizes == (11, 11, 10, 10, 10)  # the President is dealt to first
    assert match.observation(0).names[0] == "D"
    assert match.observation(0).previous_titles == ("President", "Vice-President", "3rd", "4th",
                                                     "last to finish")
    do_exchange(match)
    assert match.to_act == 0


def test_fixed_vs_by_finish_same_result():
    """Option ``seating``: same finished deal, different seats and dealer next deal."""
    for seating, want in [("fixed", ((0, 1, 2, 3), 0)), ("by-finish", ((2, 0, 3, 1), 3))]:
        match = Match(_house(seating=seating), hands=SMALL4)
        finish_deal(match, [2, 0, 3, 1])
        assert match.next_seating_and_dealer() == want


@pytest.mark.parametrize("first_lead,leader", [
    ("left-of-dealer", 3), ("holder-of:3C", 1), ("holder-of:3D", 0), ("seat:2", 2)])
def test_first_lead_values(first_lead, leader):
    """Option ``first_lead`` (seed 000/004: left of the dealer; seed 001 "Lowest three
    starts"; seed 004 "If your table starts on 3♣"; seed 003 "You lead the opening pile")."""
    rules = _house(first_lead=first_lead)
    match = Match(rules, hands=["3D 9C", "3C 8C", "5C", "6C"], first_dealer=2)
    assert match.to_act == leader
    assert match.deal.leader == leader


def test_holding_the_opening_card_only_gives_the_lead():
    """docs/rules.md twists: "Holding the opening card only gives the lead: the lead need not
    include it" (seed 003: "No particular three must be included")."""
    rules = Rules.parse("first-night+three-of-clubs-starts", players=4)
    match = Match(rules, hands=["3D 9C", "3C 8C", "5C", "6C"])
    assert match.to_act == 1
    assert match.is_legal(1, Play.parse("8C"))
    assert Rules.parse("family+lowest-three-starts:3D").first_lead == "holder-of:3D"
    assert Rules.parse("practice").first_lead == "seat:0"


@pytest.mark.parametrize("later_lead", ["president", "left-of-dealer"])
def test_later_lead_values(later_lead):
    """Option ``later_lead`` (seed 000: "The previous President opens this deal" vs the
    "Fresh hands" twist: "the player left of the new dealer opens every deal")."""
    match = Match(_house(exchange="none", later_lead=later_lead), hands=SMALL4)
    finish_deal(match, [2, 0, 3, 1])
    match.start_next_deal(hands=SMALL4)
    assert match.deal.dealer == 0
    assert match.to_act == (2 if later_lead == "president" else 1)


def test_fresh_hands_twist():
    """Seed 000 twist "Fresh hands each deal": no exchange; left of the new dealer opens."""
    match = Match(Rules.parse("house+fresh-hands"), hands=SMALL4)
    finish_deal(match, [2, 0, 3, 1])
    match.start_next_deal(hands=SMALL4)
    assert match.phase == "play" and match.to_act == 1


# ----- scoring, titles, match end --------------------------------------------------------

def test_scoring_by_place_follows_players_across_seatings():
    """Option ``scoring`` 2,1 (seeds 000, 001): points go to players, whatever their seat."""
    match = Match(Rules.preset("family", players=4), ["A", "B", "C", "D"], hands=SMALL4)
    ev = finish_deal(match, [2, 0, 3, 1])
    ended = [e for e in ev if isinstance(e, DealEnded)][0]
    assert ended.points == (1, 0, 2, 0)
    assert match.scores == [1, 0, 2, 0]
    match.start_next_deal(hands=["3C 7C JC", "4C 8C QC", "5C 9C KC", "6C 10C AC"])
    assert match.seating == (2, 0, 3, 1)  # seats now C A D B
    do_exchange(match)
    ev = finish_deal(match, [3, 1, 0, 2])  # seat 3 = B first, seat 1 = A second
    ended = [e for e in ev if isinstance(e, DealEnded)][0]
    assert ended.points == (0, 1, 0, 2)  # by seat
    assert ended.totals == (2, 2, 0, 2)  # by seat: C, A, D, B
    assert match.scores == [2, 2, 2, 0]  # by player A B C D
    assert match.results[-1].points == (1, 2, 0, 0)


def test_scoring_none_roles_only():
    """Option ``scoring = none`` (seed 004 "Roles are the prize, not a score pad")."""
    match = Match(Rules.preset("first-night", players=4), hands=SMALL4)
    ev = finish_deal(match, [2, 0, 3, 1])
    assert [e for e in ev if isinstance(e, DealEnded)][0].points == (0, 0, 0, 0)
    assert match.phase == "between-deals"  # match_end = never


def test_without_scoring_the_last_deals_president_wins():
    """docs/rules.md "Scoring and the end of a match": without scoring the winner of a match
    that ends is the last deal's President (seed 004: "Roles are the prize"), by player
    index, also when by-finish seating has moved the players."""
    match = Match(Rules.preset("first-night", players=4, match_end="deals:2"), hands=SMALL4)
    finish_deal(match, [2, 0, 3, 1])
    match.start_next_deal(hands=SMALL4)
    assert match.seating == (2, 0, 3, 1)
    ev = finish_deal(match, [3, 1, 0, 2])  # seat 3 (player 1) is President
    assert match.phase == "match-over"
    assert match.winners == (1,)
    assert ev[-1] == MatchEnded((1,), (0, 0, 0, 0))


def _titles_at(preset: str, players: int) -> tuple[str, ...]:
    """Play one deal of ``preset`` at ``players`` in which seat i finishes (i+1)-th, and give
    the titles by place, checking that every way the engine names a place agrees: the
    going-out events, the deal's end, ``Match.titles()`` and the next deal's
    ``previous_titles``. A table size the preset does not allow plays under custom rules
    with the preset's ``titles`` (the naming is a rule of its own)."""
    lo, hi, options = PRESETS[preset]
    if lo <= players <= hi:
        rules = Rules.preset(preset, players=players, match_end="deals:2")
    else:
        rules = Rules(players=players, titles=options["titles"], exchange="none",
                      scoring=None, match_end="deals:2")
    match = Match(rules, hands=[f"{r}C" for r in "3 4 5 6 7 8 9".split()[:players]],
                  first_dealer=players - 1)
    ev = finish_deal(match, list(range(players)))
    ended = [e for e in ev if isinstance(e, DealEnded)][0]
    out = {e.seat: e.title for e in ev if isinstance(e, WentOut)}
    assert out == {s: ended.titles[s] for s in range(players - 1)}
    assert match.titles() == ended.titles  # seat i is player i in the first deal
    match.start_next_deal(seed=1)
    assert match.observation(0).previous_titles == tuple(
        ended.titles[p] for p in match.seating)
    return ended.titles


@pytest.mark.parametrize("players,titles", [
    (3, ("President", "Vice-President", "last")),
    (4, ("President", "Vice-President", "3rd", "last")),
    (5, ("President", "Vice-President", "3rd", "4th", "last")),
    (7, ("President", "Vice-President", "3rd", "4th", "5th", "6th", "last")),
])
def test_titles_house(players, titles):
    """``house`` (seed ``000_2ebb75a2290c9d05.txt``): first out President, second
    Vice-President, then the remaining finish places; its "neutral last-place naming" calls
    the last seat "last", never Scum."""
    assert _titles_at("house", players) == titles


@pytest.mark.parametrize("players,titles", [
    (3, ("President", "Vice-President", "last to finish")),
    (4, ("President", "Vice-President", "3rd", "last to finish")),
    (5, ("President", "Vice-President", "3rd", "4th", "last to finish")),
    (7, ("President", "Vice-President", "3rd", "4th", "5th", "6th", "last to finish")),
])
def test_titles_family(players, titles):
    """``family`` (seed ``001_6a3b64d15368b01c.txt``): President, Vice-President, places
    for the seats between, and the player still holding cards is "the last to finish"."""
    assert _titles_at("family", players) == titles


@pytest.mark.parametrize("players,titles", [
    (3, ("President", "2nd", "last")),
    (4, ("President", "2nd", "3rd", "last")),
    (5, ("President", "2nd", "3rd", "4th", "last")),
    (7, ("President", "2nd", "3rd", "4th", "5th", "6th", "last")),
])
def test_titles_president_only(players, titles):
    """The ``president-only`` naming (a custom table's choice): first place President, the
    others by place, the final player last."""
    from president.events import title_for_place
    assert tuple(title_for_place(p, players, naming="president-only")
                 for p in range(1, players + 1)) == titles


def test_titles_practice():
    """``practice`` (seed ``003_e6cd2942d7a2654f.txt``: first place "traditionally
    President", then second place and so on, the final player "last place") uses the house
    naming, as docs/rules.md "Places and titles" and issue 10 give it: President, Vice-President,
    3rd, last."""
    assert _titles_at("practice", 4) == ("President", "Vice-President", "3rd", "last")


@pytest.mark.parametrize("players,titles", [
    (3, ("President", "Neutral", "bottom")),
    (4, ("President", "Vice-President", "Vice-Scum", "bottom")),
    (5, ("President", "Vice-President", "Neutral", "Vice-Scum", "bottom")),
    (7, ("President", "Vice-President", "Neutral", "Neutral", "Neutral", "Vice-Scum",
         "bottom")),
])
def test_titles_first_night(players, titles):
    """``first-night`` (seed ``004_7dd5a514fa081721.txt``): at three the vice ranks are
    skipped; at five or more Neutrals sit between VP and Vice-Scum; the last seat is the
    bottom (the seed never says Scum)."""
    assert _titles_at("first-night", players) == titles


def test_every_preset_names_its_places():
    """Each preset sets ``titles``; a new preset without its own scenario test above fails."""
    assert {name: options["titles"] for name, (_, _, options) in PRESETS.items()} == {
        "house": "places", "family": "last-to-finish", "practice": "places",
        "first-night": "roles"}


def test_points_target_deal_is_played_to_its_end_and_ties_share():
    """``match_end = points:<target>`` (seed 000: "Complete the entire deal that takes any
    total to 11 or more; the highest total wins, with tied highest totals sharing the win.
    Do not stop the deal when its first player finishes")."""
    rules = _house(exchange="none", match_end="points:3")
    match = Match(rules, hands=SMALL4)
    finish_deal(match, [0, 1, 2, 3])
    assert match.scores == [2, 1, 0, 0] and match.phase == "between-deals"
    match.start_next_deal(hands=["3C 4C 2C", "6C", "9C 10C JC", "QC KC AC"])
    assert match.to_act == 0  # the President leads
    match.act(0, "3C")
    match.act(1, "6C")  # seat 1 goes out first, reaching 3 points: the deal goes on
    assert match.deal.finish_order == [1]
    assert match.phase == "play" and match.to_act == 2
    events = finish_deal(match, [1, 0, 2, 3])
    assert match.scores == [3, 3, 0, 0]
    assert events[-1] == MatchEnded((0, 1), (3, 3, 0, 0))
    assert match.phase == "match-over"
    assert match.winners == (0, 1)


def test_points_target_match_continues_mid_deal():
    """Seed 000: the deal goes on after someone's total passes the target."""
    rules = _house(exchange="none", match_end="points:2")
    match = Match(rules, hands=["3C", "4C 4D", "5C 5D", "6C 6D"])
    match.act(0, "3C")
    assert match.deal.finish_order == [0]
    assert match.phase == "play" and match.to_act == 1
    ev = finish_deal(match, [0, 1, 2, 3])
    assert ev[-1] == MatchEnded((0,), (2, 1, 0, 0))


@pytest.mark.parametrize("match_end,deals", [("deals:3", 3), ("single-deal", 1),
                                             ("points:11", 6)])
def test_match_end_values(match_end, deals):
    """Option ``match_end`` (seed 000 "Three-deal match": exactly three complete deals;
    seed 003 one standalone round; seed 000/001 first to 11)."""
    rules = _house(exchange="none", match_end=match_end)
    match = Match(rules, hands=SMALL4)
    played = 0
    while True:
        finish_deal(match, _order_from(match.to_act))
        played += 1
        if match.phase == "match-over":
            break
        match.start_next_deal(hands=SMALL4)
    assert played == deals
    assert match.deal_number == deals


def test_match_end_never():
    """Seed 004 ``match_end = never``: roles only, deals go on."""
    match = Match(Rules.preset("first-night", players=4), hands=SMALL4)
    for _ in range(4):
        finish_deal(match, _order_from(match.to_act))
        assert match.phase == "between-deals"
        match.start_next_deal(hands=SMALL4)


def test_seed004_next_deal_after_the_walk_through():
    """Seed 004 (``004_7dd5a514fa081721.txt``): after North, West, East out and South
    bottom, with the swap "North (President) gives South two junk cards and takes South's
    two best. You (VP) give East one junk card and take East's best. Then South deals, and
    North leads"; seats are by finishing order."""
    rules = Rules.parse("first-night+swap", players=4)
    match = Match(rules, ["West", "North", "East", "South"],
                  hands=["9C 9D AC 2C 2D", "JC JD 2H 4C 4D 4H 4S", "5C 5D 6C", "AH AS KC 7C 7D"],
                  first_dealer=3)
    finish_deal(match, [1, 0, 2, 3])
    match.start_next_deal(hands=["3C 3D 5C", "6C 7C 8C", "9C 10C JC", "QC KC AC"])
    assert [match.players[p] for p in match.seating] == ["North", "West", "East", "South"]
    assert match.deal.dealer == 3  # South deals
    assert match.exchange_steps[0] == Transfer(3, 0, 2, True)  # South -> North, two best
    assert match.legal_actions() == [Give.parse("KC AC")]
    match.act(3, "KC AC")
    match.act(0, "3C 3D")
    assert match.exchange_steps[2] == Transfer(2, 1, 1, True)  # East -> West, best
    match.act(2, "JC")
    match.act(1, "6C")
    assert match.to_act == 0  # North leads


# ----- illegal actions -------------------------------------------------------------------

def _all_views(match):
    return [match.observation(s) for s in range(match.rules.players)]


def _refused(match, seat, action, reason):
    before = (match.snapshot(), _all_views(match), match.to_act, len(match.events))
    with pytest.raises(IllegalAction) as info:
        match.act(seat, action)
    err = info.value
    assert err.reason == reason
    assert isinstance(err.message, str) and len(err.message) > 15
    assert "Traceback" not in err.message and "<" not in err.message
    assert (match.snapshot(), _all_views(match), match.to_act, len(match.events)) == before
    return err


def test_every_illegal_play_reason_changes_nothing():
    """docs/rules.md "Illegal actions": out of turn, wrong count, not higher, cards not in hand,
    mixed ranks, passing a lead, acting after going out, after the deal; refused with the
    reason, nothing changes and the same player still has the turn (seed 000: "No one may
    jump in out of turn")."""
    match = Match(_house(match_end="points:5"),
                  hands=["5C 5D 8C 8D", "9C 9D 7C KS", "6C 6D KH", "2C"])
    _refused(match, 0, PASS, "cannot-pass-lead")
    _refused(match, 0, "pass", "cannot-pass-lead")
    _refused(match, 1, "9C 9D", "not-your-turn")
    _refused(match, 0, "5C 8C", "mixed-ranks")
    _refused(match, 0, list(parse_cards("5C 8D")), "mixed-ranks")
    _refused(match, 0, "5C 5H", "not-in-hand")
    _refused(match, 0, "4D", "not-in-hand")
    _refused(match, 0, "5X", "bad-notation")
    _refused(match, 0, Give.parse("5C"), "wrong-phase")
    match.act(0, "5C 5D")
    _refused(match, 1, "7C", "wrong-count")
    _refused(match, 1, "KS", "wrong-count")
    match.act(1, "9C 9D")
    _refused(match, 2, "6C 6D", "not-higher")
    match.act(2, "pass")
    _refused(match, 3, "2C", "wrong-count")
    match.act(3, "pass")
    match.act(0, "pass")  # pile clears, seat 1 leads
    assert match.to_act == 1
    match.act(1, "7C")
    match.act(2, "KH")
    match.act(3, "2C")  # seat 3 is out
    assert match.deal.finish_order == [3]
    err = _refused(match, 3, "pass", "not-your-turn")
    assert "gone out" in err.message
    finish_deal(match, [3, 0, 1, 2])
    assert match.phase == "between-deals"
    _refused(match, 1, "pass", "deal-over")
    _refused(match, 0, "8C", "deal-over")


def test_illegal_exchange_and_match_over_change_nothing():
    """docs/rules.md ``exchange`` and "Illegal actions" at the exchange and after a match."""
    match = Match(_house(match_end="deals:2"), hands=SMALL4)
    finish_deal(match, [2, 0, 3, 1])
    match.start_next_deal(hands=["3C 4C 5C", "4D 7D 2C", "9C 10C JC", "QC KC AC"])
    _refused(match, 2, "9C", "not-your-turn")
    _refused(match, 1, "pass", "bad-exchange")
    _refused(match, 1, "4D", "bad-exchange")  # not the highest
    _refused(match, 1, "7D 2C", "bad-exchange")  # wrong count
    _refused(match, 1, "2S", "not-in-hand")
    do_exchange(match)
    finish_deal(match, _order_from(match.to_act))
    assert match.phase == "match-over"
    _refused(match, 0, "pass", "match-over")
    with pytest.raises(IllegalAction) as info:
        match.start_next_deal()
    assert info.value.reason == "match-over"


def test_deal_level_deal_over():
    """docs/rules.md "End of the deal": no action is taken after it, reason ``deal-over``."""
    deal = Deal.from_hands(_house(), ["3C", "4C", "5C", "6C 7C"])
    for seat, text in [(0, "3C"), (1, "4C"), (2, "5C")]:
        deal.apply(seat, Play.parse(text))
    assert deal.over
    before = deal.snapshot()
    with pytest.raises(IllegalAction) as info:
        deal.apply(3, Play.parse("6C"))
    assert info.value.reason == "deal-over"
    assert deal.snapshot() == before


# ----- information -----------------------------------------------------------------------

def test_observation_shows_own_hand_and_public_facts_only():
    """docs/rules.md "Information": own hand, pile and cleared cards, counts, passes, places,
    scores, and one's own exchanged cards; nothing else."""
    match = Match(_house(), hands=SMALL4)
    finish_deal(match, [2, 0, 3, 1])
    match.start_next_deal(hands=["3C 4C 5C", "4D 7D 2C", "9C 10C JC", "QC KC AC"])
    ev = match.act(1, "2C") + match.act(2, "9C")
    for seat in range(4):
        obs = match.observation(seat)
        assert obs.hand == match.deal.hand(seat)
        assert obs.hand_counts == (3, 3, 3, 3)
        seen = [visible_to(e, seat) for e in ev]
        if seat in (1, 2):
            assert [e.cards for e in seen] == [cards("2C"), cards("9C")]
            assert [x[2] for x in obs.exchanges] == [cards("2C"), cards("9C")]
            assert obs.exchanges_forced == (True, False)   # the 2 was forced, the 9 given back
        else:
            assert [e.cards for e in seen] == [None, None]
            assert obs.exchanges == () and obs.exchanges_forced == ()
        dealt = visible_to(match.events[-3], seat)
        assert isinstance(dealt, Dealt)
        assert [h is not None for h in dealt.hands] == [s == seat for s in range(4)]
    assert match.observation(2).legal_actions == tuple(match.legal_actions())
    assert match.observation(0).legal_actions == ()


def test_observation_counts_during_the_exchange():
    """docs/rules.md "Information": everyone's card count, also between the two halves of an
    exchange (the bottom has given a card, the President has not yet given one back)."""
    match = Match(_house(), hands=SMALL4)
    finish_deal(match, [2, 0, 3, 1])
    match.start_next_deal(hands=["3C 4C 5C", "4D 7D 2C", "9C 10C JC", "QC KC AC"])
    match.act(1, "2C")
    obs = match.observation(0)
    assert obs.hand_counts == (3, 2, 4, 3)
    assert match.observation(2).hand == cards("9C 10C JC 2C")


def test_is_legal_and_refusal_read_notation_like_act():
    """docs/api.md: ``refusal`` is the one legality check behind every entry point, and
    ``act`` takes an action's text; so ``is_legal``/``refusal`` read the same text."""
    match = Match(_house(), hands=SMALL4)
    assert match.is_legal(0, "3C") and match.refusal(0, "3C") is None
    assert match.refusal(0, "pass").reason == "cannot-pass-lead"
    assert match.refusal(0, "3C 7C").reason == "mixed-ranks"
    assert match.refusal(0, "3Z").reason == "bad-notation"
    assert match.refusal(1, "4C").reason == "not-your-turn"
    finish_deal(match, [2, 0, 3, 1])
    match.start_next_deal(hands=SMALL4)
    assert match.is_legal(1, "8C") and not match.is_legal(1, "4C")


@pytest.mark.parametrize("scoring,points", [((2, 1), (1, 0, 2, 0)), ((3, 2, 1), (2, 0, 3, 1)),
                                            (None, (0, 0, 0, 0))])
def test_scoring_values_same_finish(scoring, points):
    """Option ``scoring``: the same finish (seats 2, 0, 3, 1) scored 2,1 (seeds 000, 001),
    3,2,1 (a custom table) or not at all (seed 004 roles only)."""
    match = Match(_house(scoring=scoring, match_end="never"), hands=SMALL4)
    ev = finish_deal(match, [2, 0, 3, 1])
    ended = [e for e in ev if isinstance(e, DealEnded)][0]
    assert ended.points == points
    assert match.scores == list(points)


def test_observation_bad_seat():
    match = Match(_house(), hands=SMALL4)
    with pytest.raises(IllegalAction) as info:
        match.observation(4)
    assert info.value.reason == "bad-seat"


def test_the_deal_itself_ends_with_the_match_totals():
    """The deal-ended event comes from the deal with the totals after it (the match passes its
    totals in; nothing rewrites the event), and a deal on its own counts its points alone."""
    import random

    m = Match(Rules.preset("house", players=4), seed=5)
    rng = random.Random(5)
    seen = []
    while len(seen) < 3:
        if m.phase == "between-deals":
            m.start_next_deal()
            continue
        legal = m.legal_actions()
        for ev in m.act(m.to_act, legal[int(rng.random() * len(legal))]):
            if isinstance(ev, DealEnded):
                seen.append(ev)
    # totals after each deal, by seat: the match's scores of the players in those seats
    for i, ev in enumerate(seen):
        assert sum(ev.totals) == 3 * (i + 1)          # house scores 2 and 1 each deal
        assert all(t >= p for t, p in zip(ev.totals, ev.points, strict=True))
    assert sorted(seen[-1].totals) == sorted(m.scores)
    alone = Deal.shuffled(Rules.preset("house", players=4), 1, dealer=0)
    assert alone.totals_before == (0, 0, 0, 0)
    with pytest.raises(IllegalAction, match="3 totals given for 4 players"):
        Deal(Rules.preset("house", players=4), alone.dealt, dealer=0, leader=1, totals=[0, 0, 0])


def test_refusal_reads_cards_as_act_does():
    """A new-user trial found ``refusal`` (and ``is_legal``) calling a list of cards "not a
    play or a pass" while ``act`` played it, and ``act`` refusing one card: one reading of an
    action now serves both."""
    from president.cards import Card
    m = Match(Rules.preset("house"), seed=3)
    seat = m.to_act
    play = m.legal_actions()[0]
    assert play.count == 1
    card = play.cards[0]
    for given in ([card], (card,), card, str(play), play):
        assert m.refusal(seat, given) is None and m.is_legal(seat, given)
    other = next(c for c in (Card.parse(t) for t in ("2S", "2H", "2D", "2C"))
                 if c.bit & ~m.deal.hands[seat])
    assert m.refusal(seat, [other]).reason == "not-in-hand"
    assert m.refusal(seat, None).reason == "bad-notation"
    before = (m.deal.hands[:], m.to_act, len(m.events))
    m.act(seat, card)
    assert m.deal.hands[seat] == before[0][seat] & ~card.bit and len(m.events) > before[2]
