"""Game records, the parts: what a record's deals hold, its format and versions, and its errors.

:class:`DealRecord` (one deal: its hands or seed, dealer, seating, leader, exchange and
actions, or its finishing order alone), :class:`ExchangeEntry` and :class:`ActionEntry`
(one entry of a deal's lists), each able to give its canonical JSON-ready form
(``to_dict()``, ``str()``); :data:`FORMAT` and :data:`FORMATS`, :func:`read_rules` (a
stored rules dict read with the meaning of the version it was written under),
:data:`STAND_IN_SEED`, and :class:`RecordError`, the error of a record that cannot be read
or written. These are what both the reading (:mod:`president.records.read`) and the whole
record (:class:`~president.records.Record`, :mod:`president.records.record`) need, so
neither imports the other both ways.

This module is part of the rules core: standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, TypedDict

from ..cards import Card, cards_from_mask, format_cards, format_mask
from ..errors import PresidentError
from ..rules import Rules

FORMAT = "president/2"
"""The format every record is written in (``"format"``, the first field of a record)."""

FORMATS = {"president/1": 1, "president/2": 2}
"""Each format this program reads, with the version of its stored rules (see
:func:`read_rules`): ``president/1`` records were written before the ``give_back`` option
existed, ``president/2`` ones with it."""


def read_rules(data: Mapping[str, Any], version: int) -> Rules:
    """A stored rules dict (``rules.to_dict()``, or a sparse one) with the meaning of the
    version it was written under.

    Version 2 (``president/2`` records, saved tables of version 2) is
    :meth:`Rules.from_dict <president.rules.Rules.from_dict>`: options not given come from
    the preset and twists. Version 1 (``president/1`` records, saved tables of version 1) was
    written when every give back was free (any cards), so rules with an exchange and without
    ``give_back`` read as ``give_back = any`` whatever the preset and twists say, and such a
    record replays as it was played; ``{"preset": "first-night", "twists": ["swap"],
    "give_back": "lowest"}`` names the first-night guide's rule in either version.

    Raises:
        RulesError: as :meth:`Rules.from_dict <president.rules.Rules.from_dict>`.
        ValueError: a version that is neither 1 nor 2.
    """
    if version not in (1, 2):
        raise ValueError(f"rules version {version!r} is not one this program reads; it reads 1 and 2")
    rules = Rules.from_dict(data)
    if version == 1 and "give_back" not in data and rules.exchange != "none":
        rules = rules.with_options(give_back="any")
    return rules

STAND_IN_SEED = 0
"""The seed of the stand-in cards a replay deals for a deal kept by its finishing order
(``deal_hands(players, dealer, STAND_IN_SEED)``): the engine needs hands to start a deal;
these play no part and ``replay`` reports that deal's ``hands`` as ``None``."""


class RecordError(PresidentError):
    """A record that cannot be read as one (reason ``"bad-record"``).

    The message starts with the field path, e.g. ``deals[1].actions[3]: ...``.

    Attributes:
        field: path of the offending field (``"rules"``, ``"deals[0].hands[2]"``, ...),
            or ``""`` for the whole file.
        deal: deal index (0-based) or ``None``.
        step: ``"deal"``, ``"exchange"`` or ``"play"`` when the field is inside a deal's
            ``exchange`` or ``actions`` list (``"deal"`` for its other fields), ``"finish"``
            for an order :func:`record_from_finish_orders` cannot write, else ``None``.
        index: index within that list, or ``None``.
    """

    def __init__(self, field_path: str, message: str, *, deal: int | None = None,
                 step: str | None = None, index: int | None = None) -> None:
        super().__init__("bad-record", f"{field_path}: {message}" if field_path else message)
        self.field = field_path
        self.deal = deal
        self.step = step
        self.index = index


class _Where(TypedDict, total=False):
    """Where in a record a :class:`RecordError` is: its keyword arguments."""

    deal: int
    step: str
    index: int


# ----- values ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ExchangeEntry:
    """One transfer of an exchange: ``giver`` hands ``mask``'s cards to ``receiver`` (seats).

    ``text`` is the entry as written (not compared). ``str()`` gives ``"3>0 2S"``.
    """

    giver: int
    receiver: int
    mask: int
    text: str = field(default="", compare=False)

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards handed over, sorted low to high."""
        return cards_from_mask(self.mask)

    def __str__(self) -> str:
        return f"{self.giver}>{self.receiver} {format_mask(self.mask)}"


@dataclass(frozen=True)
class ActionEntry:
    """One action of a deal: ``seat`` plays ``cards`` (sorted), or passes (``cards is None``).

    The cards are real, distinct cards but need not make a play (mixed ranks are an
    illegal action, found by :func:`replay`). ``text`` is the entry as written (not compared).
    ``str()`` gives ``"2 9D 9S"`` or ``"1 pass"``.
    """

    seat: int
    cards: tuple[Card, ...] | None
    text: str = field(default="", compare=False)

    def __str__(self) -> str:
        return f"{self.seat} pass" if self.cards is None else f"{self.seat} {format_cards(self.cards)}"


@dataclass(frozen=True)
class DealRecord:
    """One deal of a record (see ``docs/records.md``, "A deal").

    Attributes:
        hands: card mask per seat as dealt (before the exchange), or ``None`` if ``seed``.
        seed: ``deal_hands(players, dealer, seed)`` gives the hands, or ``None`` if ``hands``.
        dealer: dealer seat, or ``None`` for "as the rules say".
        seating: player index per seat, or ``None`` for "as the rules say".
        leader: seat that leads the first pile, or ``None`` for "as the rules say".
        exchange: the exchange transfers in the order the rules take them.
        actions: the plays and passes in order.
        finish_order: for a deal played with real cards and kept by its finishing order
            only, that order as written (seats first out first, normally a tuple of ints;
            the engine judges it when the record is replayed), else ``None``. Such a deal
            has no ``hands``, ``seed``, ``exchange`` or ``actions``.
    """

    hands: tuple[int, ...] | None = None
    seed: int | None = None
    dealer: int | None = None
    seating: tuple[int, ...] | None = None
    leader: int | None = None
    exchange: tuple[ExchangeEntry, ...] = ()
    actions: tuple[ActionEntry, ...] = ()
    finish_order: Any = None

    @property
    def by_order(self) -> bool:
        """Whether this deal is kept by its finishing order (played with real cards)."""
        return self.finish_order is not None

    def to_dict(self) -> dict[str, Any]:
        """The deal as a JSON-ready dict in canonical notation."""
        out: dict[str, Any] = {}
        if self.dealer is not None:
            out["dealer"] = self.dealer
        if self.seating is not None:
            out["seating"] = list(self.seating)
        if self.by_order:
            order = self.finish_order
            out["finish_order"] = list(order) if isinstance(order, tuple) else order
            if self.leader is not None:
                out["leader"] = self.leader
            return out
        if self.hands is not None:
            out["hands"] = [format_mask(h) for h in self.hands]
        else:
            out["seed"] = self.seed
        if self.leader is not None:
            out["leader"] = self.leader
        if self.exchange:
            out["exchange"] = [str(e) for e in self.exchange]
        out["actions"] = [str(a) for a in self.actions]
        return out
