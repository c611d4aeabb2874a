"""The server → browser messages of the browser game, declared once (``docs/web.md``,
"Websocket messages"; the browser → server ones are the models of :mod:`.protocol`).

Each message is a :class:`~typing.TypedDict` describing exactly what the server sends today
(the builders in :mod:`.protocol`, :mod:`.state`, :mod:`.tables` and :mod:`.hints` still make
plain dicts): a key that may be missing is ``NotRequired``, a value that may be ``null`` is
``... | None``, and no other key is allowed (``extra="forbid"``). :func:`validate_to_page`
validates a message as the page receives it (JSON text, strictly: no ``"1"`` for ``1``, no ``1`` for
``true``); :func:`president.web.protocol.messages_schema` is the JSON Schema of both
directions, kept in ``docs/messages.schema.json``.
"""

from __future__ import annotations

import functools
from typing import Annotated, Any, Literal, NotRequired, Union

from pydantic import ConfigDict, Field, TypeAdapter, with_config
from typing_extensions import TypedDict

from ..kernel import CLEAR_REASONS
from ..rules import Beat, Exchange, GiveBack

__all__ = ["ToPage", "to_page_adapter", "PageEvent", "validate_to_page"]

_FORBID = ConfigDict(extra="forbid", use_attribute_docstrings=True)

Card = Annotated[str, Field(pattern=r"^(10|[2-9JQKA])[CDHS]$")]
"""A card in notation as the server writes it: ``"9S"``, ``"10H"``, ``"QD"``."""
Cards = list[Card]
Seat = Annotated[int, Field(ge=0)]
"""A seat of the current deal."""
ClearReason = Annotated[str, Field(pattern="^(" + "|".join(
    sorted(r for r in CLEAR_REASONS if r)) + ")$")]
"""Why a pile cleared: one of the kernel's reason words (:data:`president.kernel.CLEAR_REASONS`,
as :attr:`president.events.PileCleared.reason`)."""
Player = Annotated[int, Field(ge=0)]
"""A match player index (a seat's person, whatever seat they have this deal)."""


# ----- welcome -----------------------------------------------------------------------------

@with_config(_FORBID)
class RuleLine(TypedDict):
    """One of the table's rules in plain words (players named, "you" for the reader)."""
    option: str
    label: str
    text: str
    help: str


@with_config(_FORBID)
class Invite(TypedDict):
    """A friend seat's link, for the host."""
    player: Player
    name: str
    token: str


@with_config(_FORBID)
class WelcomeMessage(TypedDict):
    """First message after a join (``hello`` or ``join``)."""
    type: Literal["welcome"]
    table: str
    player: Player
    """Your match player index."""
    name: str
    kind: Literal["practice", "match"]
    rules: list[RuleLine]
    host: Player
    invites: list[Invite]
    """To the host only (every friend seat); ``[]`` to the others and at an open table."""
    token: NotRequired[str]
    """Only after a ``join``: the seat's own new token."""


# ----- event -------------------------------------------------------------------------------

@with_config(_FORBID)
class DealtEvent(TypedDict):
    type: Literal["event"]
    kind: Literal["dealt"]
    deal: int
    dealer: Seat
    hand_sizes: list[int]
    text: str


@with_config(_FORBID)
class ExchangedEvent(TypedDict):
    type: Literal["event"]
    kind: Literal["exchanged"]
    giver: Seat
    receiver: Seat
    count: int
    forced: bool
    cards: Cards | None
    """``null`` unless you gave or received them."""
    text: str


@with_config(_FORBID)
class PlayedEvent(TypedDict):
    type: Literal["event"]
    kind: Literal["played"]
    seat: Seat
    cards: Cards
    lead: bool
    play: Literal["single", "pair", "triple", "quad"]
    text: str


@with_config(_FORBID)
class PassedEvent(TypedDict):
    type: Literal["event"]
    kind: Literal["passed"]
    seat: Seat
    text: str


@with_config(_FORBID)
class ClearedEvent(TypedDict):
    type: Literal["event"]
    kind: Literal["cleared"]
    reason: ClearReason
    winner: Seat
    leader: Seat | None
    text: str


@with_config(_FORBID)
class OutEvent(TypedDict):
    type: Literal["event"]
    kind: Literal["out"]
    seat: Seat
    place: int
    title: str
    text: str


@with_config(_FORBID)
class LeftHolding(TypedDict):
    """The last seat, the cards it is left holding and the terminal's sentence for it."""
    seat: Seat
    cards: int
    text: str


@with_config(_FORBID)
class DealEndedEvent(TypedDict):
    type: Literal["event"]
    kind: Literal["deal-ended"]
    finish_order: list[Seat]
    points: list[int]
    totals: list[int]
    titles: list[str]
    text: str
    left_holding: NotRequired[LeftHolding]


@with_config(_FORBID)
class MatchEndedEvent(TypedDict):
    type: Literal["event"]
    kind: Literal["match-ended"]
    winners: list[Player]
    scores: list[int]
    text: str


@with_config(_FORBID)
class PresenceEvent(TypedDict):
    """Sent live only (never in a ``log``)."""
    type: Literal["event"]
    kind: Literal["presence"]
    player: Player
    what: Literal["joined", "left", "returned", "standin", "filled", "back", "rematch"]
    text: str


GameEvent = Annotated[Union[DealtEvent, ExchangedEvent, PlayedEvent, PassedEvent, ClearedEvent,
                            OutEvent, DealEndedEvent, MatchEndedEvent],
                      Field(discriminator="kind")]
"""An engine event as one seat may see it (:func:`president.web.protocol.event_message`)."""

PageEvent = Annotated[Union[DealtEvent, ExchangedEvent, PlayedEvent, PassedEvent, ClearedEvent,
                            OutEvent, DealEndedEvent, MatchEndedEvent, PresenceEvent],
                      Field(discriminator="kind")]
"""Any ``event`` message: an engine event or a ``presence``."""


# ----- log ---------------------------------------------------------------------------------

@with_config(_FORBID)
class LogMessage(TypedDict):
    """Every event of the match so far as your seat saw it; sent after ``welcome``."""
    type: Literal["log"]
    deal: int
    events: list[GameEvent]


# ----- state -------------------------------------------------------------------------------

@with_config(_FORBID)
class Timer(TypedDict):
    player: Player
    seconds: float


@with_config(_FORBID)
class StateTable(TypedDict):
    """Public table facts."""
    id: str
    kind: Literal["practice", "match"]
    paused: bool
    bot_delay: float
    speed: Literal["slow", "normal", "fast", "instant"]
    actions: int
    humans: list[Player]
    waiting_for_human: bool
    host: Player
    lobby: bool
    match_number: int
    paused_by: str | None
    ready: list[Player]
    standin: str
    grace_seconds: float
    turn_seconds: float | None
    timer: Timer | None
    open: NotRequired[Literal[True]]
    """Only at an open table (with ``claimed`` and ``starts_in``)."""
    claimed: NotRequired[list[Player]]
    starts_in: NotRequired[int | None]


@with_config(_FORBID)
class StateRules(TypedDict):
    name: str
    scoring: list[int] | None
    match_end: str
    exchange: Exchange
    beat: Beat
    give_back: GiveBack


@with_config(_FORBID)
class You(TypedDict):
    seat: Seat
    player: Player


@with_config(_FORBID)
class StateSeat(TypedDict):
    seat: Seat
    player: Player
    name: str
    level: str
    cards: int
    passed: bool
    place: int | None
    title: str | None
    previous_title: str | None
    score: int
    you: bool
    host: bool
    online: bool | None
    """``null`` for a computer's seat."""
    joined: bool | None
    standin: str | None


@with_config(_FORBID)
class PilePlay(TypedDict):
    seat: Seat
    cards: Cards
    text: str


@with_config(_FORBID)
class ToBeat(TypedDict):
    seat: Seat
    cards: Cards
    count: int
    kind: Literal["single", "pair", "triple", "quad"]
    text: str
    needs: str


@with_config(_FORBID)
class PendingExchange(TypedDict):
    giver: Seat
    receiver: Seat
    count: int
    forced: bool


@with_config(_FORBID)
class ExchangeTransfer(TypedDict):
    giver: Seat
    receiver: Seat
    cards: Cards


@with_config(_FORBID)
class StateExchange(TypedDict):
    pending: PendingExchange | None
    mine: list[ExchangeTransfer]


@with_config(_FORBID)
class DealPlace(TypedDict):
    player: Player
    name: str
    title: str
    points: int


@with_config(_FORBID)
class FinishedDeal(TypedDict):
    number: int
    order: list[DealPlace]
    totals: list[int]


@with_config(_FORBID)
class Explain(TypedDict):
    """The rules' words for your seat now, from the server's one explain API (the page
    composes none): ``must_pass``, why you must pass (only a pass is legal); ``exchange``,
    the waiting exchange step; ``exchange_then``, the give back after a forced give. Each
    ``null`` when it does not apply; no full stops."""
    must_pass: str | None
    exchange: str | None
    exchange_then: str | None


@with_config(_FORBID)
class StateMessage(TypedDict):
    """The whole table as your seat sees it; sent after a join and after every change."""
    type: Literal["state"]
    table: StateTable
    rules: StateRules
    you: You
    phase: Literal["exchange", "play", "between-deals", "match-over"]
    deal: int
    dealer: Seat
    leader: Seat | None
    to_act: Seat | None
    seats: list[StateSeat]
    players: list[str]
    hand: Cards
    pile: list[PilePlay]
    to_beat: ToBeat | None
    reversed: bool
    cleared: int
    gone: list[tuple[str, int]]
    finish_order: list[Seat]
    legal: list[Union[Literal["pass"], Cards]]
    exchange: StateExchange
    scores: list[int]
    deals: list[FinishedDeal]
    winners: list[Player] | None
    snapshot: str | None
    """The sealed record (opaque), when the server waits for a human at a match."""
    explain: Explain


# ----- hint, error, batch ------------------------------------------------------------------

HintMessage = TypedDict("HintMessage", {   # "pass" is a keyword: no class syntax
    "type": Literal["hint"],
    "cards": Cards | None,
    "pass": bool,
    "text": str,
})
with_config(_FORBID)(HintMessage)
HintMessage.__doc__ = """The answer to a ``hint``, to the asking socket only (``pass``: the
hint is to pass; ``cards``: the cards to play or give, or ``null``)."""


@with_config(_FORBID)
class ErrorMessage(TypedDict):
    type: Literal["error"]
    reason: str
    message: str


@with_config(_FORBID)
class BatchMessage(TypedDict):
    """The events of one change and the state after it, in order, as one message (to a
    socket whose ``hello`` or ``join`` asked for batches)."""
    type: Literal["batch"]
    messages: list[Annotated[Union[GameEvent, StateMessage], Field(discriminator="type")]]


ToPage = Annotated[Union[WelcomeMessage, LogMessage, StateMessage, PageEvent, HintMessage,
                         ErrorMessage, BatchMessage],
                   Field(discriminator="type")]
"""Any message the server sends a page."""

@functools.cache
def to_page_adapter() -> TypeAdapter[Any]:
    """The validator of :data:`ToPage`, made on first use (about 0.1 s: the server, which
    never validates what it sends, does not pay for it)."""
    return TypeAdapter(ToPage)


def validate_to_page(text: str | bytes) -> Any:
    """Validate one server → page message as sent (JSON text), strictly.

    Raises:
        pydantic.ValidationError: a message that is not declared here.
    """
    return to_page_adapter().validate_json(text, strict=True)
