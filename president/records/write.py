"""Game records, writing: a :class:`Record` from a live match or from finishing orders,
and its JSON text.

:func:`record_from_match` writes a live :class:`~president.match.Match` as a record;
:func:`record_from_finish_orders` writes a score sheet of deals played with real cards (each
kept by its finishing order); :func:`dumps` and :func:`dump` give the JSON text of either a
record or a match, laid out by :func:`_format_json` (which ``president replay --json`` also
prints with).

This module is part of the rules core: standard library only.
"""

from __future__ import annotations

import json
from typing import IO, Any, Mapping, Sequence

from ..cards import mask_from_cards
from ..deal import deal_hands
from ..errors import IllegalAction, PresidentError
from ..events import DealEnded, Dealt, Exchanged, Passed, Played
from ..match import Match
from ..rules import Rules
from .model import STAND_IN_SEED, ActionEntry, DealRecord, ExchangeEntry, RecordError, _Where
from .read import _RULES_ERRORS, _is_int, _read_seat
from .record import Record


def record_from_match(match: Match) -> Record:
    """The record of a live :class:`~president.match.Match` so far: every deal with its
    dealt hands, dealer, leader, seating (under ``by-finish``), exchange and actions; a deal
    ended by :meth:`~president.match.Match.finish_by_order` (played with real cards) with
    its dealer, seating and ``finish_order`` only.

    Replaying the result gives a match whose ``snapshot()`` equals ``match.snapshot()``,
    except for the stand-in cards of a deal ended by its finishing order when it is the
    last one (its cards are not in the record; see :data:`STAND_IN_SEED`).

    Raises:
        RecordError: if the match was built with ``record_events=False`` (it has no events
            to write from).
    """
    if not match.events or not isinstance(match.events[0], Dealt):
        raise RecordError("match", "this match keeps no events (built with "
                          "record_events=False), so it cannot be written as a record")
    deals: list[dict[str, Any]] = []
    for ev in match.events:
        if isinstance(ev, Dealt):
            deals.append(dict(dealer=ev.dealer, seating=ev.seating, leader=None,
                              hands=tuple(mask_from_cards(h or ()) for h in ev.hands),
                              exchange=[], actions=[], finish_order=None))
        elif isinstance(ev, Exchanged):
            deals[-1]["exchange"].append(ExchangeEntry(ev.giver, ev.receiver,
                                                       mask_from_cards(ev.cards or ())))
        elif isinstance(ev, Played):
            if deals[-1]["leader"] is None:
                deals[-1]["leader"] = ev.seat
            deals[-1]["actions"].append(ActionEntry(ev.seat, ev.play.cards))
        elif isinstance(ev, Passed):
            deals[-1]["actions"].append(ActionEntry(ev.seat, None))
        elif isinstance(ev, DealEnded) and not deals[-1]["actions"]:
            # Nobody played a card here, yet the deal ended: finish_by_order settled it.
            deals[-1]["finish_order"] = tuple(ev.finish_order)
    if deals[-1]["leader"] is None and deals[-1]["finish_order"] is None:
        deals[-1]["leader"] = match.deal.leader
    by_finish = match.rules.seating == "by-finish"
    out = []
    for d in deals:
        seating = tuple(d["seating"]) if by_finish else None
        if d["finish_order"] is not None:
            out.append(DealRecord(dealer=d["dealer"], seating=seating,
                                  finish_order=d["finish_order"]))
        else:
            out.append(DealRecord(hands=d["hands"], dealer=d["dealer"], seating=seating,
                                  leader=d["leader"], exchange=tuple(d["exchange"]),
                                  actions=tuple(d["actions"])))
    return Record(match.rules, tuple(match.players), tuple(out))


def record_from_finish_orders(rules: Rules | Mapping[str, Any], players: Sequence[str],
                              orders: Sequence[Sequence[int]], *, first_dealer: int | None = None,
                              by: str = "seat") -> Record:
    """The record of a match played with real cards, kept as each deal's finishing order
    (a score sheet, seed ``000_2ebb75a2290c9d05.txt``): for a table companion to export its
    sheet. Each deal is written with its dealer, its seating (under ``by-finish``) and its
    ``finish_order``, as :func:`record_from_match` writes a live match; :func:`dumps` gives
    the JSON text, ``record.to_dict()`` the dict, and :func:`replay` the scores, the winners
    and ``next_deal`` (who deals, sits, leads and gives what next).

    Args:
        rules: the :class:`~president.rules.Rules`, or a dict for ``Rules.from_dict``.
        players: the names, by match player index.
        orders: one finishing order per deal, in order, first out first.
        first_dealer: the first deal's dealer seat (default: the last seat).
        by: ``"seat"`` when the orders list seats of their deal (as a record writes them),
            ``"player"`` when they list match player indices (the same under ``fixed``
            seating; under ``by-finish`` each is turned into seats of the seating the rules
            give that deal).

    Raises:
        RecordError: a bad argument, or an order the engine refuses (``bad-order``: not every
            seat exactly once) or that comes after the match ended; ``.field`` is
            ``deals[i].finish_order``, ``.deal`` the 0-based deal index ``i``, ``.step``
            ``"finish"``, and the message is the engine's.
    """
    if by not in ("seat", "player"):
        raise RecordError("by", f"{by!r} is not a way to give orders; choose \"seat\" or "
                          "\"player\"")
    if not isinstance(rules, Rules):
        try:
            rules = Rules.from_dict(dict(rules))
        except _RULES_ERRORS as e:
            raise RecordError("rules", getattr(e, "message", str(e))) from None
    n = rules.players
    if first_dealer is not None:
        _read_seat(first_dealer, n, "first_dealer", "dealer")
    try:
        match = Match(rules, list(players), first_dealer=first_dealer,
                      hands=deal_hands(n, n - 1 if first_dealer is None else first_dealer,
                                       STAND_IN_SEED))
    except PresidentError as e:
        raise RecordError("players", e.message) from None
    for i, order in enumerate(orders):
        where = f"deals[{i}].finish_order"
        loc = _Where(deal=i, step="finish")
        if match.phase == "match-over":
            raise RecordError(where, f"the match ended with deal {i} (counted from 1); a new "
                              "match needs a new record", **loc)
        if match.phase == "between-deals":
            _seating, dealer = match.next_seating_and_dealer()
            match.start_next_deal(hands=deal_hands(n, dealer, STAND_IN_SEED))
        if by == "player" and isinstance(order, (list, tuple)) and all(
                _is_int(p) and 0 <= p < n for p in order):
            order = [match.seating.index(p) for p in order]
        try:
            match.finish_by_order(list(order) if isinstance(order, tuple) else order)
        except IllegalAction as e:
            raise RecordError(where, e.message, **loc) from None
    if not orders:
        return Record(rules, tuple(players), ())
    return record_from_match(match)


def _as_record(obj: Match | Record) -> Record:
    if isinstance(obj, Record):
        return obj
    if isinstance(obj, Match):
        return record_from_match(obj)
    raise TypeError(f"expected a Record or a Match, not {type(obj).__name__}")


def dumps(obj: Match | Record, *, indent: int | None = 2) -> str:
    """The JSON text of a :class:`Record` or of a live :class:`~president.match.Match`.

    Raises:
        TypeError: for anything else. RecordError: see :func:`record_from_match`.
    """
    data = _as_record(obj).to_dict()
    if indent is None:
        return json.dumps(data, ensure_ascii=False) + "\n"
    return _format_json(data, indent, 0) + "\n"


def _format_json(value: Any, indent: int, level: int) -> str:
    # Like json.dumps(indent=...), but lists of numbers, short lists of strings (twists,
    # scoring, seating) and short objects of numbers (next_deal's transfers) stay on one
    # line; hands, exchange and actions get a line each.
    if isinstance(value, dict):
        if not value:
            return "{}"
        if all(v is None or isinstance(v, (int, float)) for v in value.values()):
            flat = json.dumps(value, ensure_ascii=False)
            if len(flat) <= 72:
                return flat
        pad = " " * (indent * (level + 1))
        items = [f"{pad}{json.dumps(k, ensure_ascii=False)}: {_format_json(v, indent, level + 1)}"
                 for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * (indent * level) + "}"
    if isinstance(value, list):
        flat = json.dumps(value, ensure_ascii=False)
        if not value or all(not isinstance(v, (str, list, dict)) for v in value) or (
                all(isinstance(v, str) for v in value) and len(flat) <= 40):
            return flat
        pad = " " * (indent * (level + 1))
        items = [pad + _format_json(v, indent, level + 1) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + " " * (indent * level) + "]"
    return json.dumps(value, ensure_ascii=False)


def dump(obj: Match | Record, fp: IO[str], *, indent: int | None = 2) -> None:
    """Write :func:`dumps` of ``obj`` to a text file object."""
    fp.write(dumps(obj, indent=indent))
