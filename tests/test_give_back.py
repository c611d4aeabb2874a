"""The ``give_back`` option (docs/rules.md ``exchange``): what the President and the
Vice-President hand back once the bottom and the Vice-Scum have given their best cards.

- ``any``: seed ``000_2ebb75a2290c9d05.txt`` (the President "returns any one card") and seed
  ``001_6a3b64d15368b01c.txt`` (the President "gives back any card they do not want");
  the ``house`` and ``family`` presets.
- ``lowest``: seed ``004_7dd5a514fa081721.txt`` (the President's "two worst" cards, the Vice
  President's "one worst", "two junk cards" in its walk-through); the ``first-night+swap``
  twist.

Scenario tests at every table size each preset allows, a record round trip, and a
property test over random deals against an oracle that looks at ranks only: under
``lowest`` every legal give back is the giver's lowest cards, and every other give is
refused.
"""

from __future__ import annotations

import copy
import itertools
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from president import Give, IllegalAction, Match, Rules, Transfer
from president.cards import cards_from_mask
from president.players import LEVELS, make_player
from president.players.expert import ExpertPlayer
from president.players.master import MasterPlayer
from president.records import dumps, loads, replay

RANKS = "3 4 5 6 7 8 9".split()


def _after_first_deal(rules: Rules) -> Match:
    """A match whose first deal ended with seat 0 first, seat 1 second, ..., the last seat
    last (one card each, each higher than the one before), so that the President is seat 0,
    the Vice-President seat 1, the Vice-Scum seat n-2 and the bottom seat n-1 in the next deal
    under fixed and by-finish seating alike."""
    n = rules.players
    match = Match(rules, hands=[f"{r}C" for r in RANKS[:n]])
    for seat in range(n - 1):
        match.act(seat, f"{RANKS[seat]}C")
    assert match.phase == "between-deals"
    assert match.results[-1].finish_order == tuple(range(n))
    return match


def _second_hands(n: int, count: int) -> list[str]:
    """The next deal's hands: the President's lowest cards tie at the boundary rank (two 3s
    for a one-card give back, 3D and three 4s for a two-card one)."""
    hands = ["8D", "8H", "8S", "9H", "9S", "10D", "10H"][:n]
    hands[0] = "3D 3H 9D JD" if count == 1 else "3D 4C 4D 4H 9D JD"
    if n >= 4:
        hands[1] = "6D 6H 10C"
        hands[n - 2] = "7C 8C QC"
    else:
        hands[1] = "7C 8C QC"
    hands[n - 1] = "5C 6C KC 2S"
    return hands


def _views(match: Match) -> tuple:
    return (match.snapshot(), [match.observation(s) for s in range(match.rules.players)],
            match.to_act, len(match.events), list(match.exchange_log))


def _refused(match: Match, seat: int, action: str, reason: str) -> str:
    before = _views(match)
    assert match.refusal(seat, action).reason == reason
    with pytest.raises(IllegalAction) as info:
        match.act(seat, action)
    assert info.value.reason == reason
    assert _views(match) == before
    return info.value.message


def _gives(*texts: str) -> set[Give]:
    return {Give.parse(t) for t in texts}


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_first_night_swap_gives_back_the_lowest_cards(players):
    """Seed 004 (``004_7dd5a514fa081721.txt``): the bottom gives their two best and the
    President gives their "two worst"; the Vice-President gives "one worst" to the
    Vice-Scum; at three players one card each way between President and bottom and no vice
    swap. Among equal ranks at the boundary the giver picks the suit (as the bottom does,
    docs/rules.md ``exchange``)."""
    rules = Rules.parse("first-night+swap", players=players)
    assert rules.give_back == "lowest"
    n = players
    count = 1 if n == 3 else 2
    match = _after_first_deal(rules)
    match.start_next_deal(hands=_second_hands(n, count))
    assert match.exchange_steps[:2] == [Transfer(n - 1, 0, count, True),
                                        Transfer(0, n - 1, count, False)]
    # The bottom's best cards, then the President's worst.
    match.act(n - 1, "KC 2S" if count == 2 else "2S")
    assert match.to_act == 0
    if count == 2:
        lowest = _gives("3D 4C", "3D 4D", "3D 4H")
        worded = "give your 2 lowest cards: 3D and one of your fours (4C, 4D or 4H)"
        bad = ("3D 9D", "4C 4D", "3D 2S", "9D JD")
    else:
        lowest = _gives("3D", "3H")
        worded = "give your lowest card: one of your threes (3D or 3H)"
        bad = ("9D", "2S", "JD")
    assert set(match.legal_actions()) == lowest
    assert len(match.legal_actions()) == len(lowest)
    assert match.observation(0).legal_actions == tuple(match.legal_actions())
    for give in bad:
        assert _refused(match, 0, give, "bad-exchange") == worded
    assert _refused(match, 0, "3D 3S" if count == 2 else "3S", "not-in-hand")
    chosen = sorted(lowest, key=lambda g: str(g.cards))[-1]
    match.act(0, chosen)
    if n >= 4:
        # The Vice-Scum's best card, then the Vice-President's worst (a tie of sixes).
        assert match.exchange_steps[2:] == [Transfer(n - 2, 1, 1, True),
                                            Transfer(1, n - 2, 1, False)]
        assert match.legal_actions() == [Give.parse("QC")]
        match.act(n - 2, "QC")
        assert set(match.legal_actions()) == _gives("6D", "6H")
        for give in ("10C", "QC"):
            assert _refused(match, 1, give, "bad-exchange") == \
                "give your lowest card: one of your sixes (6D or 6H)"
        match.act(1, "6H")
    assert match.phase == "play" and match.to_act == 0  # the President leads
    kept = Give.parse("5C 6C" if count == 2 else "5C 6C KC").mask
    assert match.deal.hand(n - 1) == cards_from_mask(kept | chosen.mask)
    _round_trip(match)


@pytest.mark.parametrize("players", [4, 5, 6, 7])
def test_house_gives_back_any_card(players):
    """Seed 000 (``000_2ebb75a2290c9d05.txt``): the last player hands over their highest card
    and the President "returns any one card"; seed 001 (``001_6a3b64d15368b01c.txt``): the
    President gives back "any card they do not want", even the card just received."""
    rules = Rules.preset("house", players=players)
    assert rules.give_back == "any"
    n = players
    match = _after_first_deal(rules)
    match.start_next_deal(hands=_second_hands(n, 1))
    assert match.exchange_steps == [Transfer(n - 1, 0, 1, True), Transfer(0, n - 1, 1, False)]
    match.act(n - 1, "2S")
    assert set(match.legal_actions()) == _gives("3D", "3H", "9D", "JD", "2S")
    assert _refused(match, 0, "3D 3H", "bad-exchange") == "give exactly 1 card, not 2"
    assert _refused(match, 0, "4C", "not-in-hand") == "you do not hold 4C"
    assert _refused(match, n - 1, "5C", "not-your-turn")
    match.act(0, "JD")  # not the lowest: allowed under any
    assert match.phase == "play"
    assert match.deal.hand(n - 1) == cards_from_mask(Give.parse("5C 6C KC JD").mask)
    _round_trip(match)


def _round_trip(match: Match) -> None:
    """The record of ``match`` names its give back and replays to the same state."""
    text = dumps(match)
    assert json.loads(text)["rules"]["give_back"] == match.rules.give_back
    record = loads(text)
    assert record.rules == match.rules
    result = replay(record)
    assert result.ok, result.error
    assert result.match.snapshot() == match.snapshot()
    assert dumps(result.match) == text


@pytest.mark.parametrize("players", [3, 4, 7])
def test_a_record_with_a_give_back_that_is_not_the_lowest(players):
    """Under the swap of seed 004 (``004_7dd5a514fa081721.txt``) a record whose President
    gives back a card that is not among their worst stops at that exchange step with the
    rule in words; the same record written before ``give_back`` existed (format
    ``president/1`` and no such key: every give back was free then) replays."""
    n = players
    count = 1 if n == 3 else 2
    old_rules = Rules.parse("first-night+swap", players=n, give_back="any")
    match = _after_first_deal(old_rules)
    match.start_next_deal(hands=_second_hands(n, count))
    match.act(n - 1, "KC 2S" if count == 2 else "2S")
    match.act(0, "9D JD" if count == 2 else "JD")
    data = json.loads(dumps(match))
    assert data["deals"][1]["exchange"][1] == f"0>{n - 1} " + ("9D JD" if count == 2 else "JD")
    data["rules"]["give_back"] = "lowest"
    result = replay(data)
    assert not result.ok
    err = result.error
    assert (err.deal, err.step, err.action, err.reason) == (1, "exchange", 1, "bad-exchange")
    assert "lowest" in err.message and "3D" in err.message
    del data["rules"]["give_back"]
    assert data["format"] == "president/2"       # a new record: its preset's rule, refused
    assert replay(data).error.reason == "bad-exchange"
    data["format"] = "president/1"               # written before give_back: free, replays
    result = replay(data)
    assert result.ok, result.error
    assert result.match.rules.give_back == "any"
    assert result.match.snapshot() == match.snapshot()


def test_the_give_back_rule_also_holds_for_a_one_card_exchange():
    """``give_back`` is its own option: a custom house table may ask for the lowest card
    (seed 004's rule with seed 000's one-card exchange), and every computer level still
    gives only legal cards there."""
    rules = Rules.preset("house", players=4, give_back="lowest", match_end="deals:3")
    match = _after_first_deal(rules)
    match.start_next_deal(hands=_second_hands(4, 1))
    match.act(3, "2S")
    assert set(match.legal_actions()) == _gives("3D", "3H")
    for level in LEVELS:
        for seed in range(2):
            m = Match(rules, seed=seed, record_events=False)
            bots = [ExpertPlayer(seed=i, playouts=8, time_limit=None) if level == "expert"
                    else MasterPlayer(seed=i, playouts=8, time_limit=None) if level == "master"
                    else make_player(level, seed=seed * 7 + i) for i in range(4)]
            gave_back = 0
            while m.phase != "match-over":
                if m.phase == "between-deals":
                    m.start_next_deal()
                    continue
                seat = m.to_act
                obs = m.observation(seat)
                action = bots[m.seating[seat]].act(obs)
                assert action in obs.legal_actions and m.is_legal(seat, action), (level, action)
                if obs.pending_exchange is not None and not obs.pending_exchange.forced:
                    rest = [c.rank for c in obs.hand if c not in action.cards]
                    assert max(c.rank for c in action.cards) <= min(rest)
                    gave_back += 1
                m.act(seat, action)
            assert gave_back == 2


# ----- random deals against a ranks-only oracle -------------------------------------------

def _oracle(hand: int, count: int, kind: str) -> set[int]:
    """Every give of ``count`` cards of ``hand`` that the rule ``kind`` allows, by brute
    force over ranks: ``highest``: nothing left is higher than a card given; ``lowest``:
    nothing left is lower than a card given; ``any``: every give."""
    cards = cards_from_mask(hand)
    out = set()
    for combo in itertools.combinations(cards, count):
        rest = [c.rank for c in cards if c not in combo]
        given = [c.rank for c in combo]
        if kind == "any" or not rest or (
                min(given) >= max(rest) if kind == "highest" else max(given) <= min(rest)):
            out.add(sum(c.bit for c in combo))
    return out


TABLES = [("first-night+swap", n, {}) for n in range(3, 8)] + \
         [("house", n, {}) for n in range(4, 8)] + \
         [("family", 5, dict(give_back="lowest")), ("first-night", 4, dict(
             exchange="one-card"))]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(TABLES), st.integers(0, 2**32 - 1))
def test_random_deals_every_legal_give_back_is_the_lowest(table, seed):
    """Random first deals (random legal play) lead to random exchanges; at every step the
    legal gives are exactly the oracle's (the bottom's and Vice-Scum's highest cards; under
    ``lowest``, seed 004, the lowest cards; under ``any``, seeds 000 and 001, every give),
    ``refusal`` accepts exactly those, and a refused give changes nothing."""
    spec, players, options = table
    rules = Rules.parse(spec, players=players, **options)
    rng = random.Random(seed)
    match = Match(rules, seed=seed, first_dealer=seed % players)
    while match.phase == "play":
        match.act(match.to_act, rng.choice(match.legal_actions()))
    match.start_next_deal()
    assert match.phase == "exchange"
    while match.phase == "exchange":
        step = match.pending_transfer
        hand = match.deal.hands[step.giver]
        kind = "highest" if step.forced else rules.give_back
        want = _oracle(hand, step.count, kind)
        legal = match.legal_actions()
        assert {g.mask for g in legal} == want and len(legal) == len(want)
        for combo in itertools.combinations(cards_from_mask(hand), step.count):
            give = Give(combo)
            err = match.refusal(step.giver, give)
            assert (err is None) == (give.mask in want)
            if err is not None:
                assert err.reason == "bad-exchange"
                assert ("lowest" if kind == "lowest" else "highest") in err.message
        outside = _oracle(hand, step.count, "any") - want
        if outside:
            before = copy.deepcopy(match.snapshot())
            with pytest.raises(IllegalAction):
                match.act(step.giver, Give(cards_from_mask(min(outside))))
            assert match.snapshot() == before
        match.act(step.giver, rng.choice(legal))
    assert match.phase == "play"
