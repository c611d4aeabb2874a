"""Hostile record files (issue 33): every one is answered with the documented error, never a
traceback. ``president replay`` exits 2 with one line ``president replay: FILE: ...`` on
standard error (and with ``--json`` the ``bad-record`` object of docs/records.md);
``president play --resume``, the keep-score sheet and the companion's import refuse the same
files in their own words.

Every kind of hostility runs once as a real command (``python -m president``, all started
at once); the whole table runs through the same entry point in process, to stay fast.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from president.cli import main
from president.companion import Sheet, SheetError, sheet_from_record
from president.records import Record, RecordError, loads
from president.records.read import MAX_DIGITS, decode_json
from president.terminal.keep_score import ScoreKeeper

BIG = "9" * 100_000
U64 = str(2**64 + 1)
HEAD = ('{"format": "president/1", "rules": {"preset": "house", "players": 4}, '
        '"players": ["Alex", "Blair", "Casey", "Drew"], ')


def record(deal: str) -> str:
    return HEAD + '"deals": [' + deal + "]}"


# name: (file contents, the field the error names ("" for the whole file), words in it)
CASES: dict[str, tuple[str | bytes, str, tuple[str, ...]]] = {
    "seed-top-level": ('{"format": "president/1", "seed": ' + BIG + "}",
                       "seed", ("100,000 digits", f"at most {MAX_DIGITS} digits")),
    "seed": (record('{"seed": ' + BIG + "}"), "deals[0].seed", ("100,000 digits",)),
    "dealer": (record('{"seed": 1, "dealer": ' + BIG + "}"), "deals[0].dealer",
               ("100,000 digits",)),
    "players": (HEAD.replace('"players": 4', '"players": ' + BIG) + '"deals": []}',
                "rules.players", ("100,000 digits",)),
    "scoring": (HEAD.replace('"players": 4', '"players": 4, "scoring": [1, ' + BIG + "]")
                + '"deals": []}', "rules.scoring[1]", ("100,000 digits",)),
    "deep-value": (record('{"seed": 1, "comment": {"a": [{"b": ' + BIG + "}]}}"),
                   "deals[0].comment.a[0].b", ("100,000 digits",)),
    "negative-5000": (record('{"seed": -' + "9" * 5000 + "}"), "deals[0].seed",
                      ("5,000 digits",)),
    "101-digits": (record('{"seed": 1' + "0" * 100 + "}"), "deals[0].seed",
                   ("101 digits",)),
    "huge-float": (record('{"seed": 1e999999}'), "deals[0].seed", ("1e999999", "too large")),
    "infinity": (record('{"finish_order": [0, 1, 2, Infinity]}'), "deals[0].finish_order[3]",
                 ("Infinity", "not a JSON number")),
    "minus-infinity": (record('{"seed": -Infinity}'), "deals[0].seed", ("-Infinity",)),
    "nan": (record('{"finish_order": [0, 1, NaN, 3]}'), "deals[0].finish_order[2]",
            ("NaN", "not a JSON number")),
    "nested-arrays": ("[" * 100_000 + "]" * 100_000, "", ("nested too deeply",)),
    "nested-objects": ('{"a": ' * 100_000 + "1" + "}" * 100_000, "", ("nested too deeply",)),
    "u64-players": (HEAD.replace('"players": 4', '"players": ' + U64) + '"deals": []}',
                    "rules.players", ("3 to 7 players",)),
    "u64-leader": (record('{"seed": 1, "leader": ' + U64 + "}"), "deals[0].leader",
                   ("seats are 0 to 3",)),
    "u64-seating": (record('{"seed": 1, "seating": [0, 1, 2, ' + U64 + "]}"),
                    "deals[0].seating", ("not an arrangement",)),
    "u64-action": (record('{"seed": 1, "actions": ["' + U64 + ' pass"]}'),
                   "deals[0].actions[0]", ("seats are 0 to 3",)),
    "not-utf8": (b'{"format": "president/1\xff\xfe"}', "", ("not UTF-8",)),
    "empty": ("", "", ("not JSON",)),
    "top-list": ("[1, 2]", "", ("a JSON object", "not list")),
    "top-string": ('"president/1"', "", ("a JSON object", "not str")),
    "top-number": ("4", "", ("a JSON object", "not int")),
    "top-huge-number": (BIG, "", ("100,000 digits",)),
    "duplicate-key": ('{"format": "president/1", "format": "president/2"}', "",
                      ("'format'", "twice")),
    "duplicate-deep": (record('{"seed": 1, "seed": 2}'), "deals[0]", ("'seed'", "twice")),
    "lone-surrogate": (HEAD.replace('"Alex"', '"\\ud800"') + '"deals": []}', "players[0]",
                       ("\\ud800", "no character")),
}


# Every kind of hostility once, run as a separate process: the exit status and standard
# error a shell sees. The whole table runs in process below (the same code, faster).
IN_A_PROCESS = ("seed", "deep-value", "negative-5000", "huge-float", "nan", "nested-arrays",
                "not-utf8", "duplicate-key", "lone-surrogate", "top-list")


def _command(path: str, how: str) -> list[str]:
    if how == "resume":
        return ["play", "--resume", path]
    return ["replay", path, *(["--json"] if how == "json" else [])]


def _write(folder: Path, name: str) -> str:
    path = folder / f"{name}.json"
    content = CASES[name][0]
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return str(path)


@pytest.fixture(scope="module")
def processes(tmp_path_factory):
    """(case, how) -> (path, exit status, stdout, stderr) of ``python -m president``, the
    commands all started at once."""
    folder = tmp_path_factory.mktemp("hostile")
    running = {}
    for name in IN_A_PROCESS:
        path = _write(folder, name)
        for how in ("words", "json"):
            running[name, how] = (path, subprocess.Popen(
                [sys.executable, "-m", "president", *_command(path, how)],
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE))
    done = {}
    for key, (path, proc) in running.items():
        out, err = proc.communicate(timeout=120)
        done[key] = (path, proc.returncode, out.decode("utf-8", "replace"),
                     err.decode("utf-8", "replace"))
    return done


@pytest.fixture
def in_process(tmp_path, capsys):
    """Run ``president`` in this process: (name, how) -> (path, status, stdout, stderr)."""
    def run(name: str, how: str) -> tuple[str, int, str, str]:
        path = _write(tmp_path, name)
        status = main(_command(path, how))
        out, err = capsys.readouterr()
        return path, status, out, err
    return run


def _no_nan(name: str) -> None:
    raise AssertionError(f"{name} in the output: not JSON")


def _check_words(name: str, answer: tuple[str, int, str, str]) -> None:
    _, field, words = CASES[name]
    path, status, out, err = answer
    assert "Traceback" not in err
    assert status == 2, err[-500:]
    assert out == ""
    assert err.count("\n") == 1 and err.startswith(f"president replay: {path}: "), err[-500:]
    message = err[len(f"president replay: {path}: "):-1]
    if field:
        assert message.startswith(f"{field}: "), message
    for w in words:
        assert w in message, message
    assert len(err) < 600                  # the hostile text is not echoed back whole


def _check_json(name: str, answer: tuple[str, int, str, str]) -> None:
    _, field, words = CASES[name]
    path, status, out, err = answer
    assert "Traceback" not in err
    assert status == 2, err[-500:]
    data = json.loads(out, parse_constant=_no_nan)
    assert data["ok"] is False and data["deals"] == [] and data["next_deal"] is None
    error = data["error"]
    assert error["reason"] == "bad-record" and error["field"] == field
    for w in words:
        assert w in error["message"], error["message"]
    assert err == f"president replay: {path}: {error['message']}\n"


@pytest.mark.parametrize("name", IN_A_PROCESS)
def test_the_replay_command_answers_a_hostile_file_with_one_line_and_exit_2(processes, name):
    _check_words(name, processes[name, "words"])


@pytest.mark.parametrize("name", IN_A_PROCESS)
def test_the_replay_command_json_answers_with_the_bad_record_object(processes, name):
    _check_json(name, processes[name, "json"])


@pytest.mark.parametrize("name", CASES)
def test_replay_answers_a_hostile_file_with_one_line_and_exit_2(in_process, name):
    _check_words(name, in_process(name, "words"))


@pytest.mark.parametrize("name", CASES)
def test_replay_json_answers_a_hostile_file_with_the_bad_record_object(in_process, name):
    _check_json(name, in_process(name, "json"))


@pytest.mark.parametrize("name", CASES)
def test_play_resume_refuses_a_hostile_file_in_one_line(in_process, name):
    _, _, words = CASES[name]
    path, status, out, err = in_process(name, "resume")
    assert status == 2, err[-500:]
    assert err.count("\n") == 1 and err.startswith(f"president play: --resume {path!r}: ")
    for w in words:
        assert w in err, err
    assert "sys.set_int_max_str_digits" not in err


def test_a_record_with_a_128_bit_seed_still_replays(tmp_path):
    # the digit bound refuses hostile numbers only: a match draws deal seeds of up to 128 bits
    path = tmp_path / "seed.json"
    path.write_text(record('{"dealer": 3, "seed": ' + str(2**128 - 1) + "}"))
    done = subprocess.run([sys.executable, "-m", "president", "replay", str(path)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "all legal" in done.stdout


def test_a_finishing_order_entry_past_64_bits_is_the_documented_bad_order(tmp_path):
    # docs/records.md: a finishing order naming a seat that does not exist is for the engine
    # to refuse (exit status 1, bad-order), not a reading error
    path = tmp_path / "order.json"
    path.write_text(record('{"finish_order": [0, 1, 2, ' + U64 + "]}"))
    done = subprocess.run([sys.executable, "-m", "president", "replay", str(path), "--json"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert json.loads(done.stdout)["error"]["reason"] == "bad-order"


def test_standard_input_that_is_not_utf8_is_a_bad_record():
    done = subprocess.run([sys.executable, "-m", "president", "replay", "-"],
                          input=b'{"format": "\xff"}', capture_output=True, timeout=60)
    err = done.stderr.decode()
    assert done.returncode == 2 and "Traceback" not in err
    assert err.startswith("president replay: standard input: not UTF-8") and err.count("\n") == 1


# ----- the shared readers, in process -----------------------------------------------------


@pytest.mark.parametrize("name", [n for n in CASES if n != "not-utf8"])
def test_loads_raises_record_error_for_every_hostile_text(name):
    content, field, words = CASES[name]
    with pytest.raises(RecordError) as e:
        loads(content)
    assert e.value.field == field
    for w in words:
        assert w in e.value.message


@pytest.mark.parametrize("value, words", [
    (10**5000, "5,001 digits"),
    (-(10**150), "151 digits"),
    (float("nan"), "nan"),
    (float("-inf"), "-inf"),
    ("\udfff", "\\udfff"),
], ids=["int-5001-digits", "int-minus-151-digits", "nan", "minus-inf", "surrogate"])
def test_record_from_dict_refuses_the_same_values_built_in_python(value, words):
    data = json.loads(record('{"dealer": 3, "seed": 1}'))
    data["deals"][0]["seed"] = value
    with pytest.raises(RecordError) as e:
        Record.from_dict(data)
    assert e.value.field == "deals[0].seed" and e.value.deal == 0
    assert words in e.value.message


def test_a_key_deep_inside_is_named_in_the_path_and_cut():
    data = json.loads(record('{"dealer": 3, "seed": 1}'))
    data["deals"][0]["actions"] = ["0 3C", {"k" * 500: [float("nan")]}]
    with pytest.raises(RecordError) as e:
        Record.from_dict(data)
    assert e.value.field.startswith("deals[0].actions[1].kkkk") and len(e.value.field) < 100
    assert e.value.step == "play" and e.value.index == 1


def test_decode_json_refuses_what_loads_refuses_for_any_file():
    with pytest.raises(RecordError) as e:
        decode_json('{"first_dealer": ' + BIG + "}")
    assert e.value.field == "first_dealer" and "100,000 digits" in e.value.message
    assert decode_json('{"a": [1, 2.5, "x"]}') == {"a": [1, 2.5, "x"]}


HOSTILE_SHEETS = {
    "huge-int": '{"rules": "house", "players": ["A", "B", "C", "D"], "first_dealer": ' + BIG
                + ', "entries": []}',
    "nested": "[" * 100_000 + "]" * 100_000,
    "nan": '{"rules": "house", "players": ["A", "B", "C", "D"], "first_dealer": NaN}',
    "surrogate": '{"rules": "house", "players": ["\\ud800", "B", "C", "D"]}',
    "not-utf8": b'{"rules": "\xff"}',
}


@pytest.mark.parametrize("name", HOSTILE_SHEETS)
def test_keep_score_sets_a_hostile_saved_sheet_aside_with_its_reason(tmp_path, name):
    path = tmp_path / "sheet.json"
    content = HOSTILE_SHEETS[name]
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    buf = io.StringIO()
    keeper = ScoreKeeper(input_fn=lambda prompt="": "", console=Console(
        file=buf, width=200, color_system=None, highlight=False), path=path)
    assert keeper.load() is None
    said = " ".join(buf.getvalue().split())
    assert "cannot be read" in said and "starting a new one" in said
    assert "sys.set_int_max_str_digits" not in said and len(said) < 800


@pytest.mark.parametrize("name", [n for n in CASES if n != "not-utf8"])
def test_the_companion_import_refuses_a_hostile_record_text(name):
    content, _, words = CASES[name]
    with pytest.raises(SheetError) as e:
        sheet_from_record(content)
    assert e.value.reason == "bad-record"
    assert e.value.message.startswith("This file is not a score sheet or game record")
    for w in words:
        assert w in e.value.message, e.value.message


def test_keep_score_import_of_a_hostile_record_is_refused(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(record('{"seed": ' + BIG + "}"))
    keeper = ScoreKeeper(input_fn=lambda prompt="": "", console=Console(file=io.StringIO()),
                         path=None)
    keeper.sheet = Sheet("house", ["A", "B", "C", "D"])
    with pytest.raises(SheetError) as e:
        keeper.import_(str(path))
    assert "100,000 digits" in e.value.message



def test_a_record_dict_that_holds_itself_is_refused_not_walked_forever():
    data = json.loads(record('{"dealer": 3, "seed": 1}'))
    data["comment"] = data
    with pytest.raises(RecordError) as e:
        Record.from_dict(data)
    assert e.value.field == "comment" and "must be a string" in e.value.message
