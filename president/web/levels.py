"""The computer levels of the browser game: which a page may ask for, which decide at once,
which play hints and which stand in for an away friend. Shared by the table
(:mod:`president.web.tables`), its computer players (:mod:`president.web.runner`) and its
hints (:mod:`president.web.hints`)."""

from __future__ import annotations

import functools

from ..players import BUILT_IN, available_levels

__all__ = ["HUMAN", "FAST_LEVELS", "DEFAULT_HINT_LEVEL", "DEFAULT_STANDIN", "known_levels"]

HUMAN = "human"
"""The level of a seat a person plays."""
FAST_LEVELS = frozenset(name for name, level in BUILT_IN.items() if level.fast)
"""Levels that decide in well under a millisecond (:data:`president.players.BUILT_IN`'s
``fast``); any other level (``expert`` searches for a tenth of a second or more) decides in
the :class:`~president.web.thinker.Thinker`'s worker processes so other tables are not held
up."""
DEFAULT_HINT_LEVEL = "simple"
"""The level whose choice a hint gives unless the page names another: the player of the
practice-round source (``003_e6cd2942d7a2654f.txt``), whose hint is one legal option or the
advice to pass; the page may ask any level of :func:`president.players.available_levels`."""
THINK_FALLBACK = "intermediate"
"""The fast level that decides, once, for a slow level whose search failed (its worker
process died twice in a row, or a bot of your own raised), so that the table goes on."""

DEFAULT_STANDIN = "simple"
"""The computer level that plays for an away friend unless the host chose another."""


@functools.cache
def known_levels() -> tuple[str, ...]:
    """:func:`president.players.available_levels`, worked out once per process."""
    return tuple(available_levels())
