"""``president keep-score``: the table companion in the terminal, driven by scripted input."""

from __future__ import annotations

import io
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

from rich.console import Console

from president.companion import Sheet, view
from president.terminal.keep_score import ScoreKeeper, default_sheet_path

ROOT = Path(__file__).resolve().parents[1]


def scripted(lines):
    it = iter(lines)

    def read(prompt: str = "") -> str:
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None
    return read


def keeper(lines, path) -> tuple[ScoreKeeper, io.StringIO]:
    buf = io.StringIO()
    console = Console(file=buf, width=120, color_system=None, highlight=False)
    return ScoreKeeper(input_fn=scripted(lines), console=console, path=path), buf


SETUP = ["house", "", "Alex, Blair, Casey, Drew", "4"]


def test_a_whole_house_match_typed_in_with_a_mistake_an_undo_and_a_deal_dealt_again(tmp_path):
    path = tmp_path / "state" / "president" / "keep-score.json"
    orders = ["Blair Alex Casey", "1, 2, 3", "Blair Alex Casey", "Alex Blair Casey",
              "Blair Alex Casey", "Blair Casey Alex", "Alex Casey Blair", "Alex Blair Casey"]
    lines = [*SETUP, "Alex Alex Casey", "Alex", "Blair Alex Casey", "undo", "replay",
             *orders, "Blair Alex Casey"]
    k, buf = keeper(lines, path)
    assert k.run() == 0
    out = buf.getvalue()
    assert "Alex is named twice in one order; name each player once, first out first. Nothing " \
           "changed." in out
    assert "the order leaves out Blair, Casey and Drew" in out
    assert "Took back the last entry." in out
    assert "Deal 1 is dealt again: scores and ranks unchanged." in out
    assert "Exchange: Drew must give their highest card to Blair; Blair gives back 1 card to " \
           "Drew. The others keep their cards." in out
    assert "Match over. Alex and Blair share the win with 11 points each." in out
    assert "there is no deal to enter" in out          # the order typed after the end
    saved = json.loads(path.read_text())
    sheet = Sheet.from_dict(saved)
    assert view(sheet)["winners"] == ["Alex", "Blair"] and sheet.entries[0] == "replayed"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700


def test_the_sheet_is_resumed_and_a_new_match_asks_for_the_players_again(tmp_path):
    path = tmp_path / "sheet.json"
    k, _ = keeper([*SETUP, "Drew Casey Blair"], path)
    k.run()
    k, buf = keeper(["new", "no", "new", "yes", "", "", "Ann, Bo, Cy, Di, Ed", "2", "quit"], path)
    k.run()
    out = buf.getvalue()
    assert f"Resuming the sheet saved in {path}" in out
    assert "This match is not over. Start a new one?" in out
    assert "Deal 1: Bo deals" in out and "No exchange before the first deal of a match." in out
    sheet = Sheet.from_dict(json.loads(path.read_text()))
    assert sheet.players == ("Ann", "Bo", "Cy", "Di", "Ed") and sheet.entries == ()
    assert sheet.first_dealer == 1 and sheet.rules == "house"


def test_setup_refuses_bad_rules_and_names_and_asks_again(tmp_path):
    lines = ["poker", "family", "nope", "once-around", "Ann, ann, Cy, Di", "Ann, Bo, Cy",
             "Ann, Bo, 3, Di", "Ann, Bo, Cy, Di", "Zed", "9", "Bo", "Cy Ann Di"]
    k, buf = keeper(lines, tmp_path / "s.json")
    k.run()
    out = buf.getvalue()
    assert "There is no preset 'poker'" in out
    assert "The family preset has no twist 'nope'" in out
    assert "Seats 1 and 2 are both named 'Ann'" in out
    assert "The family preset is for 4 to 7 players, not 3" in out
    assert "only a number" in out
    assert "'Zed' is not at this table" in out and "There is no player 9" in out
    sheet = Sheet.from_dict(json.loads((tmp_path / "s.json").read_text()))
    assert sheet.rules == "family+once-around" and sheet.first_dealer == 1
    assert sheet.entries == (("Cy", "Ann", "Di", "Bo"),)
    assert "New seats, clockwise: Cy, Ann, Di, Bo." in buf.getvalue()
    assert f"Saved on this device only, in {tmp_path / 's.json'}" in out.replace("\n", "")
    assert "state folder" not in out


def test_first_night_shows_roles_only(tmp_path):
    k, buf = keeper(["first-night", "swap", "Ann, Bo, Cy", "", "Bo Cy"], tmp_path / "s.json")
    k.run()
    out = buf.getvalue()
    assert "roles (no score)" in out and "Total" not in out
    assert "Exchange: Ann must give their highest card to Bo; Bo gives back their lowest card " \
           "to Ann. Cy (Neutral) keeps their cards." in " ".join(out.split())  # lines wrap
    assert "No end and no score: roles are the prize." in out


def test_the_default_file_is_under_xdg_state_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    assert default_sheet_path() == tmp_path / "president" / "keep-score.json"


def test_the_command_runs_and_saves_under_xdg_state_home(tmp_path):
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path)}
    text = "\n".join([*SETUP, "Drew Casey Blair", "quit"]) + "\n"
    done = subprocess.run([sys.executable, "-m", "president", "keep-score"], input=text,
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "Deal 2: Alex deals" in done.stdout
    saved = tmp_path / "president" / "keep-score.json"
    assert Sheet.from_dict(json.loads(saved.read_text())).entries == (
        ("Drew", "Casey", "Blair", "Alex"),)
    listed = subprocess.run([sys.executable, "-m", "president", "--help"], capture_output=True,
                            text=True, cwd=ROOT, timeout=60)
    assert "keep-score" in listed.stdout


def test_export_and_import_a_game_record_that_replay_accepts(tmp_path):
    record = tmp_path / "sheet.json"
    lines = [*SETUP, "replay", "Drew Casey Blair", "Alex Blair Casey", f"export {record}",
             "undo", "undo", "undo", f"import {tmp_path / 'missing.json'}",
             f"import {record}", "quit"]
    k, buf = keeper(lines, tmp_path / "s.json")
    k.run()
    out = buf.getvalue()
    assert f"Wrote the sheet to {record} as a game record" in out
    assert "Cannot read" in out and "Nothing changed." in out
    sheet = Sheet.from_dict(json.loads((tmp_path / "s.json").read_text()))
    assert sheet.entries == ("replayed", ("Drew", "Casey", "Blair", "Alex"),
                             ("Alex", "Blair", "Casey", "Drew"))
    done = subprocess.run([sys.executable, "-m", "president", "replay", "--json", str(record)],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["scores"] == view(sheet)["totals"] == [2, 1, 1, 2]


def test_q_asks_before_quitting(tmp_path):
    path = tmp_path / "sheet.json"
    # q, then no (Enter): still keeping score; the next order is entered; q, y quits.
    k, buf = keeper([*SETUP, "q", "", "Blair, Alex, Casey", "q", "n", "Q", "y",
                     "Drew, Casey, Blair"], path)
    assert k.run() == 0
    out = buf.getvalue()
    asked = "Quit keeping score? The sheet stays saved. (y/N): "
    assert out.count(asked) == 3
    assert out.count("Not quitting.") == 2
    # one deal entered before y; the order typed after y was never read
    assert [list(e) for e in k.sheet.entries] == [["Blair", "Alex", "Casey", "Drew"]]
    assert json.loads(path.read_text())["entries"] == [["Blair", "Alex", "Casey", "Drew"]]
    assert "president keep-score goes on from there" in " ".join(out.split())


def test_quit_still_quits_at_once(tmp_path):
    k, buf = keeper([*SETUP, "quit", "Blair, Alex, Casey"], tmp_path / "a.json")
    assert k.run() == 0
    assert "Quit keeping score?" not in buf.getvalue() and not k.sheet.entries


def test_q_on_an_unsaved_sheet_does_not_promise_it_is_saved():
    k, buf = keeper([*SETUP, "q", "no"], None)   # then the end of input quits
    assert k.run() == 0
    lines = buf.getvalue().splitlines()
    assert "Quit keeping score? (y/N): no" in lines
    assert lines[-1] == "Not quitting."
