"""Typed refusals (issue 36): every reason the engine and its adapters give is a member of
:class:`president.errors.Reason`, the enum has no member nobody gives, an unknown reason is
refused when an error is built, and docs/api.md lists the reasons as the enum does.

Members are compared with ``_same`` (name, value, a StrEnum), not ``is``: a run that also
collects president/ for doctests (``--import-mode=importlib``) may load president/errors.py
twice, so the engine's ``Reason`` and the one imported here can be two classes."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from enum import StrEnum
from pathlib import Path

import pytest

from president import IllegalAction, Match, NotationError, PresidentError, RulesError
from president.companion import SheetError
from president.errors import REASON_TEXT, Reason, as_reason, reasons_markdown
from president.lessons import LessonError
from president.records.model import RecordError
from president.rules import Rules

def _same(reason: object, expected: Reason) -> bool:
    """``reason`` is the member ``expected`` of a Reason class."""
    return (isinstance(reason, StrEnum) and type(reason).__name__ == "Reason"
            and reason.name == expected.name and reason == expected.value)


ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "president"
KEBAB = re.compile(r"^[a-z]+(?:-[a-z]+)*$")

# Calls that take a reason, by the callee's name, and the positions their reason may be at:
# the error classes, and the web server's and the tools' ways of refusing (a websocket
# ``error`` message, an HTTP refusal). ``__init__`` is ``super().__init__(reason, ...)``.
REASON_ARGS: dict[str, tuple[int, ...]] = {
    "PresidentError": (0,), "IllegalAction": (0,), "LessonError": (0,), "SheetError": (0,),
    "TableError": (0,), "__init__": (0,), "refuse": (0,), "_refuse": (0, 2),
    "refusal": (1,), "error_message": (0,), "end_hello": (0,), "refused": (1,),
}


def _texts(node: ast.AST) -> list[str]:
    """The kebab-case string constants a reason argument can take: through conditionals,
    ``or``, and ``{...}.get(key, default)``, not into other calls."""
    if isinstance(node, ast.Constant):
        return [node.value] if isinstance(node.value, str) and KEBAB.match(node.value) else []
    if isinstance(node, ast.Call):
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr == "get" and isinstance(f.value, ast.Dict):
            return [t for part in (f.value, *node.args) for t in _texts(part)]
        return []
    return [t for child in ast.iter_child_nodes(node) for t in _texts(child)]


def reasons_in_source() -> dict[str, list[str]]:
    """Every reason written in president/ at a place that gives one, with where."""
    found: dict[str, list[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        where = path.relative_to(ROOT)
        for node in ast.walk(tree):
            texts: list[str] = []
            if isinstance(node, ast.Call):
                f = node.func
                name = f.id if isinstance(f, ast.Name) else (
                    f.attr if isinstance(f, ast.Attribute) else None)
                for i in REASON_ARGS.get(name or "", ()):
                    if i < len(node.args):
                        texts += _texts(node.args[i])
            elif isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == "reason" for t in node.targets):
                texts += _texts(node.value)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                    and node.value.id == "Reason" and node.attr.isupper():
                texts.append(Reason[node.attr].value)
            for text in texts:
                found.setdefault(text, []).append(f"{where}:{getattr(node, 'lineno', '?')}")
    return found


def test_every_reason_given_is_in_the_enum():
    found = reasons_in_source()
    assert len(found) > 40, "the scan found too few reasons; has the code changed shape?"
    unknown = {text: where for text, where in found.items() if text not in Reason.__members__.values()}
    assert not unknown, f"reasons given but not in president.errors.Reason: {unknown}"


def test_the_enum_has_no_unused_member():
    found = reasons_in_source()
    # REASON_TEXT names every member in president/errors.py, so a place there does not count
    # as giving a reason (but the error classes of errors.py give bad-notation and bad-rules
    # with super().__init__, and those places do).
    given = {text for text, where in found.items()
             if any(not w.startswith("president/errors.py") for w in where)
             or text in (Reason.BAD_NOTATION, Reason.BAD_RULES)}
    unused = [r.value for r in Reason if r.value not in given]
    assert not unused, f"members of Reason that nothing gives: {unused}"


def test_every_member_is_described_once():
    assert set(REASON_TEXT) == set(Reason)
    for reason, text in REASON_TEXT.items():
        assert KEBAB.match(reason.value) and text and "\n" not in text and "|" not in text


@pytest.mark.parametrize("make", [
    lambda r: PresidentError(r, "m"), lambda r: IllegalAction(r, "m"),
    lambda r: SheetError(r, "m"), lambda r: LessonError(r, "m")])
def test_an_unknown_reason_is_refused_when_the_error_is_built(make):
    with pytest.raises(ValueError, match="'not-higer' is not a refusal reason"):
        make("not-higer")
    err = make("not-higher")
    assert _same(err.reason, Reason.NOT_HIGHER) and err.reason == "not-higher"


def test_table_error_checks_its_reason_too():
    state = pytest.importorskip("president.web.state")
    with pytest.raises(ValueError, match="is not a refusal reason"):
        state.TableError("no-such-reason", "m")
    assert _same(state.TableError("busy", "m").reason, Reason.BUSY)


def test_the_fixed_reasons_of_the_error_classes():
    assert _same(NotationError("m").reason, Reason.BAD_NOTATION)
    assert _same(RulesError("players", "m").reason, Reason.BAD_RULES)
    assert _same(RecordError("", "m").reason, Reason.BAD_RECORD)


HANDS = ["3C 6C", "4D 4H 2C", "3D 9C 10C", "QC KC AC"]


def test_refusals_of_the_engine_are_typed_and_read_as_before():
    """A sample of illegal actions: each refusal's reason is a Reason, equal to its text,
    printed and written to JSON as that text; ``repr`` reads as before."""
    match = Match(Rules.preset("house", players=4), hands=HANDS)
    samples = {
        Reason.CANNOT_PASS_LEAD: match.refusal(0, "pass"),
        Reason.MIXED_RANKS: match.refusal(0, "3C 6C"),
        Reason.BAD_NOTATION: match.refusal(0, "3Z"),
        Reason.NOT_YOUR_TURN: match.refusal(1, "4D"),
        Reason.NOT_IN_HAND: match.refusal(0, "7C"),
        Reason.BAD_SEAT: match.refusal(9, "4C"),
    }
    match.act(0, "3C")
    samples[Reason.WRONG_COUNT] = match.refusal(1, "4D 4H")
    match.act(1, "4D")
    samples[Reason.NOT_HIGHER] = match.refusal(2, "3D")
    for expected, err in samples.items():
        assert isinstance(err, IllegalAction)
        assert _same(err.reason, expected)
        assert err.reason == expected.value and str(err.reason) == expected.value
        assert f"{err.reason}" == expected.value
        assert json.dumps({"reason": err.reason}) == json.dumps({"reason": expected.value})
        assert repr(err).startswith(f"IllegalAction({expected.value!r}, ")
    with pytest.raises(IllegalAction) as info:
        match.observation(4)
    assert _same(info.value.reason, Reason.BAD_SEAT)


def test_as_reason():
    assert as_reason("stale") is Reason.STALE and as_reason(Reason.STALE) is Reason.STALE
    with pytest.raises(ValueError):
        as_reason("Stale")


def _between_markers(text: str) -> str:
    m = re.search(r"<!-- reasons:begin -->\n(.*?)<!-- reasons:end -->", text, re.S)
    assert m, "docs/api.md lost its <!-- reasons:begin/end --> markers"
    return m.group(1)


def test_the_docs_list_the_reasons_as_the_enum_does():
    docs = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    assert _between_markers(docs) == reasons_markdown(), (
        "docs/api.md's table of reasons is out of date: paste in the output of "
        "python -m president.errors --markdown")


def test_the_markdown_command_prints_the_table():
    out = subprocess.run([sys.executable, "-m", "president.errors", "--markdown"],
                         capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout == reasons_markdown()
