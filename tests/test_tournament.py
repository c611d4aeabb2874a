"""president.tournament and ``president tournament``: the round robin's duplicate design,
figures checked against president.simulate on the same deals, and shards that merge exactly."""

from __future__ import annotations

import json

import pytest

from president import Rules
from president.cli import main
from president.simulate import SimulationConfig, play_board, simulate
from president.tournament import (TournamentConfig, TournamentStats, assignments,
                                  play_tournament_board, run_tournament)

HOUSE4 = Rules.preset("house", players=4)


def test_merged_shards_equal_one_run_exactly():
    config = TournamentConfig(rules=HOUSE4, bots=("random", "beginner", "simple"), boards=6,
                              seed=5)
    whole = run_tournament(config)
    even = run_tournament(config, boards=[0, 2, 4])
    odd = run_tournament(config, boards=[1, 3, 5])
    merged = odd.merge(even)
    assert merged == whole
    assert merged.summary() == whole.summary()     # the same floats, not nearly the same
    # through JSON, as shards on other machines would hand them over
    again = TournamentStats.from_dict(json.loads(json.dumps(even.to_dict())))
    assert again.merge(odd).to_dict() == whole.to_dict()
    assert run_tournament(config, jobs=2).to_dict() == whole.to_dict()
    with pytest.raises(ValueError, match=r"board\(s\) \[0, 2, 4\] are in both"):
        even.merge(even)
    other = run_tournament(TournamentConfig(rules=HOUSE4, bots=("random", "simple"), boards=1))
    with pytest.raises(ValueError, match="cannot merge statistics of different tournaments"):
        whole.merge(other)


def test_places_ahead_equal_simulate_on_the_same_deals():
    config = TournamentConfig(rules=HOUSE4, bots=("random", "simple"), boards=5, seed=9)
    summary = run_tournament(config).summary()
    pair = summary["pairs"][0]
    sim = simulate(SimulationConfig(rules=HOUSE4, seats=("random", "simple", "random", "simple"),
                                    boards=5, seed=9))
    comp = sim["comparisons"][0]
    assert (pair["stronger"], pair["weaker"]) == (comp["stronger"], comp["weaker"]) \
        == ("simple", "random")
    for key in ("mean", "low", "high"):
        assert pair["places_ahead"][key] == pytest.approx(comp["places_ahead"][key])
    # two bots: each one's rating is its places ahead of the other, opposite signs
    top, bottom = summary["ratings"]
    assert top["bot"] == "simple" and top["places_ahead"]["mean"] == pytest.approx(
        pair["places_ahead"]["mean"])
    assert bottom["places_ahead"]["mean"] == pytest.approx(-pair["places_ahead"]["mean"])
    assert top["score"]["mean"] + bottom["score"]["mean"] == pytest.approx(1.0)
    assert top["elo"]["mean"] == pytest.approx(-bottom["elo"]["mean"])
    assert top["elo"]["low"] < top["elo"]["mean"] < top["elo"]["high"]
    assert summary["deals_per_pair"] == 20


def test_odd_tables_seat_both_bots_equally_and_count_by_hand():
    assert assignments("a", "b", 5) == [("a", "b", "a", "b", "a"), ("b", "a", "b", "a", "b")]
    rules = Rules.preset("first-night", players=3)
    config = TournamentConfig(rules=rules, bots=("random", "simple"), boards=1, seed=2)
    (key, (diff, wins)), = play_tournament_board(config, 0).items()
    assert key == "random|simple"
    # recount from the six deals simulate plays on the same board (3 rotations x 2 layouts)
    want_diff = want_wins = 0
    for seats in assignments("random", "simple", 3):
        got = play_board(SimulationConfig(rules=rules, seats=seats, boards=1, seed=2), 0)["rows"]
        for d in range(0, len(got), 3):
            deal = got[d:d + 3]
            for lv, place, *_ in deal:
                want_diff += place if lv == "simple" else -place
            for la, pa, *_ in deal:
                for lb, pb, *_ in deal:
                    if la == "random" and lb == "simple" and pa < pb:
                        want_wins += 1
    assert (diff, wins) == (want_diff, want_wins)


def test_bad_configs_say_what_is_wrong():
    with pytest.raises(ValueError, match="needs at least 2 bots; got 1"):
        TournamentConfig(rules=HOUSE4, bots=("simple",), boards=1)
    with pytest.raises(ValueError, match="simple named more than once"):
        TournamentConfig(rules=HOUSE4, bots=("simple", "simple"), boards=1)
    with pytest.raises(ValueError, match="no computer level 'grandmaster'"):
        TournamentConfig(rules=HOUSE4, bots=("simple", "grandmaster"), boards=1)
    with pytest.raises(ValueError, match="cannot import module 'nosuch'"):
        TournamentConfig(rules=HOUSE4, bots=("simple", "nosuch:Bot"), boards=1)
    with pytest.raises(ValueError, match="boards = 0 must be"):
        TournamentConfig(rules=HOUSE4, bots=("simple", "random"), boards=0)
    with pytest.raises(ValueError, match="not tournament statistics"):
        TournamentStats.from_dict({"format": 1})


def test_cli_shards_saved_and_merged_equal_one_run(tmp_path, capsys):
    common = ["tournament", "--seats", "random,simple,beginner", "--deals", "12", "--seed",
              "4", "--quiet", "--json"]
    assert main(common) == 0
    whole = json.loads(capsys.readouterr().out)
    assert whole["boards"] == 3 and whole["deals_per_pair"] == 12
    for k in range(2):
        assert main(common + ["--shard", f"{k}/2", "--save", str(tmp_path / f"s{k}.json")]) == 0
        capsys.readouterr()
    assert main(["tournament", "--merge", str(tmp_path / "s0.json"), str(tmp_path / "s1.json"),
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == whole
    assert main(["tournament", "--merge", str(tmp_path / "s0.json")]) == 0
    out = capsys.readouterr().out
    assert "places ahead" in out and "Elo" in out and "2 boards" in out


@pytest.mark.parametrize("argv, message", [
    (["--seats", "simple"], "--seats: a tournament needs at least 2 bots; got 1 (simple)"),
    (["--shard", "2/2"], "--shard '2/2' needs 0 <= K < M, e.g. --shard 0/4 (the first of 4 "
                         "shards)"),
    (["--shard", "x"], "--shard 'x' is not K/M; write e.g. --shard 0/4 (the first of 4 shards)"),
    (["--deals", "0"], "--deals 0 must be at least 1"),
    (["--players", "2"], "players = 2 is not allowed; a table has 3 to 7 players"),
    (["--merge", "/nonexistent.json"], "cannot read /nonexistent.json: [Errno 2] No such file "
                                       "or directory: '/nonexistent.json'"),
])
def test_cli_errors_name_the_option(capsys, argv, message):
    assert main(["tournament", "--quiet", *argv]) == 2
    assert capsys.readouterr().err.strip() == f"president tournament: {message}"
