"""Rank reversal (the ``reversal`` option, the ``house`` and ``family`` twist ``reversal``;
docs/rules.md "reversal"): a play of four of a kind reverses the rank order until the deal
ends, a second one reverses it back, every deal starts in normal order. Real positions with
the twist on and off, the option's names and records, and whole random deals.

Ranks: 0 three, 1 four, 2 five, ..., 6 nine, 7 ten, 8 jack, 9 queen, 10 king, 11 ace, 12 two.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import president.records as records
from president import Match, kernel
from president.actions import PASS, Play
from president.deal import Deal, hand_sizes
from president.errors import IllegalAction, RulesError
from president.kernel import Position
from president.players import compiled, fastsim
from president.players.fastsim import FastDeal, counts_of_mask
from president.rules import OPTIONS, TWISTS, Rules

THREE, FOUR, FIVE, SEVEN, NINE, KING, TWO = 0, 1, 2, 4, 6, 10, 12

HOUSE = Rules.preset("house", players=4, twists=["reversal"])
FAMILY_EQUAL = Rules.preset("family", players=4, twists=["equal-plays", "reversal"])

# Four hands of 13 for teaching positions: seat 0 has four 9s, seat 1 four 4s.
HANDS = [
    "9C 9D 9H 9S 3C 5C 7C JC KC AC 2C 6D 8D",
    "4C 4D 4H 4S 3D 5D 7D JD KD AD 2D 10D QD",
    "3H 5H 6H 7H 8H 10H JH QH KH AH 2H 6C 8C",
    "3S 5S 6S 7S 8S 10S JS QS KS AS 2S 10C QC",
]


def _play(deal: Deal, text: str) -> None:
    seat = deal.to_act
    assert seat is not None
    deal.apply(seat, PASS if text == "pass" else Play.parse(text))


def _ranks_that_beat(deal: Deal) -> set[int]:
    return {a.rank for a in deal.legal_actions() if a is not PASS}


# ----- the option and the twist ------------------------------------------------------------

def test_twist_is_for_house_and_family_and_off_by_default():
    assert "reversal" in OPTIONS
    for preset in ("house", "family"):
        assert "reversal" in TWISTS[preset]
        assert Rules.preset(preset).reversal is False
        assert Rules.preset(preset, twists=["reversal"]).reversal is True
    for preset in ("practice", "first-night"):
        assert "reversal" not in TWISTS[preset]
        assert Rules.preset(preset).reversal is False
    assert Rules().reversal is False
    text, changes = TWISTS["house"]["reversal"]
    assert changes == {"reversal": True}
    for word in ("Four of a kind", "clears nothing", "exchange"):
        assert word in text


@pytest.mark.parametrize("rules", [
    HOUSE, FAMILY_EQUAL, Rules.preset("house", players=6, twists=["sit-out", "reversal"]),
    Rules.preset("family", players=5).with_options(reversal=True),
    Rules.preset("first-night", players=3, reversal=True),
    Rules(players=5, reversal=True),
    Rules.preset("house", players=7, twists=["reversal"], reversal=False),
])
def test_option_round_trips_through_name_and_records(rules):
    assert Rules.parse(rules.name, players=rules.players) == rules
    data = rules.to_dict()
    assert data["reversal"] is rules.reversal
    assert Rules.from_dict(data) == rules


def test_names_and_values():
    assert HOUSE.name == "house+reversal"
    assert Rules.preset("family", players=5, reversal=True).name == "family/reversal=true"
    assert Rules.parse("house/reversal=true", players=4).reversal is True
    with pytest.raises(RulesError) as e:
        Rules.parse("house/reversal=yes", players=4)
    assert e.value.option == "reversal"
    with pytest.raises(RulesError):
        Rules(reversal="true")
    # a dict stored before the option existed loads with it off
    old = Rules.preset("house").to_dict()
    del old["reversal"]
    assert Rules.from_dict(old).reversal is False
    assert "Rank reversal" in HOUSE.describe()
    assert "Rank reversal" not in Rules.preset("house").describe()


# ----- the kernel ----------------------------------------------------------------------------

def test_beats_in_both_orders():
    assert kernel.beats(NINE, FIVE, True) and not kernel.beats(FIVE, NINE, True)
    assert kernel.beats(FIVE, NINE, True, True) and not kernel.beats(NINE, FIVE, True, True)
    assert not kernel.beats(NINE, NINE, True, True) and kernel.beats(NINE, NINE, False, True)
    assert kernel.beats(THREE, TWO, True, True) and not kernel.beats(TWO, THREE, True, True)
    assert not kernel.beats(THREE, THREE, True, True)  # nothing beats a three when reversed
    for strict in (True, False):
        for rev in (False, True):
            masks = kernel.follow_masks(strict, rev)
            assert masks[-1] == (1 << 13) - 1
            for top in range(13):
                ranks = list(kernel.follow_ranks(top, strict, rev))
                assert ranks == [r for r in range(13) if kernel.beats(r, top, strict, rev)]
                assert masks[top] == sum(1 << r for r in ranks)
    hand = [1, 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 2]
    pass_ = kernel.PASS
    assert kernel.legal_actions(hand, 2, NINE, True, True) == [kernel.encode(FOUR, 2), pass_]
    assert kernel.legal_actions(hand, 2, NINE, False, True) == [
        kernel.encode(FOUR, 2), kernel.encode(NINE, 2), pass_]
    assert kernel.legal_actions(hand, 2, NINE, True) == [kernel.encode(TWO, 2), pass_]
    assert kernel.may_play(FOUR, 2, 2, NINE, True, True)
    assert not kernel.may_play(TWO, 2, 2, NINE, True, True)


def test_position_flips_on_each_four_of_a_kind_only_with_the_option():
    for reversal in (False, True):
        s = Position(4, [13] * 4, 0, strict=True, mode=0, clears=0, reversal=reversal)
        assert s.reversed is False
        s.play(0, NINE, 4)
        assert s.reversed is reversal
        s.play(1, FOUR, 4) if reversal else s.play(1, KING, 4)
        assert s.reversed is False
    s = Position.for_rules(HOUSE, [13] * 4, 0)
    s.play(0, FIVE, 3)  # three of a kind: no flip
    assert s.reversed is False and s.reversal is True
    # a plain Position (and a FastDeal, which does not declare the slots) plays normally
    assert Position(4, [13] * 4, 0, strict=True, mode=0, clears=0).reversal is False


# ----- real positions on the engine's deal ----------------------------------------------------

def test_quad_reverses_then_a_second_quad_reverses_back():
    deal = Deal.from_hands(HOUSE, HANDS, dealer=3)
    assert deal.reversed is False
    _play(deal, "9C 9D 9H 9S")
    assert deal.reversed is True
    # the quad itself is judged in the new order: only four of a lower rank beat it
    assert [str(a) for a in deal.legal_actions()] == ["4C 4D 4H 4S", "pass"]
    err = deal.refusal(1, PASS)
    assert err is None
    _play(deal, "4C 4D 4H 4S")
    assert deal.reversed is False
    # back in normal order: the quad of fours is beaten only by a higher quad (none left)
    assert deal.legal_actions() == [PASS]


def test_quad_does_not_clear_the_pile_by_itself():
    deal = Deal.from_hands(HOUSE, HANDS, dealer=3)
    _play(deal, "9C 9D 9H 9S")
    assert deal.pile_count == 4 and deal.to_act == 1 and deal.cleared == 0
    for _ in range(3):
        _play(deal, "pass")
    assert deal.pile_count == 0 and deal.to_act == 0  # cleared by the passes, as always
    assert deal.reversed is True  # the order stays reversed across clears


def test_under_reversal_lower_ranks_beat_and_higher_are_refused():
    deal = Deal.from_hands(HOUSE, HANDS, dealer=3)
    _play(deal, "9C 9D 9H 9S")
    for _ in range(3):
        _play(deal, "pass")
    _play(deal, "7C")  # seat 0 leads a single seven
    assert _ranks_that_beat(deal) == {THREE, FOUR, FIVE}  # seat 1's 3D, 4s, 5D
    err = deal.refusal(1, Play.parse("KD"))
    assert isinstance(err, IllegalAction) and err.reason == "not-higher"
    assert "lower than 7" in str(err) and "reversed" in str(err)
    _play(deal, "5D")
    _play(deal, "3H")
    assert deal.legal_actions() == [PASS]  # nothing beats a three in reversed order
    held = deal.hand(deal.to_act)[0]
    err = deal.refusal(deal.to_act, Play.parse(str(held)))
    assert isinstance(err, IllegalAction)
    assert "nothing beats it, so pass" in str(err) and "lower than 3" not in str(err)


def test_without_the_twist_a_quad_changes_nothing():
    deal = Deal.from_hands(Rules.preset("house"), HANDS, dealer=3)
    _play(deal, "9C 9D 9H 9S")
    assert deal.reversed is False
    assert deal.legal_actions() == [PASS]  # four 4s do not beat four 9s
    assert deal.refusal(1, Play.parse("4C 4D 4H 4S")).reason == "not-higher"


def test_equal_plays_become_equal_or_lower():
    hands = ["9C 9D 9H 9S 7C 5C", "3D 5D 7D KD 2D 8D", "7H 8H 10H JH QH KH",
             "3S 5S 6S 8S 10S JS"]
    deal = Deal.from_hands(FAMILY_EQUAL, hands, dealer=3)
    _play(deal, "9C 9D 9H 9S")
    for _ in range(3):
        _play(deal, "pass")
    _play(deal, "7C")
    assert _ranks_that_beat(deal) == {THREE, FIVE, SEVEN}  # 3D, 5D and the equal 7D
    _play(deal, "7D")
    assert _ranks_that_beat(deal) == {SEVEN}  # seat 2: only the equal seven (7H)


def test_a_new_deal_starts_in_normal_order():
    m = Match(HOUSE, hands=HANDS, record_events=False)
    deal = m.deal
    m.act(deal.to_act, Play.parse("9C 9D 9H 9S"))
    assert m.deal.reversed is True
    # every seat is told (public information), and so is the page
    assert all(m.observation(s).reversed for s in range(HOUSE.players))
    if _has_web():
        from president.web.protocol import state_message
        msg = state_message(m.observation(0), table={}, player=0,
                            levels=["human"] * HOUSE.players, deals=[], winners=None,
                            snapshot=None)
        assert msg["reversed"] is True and msg["to_beat"]["needs"].endswith("(the order is reversed).")
    rng = random.Random(3)
    while m.to_act is not None:
        legal = m.legal_actions()
        m.act(m.to_act, legal[int(rng.random() * len(legal))])
    assert m.phase == "between-deals"
    m.start_next_deal()
    assert m.deal is not deal and m.deal.reversed is False
    # the exchange (before play) is not affected by the reversal: the last player still
    # gives their highest card in normal order; it runs as under the plain preset


def test_record_of_a_reversed_deal_replays():
    m = Match(HOUSE, hands=HANDS)
    m.act(m.to_act, Play.parse("9C 9D 9H 9S"))
    m.act(m.to_act, Play.parse("4C 4D 4H 4S"))
    rng = random.Random(8)
    while m.to_act is not None:
        legal = m.legal_actions()
        m.act(m.to_act, legal[int(rng.random() * len(legal))])
    rec = records.loads(records.dumps(m))
    assert rec.rules == HOUSE
    assert records.replay(rec).ok


# ----- the play-outs ---------------------------------------------------------------------------

def test_compiled_play_outs_fall_back_to_python_under_the_twist():
    rng_a, rng_b = random.Random(4), random.Random(4)
    assert compiled.random_deals(HOUSE, rng_a, 5) == compiled.random_deals(
        HOUSE, rng_b, 5, pure=True)
    assert compiled._compiled(random.Random(), False, HOUSE) is False
    assert compiled._in_c(HOUSE) is False


# ----- whole random deals ------------------------------------------------------------------

def _reversal_rules():
    tables = []
    for preset in ("house", "family"):
        for twist in TWISTS[preset]:
            if twist != "reversal":
                tables.append((preset, ("reversal", twist)))
        tables.append((preset, ("reversal",)))
    return st.sampled_from(tables).flatmap(
        lambda t: st.integers(4, 7).map(
            lambda n: Rules.preset(t[0], players=n, twists=t[1])))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=_reversal_rules(), seed=st.integers(0, 2**32 - 1),
       quad_bias=st.floats(0.0, 1.0))
def test_random_deals_under_the_twist_finish_legally(rules, seed, quad_bias):
    """Whole deals with random legal play (fours of a kind favoured by ``quad_bias``): every
    action is one the deal lists and accepts, every card is played once, and the finishing
    order is complete; the order is reversed exactly after an odd number of quads."""
    rng = random.Random(seed)
    deal = Deal.shuffled(rules, rng)
    quads = 0
    while not deal.over:
        seat = deal.to_act
        legal = deal.legal_actions()
        assert legal
        fours = [a for a in legal if a is not PASS and a.count == 4]
        action = rng.choice(fours) if fours and rng.random() < quad_bias else rng.choice(legal)
        assert deal.refusal(seat, action) is None
        if deal.pile_count and action is not PASS:
            top = deal.pile[-1][1].rank
            assert kernel.beats(action.rank, top, True, deal.reversed) or (
                rules.beat == "equal-or-higher" and action.rank == top)
        deal.apply(seat, action)
        if action is not PASS and action.count == 4:
            quads += 1
        assert deal.reversed is (quads % 2 == 1)
    order = deal.finish_order
    assert sorted(order) == list(range(rules.players))
    last = order[-1]
    played = 0
    for _, action in deal.history:
        if action is not PASS:
            assert not played & action.mask  # each card played once
            played |= action.mask
    assert played | deal.hands[last] == (1 << 52) - 1 and not played & deal.hands[last]
    assert all(deal.hands[s] == 0 for s in order[:-1])


def test_fastdeal_takes_the_option_and_copies_the_order():
    deal = Deal.shuffled(HOUSE, 5)
    fd = FastDeal(HOUSE, [counts_of_mask(h) for h in deal.hands], deal.leader)
    assert fd.reversal is True and fd.reversed is False
    assert FastDeal.shuffled(Rules.preset("house", players=4), 5).reversal is False
    fd.reversed = True
    c = fd.copy()
    assert c.reversal is True and c.reversed is True
    assert sorted(compiled.random_playout(fd, random.Random(1))) == [0, 1, 2, 3]


def _hands_with_quads(players: int, rng: random.Random) -> list[int]:
    """Card masks of a whole deck dealt to ``players`` seats, two to four ranks of it given
    whole (four of a kind) to random seats, so that play-outs play quads."""
    sizes = hand_sizes(players)
    masks = [0] * players
    held = [0] * players
    quads = rng.sample(range(13), rng.randint(2, 4))
    for r in quads:
        seat = rng.choice([s for s in range(players) if held[s] + 4 <= sizes[s]])
        masks[seat] |= 15 << (4 * r)
        held[seat] += 4
    rest = [c for c in range(52) if (c >> 2) not in quads]
    rng.shuffle(rest)
    for seat in range(players):
        for _ in range(sizes[seat] - held[seat]):
            masks[seat] |= 1 << rest.pop()
    assert not rest
    return masks


class _Logged(FastDeal):
    """A FastDeal that records every action applied to it (greedy, climbing and
    intermediate play-outs act through :meth:`FastDeal.apply`)."""

    def __init__(self, rules, hands, leader):
        super().__init__(rules, hands, leader)
        self.log = []

    def apply(self, action):
        self.log.append(action)
        FastDeal.apply(self, action)


def _engine_codes(deal: Deal) -> dict[int, object]:
    return {kernel.PASS if a is PASS else kernel.encode(a.rank, a.count): a
            for a in deal.legal_actions()}


def _follow_in_lockstep(rules: Rules, masks: list[int], leader: int, actions: list[int],
                        order: list[int]) -> int:
    """Replay ``actions`` on the engine and on a fresh FastDeal side by side: at every step
    both list the same legal actions, the action is among them and both are in the same
    order; the deal ends with the actions and gives ``order``. Returns the reversals."""
    deal = Deal.from_hands(rules, masks, leader=leader)
    fd = FastDeal(rules, [counts_of_mask(m) for m in masks], leader)
    flips = 0
    for step, act in enumerate(actions):
        assert not deal.over and fd.to_act == deal.to_act, step
        engine = _engine_codes(deal)
        fast = fd.legal_actions()
        assert sorted(fast) == sorted(engine), (step, deal.reversed)
        assert act in engine, (step, act)
        was = deal.reversed
        deal.apply(deal.to_act, engine[act])
        fd.apply(act)
        flips += deal.reversed != was
        assert fd.reversed is deal.reversed, step
        assert fd.need == deal.pile_count and fd.ncards == deal.counts, step
    assert deal.over and fd.over
    assert order == fd.finish == list(deal.finish_order)
    return flips


LOCKSTEP_RULES = [("house+reversal", 4), ("house+reversal", 5), ("family+reversal", 4),
                  ("family+equal-plays+reversal", 4), ("house+reversal+sit-out", 5),
                  ("family+once-around+reversal", 6)]


@pytest.mark.parametrize("spec,players", LOCKSTEP_RULES)
def test_random_playout_follows_the_engine_under_the_twist(spec, players):
    """The inlined random play-out flips the order on a quad exactly as the engine does:
    the same draws step by step through legal_actions()/apply() give its game, and that
    game is legal move for move in the engine."""
    rules = Rules.parse(spec, players=players)
    flips = 0
    for seed in range(40):
        rng = random.Random(seed)
        masks = _hands_with_quads(players, rng)
        leader = seed % players
        fast = FastDeal(rules, [counts_of_mask(m) for m in masks], leader)
        slow = fast.copy()
        order = fastsim.random_playout(fast, random.Random(seed))
        draws = random.Random(seed)
        actions = []
        while not slow.over:
            legal = slow.legal_actions()
            act = legal[int(draws.random() * len(legal))] if len(legal) > 1 else legal[0]
            actions.append(act)
            slow.apply(act)
        assert fast.hands == slow.hands and fast.reversed is slow.reversed
        flips += _follow_in_lockstep(rules, masks, leader, actions, order)
    assert flips  # the order was reversed in some of these deals


@pytest.mark.parametrize("policy", ["greedy", "climbing", "intermediate"])
@pytest.mark.parametrize("spec,players", LOCKSTEP_RULES)
def test_policy_playouts_follow_the_engine_under_the_twist(spec, players, policy):
    """Every action the greedy, climbing and intermediate play-outs take under the twist
    is legal in the engine, both list the same actions at every step and the finishing
    orders agree."""
    rules = Rules.parse(spec, players=players)
    run = {"greedy": fastsim.greedy_playout, "climbing": fastsim.climbing_playout,
           "intermediate": fastsim.intermediate_playout}[policy]
    flips = 0
    for seed in range(40):
        rng = random.Random(seed)
        masks = _hands_with_quads(players, rng)
        leader = seed % players
        fd = _Logged(rules, [counts_of_mask(m) for m in masks], leader)
        order = run(fd, random.Random(seed))
        flips += _follow_in_lockstep(rules, masks, leader, fd.log, order)
    assert flips


def test_the_page_is_told_the_order_is_reversed_and_what_answers_the_pile():
    """The state message's ``reversed`` and ``to_beat.needs`` follow the current order."""
    from president.actions import Play
    from president.narration import what_beats as needs_words

    nine = Play.parse("9C")
    assert needs_words(nine, "higher") == "Needs 1 card, higher than 9."
    assert needs_words(nine, "higher", True) == "Needs 1 card, lower than 9 (the order is reversed)."
    assert needs_words(Play.parse("9C 9D"), "equal-or-higher", True) == \
        "Needs 2 cards, 9 or lower (the order is reversed)."
    assert needs_words(Play.parse("3C"), "higher", True) == "Nothing beats it: pass."


def _has_web() -> bool:
    try:
        import fastapi  # noqa: F401
    except ImportError:
        return False
    return True


def test_the_terminal_game_says_the_order_is_reversed():
    """Found by a new user: four of a kind went by unannounced in the terminal, and the pile
    line read as in normal order."""
    pytest.importorskip("rich")
    from president.terminal.game import TerminalGame

    m = Match(HOUSE, hands=HANDS, record_events=False)
    seat = m.deal.to_act
    m.act(seat, Play.parse("9C 9D 9H 9S"))
    game = TerminalGame.__new__(TerminalGame)
    game.symbols = False
    assert "The rank order is reversed: lower ranks beat." in game._pile_text(m.observation(seat)).plain
    normal = Match(Rules.preset("house", players=4), hands=HANDS, record_events=False)
    normal.act(seat, Play.parse("9C 9D 9H 9S"))
    assert "reversed" not in game._pile_text(normal.observation(seat)).plain

