"""Words a player reads name nothing of the project's development: no source document by its
internal number ("seed 004"), no issue number ("issue 12"), no folder of a development
machine (``/work/``, ``/home/``) and no ``RULES.md`` (the rules are docs/rules.md). Checked on
every command's ``--help``, ``president rules`` for every preset and twist, ``president
learn --list``, ``president bench``'s text, every lesson as the page receives it, and the
browser page's static text (the HTML and the JavaScript with its comments taken out)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator

import pytest

from president.cli import COMMANDS, main
from president.rules import PRESETS, TWISTS

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "president" / "web" / "static"

#: ``RULES.md`` by case: docs/rules.md, the real page, is fine.
DEVELOPMENT_WORDS = re.compile(r"(?i:seeds? \d{3}|issues? \d+)|/work/|/home/|RULES\.md")


def _clean(text: str, where: str) -> None:
    found = [(m.group(), text[max(0, m.start() - 60):m.end() + 20])
             for m in DEVELOPMENT_WORDS.finditer(text)]
    assert not found, f"{where}: {found}"


def test_the_pattern_finds_what_it_is_for():
    for bad in ("Source: a house-match guide (seed 000, see docs/rules.md)",
                "issue 12's target", "Issue 13 target", "see /work/shared/seeds/", "RULES.md",
                "/home/me/president"):
        assert DEVELOPMENT_WORDS.search(bad), bad
    for fine in ("seed 7 of the deals", "--seed 12", "docs/rules.md", "a first-night guide",
                 "seeds of the deals"):
        assert not DEVELOPMENT_WORDS.search(fine), fine


def _out(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    try:
        status = main(list(argv))
    except SystemExit as e:           # argparse's --help
        status = e.code
    captured = capsys.readouterr()
    assert status == 0, (argv, captured.err)
    return captured.out + captured.err


@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_every_commands_help(command, capsys):
    argv = ["--help"] if command is None else [command, "--help"]
    out = _out(capsys, *argv)
    assert "usage: president" in out
    _clean(out, " ".join(argv))


def test_rules_for_every_preset_and_twist(capsys):
    _clean(_out(capsys, "rules"), "president rules")
    for preset in PRESETS:
        for twist in (None, *TWISTS[preset]):
            name = preset if twist is None else f"{preset}+{twist}"
            out = _out(capsys, "rules", name)
            assert out.startswith(f"Rules: {name}") and "Source: " in out
            _clean(out, f"president rules {name}")


def test_learn_list_and_every_lesson_as_the_page_gets_it(capsys):
    from president.lessons import LESSONS

    out = _out(capsys, "learn", "--list")
    assert all(lesson_id in out for lesson_id in LESSONS)
    _clean(out, "president learn --list")
    for lesson in LESSONS.values():
        _clean("\n".join(_strings(lesson.to_dict(), skip={"record", "source"})),
               f"lesson {lesson.id}")


def _strings(value: Any, skip: set[str]) -> Iterator[str]:
    """Every string in a JSON-ready value, but under the keys ``skip`` (a game record, the
    source's file name: read by code, not shown)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            if k not in skip:
                yield from _strings(v, skip)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v, skip)


def test_bench_text(capsys, monkeypatch):
    """``president bench``'s table and its play-out and expert lines (their timed parts cut
    short: only the words are read)."""
    from president.commands import bench as bench_command
    from president.players import compiled

    real_expert, real_playouts = bench_command.expert_report, compiled.playouts_report
    monkeypatch.setattr(bench_command, "expert_report",
                        lambda **kw: real_expert(**{**kw, "seconds": 0.05}))
    monkeypatch.setattr(compiled, "playouts_report",
                        lambda **kw: real_playouts(**{**kw, "seconds": 0.05}))
    out = _out(capsys, "bench", "--deals", "2", "--no-presets")
    assert "Expert search" in out and "play-outs per searched decision" in out
    _clean(out, "president bench")


def _without_comments(text: str, suffix: str) -> str:
    """The text a page shows or sends: HTML without ``<!-- -->``, JavaScript and CSS without
    ``/* */`` and (JavaScript) ``//`` comments to the end of a line."""
    if suffix == ".html":
        return re.sub(r"<!--.*?-->", "", text, flags=re.DOTALL)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.DOTALL)
    if suffix == ".js":
        text = re.sub(r"(^|[\s;{}(),])//[^\n]*", r"\1", text)
    return text


@pytest.mark.parametrize("path", sorted(p.name for p in STATIC.iterdir()
                                        if p.suffix in (".html", ".js", ".css")))
def test_the_pages_static_text(path):
    file = STATIC / path
    text = _without_comments(file.read_text(encoding="utf-8"), file.suffix)
    assert len(text) > 100
    _clean(text, str(file.relative_to(ROOT)))


def test_comment_stripping_keeps_strings_and_addresses():
    js = 'const a = "see http://x/y"; // seed 003\n/* issue 10 */ b("issue 4");'
    kept = _without_comments(js, ".js")
    assert "http://x/y" in kept and 'b("issue 4")' in kept
    assert "seed 003" not in kept and "issue 10" not in kept


#: Files whose development words are still to go (none now).
NOT_YET: set[str] = set()

#: Docstrings and comments may name a source by its file name or a preset, not by an
#: issue, a development folder or the missing RULES.md.
SOURCE_WORDS = re.compile(r"(?i:\bissues? \d+)|/work/|/home/|\bRULES\.md")


def test_no_issue_numbers_development_folders_or_rules_md_in_the_package_source():
    files = [p for p in sorted((ROOT / "president").rglob("*"))
             if p.suffix in (".py", ".c", ".h", ".js", ".html", ".css")]
    files.append(ROOT / "setup.py")
    assert len(files) > 80
    for file in files:
        where = str(file.relative_to(ROOT))
        if where in NOT_YET:
            continue
        found = SOURCE_WORDS.findall(file.read_text(encoding="utf-8"))
        assert not found, (where, found)
