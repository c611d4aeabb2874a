"""The search engine's package (president.search): the intermediate player's heuristics in
the play-out policies and its whole choice, heuristics then the exact endgame solve, in the
endgame module above them."""

from __future__ import annotations

import random

import pytest

from president import Rules
from president.search.endgame import intermediate_choice, intermediate_playout, winning_codes
from president.search.playout_policies import choice_playout, heuristic_choice
from president.search.playout_state import FastDeal

RULES = [Rules.preset("house", players=4), Rules.preset("first-night", players=3),
         Rules.preset("first-night", players=5)]
IDS = [f"{r.name}-{r.players}" for r in RULES]


def _tot(fd: FastDeal) -> list[int]:
    return [sum(h[r] for h in fd.hands) for r in range(13)]


@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_the_whole_choice_is_the_heuristics_until_two_seats_are_left(rules):
    """While three or more seats hold cards there is nothing to solve: the whole choice is
    the heuristics' one; with ``endgame_limit=0`` it is so to the end of the deal."""
    rng = random.Random(7)
    checked = 0
    for _ in range(6):
        fd = FastDeal.random(rules, rng)
        while not fd.over:
            tot = _tot(fd)
            code = heuristic_choice(fd, tot)
            assert intermediate_choice(fd, tot, endgame_limit=0) == code
            if fd.players - len(fd.finish) > 2:
                assert intermediate_choice(fd, tot) == code
                checked += 1
            assert code in fd.legal_actions()
            fd.apply(code)
    assert checked > 50


@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_in_a_two_player_endgame_the_whole_choice_plays_a_winning_action(rules):
    """Once two seats are left the whole choice plays a winning action of the solved
    endgame when there is one: the heuristics' own when it wins, else the first winning
    one; with no winning action, the heuristics' choice."""
    rng = random.Random(11)
    seen = {"kept": 0, "changed": 0, "lost": 0}
    for _ in range(30):
        fd = FastDeal.random(rules, rng)
        while fd.players - len(fd.finish) > 2:
            fd.apply(heuristic_choice(fd, _tot(fd)))
        while not fd.over:   # every decision of the endgame, each seat playing the heuristics
            tot = _tot(fd)
            code = heuristic_choice(fd, tot)
            wins = winning_codes(fd, limit=None)
            got = intermediate_choice(fd, tot, endgame_limit=None)
            if not wins:
                assert got == code
                seen["lost"] += 1
            elif code in wins:
                assert got == code
                seen["kept"] += 1
            else:
                assert got in wins
                seen["changed"] += 1
            fd.apply(code)
    assert seen["kept"] and seen["changed"] and seen["lost"], seen


@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_a_heuristic_play_out_is_the_intermediate_play_out_without_its_solve(rules):
    rng = random.Random(3)
    for _ in range(10):
        fd = FastDeal.random(rules, rng)
        a, b = fd.copy(), fd.copy()
        finish = choice_playout(a, heuristic_choice)
        assert sorted(finish) == list(range(rules.players)) and a.over
        assert intermediate_playout(b) == finish and b.hands == a.hands
        solved = fd.copy()
        assert sorted(intermediate_playout(solved, endgame_limit=None)) == \
            list(range(rules.players))


def test_choice_playout_keeps_the_cards_left_up_to_date():
    """``tot`` handed to the choice is always the cards per rank still in the hands."""
    fd = FastDeal.random(Rules.preset("house", players=4), random.Random(5))
    calls = []

    def choose(deal: FastDeal, tot: list[int]) -> int:
        assert tot == _tot(deal)
        calls.append(deal.to_act)
        return deal.legal_actions()[0]

    finish = choice_playout(fd, choose)
    assert fd.over and sorted(finish) == [0, 1, 2, 3] and len(calls) > 13
