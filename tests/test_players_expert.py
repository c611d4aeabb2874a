"""The expert's search: its sampled worlds respect what its seat knows, it rebuilds the pile
from public history only, it is legal and deterministic, and it skips search when there is
nothing to choose. Budgets are tiny to keep the tests fast."""

from __future__ import annotations

import math
import random

import pytest

from president import CARDS, PASS, Match, Rules
from president.actions import Give
from president.players.expert import ExpertPlayer, root_state, sample_world, seat_constraints, shuffle
from president.players.fastsim import counts_of_mask
from president.players.intermediate import IntermediatePlayer
from president.players.knowledge import rank_counts


def _positions(rules: Rules, seed: int, deals: int = 2):
    """Every (match, observation) of intermediate players over ``deals`` deals."""
    m = Match(rules, seed=seed, record_events=False)
    bot = IntermediatePlayer()
    for _ in range(deals):
        while m.to_act is not None:
            seat = m.to_act
            obs = m.observation(seat)
            yield m, obs
            m.act(seat, bot.act(obs))
        if m.phase != "between-deals":
            return
        m.start_next_deal()


@pytest.mark.parametrize("spec,players", [("house", 4), ("first-night+swap", 5),
                                          ("family+once-around", 4), ("house+sit-out", 6),
                                          ("first-night+swap", 3)])
def test_sampled_worlds_respect_the_seat_knowledge(spec, players):
    rules = Rules.parse(spec, players=players)
    rng = random.Random(0)
    checked = 0
    floors = 0
    for m, obs in _positions(rules, seed=players):
        if obs.phase != "play":
            continue
        me = obs.seat
        played = [0] * 13
        for _, a in obs.history:
            if a is not PASS:
                for c in a.cards:
                    played[c.rank] += 1
        own = rank_counts(obs.hand)
        cons = seat_constraints(obs)
        for _ in range(3):
            world = sample_world(cons, rng)
            assert world[me] == own
            for s in range(players):
                assert sum(world[s]) == obs.hand_counts[s]
            for r in range(13):
                # no card it holds or has seen played is placed in another hand
                assert sum(world[s][r] for s in range(players) if s != me) == \
                    4 - own[r] - played[r]
            # cards it gave in the exchange and that are unplayed stay with the receiver
            for giver, receiver, cards in obs.exchanges:
                if giver == me:
                    played_cards = {c for _, a in obs.history if a is not PASS for c in a.cards}
                    for c in cards:
                        if c not in played_cards and c not in obs.hand:
                            assert world[receiver][c.rank] >= 1
            # a seat that had to hand it its highest cards holds nothing higher, apart from
            # the cards handed back to it
            for giver, cap_cards in _forced(obs):
                cap = min(c.rank for c in cap_cards)
                back = [c.rank for g, r, cs in obs.exchanges if g == me and r == giver for c in cs]
                for r in range(cap + 1, 13):
                    assert world[giver][r] <= back.count(r)
            # under give_back = lowest (seed 004: the President's "two worst" cards) a seat
            # that gave it cards back holds nothing lower than the highest of them, apart
            # from cards this seat gave it
            for giver, floor_cards in _back(obs):
                floor = max(c.rank for c in floor_cards)
                mine = [c.rank for g, r, cs in obs.exchanges if g == me and r == giver for c in cs]
                for r in range(floor):
                    assert world[giver][r] <= mine.count(r)
        # the true hands are one of the worlds it considers possible
        true = [counts_of_mask(h) for h in m.deal.hands]
        assert all(sum(true[s]) == sum(world[s]) for s in range(players))
        for giver, cap_cards in _forced(obs):
            cap = min(c.rank for c in cap_cards)
            back = [c.rank for g, r, cs in obs.exchanges if g == me and r == giver for c in cs]
            for r in range(cap + 1, 13):
                assert true[giver][r] <= back.count(r)
        for giver, floor_cards in _back(obs):
            floor = max(c.rank for c in floor_cards)
            assert all(true[giver][r] == 0 for r in range(floor))
            floors += 1
        checked += 1
    assert checked > 10
    assert (floors > 0) == (rules.give_back == "lowest" and rules.exchange != "none")


def _back(obs):
    """(giver, cards) given back to the observing seat, when the rules make them the
    giver's lowest cards."""
    if obs.rules.give_back != "lowest":
        return []
    out, pairs = [], set()
    for g, r, cards in obs.exchanges:
        key = frozenset((g, r))
        if key not in pairs:
            pairs.add(key)
        elif r == obs.seat:
            out.append((g, cards))
    return out


def _full_deal(president: str, bottom_best: str) -> list[str]:
    """Four hands of 13 that use the whole pack: the President's as given, the bottom's best
    cards and its 13 - k lowest of the rest, the other 26 to seats 1 and 2."""
    pres = president.split()
    best = bottom_best.split()
    rest = [str(c) for c in CARDS if str(c) not in pres + best]
    bottom = best + rest[:13 - len(best)]
    rest = rest[13 - len(best):]
    return [" ".join(pres), " ".join(rest[::2]), " ".join(rest[1::2]), " ".join(bottom)]


def test_what_the_bottom_learns_from_the_give_back():
    """Seed 004's swap: the President gives back their two worst cards, so the bottom knows
    the President holds nothing lower than the higher of the two; under a free give back
    (seed 000) it learns nothing of the kind. A card handed back to the seat that gave it is
    in that seat's hand, not the other's (seed 001: "gives back any card they do not
    want")."""
    president = "3D 4D 9D 9H 10D 10H JD JH QD QH AD AH 2D"
    for give_back, floor in (("lowest", 1), ("any", 0)):
        rules = Rules.parse("first-night+swap", players=4, give_back=give_back)
        m = Match(rules, hands=["3C", "4C", "5C", "6C"])
        for seat, card in enumerate(["3C", "4C", "5C"]):
            m.act(seat, card)
        m.start_next_deal(hands=_full_deal(president, "KC 2S"))
        m.act(3, "KC 2S")
        m.act(0, "3D 4D")
        while m.phase == "exchange":
            m.act(m.to_act, m.legal_actions()[0])
        cons = seat_constraints(m.observation(3))
        assert cons["floor"] == [floor, 0, 0, 0]
        assert sorted(cons["known"][0]) == [10, 12]  # the KC and 2S it gave
        for seed in range(20):
            world = sample_world(cons, random.Random(seed))
            assert sum(world[0][:floor]) == 0 and world[0][10] >= 1 and world[0][12] >= 1
            assert [sum(h) for h in world] == list(m.observation(3).hand_counts)
    m = Match(Rules.preset("house", players=4), hands=["3C", "4C", "5C", "6C"])
    for seat, card in enumerate(["3C", "4C", "5C"]):
        m.act(seat, card)
    m.start_next_deal(hands=_full_deal(president, "2S"))
    m.act(3, "2S")
    m.act(0, "2S")
    cons = seat_constraints(m.observation(3))
    assert cons["known"][0] == [] and cons["need"][0] == 13
    world = sample_world(cons, random.Random(0))
    assert world[3][12] == 1 and sum(world[s][12] for s in range(4)) == 4


def _forced(obs):
    out, pairs = [], set()
    for g, r, cards in obs.exchanges:
        key = frozenset((g, r))
        if key in pairs:
            continue
        pairs.add(key)
        if r == obs.seat:
            out.append((g, cards))
    return out


@pytest.mark.parametrize("spec,players", [("house", 4), ("first-night", 5),
                                          ("family+once-around", 5), ("house+sit-out", 4)])
def test_root_state_rebuilds_the_engine_state_from_public_history(spec, players):
    rules = Rules.parse(spec, players=players)
    for m, obs in _positions(rules, seed=1, deals=1):
        fd = root_state(obs)
        d = m.deal
        assert fd.to_act == d.to_act == obs.seat
        assert fd.ncards == d.counts
        assert fd.need == d.pile_count and fd.top == d.top_rank
        assert fd.finish == d.finish_order
        assert fd.passed == d.passed
        assert fd.hands[obs.seat] == rank_counts(obs.hand)
        # nothing of the other hands is in the rebuilt state
        assert all(fd.hands[s] == [0] * 13 for s in range(players) if s != obs.seat)


def _play_out(m, bots):
    """Play the rest of ``m``'s deal, each seat by its player's bot, checking every action
    is legal; the actions taken."""
    taken = []
    while m.to_act is not None:
        seat = m.to_act
        obs = m.observation(seat)
        a = bots[m.seating[seat]].act(obs)
        assert a in obs.legal_actions
        taken.append(a)
        m.act(seat, a)
    return taken


def test_expert_is_legal_and_deterministic_and_skips_forced_choices():
    rules = Rules.parse("first-night+swap", players=4)

    def run():
        m = Match(rules, seed=3, record_events=False)
        bots = [ExpertPlayer(seed=i, playouts=16, time_limit=None) for i in range(4)]
        taken = _play_out(m, bots)
        m.start_next_deal()
        return taken + _play_out(m, bots), bots

    first, bots = run()
    again, _ = run()
    assert first == again
    st = bots[0].stats
    assert 0 < st["searched"] < st["decisions"]
    assert st["playouts"] >= st["searched"]


def test_expert_gives_like_the_intermediate_in_an_exchange():
    rules = Rules.parse("first-night+swap", players=4)
    for _m, obs in _positions(rules, seed=2):
        if obs.phase == "exchange":
            a = ExpertPlayer(seed=0, playouts=8).act(obs)
            assert isinstance(a, Give) and a == IntermediatePlayer().act(obs)


def test_expert_takes_a_certain_win():
    """Holding a single 2 and a single 3 on a lead, leading the 2 then the 3 wins at once."""
    rules = Rules.preset("practice")
    m = Match(rules, hands=["3C 2S", "4C 5C 6C 7C", "8C 8D 10C JC", "QC AC KH KD"])
    a = ExpertPlayer(seed=1, playouts=200).act(m.observation(0))
    assert a.rank == 12


def test_budget_is_checked():
    with pytest.raises(ValueError, match="playouts"):
        ExpertPlayer(playouts=0)
    with pytest.raises(ValueError, match="time_limit"):
        ExpertPlayer(time_limit=0)


@pytest.mark.parametrize("spec,players", [("house", 4), ("first-night+swap", 5),
                                          ("family+once-around", 4), ("house+sit-out", 5)])
def test_the_true_deal_explains_intermediate_play_without_surprise(spec, players):
    """With intermediate players at the table the real hands give no surprise at all, and
    a world with hands swapped around usually gives some."""
    from president.players.expert import surprises
    from president.players.fastsim import encode
    rules = Rules.parse(spec, players=players)
    swapped_surprised = 0
    total = 0
    for m, obs in _positions(rules, seed=7):
        if obs.phase != "play" or not obs.history:
            continue
        me = obs.seat
        history = [(s, -1 if a is PASS else encode(a.rank, a.count)) for s, a in obs.history]
        played = [[0] * 13 for _ in range(players)]
        for s, a in obs.history:
            if a is not PASS:
                played[s][a.rank] += a.count
        true = [counts_of_mask(h) for h in m.deal.hands]
        assert surprises(rules, true, played, obs.leader, history, me) == 0
        world = sample_world(seat_constraints(obs), random.Random(total))
        swapped_surprised += surprises(rules, world, played, obs.leader, history, me) > 0
        total += 1
    assert total > 10 and swapped_surprised > total // 4


def test_bad_options_are_refused_with_the_choices():
    with pytest.raises(ValueError, match="intermediate, climbing"):
        ExpertPlayer(policy="clever")
    with pytest.raises(ValueError, match="surprise"):
        ExpertPlayer(surprise=0)
    with pytest.raises(ValueError, match="prior"):
        ExpertPlayer(prior=-1)


@pytest.mark.parametrize("size", [0, 1, 2, 3, 7, 13, 31, 39, 52])
def test_the_world_shuffle_draws_as_random_shuffle(size):
    """The expert's own shuffle gives random.shuffle's order and leaves the generator in the
    same state (so a seed samples the same worlds as before it)."""
    for seed in range(40):
        ours, theirs = list(range(size)), list(range(size))
        a, b = random.Random(seed), random.Random(seed)
        shuffle(ours, a)
        b.shuffle(theirs)
        assert ours == theirs
        assert a.getstate() == b.getstate()
    if size >= 3:   # and it does shuffle: some seed moves the first card
        moved = []
        for seed in range(40):
            x = list(range(size))
            shuffle(x, random.Random(seed))
            moved.append(x[0] != 0)
        assert any(moved)


def test_seat_styles_draw_each_other_seat_from_its_own_weights():
    """policy="seats": in a world each live other seat plays a style drawn from its own
    weights (one draw each, in seat order) and the observing seat plays intermediate."""
    styles = {1: [1.0, 0.0, 0.0], 2: [0.0, 1.0, 0.0], 3: [0.0, 0.0, 1.0]}
    rng = random.Random(5)
    before = rng.getstate()
    assert ExpertPlayer._seat_styles(styles, [1, 2, 3], rng, 4) == [0, 0, 1, 2]
    check = random.Random(5)
    check.setstate(before)
    for _ in range(3):
        check.random()
    assert rng.getstate() == check.getstate()
    # a seat out of cards (not live) keeps the default and draws nothing
    assert ExpertPlayer._seat_styles(styles, [3], random.Random(0), 4) == [0, 0, 0, 2]
    # mixed weights: the drawn styles follow them
    mixed = {1: [0.5, 0.3, 0.2]}
    got = [ExpertPlayer._seat_styles(mixed, [1], random.Random(k), 2)[1] for k in range(3000)]
    share = [got.count(k) / len(got) for k in range(3)]
    assert abs(share[0] - 0.5) < 0.04 and abs(share[1] - 0.3) < 0.04 and abs(share[2] - 0.2) < 0.03


@pytest.mark.parametrize("spec", ["house", "house+reversal"])
def test_per_seat_policy_is_legal_and_deterministic(spec):
    """The per-seat play-outs (and, under reversal, the one-style fallback) choose legal
    actions, the same ones for the same seed."""
    rules = Rules.parse(spec, players=4)

    def run():
        m = Match(rules, seed=11, record_events=False)
        bots = [ExpertPlayer(seed=i, playouts=24, time_limit=None, policy="seats")
                for i in range(4)]
        return _play_out(m, bots), bots

    first, bots = run()
    assert run()[0] == first
    assert sum(b.stats["playouts"] for b in bots) > 0


def test_policies_needing_styles_say_so():
    for policy in ("seats", "mixture"):
        with pytest.raises(ValueError, match=f"policy = '{policy}' needs styles"):
            ExpertPlayer(policy=policy, styles=None)


def _effective(logweights: list[float], top: float, beta: float) -> float:
    """Kish's effective number of worlds of the weights exp(beta * (lw - top))."""
    w = [math.exp(beta * (lw - top)) for lw in logweights]
    return sum(w) ** 2 / sum(x * x for x in w)


def test_tempering_keeps_the_asked_share_of_worlds():
    """``spread``: one world 50 log-units above 99 others is about one effective world; at
    ``spread=0.2`` the power found keeps at least 20 and is the largest that does (to the
    bisection's 1/4096); even weights, or ``spread=0``, are left as they are."""
    lws = [0.0] + [-50.0] * 99
    assert _effective(lws, 0.0, 1.0) < 1.01
    beta = ExpertPlayer(spread=0.2)._temper(lws, 0.0)
    assert 0 < beta < 1
    assert _effective(lws, 0.0, beta) >= 20 > _effective(lws, 0.0, beta + 1 / 4096)
    assert ExpertPlayer()._temper(lws, 0.0) == 1.0               # spread 0: untouched
    assert ExpertPlayer(spread=0.5)._temper([-3.0] * 10, -3.0) == 1.0  # already even
    assert ExpertPlayer(spread=1.0)._temper(lws, 0.0) == 0.0     # every world alike


def test_a_tempered_search_keeps_its_effective_worlds():
    """In real searches (an expert at ``spread=0.25`` against three ``intermediate``), the
    other seats' play concentrates the untempered weights on fewer than a quarter of the
    worlds in most learnings; every learning's power keeps at least a quarter and is the
    largest that does."""
    seen: list[tuple[list[float], float, float]] = []

    class Watched(ExpertPlayer):
        def _temper(self, logweights, top):  # type: ignore[no-untyped-def]
            beta = super()._temper(logweights, top)
            seen.append((list(logweights), top, beta))
            return beta

    rules = Rules.parse("house", players=4, match_end="single-deal")
    m = Match(rules, seed=21, record_events=False)
    bots = [Watched(seed=1, playouts=1500, time_limit=None, spread=0.25)] + [
        IntermediatePlayer() for _ in range(3)]
    while m.to_act is not None:
        s = m.to_act
        m.act(s, bots[s].act(m.observation(s)))
    big = [(lws, top, beta) for lws, top, beta in seen if len(lws) >= 64]
    assert len(big) >= 10
    tempered = 0
    for lws, top, beta in big:
        target = 0.25 * len(lws)
        assert _effective(lws, top, beta) >= target * (1 - 1e-9)
        if beta < 1:
            tempered += 1
            assert _effective(lws, top, beta + 1 / 4096) < target
    assert tempered > len(big) // 2


@pytest.mark.parametrize("spread", [-0.1, 1.5, float("nan")])
def test_a_bad_spread_is_refused(spread):
    with pytest.raises(ValueError, match=r"spread = .* must be a share of the worlds"):
        ExpertPlayer(spread=spread)


def test_the_stats_count_the_effective_worlds():
    """``effective_worlds``: against three ``intermediate`` the likelihoods put the weight
    of the worlds on far fewer than were sampled; drawn by chains every world counts once
    (each of weight 1), so the two totals are equal."""
    rules = Rules.parse("house", players=4, match_end="single-deal")
    got = {}
    for steps in (0, 3):
        m = Match(rules, seed=21, record_events=False)
        bot = ExpertPlayer(seed=1, playouts=1500, time_limit=None, chain_steps=steps)
        others = [IntermediatePlayer() for _ in range(3)]
        while m.to_act is not None:
            s = m.to_act
            obs = m.observation(s)
            m.act(s, bot.act(obs) if s == 0 else others[s - 1].act(obs))
        got[steps] = bot.stats
    plain, chained = got[0], got[3]
    assert plain["searched"] >= 5 and plain["worlds"] >= 5 * 200
    assert plain["effective_worlds"] < 0.5 * plain["worlds"]
    assert chained["effective_worlds"] == pytest.approx(chained["worlds"])


def _verdict_by_generators(bot, best, guess, weight):
    """The paired comparison as it was written before the sums were carried on (generator
    sums over every common world, each call): the reference for the faster one."""
    common = [i for i in best if i in guess]
    if len(common) < 8:
        return None
    tw = sum(weight[i] for i in common)
    tw2 = sum(weight[i] ** 2 for i in common)
    if not tw:
        return None
    diff = {i: guess[i] - best[i] for i in common}
    mean = sum(weight[i] * d for i, d in diff.items()) / tw
    var = sum(weight[i] * (d - mean) ** 2 for i, d in diff.items()) / tw
    n_eff = tw * tw / tw2
    se = (var / n_eff) ** 0.5 if n_eff > 1 else float("inf")
    if mean - bot.prior > bot.z * se:
        return True
    if mean - bot.prior < -bot.z * se * 0.5 or se == 0:
        return False
    return None


@pytest.mark.parametrize("chained", [False, True])
def test_the_duels_carried_on_sums_give_the_verdict_of_summing_every_world_again(chained):
    # The duel asks for a verdict after every few worlds; _verdict carries its sums on in
    # a memo. Same figures as summing every world again, bit for bit, on uneven weights,
    # worlds only one candidate played, and a memo emptied when the weights change. The
    # two candidates are alike for a while (no verdict), then best pulls ahead.
    rng = random.Random(5)
    bot = ExpertPlayer(seed=0, playouts=100, time_limit=None)
    bot._chained = chained          # master's worlds: the chains' spread bounds the error
    weight: list[float] = []
    best: dict[int, int] = {}
    guess: dict[int, int] = {}
    memo: dict = {}
    answers = []
    for step in range(150):
        for _ in range(rng.randint(1, 6)):
            i = len(weight)
            weight.append(1.0 if chained else rng.random() ** 3)
            if rng.random() < 0.9:
                best[i] = rng.randint(1, 4) if step < 60 else rng.choice([1, 1, 1, 2])
            guess[i] = rng.randint(1, 4)
        if not chained and step % 40 == 39:    # the weights were learned again: all move
            weight[:] = [w * rng.uniform(0.5, 2.0) for w in weight]
            memo.clear()
        want = (ExpertPlayer._verdict(bot, best, guess, weight) if chained
                else _verdict_by_generators(bot, best, guess, weight))
        assert bot._verdict(best, guess, weight, memo) == want, step
        common = [i for i in best if i in guess]
        assert memo["common"] == common and memo["tw"] == sum(weight[i] for i in common)
        assert memo["tw2"] == sum(weight[i] ** 2 for i in common)
        assert memo["twd"] == sum(weight[i] * (guess[i] - best[i]) for i in common)
        answers.append(want)
    assert None in answers[:60] and answers[-1] is True
