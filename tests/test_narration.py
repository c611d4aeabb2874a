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


# ----- the explain API: why you must pass, what beats the pile, the exchange step -------


def _only_pass(rules, hands, *plays):
    """A match from ``hands`` with ``plays`` (seat, cards) made; the observation of the seat
    to act next, which may only pass."""
    m = Match(rules, hands=hands, record_events=False)
    for seat, cards in plays:
        m.act(seat, cards)
    seat = m.to_act
    obs = m.observation(seat)
    assert [str(a) for a in obs.legal_actions] == ["pass"]
    return obs


def test_why_pass_says_what_nothing_in_the_hand_beats_under_each_beat_rule():
    from president.narration import why_pass
    house = _only_pass(Rules.preset("practice"), ["3C 9S KH QS", "4C 5C 3S JD",
                                                  "8C 8D 10C JC", "QC AC 2C 2D"],
                       (0, "KH"))
    assert why_pass(house) == ("Nothing you hold beats the single king (K♥): no card of a "
                               "higher rank")
    assert why_pass(house, symbols=False) == ("Nothing you hold beats the single king (KH): "
                                              "no card of a higher rank")
    pair = _only_pass(Rules.preset("practice"), ["3C 9S KH KS", "4C 5C 3S JD",
                                                 "8C 8D 10C JC", "QC AC 2C 2D"],
                      (0, "KH KS"))
    assert why_pass(pair) == ("Nothing you hold beats the pair of kings (K♥ K♠): no pair of "
                              "a higher rank")
    night = _only_pass(Rules.preset("first-night", players=3),
                       ["3C 9S KH KS", "4C 5C 3S JD", "8C 8D 10C JC 2C"], (0, "KH KS"))
    assert why_pass(night) == ("Nothing you hold matches or beats the pair of kings (K♥ K♠): "
                               "no pair of an equal or higher rank")
    short = _only_pass(Rules.preset("practice"), ["3C 9S KH KS", "4C", "8C 8D 10C JC",
                                                  "QC AC 2C 2D"], (0, "KH KS"))
    assert why_pass(short) == "Nothing you hold beats the pair of kings (K♥ K♠): you hold only 1 card"


def test_why_pass_is_none_when_the_seat_may_do_something_else():
    from president.narration import why_pass
    m = Match(Rules.preset("practice"), hands=["3C 9S KH QS", "4C 5C 2S JD", "8C 8D 10C JC",
                                                "QC AC 2C 2D"], record_events=False)
    assert why_pass(m.observation(0)) is None          # a lead
    assert why_pass(m.observation(1)) is None          # not its turn
    m.act(0, "KH")
    assert why_pass(m.observation(1)) is None          # 2S beats the king


def test_why_pass_under_reversal_says_lower():
    from president.narration import why_pass
    rules = Rules.preset("house", players=4, twists=["reversal"])
    obs = _only_pass(rules, ["9C 9D 9H 9S 3C 5C 7C JC KC AC 2C 6D 8D",
                             "3D 4D 4H 4S 4C 5D 7D JD KD AD 2D 10D QD",
                             "3H 5H 6H 7H 8H 10H JH QH KH AH 2H 6C 8C",
                             "3S 5S 6S 7S 8S 10S JS QS KS AS 2S 10C QC"],
                     (0, "9C 9D 9H 9S"), (1, "pass"))
    assert obs.reversed
    assert why_pass(obs) == ("Nothing you hold beats the quad of nines (9♣ 9♦ 9♥ 9♠): no quad "
                             "of a lower rank (four of a kind has reversed the rank order)")


@pytest.mark.parametrize("spec, top, reversed_, words", [
    ("house", "9C 9D", False, "Needs 2 cards, higher than 9."),
    ("first-night", "9C 9D", False, "Needs 2 cards, 9 or higher."),
    ("first-night", "2C", False, "Only a 2 can match it, or pass."),
    ("first-night", "2C 2D", False, "Only 2 twos can match it, or pass."),
    ("house", "2C", False, "Nothing beats it: pass."),
    ("house+reversal", "9C", True, "Needs 1 card, lower than 9 (the order is reversed)."),
    ("house+reversal", "3C 3D 3H", True, "Nothing beats it: pass."),
])
def test_what_beats_follows_the_rules_in_force(spec, top, reversed_, words):
    from president.narration import what_beats
    rules = Rules.parse(spec, players=4)
    assert what_beats(Play.parse(top), rules.beat, reversed_) == words


@pytest.mark.parametrize("step, seat, back, words", [
    (Transfer(3, 0, 1, True), 3, "any", "Give your highest card to Ann"),
    (Transfer(3, 0, 2, True), 3, "any", "Give your highest 2 cards to Ann"),
    (Transfer(0, 3, 1, False), 0, "any", "Choose 1 card to give back to Sam"),
    (Transfer(0, 3, 2, False), 0, "lowest", "Give back your lowest 2 cards to Sam"),
    (Transfer(3, 0, 1, True), 0, "any", "Sam must give their highest card to you"),
    (Transfer(0, 3, 1, False), 3, "any", "Ann gives back 1 card to you"),
    (Transfer(1, 2, 2, False), 0, "lowest", "Robin gives back their lowest 2 cards to Alex"),
    (Transfer(3, 0, 1, True), None, "any", "Sam must give their highest card to Ann"),
])
def test_exchange_duty_in_the_readers_words(step, seat, back, words):
    from president.narration import exchange_duty
    assert exchange_duty(step, Reader(NAMES, seat), back) == words


def test_exchange_duty_then_starts_with_then():
    from president.narration import exchange_duty
    assert exchange_duty(Transfer(0, 3, 1, False), ANN, "any", then=True) == \
        "Then choose 1 card to give back to Sam"
    assert exchange_duty(Transfer(1, 3, 1, False), ANN, "lowest", then=True) == \
        "Then Robin gives back their lowest card to Sam"


# ----- each front end says it with the explain API ---------------------------------------


def _exchange_match(spec="house"):
    """A second deal whose exchange waits on the last player's forced give."""
    m = Match(Rules.preset(spec, players=4), seed=4, record_events=False)
    m.finish_by_order([0, 1, 2, 3])
    m.start_next_deal()
    return m


def test_the_terminal_says_the_apis_words():
    pytest.importorskip("rich")
    from president.narration import exchange_duty, why_pass
    from president.terminal.game import TerminalGame
    from president.terminal.view import TableView

    obs = _only_pass(Rules.preset("practice"), ["3C 9S KH QS", "4C 5C 3S JD",
                                                "8C 8D 10C JC", "QC AC 2C 2D"], (0, "KH"))
    game = TerminalGame.__new__(TerminalGame)
    game.symbols = True
    assert game.nothing_beats(obs) == why_pass(obs)
    m = _exchange_match()
    giver = m.pending_transfer.giver
    obs = m.observation(giver)
    duty = exchange_duty(obs.pending_exchange, TableView.reader(game, obs), "any")
    assert duty.startswith("Give your highest card to ")
    assert f"  {duty}." in game.exchange_help(obs)


def test_the_page_gets_the_apis_words_in_the_state_message():
    pytest.importorskip("pydantic")
    from president.narration import exchange_duty, why_pass
    from president.web.protocol import explain

    obs = _only_pass(Rules.preset("practice"), ["3C 9S KH QS", "4C 5C 3S JD",
                                                "8C 8D 10C JC", "QC AC 2C 2D"], (0, "KH"))
    assert explain(obs) == {"must_pass": why_pass(obs), "exchange": None, "exchange_then": None}
    m = _exchange_match()
    step = m.pending_transfer
    obs = m.observation(step.receiver)
    isolated = Reader(tuple(f"\u2068{n}\u2069" for n in obs.names), obs.seat)
    said = explain(obs)
    assert said["exchange"] == exchange_duty(step, isolated, "any")
    assert said["exchange_then"] == "Then choose 1 card to give back to " + \
        isolated.names[step.giver]
    assert said["must_pass"] is None


def test_the_score_companion_and_the_lessons_say_the_apis_words():
    from president.companion import Sheet, view
    from president.lessons import LESSONS

    sheet = Sheet("house", ["Alex", "Blair", "Casey", "Drew"], first_dealer=3)
    sheet = sheet.enter(["Blair", "Alex", "Casey"])
    assert view(sheet)["now"]["exchange"][0] == ("Drew must give their highest card to Blair; "
                                                 "Blair gives back 1 card to Drew.")
    texts = {s.position.pending_text for lesson in LESSONS.values() for s in lesson.steps}
    assert "South must give their highest 2 cards to North" in texts
