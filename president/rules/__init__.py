"""The rule options, presets and twists of docs/rules.md, as one frozen value.

Every option of docs/rules.md ("Options") is defined once, in :data:`OPTIONS`: its name, its
values (a :class:`~enum.StrEnum` per choice, :class:`FirstLead` and :class:`MatchEnd` for the
two structured ones), each value in plain words, what the option means and the seeds it
comes from. Checking a value, reading it from text, writing it in a rules name,
:data:`OPTION_VALUES`, :data:`OPTION_HELP`, :func:`describe_items` and the options table of
docs/rules.md (:func:`options_table`) are all made from that one definition.

:class:`Rules` holds one value per option. Presets (one per seed file) and named twists are
looked up by name in the registries :data:`PRESETS` and :data:`TWISTS`:

>>> r = Rules.preset("house", players=5, twists=["sit-out"])
>>> r.passing == "sit-out", r.scoring, str(r.match_end), r.match_end.target
(True, (2, 1), 'points:11', 11)
>>> r.name
'house+sit-out'
>>> Rules.parse("first-night+swap", players=3).exchange is Exchange.TWO_AND_ONE
True

A rules name also carries the options that differ from what its preset and twists give,
after a ``/`` each, in the order of :data:`OPTIONS`, so that ``Rules.parse(r.name,
players=r.players) == r`` for every rules value:

>>> r = Rules.preset("house", twists=["sit-out"], beat="equal-or-higher", scoring="3,2,1")
>>> r.name
'house+sit-out/beat=equal-or-higher/scoring=3,2,1'
>>> Rules.parse(r.name, players=4) == r
True
>>> Rules(players=5, passing="sit-out").name
'custom/passing=sit-out'

Twists are kept in the order :data:`TWISTS` declares them, so the same twists given in any
order are one value with one name; ``str()`` is the name with the table size written in
where it is not the preset's smallest table, and reads back on its own:

>>> r = Rules.preset("house", players=5, twists=["three-deals", "sit-out"])
>>> r == Rules.parse("house+sit-out+three-deals", players=5), str(r)
(True, 'house+sit-out+three-deals/players=5')
>>> Rules.parse(str(r)) == r
True

Values are checked when a :class:`Rules` is built; a wrong value raises
:class:`~president.errors.RulesError` naming the option and the allowed values.

The package is cut by concern; every name is imported from here (``from president.rules
import Rules``):

- :mod:`~president.rules.options`: each option's one definition (:data:`OPTIONS`,
  :class:`Option`), its values (:class:`Beat`, :class:`Passing`, :class:`Exchange`,
  :class:`GiveBack`, :class:`Seating`, :class:`LaterLead`, :class:`Titles`,
  :class:`FirstLead`, :class:`MatchEnd`) and checks, :data:`OPTION_VALUES`,
  :data:`OPTION_HELP`, :data:`MAX_NUMBER`;
- :mod:`~president.rules.presets`: the registries :data:`PRESETS` and :data:`TWISTS`, with
  :data:`PRESET_SOURCES`, :data:`PRESET_SEEDS` and :data:`TWIST_DEFAULT_ARG`;
- :mod:`~president.rules.value`: :class:`Rules` (``preset``, ``parse``, ``from_dict``,
  ``to_dict``, ``name``, ``str()``);
- :mod:`~president.rules.words`: the rules in plain words (:func:`describe_items`,
  :func:`describe_lines`) and the options table of docs/rules.md (:func:`options_table`).

This package is part of the rules core: standard library only.
"""

from __future__ import annotations

from .options import (MAX_NUMBER, OPTION_HELP, OPTION_VALUES, OPTIONS, Beat, Exchange, FirstLead,
                      GiveBack, LaterLead, MatchEnd, Option, Passing, Seating, Titles)
from .presets import PRESET_SEEDS, PRESET_SOURCES, PRESETS, TWIST_DEFAULT_ARG, TWISTS
from .value import Rules
from .words import describe_items, describe_lines, options_table

__all__ = ["Rules", "PRESETS", "TWISTS", "OPTIONS", "OPTION_VALUES", "OPTION_HELP",
           "PRESET_SEEDS", "PRESET_SOURCES", "Option", "Beat", "Passing", "Exchange",
           "GiveBack", "Seating", "LaterLead", "Titles", "FirstLead", "MatchEnd",
           "describe_items", "options_table", "describe_lines", "MAX_NUMBER",
           "TWIST_DEFAULT_ARG"]
