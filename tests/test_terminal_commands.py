"""The terminal game's table and commands: the whole pile and the cards gone per rank,
``history``, ``score``, ``seen``, Enter and ``--auto-pass`` for a forced pass, the ``q``
guard, the pause between computer plays, reseating, suit symbols, and resuming a match from
its record (``president play --resume``)."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from president import PASS, Card, Play, Rules, records
from president.events import Exchanged, Passed, Played
from president.match import Match
from president.players import make_player
from president.terminal import TerminalGame
from president.terminal.game import HELP_TEXT, can_show_suit_symbols, cards_gone

ROOT = Path(__file__).resolve().parents[1]


def make_console(width: int = 100) -> tuple[Console, io.StringIO]:
    buf = io.StringIO()  # rich takes a StringIO for UTF-8: the suit symbols are shown
    return Console(file=buf, width=width, color_system=None, highlight=False), buf


def scripted(lines):
    it = iter(lines)

    def read() -> str:
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None
    return read


def never_asked() -> str:
    raise AssertionError("the game asked for input")


# Four-player practice position: Sam (seat 3) leads; you hold 3C 4C 9D KS KH.
HANDS = ["3C 4C 9D KS KH", "5C 6C 7C 8C", "5D 6D JD 8D", "5S 6S 7S 8S"]
MOVES = [(3, "5S"), (0, "9D"), (1, "pass"), (2, "JD"), (3, "pass"), (0, "KS"), (1, "pass"),
         (2, "pass"), (3, "pass"), (0, "3C"), (1, "5C"), (2, "6D"), (3, "7S")]


def position(inputs, hands=HANDS, moves=MOVES, leader=3, **options):
    """A practice game at a made-up position after ``moves``; the screen starts there."""
    console, buf = make_console()
    game = TerminalGame(Rules.preset("practice"), seed=3, console=console,
                        input_fn=inputs if callable(inputs) else scripted(inputs), **options)
    game.match = Match(game.rules, game.names, hands=hands, leader=leader)
    for seat, action in moves:
        game.match.act(seat, action)
    game._events_shown = len(game.match.events)
    return game, buf


def lines_of(out: str) -> list[str]:
    return [line.rstrip() for line in out.splitlines()]


# ----- the table: whole pile, cards gone ------------------------------------------------

def test_the_table_numbers_seats_from_1():
    # As learn, keep-score and the browser do: you are seat 1, Sam (index 3) is seat 4.
    game, buf = position(["quit"])
    game.run()
    rows = [[cell.split()[0] for cell in line.split("│")[:2]]
            for line in lines_of(buf.getvalue()) if re.match(r"^\s*\d+ │", line)]
    assert rows == [["1", "You"], ["2", "Robin"], ["3", "Alex"], ["4", "Sam"]]


def test_the_table_shows_the_whole_pile_and_the_cards_gone_per_rank():
    game, buf = position(["quit"])
    game.run()
    lines = lines_of(buf.getvalue())
    assert "Pile, oldest first: You 3♣, Robin 5♣, Alex 6♦, Sam 7♠" in lines
    assert "To beat: single seven (7♠) by Sam; 1 card a play." in lines
    # The cleared pile (5S 9D JD KS) and the current one (3C 5C 6D 7S): 8 cards, public.
    assert "Gone by rank: 3:1 4:0 5:2 6:1 7:1 8:0 9:1 10:0 J:1 Q:0 K:1 A:0 2:0" in lines
    assert "4♣  K♥" in lines  # your hand: never counted as gone


def test_a_new_deal_has_nothing_gone_and_an_empty_pile():
    console, buf = make_console()
    game = TerminalGame(Rules.preset("practice"), seed=3, console=console,
                        input_fn=scripted(["quit"]))
    game.run()
    lines = lines_of(buf.getvalue())
    assert "Pile: empty; you lead." in lines
    assert "Gone by rank: nothing yet this deal." in lines


def test_cards_gone_is_public_information_only():
    # A house match into its second deal (after an exchange): at every step every seat
    # sees the same cards gone, exactly the pile and the cleared piles, none in a hand.
    match = Match(Rules.parse("house+three-deals"), seed=2)
    bots = [make_player("random", seed=s) for s in range(4)]
    steps = 0
    while match.deal_number < 3 and match.phase != "match-over":
        if match.phase == "between-deals":
            match.start_next_deal()
            continue
        seat = match.to_act
        views = [cards_gone(match.observation(s)) for s in range(4)]
        assert all(v == views[0] for v in views)
        gone = [c for cards in views[0].values() for c in cards]
        obs = match.observation(seat)
        pile = [c for _, play in obs.pile for c in play.cards]
        assert sorted(gone) == sorted(list(obs.cleared) + pile)
        for s in range(4):
            assert not set(gone) & set(match.observation(s).hand)
        if match.phase == "exchange":
            assert gone == []  # cards handed over in an exchange are never "gone"
        match.act(seat, bots[seat].act(obs))
        steps += 1
    assert match.deal_number == 3 and any(isinstance(e, Exchanged) for e in match.events)
    assert steps > 60


# ----- history, seen, score ---------------------------------------------------------------

def test_history_lists_this_deals_plays_and_passes_in_order():
    game, buf = position(["history", "quit"])
    game.run()
    out = buf.getvalue()
    shown = lines_of(out[out.index("Deal 1 so far"):])[:16]
    assert shown == [
        "Deal 1 so far, oldest first, 13 turns:",
        "   1  Sam leads a single five (5♠).",
        "   2  You play a single nine (9♦).",
        "   3  Robin passes.",
        "   4  Alex plays a single jack (J♦).",
        "   5  Sam passes.",
        "   6  You play a single king (K♠).",
        "   7  Robin passes.",
        "   8  Alex passes.",
        "   9  Sam passes.",
        "      The pile is cleared (everyone else passed); you lead next.",
        "  10  You lead a single three (3♣).",
        "  11  Robin plays a single five (5♣).",
        "  12  Alex plays a single six (6♦).",
        "  13  Sam plays a single seven (7♠).",
        "Beat 7♠: a rank (a single of it) or cards, or pass: quit",
    ]
    assert len(game.match.deal.history) == 13  # history plays nothing


def test_history_before_any_play_says_so():
    console, buf = make_console()
    game = TerminalGame(Rules.preset("practice"), seed=3, console=console,
                        input_fn=scripted(["history", "quit"]))
    game.run()
    assert "Nothing has been played yet in deal 1." in lines_of(buf.getvalue())


def test_seen_lists_the_cards_gone_per_rank():
    game, buf = position(["seen", "gone", "quit"])
    game.run()
    out = buf.getvalue()
    at = out.index("Cards gone in deal 1")
    shown = lines_of(out[at:])[:14]
    assert shown[0] == ("Cards gone in deal 1, 8 of 52 (played face up: the pile and the "
                        "cleared piles):")
    rows = {m.group(1): (int(m.group(2)), m.group(3).split())
            for m in (re.match(r"^\s*(\S+):\s+(\d) gone(?:, all)?\s*(.*)$", line)
                      for line in shown[1:])}
    assert list(rows) == ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]
    assert rows["5"] == (2, ["5♣", "5♠"])
    assert rows["K"] == (1, ["K♠"])  # K♥ is still in your hand: not gone
    assert rows["4"] == (0, [])
    assert sum(n for n, _ in rows.values()) == 8
    assert out.count("Cards gone in deal 1") == 2  # "gone" is the same command


def test_seen_marks_a_whole_rank_gone():
    hands = ["3C 4C", "5C 6C 7C 8C", "9S 9D 9H 9C 3D", "5S 6S 7S 8S"]
    game, buf = position(["seen", "quit"], hands=hands, leader=2,
                         moves=[(2, "9S 9D 9H 9C"), (3, "pass")])
    game.run()
    assert re.search(r"^\s*9:\s+4 gone, all\s+9♣ 9♦ 9♥ 9♠$", buf.getvalue(), re.M)


def _match_with_score_prompt(rules: str, seed: int, at_deal: int, players: int | None = None):
    """Play ``rules`` following simple hints; type ``score`` at the first prompt of deal
    ``at_deal``. Returns the game and the text printed by ``score``."""
    console, buf = make_console()
    follower = make_player("simple", seed=1)
    asked = []

    def read() -> str:
        if game.match.phase == "between-deals":
            return ""  # "Another deal?" of a match with no end: yes
        if game.match.deal_number == at_deal:
            if asked:
                return "quit"
            asked.append(len(buf.getvalue()))
            return "score"
        action = follower.act(game.observation())
        return "pass" if action is PASS else " ".join(map(str, action.cards))
    game = TerminalGame(Rules.parse(rules, players=players), seed=seed, levels=["random"],
                        console=console, input_fn=read)
    game.run()
    out = buf.getvalue()[asked[0]:]
    end = re.search(r"Titles by place:.*?(deals|points|prize)\.", out, re.S).end()
    return game, out[:end]


def test_score_shows_each_deals_place_points_and_the_totals():
    game, out = _match_with_score_prompt("house+three-deals", seed=3, at_deal=3)
    m = game.match
    lines = lines_of(out)
    assert lines[0].endswith("score") and lines[1] == "Score after 2 deals:"
    header = lines[2].replace("┃", " ").split()
    assert header == ["Player", "D1", "D2", "Total"]
    totals = [0, 0, 0, 0]
    for p, name in enumerate(game.names):
        row = next(line for line in lines if line.startswith(name + " "))
        cells = [c.strip() for c in row.split("│")]
        expected = [name]
        for result in m.results[:2]:
            place = result.finish_order.index(p) + 1
            expected.append(f"{['1st', '2nd', '3rd', '4th'][place - 1]} +{result.points[p]}")
            totals[p] += result.points[p]
        expected.append(str(totals[p]))
        assert cells == expected
    text = " ".join(out.split())
    # house (seed 000): places after the Vice-President, "last" for the last seat; a title
    # that is only the place is not repeated
    assert ("Each deal's place and points per player. Titles by place: 1st President, 2nd "
            "Vice-President, 3rd, 4th last. The match is 3 deals.") in text


def test_score_without_scoring_shows_places_and_titles():
    game, out = _match_with_score_prompt("first-night", seed=4, at_deal=3, players=5)
    lines = lines_of(out)
    assert lines[1] == "Score after 2 deals:"
    for p, name in enumerate(game.names):
        row = next(line for line in lines if line.startswith(name + " "))
        places = [c.strip() for c in row.split("│")][1:]
        assert places == [f"{r.finish_order.index(p) + 1}" + {1: "st", 2: "nd", 3: "rd"}.get(
            r.finish_order.index(p) + 1, "th") for r in game.match.results[:2]]
    assert "Total" not in out
    text = " ".join(out.split())
    # first-night (seed 004): Neutral between the vice ranks at five, the last seat the bottom
    assert ("Titles by place: 1st President, 2nd Vice-President, 3rd Neutral, 4th Vice-Scum, "
            "5th bottom. Deal after deal, until you stop; the titles are the prize.") in text


def test_score_before_any_deal_ends():
    console, buf = make_console()
    game = TerminalGame(Rules.preset("house"), seed=1, console=console,
                        input_fn=scripted(["score", "quit"]))
    game.run()
    assert ("No deal has finished yet; everyone has 0 points. The match ends after the deal "
            "in which someone reaches 11 points.") in " ".join(buf.getvalue().split())


# ----- Enter and --auto-pass ------------------------------------------------------------

# Sam leads a pair of twos: nothing you hold beats it.
TWOS = (["3C 4C 9D 9H KS", "5C 6C 7C 8C", "5D 6D JD 8D", "2S 2D 7S 8S"], [(3, "2S 2D")])


def test_enter_passes_when_nothing_beats_the_pile_and_says_why():
    hands, moves = TWOS
    game, buf = position(["", "quit"], hands=hands, moves=moves)
    game.run()
    lines = lines_of(buf.getvalue())
    assert "Nothing you hold beats 2♦ 2♠: Enter passes:" in lines
    at = lines.index("Nothing you hold beats 2♦ 2♠: Enter passes:")
    assert lines[at + 1] == ("Nothing you hold beats the pair of twos (2♦ 2♠): no pair of a "
                             "higher rank.")
    assert lines[at + 2] == "You pass."
    assert game.match.deal.history[1] == (0, PASS)


def test_enter_under_equal_or_higher_names_that_rule():
    rules = Rules.preset("practice").with_options(beat="equal-or-higher")
    console, buf = make_console()
    game = TerminalGame(rules, seed=3, console=console, input_fn=scripted(["", "quit"]))
    game.match = Match(rules, game.names, hands=TWOS[0], leader=3)
    game.match.act(3, "2S 2D")
    game._events_shown = len(game.match.events)
    game.run()
    assert ("Nothing you hold matches or beats the pair of twos (2♦ 2♠): no pair of an equal "
            "or higher rank.") in lines_of(buf.getvalue())


def test_enter_never_passes_when_you_can_play_or_lead():
    game, buf = position(["", "quit"])  # you can beat the single seven
    game.run()
    assert ("You can beat the pile, so Enter does not pass: type a rank or cards to play, or "
            "pass (p).") in lines_of(buf.getvalue())
    assert len(game.match.deal.history) == len(MOVES)
    console, buf = make_console()
    game = TerminalGame(Rules.preset("practice"), seed=3, console=console,
                        input_fn=scripted(["", "quit"]))
    game.run()
    assert "You lead, so you cannot pass: type a rank or cards (help for more)." \
        in lines_of(buf.getvalue())
    assert game.match.deal.history == []


def test_auto_pass_when_nothing_beats_and_asks_when_something_does():
    hands, moves = TWOS
    answers = []

    def read() -> str:
        answers.append(buf.getvalue().rstrip("\n").rsplit("\n", 1)[-1])
        return "quit"
    game, buf = position(read, hands=hands, moves=moves, auto_pass=True)
    game.run()
    out = buf.getvalue()
    assert ("Nothing you hold beats the pair of twos (2♦ 2♠): no pair of a higher rank "
            "(auto-pass).\nYou pass.") in out
    assert game.match.deal.history[1] == (0, PASS)
    # The pile cleared (everyone passed the twos), Sam led again; you were asked only when
    # you could play.
    assert answers and all("Enter passes" not in a for a in answers)
    assert "Nothing you hold beats 2♦ 2♠: Enter passes" not in out


def test_auto_pass_never_passes_a_lead():
    console, buf = make_console()
    game = TerminalGame(Rules.preset("practice"), seed=3, console=console, auto_pass=True,
                        input_fn=scripted(["quit"]))
    game.run()
    assert "You lead: a rank (all your cards of it) or cards: quit" in buf.getvalue()
    assert "auto-pass" not in buf.getvalue()


# ----- the q guard ------------------------------------------------------------------------

def test_q_alone_never_plays_queens_and_asks_before_quitting():
    # Seed 3: you hold one queen (QS) and lead.
    console, buf = make_console()
    game = TerminalGame(Rules.preset("practice"), seed=3, console=console,
                        input_fn=scripted(["q", "", "Q", "n", "quit"]))
    assert Card.parse("QS") in game.observation().hand
    assert game.run() == 0
    lines = lines_of(buf.getvalue())
    assert lines.count("Quit the match? y quits, Enter goes on:") == 1
    assert lines.count("Quit the match? y quits, Enter goes on: n") == 1
    assert lines.count("Not quitting. (q alone never plays queens: type queen, q q or the "
                       "cards, e.g. QS.)") == 2
    assert game.match.deal.history == []  # no queen was played
    assert "You leave the match. Thanks for playing." in lines


@pytest.mark.parametrize("answer", ["y", "yes", "Y"])
def test_q_then_yes_quits(answer):
    console, buf = make_console()
    game = TerminalGame(Rules.preset("practice"), seed=3, console=console,
                        input_fn=scripted(["q", answer, "3"]))
    assert game.run() == 0
    assert "You leave the match. Thanks for playing." in buf.getvalue()
    assert game.match.deal.history == []


def test_q_then_end_of_input_quits():
    console, buf = make_console()
    game = TerminalGame(Rules.preset("practice"), seed=3, console=console,
                        input_fn=scripted(["q"]))
    assert game.run() == 0
    assert game.match.deal.history == []


@pytest.mark.parametrize("word", ["queen", "queens", "QUEEN", "QS"])
def test_queens_are_played_by_name_or_card(word):
    console, buf = make_console()
    game = TerminalGame(Rules.preset("practice"), seed=3, console=console,
                        input_fn=scripted([word, "quit"]))
    game.run()
    assert game.match.deal.history[0] == (0, Play.parse("QS"))
    assert "Quit the match?" not in buf.getvalue()


def test_help_documents_the_new_commands_and_the_q_guard():
    for word in ("history", "score", "seen", "Enter", "passes when nothing you hold beats"):
        assert word in HELP_TEXT
    assert "[bold]q[/] alone asks first" in HELP_TEXT
    assert "for queens type [bold]queen[/]" in HELP_TEXT


# ----- the pause between computer plays -----------------------------------------------------

def test_delay_pauses_before_each_computer_action_and_after_each_result():
    pauses: list[float] = []
    console, buf = make_console()
    follower = make_player("simple", seed=1)

    def read() -> str:
        action = follower.act(game.observation())
        return "pass" if action is PASS else " ".join(map(str, action.cards))
    game = TerminalGame(Rules.parse("house+three-deals"), seed=3, console=console,
                        input_fn=read, delay=0.25, sleep_fn=pauses.append)
    assert game.run() == 0
    # Every computer action (plays, passes and exchange gives; house seats never move).
    computer = sum(1 for e in game.match.events
                   if (isinstance(e, (Played, Passed)) and e.seat != 0)
                   or (isinstance(e, Exchanged) and e.giver != 0))
    assert pauses.count(0.25) == computer > 50
    assert pauses.count(1.0) == 2  # after deals 1 and 2, not after the last one
    assert len(pauses) == computer + 2


def test_no_delay_never_sleeps():
    def sleep(seconds):
        raise AssertionError("slept")
    game, _ = position(["pass", "quit"], delay=0, sleep_fn=sleep)
    assert game.run() == 0


@pytest.mark.parametrize("bad", [-1, float("nan"), float("inf"), True])
def test_a_bad_delay_is_refused(bad):
    with pytest.raises(ValueError, match="delay must be a number of seconds"):
        TerminalGame(Rules.preset("practice"), delay=bad)


# ----- reseating, suit symbols ----------------------------------------------------------

def test_reseating_by_finish_order_is_announced():
    console, buf = make_console()
    follower = make_player("simple", seed=1)

    def read() -> str:
        action = follower.act(game.observation())
        return "pass" if action is PASS else " ".join(map(str, action.cards))
    game = TerminalGame(Rules.parse("family", players=5), seed=4, console=console,
                        input_fn=read)
    game.run()
    m = game.match
    out = buf.getvalue()
    parts = re.split(r"─+ Deal (\d+) ─+", out)
    deals = {int(parts[i]): parts[i + 1] for i in range(1, len(parts), 2)}
    assert "Reseated" not in deals[1]
    titles = ["President", "Vice-President", "3rd", "4th", "last to finish"]  # family, seed 001
    for d in range(2, m.deal_number + 1):
        order = m.results[d - 2].finish_order  # the new seats, clockwise from seat 0
        before = m.results[d - 2].seating
        names = ["You" if p == 0 else game.names[p] for p in order]
        seats = ", ".join(f"{s + 1} {names[s]} ({titles[s]})" for s in range(5))  # from 1
        text = " ".join(deals[d].split())
        if order == before:
            assert f"Seats stay as they were (the last deal finished in seat order): {seats}." \
                in text
        else:
            assert f"Reseated in the last deal's finishing order, clockwise: {seats}." in text
            old, new = before.index(0), order.index(0)
            assert (f"You move from seat {old + 1} to seat {new + 1}." if old != new
                    else f"You stay in seat {new + 1}.") in text
        dealer = names[4]
        assert f"{dealer} {'deal' if dealer == 'You' else 'deals'}." in text  # the last deals
    assert m.deal_number > 3


class AsciiIO(io.StringIO):
    """A terminal whose encoding has no suit symbols."""

    encoding = "ascii"


def test_suit_symbols_only_where_the_console_can_show_them():
    buf = AsciiIO()
    console = Console(file=buf, width=100, color_system=None, highlight=False)
    assert not can_show_suit_symbols(console)
    assert can_show_suit_symbols(make_console()[0])
    game = TerminalGame(Rules.preset("practice"), seed=3, console=console,
                        input_fn=scripted(["3", "help", "quit"]))
    game.run()
    out = buf.getvalue()
    assert out.isascii()
    assert "3D  8C 8H  10D 10H 10S  JC JS  QS  KH  AD AH  2C" in out  # seed 3's hand
    assert "Deal 1 - practice" in out  # no middle dot either
    assert "cards   9s 9d, 10H, th (rank, then suit: C D H S)" in out
    console, buf = make_console()
    game = TerminalGame(Rules.preset("practice"), seed=3, console=console,
                        input_fn=scripted(["quit"]))
    game.run()
    assert "3♦  8♣ 8♥  10♦ 10♥ 10♠  J♣ J♠  Q♠  K♥  A♦ A♥  2♣" in buf.getvalue()
    console, buf = make_console()
    game = TerminalGame(Rules.preset("practice"), seed=3, console=console, suit_symbols=False,
                        input_fn=scripted(["quit"]))
    game.run()
    assert "3D  8C 8H  10D 10H 10S  JC JS  QS  KH  AD AH  2C" in buf.getvalue()


# ----- resuming a recorded match --------------------------------------------------------

def _record_part_of_a_match(tmp_path: Path, moves: int = 3) -> tuple[Path, Match]:
    """A house match's record after the first deal and ``moves`` of your turns in deal 2."""
    path = tmp_path / "game.json"
    console, buf = make_console()
    follower = make_player("simple", seed=1)
    turns = []

    def read() -> str:
        if game.match.deal_number == 2:
            turns.append(1)
            if len(turns) > moves:
                return "quit"
        action = follower.act(game.observation())
        return "pass" if action is PASS else " ".join(map(str, action.cards))
    game = TerminalGame(Rules.parse("house+three-deals"), seed=3, console=console,
                        input_fn=read, record=path)
    game.run()
    return path, game.match


def test_a_resumed_match_continues_where_the_record_stopped(tmp_path):
    path, played = _record_part_of_a_match(tmp_path)
    match = records.replay(records.load(path.open())).match
    assert match.snapshot() == played.snapshot()
    console, buf = make_console()
    follower = make_player("simple", seed=1)

    def read() -> str:
        action = follower.act(game.observation())
        return "pass" if action is PASS else " ".join(map(str, action.cards))
    game = TerminalGame(match.rules, seed=9, console=console, input_fn=read, match=match,
                        record=path)
    assert game.run() == 0
    out = buf.getvalue()
    scores = ", ".join(f"{n} {s}" for n, s in zip(game.names, played.results[0].points))
    assert (f"Resuming a recorded match: 1 deal finished; scores: {scores}. The deals still "
            "to come are shuffled from seed 9.") in " ".join(out.split())
    # The current deal (2) is told again from its start; deal 1 is not.
    assert re.findall(r"─+ Deal (\d) ─+", out) == ["2", "3"]
    assert "Deal 1 result" not in out and "Deal 2 result" in out and "Deal 3 result" in out
    assert game.match.phase == "match-over" and game.match.deal_number == 3
    # The record grew: the old one is its beginning, and it replays to the end.
    result = records.replay(records.load(path.open()))
    assert result.ok and result.match_over
    assert result.match.snapshot() == game.match.snapshot()
    old_deal2 = played.events[[i for i, e in enumerate(played.events)
                                if type(e).__name__ == "Dealt"][1]:]
    new_events = result.match.events
    start = [i for i, e in enumerate(new_events) if type(e).__name__ == "Dealt"][1]
    assert new_events[start:start + len(old_deal2)] == old_deal2


def test_resumed_later_deals_come_from_the_seed(tmp_path):
    path, _ = _record_part_of_a_match(tmp_path, moves=0)
    hands = []
    for _ in range(2):
        match = records.replay(records.load(path.open())).match
        game = TerminalGame(match.rules, seed=11, console=make_console()[0], match=match,
                            input_fn=scripted([]))
        # Finish deal 2 with the computer players everywhere, then deal 3.
        bots = [make_player("simple", seed=s) for s in range(4)]
        while match.phase not in ("between-deals", "match-over"):
            seat = match.to_act
            match.act(seat, bots[seat].act(match.observation(seat)))
        match.start_next_deal(seed=game._deal_seeds.getrandbits(32))
        hands.append(match.snapshot()["hands"])
    assert hands[0] == hands[1]


def test_nothing_played_after_resuming_leaves_the_file_alone(tmp_path):
    path, _ = _record_part_of_a_match(tmp_path)
    before = path.read_text()
    path.write_text(before.replace('"format"', '"comment": "keep me",\n  "format"', 1))
    kept = path.read_text()
    match = records.replay(records.load(path.open())).match
    console, buf = make_console()
    game = TerminalGame(match.rules, seed=1, console=console, match=match, record=path,
                        input_fn=scripted(["quit"]))
    game.run()
    assert path.read_text() == kept
    assert f"Nothing was played since resuming; {path} is not written." in \
        " ".join(buf.getvalue().split())


def test_resume_through_the_command_line(tmp_path):
    path, played = _record_part_of_a_match(tmp_path)
    actions_before = len(played.deal.history)
    proc = subprocess.run([sys.executable, "-m", "president", "play", "--resume", str(path),
                           "--delay", "0", "--seed", "5", "--auto-pass"],
                          input="history\n" + "\n".join(["3", "4", "5", "6", "7", "8", "9",
                                                         "10", "J", "queen", "K", "A", "2",
                                                         "pass"] * 3) + "\nquit\ny\n",
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    out = proc.stdout
    assert "Resuming a recorded match: 1 deal finished" in out
    # the levels are not in the record: said, not changed quietly
    assert ("The record does not say the computer players' levels: they play as simple now "
            "(--levels chooses them, e.g. --levels expert,intermediate,simple).") in out
    assert "Deal 2 so far, oldest first, " in out
    assert f"Match record written to {path}" in out  # back to the file it came from
    result = records.replay(records.load(path.open()))
    assert result.ok
    assert len(result.match.deal.history) > actions_before or result.match.deal_number > 2
    assert "Deal 0" not in out


def test_resume_refuses_bad_files_in_one_line(tmp_path, capsys):
    from president.cli import main
    missing = tmp_path / "nope.json"
    bad_json = tmp_path / "bad.json"
    bad_json.write_text("{", encoding="utf-8")
    illegal = ROOT / "tests" / "data" / "records" / "bug_equal_rank_under_higher.json"
    over = tmp_path / "over.json"
    match = Match(Rules.preset("practice"), ["You", "Robin", "Alex", "Sam"], seed=3)
    bots = [make_player("random", seed=s) for s in range(4)]
    while match.phase != "match-over":
        match.act(match.to_act, bots[match.to_act].act(match.observation(match.to_act)))
    over.write_text(records.dumps(match), encoding="utf-8")
    winner = match.players[match.winners[0]]
    empty = tmp_path / "empty.json"
    empty.write_text(json.dumps({"format": "president/1", "rules": {"preset": "house"},
                                 "players": ["A", "B", "C", "D"], "deals": []}))
    cases = [
        (missing, "cannot read the file: No such file or directory"),
        (bad_json, "not a valid game record: not JSON: "),
        (illegal, "the record breaks the rules in deal 1: single seven does not beat single "
                  f"seven; play a rank higher than 7 or pass (see: president replay {illegal})\n"),
        (over, f"the match is over (deal 1 was its last; won by {winner}); start a new match "
               "instead"),
        (empty, "the record has no deal to continue; start a new match instead"),
        (tmp_path, "is a folder; give the record file, e.g. game.json"),
    ]
    for path, message in cases:
        assert main(["play", "--resume", str(path)]) == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        assert captured.err.startswith(f"president play: --resume {str(path)!r}: {message}")
        assert captured.err.count("\n") == 1 and captured.err.endswith("\n")
    assert main(["play", "--resume", str(over), "--rules", "house", "--name", "Kim"]) == 2
    assert capsys.readouterr().err == ("president play: --rules and --name cannot be used "
                                       "with --resume: the rules and names come from the "
                                       "record\n")


@pytest.mark.skipif(not hasattr(__import__("signal"), "SIGHUP"), reason="no SIGHUP here")
def test_a_closed_terminal_still_writes_the_record(tmp_path):
    import os
    import select
    import signal
    import time
    path = tmp_path / "game.json"
    proc = subprocess.Popen([sys.executable, "-m", "president", "play", "--rules", "practice",
                             "--seed", "3", "--delay", "0", "--record", str(path)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=ROOT)
    proc.stdin.write(b"3\n")
    proc.stdin.flush()
    seen = b""
    deadline = time.monotonic() + 30
    while b"Beat " not in seen and time.monotonic() < deadline:  # waiting at your turn
        ready, _, _ = select.select([proc.stdout], [], [], 1)
        if ready:
            seen += os.read(proc.stdout.fileno(), 65536)
    assert b"Beat " in seen
    proc.send_signal(signal.SIGHUP)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 129, err
    assert err == b""
    assert f"Match record written to {path}".encode() in out
    result = records.replay(records.load(path.open()))
    assert result.ok and result.match.deal.history[0] == (0, Play.parse("3D"))


# ----- leaving: the standings, and how to resume -------------------------------------------

def _flat(text: str) -> str:
    return " ".join(text.split())


def test_quitting_shows_the_standings_and_the_command_that_resumes(tmp_path):
    # The house match quits after deal 1 and three of your turns in deal 2.
    path, played = _record_part_of_a_match(tmp_path)
    assert played.deal_number == 2 and len(played.results) == 1
    scores = played.scores
    console, buf = make_console()
    match = records.replay(records.load(path.open())).match
    follower = make_player("simple", seed=1)
    turns = []

    def read() -> str:
        turns.append(1)
        if len(turns) > 2:
            return "quit"
        action = follower.act(game.observation())
        return "pass" if action is PASS else " ".join(map(str, action.cards))
    game = TerminalGame(match.rules, seed=2, console=console, input_fn=read, match=match,
                        record=path, resumed_from=path, levels=["expert", "simple"])
    assert game.run() == 0
    out = buf.getvalue()
    tail = out[out.index("You leave the match. Thanks for playing."):]
    lines = lines_of(tail)
    assert lines[1] == "Standings when you left"
    assert lines[2] == "Score after 1 deal:"
    # one row per player: deal 1's place and points, then the total
    places = {name: p for p, name in enumerate(game.names)}
    for name, p in places.items():
        row = next(line for line in lines if line.startswith(name) and "│" in line)
        assert row.split("│")[-1].strip() == str(scores[p])
    assert "Deal 2 is not finished:" in _flat(tail)
    assert f"Match record written to {path}" in _flat(tail)
    # the levels are not in the record, so the command gives them again
    command = f"president play --resume {path} --levels expert,simple,expert"
    assert lines[-1] == f"To continue this match later: {command}"
    # ... and that command continues this very match.
    proc = subprocess.run([sys.executable, "-m", *command.split(), "--delay", "0"],
                          input="quit\n",
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "Resuming a recorded match: 1 deal finished" in proc.stdout
    assert "Robin (expert)" in proc.stdout and "Alex (simple)" in proc.stdout
    assert f"To continue this match later: {command}" in _flat(proc.stdout)


def test_quitting_an_unrecorded_match_says_it_cannot_be_resumed():
    game, buf = position(["quit"])
    assert game.run() == 0
    out = _flat(buf.getvalue())
    assert "Standings when you left No deal has finished yet. One deal; no points." in out
    # Robin, Alex and Sam hold cards; nobody is out in this position
    assert "Deal 1 is not finished: nobody has gone out yet." in out
    assert out.endswith("This match cannot be resumed: it was not recorded. To be able to "
                        "continue a match later, start it with president play --record "
                        "game.json and continue it with president play --resume game.json.")


def test_quitting_after_someone_went_out_names_the_places_so_far():
    # Robin plays his only card and goes out first (made-up hands).
    hands = ["3C 4C 9D", "5C", "5D 6D JD", "5S 6S 7S"]
    game, buf = position(["quit"], hands=hands, moves=[(0, "3C"), (1, "5C")], leader=0)
    assert game.match.observation(0).finish_order == (1,)
    game.run()
    assert ("Deal 1 is not finished: out so far 1st Robin; still holding cards: you, Alex, "
            "Sam.") in _flat(buf.getvalue())


def test_leaving_an_endless_match_between_deals_says_how_to_resume(tmp_path):
    path = tmp_path / "night.json"
    follower = make_player("simple", seed=1)
    console, buf = make_console()
    answers = iter(["quit"])

    def read() -> str:
        if game.match.phase == "between-deals":
            return next(answers)
        action = follower.act(game.observation())
        return "pass" if action is PASS else " ".join(map(str, action.cards))
    game = TerminalGame(Rules.parse("first-night"), seed=4, console=console, input_fn=read,
                        record=path)
    assert game.run() == 0
    out = _flat(buf.getvalue())
    tail = out[out.index("You leave the table. Thanks for playing."):]
    assert "Standings when you left Score after 1 deal:" in tail
    assert tail.endswith(f"To continue this match later: president play --resume {path}")


def test_quitting_at_once_after_resuming_names_the_file_that_holds_the_match(tmp_path):
    path, _ = _record_part_of_a_match(tmp_path)
    kept = path.read_text()
    other = tmp_path / "copy.json"
    for record, holder in ((path, path), (other, other)):
        match = records.replay(records.load(path.open())).match
        console, buf = make_console()
        game = TerminalGame(match.rules, seed=1, console=console, match=match, record=record,
                            resumed_from=path, input_fn=scripted(["quit"]))
        assert game.run() == 0
        assert path.read_text() == kept       # the file it came from is left as it was
        out = _flat(buf.getvalue())
        assert out.endswith(f"To continue this match later: president play --resume {holder}")
    # --record naming another file: that file now holds the same match
    assert records.replay(records.load(other.open())).match.snapshot() == \
        records.replay(records.load(path.open())).match.snapshot()
