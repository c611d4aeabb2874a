"""The websocket message protocol of the browser game (``docs/web.md``).

Browser → server messages are validated by the pydantic models below (:func:`parse_client`);
anything else gets an ``error`` reply and changes nothing.

Server → browser messages are built here and only here, from the receiving seat's
:class:`~president.observation.Observation` (:func:`state_message`) and from
:func:`~president.events.visible_to` (:func:`event_message`), plus public table facts (names,
computer levels, finished deals). No function here is given a hidden hand.

Cards travel as their notation, ``"10H"``, ``"QS"`` (see :mod:`president.cards`).

What each server → browser message holds is declared in :mod:`president.web.messages`;
:func:`messages_schema` is the JSON Schema of both directions (``docs/messages.schema.json``,
rewritten by ``python -m president.web.protocol --schema > docs/messages.schema.json``).
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any, Literal, Sequence, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from ..actions import PASS, Give, Pass, Play
from ..cards import CARDS, Card, Rank
from ..errors import SHOWN_CHARS, shown, shown_field
from ..events import (DealEnded, Dealt, Event, Exchanged, MatchEnded, PileCleared, Passed,
                      Played, WentOut, title_for_place, visible_to)
from ..narration import (Reader, card_label, exchange_duty, left_holding, narrate, what_beats,
                         why_pass)
from ..observation import Observation, Transfer
from ..rules import Rules
from .messages import ToPage, validate_to_page
from .names import FOR_YOU  # who a sentence names for an action taken for the reader
from .sealing import MAX_SEALED_CHARS

__all__ = ["ClientMessage", "parse_client", "MessageError", "event_message", "state_message",
           "card_text", "error_message", "gone_by_rank", "reader_for", "SPEEDS", "explain",
           "MAX_MESSAGE_CHARS", "MAX_BRACKETS", "readable", "excerpt", "EXCERPT_CHARS",
           "messages_schema", "validate_to_page", "validate_to_server"]

MAX_MESSAGE_CHARS = MAX_SEALED_CHARS + 1_000
"""Largest browser message accepted, in characters (a ``hello`` carrying a sealed record)."""

MAX_BRACKETS = 8
"""Most ``[`` and ``{`` a message may hold (a valid one has at most two): deeper JSON is
refused before it is parsed, so nesting can never exhaust the parser's stack."""

EXCERPT_CHARS = SHOWN_CHARS
"""Most characters of the browser's own input that an error message quotes back."""

_ID = r"^[A-Za-z0-9_-]{8,64}$"
CardText = Annotated[str, Field(min_length=2, max_length=3, pattern=r"^(10|[2-9TJQKAtjqka])[CDHScdhs]$")]


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Hello(_Msg):
    """First message on a socket: join ``table`` as the player holding ``token``. If the server
    no longer has the table, ``snapshot`` (a sealed record it sent earlier) rebuilds it."""

    type: Literal["hello"]
    table: Annotated[str, Field(pattern=_ID)]
    token: Annotated[str, Field(pattern=_ID)]
    snapshot: Annotated[str, Field(max_length=MAX_SEALED_CHARS)] | None = None
    batch: bool = False
    """The client takes ``batch`` messages (several messages in one, in order), which the
    server then sends for a play and the computer replies after it (the page does)."""


class JoinMsg(_Msg):
    """First message on a socket, instead of ``hello``: take a free seat of the open
    ``table`` under ``name`` (docs/web.md, "Open tables"). The ``welcome`` then carries the
    seat's ``token``, which the page keeps to come back as with a seat link."""

    type: Literal["join"]
    table: Annotated[str, Field(pattern=_ID)]
    name: Annotated[str, Field(max_length=200)] = ""
    batch: bool = False


class UnseatMsg(_Msg):
    """The host of an open table frees ``player``'s seat before the match starts: that
    person's page is told (``unseated``) and closed, and the seat is open again."""

    type: Literal["unseat"]
    player: Annotated[int, Field(ge=0, le=12, strict=True)]


class _ActionMsg(_Msg):
    at: Annotated[int, Field(ge=0, le=10_000_000, strict=True)] | None = None
    """Optional: the number of actions the table had when this one was chosen (the
    ``table.actions`` of the state it was chosen in). If the table has moved on since (another
    page of the same seat acted, or a stand-in did), it is refused with ``stale`` and nothing
    changes, instead of being played in a position it was not chosen for."""


class PlayMsg(_ActionMsg):
    """Play these cards (1 to 4 cards of one rank) on the pile."""

    type: Literal["play"]
    cards: Annotated[list[CardText], Field(min_length=1, max_length=4)]


class GiveMsg(_ActionMsg):
    """Give these cards in the exchange (1 or 2)."""

    type: Literal["give"]
    cards: Annotated[list[CardText], Field(min_length=1, max_length=2)]


class PassMsg(_ActionMsg):
    """Pass this turn."""

    type: Literal["pass"]


class HintMsg(_Msg):
    """Ask for one legal option (answered with a ``hint`` message to this socket only),
    chosen by a computer player of ``level`` (default ``simple``, the practice round's computer player)."""

    type: Literal["hint"]
    level: Annotated[str, Field(max_length=24, pattern=r"^[a-z][a-z0-9-]*$")] | None = None


SPEEDS: dict[str, float] = {"slow": 2.0, "normal": 1.0, "fast": 0.4, "instant": 0.0}
"""Pace of the computer players by name: a factor of the server's ``bot_delay`` (seconds
between computer plays; ``normal`` is 0.8 s under ``president serve``)."""


class SpeedMsg(_Msg):
    """Pace the table's computer players: ``slow``, ``normal``, ``fast`` or ``instant``
    (:data:`SPEEDS`). The page sends the speed kept on its device when it joins."""

    type: Literal["speed"]
    speed: Literal["slow", "normal", "fast", "instant"]


class NextDealMsg(_Msg):
    """Deal the next deal of the match (only between deals). At a table for friends: this
    player is ready; the host's ``force`` deals at once."""

    type: Literal["next-deal"]
    force: bool = False


class RematchMsg(_Msg):
    """After the match: ready for a new match with the same seats and rules (the host's
    ``force`` starts it at once)."""

    type: Literal["rematch"]
    force: bool = False


class StartMsg(_Msg):
    """The host ends the waiting room: the match starts."""

    type: Literal["start"]


class SeatMsg(_Msg):
    """The host hands friend seat ``player`` to the stand-in computer (``computer``) or back
    to its person."""

    type: Literal["seat"]
    player: Annotated[int, Field(ge=0, le=6, strict=True)]
    computer: bool


class PauseMsg(_Msg):
    """Stop the computer players (the page is hidden)."""

    type: Literal["pause"]


class ResumeMsg(_Msg):
    """Let the computer players go on."""

    type: Literal["resume"]


ClientMessage = Annotated[Union[Hello, JoinMsg, PlayMsg, GiveMsg, PassMsg, HintMsg, NextDealMsg,
                                PauseMsg, ResumeMsg, SpeedMsg, RematchMsg, StartMsg, SeatMsg,
                                UnseatMsg],
                          Field(discriminator="type")]
_ADAPTER: TypeAdapter[Any] = TypeAdapter(ClientMessage)
_TYPES = ("hello, join, play, give, pass, hint, next-deal, pause, resume, speed, rematch, start, "
          "seat, unseat")


def validate_to_server(text: str | bytes) -> Any:
    """Validate one browser → server message as sent (JSON text) against :data:`ClientMessage`,
    strictly and without :func:`parse_client`'s bounds and friendly errors (for tests: what
    the page sends must be declared here).

    Raises:
        pydantic.ValidationError: a message that is not declared here.
    """
    return _ADAPTER.validate_json(text, strict=True)


def messages_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of both directions, from the pydantic models:
    ``properties.to_server`` is the schema of a browser → server message (the models above),
    ``properties.to_page`` of a server → browser one (:mod:`president.web.messages`); their
    parts are in ``$defs``. Kept in ``docs/messages.schema.json``; rewrite it with
    ``python -m president.web.protocol --schema > docs/messages.schema.json``."""

    class Messages(BaseModel):
        """Every websocket message of the browser game (docs/web.md, "Websocket messages"):
        ``to_server`` is one message a page sends, ``to_page`` one message the server sends."""

        to_server: ClientMessage
        to_page: ToPage

    schema = Messages.model_json_schema()
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "President: the browser game's websocket messages",
            "description": schema.pop("description"),
            **{k: v for k, v in schema.items() if k != "title"}}


def _cut(text: str, limit: int = EXCERPT_CHARS) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


def excerpt(value: Any, limit: int = EXCERPT_CHARS) -> str:
    """Input quoted in an error message (:func:`president.errors.shown`), in quotes whatever
    its type: at most ``limit`` characters then "…", invisible and control characters
    escaped, so a refusal never echoes a long or deceptive input back.

    >>> excerpt("dance"), excerpt("x" * 50), excerpt(5)
    ("'dance'", "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…'", "'5'")
    >>> print(excerpt("a\\u202eb"))
    'a\\u202eb'
    """
    return shown(value if isinstance(value, str) else shown(value, limit), limit)


class MessageError(ValueError):
    """A browser message that is not valid protocol; ``message`` says what was wrong and what
    would be right."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def parse_client(raw: str | bytes) -> Any:
    """Validate one browser message (JSON text) and return its model.

    Raises:
        MessageError: on text that is too long, not JSON, not an object, an unknown ``type``,
            a missing or extra field, or a field of the wrong form.
    """
    if isinstance(raw, bytes):
        try:
            raw = raw.decode()
        except UnicodeDecodeError:
            raise MessageError("the message is not UTF-8 text; send JSON text") from None
    if len(raw) > MAX_MESSAGE_CHARS:
        raise MessageError(f"the message has {len(raw)} characters; the limit is {MAX_MESSAGE_CHARS}")
    opened = raw.count("[") + raw.count("{")
    if opened > MAX_BRACKETS:
        raise MessageError(f"the message opens {opened} brackets; a message is one JSON object "
                           f"with at most {MAX_BRACKETS} (such as {{\"type\": \"play\", \"cards\": [\"9S\"]}})")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise MessageError('the message is not JSON; send an object such as {"type": "pass"}') from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise MessageError('the message must be a JSON object with a "type" (one of '
                           f'{_TYPES}), such as {{"type": "pass"}}')
    try:
        return _ADAPTER.validate_python(data)
    except RecursionError:
        raise MessageError(f"bad {excerpt(data['type'])} message: it nests too deeply") from None
    except ValidationError as e:
        first = e.errors()[0]
        where = _cut(".".join(shown_field(p) for p in first["loc"][1:]) or "type")
        if first["type"] == "union_tag_invalid":
            raise MessageError(f"unknown message type {excerpt(data['type'])}; types are {_TYPES}") from None
        if first["type"] == "too_long" and where == "cards" and data["type"] in ("play", "give"):
            # a player's words: a new player slid over five cards and pressed Play
            n = len(data["cards"])
            raise MessageError(
                f"that is {n} cards: a play is at most 4 cards, all of one rank (a single, a "
                "pair, a triple or four of a kind)" if data["type"] == "play" else
                f"that is {n} cards: the exchange gives at most 2") from None
        hint = ""
        if first["type"] == "string_pattern_mismatch" and "cards" in where:
            hint = ' (a card is its rank and suit letter, such as "9S" or "10H")'
        raise MessageError(f"bad {excerpt(data['type'])} message: {where}: "
                           f"{_cut(first['msg'], 120)}{hint}") from None


def to_action(msg: Any, phase: str) -> Play | Pass | Give:
    """The engine action a ``play``/``give``/``pass`` message asks for.

    Raises:
        president.errors.PresidentError: ``bad-notation`` or ``mixed-ranks`` for cards that are
            no play.
    """
    if isinstance(msg, PassMsg):
        return PASS
    cards = tuple(Card.parse(c) for c in msg.cards)
    if len(set(cards)) != len(cards):
        from ..errors import IllegalAction
        raise IllegalAction("bad-notation", "a card is listed twice; select each card once")
    if isinstance(msg, GiveMsg):
        return Give(cards)
    return Play.of(cards)


# ----- server -> browser ------------------------------------------------------------------


def card_text(card: Card) -> str:
    """A card as a person reads it: ``"10♥"``."""
    return card_label(card)


_CARD_TEXT: tuple[str, ...] = tuple(str(c) for c in CARDS)
"""Each card's notation (``str(card)``) by :attr:`~president.cards.Card.index`, made once."""

_RANK_SYMBOLS: tuple[str, ...] = tuple(rank.symbol for rank in sorted(Rank))
"""Rank symbols, lowest rank first (indexed by rank value)."""


def _cards(cards: Sequence[Card] | None) -> list[str] | None:
    return None if cards is None else [_CARD_TEXT[c.index] for c in cards]


def readable(message: str, names: Sequence[str], seat: int) -> str:
    """An engine message with ``seat N`` replaced by the player's name (``you`` for the
    reader), so a refusal reads in plain words."""
    def name(m: re.Match[str]) -> str:
        s = int(m.group(1))
        if not 0 <= s < len(names):
            return m.group(0)
        if s == seat:
            return "you" if not m.group(2) else "yours"
        return names[s] + (m.group(2) or "")
    return re.sub(r"seat (\d+)('s)?", name, message)


def reader_for(seat: int, names: Sequence[str], player_names: Sequence[str]) -> Reader:
    """The :class:`~president.narration.Reader` of :func:`event_message` for ``seat`` (make it
    once for several events of one deal and pass it as ``reader``)."""
    me = names[seat]  # the reader among the match players (the winners are match players)
    return Reader(tuple(names), seat, player=next(
        (p for p, name in enumerate(player_names) if name == me), None))


def event_message(event: Event, seat: int, names: Sequence[str], players: int,
                  player_names: Sequence[str], leader: int | None = None,
                  rules: Rules | None = None, held: int | None = None,
                  reader: Reader | None = None, for_you: bool = False) -> dict[str, Any]:
    """One event as ``seat`` may see it (:func:`visible_to`), with a sentence for that reader
    (:func:`president.narration.narrate`, the terminal's words too; a heading such as "Deal 2"
    starts the sentence: ``"Deal 2: Robin deals. You lead the first pile."``).

    Args:
        event: an engine event (full information; hidden parts are removed here).
        seat: the reader's seat in the deal.
        names: names by seat; ``player_names`` by match player index.
        players: table size.
        leader: for :class:`Dealt`, the seat that leads the deal.
        rules: the table's rules, when given: the sentences add why a seat leads, the rank
            reversal note and the final scores (see :func:`~president.narration.narrate`).
        held: for :class:`DealEnded`, the cards the last seat is left holding (public: every
            seat sees the card counts). Given, the message carries ``left_holding``: that
            seat, the count and the terminal's sentence for it
            (:func:`~president.narration.left_holding`, "Sam is left holding 1 card: 4th
            place (last).").
        reader: :func:`reader_for` of ``seat``, ``names`` and ``player_names``, if already
            made (the same for every event of one deal).
        for_you: the event is an action a computer took for the reader's own seat (the
            stand-in of an away friend, or the turn timer): its sentence names
            :data:`FOR_YOU` as the actor ("The computer (for you) plays a single ace
            (A♥)."), not "You play".
    """
    ev = visible_to(event, seat)
    if reader is None:
        reader = reader_for(seat, names, player_names)
    actor = ev.giver if isinstance(ev, Exchanged) else \
        ev.seat if isinstance(ev, (Played, Passed)) else None
    if for_you and actor == seat:
        said = list(reader.names)
        said[seat] = FOR_YOU
        reader = Reader(tuple(said), None, symbols=reader.symbols, player=reader.player)
    if isinstance(ev, (Played, Passed)):
        text = _said(ev, reader, rules)
    else:
        text = narrate(ev, reader, leader=leader, rules=rules, player_names=player_names).full
    if isinstance(ev, Dealt):
        return {"type": "event", "kind": "dealt", "deal": ev.deal_number, "dealer": ev.dealer,
                "hand_sizes": list(ev.hand_sizes), "text": text}
    if isinstance(ev, Exchanged):
        return {"type": "event", "kind": "exchanged", "giver": ev.giver, "receiver": ev.receiver,
                "count": ev.count, "forced": ev.forced, "cards": _cards(ev.cards), "text": text}
    if isinstance(ev, Played):
        return {"type": "event", "kind": "played", "seat": ev.seat, "cards": _cards(ev.play.cards),
                "lead": ev.lead, "play": ev.play.kind, "text": text}
    if isinstance(ev, Passed):
        return {"type": "event", "kind": "passed", "seat": ev.seat, "text": text}
    if isinstance(ev, PileCleared):
        return {"type": "event", "kind": "cleared", "reason": ev.reason, "winner": ev.winner,
                "leader": ev.leader, "text": text}
    if isinstance(ev, WentOut):
        return {"type": "event", "kind": "out", "seat": ev.seat, "place": ev.place,
                "title": ev.title, "text": text}
    if isinstance(ev, DealEnded):
        message: dict[str, Any] = {"type": "event", "kind": "deal-ended",
                                   "finish_order": list(ev.finish_order),
                                   "points": list(ev.points), "totals": list(ev.totals),
                                   "titles": list(ev.titles), "text": text}
        if held is not None and ev.finish_order:
            last = ev.finish_order[-1]
            line = left_holding(last, held, len(ev.finish_order), ev.titles[last], reader)
            message["left_holding"] = {"seat": last, "cards": held, "text": line.text}
        return message
    if isinstance(ev, MatchEnded):
        return {"type": "event", "kind": "match-ended", "winners": list(ev.winners),
                "scores": list(ev.scores), "text": text}
    raise TypeError(f"unknown event {ev!r}")  # pragma: no cover


_SAID: dict[tuple[Any, ...], str] = {}
"""Sentences of plays and passes already written, by (event, reader, reversal twist): the
same few are said again and again (a pass, a pair of sevens) to readers with the same names
(the default names of many tables). Emptied when it reaches :data:`_SAID_SIZE` entries."""
_SAID_SIZE = 8192


def _said(ev: Played | Passed, reader: Reader, rules: Rules | None) -> str:
    """``narrate(ev, reader, rules=rules).full`` for a play or a pass, remembered: of the
    rules, such a sentence depends only on whether four of a kind turns the order around
    (:func:`~president.narration.narrate`)."""
    key = (ev, reader, rules is not None and rules.reversal)
    text = _SAID.get(key)
    if text is None:
        if len(_SAID) >= _SAID_SIZE:
            _SAID.clear()
        text = _SAID[key] = narrate(ev, reader, rules=rules).full
    return text


def _action_json(action: Play | Pass | Give) -> Any:
    return "pass" if isinstance(action, Pass) else [_CARD_TEXT[c.index] for c in action.cards]


_RULES_PART: dict[int, tuple[Rules, dict[str, Any]]] = {}
"""The ``rules`` part of a state message by ``id(rules)`` (the rules object kept alongside, so
an id is never reused for other rules while its entry lives)."""


def _rules_part(rules: Rules) -> dict[str, Any]:
    """The ``rules`` part of a state message, worked out once per rules object (a fresh copy
    each time: a message never shares a list with another)."""
    kept = _RULES_PART.get(id(rules))
    if kept is None or kept[0] is not rules:
        if len(_RULES_PART) > 1024:
            _RULES_PART.clear()
        kept = (rules, {"name": rules.name,
                        "scoring": None if rules.scoring is None else tuple(rules.scoring),
                        "match_end": str(rules.match_end), "exchange": rules.exchange,
                        "beat": rules.beat, "give_back": rules.give_back})
        _RULES_PART[id(rules)] = kept
    part = dict(kept[1])
    if part["scoring"] is not None:
        part["scoring"] = list(part["scoring"])
    return part


def state_message(obs: Observation, *, table: dict[str, Any], player: int,
                  levels: Sequence[str], deals: Sequence[dict[str, Any]],
                  winners: Sequence[int] | None, snapshot: str | None) -> dict[str, Any]:
    """The whole table as ``obs.seat`` sees it.

    Args:
        obs: the reader's own observation (the only source of cards here).
        table: public table facts (``id``, ``kind``, ``rules`` name, ``paused``…).
        player: the reader's match player index.
        levels: computer level (or ``"human"``) by match player index.
        deals: public summaries of the finished deals (see ``Table.deals``).
        winners: match player indexes of the winners once the match is over.
        snapshot: the sealed record of the table (opaque), or ``None``.
    """
    n = obs.players
    place = {s: i + 1 for i, s in enumerate(obs.finish_order)}
    seats = [{"seat": s, "player": obs.seating[s], "name": obs.names[s],
              "level": levels[obs.seating[s]], "cards": obs.hand_counts[s],
              "passed": s in obs.passed, "place": place.get(s),
              "title": title_for_place(place[s], n, naming=obs.rules.titles) if s in place
              else None,
              "previous_title": obs.previous_titles[s] or None, "score": obs.scores[s],
              "you": s == obs.seat} for s in range(n)]
    to_beat = obs.to_beat
    pending = obs.pending_exchange
    player_names = [""] * n
    for s, p in enumerate(obs.seating):
        player_names[p] = obs.names[s]
    return {
        "type": "state",
        "table": table,
        "rules": _rules_part(obs.rules),
        "you": {"seat": obs.seat, "player": player},
        "phase": obs.phase,
        "deal": obs.deal_number,
        "dealer": obs.dealer,
        "leader": obs.leader,
        "to_act": obs.to_act,
        "seats": seats,
        "players": player_names,
        "hand": _cards(obs.hand),
        "pile": [{"seat": s, "cards": _cards(p.cards), "text": p.describe()} for s, p in obs.pile],
        "to_beat": None if to_beat is None else {"seat": obs.pile[-1][0], "cards": _cards(to_beat.cards),
                                                 "count": to_beat.count, "kind": to_beat.kind,
                                                 "text": to_beat.describe(),
                                                 "needs": what_beats(to_beat, obs.rules.beat, obs.reversed)},
        "reversed": obs.reversed,
        "cleared": len(obs.cleared),
        "gone": gone_by_rank(obs),
        "finish_order": list(obs.finish_order),
        "legal": [_action_json(a) for a in obs.legal_actions],
        "exchange": {
            "pending": None if pending is None else {"giver": pending.giver, "receiver": pending.receiver,
                                                     "count": pending.count, "forced": pending.forced},
            "mine": [{"giver": g, "receiver": r, "cards": _cards(c)} for g, r, c in obs.exchanges],
        },
        "scores": [0] * n if not deals else list(deals[-1]["totals"]),
        "deals": list(deals),
        "winners": None if winners is None else list(winners),
        "snapshot": snapshot,
        "explain": explain(obs),
    }


def explain(obs: Observation) -> dict[str, str | None]:
    """The rules' words the page shows for ``obs.seat`` now, all from
    :mod:`president.narration` (the terminal's words too), so the page composes no rules
    sentence of its own:

    - ``must_pass``: why you must pass when passing is your only legal action
      (:func:`~president.narration.why_pass`), else ``None``;
    - ``exchange``: the exchange step waiting now, in your words
      (:func:`~president.narration.exchange_duty`: ``"Give your highest card to Sam"``,
      ``"Sam must give their highest card to you"``), else ``None``;
    - ``exchange_then``: after a forced give, the give back that follows it (``"Then
      choose 1 card to give back to Sam"``), else ``None``.

    Names are set in Unicode isolates (U+2068 … U+2069), as the page shows every name, so
    a right-to-left name does not turn the sentence around. No full stops: the page ends
    each sentence.
    """
    step = obs.pending_exchange
    reader = Reader(tuple(f"\u2068{n}\u2069" for n in obs.names), obs.seat)
    back = obs.rules.give_back
    duty = then = None
    if step is not None:
        duty = exchange_duty(step, reader, back)
        if step.forced:
            then = exchange_duty(Transfer(step.receiver, step.giver, step.count, False), reader,
                                 back, then=True)
    return {"must_pass": why_pass(obs), "exchange": duty, "exchange_then": then}


def gone_by_rank(obs: Observation) -> list[list[Any]]:
    """Cards of each rank played face up this deal (the pile and the cleared piles), lowest
    rank first: ``[["3", 2], ["4", 0], ..., ["2", 1]]``. Public information only (docs/rules.md,
    "Information"): never a hand, never a card passed in an exchange."""
    counts = [0] * len(_RANK_SYMBOLS)
    for card in obs.cleared:
        counts[card.rank] += 1
    for _, play in obs.pile:
        for card in play.cards:
            counts[card.rank] += 1
    return [[symbol, n] for symbol, n in zip(_RANK_SYMBOLS, counts)]


def error_message(reason: str, message: str) -> dict[str, Any]:
    """An ``error`` reply: ``reason`` (machine-readable) and ``message`` (plain words)."""
    return {"type": "error", "reason": reason, "message": message}


def _main(argv: Sequence[str] | None = None) -> int:
    """``python -m president.web.protocol --schema``: print :func:`messages_schema` as
    ``docs/messages.schema.json`` holds it."""
    import argparse
    import sys
    parser = argparse.ArgumentParser(prog="python -m president.web.protocol",
                                     description="The browser game's websocket messages.")
    parser.add_argument("--schema", action="store_true", required=True,
                        help="print the JSON Schema of every message (docs/messages.schema.json)")
    parser.parse_args(argv)
    sys.stdout.write(schema_text())
    return 0


def schema_text() -> str:
    """:func:`messages_schema` as the text of ``docs/messages.schema.json``."""
    return json.dumps(messages_schema(), indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    raise SystemExit(_main())
