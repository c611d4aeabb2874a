"""The websocket messages declared once (docs/web.md, "Websocket messages"): the browser →
server models of ``president/web/protocol.py``, the server → browser ones of
``president/web/messages.py``, and their JSON Schema ``docs/messages.schema.json``, which must
be exactly what ``messages_schema()`` makes (rewrite it with
``.venv/bin/python -m president.web.protocol --schema > docs/messages.schema.json``).

The golden transcripts (``tests/test_web_golden.py``), the friends' and open tables' tests
check every message they are sent against the models; here the committed schema itself is
checked against real messages with the ``jsonschema`` package (the test extra)."""

from __future__ import annotations

import functools
import json
import subprocess
import sys
import typing
from pathlib import Path

import orjson
import pytest

pytest.importorskip("fastapi")

from pydantic import ValidationError  # noqa: E402

from president.web import messages as M  # noqa: E402
from president.web import protocol as P  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_FILE = ROOT / "docs" / "messages.schema.json"


def _declared_kinds() -> set[str]:
    return {typing.get_args(typing.get_type_hints(t)["kind"])[0]
            for t in typing.get_args(typing.get_args(M.PageEvent)[0])}


def test_the_committed_schema_is_the_one_the_models_make():
    assert SCHEMA_FILE.read_text(encoding="utf-8") == P.schema_text(), (
        "docs/messages.schema.json is out of date; rewrite it with "
        "python -m president.web.protocol --schema > docs/messages.schema.json")
    schema = P.messages_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert set(schema["properties"]) == {"to_server", "to_page"}
    to_page = schema["properties"]["to_page"]["discriminator"]["mapping"]
    assert sorted(to_page) == ["batch", "error", "event", "hint", "log", "state", "welcome"]
    to_server = schema["properties"]["to_server"]["discriminator"]["mapping"]
    assert sorted(to_server) == sorted(P._TYPES.split(", "))
    assert _declared_kinds() == {"dealt", "exchanged", "played", "passed", "cleared", "out",
                                 "deal-ended", "match-ended", "presence"}


def test_the_schema_is_printed_by_the_module():
    out = subprocess.run([sys.executable, "-m", "president.web.protocol", "--schema"],
                         capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout == SCHEMA_FILE.read_text(encoding="utf-8")
    assert out.stderr == ""


def test_an_undeclared_or_missing_field_or_a_wrong_type_is_refused():
    error = P.error_message("stale", "the table moved on")
    M.validate_to_page(orjson.dumps(error))
    for bad in ({**error, "extra": 1}, {"type": "error", "reason": "stale"},
                {**error, "reason": 5}, {**error, "type": "goodbye"}):
        with pytest.raises(ValidationError):
            M.validate_to_page(orjson.dumps(bad))
    played = {"type": "event", "kind": "played", "seat": 1, "cards": ["9S", "9D"],
              "lead": False, "play": "pair", "text": "Bo plays a pair of nines (9♠ 9♦)."}
    M.validate_to_page(orjson.dumps(played))
    for bad in ({**played, "lead": 0}, {**played, "cards": ["9s"]}, {**played, "seat": "1"},
                {**played, "kind": "dance"}):
        with pytest.raises(ValidationError):
            M.validate_to_page(orjson.dumps(bad))
    hint = {"type": "hint", "cards": None, "pass": True, "text": "Nothing beats it: pass."}
    M.validate_to_page(orjson.dumps(hint))
    with pytest.raises(ValidationError):
        M.validate_to_page(orjson.dumps({**hint, "pass_": True}))


@functools.cache
def _golden_messages() -> list[bytes]:
    from tests.test_web_golden import CASES
    return [m for name in ("practice-a", "friends") for page in CASES[name]() for m in page.sent]


def test_the_golden_transcripts_send_every_declared_type_and_kind():
    sent = [json.loads(m) for m in _golden_messages()]
    inner = [x for m in sent for x in (m["messages"] if m["type"] == "batch" else [m])]
    assert {m["type"] for m in sent} == {"welcome", "log", "state", "event", "hint", "error",
                                         "batch"}
    assert {m["kind"] for m in inner if m["type"] == "event"} == _declared_kinds()


def test_the_committed_schema_accepts_what_is_sent_and_refuses_an_undeclared_field():
    import jsonschema    # (the test extra installs it: never skipped)
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    to_page = jsonschema.Draft202012Validator({"$defs": schema["$defs"],
                                               **schema["properties"]["to_page"]})
    to_server = jsonschema.Draft202012Validator({"$defs": schema["$defs"],
                                                 **schema["properties"]["to_server"]})
    sent = [json.loads(m) for m in _golden_messages()]
    seen: dict[tuple[str, str], int] = {}
    for message in sent:   # up to 25 of each type and kind (the schema is slow to check)
        key = (message["type"], message.get("kind") or message.get("messages", [{}])[0].get("kind", ""))
        seen[key] = seen.get(key, 0) + 1
        if seen[key] <= 25:
            to_page.validate(message)
    assert len(seen) >= 12, seen
    state = next(m for m in sent if m["type"] == "state")
    assert not to_page.is_valid({**state, "extra": 1})
    assert not to_page.is_valid({**state, "table": {**state["table"], "extra": 1}})
    assert not to_page.is_valid({k: v for k, v in state.items() if k != "legal"})
    for message in ({"type": "hello", "table": "t" * 12, "token": "k" * 22, "batch": True},
                    {"type": "play", "cards": ["9S", "9D"], "at": 12}, {"type": "pass", "at": 3},
                    {"type": "join", "table": "t" * 12, "name": "Ana", "batch": True},
                    {"type": "speed", "speed": "fast"}, {"type": "next-deal"}):
        to_server.validate(message)
        P.validate_to_server(json.dumps(message))
    assert not to_server.is_valid({"type": "play", "cards": ["9S"], "extra": 1})
    assert not to_server.is_valid({"type": "speed", "speed": "warp"})
