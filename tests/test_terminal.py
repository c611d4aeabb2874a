"""The terminal game (``president play``): scripted whole deals and matches, wrong entries,
exchanges, leaving, information hiding, and one run through a real subprocess."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from president import CARDS, Card, Play, Rank, Rules, parse_cards
from president import records
from president.observation import Observation
from president.players import available_levels, make_player
from president.terminal import TerminalGame

ROOT = Path(__file__).resolve().parents[1]


def make_console() -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, width=100, color_system=None, highlight=False), buf


def shown(cards) -> str:
    """Cards as the game shows them on a console that has the suit symbols (this file's
    consoles write to a StringIO, which rich takes for UTF-8): ``"9D 9S"`` -> ``"9♦ 9♠"``."""
    return str(cards).translate(str.maketrans("CDHS", "♣♦♥♠"))


class HintFollower:
    """Input that asks for a hint at each prompt, then types exactly what the hint showed
    (the cards in parentheses, ``give …`` cards, or ``pass``). Counts prompts answered."""

    def __init__(self, buf: io.StringIO) -> None:
        self.buf = buf
        self.asked = False
        self.lines: list[str] = []

    def __call__(self) -> str:
        if not self.asked:
            self.asked = True
            line = "hint"
        else:
            self.asked = False
            hint = [ln for ln in self.buf.getvalue().splitlines() if ln.startswith("Hint (")][-1]
            if ": give " in hint:
                line = hint.split(": give ", 1)[1]
            elif re.search(r": pass( \(|$)", hint):
                line = "pass"
            else:
                line = re.search(r"\(([^()]*)\)$", hint).group(1)
        self.lines.append(line)
        return line


def scripted(lines):
    it = iter(lines)

    def read() -> str:
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None
    return read


def played_lines(out: str) -> list[str]:
    return re.findall(r"^(?:You|Robin|Alex|Sam|Casey|Drew|Blair) "
                      r"(?:(?:leads?|plays?) an? (?:single|pair|triple|quad) .*|pass(?:es)?)\.$", out, re.M)


def test_whole_practice_deal_following_hints():
    console, buf = make_console()
    driver = HintFollower(buf)
    game = TerminalGame(Rules.preset("practice"), seed=3, input_fn=driver, console=console)
    assert game.run() == 0
    out = buf.getvalue()
    m = game.match
    assert m.phase == "match-over"
    # Seed 003: you lead the opening pile; opponents Robin, Alex, Sam clockwise.
    assert "You lead the first pile" in out
    assert game.names == ["You", "Robin", "Alex", "Sam"]
    # Every action of the deal is announced once, in order.
    history = m.deal.history
    lines = played_lines(out)
    assert len(lines) == len(history)
    for (seat, action), line in zip(history, lines):
        who = "You" if seat == 0 else game.names[seat]
        assert line.startswith(who + " ")
        if str(action) == "pass":
            assert " pass" in line
        else:
            assert line.endswith(f"a {action.describe()} ({shown(action)}).")
    # Every answer typed was a hint or what the hint said; each one was accepted.
    assert driver.lines.count("hint") == sum(1 for s, _ in history if s == 0)
    assert "Not accepted" not in out
    # Going out: three announcements, places 1-3, then the result table with all four.
    order = m.results[-1].finish_order
    for place, p in enumerate(order[:3], 1):
        who = "You go" if p == 0 else f"{game.names[p]} goes"
        assert f"{who} out in {['1st', '2nd', '3rd'][place - 1]} place" in out
    last = order[-1]
    held = len(m.deal.hand(m.seating.index(last)))
    assert held > 0
    who = "You are" if last == 0 else f"{game.names[last]} is"
    # practice (seed 003) names the last seat "last"
    assert f"{who} left holding {held} card{'s' if held != 1 else ''}: 4th place (last)." in out
    result = out[out.index("Deal 1 result"):]
    rows = re.findall(r"^\s*(1st|2nd|3rd|4th) \S (\w+)", result, re.M)
    assert [name for _, name in rows] == [game.names[p] for p in order]
    assert "The deal is over." in out
    # Piles that cleared were announced with their reason.
    assert out.count("The pile is cleared (everyone else passed)") >= 1
    # The hand was shown sorted, without position numbers (ranks are numbers too).
    first_hand = out[out.index("Your hand (13 cards):"):].splitlines()[1]
    cards = first_hand.split()
    idx = [Card.parse(c).index for c in cards]
    assert idx == sorted(idx) and len(cards) == 13
    assert tuple(Card.parse(c) for c in cards) == tuple(sorted(m.events[0].hands[0]))


def test_wrong_entries_show_reason_and_ask_again():
    console, buf = make_console()
    game = TerminalGame(Rules.preset("practice"), seed=3, console=console,
                        input_fn=scripted(["9z", "99", "#3", "1", "pass", "3C 4C", "9 9S",
                                           "help", "quit"]))
    hand_before = game.observation().hand
    assert game.run() == 0
    out = buf.getvalue()
    prompt = "You lead: a rank (all your cards of it) or cards: "
    assert out.count(prompt) == 9  # the same prompt each time: nothing was played
    assert "Not accepted: '9z' does not end in a suit" in out
    # Numbers are ranks, never places in the hand: a number that is no rank is refused.
    for word in ("99", "#3", "1"):
        assert f"Not accepted: '{word}' is not a rank or a card; cards are not typed by " \
               "their place in your hand" in out
    assert "you lead and must play" in out  # cannot-pass-lead, the engine's message
    assert "mixes ranks" in out
    assert "Not accepted: type ranks alone (9, or 9 9 for two) or the cards themselves" in out
    assert "At your turn, type one of:" in out
    assert "You leave the match" in out
    obs = game.observation()
    assert obs.hand == hand_before and obs.history == () and obs.to_act == 0


def test_card_not_in_hand_is_refused_with_engine_reason():
    console, buf = make_console()
    game = TerminalGame(Rules.preset("practice"), seed=3, console=console,
                        input_fn=scripted(["quit"]))
    hand = game.observation().hand
    missing = next(c for c in CARDS if c not in hand)
    game.input_fn = scripted([str(missing).lower(), "quit"])
    assert game.run() == 0
    out = buf.getvalue()
    assert f"Not accepted: you do not hold {missing}" in out
    assert len(game.observation().hand) == 13


def _hand_by_rank(hand):
    by_rank = {}
    for c in hand:
        by_rank.setdefault(c.rank, []).append(c)
    return by_rank


def test_a_rank_alone_on_a_lead_plays_all_your_cards_of_it():
    # Seed 3: your hand is 3D 8C 8H 10D 10H 10S JC JS QS KH AD AH 2C (read from the deal).
    for word in ("10", "T", "t", "8", "a", "queen", "Queens", "2"):
        console, buf = make_console()
        game = TerminalGame(Rules.preset("practice"), seed=3, console=console,
                            input_fn=scripted([word, "quit"]))
        by_rank = _hand_by_rank(game.observation().hand)
        rank = Rank.QUEEN if word.lower().startswith("queen") else Rank.parse(word)
        game.run()
        assert game.match.deal.history[0] == (0, Play.of(by_rank[rank])), word
        assert "Not accepted" not in buf.getvalue()
    assert len(by_rank[Rank.TEN]) == 3 and len(by_rank[Rank.QUEEN]) == 1  # the cases above


def test_a_rank_typed_twice_on_a_lead_plays_two_of_it_lowest_suits():
    console, buf = make_console()
    game = TerminalGame(Rules.preset("practice"), seed=3, console=console,
                        input_fn=scripted(["10 10", "quit"]))
    tens = _hand_by_rank(game.observation().hand)[Rank.TEN]
    game.run()
    assert game.match.deal.history[0] == (0, Play.of(tens[:2]))
    assert [c.suit for c in tens[:2]] == sorted(c.suit for c in tens)[:2]


def test_a_rank_you_do_not_hold_is_refused_by_name():
    console, buf = make_console()
    game = TerminalGame(Rules.preset("practice"), seed=3, console=console,
                        input_fn=scripted(["9", "k k", "quit"]))
    hand = game.observation().hand
    assert not any(c.rank == Rank.NINE for c in hand)
    assert sum(c.rank == Rank.KING for c in hand) == 1
    game.run()
    out = buf.getvalue()
    assert "Not accepted: you hold no nines (9)" in out
    assert "Not accepted: you hold only one king (K) and you typed it 2 times" in out
    assert game.match.deal.history == []


def _follow_position(pile_play: str, my_hand: str):
    """A practice deal where Sam (seat 3) leads ``pile_play`` and you answer."""
    from president.match import Match
    rest = [c for c in CARDS if c not in parse_cards(my_hand) and c not in parse_cards(pile_play)]
    hands = [my_hand, " ".join(map(str, rest[:10])), " ".join(map(str, rest[10:20])),
             pile_play + " " + " ".join(map(str, rest[20:24]))]
    console, buf = make_console()
    game = TerminalGame(Rules.preset("practice"), seed=3, console=console,
                        input_fn=scripted([]))
    game.match = Match(game.rules, game.names, seed=3, hands=hands, leader=3)
    game.match.act(3, pile_play)
    game._events_shown = len(game.match.events)
    return game, buf


def test_a_rank_alone_when_following_plays_as_many_as_the_pile_needs():
    game, buf = _follow_position("5S 5D", "KS KH KC 9D 3C")
    game.input_fn = scripted(["k", "quit"])
    game.run()
    out = buf.getvalue()
    assert "Beat 5♦ 5♠: a rank (a pair of it) or cards, or pass: " in out
    # Two kings out of three, the lowest suits (clubs, hearts); the spade stays.
    assert game.match.deal.history[1] == (0, Play.parse("KC KH"))
    assert game.match.deal.hand(0) == parse_cards("3C 9D KS")


def test_a_rank_alone_when_following_with_too_few_is_refused():
    game, buf = _follow_position("5S 5D", "KS 9D 9C 3C")
    game.input_fn = scripted(["K", "3", "quit"])
    game.run()
    out = buf.getvalue()
    assert "Not accepted: you hold only one king (K) and the pile needs a pair" in out
    assert "Not accepted: you hold only one three (3) and the pile needs a pair" in out
    assert len(game.match.deal.history) == 1


def test_symbols_and_lower_case_cards_are_accepted():
    console, buf = make_console()
    game = TerminalGame(Rules.preset("practice"), seed=3, console=console, input_fn=scripted([]))
    card = game.observation().hand[-1]
    text = card.rank.symbol + card.suit.symbol
    game.input_fn = scripted([text, "quit"])
    game.run()
    assert game.match.deal.history[0][1].cards == (card,)
    assert "Not accepted" not in buf.getvalue()


def test_hint_shows_the_hint_players_choice_from_your_observation():
    console, buf = make_console()
    game = TerminalGame(Rules.preset("practice"), seed=11, console=console,
                        input_fn=scripted(["hint", "quit"]))
    expected = make_player("simple").act(game.observation())
    game.run()
    assert f"Hint (simple): {expected.describe()} ({expected})" in buf.getvalue()
    assert game.match.deal.history == []  # a hint plays nothing


def test_a_hint_asked_again_in_the_same_position_is_the_same():
    # The random level answers differently each time it is asked; the second ask in the
    # same position repeats the first answer.
    console, buf = make_console()
    game = TerminalGame(Rules.preset("practice"), seed=11, console=console,
                        input_fn=scripted(["hint random"] * 6 + ["quit"]))
    game.run()
    hints = [line for line in buf.getvalue().splitlines() if line.startswith("Hint (random)")]
    assert len(hints) == 6 and len(set(hints)) == 1


def test_hint_level_asks_that_level_and_an_unknown_level_is_refused():
    console, buf = make_console()
    game = TerminalGame(Rules.preset("practice"), seed=11, console=console,
                        input_fn=scripted(["hint intermediate", "hint Wizard", "quit"]))
    expected = make_player("intermediate", seed=11 * 31).act(game.observation())
    game.run()
    out = " ".join(buf.getvalue().split())
    assert f"Hint (intermediate): {expected.describe()} ({expected})" in out
    assert ("Not accepted: no computer level 'wizard' for a hint; type hint or hint LEVEL, "
            f"LEVEL one of {', '.join(available_levels())}") in out
    assert game.match.deal.history == []


@pytest.mark.parametrize("seed, role, opponents", [(3, "President", "random"),
                                                   (1, "last", "intermediate")])
def test_whole_short_match_with_exchanges(seed, role, opponents):
    console, buf = make_console()
    driver = HintFollower(buf)
    game = TerminalGame(Rules.parse("house+three-deals"), seed=seed, levels=[opponents],
                        input_fn=driver, console=console)
    assert game.run() == 0
    out = buf.getvalue()
    m = game.match
    assert m.phase == "match-over" and m.deal_number == 3
    # every hint to pass says why, as the browser's does
    flat = " ".join(out.split())
    assert flat.count("): pass") == flat.count("): pass (") > 0
    assert "): pass (nothing you hold beats the pile)" in flat
    parts = re.split(r"─+ Deal (\d) ─+", out)
    deals = {int(parts[i]): parts[i + 1] for i in range(1, len(parts), 2)}
    assert sorted(deals) == [1, 2, 3]
    assert "Exchange:" not in deals[1]
    roles = []
    for d in (2, 3):
        text = deals[d]
        prev = m.results[d - 2].finish_order
        pres, last = game.names[prev[0]], game.names[prev[-1]]
        if prev[0] == 0:
            plan = f"Exchange: {last} gives their highest 1 card to you; you give back any 1 card."
        elif prev[-1] == 0:
            plan = f"Exchange: You give your highest 1 card to {pres}; {pres} gives back any " \
                   f"1 card."
        else:
            plan = f"Exchange: {last} gives their highest 1 card to {pres}; {pres} gives back " \
                   f"any 1 card."
        assert plan in text
        if prev[0] == 0:  # you were President: your free choice is asked for
            roles.append("President")
            assert f"Choose 1 card to give back to {last}; type the card (e.g. " in text
            assert re.search(rf"^{last} gives you \S+ \(their highest\)\.$", text, re.M)
            assert re.search(rf"^You give {last} \S+\.$", text, re.M)
        elif prev[-1] == 0:  # you were last (house, seed 000): your forced give is shown
            roles.append("last")
            given = Card.parse(re.search(rf"^You give {pres} (\S+) \(your highest\)\.$", text,
                                         re.M).group(1))
            shown = text[text.index("Your hand ("):].splitlines()[1].split()
            assert given.rank == max(Card.parse(c).rank for c in shown)  # your highest
            assert re.search(r"Give your highest card to",
                             text)
            assert re.search(rf"^{pres} gives you \S+\.$", text, re.M)
        else:  # others' exchanged cards stay hidden
            assert f"{last} gives {pres} 1 card (their highest)." in text
            assert f"{pres} gives {last} 1 card." in text
        # The President of the previous deal leads.
        who = "You lead" if prev[0] == 0 else f"{pres} leads"
        assert f"{who} the first pile (the President leads)." in text
    assert role in roles  # these seeds put you in that role before a later deal
    # Scores across the match, and the final totals as the engine has them.
    assert "Scores across the match" in out
    scores = ", ".join(f"{game.names[p]} {s}" for p, s in enumerate(m.scores))
    assert f"(scores: {scores})" in out
    assert "Match over" in out
    assert sum(sum(row) for row in game.deal_points) == sum(m.scores) == 9


def test_computer_players_get_only_their_own_observation():
    seen = []

    class Spy:
        level = "spy"

        def __init__(self, inner):
            self.inner = inner

        def act(self, obs):
            assert isinstance(obs, Observation)
            seen.append(obs)
            return self.inner.act(obs)

    console, buf = make_console()
    game = TerminalGame(Rules.parse("house+three-deals"),
                        seed=5, console=console, input_fn=HintFollower(buf))
    m = game.match
    original_act = m.act

    def checked_act(seat, action):
        if seen and seen[-1] is not None:
            obs = seen[-1]
            assert obs.seat == seat == obs.to_act
            assert obs.hand == m.deal.hand(seat)
            seen[-1] = None
        return original_act(seat, action)
    m.act = checked_act
    game.bots = {p: Spy(b) for p, b in game.bots.items()}
    assert game.run() == 0
    assert len(seen) > 50


def test_by_finish_seating_moves_you():
    console, buf = make_console()
    game = TerminalGame(Rules.parse("family", players=5), seed=4, console=console,
                        input_fn=HintFollower(buf))
    assert game.run() == 0
    m = game.match
    assert m.phase == "match-over" and max(m.scores) >= 11
    # Each deal after the first seats players in the previous finishing order.
    assert m.seating == m.results[-2].finish_order
    assert game.names == ["You", "Robin", "Alex", "Sam", "Casey"]
    # The score table keeps the latest 8 deals in columns and sums the earlier ones.
    n = m.deal_number
    assert n > 9
    last_table = buf.getvalue().rsplit("Scores across the match", 1)[1]
    header = last_table.splitlines()[1].split()
    assert header[:3] == ["Player", "┃", f"D1-{n - 8}"] and f"D{n}" in header
    you = next(line for line in last_table.splitlines() if line.startswith("You "))
    assert int(you.split()[-1]) == m.scores[0]
    assert sum(int(x) for x in you.replace("│", " ").split()[1:-1]) == m.scores[0]


def test_end_of_input_and_ctrl_c_leave_cleanly():
    console, buf = make_console()
    game = TerminalGame(Rules.preset("house"), seed=1, console=console, input_fn=scripted([]))
    assert game.run() == 0
    assert "You leave the match" in buf.getvalue()

    def interrupt():
        raise KeyboardInterrupt
    console, buf = make_console()
    game = TerminalGame(Rules.preset("house"), seed=1, console=console, input_fn=interrupt)
    assert game.run() == 130
    assert "Interrupted" in buf.getvalue()


def test_never_ending_match_asks_before_each_deal():
    console, buf = make_console()
    driver = HintFollower(buf)
    answers = iter(["", "quit"])

    def read():
        text = buf.getvalue()
        if text.rstrip().endswith("quit to stop:"):
            return next(answers)
        return driver()
    game = TerminalGame(Rules.preset("first-night"), seed=4, console=console, input_fn=read)
    assert game.run() == 0
    assert game.match.deal_number == 2
    assert buf.getvalue().count("Another deal?") == 2


def test_unknown_level_is_refused():
    with pytest.raises(ValueError, match="no computer level 'wizard'"):
        TerminalGame(Rules.preset("practice"), levels=["wizard"])


def test_play_through_a_real_subprocess(tmp_path):
    # Each rank low to high, then pass: a lead plays the lowest rank held (all of it); when
    # following, the lowest rank that beats, else pass. So the deal always ends.
    ranks = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "queen", "K", "A", "2", "pass"]
    stdin = "\n".join(ranks * 40) + "\n"
    record = tmp_path / "game.json"
    proc = subprocess.run([sys.executable, "-m", "president", "play", "--rules", "practice",
                           "--seed", "3", "--delay", "0", "--record", str(record)],
                          input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "seed 3" in proc.stdout
    assert "You lead the first pile" in proc.stdout
    assert "Deal 1 result" in proc.stdout
    assert "The deal is over." in proc.stdout
    assert proc.stderr == ""
    # The record replays to the deal that was played, ended.
    assert f"Match record written to {record}" in proc.stdout
    result = records.replay(records.load(record.open()))
    assert result.ok and result.match.phase == "match-over"
    assert result.match.deal.history[0] == (0, Play.parse("3D"))  # seed 3: 3D is your lowest


def test_an_unseeded_game_draws_a_real_seed_that_replays_the_same_deal():
    console, buf = make_console()
    game = TerminalGame(Rules.preset("practice"), console=console, input_fn=scripted([]))
    assert isinstance(game.seed, int) and 0 <= game.seed < 1_000_000
    game.run()
    out = buf.getvalue()
    assert f"· seed {game.seed}\n" in out and "random" not in out
    again = TerminalGame(Rules.preset("practice"), seed=game.seed, input_fn=scripted([]),
                         console=make_console()[0])
    assert again.observation().hand == game.observation().hand
    assert again.match.events[0] == game.match.events[0]


@pytest.mark.parametrize("how", ["quit", "end-of-input", "ctrl-c", "match-over"])
def test_record_is_written_however_the_game_ends(how, tmp_path):
    path = tmp_path / "bug.json"
    console, buf = make_console()
    if how == "quit":
        inputs = scripted(["3", "quit"])  # your three, then leave
    elif how == "end-of-input":
        inputs = scripted(["3"])
    elif how == "ctrl-c":
        def inputs():
            raise KeyboardInterrupt
    else:
        inputs = HintFollower(buf)
    game = TerminalGame(Rules.preset("practice"), seed=3, console=console, input_fn=inputs,
                        record=path)
    status = game.run()
    assert status == (130 if how == "ctrl-c" else 0)
    assert f"Match record written to {path} (seed 3)" in buf.getvalue()
    result = records.replay(records.load(path.open()))
    assert result.ok
    assert result.match.snapshot() == game.match.snapshot()
    played = 0 if how == "ctrl-c" else 1
    assert len(result.match.deal.history) >= played
    if how in ("quit", "end-of-input"):
        assert result.match.deal.history[0] == (0, Play.parse("3D"))
    if how == "match-over":
        assert result.match.phase == "match-over"


def test_record_that_cannot_be_written_is_reported(tmp_path):
    console, buf = make_console()
    path = tmp_path / "missing-folder" / "game.json"
    game = TerminalGame(Rules.preset("practice"), seed=3, console=console,
                        input_fn=scripted([]), record=path)
    assert game.run() == 0
    assert f"Could not write the match record to {path}: No such file or directory" \
        in buf.getvalue()


@pytest.mark.parametrize("winners, scores, line", [
    ((0,), (11, 4, 2, 1), "You win (scores: You 11, Robin 4, Alex 2, Sam 1)."),
    ((2,), (4, 3, 12, 1), "Alex wins (scores: You 4, Robin 3, Alex 12, Sam 1)."),
    ((0, 2), (11, 4, 11, 1), "You and Alex share the win (scores: You 11, Robin 4, Alex 11, "
                             "Sam 1)."),
    ((1, 2, 3), (3, 11, 11, 11), "Robin, Alex and Sam share the win (scores: You 3, Robin 11, "
                                 "Alex 11, Sam 11)."),
])
def test_match_end_grammar(winners, scores, line):
    from president.events import MatchEnded
    console, buf = make_console()
    game = TerminalGame(Rules.preset("house"), seed=1, console=console, input_fn=scripted([]))
    game.announce(MatchEnded(winners, scores), game.observation())
    out = buf.getvalue()
    assert line in out.splitlines()
    assert ("Well played!" in out) == (0 in winners)


def test_single_deal_end_names_the_winner_with_a_capital():
    from president.events import MatchEnded
    console, buf = make_console()
    game = TerminalGame(Rules.preset("practice"), seed=1, console=console, input_fn=scripted([]))
    game.announce(MatchEnded((0,), (0, 0, 0, 0)), game.observation())
    assert "The deal is over. You finished first." in buf.getvalue()


def test_narrow_terminal_wraps_the_hand_instead_of_truncating():
    # first-night, 3 players: seat 0 is dealt first and holds 18 cards.
    buf = io.StringIO()
    console = Console(file=buf, width=70, color_system=None, highlight=False)
    game = TerminalGame(Rules.parse("first-night", players=3), seed=2, console=console,
                        levels=["intermediate"], input_fn=scripted(["help", "quit"]))
    hand = game.observation().hand
    assert len(hand) == 18
    game.run()
    out = buf.getvalue()
    assert "…" not in out
    assert max(len(line) for line in out.splitlines()) <= 70
    after = out[out.index("Your hand (18 cards):"):].splitlines()[1:]
    shown = []
    for line in after:
        if line.startswith("You lead"):
            break
        shown += [Card.parse(w) for w in line.split()]
    assert tuple(shown) == hand
    assert len(after) > 2  # it did wrap


def _exchange_prompt_driver(buf, prompt_start, first_answers):
    """Answers ``first_answers`` at the first prompt starting with ``prompt_start``, and
    follows hints everywhere else."""
    follower = HintFollower(buf)
    pending = list(first_answers)

    def read():
        last = buf.getvalue().rstrip("\n").rsplit("\n", 1)[-1]
        if pending and last.startswith(prompt_start):
            return pending.pop(0)
        return follower()
    return read


def test_help_during_the_exchange_explains_the_exchange():
    # Seed 3 of house+three-deals makes you President after deal 1 (see the test above).
    console, buf = make_console()
    game = TerminalGame(Rules.parse("house+three-deals"), seed=3, levels=["random"],
                        console=console,
                        input_fn=_exchange_prompt_driver(buf, "Choose 1 card to give back",
                                                         ["help", "k k", "quit"]))
    game.run()
    out = buf.getvalue()
    scum = game.names[game.match.results[0].finish_order[-1]]
    help_at = out.index("Exchange: you give 1 card to ")
    text = out[help_at:]
    assert text.startswith(f"Exchange: you give 1 card to {scum} before the deal is played.")
    assert f"Choose 1 card to give back to {scum}." in text
    assert "Type the card: " in text and "or rank: " in text
    assert "At your turn, type one of:" not in out  # the play help was not shown
    assert "Not accepted: you hold " in text  # "k k" asks two kings for one card
    # A rank alone gives one card of that rank during the exchange.
    console, buf = make_console()
    game = TerminalGame(Rules.parse("house+three-deals"), seed=3, levels=["random"],
                        console=console, input_fn=_exchange_prompt_driver(
                            buf, "Choose 1 card to give back", ["3", "quit"]))
    game.run()
    out = buf.getvalue()
    at = out.rindex("Your hand (14 cards):\n", 0, out.index("; type the card (e.g."))
    hand_line = out[at:].splitlines()[1]
    threes = [Card.parse(w) for w in hand_line.split() if w.startswith("3")]
    assert threes  # this hand holds a three; the lowest suit of them goes
    assert re.search(rf"^You give {scum} {shown(threes[0])}\.$", out, re.M)


@pytest.mark.parametrize("passing, label", [
    ("re-enter", "passed since the last play"),
    ("sit-out", "passed: out of this pile"),
    ("once-around", "passed: has had their turn"),
])
def test_passed_is_labelled_by_the_passing_rule(passing, label):
    from president.match import Match
    rules = Rules.preset("practice").with_options(passing=passing)
    console, buf = make_console()
    game = TerminalGame(rules, seed=3, console=console, input_fn=scripted([]))
    game.match = Match(rules, game.names, seed=3, leader=3)
    hand3 = game.match.deal.hand(3)
    game.match.act(3, Play.of(hand3[:1]))  # Sam leads his lowest card
    game.match.act(0, "pass")  # you pass; Robin is to act
    game.show_table(game.observation())
    you = next(line for line in buf.getvalue().splitlines() if line.split()[:3] == ["1", "│", "You"])
    assert label in you


def test_narrow_terminal_seven_players_nothing_cut_short():
    # Seven players at 70 columns: titles such as Vice-President and the long "passed"
    # labels must show whole (wrapped if need be), never cut with an ellipsis.
    buf = io.StringIO()
    console = Console(file=buf, width=70, color_system=None, highlight=False)
    game = TerminalGame(Rules.parse("house+three-deals", players=7), seed=5,
                        levels=["intermediate", "beginner"], name="Alexandra", console=console,
                        input_fn=HintFollower(buf))
    assert game.run() == 0
    out = buf.getvalue()
    assert "…" not in out
    rows = [line for line in out.splitlines() if line.count("│") == 5]
    assert any("│ Vice-President │" in line for line in rows)
    assert any("passed since" in line for line in rows)
    echoed = re.compile(r"^(You lead|Beat|Choose|Give).*: ")
    assert all(len(line) <= 70 for line in out.splitlines() if not echoed.match(line))


def test_exchange_help_says_lowest_under_first_night_swap():
    """Seed ``004_7dd5a514fa081721.txt``: the President gives back their two worst cards
    (``give_back = lowest``); under ``house`` (seed 000) any card."""
    console, buf = make_console()
    game = TerminalGame(Rules.preset("first-night", players=4, twists=["swap"]), seed=5,
                        console=console)
    m = game.match
    m.finish_by_order([0, 1, 2, 3])          # you (seat 0) are President
    m.start_next_deal()
    while m.pending_transfer.giver != m.seating.index(0):
        seat = m.to_act
        m.act(seat, m.legal_actions()[0])
    obs = m.observation(m.seating.index(0))
    text = game.exchange_help(obs)
    assert "Give back your lowest 2 cards to " in text and "any" not in text
    # The table's "Exchange now" line says the same step (narration.exchange_duty).
    game.show_table(obs)
    to = obs.names[obs.pending_exchange.receiver]
    assert f"Exchange now: Give back your lowest 2 cards to {to}." in buf.getvalue()
    house = TerminalGame(Rules.preset("house", players=4), seed=5, console=console)
    h = house.match
    h.finish_by_order([0, 1, 2, 3])
    h.start_next_deal()
    h.act(h.to_act, h.legal_actions()[0])    # the last player's forced give
    assert "Choose 1 card to give back to " in house.exchange_help(
        h.observation(h.seating.index(0)))


@pytest.mark.parametrize("name", ["Tom [/b]", "[/]", "[bold red]Bob[/] [link=x]y"])
def test_a_name_with_square_brackets_is_shown_as_typed_not_read_as_markup(name):
    """A trial found ``--name 'Tom [/b]'`` crashed the table (rich read it as a tag)."""
    console, buf = make_console()
    holder: list[TerminalGame] = []
    answers = iter(["score", "history", "seen"])

    def answer() -> str:
        for extra in answers:       # the commands that list players first, then play on
            return extra
        return str(holder[0].match.legal_actions()[0])
    game = TerminalGame(Rules.preset("house", players=4), seed=5, console=console, name=name,
                        input_fn=answer, delay=0)
    holder.append(game)
    assert game.run() == 0       # a whole match: tables, scores, exchanges, results
    out = buf.getvalue()
    assert f"{name} (you)" in out         # the table's Player column, literally

