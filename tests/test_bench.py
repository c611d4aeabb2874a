"""``president bench`` and :mod:`president.bench`: the command runs and reports sane
figures. No speed is asserted here (speed targets live in ``benchmarks/``)."""

from __future__ import annotations

import json
import sys

import pytest

from president import Rules
from president.bench import TARGET_DEALS_PER_SECOND, measure, preset_figures
from president.cli import main


def test_measure_counts_deals_and_decisions():
    r = measure(Rules.preset("house", players=4), deals=7, seed=3)
    assert r.deals == 7 and r.rules == "house" and r.players == 4
    # Every deal of 52 cards to 4 players takes at least 4 plays (13 cards, at most 4 a play).
    assert r.decisions >= 7 * 4
    assert r.seconds > 0 and r.cpu_seconds >= 0
    assert r.deals_per_second == pytest.approx(r.deals / r.seconds)
    assert r.decisions_per_second == pytest.approx(r.decisions / r.seconds)
    assert r.us_per_decision == pytest.approx(1e6 * r.seconds / r.decisions)
    assert r.decisions_per_deal == pytest.approx(r.decisions / 7)


def test_measure_is_deterministic_per_seed():
    rules = Rules.parse("house+sit-out", players=5)
    a = measure(rules, deals=5, seed=11)
    b = measure(rules, deals=5, seed=11)
    assert a.decisions == b.decisions
    assert a.rules == "house+sit-out" and a.players == 5


def test_never_ending_matches_are_restarted():
    r = measure(Rules.preset("first-night", players=3), deals=45, seed=1)
    assert r.deals == 45


def test_measure_rejects_bad_budgets():
    with pytest.raises(ValueError, match="deals must be at least 1, not 0"):
        measure(Rules.preset("house"), deals=0)
    with pytest.raises(ValueError, match="seconds must be above 0"):
        measure(Rules.preset("house"), seconds=-1)


def test_preset_figures_cover_every_preset():
    names = [r.rules for r in preset_figures(players=5, deals=2)]
    assert names == ["house", "family", "practice", "first-night"]
    assert [r.players for r in preset_figures(players=5, deals=1)] == [5, 5, 4, 5]


def test_bench_command_prints_sane_json(capsys):
    assert main(["bench", "--deals", "6", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    head = report["headline"]
    assert head["rules"] == "house" and head["players"] == 4 and head["deals"] == 6
    assert head["decisions"] >= 24 and head["deals_per_second"] > 0
    assert head["us_per_decision"] > 0
    assert head["decisions_per_deal"] == pytest.approx(head["decisions"] / 6, abs=0.01)
    assert [p["rules"] for p in report["presets"]] == ["house", "family", "practice",
                                                        "first-night"]
    assert all(p["deals"] == 6 for p in report["presets"])
    assert report["target"]["deals_per_second"] == TARGET_DEALS_PER_SECOND
    assert report["target"]["met"] == (head["deals_per_second"] >= TARGET_DEALS_PER_SECOND)
    assert report["target"]["met_per_cpu_second"] == (
        head["cpu_deals_per_second"] >= TARGET_DEALS_PER_SECOND)
    assert report["environment"]["processes"] == 1
    ex = report["expert"]          # issue 12: the expert's play-outs per CPU second
    assert ex["decisions"] >= 1 and ex["playouts"] >= ex["decisions"]
    assert ex["playouts_per_cpu_second"] == pytest.approx(ex["playouts"] / ex["cpu_seconds"],
                                                          rel=0.01)
    assert ex["playouts_per_decision"] == pytest.approx(ex["playouts"] / ex["decisions"],
                                                        abs=0.1)
    assert ex["target_playouts_per_decision"] == 8280
    assert ex["met"] == (ex["playouts"] / ex["decisions"] >= 8280)


def test_bench_command_other_rules_and_table(capsys):
    assert main(["bench", "--deals", "3", "--rules", "family+once-around", "--players", "6",
                 "--no-presets"]) == 0
    out = capsys.readouterr().out
    assert "family+once-around" in out and "deals/s" in out
    assert "is for house with 4 players" in out


@pytest.mark.parametrize("argv, message", [
    (["bench", "--rules", "poker"], "no preset named 'poker'"),
    (["bench", "--deals", "0"], "--deals must be at least 1, not 0"),
    (["bench", "--seconds", "0"], "--seconds must be above 0"),
    (["bench", "--players", "9"], "players = 9 is not allowed"),
])
def test_bench_command_bad_options(capsys, argv, message):
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_bench_check_exit_status_follows_the_target(capsys):
    status = main(["bench", "--deals", "5", "--no-presets", "--json", "--check"])
    report = json.loads(capsys.readouterr().out)
    assert status == (0 if report["target"]["met_per_cpu_second"] else 1)
    # A run that is not the target run never fails the check.
    assert main(["bench", "--deals", "2", "--no-presets", "--players", "5", "--check"]) == 0


def load_runner():
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "run.py"
    spec = importlib.util.spec_from_file_location("bench_runner", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_runner_runs_president_bench_then_every_bench_script(tmp_path, monkeypatch, capfd):
    runner = load_runner()
    (tmp_path / "bench_b.py").write_text("import os\nprint('B quick', os.environ.get("
                                         "'PRESIDENT_BENCH_QUICK'))\n")
    (tmp_path / "bench_a.py").write_text("print('A figures')\n")
    (tmp_path / "helper.py").write_text("raise SystemExit('not a benchmark')\n")
    monkeypatch.setattr(runner, "HERE", tmp_path)
    cmds = runner.commands(quick=True, strict=True)
    assert [title for title, _ in cmds] == ["president bench", "bench_a.py", "bench_b.py"]
    assert cmds[0][1][-4:] == ["bench", "--seconds", "1", "--check"]
    # Run the scripts (the engine run replaced by a fast stand-in).
    monkeypatch.setattr(runner, "commands", lambda quick, strict: cmds[1:])
    assert runner.main(["--quick"]) == 0
    out = capfd.readouterr().out
    assert out.index("A figures") < out.index("B quick 1")
    (tmp_path / "bench_c.py").write_text("raise SystemExit(3)\n")
    monkeypatch.setattr(runner, "commands",
                        lambda quick, strict: [(p.name, [sys.executable, str(p)])
                                               for p in runner.scripts()])
    assert runner.main([]) == 1
    assert "Failed or missed target: bench_c.py" in capfd.readouterr().err
