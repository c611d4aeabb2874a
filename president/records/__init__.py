"""Game records: JSON files that replay to the identical state (format ``president/2``;
``president/1`` records are read too, with their older meaning).

The format is described in ``docs/records.md``. The API follows :mod:`json`:
:func:`load`/:func:`loads` read a :class:`Record`, :func:`dump`/:func:`dumps` write one
(from a :class:`Record` or a live :class:`~president.match.Match`), and :func:`replay`
plays a record through the rules engine, stopping at the first step the rules refuse.
A deal played with real cards is kept as its finishing order alone (``"finish_order"``,
replayed by :meth:`~president.match.Match.finish_by_order`);
:func:`record_from_finish_orders` writes a whole score sheet of them.

Two kinds of error are kept apart. A record that cannot be read (not JSON, wrong format,
bad rules, bad card text, a seat that does not exist, overlapping hands) raises
:class:`RecordError` from :func:`loads`, naming the field. A readable record that breaks the
rules replays up to the last legal step and reports the first illegal one as a
:class:`ReplayError` (deal index, step, action index, reason) in the :class:`ReplayResult`.

The package is cut by concern; every name is imported from here
(``from president.records import replay``):

- :mod:`~president.records.model`: the parts of a record (:class:`DealRecord`,
  :class:`ExchangeEntry`, :class:`ActionEntry`), :data:`FORMAT`, :data:`FORMATS`,
  :func:`read_rules` (a stored rules dict with the meaning of its version),
  :data:`STAND_IN_SEED` and :class:`RecordError`;
- :mod:`~president.records.read`: the checks of a decoded record, and ``decode_json``;
- :mod:`~president.records.record`: :class:`Record`, :func:`loads`, :func:`load`;
- :mod:`~president.records.write`: :func:`record_from_match`,
  :func:`record_from_finish_orders`, :func:`dumps`, :func:`dump`;
- :mod:`~president.records.replayer`: :func:`replay`, :func:`iter_replay`,
  :class:`Replayer`, :class:`ReplayStep`, :class:`ReplayResult`, :class:`ReplayError`.

This package is part of the rules core: standard library only.

>>> from president import Match, Rules
>>> m = Match(Rules.preset("practice"), ["You", "Robin", "Alex", "Sam"], seed=3)
>>> events = m.act(0, m.legal_actions()[0])
>>> result = replay(loads(dumps(m)))
>>> result.ok, result.match.snapshot() == m.snapshot()
(True, True)
"""

from __future__ import annotations

from .model import (FORMAT, FORMATS, STAND_IN_SEED, ActionEntry, DealRecord, ExchangeEntry,
                    RecordError, read_rules)
from .record import Record, load, loads
from .replayer import (ReplayError, Replayer, ReplayResult, ReplayStep, count_deals_from_1,
                       iter_replay, replay)
# Not public: ``president replay --json`` prints with the records' own JSON layout.
from .write import _format_json as _format_json
from .write import dump, dumps, record_from_finish_orders, record_from_match

__all__ = ["FORMAT", "FORMATS", "read_rules", "Record", "DealRecord", "ExchangeEntry", "ActionEntry", "RecordError",
           "ReplayError", "ReplayStep", "ReplayResult", "Replayer", "load", "loads", "dump",
           "dumps", "record_from_match", "record_from_finish_orders", "replay", "iter_replay",
           "STAND_IN_SEED", "count_deals_from_1"]
