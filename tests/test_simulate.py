"""``president simulate`` and :mod:`president.simulate`: duplicate boards, sane statistics."""

from __future__ import annotations

import json
import os

import pytest

from president import Rules
from president.cli import main
from president.players import LEVELS
from president.simulate import SimulationConfig, interval, play_board, simulate, summarise


def test_cli_json_gives_sane_numbers(capsys):
    code = main(["simulate", "--rules", "house", "--seats", "intermediate,random,random,random",
                 "--deals", "22", "--seed", "3", "--json", "--quiet"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    # --deals counts deals: 22 is rounded up to 6 boards of 4 rotations
    assert out["boards"] == 6 and out["rotations"] == 4 and out["deals"] == 24
    lv = out["levels"]
    assert set(lv) == {"intermediate", "random"}
    # places 1..4 average to 2.5 over the table: 1 intermediate seat + 3 random seats
    total = lv["intermediate"]["mean_place"]["mean"] + 3 * lv["random"]["mean_place"]["mean"]
    assert total == pytest.approx(10.0)
    # house scores 2 and 1 points: 3 points per deal over the table
    pts = lv["intermediate"]["points_per_deal"]["mean"] + 3 * lv["random"]["points_per_deal"]["mean"]
    assert pts == pytest.approx(3.0)
    firsts = lv["intermediate"]["first"]["mean"] + 3 * lv["random"]["first"]["mean"]
    assert firsts == pytest.approx(1.0)
    for entry in lv.values():
        iv = entry["mean_place"]
        assert 1 <= iv["mean"] <= 4 and iv["low"] <= iv["mean"] <= iv["high"]
    comp = out["comparisons"][0]
    assert (comp["stronger"], comp["weaker"]) == ("intermediate", "random")


def test_cli_table_output_and_bad_input(capsys):
    assert main(["simulate", "--rules", "first-night", "--players", "3", "--deals", "2",
                 "--quiet", "--seats", "simple,beginner,random"]) == 0
    out = capsys.readouterr().out
    assert "mean place" in out and "beginner" in out
    assert main(["simulate", "--seats", "simple,grandmaster,random,random", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "grandmaster" in err and "levels are" in err
    assert main(["simulate", "--seats", "simple,random", "--players", "4", "--quiet"]) == 2
    assert "give exactly 4" in capsys.readouterr().err
    assert main(["simulate", "--rules", "house", "--players", "3", "--quiet"]) == 2
    assert "house preset is for 4 to 7 players, not 3" in capsys.readouterr().err
    assert main(["simulate", "--deals", "0", "--quiet"]) == 2
    assert capsys.readouterr().err.strip() == "president simulate: --deals 0 must be at least 1"


@pytest.mark.parametrize("argv, message", [
    (["--max-deals", "0", "--matches"], "--max-deals 0 must be at least 1"),
    (["--jobs", "0"], "--jobs 0 must be at least 1"),
    (["--expert-playouts", "-1"], "--expert-playouts -1 must be at least 1"),
    (["--expert-time", "-1"], "--expert-time -1.0 must be 0 or more seconds (0: no time limit, "
                              "only the play-out budget)"),
    (["--seats", ""], "--seats is empty; give a level per seat, e.g. "
                      "--seats intermediate,simple,simple,simple"),
    (["--seats", "simple,simple"], "--seats gives 2 levels, so a table of 2: players = 2 is "
                                   "not allowed; a table has 3 to 7 players"),
    (["--seats", "a,b"], f"no computer level 'a', 'b' in --seats; levels are: "
                         f"{', '.join(LEVELS)}, or your own bot as "
                         "package.module:ClassName or a saved network FILE.npz"),
])
def test_cli_errors_name_the_option(capsys, argv, message):
    assert main(["simulate", "--quiet", *argv]) == 2
    assert capsys.readouterr().err.strip() == f"president simulate: {message}"


def test_a_badly_typed_number_is_one_line_not_the_usage_block(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["simulate", "--deals", "abc"])
    assert stop.value.code == 2
    assert capsys.readouterr().err == ("president simulate: argument --deals: invalid int value: "
                                       "'abc' (see president simulate --help)\n")


def test_one_board_has_no_interval_and_json_has_no_nan(capsys):
    assert main(["simulate", "--rules", "first-night", "--players", "3", "--deals", "1",
                 "--seats", "simple,random,random", "--json", "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "NaN" not in text
    out = json.loads(text)
    place = out["levels"]["simple"]["mean_place"]
    assert out["boards"] == 1 and place["low"] is None and place["high"] is None
    assert 1 <= place["mean"] <= 3 and out["scored"] is False
    assert out["levels"]["simple"]["points_per_deal"]["mean"] is None  # no scoring: no points
    assert main(["simulate", "--rules", "first-night", "--players", "3", "--deals", "1",
                 "--seats", "simple,random,random", "--quiet"]) == 0
    table = capsys.readouterr().out
    assert "nan" not in table and "(no interval: 1 board)" in table
    assert "1 board × 3 rotations = 3 deals" in table and "— (no scoring)" in table


def test_each_level_sits_in_every_seat_on_the_same_cards():
    config = SimulationConfig(rules=Rules.preset("practice"),
                              seats=("simple", "random", "random", "random"), boards=1, seed=9)
    res = play_board(config, 0)
    rows = res["rows"]
    assert len(rows) == 16  # 4 rotations x 4 seats
    assert sum(1 for r in rows if r[0] == "simple") == 4
    # every rotation hands out places 1..4 exactly once
    for k in range(4):
        assert sorted(r[1] for r in rows[4 * k:4 * k + 4]) == [1, 2, 3, 4]


def test_results_do_not_depend_on_jobs():
    config = SimulationConfig(rules=Rules.preset("house", players=4),
                              seats=("beginner", "random", "simple", "random"), boards=4, seed=1)
    one = simulate(config, jobs=1)
    two = simulate(config, jobs=2)
    assert one["levels"] == two["levels"]


def test_a_pooled_run_with_a_store_hands_over_each_board_as_it_finishes():
    # A pool plays boards in chunks; with on_result (a store) every chunk is one board, so a
    # kill loses at most the boards being played, not a chunk of finished ones.
    config = SimulationConfig(rules=Rules.preset("house", players=4),
                              seats=("random", "random", "random", "random"), boards=40, seed=3)
    sizes: list[int] = []
    stored: list[int] = []
    res = simulate(config, jobs=2, progress=sizes.append,
                   on_result=lambda b, r: stored.append(b))
    assert sizes == [1] * 40
    assert sorted(stored) == list(range(40))
    plain: list[int] = []
    assert simulate(config, jobs=2, progress=plain.append)["levels"] == res["levels"]
    assert sum(plain) == 40 and max(plain) > 1       # without a store: chunks of several


def test_matches_play_several_deals_with_exchanges():
    config = SimulationConfig(rules=Rules.preset("house", players=4, twists=("three-deals",)),
                              seats=("intermediate", "simple", "simple", "simple"), boards=2,
                              matches=True)
    res = simulate(config)
    assert res["deals"] == 2 * 4 * 3
    won = res["levels"]["intermediate"]["match_won"]["mean"]
    assert 0.0 <= won <= 1.0


def test_interval_is_mean_plus_minus_1_96_standard_errors():
    iv = interval([1.0, 2.0, 3.0, 4.0])
    se = (sum((v - 2.5) ** 2 for v in [1, 2, 3, 4]) / 3 / 4) ** 0.5
    assert iv["mean"] == 2.5
    assert iv["high"] - iv["mean"] == pytest.approx(1.96 * se)


def test_config_refuses_bad_values():
    rules = Rules.preset("house")
    with pytest.raises(ValueError, match="give exactly 4"):
        SimulationConfig(rules=rules, seats=("simple",) * 3, boards=1)
    with pytest.raises(ValueError, match="at least 1"):
        SimulationConfig(rules=rules, seats=("simple",) * 4, boards=0)
    with pytest.raises(ValueError, match="jobs"):
        simulate(SimulationConfig(rules=rules, seats=("simple",) * 4, boards=1), jobs=0)
    assert summarise(SimulationConfig(rules=rules, seats=("simple",) * 4, boards=1),
                     [])["boards"] == 0


def test_matches_without_scoring_or_end_have_no_winner(capsys):
    """first-night has no points and never ends: matches stop at --max-deals and nobody is
    reported as the match winner (all-zero totals are no win)."""
    code = main(["simulate", "--rules", "first-night", "--players", "3", "--seats",
                 "intermediate,simple,random", "--deals", "2", "--matches", "--max-deals", "3",
                 "--json", "--quiet"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["boards"] == 1 and out["deals"] == 1 * 3 * 3  # 2 matches: 1 board of 3
    assert all("match_won" not in e for e in out["levels"].values())
    assert main(["simulate", "--rules", "first-night", "--players", "3", "--seats",
                 "intermediate,simple,random", "--deals", "2", "--matches", "--max-deals", "3",
                 "--quiet"]) == 0
    assert "1 board × 3 rotations = 3 matches, 9 deals" in capsys.readouterr().out


def test_cli_checks_the_expert_budget_first(capsys):
    assert main(["simulate", "--seats", "expert,simple,simple,simple", "--deals", "1",
                 "--expert-playouts", "0", "--quiet"]) == 2
    assert "playouts" in capsys.readouterr().err
    assert main(["simulate", "--seats", "expert,simple,simple,simple", "--deals", "1",
                 "--expert-playouts", "20", "--expert-time", "0", "--json", "--quiet"]) == 0
    out = json.loads(capsys.readouterr().out)
    search = out["levels"]["expert"]["search"]
    assert search["searched"] > 0 and search["mean_playouts_per_search"] <= 20


STORE_ARGS = ["simulate", "--rules", "first-night", "--players", "3",
              "--seats", "intermediate,simple,random", "--json", "--quiet"]


def _summary(capsys) -> dict:
    out = json.loads(capsys.readouterr().out)
    out.pop("seconds")
    return out


def test_store_resumes_and_extends_a_run_to_the_same_result(tmp_path, capsys):
    path = tmp_path / "boards.jsonl"
    assert main([*STORE_ARGS, "--deals", "12", "--store", str(path)]) == 0   # boards 0-3
    capsys.readouterr()
    assert len(path.read_text().splitlines()) == 4
    # kill -9 in the middle of writing the next board: a torn last line
    with open(path, "a") as f:
        f.write('{"key": "cut sho')
    assert main([*STORE_ARGS, "--deals", "24", "--store", str(path)]) == 0   # boards 4-7
    captured = capsys.readouterr()
    assert "4 of 8 boards already in" in captured.err
    resumed = json.loads(captured.out)
    resumed.pop("seconds")
    assert main([*STORE_ARGS, "--deals", "24"]) == 0
    assert resumed == _summary(capsys)
    assert resumed["boards"] == 8
    lines = path.read_text().splitlines()
    assert len(lines) == 9 and lines[4] == '{"key": "cut sho'   # torn line left, new on its own
    boards = sorted(json.loads(line)["board"] for i, line in enumerate(lines) if i != 4)
    assert boards == list(range(8))
    # everything stored: nothing is played again, same numbers
    assert main([*STORE_ARGS, "--deals", "24", "--store", str(path)]) == 0
    assert _summary(capsys) == resumed
    assert len(path.read_text().splitlines()) == 9


def test_store_says_how_many_boards_it_holds(tmp_path, capsys):
    path = tmp_path / "boards.jsonl"
    assert main([*STORE_ARGS, "--deals", "6", "--store", str(path)]) == 0
    capsys.readouterr()
    assert main([*STORE_ARGS, "--deals", "9", "--store", str(path)]) == 0
    assert ("2 of 3 boards already in" in capsys.readouterr().err)
    # other options are another run in the same file: its boards are not reused
    assert main([*STORE_ARGS, "--deals", "6", "--seed", "5", "--store", str(path)]) == 0
    assert "already in" not in capsys.readouterr().err
    assert len(path.read_text().splitlines()) == 5


def test_store_refuses_a_file_it_did_not_write(tmp_path, capsys):
    other = tmp_path / "notes.txt"
    other.write_text("groceries\nmilk\n")
    assert main([*STORE_ARGS, "--deals", "3", "--store", str(other)]) == 2
    err = capsys.readouterr().err
    assert "line 1 is not a stored board result" in err and "new file name" in err
    assert other.read_text() == "groceries\nmilk\n"
    assert main([*STORE_ARGS, "--deals", "3", "--store", str(tmp_path)]) == 2
    assert "is not a regular file" in capsys.readouterr().err
    assert main([*STORE_ARGS, "--deals", "3", "--store", "/dev/null"]) == 2
    assert "is not a regular file" in capsys.readouterr().err
    binary = tmp_path / "program"
    binary.write_bytes(b"\x7fELF\x02\x01\x01\xff\xfe\n\x00\x00")
    assert main([*STORE_ARGS, "--deals", "3", "--store", str(binary)]) == 2
    assert "program line 1 is not a stored board result" in capsys.readouterr().err
    assert binary.read_bytes() == b"\x7fELF\x02\x01\x01\xff\xfe\n\x00\x00"
    nested = tmp_path / "nested"
    nested.write_text("[" * 100000 + "\n")
    assert main([*STORE_ARGS, "--deals", "3", "--store", str(nested)]) == 2
    assert "nested line 1 is not a stored board result" in capsys.readouterr().err
    assert main([*STORE_ARGS, "--deals", "3", "--store", str(tmp_path / "no" / "x")]) == 2
    assert "there is no folder" in capsys.readouterr().err
    assert main([*STORE_ARGS, "--deals", "3", "--store", ""]) == 2
    assert "--store needs a file name" in capsys.readouterr().err


def test_store_refuses_a_line_of_this_run_that_is_not_text(tmp_path, capsys):
    path = tmp_path / "boards.jsonl"
    assert main([*STORE_ARGS, "--deals", "6", "--store", str(path)]) == 0
    capsys.readouterr()
    data = path.read_bytes().replace(b'"simple"', b'"simpl\xff"', 1)
    path.write_bytes(data)
    assert main([*STORE_ARGS, "--deals", "6", "--store", str(path)]) == 2
    assert "line 1 is not a stored board result" in capsys.readouterr().err
    assert path.read_bytes() == data


@pytest.mark.parametrize("cut", ['{', '{"ke', '{"key": "x', '{"key": "x", "board": 3, "res'])
def test_store_ignores_a_line_cut_short_however_short(tmp_path, capsys, cut):
    path = tmp_path / "boards.jsonl"
    assert main([*STORE_ARGS, "--deals", "6", "--store", str(path)]) == 0
    whole = _summary(capsys)
    path.write_text(path.read_text() + cut)
    assert main([*STORE_ARGS, "--deals", "9", "--store", str(path)]) == 0
    assert main([*STORE_ARGS, "--deals", "9", "--store", str(path)]) == 0   # cut line now inside
    assert "3 of 3 boards already in" in capsys.readouterr().err
    assert main([*STORE_ARGS, "--deals", "6", "--store", str(path)]) == 0
    assert _summary(capsys) == whole


def _stored_lines(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.mark.parametrize("damage, message", [
    (lambda rec: rec.update(result={}), "lacks rows, matches or stats"),
    (lambda rec: rec["result"]["rows"][0].__setitem__(0, "expert"), "level seated"),
    (lambda rec: rec["result"].update(rows="x"), "whole number of deals"),
    (lambda rec: rec["result"]["rows"][0].__setitem__(1, 9), "place 1-3"),
    (lambda rec: rec["result"]["stats"].update(random={"x": "y"}), "stats are not numbers"),
    (lambda rec: rec.update(board=-1), "line 2 is not a stored board result"),
    (lambda rec: rec["result"]["rows"][0].__setitem__(0, "random"), "one a seat"),
    (lambda rec: rec["result"]["rows"][1].__setitem__(1, 1), "places 1 to 3 in order"),
    (lambda rec: rec["result"]["rows"][2].__setitem__(4, False), "first and last marked"),
])
def test_store_refuses_a_damaged_result_of_this_run(tmp_path, capsys, damage, message):
    path = tmp_path / "boards.jsonl"
    assert main([*STORE_ARGS, "--deals", "6", "--store", str(path)]) == 0
    capsys.readouterr()
    recs = _stored_lines(path)
    damage(recs[1])
    text = "".join(json.dumps(r) + "\n" for r in recs)
    path.write_text(text)
    assert main([*STORE_ARGS, "--deals", "9", "--store", str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert path.read_text() == text                    # nothing played, nothing added


def test_store_with_gaps_gives_exactly_the_uninterrupted_figures(tmp_path, capsys):
    path = tmp_path / "boards.jsonl"
    assert main([*STORE_ARGS, "--deals", "60", "--store", str(path)]) == 0
    capsys.readouterr()
    lines = path.read_text().splitlines()
    path.write_text("".join(line + "\n" for line in lines[1::3]))   # boards 1, 4, 7, ...
    assert main([*STORE_ARGS, "--deals", "60", "--store", str(path)]) == 0
    resumed = _summary(capsys)
    assert main([*STORE_ARGS, "--deals", "60"]) == 0
    assert resumed == _summary(capsys)


def test_store_key_ignores_options_of_levels_not_seated_and_says_when_it_holds_others(
        tmp_path, capsys):
    path = tmp_path / "boards.jsonl"
    assert main([*STORE_ARGS, "--deals", "6", "--store", str(path)]) == 0
    capsys.readouterr()
    assert main([*STORE_ARGS, "--deals", "6", "--expert-playouts", "100",
                 "--store", str(path)]) == 0
    assert "2 of 2 boards already in" in capsys.readouterr().err
    assert main([*STORE_ARGS, "--deals", "6", "--seed", "4", "--store", str(path)]) == 0
    assert "holds 2 boards of other options" in capsys.readouterr().err


def test_a_complete_read_only_store_is_read_without_writing(tmp_path, capsys):
    path = tmp_path / "boards.jsonl"
    assert main([*STORE_ARGS, "--deals", "6", "--store", str(path)]) == 0
    whole = _summary(capsys)
    path.chmod(0o444)
    tmp_path.chmod(0o555)
    try:
        assert main([*STORE_ARGS, "--deals", "6", "--store", str(path)]) == 0
        assert _summary(capsys) == whole
        new = tmp_path / "new.jsonl"
        code = main([*STORE_ARGS, "--deals", "6", "--store", str(new)])
        if os.access(tmp_path, os.W_OK):      # root writes anyway: nothing to check
            assert code == 0
        else:
            assert code == 2 and "cannot write it" in capsys.readouterr().err
            assert not new.exists()
    finally:
        tmp_path.chmod(0o755)


def _start_long_run(tmp_path):
    import signal
    import subprocess
    import sys
    import time
    proc = subprocess.Popen(
        [sys.executable, "-m", "president", "simulate", "--seats",
         "intermediate,simple,simple,simple", "--deals", "400000", "--jobs", "2",
         "--store", str(tmp_path / "boards.jsonl"), "--quiet"],
        stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    children: list[int] = []
    for _ in range(100):       # until both workers are up
        time.sleep(0.1)
        try:
            with open(f"/proc/{proc.pid}/task/{proc.pid}/children") as f:
                children = [int(c) for c in f.read().split()]
        except FileNotFoundError:
            break
        if len(children) >= 2:
            break
    return proc, children


def _gone_within(pids, seconds: float) -> bool:
    import time
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if not any(os.path.exists(f"/proc/{p}") and "zombie" not in open(f"/proc/{p}/status").read()
                   for p in pids):
            return True
        time.sleep(0.1)
    return False


@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="reads /proc (Linux)")
def test_ctrl_c_stops_a_pooled_run_in_one_line_and_stops_its_workers(tmp_path):
    import signal
    import time
    proc, workers = _start_long_run(tmp_path)
    assert len(workers) >= 2
    for _ in range(300):        # until a chunk of boards is stored
        if (tmp_path / "boards.jsonl").exists():
            break
        time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=20) == 130
    err = proc.stderr.read()
    assert "stopped; the boards finished are kept in" in err and "Traceback" not in err
    assert _gone_within(workers, 5)


@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="reads /proc (Linux)")
def test_workers_end_when_their_parent_is_killed(tmp_path):
    proc, workers = _start_long_run(tmp_path)
    assert len(workers) >= 2
    proc.kill()
    proc.wait(timeout=5)
    assert _gone_within(workers, 6)
