"""The rules kernel (president/kernel.py): what may be played and what a play or a pass does,
on ranks and counts, for every value of ``beat``, ``passing`` and ``last_of_rank_clears`` and
3 to 7 players, with values written out by hand; and a property test that the engine's
``Deal`` (cards with suits) and the kernel agree on random positions.

Ranks: 0 three, 1 four, 2 five, ..., 6 nine, 7 ten, 8 jack, 9 queen, 10 king, 11 ace, 12 two.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from president import kernel
from president.actions import PASS, Play
from president.deal import Deal
from president.kernel import (CLEARED_ALL_PASSED, CLEARED_LAST_OF_RANK, CLEARED_ONCE_AROUND,
                              ENDED, GOES_ON, Position)
from president.rules import OPTION_VALUES, PRESETS, TWISTS
from tests.helpers import all_rules

THREE, FOUR, FIVE, NINE, JACK, QUEEN, KING, ACE, TWO = 0, 1, 2, 6, 8, 9, 10, 11, 12


def _registry_values(option: str) -> set:
    """Every value of ``option`` that a preset or a twist sets (rules.py's registries)."""
    out = {opts[option] for _, _, opts in PRESETS.values()}
    for twists in TWISTS.values():
        out |= {changes[option] for _, changes in twists.values() if option in changes}
    return out


ALL_RULES = all_rules()
BEATS = [v.strip() for v in OPTION_VALUES["beat"].split(",")]
PASSINGS = [v.strip() for v in OPTION_VALUES["passing"].split(",")]


def _state(players: int, *, beat: str = "higher", passing: str = "re-enter", lor: bool = False,
           ncards: list[int] | None = None, leader: int = 0) -> Position:
    return Position(players, ncards or [13] * players, leader, strict=kernel.strict_of(beat),
                    mode=kernel.mode_of(passing),
                    clears=kernel.CLEAR_LAST_OF_RANK if lor else 0)


# ----- the options ------------------------------------------------------------------------

def test_the_kernel_knows_every_option_value_of_the_registries():
    assert set(BEATS) == set(kernel.BEAT_STRICT) == {"higher", "equal-or-higher"}
    assert _registry_values("beat") == set(BEATS)
    assert set(PASSINGS) == set(kernel.PASSING) == {"re-enter", "sit-out", "once-around"}
    assert _registry_values("passing") == set(PASSINGS)
    assert _registry_values("last_of_rank_clears") == {True, False}
    assert {r.players for r in ALL_RULES} == {3, 4, 5, 6, 7}
    for rules in ALL_RULES:
        s = Position.for_rules(rules, [1] * rules.players, 0)
        assert (s.strict, kernel.PASSING[s.mode], s.lor) == (
            rules.beat == "higher", rules.passing, rules.last_of_rank_clears)


def test_unknown_option_values_are_refused_with_the_known_ones():
    with pytest.raises(ValueError, match="no beat option 'lower'; use one of higher, equal-or-higher"):
        kernel.strict_of("lower")
    with pytest.raises(ValueError, match="no passing option 'skip'; use one of re-enter, sit-out"):
        kernel.mode_of("skip")


# ----- what may be played -----------------------------------------------------------------

@pytest.mark.parametrize("beat", BEATS)
def test_beats_every_pair_of_ranks(beat):
    """``higher``: strictly higher rank (seeds 000, 001, 003); ``equal-or-higher``: the same
    rank also beats (seed 004). Nothing is above a two."""
    strict = kernel.strict_of(beat)
    for top in range(13):
        for rank in range(13):
            want = rank > top if beat == "higher" else rank >= top
            assert kernel.beats(rank, top, strict) is want, (beat, rank, top)
    assert kernel.first_rank_to_follow(TWO, strict) == (13 if beat == "higher" else TWO)
    assert kernel.first_rank_to_follow(NINE, strict) == (JACK - 1 if beat == "higher" else NINE)


@pytest.mark.parametrize("beat", BEATS)
def test_follow_masks_are_the_beat_rule_as_bits(beat):
    strict = kernel.strict_of(beat)
    masks = kernel.follow_masks(strict)
    assert masks is kernel.follow_masks(strict)  # built once
    assert masks[-1] == 0x1FFF  # an empty pile: any rank
    for top in range(13):
        assert masks[top] == sum(1 << r for r in range(13) if kernel.beats(r, top, strict))
    assert masks[TWO] == (0 if beat == "higher" else 1 << TWO)


def test_worked_example_2_counts_must_match():
    """docs/rules.md worked example 2: a single 2 does not beat a pair; a pair of 2s beats a pair
    of aces; three kings do not beat a pair of queens, but two of those kings do."""
    for strict in (True, False):
        assert not kernel.may_play(TWO, 1, 2, ACE, strict)
        assert kernel.may_play(TWO, 2, 2, ACE, strict)
        assert not kernel.may_play(KING, 3, 2, QUEEN, strict)
        assert kernel.may_play(KING, 2, 2, QUEEN, strict)
    assert kernel.may_play(NINE, 2, 2, NINE, strict=False)
    assert not kernel.may_play(NINE, 2, 2, NINE, strict=True)


def test_a_lead_is_any_one_to_four_cards_of_one_rank_and_cannot_be_passed():
    for rank in range(13):
        for count in range(1, 5):
            assert kernel.may_play(rank, count, 0, -1, True)
    assert not kernel.may_play(FIVE, 5, 0, -1, True)
    assert not kernel.may_play(FIVE, 0, 0, -1, True)
    assert not kernel.may_play(13, 1, 0, -1, True)
    assert kernel.may_pass(0) is False
    assert all(kernel.may_pass(need) for need in (1, 2, 3, 4))


def test_legal_actions_by_hand():
    hand = [0] * 13
    hand[THREE], hand[NINE], hand[KING], hand[TWO] = 2, 3, 1, 4
    lead = kernel.legal_actions(hand, 0, -1, True)
    assert [kernel.decode(a) for a in lead] == [
        (THREE, 1), (THREE, 2), (NINE, 1), (NINE, 2), (NINE, 3), (KING, 1),
        (TWO, 1), (TWO, 2), (TWO, 3), (TWO, 4)]
    assert len(lead) == sum(hand)  # one lead per card: 1..held of each rank
    # a pair of nines on the pile
    assert kernel.legal_actions(hand, 2, NINE, True) == [kernel.encode(TWO, 2), kernel.PASS]
    assert kernel.legal_actions(hand, 2, NINE, False) == [
        kernel.encode(NINE, 2), kernel.encode(TWO, 2), kernel.PASS]
    # a single two: only a two under equal-or-higher, else pass
    assert kernel.legal_actions(hand, 1, TWO, True) == [kernel.PASS]
    assert kernel.legal_actions(hand, 1, TWO, False) == [kernel.encode(TWO, 1), kernel.PASS]
    assert kernel.legal_actions(hand, 4, THREE, True) == [kernel.encode(TWO, 4), kernel.PASS]


def test_encode_and_decode_round_trip():
    for rank in range(13):
        for count in range(1, 5):
            a = kernel.encode(rank, count)
            assert 0 <= a < 52 and kernel.decode(a) == (rank, count)
    assert kernel.PASS == -1


def test_completes_rank():
    """The fourth card of a rank on the pile: four of a kind at once, or the rest of a rank
    onto the same rank just played (seed 004's last-of-a-rank clear)."""
    assert kernel.completes_rank(FOUR, 4, -1, 0)
    assert kernel.completes_rank(NINE, 2, NINE, 2)
    assert kernel.completes_rank(NINE, 1, NINE, 3)
    assert not kernel.completes_rank(NINE, 2, NINE, 1)
    assert not kernel.completes_rank(NINE, 2, FIVE, 2)  # the fives do not count for nines


# ----- what a play or a pass does ---------------------------------------------------------

def test_worked_example_1_re_enter():
    """docs/rules.md worked example 1: A leads a pair of 5s, B passes, C a pair of 9s, D passes,
    A passes, B a pair of kings (re-entering); C, D, A pass: the pile clears and B leads."""
    A, B, C, D = range(4)
    s = _state(4)
    assert s.play(A, FIVE, 2) == GOES_ON and s.to_act == B
    assert s.pass_(B) == GOES_ON and s.to_act == C
    assert s.play(C, NINE, 2) == GOES_ON and s.to_act == D
    assert s.pass_(D) == GOES_ON and s.pass_(A) == GOES_ON and s.to_act == B
    assert s.play(B, KING, 2) == GOES_ON and s.passes == 0 and s.passed == 0
    assert [s.pass_(x) for x in (C, D, A)] == [GOES_ON, GOES_ON, CLEARED_ALL_PASSED]
    assert (s.to_act, s.need, s.top, s.same, s.last) == (B, 0, -1, 0, B)


def test_worked_example_1_kings_were_the_last_cards():
    A, B, C, D = range(4)
    s = _state(4, ncards=[13, 2, 13, 13])
    s.play(A, FIVE, 2)
    s.pass_(B)
    s.play(C, NINE, 2)
    s.pass_(D)
    s.pass_(A)
    assert s.play(B, KING, 2) == GOES_ON and s.finish == [B]  # B went out, first place
    assert s.to_act == C  # the kings stay on the pile: all three others must pass
    assert [s.pass_(x) for x in (C, D, A)] == [GOES_ON, GOES_ON, CLEARED_ALL_PASSED]
    assert s.to_act == C  # B has no cards: the next seat clockwise with cards leads


def test_worked_example_3_first_night_four_fours_clear_and_go_out():
    """docs/rules.md worked example 3 (first-night, last-of-rank clears): ... North leads four 4s
    and is out first (four 4s also complete the rank and clear the pile at once)."""
    W, N, E, S = range(4)
    s = _state(4, beat="equal-or-higher", lor=True, ncards=[13, 4, 13, 13], leader=N)
    assert s.play(N, FOUR, 4) == CLEARED_LAST_OF_RANK
    assert s.finish == [N] and s.to_act == E and s.need == 0


def test_last_of_rank_across_two_plays_and_only_when_the_option_is_on():
    for lor, want in ((True, CLEARED_LAST_OF_RANK), (False, GOES_ON)):
        s = _state(4, beat="equal-or-higher", lor=lor)
        s.play(0, NINE, 2)
        assert s.play(1, NINE, 2) == want
        assert s.to_act == (1 if lor else 2)  # the player who completed the rank leads again


def test_sit_out_skips_seats_that_passed_and_clears_when_no_one_is_left():
    s = _state(5, passing="sit-out")
    s.play(0, FIVE, 1)
    assert s.pass_(1) == GOES_ON and s.to_act == 2
    s.play(2, NINE, 1)
    assert s.to_act == 3
    s.pass_(3)
    s.pass_(4)
    assert s.to_act == 0  # seats 1, 3 and 4 passed on this pile and are skipped
    assert s.play(0, KING, 1) == GOES_ON and s.to_act == 2
    assert s.pass_(2) == CLEARED_ALL_PASSED and s.to_act == 0
    # re-enter instead: the seats that passed come back
    r = _state(5)
    r.play(0, FIVE, 1)
    r.pass_(1)
    r.play(2, NINE, 1)
    assert r.to_act == 3 and r.passed == 0


def test_sit_out_a_pass_clears_when_only_the_latest_player_is_eligible():
    s = _state(3, passing="sit-out")
    s.play(0, FIVE, 1)
    s.pass_(1)
    assert s.play(2, NINE, 1) == GOES_ON and s.to_act == 0
    assert s.pass_(0) == CLEARED_ALL_PASSED and s.to_act == 2


def test_once_around_every_other_seat_gets_one_turn():
    s = _state(4, passing="once-around")
    s.play(1, FIVE, 1)
    assert s.round_left == [2, 3, 0] and s.to_act == 2
    assert s.play(2, NINE, 1) == GOES_ON and s.round_left == [3, 0]
    assert s.pass_(3) == GOES_ON and s.to_act == 0
    assert s.play(0, JACK, 1) == CLEARED_ONCE_AROUND  # the last of the round: clear
    assert s.to_act == 0  # the highest (latest) play leads


def test_two_players_left_and_the_latest_player_went_out():
    """End of the deal: with two players left one pass clears; if the latest player has just
    gone out, both remaining players must pass."""
    s = _state(4, ncards=[0, 5, 5, 1], leader=3)
    s.finish = [0]
    assert s.play(3, ACE, 1) == GOES_ON and s.finish == [0, 3] and s.to_act == 1
    assert s.pass_(1) == GOES_ON and s.to_act == 2
    assert s.pass_(2) == CLEARED_ALL_PASSED and s.to_act == 1
    s.play(1, FIVE, 2)
    assert s.pass_(2) == CLEARED_ALL_PASSED and s.to_act == 1


def test_the_deal_ends_when_one_seat_holds_cards():
    s = _state(3, ncards=[1, 1, 3])
    assert s.play(0, TWO, 1) == GOES_ON and s.finish == [0]
    s.pass_(1)
    s.pass_(2)
    assert s.to_act == 1
    assert s.play(1, THREE, 1) == ENDED
    assert s.finish == [0, 1, 2] and s.to_act == -1


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_turn_order_skips_seats_without_cards(players):
    ncards = [13] * players
    ncards[1] = 0
    s = _state(players, ncards=ncards)
    assert s.next_with_cards(0) == 2
    assert s.next_with_cards(players - 1) == 0
    s.passed = 1 << 2
    assert s.next_eligible(0) == (3 if players > 3 else -1)


# ----- Deal and the kernel agree ----------------------------------------------------------

def _rank_counts(mask: int) -> list[int]:
    return [((mask >> (4 * r)) & 15).bit_count() for r in range(13)]


def _held_plays(mask: int) -> list[Play]:
    out = []
    for r in range(13):
        nib = (mask >> (4 * r)) & 15
        out += [Play(r, s) for s in range(1, 16) if s & ~nib == 0]
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(0, len(ALL_RULES) - 1), seed=st.integers(0, 2**32 - 1),
       steps=st.integers(0, 200))
def test_deal_and_kernel_agree_on_random_positions(index, seed, steps):
    """On a random position of a random deal under every rules value: the engine's legal
    actions are the kernel's legal actions spread over the suits held, every play made of
    held cards is legal exactly when the kernel's may_play says so, and a Position driven by
    the same ranks and counts makes the same transitions."""
    rules = ALL_RULES[index]
    rng = random.Random(seed)
    deal = Deal.shuffled(rules, rng.randrange(1 << 30), dealer=rng.randrange(rules.players))
    shadow = Position.for_rules(rules, deal.counts, deal.leader)
    for _ in range(steps):
        if deal.over:
            break
        seat = deal.to_act
        k = deal.state
        legal = deal.legal_actions()
        want = kernel.legal_actions(_rank_counts(deal.hands[seat]), k.need, k.top, k.strict)
        got = sorted({kernel.PASS if a is PASS else kernel.encode(a.rank, a.count) for a in legal})
        assert got == sorted(want)
        assert (PASS in legal) == kernel.may_pass(k.need)
        for play in _held_plays(deal.hands[seat]):
            assert deal.is_legal(seat, play) == kernel.may_play(play.rank, play.count, k.need,
                                                                 k.top, k.strict)
        action = legal[rng.randrange(len(legal))]
        events = deal.apply(seat, action)
        if action is PASS:
            outcome = shadow.pass_(seat)
        else:
            outcome = shadow.play(seat, action.rank, action.count)
        cleared = [e for e in events if type(e).__name__ == "PileCleared"]
        assert [e.reason for e in cleared] == ([kernel.CLEAR_REASONS[outcome]]
                                               if outcome not in (GOES_ON, ENDED) else [])
        assert (outcome == ENDED) == deal.over
        for name in kernel.STATE_SLOTS:
            assert getattr(shadow, name) == getattr(deal.state, name), name
        assert deal.to_act == (None if shadow.to_act < 0 else shadow.to_act)
        assert deal.counts == shadow.ncards and deal.finish_order == shadow.finish


# ----- the page states no rule -------------------------------------------------------------

def test_the_page_reads_what_answers_the_pile_from_the_server():
    """The page highlights from the server's ``legal`` and shows the server's
    ``to_beat.needs``; no module of the page holds a copy of the beat rule."""
    from pathlib import Path
    static = Path(__file__).parent.parent / "president" / "web" / "static"
    js = "\n".join(p.read_text() for p in sorted(static.glob("*.js")))
    assert "rules.beat" not in js and "equal-or-higher" not in js
    assert "s.to_beat.needs" in js and "app.state.legal" in js


@pytest.mark.parametrize("beat", BEATS)
def test_needs_words_follow_the_kernel(beat):
    from president.narration import what_beats as needs_words
    strict = kernel.strict_of(beat)
    for rank in range(13):
        for suits, count in ((1, 1), (3, 2), (15, 4)):
            words = needs_words(Play(rank, suits), beat)
            first = kernel.first_rank_to_follow(rank, strict)
            if first > TWO:
                assert words == "Nothing beats it: pass."
            elif rank == TWO:
                assert words == ("Only a 2 can match it, or pass." if count == 1
                                 else f"Only {count} twos can match it, or pass.")
            else:
                assert words.startswith(f"Needs {count} card{'s' if count > 1 else ''}, ")
                assert words.endswith(" or higher." if first == rank else
                                      f"higher than {Play(rank, 1).rank.symbol}.")
