"""Stored rules keep the meaning of the version they were written under: game records
(``president/1`` and ``president/2``, docs/records.md) and saved tables (``"v"`` 1 and 2).

Version 1 was written before the ``give_back`` option existed, when every give back was
free: its rules without ``give_back`` read as ``any`` where there is an exchange, so an old
record replays as it was played. Version 2 reads as :meth:`Rules.from_dict` does: options
left out come from the preset and twists (the first-night guide's swap gives back the
lowest cards)."""

from __future__ import annotations

import json

import pytest

from president import Match, Rules
from president.records import (FORMAT, FORMATS, Record, RecordError, dumps, loads, read_rules,
                               replay)

SPARSE_SWAP = {"preset": "first-night", "twists": ["swap"]}


def _old_reader(data):
    """What ``Rules.from_dict`` gave before the versions (its give_back rule, written out):
    the preset's rules, but ``any`` for rules with an exchange and no ``give_back``."""
    rules = Rules.from_dict(data)
    if data.get("preset") is not None and "give_back" not in data and rules.exchange != "none":
        rules = rules.with_options(give_back="any")
    return rules


def _record(fmt, rules_data, players=4):
    return {"format": fmt, "rules": dict(rules_data),
            "players": ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus"][:players], "deals": []}


def test_records_are_written_in_the_newest_format():
    assert FORMAT == "president/2" and FORMATS == {"president/1": 1, "president/2": 2}
    match = Match(Rules.preset("first-night", players=4, twists=["swap"]),
                  ["Ann", "Bo", "Cy", "Di"], seed=3)
    text = dumps(match)
    data = json.loads(text)
    assert data["format"] == "president/2" and data["rules"]["give_back"] == "lowest"
    record = loads(text)
    assert record.rules == match.rules and dumps(record) == text
    assert Record.from_dict(record.to_dict()) == record


@pytest.mark.parametrize("players", [3, 4, 7])
def test_an_old_first_night_swap_record_reads_as_before(players):
    """A ``president/1`` record of first-night with the swap and no ``give_back`` reads with
    the free give back the old reader gave; the same rules in ``president/2`` give back the
    lowest cards, as the preset says."""
    data = {**SPARSE_SWAP, "players": players}
    old = loads(json.dumps(_record("president/1", data, players)))
    assert old.rules == _old_reader(data)
    assert old.rules.give_back == "any" and old.rules.exchange == "two-and-one"
    assert old.rules == Rules.preset("first-night", players=players, twists=["swap"],
                                     give_back="any")
    new = loads(json.dumps(_record("president/2", data, players)))
    assert new.rules == Rules.preset("first-night", players=players, twists=["swap"])
    assert new.rules.give_back == "lowest"
    # written again, either one spells its give back, in the newest format
    again = json.loads(dumps(old))
    assert again["format"] == "president/2" and again["rules"]["give_back"] == "any"
    assert loads(dumps(old)) == old


@pytest.mark.parametrize("data", [
    {"preset": "first-night"},                                 # no exchange: the preset's
    {"preset": "first-night", "twists": ["swap"], "give_back": "lowest"},
    {"preset": "house"}, {"preset": "family", "twists": ["once-around"]},
    {"preset": "practice"}, {"exchange": "two-and-one"},
    {"preset": "house", "give_back": "lowest"},
])
def test_both_versions_agree_where_the_old_rule_did_not_apply(data):
    players = 4
    old = read_rules({**data, "players": players}, 1)
    assert old == _old_reader({**data, "players": players})
    assert old == read_rules({**data, "players": players}, 2)


def test_an_unknown_format_or_version_is_refused_in_words():
    with pytest.raises(RecordError) as info:
        loads(json.dumps(_record("president/3", SPARSE_SWAP)))
    assert info.value.field == "format"
    assert '"president/1" and "president/2"' in info.value.message
    with pytest.raises(ValueError, match="reads 1 and 2"):
        read_rules(SPARSE_SWAP, 3)


def test_an_old_record_replays_as_it_was_played():
    """A match played under the free give back (first-night with the swap) and stored as a
    version 1 record without ``give_back`` replays to the same state."""
    rules = Rules.preset("first-night", players=4, twists=["swap"], give_back="any")
    match = Match(rules, ["Ann", "Bo", "Cy", "Di"], seed=11)
    gave_back = []
    for _ in range(400):
        if match.phase == "between-deals":
            if match.deal_number >= 2:
                break
            match.start_next_deal()
            continue
        if match.phase == "exchange" and not match.pending_transfer.forced:
            gave_back.append(match.legal_actions()[-1])
        match.act(match.to_act, match.legal_actions()[-1])
    assert match.deal_number == 2 and gave_back
    data = json.loads(dumps(match))
    data["format"] = "president/1"
    del data["rules"]["give_back"]
    result = replay(data)
    assert result.ok, result.error
    assert result.match.rules == rules
    assert result.match.snapshot() == match.snapshot()
    data["format"] = "president/2"      # read as new, the swap's give back is the lowest
    assert replay(data).error.reason == "bad-exchange"


def test_saved_tables_keep_the_meaning_of_their_version():
    """A table saved as version 1 (before ``give_back``) is restored with the free give
    back; one saved now is version 2 and restored as saved."""
    pytest.importorskip("fastapi")
    from president.web.state import RECORD_VERSION, TableError, TableState

    table = TableState("v", "match", Rules.preset("first-night", players=4, twists=["swap"]),
                       ["Ann", "Bo", "Cy", "Di"], ["human", "simple", "simple", "simple"], 5,
                       tokens={0: "t" * 24}, bot_delay=0.0, sealer=None)
    saved = table.record()
    assert RECORD_VERSION == 2 and saved["v"] == 2
    assert TableState.from_record(saved, bot_delay=0.0, sealer=None).rules == table.rules
    sparse = {**saved, "rules": {**SPARSE_SWAP, "players": 4}}
    assert TableState.from_record(sparse, bot_delay=0.0, sealer=None).rules.give_back == "lowest"
    old = TableState.from_record({**sparse, "v": 1}, bot_delay=0.0, sealer=None)
    assert old.rules.give_back == "any"
    assert old.rules == _old_reader({**SPARSE_SWAP, "players": 4})
    for version in (0, 3, True, "2", None):
        with pytest.raises(TableError) as e:
            TableState.from_record({**saved, "v": version}, bot_delay=0.0, sealer=None)
        assert e.value.reason == "bad-record"
