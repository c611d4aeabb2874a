"""docs/api.md documents every name ``president`` exports."""

from __future__ import annotations

import re
from pathlib import Path

import president

API = (Path(__file__).resolve().parents[1] / "docs" / "api.md").read_text(encoding="utf-8")


def test_every_exported_name_is_in_the_api_page():
    named = set(re.findall(r"`([A-Za-z_][A-Za-z_0-9]*)", API))
    missing = [name for name in president.__all__ if name not in named]
    assert not missing, missing


def test_the_new_entries_say_what_the_names_are():
    assert president.CARDS[0].index == 0 and len(president.CARDS) == 52
    assert all(president.CARDS[c.index] is c for c in president.CARDS)
    assert "| `CARDS` | the 52 cards as a tuple, in `.index` order" in API
    assert "| `Action` | the type of any action, `Play \\| Pass \\| Give`" in API
    assert "`Event` is the type of any of them" in API
