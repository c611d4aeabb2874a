"""Computer players: legal under every preset, twist and table size; deterministic per seed;
they see only their own observation.

Matches are short (three deals, so exchanges happen) and each player acts only from
``match.observation(seat)`` of its own seat.
"""

from __future__ import annotations

import pytest

from president import PASS, Match, Rules
from president.rules import TWISTS
from president.actions import Give, Play
from president.observation import Observation
from president.players import LEVELS, make_player
from president.players.beginner import BeginnerPlayer
from president.players.intermediate import IntermediatePlayer
from president.players.knowledge import (can_be_beaten, hidden_counts, pile_same_rank,
                                         plan_size, rank_counts)

# every preset and twist, at the smallest and largest tables it allows
TABLES = [
    ("house", (), 4), ("house", (), 7), ("house", ("sit-out",), 5),
    ("house", ("fresh-hands",), 4), ("house", ("three-deals",), 6),
    ("family", ("equal-plays",), 6),
    ("family", ("once-around",), 4), ("family", ("lowest-three-starts",), 5),
    ("practice", (), 4), ("first-night", (), 3), ("first-night", ("swap",), 4),
    ("first-night", ("swap",), 3), ("first-night", ("swap", "three-of-clubs-starts"), 7),
    ("house", ("reversal",), 4), ("family", ("reversal", "equal-plays"), 5),
    ("house", ("twos-clear",), 5), ("family", ("equal-plays", "twos-clear"), 4),
]
FAST_LEVELS = list(LEVELS)  # every level; the searching ones at a small budget (_fast)


def _fast(level: str, seed: int):
    if level == "expert":
        from president.players.expert import ExpertPlayer
        return ExpertPlayer(seed=seed, playouts=24, time_limit=0.5)
    if level == "master":
        from president.players.master import MasterPlayer
        return MasterPlayer(seed=seed, playouts=24, time_limit=None)
    return make_player(level, seed=seed)


def play_match(rules: Rules, levels: list[str], seed: int, deals: int = 3) -> list:
    """Play up to ``deals`` deals; every action is checked legal before it is taken.
    Returns the actions taken."""
    m = Match(rules, seed=seed, record_events=False)
    players = [_fast(lv, seed * 31 + i) for i, lv in enumerate(levels)]
    taken = []
    for _ in range(deals):
        while m.to_act is not None:
            seat = m.to_act
            obs = m.observation(seat)
            assert isinstance(obs, Observation)
            action = players[m.seating[seat]].act(obs)
            assert action in obs.legal_actions, (rules.name, seat, action)
            assert m.is_legal(seat, action)
            m.act(seat, action)
            taken.append(action)
        if m.phase != "between-deals":
            break
        m.start_next_deal()
    return taken


@pytest.mark.parametrize("preset,twists,players", TABLES)
def test_every_level_plays_only_legal_actions(preset, twists, players):
    rules = Rules.preset(preset, players=players, twists=twists)
    levels = (FAST_LEVELS * 2)[:players]
    for seed in range(2):
        taken = play_match(rules, levels[seed:] + levels[:seed], seed)
        assert taken


def test_tables_cover_every_twist_and_every_give_back():
    """The tables above read against the registries: every twist of every preset is played,
    and both ``give_back`` values with an exchange (seed 004's swap gives back the lowest
    cards, seeds 000/001 any card), so the computer players are checked under each."""
    played = {(preset, t) for preset, twists, _ in TABLES for t in twists}
    assert played == {(preset, t) for preset in TWISTS for t in TWISTS[preset]}
    backs = {Rules.preset(preset, players=n, twists=twists).give_back
             for preset, twists, n in TABLES
             if Rules.preset(preset, players=n, twists=twists).exchange != "none"}
    assert backs == {"any", "lowest"}


@pytest.mark.parametrize("level", FAST_LEVELS)
def test_same_seed_same_choices(level):
    rules = Rules.preset("house", players=5, twists=("sit-out",))
    first = play_match(rules, [level] * 5, seed=11)
    again = play_match(rules, [level] * 5, seed=11)
    assert first == again


def test_exchanges_are_decided():
    """Under an exchange the free give returns low cards, never the only pair's cards."""
    rules = Rules.preset("first-night", players=4, twists=("swap",))
    gave = 0
    for seed in range(6):
        m = Match(rules, seed=seed, record_events=False)
        players = [IntermediatePlayer(seed=i) for i in range(4)]
        for _ in range(2):
            while m.to_act is not None:
                seat = m.to_act
                obs = m.observation(seat)
                action = players[m.seating[seat]].act(obs)
                if isinstance(action, Give):
                    assert obs.pending_exchange is not None
                    if not obs.pending_exchange.forced:
                        gave += 1
                        own = rank_counts(obs.hand)
                        low = min(c.rank for c in obs.hand)
                        # a free give hands back cards no higher than the seat's median rank
                        ranks = sorted(c.rank for c in obs.hand)
                        assert max(c.rank for c in action.cards) <= ranks[len(ranks) // 2]
                        assert own[low] >= 1
                m.act(seat, action)
            if m.phase != "between-deals":
                break
            m.start_next_deal()
    assert gave >= 6


def test_beginner_plays_its_lowest_play_without_slips():
    rules = Rules.preset("practice")
    m = Match(rules, hands=["3C 3D 9S KH", "4C 5C 6C 7C", "8C 8D 10C JC", "QC AC 2C 2D"])
    b = BeginnerPlayer(seed=0, mistakes=0.0)
    assert b.act(m.observation(0)) == Play.parse("3C")
    m.act(0, "3C")
    assert b.act(m.observation(1)) == Play.parse("4C")
    with pytest.raises(ValueError, match="between 0 and 1"):
        BeginnerPlayer(mistakes=1.5)


def test_simple_leads_its_lowest_set_and_keeps_sets_whole_when_it_can():
    rules = Rules.preset("practice")
    simple = make_player("simple")
    m = Match(rules, hands=["3C 3D 9S KH", "5C 5D 8C 2S", "4C 4D 4H JC", "QC AC 2C 2D"])
    assert simple.act(m.observation(0)) == Play.parse("3C 3D")  # the whole lowest rank
    m.act(0, "3C")
    # a single 5 would break the pair of fives; the 8 is the lowest single that fits exactly
    assert simple.act(m.observation(1)) == Play.parse("8C")


def test_simple_breaks_its_lowest_set_when_nothing_else_beats():
    rules = Rules.preset("practice")
    simple = make_player("simple")
    m = Match(rules, hands=["3C 9S KH QH", "4C 4D 7C 7D", "5C 5D 5H JC", "QC AC 2C 2D"])
    m.act(0, "3C")
    assert simple.act(m.observation(1)) == Play.parse("4C")  # both ranks are pairs: break 4s
    m.act(1, "4C")
    assert simple.act(m.observation(2)) == Play.parse("JC")  # the exact single fits
    m.act(2, "JC")
    m.act(3, "QC")
    m.act(0, "KH")
    assert simple.act(m.observation(1)) is PASS  # nothing beats a king


def test_intermediate_keeps_twos_and_shed_low_singles():
    rules = Rules.preset("practice")
    # seat 1 holds a single 2 and low cards: it does not spend the 2 on a low single
    m = Match(rules, hands=["3C 9S 9D KH QS", "4C 5C 6C 2S JD", "8C 8D 10C JC AD",
                            "QC AC 2C 2D 7H"])
    ip = IntermediatePlayer()
    m.act(0, "KH")
    assert ip.act(m.observation(1)) is PASS  # only a 2 beats a king: keep it
    m2 = Match(rules, hands=["3C 9S 9D KH QS", "4C 5C 6C 2S JD", "8C 8D 10C JC AD",
                             "QC AC 2C 2D 7H"])
    m2.act(0, "3C")
    assert ip.act(m2.observation(1)) == Play.parse("4C")  # shed the low single


def test_intermediate_does_not_break_a_pair_when_a_single_fits():
    rules = Rules.preset("practice")
    m = Match(rules, hands=["3C 9S 9D KH QS", "5C 5D 8C 2S JD", "8D 8H 10C JC AD",
                            "QC AC 2C 2D 7H"])
    m.act(0, "3C")
    assert IntermediatePlayer().act(m.observation(1)) == Play.parse("8C")


def test_intermediate_runs_its_sure_winners_then_goes_out():
    rules = Rules.preset("practice")
    # seat 0: all four 2s (a sure winner even as a single) and a 3: lead the 2s first
    m = Match(rules, hands=["2C 2D 2H 2S 3C", "4C 5C 6C 7C JD", "8C 8D 10C JC AD",
                            "QC AC KC KD 7H"])
    act = IntermediatePlayer().act(m.observation(0))
    assert act.rank == 12


def test_counting_cards_seen():
    rules = Rules.preset("practice")
    m = Match(rules, hands=["3C 9S 9D KH QS", "4C 5C 6C 2S JD", "8C 8D 10C JC AD",
                            "QC AC 2C 2D 7H"])
    m.act(0, "QS")
    m.act(1, "2S")
    obs = m.observation(2)
    own = rank_counts(obs.hand)
    hidden = hidden_counts(obs, own)
    # three 2s and three queens are not seen by seat 2 (only 2S and QS were played);
    # in this teaching position some of them were not dealt, which the seat cannot know
    assert hidden[12] == 3 and hidden[9] == 3 and hidden[5] == 2
    assert sum(hidden) == 52 - 5 - 2
    assert pile_same_rank(obs) == 1
    # a single ace can be beaten (2s are hidden); a pair of aces too (two 2s unseen)
    assert can_be_beaten(obs, 11, 1, hidden) and can_be_beaten(obs, 11, 2, hidden)
    # no hidden triple above nine exists... except none: triples need 3 of a rank hidden
    assert can_be_beaten(obs, 6, 3, hidden) == any(h >= 3 for h in hidden[7:])


def test_plan_size_counts_plays_net_of_winners():
    hidden = [4] * 12 + [0]  # no 2 hidden: a 2 is a sure winner
    own = [0] * 13
    own[0], own[5], own[12] = 1, 2, 1
    assert plan_size(own, hidden) == 3 - 2


def _cards_in(value) -> set:
    from president.cards import Card
    if isinstance(value, Card):
        return {value}
    if isinstance(value, Play):
        return set(value.cards)
    if isinstance(value, (tuple, list, frozenset)):
        out = set()
        for v in value:
            out |= _cards_in(v)
        return out
    return set()


def test_players_are_given_only_an_observation():
    """No card of another seat's hand appears anywhere in a seat's observation."""
    for seed in range(5):
        m = Match(Rules.preset("first-night", players=4, twists=("swap",)), seed=seed)
        players = [IntermediatePlayer() for _ in range(4)]
        for _ in range(2):
            while m.to_act is not None:
                seat = m.to_act
                obs = m.observation(seat)
                others = set()
                for s in range(4):
                    if s != seat:
                        others |= set(m.deal.hand(s))
                seen = set()
                for f in obs.__dataclass_fields__:
                    if f != "exchanges":
                        seen |= _cards_in(getattr(obs, f))
                assert not seen & others
                m.act(seat, players[m.seating[seat]].act(obs))
            m.start_next_deal()


def test_intermediate_reads_its_observation_into_counts():
    """The intermediate player chooses through the play-out statement of its heuristics:
    state_of puts the seat's own hand, the card counts and the cards not yet seen in the
    counts form, and refuses an observation that is not the seat's own turn in play."""
    from president import Match, Rules
    from president.players.intermediate import state_of

    m = Match(Rules.preset("house"), seed=2, record_events=False)
    seat = m.to_act
    assert seat is not None
    obs = m.observation(seat)
    fd, tot = state_of(obs)
    assert fd.to_act == seat and fd.need == 0 and fd.ncards == [13, 13, 13, 13]
    assert sum(fd.hands[seat]) == 13 and tot == [4] * 13
    with pytest.raises(ValueError, match="not to act"):
        state_of(m.observation((seat + 1) % 4))


def test_simple_choice_and_play_of_refuse_what_they_cannot_answer():
    """simple_choice needs the seat's own turn; play_of an action among the legal ones;
    simple_give a give."""
    from president import Match, Rules
    from president.actions import PASS, Play
    from president.players.knowledge import play_of
    from president.players.simple import simple_choice, simple_give

    m = Match(Rules.preset("practice"), hands=["3C 9S KH QS", "4C 5C 2S JD", "8C 8D 10C JC",
                                                "QC AC 2C 2D"], record_events=False)
    assert simple_choice(m.observation(0)) == Play.parse("3C")   # its lowest rank, on a lead
    with pytest.raises(ValueError, match="not to act"):
        simple_choice(m.observation(1))
    legal = m.observation(0).legal_actions
    assert play_of(4 * 6 + 0, legal) == Play.parse("9S")
    with pytest.raises(ValueError, match="not among the legal actions"):
        play_of(-1, legal)                                        # a lead cannot pass
    m.act(0, "KH")
    assert play_of(-1, m.observation(1).legal_actions) is PASS
    with pytest.raises(ValueError, match="no give"):
        simple_give(legal)
