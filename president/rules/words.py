"""The rules in plain words: :func:`describe_items` (each option of a rules value in words,
as the start screen and the table show them), :func:`describe_lines` (``president rules``)
and :func:`options_table` (the options table of docs/rules.md), all made from the one
definition of each option (:data:`~president.rules.OPTIONS`) and the registries.

This module is part of the rules core: standard library only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from .options import OPTIONS
from .presets import PRESET_SOURCES, TWISTS

if TYPE_CHECKING:
    from .value import Rules

__all__ = ["describe_items", "describe_lines", "options_table"]


def options_table() -> str:
    """The options table of docs/rules.md ("Options"), in Markdown, from :data:`OPTIONS`."""
    rows = ["| option | values | meaning | seeds |", "|---|---|---|---|"]
    rows += [f"| `{o.name}` | {o.table_values} | {o.meaning} | {o.sources()} |"
             for o in OPTIONS.values()]
    return "\n".join(rows)


def describe_items(r: Rules, names: Sequence[str] | None = None) -> list[tuple[str, str, str]]:
    """Each option of ``r`` in plain words: ``(option, label, text)`` such as
    ``("beat", "Beat", "same number of cards, strictly higher rank")``, in the order of
    :data:`OPTIONS` (docs/rules.md "Options"; ``give_back`` only with an exchange, ``later_lead``
    only for more than one deal); :data:`OPTION_HELP` explains each ``option``.

    Args:
        r: the rules.
        names: player names by seat; when given, a first lead by seat names its player
            instead of a seat number.
    """
    items: list[tuple[str, str, str]] = []
    for option in OPTIONS.values():
        text = option.words(r, names)
        if text is not None:
            items.append((option.name, option.label, text))
    return items


def describe_lines(r: Rules) -> list[str]:
    """Plain-words lines for each option of ``r`` (used by ``president rules``): the name,
    :func:`describe_items` as ``Label: text``, the preset's twists and its source."""
    lines = [f"Rules: {r.name}"] + [f"{label}: {text}" for _, label, text in describe_items(r)]
    if r.preset_name and TWISTS[r.preset_name]:
        lines.append("Twists available:")
        lines.extend(f"  {name}: {text}" for name, (text, _) in TWISTS[r.preset_name].items())
    if r.preset_name:
        lines.append(f"Source: {PRESET_SOURCES[r.preset_name]} (see docs/rules.md)")
    return lines
