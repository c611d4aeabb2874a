"""``president learn`` (the terminal lessons, :mod:`president.terminal.learn`) driven with
scripted input: every step shown with its reason, moves tried with the engine's answer,
back, help, quit, end of input, the list, an unknown lesson, and one real subprocess."""

from __future__ import annotations

import argparse
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from president.cli import COMMANDS, main
from president.commands import learn as learn_command
from president.lessons import LESSONS
from president.terminal.learn import LessonRunner, find_lesson, symbols_in

ROOT = Path(__file__).resolve().parents[1]


def make_console() -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, width=400, color_system=None, highlight=False), buf


def scripted(lines):
    it = iter(lines)

    def read() -> str:
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None
    return read


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


@pytest.mark.parametrize("lesson_id", list(LESSONS))
def test_enter_steps_through_the_whole_lesson_with_every_why(lesson_id):
    lesson = LESSONS[lesson_id]
    console, buf = make_console()
    runner = LessonRunner(lesson, input_fn=scripted([""] * len(lesson.steps)), console=console)
    assert runner.run() == 0
    out = flat(buf.getvalue())
    n = len(lesson.steps)
    for k in range(1, n + 1):
        assert f"Step {k} of {n}" in out
    shown = symbols_in if runner.symbols else (lambda text: text)
    for step in lesson.steps:
        assert flat(shown(step.why)) in out
        for line in step.narration:
            assert shown(line) in out
    assert "End of the lesson" in out
    assert f"From {lesson.source_text}" in out
    assert "seed" not in out.casefold() and ".txt" not in out


def test_a_move_tried_gets_the_engines_answer_and_the_lesson_stays():
    lesson = LESSONS["single-against-pair"]
    console, buf = make_console()
    # Step 2 (index 1): Alex led a pair of queens; Blair tries a single 2, three kings, two.
    lines = ["", "2S", "KC KD KH", "KC KD", "Casey AC AD", "q"]
    runner = LessonRunner(lesson, input_fn=scripted(lines), console=console, suit_symbols=False)
    assert runner.run() == 0
    out = buf.getvalue()
    refusal = lesson.match_after(1).refusal(1, "2S")
    assert f"Not legal for Blair: {refusal.message}." in out
    assert out.count("the pile is a pair (QC QD); play exactly 2 cards") == 2
    assert "Legal for Blair: a pair of kings has the two cards the pile needs" in out
    assert "That is the lesson's next move." in out
    assert "Not legal for Casey: it is Blair's turn, not Casey's." in out
    assert runner.index == 1                        # trying moved nothing
    assert "You leave the lesson." in out


def test_back_help_and_first_step():
    lesson = LESSONS["pass-and-re-enter"]
    console, buf = make_console()
    runner = LessonRunner(lesson, input_fn=scripted(["b", "", "", "back", "?", "quit"]),
                          console=console)
    assert runner.run() == 0
    out = buf.getvalue()
    assert "This is the first step." in out
    assert out.count("Step 2 of 11") == 2           # forward to 3, then back to 2
    assert "Step 3 of 11" in out
    assert "the step before" in out                 # the help text
    assert runner.index == 1


def test_end_of_input_leaves_quietly():
    console, buf = make_console()
    assert LessonRunner(LESSONS["sit-out"], input_fn=scripted([]), console=console).run() == 0
    assert "You leave the lesson." in buf.getvalue()


def test_a_move_too_long_is_not_a_move():
    console, buf = make_console()
    runner = LessonRunner(LESSONS["sit-out"], input_fn=scripted(["x" * 100, "q"]),
                          console=console)
    assert runner.run() == 0
    assert "Not a move: a move is text of at most 60 characters" in flat(buf.getvalue())


def test_exchange_steps_show_who_gives_and_the_forced_give():
    lesson = LESSONS["first-night"]
    deal2 = next(s.index for s in lesson.steps if s.deal == 1)
    console, buf = make_console()
    runner = LessonRunner(lesson, input_fn=scripted([""] * deal2 + ["4H 6C", "q"]),
                          console=console)
    runner.run()
    out = buf.getvalue()
    assert "Exchange: South must give their highest 2 cards to North." in out
    assert "Not legal for South: South must give their 2 highest cards" in out
    assert "was President" in out


def test_find_lesson_by_number_or_name():
    first = next(iter(LESSONS.values()))
    assert find_lesson("1") is first
    assert find_lesson(first.id.upper()) is first
    assert find_lesson("0") is None and find_lesson("nope") is None


def test_learn_is_a_command():
    assert "learn" in COMMANDS


def test_learn_list(capsys):
    assert main(["learn", "--list"]) == 0
    out = capsys.readouterr().out
    for lesson_id in LESSONS:
        assert lesson_id in out


def test_learn_unknown_lesson_is_refused(capsys):
    assert main(["learn", "nope"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("president learn: no lesson 'nope'")
    assert "single-against-pair" in err


def test_learn_without_a_lesson_lists_and_asks():
    console, buf = make_console()
    args = argparse.Namespace(lesson=None, list=False)
    lines = ["nine", "9", "q"]
    assert learn_command.run(args, input_fn=scripted(lines), console=console) == 0
    out = buf.getvalue()
    assert "No lesson 'nine'." in out
    assert "Lesson: Twist: the lowest three starts" in out   # number 9
    console, buf = make_console()
    assert learn_command.run(args, input_fn=scripted([""]), console=console) == 0
    assert "Step 1" not in buf.getvalue()


def test_learn_in_a_real_process():
    lesson = LESSONS["last-of-rank"]
    proc = subprocess.run([sys.executable, "-m", "president", "learn", "last-of-rank"],
                          input="\n9H 9S\n" + "\n" * len(lesson.steps), capture_output=True,
                          text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "End of the lesson" in proc.stdout
    assert "Legal for North" in proc.stdout


def test_lesson_text_names_cards_as_the_table_shows_them():
    """A new-user trial found "Alex leads a pair of queens (QC QD)" above a table showing
    Q♣ Q♦: the bracketed cards follow the table (symbols where the console can write them,
    letters where it cannot)."""
    lesson = LESSONS["single-against-pair"]
    assert symbols_in("a pair of queens (QC QD); a single (10H)") == \
        "a pair of queens (Q♣ Q♦); a single (10♥)"
    assert symbols_in("(x) As Blair said (AS is no card here)") == "(x) As Blair said (AS is no card here)"
    for symbols in (True, False):
        console, buf = make_console()
        runner = LessonRunner(lesson, input_fn=scripted([""]), console=console,
                              suit_symbols=symbols)
        runner.run()
        out = buf.getvalue()
        assert ("(Q♣ Q♦)" in out) == symbols and ("(QC QD)" in out) == (not symbols)
