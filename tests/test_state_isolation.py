"""Tests never depend on the machine's own state (issue 35, item 7): a ``president serve``
started with the default state folder (``make play``) once made ``make test`` fail, because
tests that start a server met its lock in ``~/.local/state/president``. ``tests/conftest.py``
gives every test a state folder of its own; these tests hold it to that."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from president.terminal.keep_score import default_sheet_path

REAL_STATE = Path.home() / ".local" / "state"
SEEN: list[str] = []


def _inside(path: Path, folder: Path) -> bool:
    return Path(os.path.realpath(path)).is_relative_to(os.path.realpath(folder))


@pytest.mark.parametrize("attempt", [1, 2])
def test_each_test_has_its_own_state_folder(attempt, tmp_path):
    folder = os.environ.get("XDG_STATE_HOME")
    assert folder, "XDG_STATE_HOME is not set for this test"
    assert not _inside(Path(folder), REAL_STATE)
    # pytest's own temporary area (the parent of every tmp_path), not the home folder
    assert _inside(Path(folder), tmp_path.parents[1])
    assert Path(folder).is_dir() and not (Path(folder) / "president").exists()
    assert folder not in SEEN            # not the folder another test had
    SEEN.append(folder)
    assert default_sheet_path() == Path(folder) / "president" / "keep-score.json"


def test_the_web_state_folder_is_the_tests_own():
    pytest.importorskip("fastapi")
    from president.web.ledger import default_state_dir

    assert Path(default_state_dir()) == Path(os.environ["XDG_STATE_HOME"]) / "president"


def test_a_subprocess_inherits_the_tests_state_folder():
    out = subprocess.run(
        [sys.executable, "-c", "from president.terminal.keep_score import default_sheet_path;"
                               "print(default_sheet_path().parent)"],
        capture_output=True, text=True, check=True, timeout=60).stdout.strip()
    assert out == str(Path(os.environ["XDG_STATE_HOME"]) / "president")
