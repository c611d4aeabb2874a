"""Game records: JSON files that replay to the identical state (format ``president/1``).

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

This module is part of the rules core: standard library only.

>>> from president import Match, Rules
>>> m = Match(Rules.preset("practice"), ["You", "Robin", "Alex", "Sam"], seed=3)
>>> events = m.act(0, m.legal_actions()[0])
>>> result = replay(loads(dumps(m)))
>>> result.ok, result.match.snapshot() == m.snapshot()
(True, True)
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import IO, Any, Iterator, Mapping, Sequence, TypedDict, Unpack

from .actions import PASS, Give, Play
from .cards import Card, cards_from_mask, format_cards, format_mask, mask_from_cards, parse_cards
from .deal import deal_hands
from .errors import IllegalAction, NotationError, PresidentError
from .events import DealEnded, Dealt, Event, Exchanged, Passed, Played, title_for_place
from .match import Match
from .rules import Rules

__all__ = ["FORMAT", "Record", "DealRecord", "ExchangeEntry", "ActionEntry", "RecordError",
           "ReplayError", "ReplayStep", "ReplayResult", "Replayer", "load", "loads", "dump",
           "dumps", "record_from_match", "record_from_finish_orders", "replay", "iter_replay",
           "STAND_IN_SEED"]

FORMAT = "president/1"

_TOP_FIELDS = ("format", "rules", "players", "deals", "comment")
_DEAL_FIELDS = ("dealer", "seating", "hands", "seed", "finish_order", "leader", "exchange",
                "actions", "comment")
# A deal kept by its finishing order has none of these: its cards were at the table.
_PLAYED_FIELDS = ("hands", "seed", "exchange", "actions")
STAND_IN_SEED = 0
"""The seed of the stand-in cards a replay deals for a deal kept by its finishing order
(``deal_hands(players, dealer, STAND_IN_SEED)``): the engine needs hands to start a deal;
these play no part and ``replay`` reports that deal's ``hands`` as ``None``."""
_ACTION_RE = re.compile(r"^\s*(\S+)\s+(\S.*?)\s*$")
_RULES_ERRORS = (PresidentError, TypeError, ValueError, AttributeError, KeyError)
_EXCHANGE_RE = re.compile(r"^\s*(\S+?)\s*>\s*(\S+?)\s+(\S.*?)\s*$")


class RecordError(PresidentError):
    """A record that is not a valid ``president/1`` record (reason ``"bad-record"``).

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


@dataclass(frozen=True)
class Record:
    """A game record: the rules, the player names and the deals.

    Build one with :func:`loads`, :meth:`from_dict` or :func:`record_from_match`.

    Attributes:
        rules: the :class:`~president.rules.Rules` of the match.
        players: names by match player index.
        deals: the deals in order.
    """

    rules: Rules
    players: tuple[str, ...]
    deals: tuple[DealRecord, ...] = ()

    @classmethod
    def from_dict(cls, data: Any) -> "Record":
        """Check and read a decoded JSON record.

        Raises:
            RecordError: on anything that is not a valid ``president/1`` record, with the
                field path in the message and in ``.field``.
        """
        return _read_record(data)

    def to_dict(self) -> dict[str, Any]:
        """The record as a JSON-ready dict; every rule option is spelled out."""
        return {"format": FORMAT, "rules": self.rules.to_dict(), "players": list(self.players),
                "deals": [d.to_dict() for d in self.deals]}


# ----- reading --------------------------------------------------------------------------


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _read_record(data: Any) -> Record:
    if not isinstance(data, Mapping):
        raise RecordError("", f"a record is a JSON object with \"format\": \"{FORMAT}\", "
                          f"not {type(data).__name__}")
    unknown = [k for k in data if k not in _TOP_FIELDS]
    if unknown:
        raise RecordError(str(unknown[0]), f"unknown field; a record has the fields "
                          f"{', '.join(_TOP_FIELDS)}")
    fmt = data.get("format")
    if fmt != FORMAT:
        raise RecordError("format", f"{fmt!r} is not a known record format; this program "
                          f"reads \"{FORMAT}\"" if fmt is not None else
                          f"missing; a record starts with \"format\": \"{FORMAT}\"")
    if "comment" in data and not isinstance(data["comment"], str):
        raise RecordError("comment", "must be a string")
    names = data.get("players")
    if not isinstance(names, list) or not names or not all(isinstance(p, str) for p in names):
        raise RecordError("players", "give the player names as a list of strings, "
                          "e.g. [\"Alex\", \"Blair\", \"Casey\", \"Drew\"]")
    rules_data = data.get("rules")
    if not isinstance(rules_data, Mapping):
        raise RecordError("rules", "give the rules as an object, e.g. {\"preset\": \"house\", "
                          "\"players\": 4}")
    rules_data = dict(rules_data)
    rules_data.setdefault("players", len(names))
    try:
        rules = Rules.from_dict(rules_data)
    except _RULES_ERRORS as e:
        where = f"rules.{e.option}" if hasattr(e, "option") else "rules"
        raise RecordError(where, getattr(e, "message", str(e))) from None
    if len(names) != rules.players:
        raise RecordError("players", f"{len(names)} names for a table of {rules.players} "
                          f"(rules.players); give exactly {rules.players}")
    deals = data.get("deals")
    if not isinstance(deals, list):
        raise RecordError("deals", "give the deals as a list (it may be empty)")
    return Record(rules, tuple(names), tuple(_read_deal(rules, i, d) for i, d in enumerate(deals)))


def _read_seat(value: Any, n: int, where: str, what: str = "seat", context: str = "",
               **loc: Unpack[_Where]) -> int:
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if not _is_int(value):
        raise RecordError(where, f"{what} {value!r}{context} is not a seat number; seats are 0 to "
                          f"{n - 1}", **loc)
    if not 0 <= value < n:
        raise RecordError(where, f"{what} {value}{context} does not exist at a table of {n}; seats "
                          f"are 0 to {n - 1}", **loc)
    seat: int = value
    return seat


def _read_deal(rules: Rules, d: int, data: Any) -> DealRecord:
    n = rules.players
    here = f"deals[{d}]"
    loc = _Where(deal=d, step="deal")
    if not isinstance(data, Mapping):
        raise RecordError(here, "a deal is an object with \"hands\" or \"seed\" and "
                          "\"actions\", or with \"finish_order\" (a deal played with real "
                          "cards)", **loc)
    unknown = [k for k in data if k not in _DEAL_FIELDS]
    if unknown:
        raise RecordError(f"{here}.{unknown[0]}", f"unknown field; a deal has the fields "
                          f"{', '.join(_DEAL_FIELDS)}", **loc)
    if "comment" in data and not isinstance(data["comment"], str):
        raise RecordError(f"{here}.comment", "must be a string", **loc)
    dealer = data.get("dealer")
    if dealer is not None:
        dealer = _read_seat(dealer, n, f"{here}.dealer", "dealer", **loc)
    leader = data.get("leader")
    if leader is not None:
        leader = _read_seat(leader, n, f"{here}.leader", "leader", **loc)
    seating = data.get("seating")
    if seating is not None:
        if not isinstance(seating, list) or sorted(seating) != list(range(n)) \
                or not all(_is_int(p) for p in seating):
            raise RecordError(f"{here}.seating", f"{seating!r} is not an arrangement of the "
                              f"players; give each player index 0 to {n - 1} once, seat 0 "
                              f"first", **loc)
        seating = tuple(seating)
    if "finish_order" in data:
        return _read_order_deal(data, n, here, loc, dealer=dealer, seating=seating,
                                leader=leader)
    hands = seed = None
    if ("hands" in data) == ("seed" in data):
        raise RecordError(here, "give either \"hands\" (the dealt cards per seat) or "
                          "\"seed\" (a whole number for deal_hands), not both or neither", **loc)
    if "seed" in data:
        seed = data["seed"]
        if not _is_int(seed):
            raise RecordError(f"{here}.seed", f"{seed!r} is not a whole number", **loc)
    else:
        hands = _read_hands(data["hands"], n, here, loc)
    exchange = data.get("exchange", [])
    if not isinstance(exchange, list):
        raise RecordError(f"{here}.exchange", "give the exchange as a list of strings like "
                          "\"3>0 2S\"", **loc)
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError(f"{here}.actions", "give the actions as a list of strings like "
                          "\"0 5H 5C\" or \"1 pass\"", **loc)
    return DealRecord(
        hands=hands, seed=seed, dealer=dealer, seating=seating, leader=leader,
        exchange=tuple(_read_exchange(e, n, d, i) for i, e in enumerate(exchange)),
        actions=tuple(_read_action(a, n, d, i) for i, a in enumerate(actions)))


def _read_order_deal(data: Mapping[str, Any], n: int, here: str, loc: _Where,
                     **fields: Any) -> DealRecord:
    # A deal played with real cards, kept by its finishing order. Only the shape is checked
    # here; whether the order names every seat once is the engine's to say on replay
    # (Match.finish_by_order, reason "bad-order"), so the rule is stated once.
    given = [k for k in _PLAYED_FIELDS if k in data]
    if given:
        what = {"hands": "hands", "seed": "seed", "exchange": "exchange transfers",
                "actions": "actions"}[given[0]]
        raise RecordError(f"{here}.{given[0]}", f"a deal kept by its finishing order has no "
                          f"{what}: its cards were played at the table and are not in the "
                          "record; give either \"finish_order\" alone or \"hands\"/\"seed\" "
                          "with \"exchange\" and \"actions\", not both", **loc)
    order = data["finish_order"]
    if not isinstance(order, list):
        raise RecordError(f"{here}.finish_order", f"{order!r} is not a list; give the seats "
                          f"of this deal first out first, each of 0 to {n - 1} once, e.g. "
                          f"{list(range(n))}", **loc)
    return DealRecord(finish_order=tuple(order), **fields)


def _read_hands(value: Any, n: int, here: str, loc: _Where) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) != n:
        count = f"{len(value)} hands" if isinstance(value, list) else repr(value)
        raise RecordError(f"{here}.hands", f"{count} given; give one string of cards per "
                          f"seat, {n} in all, seat 0 first", **loc)
    masks = []
    seen = 0
    for seat, text in enumerate(value):
        where = f"{here}.hands[{seat}]"
        if not isinstance(text, str):
            raise RecordError(where, f"{text!r} is not a string of cards like \"5H 5C 3D\"", **loc)
        try:
            mask = mask_from_cards(parse_cards(text))
        except NotationError as e:
            raise RecordError(where, e.message, **loc) from None
        if not mask:
            raise RecordError(where, f"seat {seat} has no cards; every seat is dealt at "
                              "least one card", **loc)
        if mask & seen:
            raise RecordError(where, f"{format_mask(mask & seen)} already in another hand; "
                              "hands must not share cards", **loc)
        seen |= mask
        masks.append(mask)
    return tuple(masks)


def _read_action(text: Any, n: int, d: int, i: int) -> ActionEntry:
    where = f"deals[{d}].actions[{i}]"
    loc = _Where(deal=d, step="play", index=i)
    m = _ACTION_RE.match(text) if isinstance(text, str) else None
    if m is None:
        raise RecordError(where, f"{text!r} is not an action; write \"seat cards\" such as "
                          "\"2 9S 9D\", or \"seat pass\" such as \"1 pass\"", **loc)
    if not m.group(1).isdigit():
        raise RecordError(where, f"{m.group(1)!r} in {text!r} is not a seat number; write "
                          f"\"seat cards\" or \"seat pass\" with seats 0 to {n - 1}", **loc)
    seat = _read_seat(int(m.group(1)), n, where, "seat", f" in {text!r}", **loc)
    rest = m.group(2)
    if rest.lower() == "pass":
        return ActionEntry(seat, None, text)
    try:
        cards = parse_cards(rest)
    except NotationError as e:
        raise RecordError(where, f"{text!r}: {e.message}", **loc) from None
    return ActionEntry(seat, tuple(sorted(cards)), text)


def _read_exchange(text: Any, n: int, d: int, i: int) -> ExchangeEntry:
    where = f"deals[{d}].exchange[{i}]"
    loc = _Where(deal=d, step="exchange", index=i)
    m = _EXCHANGE_RE.match(text) if isinstance(text, str) else None
    if m is None:
        raise RecordError(where, f"{text!r} is not an exchange transfer; write "
                          "\"giver>receiver cards\" such as \"3>0 2S\"", **loc)
    seats = []
    for part, what in ((m.group(1), "giver"), (m.group(2), "receiver")):
        if not part.isdigit():
            raise RecordError(where, f"{what} {part!r} in {text!r} is not a seat number; "
                              f"seats are 0 to {n - 1}", **loc)
        seats.append(_read_seat(int(part), n, where, what, f" in {text!r}", **loc))
    try:
        mask = mask_from_cards(parse_cards(m.group(3)))
    except NotationError as e:
        raise RecordError(where, f"{text!r}: {e.message}", **loc) from None
    return ExchangeEntry(seats[0], seats[1], mask, text)


def loads(text: str | bytes) -> Record:
    """Read a record from JSON text.

    Raises:
        RecordError: if the text is not JSON or not a valid ``president/1`` record; the
            message names the field (``deals[1].actions[3]: ...``).
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError("", f"not JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    except (UnicodeDecodeError, TypeError) as e:
        raise RecordError("", f"not JSON text: {e}") from None
    except RecursionError:
        raise RecordError("", "not a record: the JSON is nested too deeply") from None
    return _read_record(data)


def load(fp: IO[str] | IO[bytes]) -> Record:
    """Read a record from a file object opened for reading (text or binary).

    Raises:
        RecordError: as :func:`loads`.
    """
    return loads(fp.read())


# ----- writing --------------------------------------------------------------------------


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


# ----- replay ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ReplayError:
    """The first step of a record that the rules refuse.

    Attributes:
        deal: deal index, 0-based.
        step: ``"deal"`` (the deal cannot start), ``"exchange"``, ``"play"`` or
            ``"finish"`` (the ``finish_order`` of a deal played with real cards).
        action: index in the deal's ``exchange`` (step ``"exchange"``) or ``actions``
            (step ``"play"``) list, 0-based; ``None`` for steps ``"deal"`` and ``"finish"``.
        seat: the acting seat, or ``None`` for steps ``"deal"`` and ``"finish"``.
        entry: the entry as written in the record, or ``None``.
        reason: the engine's machine-readable reason (``"not-higher"``, ...).
        message: plain words.
    """

    deal: int
    step: str
    action: int | None
    seat: int | None
    entry: str | None
    reason: str
    message: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict (the ``error`` of ``president replay --json``)."""
        return {"deal": self.deal, "step": self.step, "action": self.action, "seat": self.seat,
                "entry": self.entry, "reason": self.reason, "message": self.message}

    def where(self) -> str:
        """``"deal 1, action 14"``, ``"deal 2, exchange step 0"``, ``"deal 3, finish order"``
        or ``"deal 3"`` (0-based record indexes)."""
        if self.step == "play":
            return f"deal {self.deal}, action {self.action}"
        if self.step == "exchange":
            return f"deal {self.deal}, exchange step {self.action}"
        if self.step == "finish":
            return f"deal {self.deal}, finish order"
        return f"deal {self.deal}"


@dataclass(frozen=True)
class ReplayStep:
    """One step taken by a :class:`Replayer`: a deal started (``step == "deal"``,
    ``index is None``), an exchange transfer, an action, or the finishing order of a deal
    played with real cards (``step == "finish"``, ``index is None``), with the events it
    caused."""

    deal: int
    step: str
    index: int | None
    entry: str | None
    events: tuple[Event, ...]


def _deal_state(match: Match, by_order: bool = False) -> dict[str, Any]:
    state = match.deal.snapshot()
    if by_order:  # played with real cards: the engine's cards are stand-ins, not the deal's
        return {"dealer": match.deal.dealer, "seating": list(match.seating),
                "phase": match.phase, "hands": None, "pile": [], "to_act": None,
                "finish_order": state["finish_order"], "over": state["over"]}
    return {"dealer": match.deal.dealer, "seating": list(match.seating), "phase": match.phase,
            "hands": state["hands"], "pile": state["pile"], "to_act": match.to_act,
            "finish_order": state["finish_order"], "over": state["over"]}


class Replayer:
    """Replays a :class:`Record` step by step; iterate it for :class:`ReplayStep` values.

    While iterating, :attr:`match` is the live state after the latest step (the same
    object each time: copy ``match.snapshot()`` to keep one). Iteration stops after the
    last step, or before the first illegal one, which is then in :attr:`error`.

    Attributes:
        record: the record.
        match: the :class:`~president.match.Match`, or ``None`` until the first deal starts
            (and if it cannot).
        error: the :class:`ReplayError`, or ``None``.
        deal_states: the state of each started deal (see :func:`replay`); complete once
            iteration has ended.
    """

    def __init__(self, record: Record) -> None:
        self.record = record
        self.match: Match | None = None
        self.error: ReplayError | None = None
        self.deal_states: list[dict[str, Any]] = []
        self._done = False

    def __iter__(self) -> Iterator[ReplayStep]:
        if self._done:
            return iter(())
        self._done = True
        return self._run()

    def _fail(self, d: int, step: str, index: int | None, seat: int | None,
              entry: str | None, reason: str, message: str) -> None:
        self.error = ReplayError(d, step, index, seat, entry, reason, message)

    def _finish(self) -> None:
        if self.match is not None and len(self.deal_states) < self.match.deal_number:
            d = self.match.deal_number - 1
            self.deal_states.append(_deal_state(self.match, self.record.deals[d].by_order))

    def _run(self) -> Iterator[ReplayStep]:
        try:
            for d, deal in enumerate(self.record.deals):
                events = self._start(d, deal)
                if events is None:
                    return
                yield ReplayStep(d, "deal", None, None, tuple(events))
                if deal.by_order:
                    entry = _order_text(deal.finish_order)
                    events = self._settle(d, deal, entry)
                    if events is None:
                        return
                    yield ReplayStep(d, "finish", None, entry, tuple(events))
                    continue
                for i, ex in enumerate(deal.exchange):
                    events = self._exchange(d, i, ex)
                    if events is None:
                        return
                    yield ReplayStep(d, "exchange", i, ex.text or str(ex), tuple(events))
                for i, act in enumerate(deal.actions):
                    events = self._act(d, i, act)
                    if events is None:
                        return
                    yield ReplayStep(d, "play", i, act.text or str(act), tuple(events))
        finally:
            self._finish()

    def _start(self, d: int, deal: DealRecord) -> list[Event] | None:
        rules = self.record.rules
        n = rules.players
        match = self.match
        if match is None:
            dealer = n - 1 if deal.dealer is None else deal.dealer
            hands = _hands(deal, n, dealer)
            if hands is None:
                self._fail(d, "deal", None, None, None, "bad-deal", _NO_HANDS)
                return None
            if deal.seating is not None and deal.seating != tuple(range(n)):
                self._fail(d, "deal", None, None, None, "bad-deal",
                           f"seating {list(deal.seating)} is not what the rules give: players "
                           f"sit in order {list(range(n))} for a match's first deal")
                return None
            try:
                self.match = Match(rules, self.record.players, first_dealer=dealer,
                                   hands=hands, leader=deal.leader)
            except PresidentError as e:
                self._fail(d, "deal", None, None, None, e.reason, e.message)
                return None
            return list(self.match.events)
        if match.phase == "match-over":
            self._fail(d, "deal", None, None, None, "match-over",
                       f"the match ended with deal {d - 1}; a new match needs a new record")
            return None
        if match.phase != "between-deals":
            who = match.to_act
            self._fail(d, "deal", None, None, None, "wrong-phase",
                       f"deal {d - 1} has not ended (seat {who} is to "
                       f"{'give cards' if match.phase == 'exchange' else 'act'}); "
                       "list the rest of its actions before starting another deal")
            return None
        self.deal_states.append(_deal_state(match, self.record.deals[d - 1].by_order))
        _seating, want_dealer = match.next_seating_and_dealer()
        dealer = want_dealer if deal.dealer is None else deal.dealer
        hands = _hands(deal, n, dealer)
        if hands is None:
            self._fail(d, "deal", None, None, None, "bad-deal", _NO_HANDS)
            return None
        try:
            return match.start_next_deal(hands=hands, leader=deal.leader, dealer=deal.dealer,
                                         seating=deal.seating)
        except PresidentError as e:
            message = e.message
            if e.reason == "bad-deal" and (deal.seating is not None or deal.dealer is not None):
                message += ("; under by-finish seating the players sit in the last deal's "
                            "finishing order, President in seat 0, and the last seat deals"
                            if rules.seating == "by-finish" else
                            "; under fixed seating nobody moves and the dealer moves one seat "
                            "clockwise each deal")
            self._fail(d, "deal", None, None, None, e.reason, message)
            return None

    def _settle(self, d: int, deal: DealRecord, entry: str) -> list[Event] | None:
        match = self.match
        assert match is not None
        order = deal.finish_order
        try:
            return match.finish_by_order(list(order) if isinstance(order, tuple) else order)
        except IllegalAction as e:
            self._fail(d, "finish", None, None, entry, e.reason, e.message)
            return None

    def _exchange(self, d: int, i: int, ex: ExchangeEntry) -> list[Event] | None:
        match = self.match
        assert match is not None
        entry = ex.text or str(ex)
        if match.phase != "exchange":
            if match.phase == "play":
                if match.exchange_steps:
                    why = (f"the exchange is already complete (all {len(match.exchange_steps)} "
                           "transfers are listed before this one)")
                elif match.deal_number == 1:
                    why = "there is no exchange before the first deal of a match"
                else:
                    why = f"these rules have no exchange (exchange = {match.rules.exchange})"
                self._fail(d, "exchange", i, ex.giver, entry, "wrong-phase",
                           f"{why}; remove this transfer")
            else:
                err = match.refusal(ex.giver, Give(ex.mask))
                assert err is not None
                self._fail(d, "exchange", i, ex.giver, entry, err.reason, err.message)
            return None
        step = match.pending_transfer
        assert step is not None
        if ex.giver == step.giver and ex.receiver != step.receiver:
            title = _title_of_seat(match, step.receiver)
            self._fail(d, "exchange", i, ex.giver, entry, "bad-exchange",
                       f"seat {step.giver} gives to seat {step.receiver} ({title}) now, "
                       f"not to seat {ex.receiver}")
            return None
        try:
            return match.act(ex.giver, Give(ex.mask))
        except IllegalAction as e:
            self._fail(d, "exchange", i, ex.giver, entry, e.reason, e.message)
            return None

    def _act(self, d: int, i: int, act: ActionEntry) -> list[Event] | None:
        match = self.match
        assert match is not None
        entry = act.text or str(act)
        if match.phase == "exchange":
            step = match.pending_transfer
            assert step is not None
            self._fail(d, "play", i, act.seat, entry, "wrong-phase",
                       f"the exchange is not finished: seat {step.giver} must first give "
                       f"{step.count} card{'s' if step.count > 1 else ''} to seat "
                       f"{step.receiver} (list it under \"exchange\")")
            return None
        try:
            action = PASS if act.cards is None else Play.of(act.cards)
            return match.act(act.seat, action)
        except IllegalAction as e:
            message = e.message
            if e.reason == "deal-over" and match.phase == "between-deals":
                message = (f"deal {d} is over (finishing order, by seat: "
                           f"{list(match.deal.finish_order)}); no action follows the end of a "
                           "deal; start the next deal as a new entry of \"deals\"")
            self._fail(d, "play", i, act.seat, entry, e.reason, message)
            return None


def _hands(deal: DealRecord, n: int, dealer: int) -> Sequence[int] | None:
    """The hands a deal starts from: as written, from its seed, or (a deal kept by its
    finishing order) stand-in cards that play no part; ``None`` for a deal with neither
    hands nor seed (one built in code: :func:`loads` refuses it)."""
    if deal.hands is not None:
        return deal.hands
    if deal.by_order:
        return deal_hands(n, dealer, STAND_IN_SEED)
    if deal.seed is None:
        return None
    return deal_hands(n, dealer, deal.seed)


_NO_HANDS = ("the deal has neither \"hands\" nor \"seed\", so there are no cards to replay "
             "it from")


def _order_text(order: Any) -> str:
    """A finishing order as written in the record, as JSON text: ``"[2, 0, 3, 1]"``."""
    try:
        return json.dumps(list(order) if isinstance(order, tuple) else order,
                          ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(order)


def _title_of_seat(match: Match, seat: int) -> str:
    if not match.results:
        return "no title yet"
    order = match.results[-1].finish_order
    player = match.seating[seat]
    return title_for_place(order.index(player) + 1, match.rules.players,
                           naming=match.rules.titles)


@dataclass(frozen=True)
class ReplayResult:
    """The outcome of :func:`replay`.

    Attributes:
        record: the record replayed.
        match: the :class:`~president.match.Match` after the last legal step, or ``None``
            if the first deal could not start.
        error: the first illegal step as a :class:`ReplayError`, or ``None``.
        deals: per started deal, its state at its end (for the last one, after the last
            legal step): ``dealer``, ``seating``, ``phase``, ``hands``, ``pile``, ``to_act``,
            ``finish_order``, ``over`` (see ``docs/records.md``); ``hands`` is ``None``
            and ``pile`` empty for a deal kept by its finishing order.
        steps: number of steps taken (deal starts, exchange transfers, actions and
            finishing orders).
    """

    record: Record
    match: Match | None
    error: ReplayError | None
    deals: tuple[dict[str, Any], ...]
    steps: int

    @property
    def ok(self) -> bool:
        """Whether every step of the record is legal."""
        return self.error is None

    @property
    def scores(self) -> list[int]:
        """Match totals by player index."""
        return list(self.match.scores) if self.match else [0] * self.record.rules.players

    @property
    def match_over(self) -> bool:
        """Whether the match has ended."""
        return self.match is not None and self.match.phase == "match-over"

    @property
    def winners(self) -> list[int]:
        """Winners by player index (empty until the match ends)."""
        return list(self.match.winners) if self.match_over and self.match else []

    @property
    def next_deal(self) -> dict[str, Any] | None:
        """The deal that follows the state after the last legal step, before it is dealt
        (:meth:`~president.match.Match.next_deal_plan`): ``{"number", "dealer", "seating",
        "leader", "exchange"}``, ``number`` counted from 1, seats of that deal. ``None``
        when the match is over or a deal is still being played (stopped part-way); before
        any deal, the match's first deal (dealer: the last seat, as a record's default)."""
        if self.match is None:
            return _first_deal_plan(self.record.rules, self.record.players)
        return self.match.next_deal_plan()

    def to_dict(self) -> dict[str, Any]:
        """The ``president replay --json`` object (see ``docs/records.md``)."""
        return {"ok": self.ok, "error": self.error.to_dict() if self.error else None,
                "deals": [dict(d) for d in self.deals], "scores": self.scores,
                "match_over": self.match_over, "winners": self.winners,
                "winner_names": [self.record.players[p] for p in self.winners],
                "next_deal": self.next_deal}


def _first_deal_plan(rules: Rules, players: Sequence[str]) -> dict[str, Any]:
    """``next_deal`` before a match's first deal: players in order, the last seat deals, no
    exchange, the lead by ``first_lead`` (``None`` for the holder of a card)."""
    n = rules.players
    seating = tuple(range(n))
    # The engine states the opening-lead rule once; a stand-in match asks it.
    match = Match(rules, players, hands=deal_hands(n, n - 1, STAND_IN_SEED), record_events=False)
    return {"number": 1, "dealer": n - 1, "seating": list(seating),
            "leader": match._opening_lead(n - 1, seating, None), "exchange": []}


def iter_replay(record: Record) -> Replayer:
    """A :class:`Replayer` over ``record``: ``for step in iter_replay(r): ...``."""
    return Replayer(record)


def replay(record: Record | Mapping[str, Any] | str) -> ReplayResult:
    """Replay a record and return the state after its last legal step.

    Args:
        record: a :class:`Record`, a decoded JSON dict, or JSON text.

    Returns:
        A :class:`ReplayResult`; ``result.ok`` is false and ``result.error`` says where and
        why if a step is illegal (the state is then the one just before it).

    Raises:
        RecordError: if a dict or text given is not a valid record.
    """
    if isinstance(record, str):
        record = loads(record)
    elif not isinstance(record, Record):
        record = Record.from_dict(record)
    replayer = Replayer(record)
    steps = sum(1 for _ in replayer)
    return ReplayResult(record, replayer.match, replayer.error, tuple(replayer.deal_states),
                        steps)
