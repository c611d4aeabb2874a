"""Cards, ranks, suits and their text notation.

Ranks run low to high 3 4 5 6 7 8 9 10 J Q K A 2 (docs/rules.md, "Deck"); suits never order
anything in play and are sorted C D H S only for display. Canonical card notation is rank
then suit letter: ``10H``, ``QS``, ``2C``. Parsing also accepts ``T`` for ten, lower case and
the suit symbols ``♣ ♦ ♥ ♠``.

Internally a card is an index ``rank * 4 + suit`` (0..51) and a set of cards is an ``int``
bit mask over those indices; the helpers here convert between the two.

>>> Card.parse("th")
Card.parse('10H')
>>> format_cards(parse_cards("9s 9♦"))
'9D 9S'
"""

from __future__ import annotations

import re
from dataclasses import FrozenInstanceError
from enum import IntEnum
from typing import Iterable

from .errors import NotationError, shown

__all__ = [
    "Rank", "Suit", "Card", "CARDS", "DECK_MASK", "parse_cards", "format_cards",
    "cards_from_mask", "mask_from_cards", "parse_mask", "format_mask",
]


class Rank(IntEnum):
    """Card rank, valued 0 (three) to 12 (two): a higher value is a higher rank."""

    THREE = 0
    FOUR = 1
    FIVE = 2
    SIX = 3
    SEVEN = 4
    EIGHT = 5
    NINE = 6
    TEN = 7
    JACK = 8
    QUEEN = 9
    KING = 10
    ACE = 11
    TWO = 12

    @property
    def symbol(self) -> str:
        """Notation of the rank: ``"3"`` … ``"10"``, ``"J"``, ``"Q"``, ``"K"``, ``"A"``, ``"2"``."""
        return RANK_SYMBOLS[self]

    @property
    def word(self) -> str:
        """The rank in words, singular (``"king"``)."""
        return RANK_WORDS[self]

    @classmethod
    def parse(cls, text: str) -> "Rank":
        """Parse a rank symbol (``"10"``, ``"T"``, ``"q"``…). Raises :class:`NotationError`."""
        key = text.strip().upper()
        if key in _RANK_BY_SYMBOL:
            return cls(_RANK_BY_SYMBOL[key])
        raise NotationError(
            f"{shown(text)} is not a rank; ranks are 3 4 5 6 7 8 9 10 (or T) J Q K A 2")


class Suit(IntEnum):
    """Card suit. Suits never matter in play; the order C D H S is for display only."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """``"C"``, ``"D"``, ``"H"`` or ``"S"``."""
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        """``"♣"``, ``"♦"``, ``"♥"`` or ``"♠"``."""
        return "♣♦♥♠"[self]


RANK_SYMBOLS = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
RANK_WORDS = ("three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack",
              "queen", "king", "ace", "two")
_RANK_BY_SYMBOL = {s: i for i, s in enumerate(RANK_SYMBOLS)}
_RANK_BY_SYMBOL["T"] = 7
_RUN_TOGETHER = re.compile(r"(?:(?:10|[2-9TJQKA])[CDHS♣♦♥♠♧♢♡♤]){2,}")
_SUIT_BY_TEXT = {"C": 0, "D": 1, "H": 2, "S": 3, "♣": 0, "♦": 1, "♥": 2, "♠": 3,
                 "♧": 0, "♢": 1, "♡": 2, "♤": 3}


def frozen_error(value: object, name: str) -> FrozenInstanceError:
    """The error for an attempt to change ``name`` of a frozen card, play or give (a
    :class:`dataclasses.FrozenInstanceError`, an :class:`AttributeError`). Cards and plays
    are interned (one object each, shared by every hand and pile), so a change would change
    every copy."""
    return FrozenInstanceError(f"cannot assign to field {name!r}: {type(value).__name__} "
                               "values are frozen; make a new one instead")


class Card:
    """One of the 52 cards. Instances are interned: ``Card(rank, suit) is CARDS[i]``.

    Attributes:
        rank: :class:`Rank`.
        suit: :class:`Suit`.
        index: ``rank * 4 + suit``, 0..51.
        bit: ``1 << index``, the card as a one-card mask.

    Cards compare by (rank, suit) so that sorting gives a display order; suits never
    decide anything in play. Frozen: assigning or deleting an attribute raises
    :class:`dataclasses.FrozenInstanceError`.
    """

    __slots__ = ("rank", "suit", "index", "bit")
    rank: Rank
    suit: Suit
    index: int
    bit: int

    def __new__(cls, rank: int, suit: int) -> "Card":
        try:
            return CARDS[int(rank) * 4 + int(suit)] if 0 <= int(suit) < 4 and 0 <= int(rank) < 13 \
                else _bad_card(rank, suit)
        except NameError:  # while CARDS itself is being built
            self = object.__new__(cls)
            put = object.__setattr__  # the only writes: a card is frozen once built
            put(self, "rank", Rank(rank))
            put(self, "suit", Suit(suit))
            put(self, "index", int(rank) * 4 + int(suit))
            put(self, "bit", 1 << self.index)
            return self

    def __setattr__(self, name: str, value: object) -> None:
        raise frozen_error(self, name)

    def __delattr__(self, name: str) -> None:
        raise frozen_error(self, name)

    def __reduce__(self) -> tuple[type[Card], tuple[int, int]]:  # pickling keeps interning
        return (Card, (int(self.rank), int(self.suit)))

    @classmethod
    def parse(cls, text: str) -> "Card":
        """Parse one card: ``"10H"``, ``"TH"``, ``"th"``, ``"10♥"``.

        Raises:
            NotationError: if the text is not one card.
        """
        t = text.strip()
        if _RUN_TOGETHER.fullmatch(t.upper()):
            raise NotationError(f"{shown(text)} runs cards together; separate cards with spaces, "
                                "like 9S 9H")
        if len(t) < 2 or (t[-1].upper() not in _SUIT_BY_TEXT
                          and t[:-1].upper() not in _RANK_BY_SYMBOL
                          and t[:1].upper() not in _RANK_BY_SYMBOL):
            raise NotationError(f"{shown(text)} is not a card; write rank then suit, like 10H, QS or 2C")
        suit = _SUIT_BY_TEXT.get(t[-1].upper())
        if suit is None:
            raise NotationError(
                f"{shown(text)} does not end in a suit; end a card with C, D, H or S (or ♣ ♦ ♥ ♠), like 10H")
        rank = _RANK_BY_SYMBOL.get(t[:-1].upper())
        if rank is None:
            raise NotationError(
                f"{shown(text)} has no rank; ranks are 3 4 5 6 7 8 9 10 (or T) J Q K A 2")
        return CARDS[rank * 4 + suit]

    @classmethod
    def from_index(cls, index: int) -> "Card":
        """The card with ``index`` 0..51."""
        return CARDS[index]

    def __str__(self) -> str:
        return RANK_SYMBOLS[self.rank] + "CDHS"[self.suit]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __lt__(self, other: "Card") -> bool:
        return self.index < other.index

    def __le__(self, other: "Card") -> bool:
        return self.index <= other.index

    def __gt__(self, other: "Card") -> bool:
        return self.index > other.index

    def __ge__(self, other: "Card") -> bool:
        return self.index >= other.index

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        return self is other


def _bad_card(rank: int, suit: int) -> Card:
    raise NotationError(f"no card has rank {shown(rank)} and suit {shown(suit)}; rank is 0..12, suit 0..3")


CARDS: tuple[Card, ...] = tuple(Card(r, s) for r in range(13) for s in range(4))
DECK_MASK = (1 << 52) - 1


_BYTE_CARDS: tuple[tuple[tuple[Card, ...], ...], ...] = tuple(
    tuple(tuple(CARDS[8 * k + i] for i in range(8) if b >> i & 1 and 8 * k + i < 52)
          for b in range(256))
    for k in range(7))
"""For byte ``k`` of a mask (bits ``8k`` to ``8k + 7``) and its value ``b``: its cards, low to
high (a look-up per byte instead of a step per card)."""


_MASK_CARDS: dict[int, tuple[Card, ...]] = {}
"""Recent answers of :func:`cards_from_mask` (a hand is read again at each turn while it does
not change); emptied when it reaches :data:`_MASK_CARDS_SIZE` entries."""
_MASK_CARDS_SIZE = 4096


def cards_from_mask(mask: int) -> tuple[Card, ...]:
    """The cards of a bit mask (bits 0..51, :attr:`Card.bit`), sorted low to high."""
    cards = _MASK_CARDS.get(mask)
    if cards is None:
        if len(_MASK_CARDS) >= _MASK_CARDS_SIZE:
            _MASK_CARDS.clear()
        cards = _MASK_CARDS[mask] = _cards_of(mask)
    return cards


def _cards_of(mask: int) -> tuple[Card, ...]:
    out: list[Card] = []
    k = 0
    while mask and k < 7:
        b = mask & 0xFF
        if b:
            out += _BYTE_CARDS[k][b]
        mask >>= 8
        k += 1
    return tuple(out)


def mask_from_cards(cards: Iterable[Card]) -> int:
    """Bit mask of some cards. Raises :class:`NotationError` on a repeated card."""
    mask = 0
    for card in cards:
        if mask & card.bit:
            raise NotationError(f"card {card} is listed twice")
        mask |= card.bit
    return mask


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse cards separated by spaces or commas, e.g. ``"9S 9D"``; ``""`` gives ``()``.

    Raises:
        NotationError: on a word that is not a card or on a repeated card.
    """
    words = text.replace(",", " ").split()
    cards = tuple(Card.parse(w) for w in words)
    mask_from_cards(cards)
    return cards


def parse_mask(text: str) -> int:
    """Parse cards (as :func:`parse_cards`) straight to a bit mask."""
    return mask_from_cards(parse_cards(text))


def format_cards(cards: Iterable[Card]) -> str:
    """Canonical notation of cards, sorted low to high: ``"5C 5H KS"``."""
    return " ".join(str(c) for c in sorted(cards))


def format_mask(mask: int) -> str:
    """Canonical notation of the cards in a bit mask."""
    return " ".join(str(c) for c in cards_from_mask(mask))
