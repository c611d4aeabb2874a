"""Game records, reading: JSON text decoded (:func:`decode_json`) and a decoded record
checked into its parts (:func:`read_parts`: rules, names, deals), which
:meth:`Record.from_dict <president.records.Record.from_dict>` and
:func:`~president.records.loads` put together; anything that is not a valid record raises
:class:`~president.records.RecordError` naming the field (``deals[1].actions[3]: ...``).
Whether a readable record keeps the rules is for :mod:`president.records.replayer` to say.

This module is part of the rules core: standard library only.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any, Mapping, Unpack

from ..cards import format_mask, mask_from_cards, parse_cards
from ..errors import NotationError, PresidentError, shown, shown_field
from ..rules import Rules
from .model import (FORMAT, FORMATS, ActionEntry, DealRecord, ExchangeEntry, RecordError, _Where,
                    read_rules)

_FORMATS_READ = " and ".join(f'"{f}"' for f in FORMATS)
_TOP_FIELDS = ("format", "rules", "players", "deals", "comment")
_DEAL_FIELDS = ("dealer", "seating", "hands", "seed", "finish_order", "leader", "exchange",
                "actions", "comment")
# A deal kept by its finishing order has none of these: its cards were at the table.
_PLAYED_FIELDS = ("hands", "seed", "exchange", "actions")
_ACTION_RE = re.compile(r"^\s*(\S+)\s+(\S.*?)\s*$")
_RULES_ERRORS = (PresidentError, TypeError, ValueError, AttributeError, KeyError)
_EXCHANGE_RE = re.compile(r"^\s*(\S+?)\s*>\s*(\S+?)\s+(\S.*?)\s*$")


#: The most digits a number in a record may have. Every number a record holds is a seat, a
#: count, points or a deal seed (a match draws seeds of at most 128 bits, 39 digits), so a
#: longer one is hostile or broken; Python itself refuses to read past 4,300 digits.
MAX_DIGITS = 100
_NUMBERS = (f"the numbers this program reads (seats, counts, points, seeds) are whole numbers "
            f"of at most {MAX_DIGITS} digits")
_SURROGATE_RE = re.compile(r"[\ud800-\udfff]")


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


class _Refused:
    """A JSON value :func:`_decode` would not make (a number too long or not finite, a key
    given twice), kept in its place so that :func:`_check_values` names where it stands."""

    __slots__ = ("message",)

    def __init__(self, message: str) -> None:
        self.message = message


def _json_int(text: str) -> int | _Refused:
    digits = len(text) - text.startswith("-")
    if digits > MAX_DIGITS:
        return _Refused(f"a number of {digits:,} digits; {_NUMBERS}")
    return int(text)


def _json_float(text: str) -> float | _Refused:
    value = float(text)
    if not math.isfinite(value):
        return _Refused(f"the number {shown(text)} is too large for a float to hold; {_NUMBERS}")
    return value


def _json_constant(name: str) -> _Refused:
    return _Refused(f"{name} is not a JSON number (JSON has no NaN or Infinity); {_NUMBERS}")


def _json_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            return {"": _Refused(f"the key {shown(key)} is given twice in one object; give "
                                 "each field once")}
        data[key] = value
    return data


def _digits(value: int) -> int:
    """How many digits ``value`` has, without writing it out (Python refuses past 4,300)."""
    size = abs(value)
    count = max(1, int((size.bit_length() - 1) * 0.30102999566398120))
    while size >= 10 ** count:
        count += 1
    return count


def _refusal(value: Any) -> str | None:
    """Why ``value`` cannot stand anywhere in a record (``None``: it may)."""
    if isinstance(value, _Refused):
        return value.message
    if _is_int(value):
        digits = _digits(value) if value.bit_length() > 300 else 0
        if digits > MAX_DIGITS:
            return f"a number of {digits:,} digits; {_NUMBERS}"
    elif isinstance(value, float):
        if not math.isfinite(value):
            return f"{shown(value)} is not a finite number; {_NUMBERS}"
    elif isinstance(value, str):
        odd = _SURROGATE_RE.search(value)
        if odd:
            return (f"the text {shown(value)} holds {ascii(odd.group())[1:-1]}, half of a "
                    "UTF-16 surrogate pair, which is no character; write the text as UTF-8")
    return None


def _check_values(data: Any) -> None:
    """Refuse the first value, in the order of the file, that no record may hold: a number
    of more than :data:`MAX_DIGITS` digits, one that is not finite (``NaN``, ``Infinity``,
    ``1e999``), a key given twice in one object, or text with half a surrogate pair (which
    cannot be written out). The error names its path (``deals[0].seed``), so a hostile
    value deep inside a record is answered as any wrong field is, never by a crash later.

    Raises:
        RecordError: the first such value, with its field path.
    """
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(data, ())]
    seen: set[int] = set()      # a dict built in Python may hold itself: each looked at once
    while stack:
        value, path = stack.pop()
        if isinstance(value, (Mapping, list, tuple)):
            if id(value) in seen:
                continue
            seen.add(id(value))
        if isinstance(value, Mapping):
            if isinstance(value.get(""), _Refused):
                _refuse(path, value[""].message)
            for key in value:
                why = _refusal(key) if isinstance(key, str) else None
                if why is not None:
                    _refuse(path, why)
            stack.extend((v, (*path, k)) for k, v in reversed(list(value.items())))
        elif isinstance(value, (list, tuple)):
            stack.extend((v, (*path, i)) for i, v in reversed(list(enumerate(value))))
        else:
            why = _refusal(value)
            if why is not None:
                _refuse(path, why)


def _refuse(path: tuple[str | int, ...], message: str) -> None:
    field = ""
    for part in path:
        field += f"[{part}]" if isinstance(part, int) else \
            f"{'.' if field else ''}{shown_field(part)}"
    loc: _Where = {}
    if len(path) >= 2 and path[0] == "deals" and isinstance(path[1], int):
        loc = _Where(deal=path[1], step="deal")
        if len(path) >= 4 and path[2] in ("actions", "exchange") and isinstance(path[3], int):
            loc = _Where(deal=path[1], step="play" if path[2] == "actions" else "exchange",
                         index=path[3])
    raise RecordError(field, message, **loc)


def _decode(text: str | bytes) -> Any:
    """JSON text decoded, each value no record may hold left as a :class:`_Refused` in its
    place (for :func:`_check_values`); the text's own faults raise :class:`RecordError`."""
    try:
        return json.loads(text, parse_int=_json_int, parse_float=_json_float,
                          parse_constant=_json_constant, object_pairs_hook=_json_object)
    except json.JSONDecodeError as e:
        raise RecordError("", f"not JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    except (UnicodeDecodeError, TypeError) as e:
        raise RecordError("", f"not JSON text: {e}") from None
    except RecursionError:
        raise RecordError("", "not JSON this program reads: it is nested too deeply (a record or "
                          "score sheet is only a few levels deep)") from None


def decode_json(text: str | bytes) -> Any:
    """JSON text decoded as :func:`loads` reads a record, for any file of this program (a
    score sheet too): hostile text is refused in words, never by a crash.

    Raises:
        RecordError: not JSON text, nested too deeply, or holding a value no record may
            (see :func:`_check_values`); the message names its path (``first_dealer: ...``).
    """
    data = _decode(text)
    _check_values(data)
    return data


def decode_record(text: str | bytes) -> Any:
    """JSON text decoded for :func:`read_parts`: hostile values are left in place for it to
    refuse by their path; the text's own faults raise :class:`RecordError`."""
    return _decode(text)


def read_parts(data: Any) -> tuple[Rules, tuple[str, ...], tuple[DealRecord, ...]]:
    """A decoded record checked: its rules (read with the meaning of its format, see
    :func:`~president.records.model.read_rules`), its player names and its deals.

    Raises:
        RecordError: on anything that is not a valid record, naming the field.
    """
    _check_values(data)
    if not isinstance(data, Mapping):
        raise RecordError("", f"a record is a JSON object with \"format\": \"{FORMAT}\", "
                          f"not {type(data).__name__}")
    unknown = [k for k in data if k not in _TOP_FIELDS]
    if unknown:
        raise RecordError(str(unknown[0]), f"unknown field; a record has the fields "
                          f"{', '.join(_TOP_FIELDS)}")
    fmt = data.get("format")
    if not isinstance(fmt, str) or fmt not in FORMATS:
        raise RecordError("format", f"{shown(fmt)} is not a known record format; this program "
                          f"reads {_FORMATS_READ}" if fmt is not None else
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
        rules = read_rules(rules_data, FORMATS[fmt])
    except _RULES_ERRORS as e:
        # the option named in the path is someone's input too: cut as any quote
        option = getattr(e, "option", None)
        where = f"rules.{shown(option)[1:-1]}" if isinstance(option, str) else "rules"
        raise RecordError(where, getattr(e, "message", str(e))) from None
    if len(names) != rules.players:
        raise RecordError("players", f"{len(names)} names for a table of {rules.players} "
                          f"(rules.players); give exactly {rules.players}")
    deals = data.get("deals")
    if not isinstance(deals, list):
        raise RecordError("deals", "give the deals as a list (it may be empty)")
    return rules, tuple(names), tuple(_read_deal(rules, i, d) for i, d in enumerate(deals))


def _read_seat(value: Any, n: int, where: str, what: str = "seat", context: str = "",
               **loc: Unpack[_Where]) -> int:
    digits = value.strip() if isinstance(value, str) else ""
    if digits.isascii() and digits.isdigit() and len(digits) <= 9:
        value = int(digits)          # (other digits, or a longer run, are no seat: left as text)
    if not _is_int(value):
        raise RecordError(where, f"{what} {shown(value)}{context} is not a seat number; seats are 0 to "
                          f"{n - 1}", **loc)
    if not 0 <= value < n:
        raise RecordError(where, f"{what} {shown(value)}{context} does not exist at a table of {n}; seats "
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
        if not isinstance(seating, list) or not all(_is_int(p) for p in seating) \
                or sorted(seating) != list(range(n)):
            raise RecordError(f"{here}.seating", f"{shown(seating)} is not an arrangement of the "
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
            raise RecordError(f"{here}.seed", f"{shown(seed)} is not a whole number", **loc)
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
        raise RecordError(f"{here}.finish_order", f"{shown(order)} is not a list; give the seats "
                          f"of this deal first out first, each of 0 to {n - 1} once, e.g. "
                          f"{list(range(n))}", **loc)
    return DealRecord(finish_order=tuple(order), **fields)


def _read_hands(value: Any, n: int, here: str, loc: _Where) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) != n:
        count = f"{len(value)} hands" if isinstance(value, list) else shown(value)
        raise RecordError(f"{here}.hands", f"{count} given; give one string of cards per "
                          f"seat, {n} in all, seat 0 first", **loc)
    masks = []
    seen = 0
    for seat, text in enumerate(value):
        where = f"{here}.hands[{seat}]"
        if not isinstance(text, str):
            raise RecordError(where, f"{shown(text)} is not a string of cards like \"5H 5C 3D\"", **loc)
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
        raise RecordError(where, f"{shown(text)} is not an action; write \"seat cards\" such as "
                          "\"2 9S 9D\", or \"seat pass\" such as \"1 pass\"", **loc)
    if not m.group(1).isdigit():
        raise RecordError(where, f"{shown(m.group(1))} in {shown(text)} is not a seat number; write "
                          f"\"seat cards\" or \"seat pass\" with seats 0 to {n - 1}", **loc)
    seat = _read_seat(m.group(1), n, where, "seat", f" in {shown(text)}", **loc)
    rest = m.group(2)
    if rest.lower() == "pass":
        return ActionEntry(seat, None, text)
    try:
        cards = parse_cards(rest)
    except NotationError as e:
        raise RecordError(where, f"{shown(text)}: {e.message}", **loc) from None
    return ActionEntry(seat, tuple(sorted(cards)), text)


def _read_exchange(text: Any, n: int, d: int, i: int) -> ExchangeEntry:
    where = f"deals[{d}].exchange[{i}]"
    loc = _Where(deal=d, step="exchange", index=i)
    m = _EXCHANGE_RE.match(text) if isinstance(text, str) else None
    if m is None:
        raise RecordError(where, f"{shown(text)} is not an exchange transfer; write "
                          "\"giver>receiver cards\" such as \"3>0 2S\"", **loc)
    seats = []
    for part, what in ((m.group(1), "giver"), (m.group(2), "receiver")):
        if not part.isdigit():
            raise RecordError(where, f"{what} {shown(part)} in {shown(text)} is not a seat number; "
                              f"seats are 0 to {n - 1}", **loc)
        seats.append(_read_seat(part, n, where, what, f" in {shown(text)}", **loc))
    try:
        mask = mask_from_cards(parse_cards(m.group(3)))
    except NotationError as e:
        raise RecordError(where, f"{shown(text)}: {e.message}", **loc) from None
    return ExchangeEntry(seats[0], seats[1], mask, text)
