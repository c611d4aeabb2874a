"""What one seat may know (docs/rules.md, "Information"), as a frozen value, and the
:class:`Transfer` (one exchange step) it may show as waiting.

A player, bot or browser is only ever handed its own :class:`Observation`: its own hand,
every card played face up (pile and cleared cards), everyone's card count, who passed,
the finishing places, the scores, and the cards it gave or received in an exchange.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .actions import Give, Pass, Play
from .cards import Card

if TYPE_CHECKING:
    from .rules import Rules

__all__ = ["Observation", "Transfer"]


@dataclass(frozen=True, slots=True)
class Transfer:
    """One step of an exchange: ``giver`` hands ``count`` cards to ``receiver`` (seats).
    ``forced`` steps must hand over the giver's highest cards; the others give cards back:
    any cards, or the giver's lowest under ``give_back = lowest``."""

    giver: int
    receiver: int
    count: int
    forced: bool


@dataclass(frozen=True, slots=True)
class Observation:
    """One seat's view. Seats are numbered clockwise within the deal.

    Attributes:
        seat: the observing seat.
        rules: the table's :class:`~president.rules.Rules`.
        names: player name per seat.
        seating: match player index per seat.
        phase: ``"exchange"``, ``"play"``, ``"between-deals"`` or ``"match-over"``.
        deal_number: 1 for the match's first deal.
        dealer: dealer seat; ``leader``: the seat that opened this deal.
        hand: own cards, sorted low to high.
        hand_counts: cards held per seat.
        pile: ``((seat, Play), ...)`` on the current pile, oldest first.
        cleared: cards cleared from earlier piles this deal.
        passed: seats that passed since the latest play (``re-enter``) or on this pile.
        to_act: seat whose turn it is, or ``None``.
        finish_order: seats that have finished, in order.
        history: ``((seat, Play | PASS), ...)`` every public action this deal.
        exchanges: ``((giver, receiver, cards), ...)`` this deal's transfers that this seat
            took part in (others' exchanged cards are hidden).
        exchanges_forced: one flag per entry of ``exchanges``: whether that give was forced
            (the lower-placed seat's highest cards) rather than a give back.
        pending_exchange: the exchange step waiting now (who gives how many to whom), if any.
        scores: match totals per seat.
        previous_titles: titles from the previous deal per seat (``""`` if none).
        legal_actions: this seat's legal actions if it is to act, else ``()``.
        reversed: whether the rank order is reversed now (option ``reversal``: an odd number
            of fours of a kind played this deal; lower ranks beat), public information.
    """

    seat: int
    rules: "Rules"
    names: tuple[str, ...]
    seating: tuple[int, ...]
    phase: str
    deal_number: int
    dealer: int
    leader: int
    hand: tuple[Card, ...]
    hand_counts: tuple[int, ...]
    pile: tuple[tuple[int, Play], ...]
    cleared: tuple[Card, ...]
    passed: frozenset[int]
    to_act: int | None
    finish_order: tuple[int, ...]
    history: tuple[tuple[int, Play | Pass], ...]
    exchanges: tuple[tuple[int, int, tuple[Card, ...]], ...]
    pending_exchange: Transfer | None
    scores: tuple[int, ...]
    previous_titles: tuple[str, ...]
    legal_actions: tuple[Play | Pass | Give, ...]
    reversed: bool = False
    exchanges_forced: tuple[bool, ...] = ()

    @property
    def to_beat(self) -> Play | None:
        """The latest play on the pile, or ``None`` when the pile is empty (a lead)."""
        return self.pile[-1][1] if self.pile else None

    @property
    def players(self) -> int:
        """Number of seats."""
        return len(self.names)
