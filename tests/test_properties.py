"""Property tests (hypothesis) of the rules core over every preset, table size and twist.

Each example plays random legal actions through one or two deals of a match (so exchanges
are covered) and checks at every step:

- cards are conserved: hands + pile + cleared cards = the cards dealt, with no card twice;
- exactly one seat is to act until the deal ends, and it holds cards;
- ``legal_actions()`` equals the set of actions ``refusal()`` accepts, over all 195 plays and
  PASS (or every give of the giver's cards during an exchange), and nobody else may act;
- an illegal action raises and changes nothing (snapshot and every observation);
- an observation shows the seat's own hand and public cards only, never another hand;

and that the events and the next seat to act agree with ``ReferencePile``, a second reading
of docs/rules.md's turn order and clearing written independently of the engine; at the end,
that every deal has a full finishing order. Notation round-trips (cards,
plays, rules) are checked on their own. Example counts keep the file well under a minute.
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from president import (CARDS, PASS, DealEnded, Dealt, Give, IllegalAction, Match, PileCleared,
                       Play, Rules, WentOut, format_cards, parse_cards, visible_to)
from president.actions import plays_table
from president.cards import cards_from_mask
from president.rules import PRESETS, TWISTS

ALL_PLAYS = [p for row in plays_table() for p in row if p is not None]
FULL = (1 << 52) - 1
SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def rules_strategy(draw, overrides: bool = True) -> Rules:
    """Any preset, any of its table sizes, any subset of its twists, and (optionally) the
    play options overridden, so every combination of passing/beat/last-of-rank/twos-clear is reached."""
    name = draw(st.sampled_from(sorted(PRESETS)))
    lo, hi, _ = PRESETS[name]
    players = draw(st.integers(lo, hi))
    twists = draw(st.lists(st.sampled_from(sorted(TWISTS[name])), unique=True)) \
        if TWISTS[name] else []
    options = {}
    if overrides and draw(st.booleans()):
        options["passing"] = draw(st.sampled_from(["re-enter", "sit-out", "once-around"]))
        options["beat"] = draw(st.sampled_from(["higher", "equal-or-higher"]))
        options["last_of_rank_clears"] = draw(st.booleans())
        options["twos_clear"] = draw(st.booleans())
    return Rules.preset(name, players=players, twists=twists, **options)


def check_position(match: Match, rng: random.Random, full: bool = True) -> None:
    """All the per-step invariants of the module docstring."""
    deal = match.deal
    n = match.rules.players
    # Conservation.
    seen = 0
    for h in deal.hands:
        assert h & seen == 0
        seen |= h
    pile = 0
    for _, play in deal.pile:
        assert play.mask & (seen | pile) == 0
        pile |= play.mask
    assert deal.cleared & (seen | pile) == 0
    dealt = 0
    for h in deal.dealt:
        dealt |= h
    assert seen | pile | deal.cleared == dealt
    assert deal.counts == [h.bit_count() for h in deal.hands]
    # One seat to act.
    views = [match.observation(s) for s in range(n)]
    if match.phase == "play":
        assert deal.to_act is not None and deal.counts[deal.to_act] > 0
        assert match.to_act == deal.to_act
    elif match.phase == "exchange":
        assert match.to_act == match.pending_transfer.giver
    else:
        assert match.to_act is None and deal.over
    assert all(v.to_act == match.to_act for v in views)
    assert [bool(v.legal_actions) for v in views] == [s == match.to_act for s in range(n)]
    # Information.
    for seat, view in enumerate(views):
        check_observation(match, seat, view)
    if match.to_act is None:
        return
    # legal_actions() == what refusal() accepts.
    seat = match.to_act
    legal = match.legal_actions()
    assert len(set(legal)) == len(legal)
    hand = deal.hands[seat]
    if match.phase == "play":
        # Every one of the 195 plays and PASS on one step in three (refusal messages are
        # not cheap); on the others, the plays made of held cards plus a few that are not.
        if full:
            candidates = ALL_PLAYS + [PASS]
        else:
            candidates = [p for p in ALL_PLAYS if p.mask & hand == p.mask]
            candidates += rng.sample(ALL_PLAYS, 8) + [PASS]
    else:
        held = cards_from_mask(hand)
        candidates = [Give(c) for k in (1, 2, 3) for c in itertools.combinations(held, k)]
        candidates += [Give([c]) for c in CARDS if not hand & c.bit][:5]
        candidates += [PASS]
        # A play of held cards is read as the give of those cards.
        for play in ALL_PLAYS[:20]:
            assert (match.refusal(seat, play) is None) == \
                (match.refusal(seat, Give(play.mask)) is None)
    accepted = {a for a in candidates if match.refusal(seat, a) is None}
    assert accepted == set(legal)
    for other in range(n):
        if other != seat:
            assert match.refusal(other, legal[0]).reason == "not-your-turn"
    # An illegal action changes nothing.
    refused = [a for a in candidates if a not in accepted]
    if refused:
        action = rng.choice(refused)
        who = rng.choice([seat, rng.randrange(n)])
        before = (match.snapshot(), views, len(match.events))
        try:
            match.act(who, action)
        except IllegalAction as err:
            assert err.reason and err.message
        else:  # pragma: no cover - a refused action was accepted
            raise AssertionError(f"{action} by seat {who} was accepted")
        assert (match.snapshot(), [match.observation(s) for s in range(n)],
                len(match.events)) == before


def check_observation(match: Match, seat: int, view) -> None:
    deal = match.deal
    assert view.hand == deal.hand(seat)
    assert view.hand_counts == tuple(deal.counts)
    public = deal.cleared
    for _, play in deal.pile:
        public |= play.mask
    for _, action in deal.history:
        if action is not PASS:
            public |= action.mask
    own_exchange = 0
    for t, give in match.exchange_log:
        if seat in (t.giver, t.receiver):
            own_exchange |= give.mask
    shown = 0
    for card in view.hand + view.cleared:
        shown |= card.bit
    for _, play in view.pile:
        shown |= play.mask
    for _, action in view.history:
        if action is not PASS:
            shown |= action.mask
    for _, _, cards in view.exchanges:
        for card in cards:
            shown |= card.bit
    assert shown & ~(deal.hands[seat] | public | own_exchange) == 0
    # No other seat's hand hides in any field of the view.
    for value in view.__class__.__slots__:
        assert type(getattr(view, value)).__name__ not in ("Deal", "Match")


class ReferencePile:
    """A second, independent reading of docs/rules.md's turn order and clearing, written with
    sets of seats rather than the engine's counters: who acts next, when the pile clears and
    why, who leads after a clear, places, and the end of the deal."""

    def __init__(self, rules: Rules, counts, to_act: int) -> None:
        self.rules = rules
        self.n = rules.players
        self.counts = list(counts)
        self.to_act = to_act
        self.finished: list[int] = []
        self._reset()

    def _reset(self) -> None:
        self.pile_count = 0
        self.top_rank = None
        self.rank_on_pile = 0
        self.latest = None
        self.passed_since: set[int] = set()   # re-enter: passes since the latest play
        self.sat_out: set[int] = set()        # sit-out: passed on this pile
        self.round: list[int] = []            # once-around: still to have their one turn

    def holders(self) -> set[int]:
        return {s for s in range(self.n) if self.counts[s]}

    def clockwise_from(self, seat: int, allowed) -> int | None:
        for i in range(1, self.n + 1):
            s = (seat + i) % self.n
            if s in allowed:
                return s
        return None

    def step(self, seat: int, action) -> list[tuple]:
        """Apply an action; return the expected (kind, ...) outcomes."""
        out: list[tuple] = []
        mode = self.rules.passing
        if action is PASS:
            if mode == "re-enter":
                self.passed_since.add(seat)
                if self.holders() - {self.latest} <= self.passed_since:
                    return out + self.clear("all-passed")
                self.to_act = self.clockwise_from(seat, self.holders())
            elif mode == "sit-out":
                self.sat_out.add(seat)
                eligible = self.holders() - self.sat_out - {self.latest}
                if not eligible:
                    return out + self.clear("all-passed")
                self.to_act = self.clockwise_from(seat, eligible)
            else:
                assert self.round[0] == seat
                self.round.pop(0)
                if not self.round:
                    return out + self.clear("once-around")
                self.to_act = self.round[0]
            return out
        lead = self.pile_count == 0
        self.counts[seat] -= action.count
        if lead:
            self.pile_count = action.count
            self.round = [s for s in ((seat + i) % self.n for i in range(1, self.n))
                          if self.counts[s]]
        elif mode == "once-around":
            assert self.round[0] == seat
            self.round.pop(0)
        self.rank_on_pile = (self.rank_on_pile + action.count if action.rank == self.top_rank
                             else action.count)
        self.top_rank = action.rank
        self.latest = seat
        self.passed_since = set()
        if not self.counts[seat]:
            self.finished.append(seat)
            out.append(("out", seat, len(self.finished)))
            if len(self.holders()) == 1:
                self.finished.append(self.holders().pop())
                self.to_act = None
                return out + [("end", tuple(self.finished))]
        if self.rules.last_of_rank_clears and self.rank_on_pile == 4:
            return out + self.clear("last-of-rank")
        if self.rules.twos_clear and action.rank == 12:     # a play of twos, in any order
            return out + self.clear("twos")
        if mode == "re-enter":
            self.to_act = self.clockwise_from(seat, self.holders())
        elif mode == "sit-out":
            eligible = self.holders() - self.sat_out - {seat}
            if not eligible:
                return out + self.clear("all-passed")
            self.to_act = self.clockwise_from(seat, eligible)
        else:
            if not self.round:
                return out + self.clear("once-around")
            self.to_act = self.round[0]
        return out

    def clear(self, reason: str) -> list[tuple]:
        winner = self.latest
        leader = winner if self.counts[winner] else self.clockwise_from(winner, self.holders())
        self._reset()
        self.to_act = leader
        return [("clear", reason, winner, leader)]


def outcomes(events) -> list[tuple]:
    out = []
    for e in events:
        if isinstance(e, WentOut):
            out.append(("out", e.seat, e.place))
        elif isinstance(e, PileCleared):
            out.append(("clear", e.reason, e.winner, e.leader))
        elif isinstance(e, DealEnded):
            out.append(("end", e.finish_order))
    return out


def play_out(match: Match, rng: random.Random, deals: int) -> None:
    for number in range(deals):
        steps = 0
        model = None
        while match.phase in ("exchange", "play"):
            check_position(match, rng, full=steps % 3 == 0)
            if match.phase == "play" and model is None:
                model = ReferencePile(match.rules, match.deal.counts, match.deal.to_act)
            seat, action = match.to_act, rng.choice(match.legal_actions())
            events = match.act(seat, action)
            if model is not None:
                assert outcomes(events) == model.step(seat, action), (seat, action)
                assert match.deal.to_act == model.to_act
            steps += 1
            assert steps < 400
        check_position(match, rng)
        ended = [e for e in match.events if isinstance(e, DealEnded)]
        assert len(ended) == number + 1
        order = ended[-1].finish_order
        assert sorted(order) == list(range(match.rules.players))
        assert match.deal.finish_order == list(order)
        assert sum(1 for c in match.deal.counts if c) == 1
        assert match.deal.counts[order[-1]] > 0
        if match.phase == "match-over":
            return
        match.start_next_deal(seed=rng.getrandbits(32))


@settings(max_examples=80, **SETTINGS)
@given(rules=rules_strategy(), seed=st.integers(0, 2**32 - 1))
def test_random_matches_keep_every_invariant(rules, seed):
    rng = random.Random(seed)
    match = Match(rules, seed=seed, first_dealer=rng.randrange(rules.players))
    # A second deal only where it adds something: an exchange, seating and lead changes.
    play_out(match, rng, deals=1 if rules.match_end == "single-deal" else 2)


@settings(max_examples=40, **SETTINGS)
@given(rules=rules_strategy(), seed=st.integers(0, 2**32 - 1))
def test_dealt_events_hide_other_hands(rules, seed):
    match = Match(rules, seed=seed)
    dealt = match.events[0]
    assert isinstance(dealt, Dealt)
    for seat in range(rules.players):
        shown = visible_to(dealt, seat)
        assert shown.hands[seat] == match.deal.hand(seat)
        assert all(h is None for s, h in enumerate(shown.hands) if s != seat)
        assert shown.hand_sizes == tuple(match.deal.counts)


@settings(max_examples=80, **SETTINGS)
@given(mask=st.integers(0, FULL))
def test_card_notation_round_trips(mask):
    cards = cards_from_mask(mask)
    text = format_cards(cards)
    assert parse_cards(text) == cards
    assert format_cards(parse_cards(text.lower())) == text
    assert Give.parse(text).mask == mask if text else True


def test_play_notation_round_trips():
    for play in ALL_PLAYS:
        assert Play.parse(str(play)) is play
        assert Play.parse(" ".join(reversed(str(play).split()))) is play
        assert Play.of(play.cards) is play


@settings(max_examples=80, **SETTINGS)
@given(rules=rules_strategy())
def test_rules_round_trip(rules):
    assert Rules.from_dict(rules.to_dict()) == rules
    assert Rules.parse(rules.name, players=rules.players,
                       **{k: getattr(rules, k) for k in ("passing", "beat",
                                                         "last_of_rank_clears")}) == rules


PRESET_SIZES = [(name, players, twists)
                for name in sorted(PRESETS)
                for players in range(PRESETS[name][0], PRESETS[name][1] + 1)
                for twists in dict.fromkeys([(), tuple(sorted(TWISTS[name]))])]


@pytest.mark.parametrize("name,players,twists", PRESET_SIZES,
                         ids=[f"{n}{'+' + '+'.join(t) if t else ''}-{p}"
                              for n, p, t in PRESET_SIZES])
def test_every_preset_and_table_size(name, players, twists):
    """The same invariants, deterministically once per preset, table size, and with all of
    the preset's twists at once (hypothesis above samples the rest)."""
    rules = Rules.preset(name, players=players, twists=twists)
    rng = random.Random(players * 31 + len(twists))
    match = Match(rules, seed=rng.getrandbits(32))
    play_out(match, rng, deals=1 if rules.match_end == "single-deal" else 2)
