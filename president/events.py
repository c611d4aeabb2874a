"""Typed events: every change of state in a match produces one (STYLE.md, practice 5).

Events are small frozen values. Some carry hidden cards (:class:`Dealt` holds every hand,
:class:`Exchanged` the cards handed over); :func:`visible_to` gives the version a seat may
see (RULES.md, "Information"), which is what any player, bot or browser must be sent.
Seats are numbered clockwise within the deal; ``players`` maps seats to match players.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .actions import Play
from .cards import Card

__all__ = ["Event", "Dealt", "Exchanged", "Played", "Passed", "PileCleared", "WentOut",
           "DealEnded", "MatchEnded", "visible_to", "TITLES", "title_for_place"]


@dataclass(frozen=True, slots=True)
class Dealt:
    """A deal began. ``hands[seat]`` is that seat's cards, or ``None`` where hidden.

    Attributes:
        deal_number: 1 for a match's first deal.
        dealer: seat of the dealer.
        seating: ``seating[seat]`` is the match player index sitting there.
        hand_sizes: cards dealt to each seat.
        hands: per seat, the dealt cards (sorted) or ``None`` if not visible.
    """

    deal_number: int
    dealer: int
    seating: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    hands: tuple[tuple[Card, ...] | None, ...]


@dataclass(frozen=True, slots=True)
class Exchanged:
    """``giver`` handed ``count`` cards to ``receiver``; ``cards`` is ``None`` where hidden.

    ``forced`` is true for the bottom's (or Vice-Scum's) compulsory highest cards.
    """

    giver: int
    receiver: int
    count: int
    forced: bool
    cards: tuple[Card, ...] | None


@dataclass(frozen=True, slots=True)
class Played:
    """``seat`` put ``play`` on the pile; ``lead`` is true on an empty pile."""

    seat: int
    play: Play
    lead: bool


@dataclass(frozen=True, slots=True)
class Passed:
    """``seat`` passed."""

    seat: int


@dataclass(frozen=True, slots=True)
class PileCleared:
    """The pile was cleared and its cards are out for the deal.

    Attributes:
        reason: ``"all-passed"``, ``"last-of-rank"`` or ``"once-around"``.
        winner: seat of the latest play on the cleared pile.
        leader: seat that leads the next pile, or ``None`` if the deal is over.
    """

    reason: str
    winner: int
    leader: int | None


@dataclass(frozen=True, slots=True)
class WentOut:
    """``seat`` played its last cards and took finishing ``place`` (1 = first)."""

    seat: int
    place: int


@dataclass(frozen=True, slots=True)
class DealEnded:
    """The deal ended. ``finish_order`` lists seats first to last; ``points[seat]`` were
    scored this deal; ``totals[seat]`` are the match totals after it; ``titles[seat]``."""

    finish_order: tuple[int, ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]
    titles: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class MatchEnded:
    """The match ended. ``winners`` and ``scores`` are by match player index (not seat)."""

    winners: tuple[int, ...]
    scores: tuple[int, ...]


Event = Dealt | Exchanged | Played | Passed | PileCleared | WentOut | DealEnded | MatchEnded


def visible_to(event: Event, seat: int) -> Event:
    """The event as ``seat`` may see it: other hands and others' exchanged cards hidden."""
    if isinstance(event, Dealt):
        return replace(event, hands=tuple(h if i == seat else None
                                          for i, h in enumerate(event.hands)))
    if isinstance(event, Exchanged) and seat not in (event.giver, event.receiver):
        return replace(event, cards=None)
    return event


TITLES = ("President", "Vice-President", "Neutral", "Vice-Scum", "Scum")


def title_for_place(place: int, players: int) -> str:
    """Title of finishing ``place`` (1-based) at a table of ``players`` (RULES.md, "Places and
    titles"): 1 President, 2 Vice-President, last Scum, second-to-last Vice-Scum, else
    Neutral; with 3 players: President, Neutral, Scum."""
    if place == 1:
        return "President"
    if place == players:
        return "Scum"
    if players >= 4 and place == 2:
        return "Vice-President"
    if players >= 4 and place == players - 1:
        return "Vice-Scum"
    return "Neutral"
