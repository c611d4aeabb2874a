"""The server's per-action work made cheaper (issue 9): each snapshot compresses only the log
entries accepted since the last one, and still opens to the table's whole record; the parts of
a state message worked out once give the same values as before."""

from __future__ import annotations

import json
import random
import zlib

import pytest

from president.cards import CARDS, Rank
from president.rules import Rules
from president.web import protocol as P
from president.web.sealing import GrowingText, Sealer
from president.web.tables import Table
from tests.helpers import run_async

SEALER = Sealer(b"per-action-test-secret-0123456789")


def test_a_growing_text_is_always_the_whole_text_compressed():
    rng = random.Random(5)
    grown = GrowingText('{"v":1,"log":[', "]}")
    items: list[str] = []
    for _ in range(300):
        new = [json.dumps([rng.randrange(7), rng.choice(["pass", "3C 3D", "KS", "n"])])
               for _ in range(rng.randrange(4))]
        grown.add(new)
        items += new
        assert grown.items == len(items)
        if rng.random() < 0.5:
            data = grown.compressed()
            assert data[0] == 0x48      # the small window, as seal_text writes
            assert zlib.decompress(data) == ('{"v":1,"log":[' + ",".join(items) + "]}").encode()
    # Opening the stream does not end it: it goes on growing.
    assert json.loads(zlib.decompress(grown.compressed()))["log"] == [json.loads(i) for i in items]


def test_every_snapshot_opens_to_the_whole_record_at_that_moment():
    async def run() -> int:
        rules = Rules.preset("house", players=4)
        table = Table("snapshot-table", "match", rules, ["Ann", "Bo", "Cy", "Di"],
                      ["human", "simple", "simple", "simple"], 21, tokens={0: "t" * 24},
                      bot_delay=0.0, sealer=SEALER, deal_seed_bits=32)
        rng = random.Random(21)
        checked = 0
        while table.match.phase != "match-over" and checked < 400:
            record = json.loads(json.dumps(table.record()))
            assert SEALER.open(table.snapshot()) == record
            checked += 1
            m = table.match
            if m.phase == "between-deals":
                events = m.start_next_deal()
                table._accept("n")
            else:
                assert m.to_act is not None
                obs = m.observation(m.to_act)
                action = rng.choice(obs.legal_actions)
                events = m.act(m.to_act, action)
                table._accept([m.to_act, str(action)])
            table._collect(events)
            if rng.random() < 0.3:     # several entries between two snapshots
                continue
        # A rematch adds to the same log; the record and the snapshot go on agreeing.
        table._new_match()
        table._accept("r")
        assert SEALER.open(table.snapshot()) == json.loads(json.dumps(table.record()))
        table.close()
        return checked
    assert run_async(run) > 100


def test_a_snapshot_follows_a_changed_setup():
    rules = Rules.preset("house", players=4)
    table = Table("setup-table", "match", rules, ["Ann", "Bo", "Cy", "Di"],
                  ["human", "simple", "simple", "simple"], 22, tokens={0: "u" * 24},
                  bot_delay=0.0, sealer=SEALER, deal_seed_bits=32)
    before = SEALER.open(table.snapshot())
    table.standin = "beginner"       # a setup field, changed
    table._accept("n")               # a new version of the record, so a new snapshot
    after = SEALER.open(table.snapshot())
    assert before["standin"] != "beginner" and after["standin"] == "beginner"
    assert after == json.loads(json.dumps(table.record()))


def test_the_precomputed_message_parts_match_their_plain_forms():
    assert P._cards(CARDS) == [str(c) for c in CARDS]
    assert P._RANK_SYMBOLS == tuple(r.symbol for r in sorted(Rank))
    for preset in ("house", "family", "first-night", "practice"):
        rules = Rules.preset(preset)
        part = P._rules_part(rules)
        assert part == {"name": rules.name,
                        "scoring": None if rules.scoring is None else list(rules.scoring),
                        "match_end": str(rules.match_end), "exchange": rules.exchange,
                        "beat": rules.beat, "give_back": rules.give_back}
        # a fresh copy each time: changing one message never changes the next
        part["name"] = "changed"
        if part["scoring"] is not None:
            part["scoring"].append(99)
        assert P._rules_part(rules)["name"] == rules.name
        assert P._rules_part(rules)["scoring"] == (None if rules.scoring is None
                                                  else list(rules.scoring))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_gone_by_rank_counts_the_cleared_cards_and_the_pile(seed):
    async def run() -> None:
        rules = Rules.preset("house", players=4)
        table = Table(f"gone-{seed}", "match", rules, ["Ann", "Bo", "Cy", "Di"],
                      ["human", "simple", "simple", "simple"], seed, bot_delay=0.0,
                      sealer=SEALER, deal_seed_bits=32)
        rng = random.Random(seed)
        m = table.match
        for _ in range(200):
            if m.phase == "between-deals":
                m.start_next_deal()
                continue
            if m.phase == "match-over":
                break
            assert m.to_act is not None
            obs = m.observation(m.to_act)
            counts = {r: 0 for r in Rank}
            for c in list(obs.cleared) + [c for _, play in obs.pile for c in play.cards]:
                counts[c.rank] += 1
            assert P.gone_by_rank(obs) == [[r.symbol, counts[r]] for r in sorted(Rank)]
            m.act(m.to_act, rng.choice(obs.legal_actions))
        table.close()
    run_async(run)


def test_the_growing_stream_is_let_go_when_the_last_page_closes():
    class Page:
        async def send(self, message):
            pass

    async def run() -> None:
        rules = Rules.preset("house", players=4)
        table = Table("let-go", "match", rules, ["Ann", "Bo", "Cy", "Di"],
                      ["human", "simple", "simple", "simple"], 23, tokens={0: "v" * 24},
                      bot_delay=0.0, sealer=SEALER, deal_seed_bits=32)
        first, second = Page(), Page()
        await table.join(0, first)
        await table.join(0, second)
        await table.computers.run_bots_now()
        assert table._grown is not None
        table.leave(0, first)
        assert table._grown is not None        # a page is still open
        table.leave(0, second)
        assert table._grown is None
        again = Page()
        await table.join(0, again)              # the snapshot of this version is kept
        table._accept("n")                      # a new version: a new stream, whole record
        assert SEALER.open(table.snapshot()) == json.loads(json.dumps(table.record()))
        assert table._grown is not None and table._grown.items == len(table.log)
        table.close()
        assert table._grown is None
    run_async(run)
