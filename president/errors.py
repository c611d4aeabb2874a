"""The error family of the engine.

Every error is a :class:`ValueError` subclass carrying a machine-readable ``reason``
(a :class:`Reason`: a ``str`` enum of short kebab-case texts) and a message in plain words that says what was wrong and
what would be right.
"""

from __future__ import annotations

import sys
from enum import StrEnum
from typing import Any

SHOWN_CHARS = 40
"""The most characters of someone's input an error message quotes (:func:`shown`)."""


def shown(value: Any, limit: int = SHOWN_CHARS) -> str:
    """Input quoted in an error message: its ``repr`` (a string's in quotes, invisible and
    control characters escaped), cut to ``limit`` characters then "…", so an error never
    echoes a long or deceptive input back whole.

    >>> print(shown("dance"), shown(["x"] * 30))
    'dance' ['x', 'x', 'x', 'x', 'x', 'x', 'x', 'x',…
    >>> print(shown("a\u202eb"), shown(10 ** 5000))
    'a\u202eb' a number of about 5001 digits
    """
    if isinstance(value, str):
        return repr(value if len(value) <= limit else value[:limit] + "…")
    try:
        text = repr(value)
    except ValueError:          # an int past Python's digit limit for text
        return f"a number of about {value.bit_length() * 30103 // 100000 + 1} digits" \
            if isinstance(value, int) else "a value too long to show"
    return text if len(text) <= limit else text[:limit] + "…"


def shown_field(part: Any) -> str:
    """One step of a validation error's location (a field's name, or an index) for an error
    message, cut as :func:`shown` cuts. The fields this project reads are ASCII names; a
    name the sender made up (an extra field) may draw nothing or stack marks, so any other
    name is written with escapes, every character outside printable ASCII shown as code.

    >>> print(shown_field("cards"), shown_field(0), shown_field("\u3164x"), shown_field("a\u202e"))
    cards 0 \u3164x a\u202e
    """
    text = str(part)
    if not (text.isascii() and text.isprintable()):
        text = ascii(text)[1:-1]
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS] + "…"


class Reason(StrEnum):
    """Every ``reason`` the engine and its adapters (terminal, records, lessons, score sheet,
    environments, web server) give when they refuse something: the ``reason`` of a
    :class:`PresidentError` (and of the web server's ``TableError``), the ``reason`` of a web
    socket ``error`` message and the ``error`` of an HTTP refusal's body.

    A ``str`` enum: a member equals its text (``Reason.STALE == "stale"``), prints as it and
    is written to JSON as it, so code that compares or sends the text keeps working.
    :data:`REASON_TEXT` says what each means; ``python -m president.errors --markdown``
    prints them as the table in docs/api.md.
    """

    # the rules of play (IllegalAction)
    NOT_YOUR_TURN = "not-your-turn"
    NOT_IN_HAND = "not-in-hand"
    MIXED_RANKS = "mixed-ranks"
    WRONG_COUNT = "wrong-count"
    NOT_HIGHER = "not-higher"
    CANNOT_PASS_LEAD = "cannot-pass-lead"
    DEAL_OVER = "deal-over"
    MATCH_OVER = "match-over"
    WRONG_PHASE = "wrong-phase"
    BAD_EXCHANGE = "bad-exchange"
    BAD_NOTATION = "bad-notation"
    BAD_DEAL = "bad-deal"
    BAD_ORDER = "bad-order"
    BAD_SEAT = "bad-seat"
    BAD_PLAYER = "bad-player"
    ILLEGAL_INDEX = "illegal-index"
    # rules, records, lessons, the score sheet
    BAD_RULES = "bad-rules"
    BAD_RECORD = "bad-record"
    BAD_LESSON = "bad-lesson"
    BAD_STEP = "bad-step"
    BAD_MOVE = "bad-move"
    UNKNOWN_LESSON = "unknown-lesson"
    BAD_SHEET = "bad-sheet"
    BAD_NAME = "bad-name"
    SAME_NAME = "same-name"
    BAD_DEALER = "bad-dealer"
    UNKNOWN_NAME = "unknown-name"
    NAME_TWICE = "name-twice"
    MISSING_PLAYER = "missing-player"
    NOTHING_TO_UNDO = "nothing-to-undo"
    # tables of the web server
    BAD_TABLE = "bad-table"
    BAD_LEVEL = "bad-level"
    UNKNOWN_TABLE = "unknown-table"
    NOT_OPEN = "not-open"
    TABLE_FULL = "table-full"
    FULL = "full"
    TOO_MANY_PAGES = "too-many-pages"
    ELSEWHERE = "elsewhere"
    OLD_RECORD = "old-record"
    UNKNOWN_HISTORY = "unknown-history"
    STALE = "stale"
    STANDIN = "standin"
    HOST_ONLY = "host-only"
    UNSEATED = "unseated"
    # the web server's protocol and HTTP
    BAD_MESSAGE = "bad-message"
    BAD_REQUEST = "bad-request"
    BAD_HOST = "bad-host"
    BAD_ORIGIN = "bad-origin"
    BAD_WEBSOCKET = "bad-websocket"
    NOT_FOUND = "not-found"
    METHOD_NOT_ALLOWED = "method-not-allowed"
    TOO_LARGE = "too-large"
    BUSY = "busy"
    STOPPING = "stopping"
    NOT_READY = "not-ready"
    NOT_ALLOWED = "not-allowed"
    METRICS_UNAVAILABLE = "metrics-unavailable"
    STORE_ERROR = "store-error"
    SERVER_ERROR = "server-error"


REASON_TEXT: dict[Reason, str] = {
    Reason.NOT_YOUR_TURN: "another seat is to act, or this seat has gone out",
    Reason.NOT_IN_HAND: "the cards played or given are not all in the hand",
    Reason.MIXED_RANKS: "a play of cards of more than one rank",
    Reason.WRONG_COUNT: "a play of another number of cards than the pile's",
    Reason.NOT_HIGHER: "a play that does not beat the pile",
    Reason.CANNOT_PASS_LEAD: "a pass on an empty pile: the leader must play",
    Reason.DEAL_OVER: "the deal is over; start the next deal first",
    Reason.MATCH_OVER: "the match (or the score sheet's match) is over",
    Reason.WRONG_PHASE: "not an action of this moment (a play during the exchange, a give "
                        "during play, a start before the match or deal can start)",
    Reason.BAD_EXCHANGE: "a give of the wrong number or the wrong cards in the exchange",
    Reason.BAD_NOTATION: "text (or a value) that is not a card, play, pass or action",
    Reason.BAD_DEAL: "a given deal that cannot be: hands, dealer, leader, seating or totals",
    Reason.BAD_ORDER: "a finishing order that does not name every seat once",
    Reason.BAD_SEAT: "a seat that does not exist, or that the host cannot free or hand over",
    Reason.BAD_PLAYER: "a player index that does not exist",
    Reason.ILLEGAL_INDEX: "an environment's action index that its mask refuses",
    Reason.BAD_RULES: "a rule option, preset, twist or table size that is not allowed",
    Reason.BAD_RECORD: "a record (or a saved match, or a sheet's record) that is not valid",
    Reason.BAD_LESSON: "a lesson of the catalog the engine refuses (a bug in the catalog)",
    Reason.BAD_STEP: "a lesson step that does not exist",
    Reason.BAD_MOVE: "a lesson move text that is too long",
    Reason.UNKNOWN_LESSON: "no lesson has this id",
    Reason.BAD_SHEET: "not a score sheet (wrong types, fields, format, too many entries)",
    Reason.BAD_NAME: "a player name that cannot be used (empty, a number, too long, taken, ...)",
    Reason.SAME_NAME: "two seats with one name",
    Reason.BAD_DEALER: "a first dealer who is not one of the seats",
    Reason.UNKNOWN_NAME: "an order names someone who is not at the table",
    Reason.NAME_TWICE: "an order names a player twice",
    Reason.MISSING_PLAYER: "an order leaves out two or more players",
    Reason.NOTHING_TO_UNDO: "undo on an empty sheet",
    Reason.BAD_TABLE: "a new table's kind, names, levels, seed or fill time that cannot be",
    Reason.BAD_LEVEL: "a hint asked of a computer level that does not exist",
    Reason.UNKNOWN_TABLE: "this server has no such table or seat (any more)",
    Reason.NOT_OPEN: "the table is not open to join",
    Reason.TABLE_FULL: "every seat of the table is taken, or it has kept all the actions it can",
    Reason.FULL: "the server holds all the tables it can",
    Reason.TOO_MANY_PAGES: "the seat is already open in as many pages as allowed",
    Reason.ELSEWHERE: "another server process holds the table just now; the page tries again",
    Reason.OLD_RECORD: "a saved match older than the newest this server issued for its table",
    Reason.UNKNOWN_HISTORY: "a saved match this server has no history of",
    Reason.STALE: "an action chosen at an earlier point of the table than now; nothing played",
    Reason.STANDIN: "a computer plays this seat now; the host can hand it back",
    Reason.HOST_ONLY: "only the host can do this",
    Reason.UNSEATED: "the host freed this seat before the match started",
    Reason.BAD_MESSAGE: "a websocket message that is not valid protocol",
    Reason.BAD_REQUEST: "an HTTP request or body of the wrong shape",
    Reason.BAD_HOST: "a request to a host name this server does not answer to",
    Reason.BAD_ORIGIN: "a request from a page of another origin",
    Reason.BAD_WEBSOCKET: "a websocket upgrade request that cannot be served",
    Reason.NOT_FOUND: "nothing at this path",
    Reason.METHOD_NOT_ALLOWED: "an HTTP method this path does not take",
    Reason.TOO_LARGE: "a request body over the limit",
    Reason.BUSY: "too many requests, connections or new tables just now; try again later",
    Reason.STOPPING: "the server is stopping",
    Reason.NOT_READY: "the server cannot take tables just now (readiness check)",
    Reason.NOT_ALLOWED: "the metrics are not served to this address",
    Reason.METRICS_UNAVAILABLE: "this server keeps no metrics",
    Reason.STORE_ERROR: "the server's store could not serve the request",
    Reason.SERVER_ERROR: "the server could not carry out the request",
}
"""One line in plain words per :class:`Reason`: what was refused."""


def as_reason(reason: Reason | str) -> Reason:
    """``reason`` as a :class:`Reason`; a text that is none of them is a :class:`ValueError`
    (a programming error: a typo in a raise site), never a refusal sent on.

    >>> as_reason("stale") is Reason.STALE
    True
    """
    try:
        return Reason(reason)
    except ValueError:
        raise ValueError(f"{reason!r} is not a refusal reason; add it to president.errors.Reason "
                         "(and REASON_TEXT) or use one of its members") from None


def reasons_markdown() -> str:
    """The refusal reasons as the Markdown table of docs/api.md (``python -m president.errors
    --markdown`` prints it)."""
    rows = [f"| `{r.value}` | {REASON_TEXT[r]} |" for r in Reason]
    return "\n".join(["| reason | what was refused |", "|---|---|", *rows]) + "\n"


class PresidentError(ValueError):
    """Base of every error raised by the engine.

    Attributes:
        reason: machine-readable kind of error, e.g. ``Reason.NOT_HIGHER`` (equal to
            ``"not-higher"``). A text given is checked: one that is not a :class:`Reason` is a
            :class:`ValueError` at construction.
        message: plain-words explanation for a person.
    """

    reason: Reason

    def __init__(self, reason: Reason | str, message: str) -> None:
        super().__init__(message)
        self.reason = as_reason(reason)
        self.message = message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.reason.value!r}, {self.message!r})"


class NotationError(PresidentError):
    """Text that is not valid card, play or record notation (reason ``"bad-notation"``)."""

    def __init__(self, message: str) -> None:
        super().__init__(Reason.BAD_NOTATION, message)


class RulesError(PresidentError):
    """An invalid rule option, preset, twist or table size (reason ``"bad-rules"``).

    Attributes:
        option: the option (or ``"preset"``/``"twist"``/``"players"``) that was wrong.
    """

    def __init__(self, option: str, message: str) -> None:
        super().__init__(Reason.BAD_RULES, message)
        self.option = option


class IllegalAction(PresidentError):
    """An action refused by the rules. The game state is left unchanged.

    Reasons: ``not-your-turn``, ``not-in-hand``, ``mixed-ranks``, ``wrong-count``,
    ``not-higher``, ``cannot-pass-lead``, ``deal-over``, ``bad-exchange``,
    ``bad-notation``, ``wrong-phase``, ``match-over``, ``bad-deal``, ``bad-order``,
    ``bad-seat``, ``bad-player``, ``illegal-index`` (:class:`Reason`).
    """


if __name__ == "__main__":
    if sys.argv[1:] != ["--markdown"]:
        sys.exit("usage: python -m president.errors --markdown")
    sys.stdout.write(reasons_markdown())
