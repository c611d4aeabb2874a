"""Typed events: every change of state in a match produces one (STYLE.md, practice 5).

Events are small frozen values. Some carry hidden cards (:class:`Dealt` holds every hand,
:class:`Exchanged` the cards handed over); :func:`visible_to` gives the version a seat may
see (docs/rules.md, "Information"), which is what any player, bot or browser must be sent.
Seats are numbered clockwise within the deal; ``players`` maps seats to match players.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .actions import Play
from .cards import Card

__all__ = ["Event", "Dealt", "Exchanged", "Played", "Passed", "PileCleared", "WentOut",
           "DealEnded", "MatchEnded", "visible_to", "TITLE_NAMINGS", "title_for_place"]


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
        reason: a reason word of :data:`president.kernel.CLEAR_REASONS`: ``"all-passed"``,
            ``"once-around"``, or a clearing option's (``"last-of-rank"``, ...); in words:
            :data:`president.narration.CLEAR_REASONS`.
        winner: seat of the latest play on the cleared pile.
        leader: seat that leads the next pile, or ``None`` if the deal is over.
    """

    reason: str
    winner: int
    leader: int | None


@dataclass(frozen=True, slots=True)
class WentOut:
    """``seat`` played its last cards and took finishing ``place`` (1 = first), which the
    rules name ``title`` (:func:`title_for_place`)."""

    seat: int
    place: int
    title: str


@dataclass(frozen=True, slots=True)
class DealEnded:
    """The deal ended. ``finish_order`` lists seats first to last; ``points[seat]`` were
    scored this deal; ``totals[seat]`` are the match totals after it; ``titles[seat]`` as
    the rules name each place (:func:`title_for_place`)."""

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


TITLE_NAMINGS: dict[str, str] = {
    "places": "President, Vice-President, then 3rd, 4th, ... by finishing place, and last",
    "last-to-finish": "President, Vice-President, then 3rd, 4th, ... by finishing place, "
                      "and last to finish",
    "president-only": "President for first place, then 2nd, 3rd, ... by finishing place, "
                      "and last",
    "roles": "President, Vice-President, Neutral for any seats between, Vice-Scum second to "
             "last and bottom for the last seat; at 3 players President, Neutral, bottom",
}
"""How each source names the finishing places (the ``titles`` option of
:class:`~president.rules.Rules`), in words; :func:`title_for_place` gives the names."""


def title_for_place(place: int, players: int, *, naming: str) -> str:
    """Title of finishing ``place`` (1-based) at a table of ``players``, as the rules'
    ``naming`` (``Rules.titles``, one of :data:`TITLE_NAMINGS`) calls it (docs/rules.md, "Places
    and titles"):

    - ``"places"`` (seed ``000_2ebb75a2290c9d05.txt``, "neutral last-place naming"):
      President, Vice-President, then the places ``"3rd"``, ``"4th"``, ... and ``"last"``.
    - ``"last-to-finish"`` (seed ``001_6a3b64d15368b01c.txt``): President, Vice-President,
      then places, and ``"last to finish"`` for the player still holding cards.
    - ``"president-only"`` (seed ``003_e6cd2942d7a2654f.txt`` read word for word: first
      place is "traditionally President", the others only places, ``"2nd"``, ``"3rd"`` and
      ``"last"``), for a custom table; the ``practice`` preset itself names places as
      ``"places"`` does (docs/rules.md, "Places and titles").
    - ``"roles"`` (seed ``004_7dd5a514fa081721.txt``): President, Vice-President,
      ``"Neutral"`` for the seats between (at 5 or more), ``"Vice-Scum"`` second to last,
      ``"bottom"`` for the last seat; at 3 players no vice ranks: President, Neutral, bottom.

    >>> [title_for_place(p, 4, naming="places") for p in (1, 2, 3, 4)]
    ['President', 'Vice-President', '3rd', 'last']
    >>> [title_for_place(p, 5, naming="roles") for p in (1, 2, 3, 4, 5)]
    ['President', 'Vice-President', 'Neutral', 'Vice-Scum', 'bottom']

    Raises:
        ValueError: an unknown ``naming``, or a place outside 1 to ``players``.
    """
    if naming not in TITLE_NAMINGS:
        raise ValueError(f"no title naming {naming!r}; namings are: {', '.join(TITLE_NAMINGS)}")
    if not 1 <= place <= players:
        raise ValueError(f"place {place} does not exist at a table of {players}")
    if place == 1:
        return "President"
    if naming == "roles":
        if place == players:
            return "bottom"
        if players >= 4 and place == 2:
            return "Vice-President"
        if players >= 4 and place == players - 1:
            return "Vice-Scum"
        return "Neutral"
    if place == players:
        return "last to finish" if naming == "last-to-finish" else "last"
    if place == 2 and naming != "president-only":
        return "Vice-President"
    return f"{place}{'nd' if place == 2 else 'rd' if place == 3 else 'th'}"  # places 2 to 6
