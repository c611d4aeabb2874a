"""The command line without the optional extras: ``--version``, and a command whose extra is
missing says which extra to install (one line, status 2) instead of a traceback."""

from __future__ import annotations

import sys

import pytest

from president.cli import main, version


def test_version_and_help_list_every_command(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out == f"president {version()}\n"
    assert version()[0].isdigit()          # the installed metadata, or president.__version__
    assert main([]) == 0
    help_text = capsys.readouterr().out
    for command in ("play", "rules", "simulate", "tournament", "export"):
        assert command in help_text


@pytest.mark.parametrize("argv", [["play", "--seed", "1"], ["learn", "--list"]])
def test_a_missing_extra_is_named_with_the_install_command(monkeypatch, capsys, argv):
    for name in list(sys.modules):
        if name == "rich" or name.startswith("rich.") or name.startswith("president.terminal"):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "rich", None)    # import rich -> ModuleNotFoundError
    assert main(argv) == 2
    assert capsys.readouterr().err == (
        f"president {argv[0]}: needs rich (the terminal display), which is not installed; "
        "install it with: pip install 'president-game[cli]'\n")


def test_rules_and_simulate_need_no_extra(monkeypatch, capsys):
    for name in list(sys.modules):
        if name == "rich" or name.startswith("rich."):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "rich", None)
    assert main(["rules", "first-night"]) == 0
    assert "first-night" in capsys.readouterr().out
    assert main(["tournament", "--seats", "random,simple", "--deals", "4", "--quiet"]) == 0
    assert "places ahead" in capsys.readouterr().out
