"""Game records, the whole record: :class:`Record` (rules, player names, deals), read from a
decoded dict (:meth:`Record.from_dict`) or JSON text (:func:`loads`, :func:`load`) and
written back as a dict (:meth:`Record.to_dict`, always in the newest format, :data:`FORMAT`).

The checks behind reading are :mod:`president.records.read`; the parts of a record
(:class:`~president.records.DealRecord` and its entries, the formats, the errors) are
:mod:`president.records.model`, which both use.

This module is part of the rules core: standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO, Any

from ..rules import Rules
from .model import FORMAT, DealRecord
from .read import decode_record, read_parts

__all__ = ["Record", "loads", "load"]


@dataclass(frozen=True)
class Record:
    """A game record: the rules, the player names and the deals.

    Build one with :func:`loads`, :meth:`from_dict` or
    :func:`~president.records.record_from_match`.

    Attributes:
        rules: the :class:`~president.rules.Rules` of the match.
        players: names by match player index.
        deals: the deals in order.
    """

    rules: Rules
    players: tuple[str, ...]
    deals: tuple[DealRecord, ...] = ()

    @classmethod
    def from_dict(cls, data: Any) -> Record:
        """Check and read a decoded JSON record of any format in
        :data:`~president.records.model.FORMATS`, its rules with the meaning of its format
        (:func:`~president.records.model.read_rules`).

        Raises:
            RecordError: on anything that is not a valid record, with the field path in
                the message and in ``.field``.
        """
        return cls(*read_parts(data))

    def to_dict(self) -> dict[str, Any]:
        """The record as a JSON-ready dict in the newest format (:data:`FORMAT`); every rule
        option is spelled out."""
        return {"format": FORMAT, "rules": self.rules.to_dict(), "players": list(self.players),
                "deals": [d.to_dict() for d in self.deals]}


def loads(text: str | bytes) -> Record:
    """Read a record from JSON text.

    Raises:
        RecordError: if the text is not JSON or not a valid record; the message names the
            field (``deals[1].actions[3]: ...``). Hostile text is such an error too: a
            number of more than :data:`~president.records.read.MAX_DIGITS` digits, ``NaN``,
            ``Infinity`` or a number too large for a float, a key given twice in one
            object, half a surrogate pair, or nesting too deep to read.
    """
    return Record.from_dict(decode_record(text))


def load(fp: IO[str] | IO[bytes]) -> Record:
    """Read a record from a file object opened for reading (text or binary).

    Raises:
        RecordError: as :func:`loads`.
    """
    return loads(fp.read())

