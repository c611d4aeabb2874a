"""The ``president`` command line: ``--help``, ``president rules`` for every preset, and
clear refusals (exit status 2) for bad presets, twists, table sizes and play options."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from president.cli import COMMANDS, main
from president.rules import PRESET_SOURCES, PRESETS, TWISTS

ROOT = Path(__file__).resolve().parents[1]


def run_cli(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "president", *argv], capture_output=True,
                          text=True, cwd=ROOT, timeout=60)


def test_help_lists_every_command():
    proc = run_cli("--help")
    assert proc.returncode == 0 and proc.stderr == ""
    assert proc.stdout.startswith("usage: president")
    for name in COMMANDS:
        # argparse puts the help of a name of 9 letters or more (keep-score) on the next line
        assert f"    {name} " in proc.stdout or f"    {name}\n" in proc.stdout


def test_no_command_prints_help(capsys):
    assert main([]) == 0
    assert "usage: president" in capsys.readouterr().out


@pytest.mark.parametrize("command", ["play", "bench", "rules"])
def test_command_help(command, capsys):
    with pytest.raises(SystemExit) as exc:
        main([command, "--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: president {command}")
    if command == "play":
        for option in ("--rules", "--players", "--seed", "--name", "--levels", "--hint-level"):
            assert option in out
    if command == "bench":
        for option in ("--deals", "--seconds", "--json", "--rules", "--players"):
            assert option in out


# What docs/rules.md's preset table says about each preset (players, beat, scoring, match end).
PRESET_FACTS = {
    "house": ("4 to 7", "strictly higher rank", "2 for first, 1 for second", "11 points"),
    "family": ("4 to 7", "strictly higher rank", "2 for first, 1 for second", "11 points"),
    "practice": ("allows 4)", "strictly higher rank", "Scoring: none", "one deal"),
    "first-night": ("3 to 7", "equal or higher rank", "Scoring: none", "no end"),
}


@pytest.mark.parametrize("preset", list(PRESETS))
def test_rules_for_each_preset(preset, capsys):
    assert main(["rules", preset]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"Rules: {preset}\n")
    assert f"Source: {PRESET_SOURCES[preset]} (see docs/rules.md)\n" in out
    assert "seed" not in out
    lo = PRESETS[preset][0]
    assert f"Players: {lo} (" in out
    for fact in PRESET_FACTS[preset]:
        assert fact in out
    for twist in TWISTS[preset]:
        assert f"  {twist}: " in out


def test_rules_without_a_preset_prints_all(capsys):
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    assert [line.split()[1] for line in out.splitlines() if line.startswith("Rules: ")] \
        == list(PRESETS)


def test_rules_with_twists_and_table_size(capsys):
    assert main(["rules", "house+sit-out+three-deals", "--players", "6"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Rules: house+sit-out+three-deals")
    assert "Players: 6 " in out
    assert "Passing: a pass takes you out of the pile until it clears" in out
    assert "exactly 3 deals" in out


@pytest.mark.parametrize("argv, message", [
    (["rules", "poker"], "no preset named 'poker'; presets are: house, family, practice, "
                         "first-night"),
    (["rules", "house+nope"], "the house preset has no twist 'nope'; its twists are: "
                              "sit-out, fresh-hands, three-deals"),
    (["rules", "practice+swap"], "the practice preset has no twist 'swap'"),
    (["rules", "house", "--players", "3"], "the house preset is for 4 to 7 players, not 3"),
    (["rules", "practice", "--players", "5"], "not 5"),
    (["rules", "first-night", "--players", "8"], "players = 8 is not allowed; a table has 3 to 7"),
    (["play", "--rules", "house+nope"], "the house preset has no twist 'nope'"),
    (["play", "--rules", "house", "--players", "2"], "players = 2 is not allowed"),
    (["play", "--levels", "simple,wizard"], "no computer level 'wizard' is available; "
                                            "choose from: random, beginner, simple, "
                                            "learned, intermediate, expert, master, or your "
                                            "own bot as package.module:ClassName or a saved "
                                            "network FILE.npz"),
    (["play", "--hint-level", "oracle"], "no computer level 'oracle'"),
    (["play", "--players", "4", "--levels", "simple,simple,simple,expert"],
     "--levels gives 4 levels for the 3 computer seats of a 4-player table; give at most 3"),
    (["play", "--levels", ","], "--levels needs at least one level"),
    (["play", "--name", "  "], "--name must not be empty"),
    (["play", "--name", "robin"], "the name 'robin' belongs to a computer player at this "
                                  "table (Robin, Alex, Sam); choose another --name"),
])
def test_bad_input_is_refused_with_a_clear_message(argv, message, capsys):
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert message in captured.err
    assert captured.out == ""
    assert captured.err.startswith(f"president {argv[0]}: ")


def test_bad_input_exit_status_through_the_console_script():
    proc = run_cli("rules", "house+nope")
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "its twists are: sit-out, fresh-hands, three-deals" in proc.stderr


def test_argparse_errors_exit_2():
    proc = run_cli("play", "--players", "four")
    assert proc.returncode == 2
    assert "invalid int value: 'four'" in proc.stderr


@pytest.mark.parametrize("players, shown, skipped", [
    (5, ["house", "family", "first-night"], ["practice"]),
    (3, ["first-night"], ["house", "family", "practice"]),
    (4, list(PRESETS), []),
])
def test_rules_for_a_table_size_prints_every_preset_that_allows_it(players, shown, skipped,
                                                                      capsys):
    assert main(["rules", "--players", str(players)]) == 0
    out = capsys.readouterr().out
    assert [line.split()[1] for line in out.splitlines() if line.startswith("Rules: ")] == shown
    assert out.count(f"Players: {players} (") == len(shown)
    if skipped:
        first = out.splitlines()[0]
        assert first.startswith(f"Presets for {players} players: {', '.join(shown)}. Skipped: ")
        for name in skipped:
            lo, hi, _ = PRESETS[name]
            allows = f"{lo} to {hi}" if hi != lo else f"{lo}"
            assert f"{name} (the {name} preset is for {allows} players, not {players})" in first
    else:
        assert out.startswith("Rules: house\n")


def test_rules_for_a_table_size_no_preset_allows_is_refused(capsys):
    assert main(["rules", "--players", "8"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == ("president rules: no preset allows 8 players: players = 8 is not "
                            "allowed; a table has 3 to 7 players\n")


def test_broken_pipe_exits_quietly():
    # The reading end is closed before the command writes: every write meets a broken pipe.
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        proc = subprocess.run([sys.executable, "-m", "president", "rules"], stdout=write_end,
                              stderr=subprocess.PIPE, text=True, cwd=ROOT, timeout=60)
    finally:
        os.close(write_end)
    assert proc.stderr == ""
    assert proc.returncode == 1


def test_rules_piped_into_head_prints_the_first_line_only():
    proc = subprocess.run(f"'{sys.executable}' -m president rules | head -1", shell=True,
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert proc.stdout == "Rules: house\n"
    assert proc.stderr == ""


@pytest.mark.parametrize("levels, entry", [("simple,,random", 2), ("simple,", 2),
                                           (",simple", 1), ("simple, ,random", 2)])
def test_levels_with_an_empty_entry_are_refused(levels, entry, capsys):
    assert main(["play", "--levels", levels]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (f"president play: --levels {levels!r} has an empty entry (entry "
                            f"{entry}); separate levels with single commas, e.g. "
                            "--levels simple,random\n")


def test_record_to_a_place_that_cannot_be_written_is_refused(tmp_path, capsys):
    missing = tmp_path / "no-such-folder" / "game.json"
    assert main(["play", "--record", str(missing)]) == 2
    err = capsys.readouterr().err
    assert err == (f"president play: --record {str(missing)!r}: the folder "
                   f"{missing.parent} does not exist\n")
    assert main(["play", "--record", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "is a folder; give a file name inside it, e.g. game.json" in err
    assert not missing.parent.exists()


def test_play_help_shows_record_option(capsys):
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    out = capsys.readouterr().out
    assert "--record FILE" in out


def test_version_prints_the_package_version():
    # the distribution is president-game (the name president is taken on the package
    # index); the import package and the command stay president
    from importlib.metadata import version
    proc = run_cli("--version")
    assert proc.returncode == 0 and proc.stderr == ""
    assert proc.stdout == f"president {version('president-game')}\n"
    import president
    assert version("president-game") == president.__version__


@pytest.mark.parametrize("value, message", [
    ("soon", "argument --delay: 'soon' is not a number of seconds; give e.g. 0.5, or 0 for "
             "no pause"),
    ("-1", "argument --delay: -1 seconds is out of range; give 0 to 10 seconds (0: no pause)"),
    ("nan", "argument --delay: nan seconds is out of range"),
    ("11", "argument --delay: 11 seconds is out of range"),
])
def test_a_bad_delay_is_refused_in_one_line(value, message, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["play", f"--delay={value}"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"president play: {message}")
    assert err.count("\n") == 1


def test_play_help_shows_the_new_options(capsys):
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "--delay SECONDS pause before each computer play" in out
    assert "(default: 0.6; 0: no pause)" in out
    assert "--auto-pass pass for you, without asking, whenever nothing you hold beats" in out
    assert "--resume FILE continue the match recorded in FILE" in out


def test_play_help_names_every_level_for_opponents_and_hints(capsys):
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    levels = ("from: random, beginner, simple, learned, intermediate, expert, master, or your "
              "own bot")
    assert f"comma separated, {levels} as package.module:ClassName or a saved network" in out
    assert f"computer level that answers 'hint', {levels} (default: simple;" in out


def test_play_passes_delay_and_auto_pass_to_the_game(monkeypatch):
    import president.terminal as terminal
    seen = {}

    class Fake:
        def __init__(self, rules, **options):
            seen.update(options, rules=rules)

        def run(self):
            return 0
    monkeypatch.setattr(terminal, "TerminalGame", Fake)
    assert main(["play", "--rules", "practice", "--delay", "0.25", "--auto-pass"]) == 0
    assert seen["delay"] == 0.25 and seen["auto_pass"] is True and seen["match"] is None
    assert main(["play", "--rules", "practice"]) == 0
    assert seen["delay"] == 0.6 and seen["auto_pass"] is False


def test_replay_numbers_deals_from_1_in_words(capsys):
    data = ROOT / "tests" / "data" / "records"
    assert main(["replay", str(data / "bug_scum_keeps_best_card.json")]) == 1
    out = capsys.readouterr().out
    assert ('illegal in deal 2 (record index: deal 1, exchange step 0) "3>0 9D" by seat 3 '
            "(Drew): bad-exchange") in out
    assert "State after the last legal step: deal 2, exchange" in out
    assert main(["replay", str(data / "house_two_deals_exchange.json")]) == 0
    out = capsys.readouterr().out
    assert "State: deal 2, " in out and "deal 0" not in out and "Deal 0" not in out


def test_replay_messages_count_deals_from_1_in_words(tmp_path, capsys):
    record = {"format": "president/1", "rules": {"preset": "house", "players": 4},
              "players": ["A", "B", "C", "D"],
              "deals": [{"dealer": 3, "hands": ["3C", "4C", "5C", "6C"], "actions": ["0 3C"]},
                        {"hands": ["3D 4D", "5D 6D", "7D 8D", "9D 2D"]}]}
    path = tmp_path / "not_ended.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"{path}: illegal in deal 2 (record index: deal 1): wrong-phase"
    assert out[1] == ("  deal 1 has not ended (seat 1 is to act); list the rest of its actions "
                      "before starting another deal")
    assert main(["replay", str(path), "--json"]) == 1  # JSON keeps the record's indexes
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["deal"] == 1 and error["message"].startswith("deal 0 has not ended")
    assert main(["play", "--resume", str(path)]) == 2
    assert capsys.readouterr().err == (
        f"president play: --resume {str(path)!r}: the record breaks the rules in deal 2: deal "
        "1 has not ended (seat 1 is to act); list the rest of its actions before starting "
        f"another deal (see: president replay {path})\n")


@pytest.mark.parametrize("argv, line", [
    (["keep-score", "--players", "9"],
     "president keep-score: unrecognized arguments: --players 9 (see president keep-score --help)"),
    (["rules", "house", "--bogus", "x"],
     "president rules: unrecognized arguments: --bogus x (see president rules --help)"),
    (["--nosuch"], "president: unrecognized arguments: --nosuch (see president --help)"),
])
def test_an_argument_a_command_does_not_know_is_reported_by_that_command(argv, line, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    assert capsys.readouterr().err.strip() == line
