"""The one narration (:mod:`president.narration`): every event kind in words, from the seat
that acts and from another seat, never naming a card the reader may not know; and the
terminal and the browser telling the same event in the same words."""

import ast
import io
import sys
from pathlib import Path

import pytest

from president.actions import Play
from president.cards import Card
from president.events import (DealEnded, Dealt, Exchanged, MatchEnded, Passed, PileCleared,
                              Played, WentOut, visible_to)
from president.match import Match, Transfer
from president.narration import (Reader, exchange_plan, lead_reason, left_holding, narrate,
                                 ordinal)
from president.rules import Rules

NAMES = ("Ann", "Robin", "Alex", "Sam")
ANN, ROBIN, ALEX, SAM = (Reader(NAMES, seat, player=seat) for seat in range(4))
HOUSE = Rules.preset("house", players=4)


def text(event, reader, **kw):
    return narrate(event, reader, **kw).text


def cards(*notation):
    return tuple(Card.parse(c) for c in notation)


def test_the_module_imports_only_the_standard_library_and_the_core():
    from tests.test_core_purity import CORE
    tree = ast.parse((Path(__file__).parent.parent / "president" / "narration.py").read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            assert (node.module or "").split(".")[0] in CORE, node.module
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            mods = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
            assert all(m.split(".")[0] in sys.stdlib_module_names for m in mods), mods


def test_dealt_names_dealer_and_leader_and_why():
    hands = tuple(cards("3C") for _ in range(4))
    ev = Dealt(deal_number=2, dealer=SAM.seat, seating=(0, 1, 2, 3), hand_sizes=(13,) * 4,
               hands=hands)
    line = narrate(ev, ANN, leader=ANN.seat, rules=HOUSE)
    assert line.title == "Deal 2"
    assert line.text == "Sam deals. You lead the first pile (the President leads)."
    assert line.full == "Deal 2: Sam deals. You lead the first pile (the President leads)."
    assert text(ev, SAM, leader=ANN.seat, rules=HOUSE) == \
        "You deal. Ann leads the first pile (the President leads)."
    assert text(ev, ROBIN, leader=ROBIN.seat) == "Sam deals. You lead the first pile."
    assert text(ev, ROBIN) == "Sam deals."
    assert "3♣" not in text(ev, ALEX, leader=ANN.seat)  # a hand is never told
    first = Dealt(1, 3, (0, 1, 2, 3), (13,) * 4, hands)
    assert text(first, ANN, leader=0, rules=HOUSE) == \
        "Sam deals. You lead the first pile (left of the dealer)."
    assert text(first, ANN, leader=0, rules=Rules.preset("practice")) == \
        "Sam deals. You lead the first pile."  # seat:0 names the seat: no reason to give
    holder = Rules.preset("house", players=4, first_lead="holder-of:3C")
    assert text(first, ROBIN, leader=2, rules=holder) == \
        "Sam deals. Alex leads the first pile (holds 3C)."
    assert lead_reason(Rules.preset("house", players=4, later_lead="left-of-dealer"), 3) == \
        "left of the dealer"


def test_exchanged_shows_the_cards_only_to_the_giver_and_the_receiver():
    forced = Exchanged(giver=SAM.seat, receiver=ANN.seat, count=1, forced=True,
                       cards=cards("2S"))
    assert text(forced, ANN) == "Sam gives you 2♠ (their highest)."
    assert text(forced, SAM) == "You give Ann 2♠ (your highest)."
    assert text(forced, ROBIN) == "Sam gives Ann 1 card (their highest)."
    assert all(s.card is None for s in narrate(forced, ROBIN).spans)
    two = Exchanged(SAM.seat, ANN.seat, 2, True, cards("AH", "2S"))
    assert text(two, ANN) == "Sam gives you A♥ 2♠ (their highest)."
    assert [s.card for s in narrate(two, ANN).spans if s.card] == list(cards("AH", "2S"))
    assert text(two, ALEX) == "Sam gives Ann 2 cards (their highest)."
    back = Exchanged(ANN.seat, SAM.seat, 1, False, cards("3C"))
    assert text(back, ANN) == "You give Sam 3♣."
    assert text(back, SAM) == "Ann gives you 3♣."
    assert text(back, ALEX) == "Ann gives Sam 1 card."
    assert text(back, Reader(NAMES, 3, symbols=False)) == "Ann gives you 3C."
    # Already hidden or not, the event is told only as the reader may see it.
    assert text(visible_to(back, ALEX.seat), ALEX) == text(back, ALEX)


def test_played_and_passed():
    nines = Played(seat=ROBIN.seat, play=Play.parse("9D 9S"), lead=False)
    assert text(nines, ANN) == "Robin plays a pair of nines (9♦ 9♠)."
    assert text(nines, ROBIN) == "You play a pair of nines (9♦ 9♠)."
    lead = Played(ANN.seat, Play.parse("8C"), lead=True)
    assert text(lead, ANN) == "You lead a single eight (8♣)."
    assert text(lead, SAM) == "Ann leads a single eight (8♣)."
    assert text(Played(ALEX.seat, Play.parse("AS"), True), ANN) == "Alex leads a single ace (A♠)."
    quad = Played(SAM.seat, Play.parse("9C 9D 9H 9S"), lead=False)
    reversal = Rules.preset("house", players=4, twists=["reversal"])
    line = narrate(quad, ANN, rules=reversal)
    assert line.text == ("Sam plays a quad of nines (9♣ 9♦ 9♥ 9♠). Four of a kind turns the "
                         "rank order around.")
    assert [s.strong for s in line.spans][-1] is True
    assert "turns" not in text(quad, ANN, rules=HOUSE)
    assert text(Passed(ALEX.seat), ANN) == "Alex passes."
    assert text(Passed(ALEX.seat), ALEX) == "You pass."


def test_pile_cleared_says_why_and_who_leads():
    ev = PileCleared(reason="all-passed", winner=ROBIN.seat, leader=ROBIN.seat)
    line = narrate(ev, ANN)
    assert line.text == "The pile is cleared (everyone else passed); Robin leads next."
    assert line.tone == "quiet"
    assert text(ev, ROBIN) == "The pile is cleared (everyone else passed); you lead next."
    rank = PileCleared("last-of-rank", ALEX.seat, None)
    assert text(rank, ANN) == "The pile is cleared (all four cards of the rank are on the pile)."
    around = PileCleared("once-around", SAM.seat, ANN.seat)
    assert text(around, SAM) == \
        "The pile is cleared (everyone had their one turn on it); Ann leads next."


def test_went_out_names_the_place_and_a_title_that_is_not_the_place():
    vp = WentOut(seat=ALEX.seat, place=2, title="Vice-President")
    assert text(vp, ANN) == "Alex goes out in 2nd place (Vice-President)."
    assert text(vp, ALEX) == "You go out in 2nd place (Vice-President)."
    assert narrate(vp, ANN).tone == "strong"
    assert text(WentOut(SAM.seat, 3, "3rd"), ANN) == "Sam goes out in 3rd place."
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)] == \
        ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd"]


def test_deal_over_and_the_last_player():
    ev = DealEnded(finish_order=(2, 0, 1, 3), points=(1, 0, 2, 0), totals=(1, 0, 2, 0),
                   titles=("Vice-President", "3rd", "President", "last"))
    line = narrate(ev, ANN)
    assert line.full == "Deal over: Alex (President), Ann (Vice-President), Robin (3rd), Sam (last)."
    assert left_holding(SAM.seat, 3, 4, "last", ANN).text == \
        "Sam is left holding 3 cards: 4th place (last)."
    mine = left_holding(ANN.seat, 1, 4, "last", ANN)
    assert mine.text == "You are left holding 1 card: 4th place (last)."
    assert mine.spans[0].strong and not mine.spans[1].strong


def test_match_over_from_the_winner_and_from_another_player():
    won = MatchEnded(winners=(0,), scores=(11, 4, 2, 1))
    assert narrate(won, ANN).full == "Match over: You win."
    assert narrate(won, ROBIN).full == "Match over: Ann wins."
    assert narrate(won, ANN, rules=HOUSE).text == "You win (scores: Ann 11, Robin 4, Alex 2, Sam 1)."
    tied = MatchEnded(winners=(0, 2), scores=(11, 4, 11, 1))
    assert narrate(tied, ALEX).text == "Ann and you share the win."
    assert narrate(tied, ANN).text == "You and Alex share the win."
    three = MatchEnded(winners=(1, 2, 3), scores=(3, 11, 11, 11))
    assert narrate(three, ANN).text == "Robin, Alex and Sam share the win."
    single = narrate(won, ANN, rules=Rules.preset("practice"))
    assert single.title is None and single.text == "The deal is over. You finished first."
    # Winners are match players: after reseating, seat names are not player names.
    seated = Reader(("Sam", "Ann", "Robin", "Alex"), seat=1, player=0)
    assert narrate(won, seated, player_names=NAMES).text == "You win."


def test_exchange_plan():
    steps = [Transfer(giver=3, receiver=0, count=1, forced=True),
             Transfer(giver=0, receiver=3, count=1, forced=False)]
    assert exchange_plan(steps, ANN, "any").text == \
        "Exchange: Sam gives their highest 1 card to you; you give back any 1 card."
    assert exchange_plan(steps, SAM, "lowest").text == \
        "Exchange: You give your highest 1 card to Ann; Ann gives back their lowest 1 card."
    assert exchange_plan([], ANN, "any") is None


def test_the_terminal_and_the_browser_tell_each_event_in_the_same_words():
    """A whole house match with exchanges, played by computer players at every seat: each
    event the terminal prints for you is, word for word, the browser's ``text`` for your seat
    (given the table's rules), a heading joined to its sentence."""
    pytest.importorskip("rich")
    pytest.importorskip("pydantic")
    from rich.console import Console

    from president.players import make_player
    from president.terminal import TerminalGame
    from president.web.protocol import event_message

    buf = io.StringIO()
    rules = Rules.preset("house", players=4, match_end="deals:3")
    game = TerminalGame(rules, seed=5, console=Console(file=buf, width=300, color_system=None),
                        suit_symbols=True)
    bots = [make_player("simple", seed=p) for p in range(4)]
    m: Match = game.match
    leaders = {m.deal_number: m.deal.leader}
    game._show_new_events()
    while m.phase != "match-over":
        if m.phase == "between-deals":
            m.start_next_deal()
            leaders[m.deal_number] = m.deal.leader
        else:
            m.act(m.to_act, bots[m.seating[m.to_act]].act(m.observation(m.to_act)))
        game._show_new_events()
    printed = [line.strip() for line in buf.getvalue().splitlines()]
    kinds, at, seat = set(), 0, 0
    names: list[str] = []
    counts: list[int] = []
    left = 0
    for ev in m.events:
        if isinstance(ev, Dealt):
            names, seat = [game.names[p] for p in ev.seating], ev.seating.index(0)
            counts = list(ev.hand_sizes)
        elif isinstance(ev, Exchanged):
            counts[ev.giver] -= ev.count
            counts[ev.receiver] += ev.count
        elif isinstance(ev, Played):
            counts[ev.seat] -= ev.play.count
        if isinstance(ev, DealEnded):
            # The terminal shows a table there, after who is left holding cards: the
            # browser's deal-ended message carries that sentence, word for word.
            msg = event_message(ev, seat, names, 4, game.names, rules=rules,
                                held=counts[ev.finish_order[-1]])
            said = msg["left_holding"]["text"]
            assert msg["left_holding"]["seat"] == ev.finish_order[-1]
            assert msg["left_holding"]["cards"] == counts[ev.finish_order[-1]] > 0
            while at < len(printed) and printed[at] != said:
                at += 1
            assert at < len(printed), said
            left += 1
            continue
        msg = event_message(ev, seat, names, 4, game.names, rules=rules,
                            leader=leaders[ev.deal_number] if isinstance(ev, Dealt) else None)
        heading, said = msg["text"].split(": ", 1) if isinstance(ev, (Dealt, MatchEnded)) \
            else (None, msg["text"])
        while at < len(printed) and printed[at] != said:
            at += 1
        assert at < len(printed), (said, msg["kind"])
        if heading is not None:  # the terminal draws it as a rule above
            assert heading in printed[at - 1] or heading in printed[at - 2], heading
        kinds.add(msg["kind"])
    assert kinds == {"dealt", "exchanged", "played", "passed", "cleared", "out", "match-ended"}
    assert left == 3   # one left-holding line per deal


def test_the_dealt_sentence_is_the_same_in_both():
    pytest.importorskip("pydantic")
    from president.web.protocol import event_message
    hands = tuple(cards("3C") for _ in range(4))
    ev = Dealt(2, 3, (0, 1, 2, 3), (13,) * 4, hands)
    for seat in range(4):
        reader = Reader(NAMES, seat, player=seat)
        for leader in range(4):
            msg = event_message(ev, seat, NAMES, 4, NAMES, leader=leader, rules=HOUSE)
            assert msg["text"] == "Deal 2: " + text(ev, reader, leader=leader, rules=HOUSE)
