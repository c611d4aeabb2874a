"""Actions: a :class:`Play` of cards of one rank, :data:`PASS`, and a :class:`Give` in an exchange.

A play is 1–4 cards of one rank: a single, pair, triple or quad (docs/rules.md, "A play").
Plays are interned: there are only 195 of them (13 ranks × 15 non-empty sets of suits),
so ``Play.of(cards) is Play.of(cards)`` and legal-action lists share objects.

Notation: a play is written as its cards, ``"9D 9S"``; a pass as ``"pass"``; a give in an
exchange as its cards too.

>>> Play.parse("9s 9d")
Play.parse('9D 9S')
>>> Play.parse("9S 9D").kind, Play.parse("9S 9D").rank.word
('pair', 'nine')
"""

from __future__ import annotations

from typing import Iterable, Union

from .cards import (RANK_WORDS, Card, Rank, cards_from_mask, format_mask, frozen_error,
                    parse_cards)
from .errors import IllegalAction, NotationError, shown

__all__ = ["Play", "Pass", "PASS", "Give", "Action", "KIND_NAMES", "parse_action"]

KIND_NAMES = ("", "single", "pair", "triple", "quad")


class Play:
    """A set of 1–4 cards of one rank, put on the pile.

    Attributes:
        rank: :class:`Rank` of every card in the play.
        suits: 4-bit mask of the suits in the play (bit 0 clubs … bit 3 spades).
        count: number of cards, 1–4.
        mask: the cards as a 52-bit card mask.
        cards: the cards, sorted.
        kind: ``"single"``, ``"pair"``, ``"triple"`` or ``"quad"``.

    Frozen and interned: assigning or deleting an attribute raises
    :class:`dataclasses.FrozenInstanceError`.
    """

    __slots__ = ("rank", "suits", "count", "mask", "cards", "kind", "_text")
    rank: Rank
    suits: int
    count: int
    mask: int
    cards: tuple[Card, ...]
    kind: str
    _text: str

    def __new__(cls, rank: int, suits: int) -> "Play":
        try:
            play = _PLAYS[rank][suits]
        except (IndexError, TypeError):
            play = None
        except NameError:  # while the table is being built
            self = object.__new__(cls)
            put = object.__setattr__  # the only writes: a play is frozen once built
            put(self, "rank", Rank(rank))
            put(self, "suits", suits)
            put(self, "count", suits.bit_count())
            put(self, "mask", suits << (4 * rank))
            put(self, "cards", cards_from_mask(self.mask))
            put(self, "kind", KIND_NAMES[self.count])
            put(self, "_text", format_mask(self.mask))
            return self
        if play is None:  # out of range, or suits 0 (the table's empty slot)
            raise NotationError(
                f"no play has rank {shown(rank)} and suit mask {shown(suits)}; rank is 0..12, suits 1..15")
        return play

    def __setattr__(self, name: str, value: object) -> None:
        raise frozen_error(self, name)

    def __delattr__(self, name: str) -> None:
        raise frozen_error(self, name)

    @classmethod
    def of(cls, cards: Iterable[Card]) -> "Play":
        """The play made of these cards.

        Raises:
            IllegalAction: ``mixed-ranks`` if the cards differ in rank, ``bad-notation``
                if there are no cards or a card is repeated.
        """
        cards = tuple(cards)
        if not cards:
            raise IllegalAction("bad-notation", "a play needs at least one card; to pass, say 'pass'")
        rank = cards[0].rank
        suits = 0
        for c in cards:
            if c.rank != rank:
                raise IllegalAction(
                    "mixed-ranks",
                    f"{' '.join(map(str, cards))} mixes ranks; every card in a play must have the same rank")
            if suits >> c.suit & 1:
                raise IllegalAction("bad-notation", f"card {c} is listed twice")
            suits |= 1 << c.suit
        return _play(rank, suits)

    @classmethod
    def parse(cls, text: str) -> "Play":
        """Parse a play such as ``"9S 9D"``. Raises :class:`IllegalAction` (see :meth:`of`)."""
        try:
            cards = parse_cards(text)
        except NotationError as e:
            raise IllegalAction("bad-notation", e.message) from None
        return cls.of(cards)

    def describe(self) -> str:
        """Plain words: ``"pair of nines"``, ``"single king"``."""
        word = RANK_WORDS[self.rank]
        if self.count == 1:
            return f"single {word}"
        plural = "sixes" if word == "six" else word + "s"
        return f"{KIND_NAMES[self.count]} of {plural}"

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Play.parse({self._text!r})"

    def __reduce__(self) -> tuple[type[Play], tuple[int, int]]:
        return (Play, (int(self.rank), self.suits))

    def __hash__(self) -> int:
        return self.mask.__hash__()

    def __eq__(self, other: object) -> bool:
        return self is other


_PLAYS: tuple[tuple[Play | None, ...], ...] = tuple(
    (None,) + tuple(Play(r, s) for s in range(1, 16)) for r in range(13))


def _play(rank: int, suits: int) -> Play:
    """The interned play of ``rank`` and ``suits`` (1..15, so never the empty slot)."""
    play = _PLAYS[rank][suits]
    assert play is not None
    return play


class Pass:
    """Declining to play on the current pile. Use the singleton :data:`PASS`."""

    __slots__ = ()
    _instance: "Pass | None" = None

    def __new__(cls) -> "Pass":
        if cls._instance is None:
            cls._instance = object.__new__(cls)
        return cls._instance

    def __str__(self) -> str:
        return "pass"

    def __repr__(self) -> str:
        return "PASS"

    def __reduce__(self) -> tuple[type[Pass], tuple[()]]:
        return (Pass, ())


PASS = Pass()


class Give:
    """Cards handed over in an exchange before a deal (docs/rules.md, ``exchange``).

    The receiver is fixed by the exchange step, so a give is only its cards. Frozen, like
    :class:`Play` (assigning an attribute raises :class:`dataclasses.FrozenInstanceError`).

    Attributes:
        mask: the cards as a 52-bit card mask.
        cards: the cards, sorted.
    """

    __slots__ = ("mask", "cards")
    mask: int
    cards: tuple[Card, ...]

    def __init__(self, cards: Iterable[Card] | int) -> None:
        if isinstance(cards, int):
            mask = cards
        else:
            cards = tuple(cards)
            mask = 0
            for c in cards:
                if mask & c.bit:
                    raise IllegalAction("bad-notation", f"card {c} is listed twice")
                mask |= c.bit
        object.__setattr__(self, "mask", mask)  # the only writes: a give is frozen once built
        object.__setattr__(self, "cards", cards_from_mask(mask))

    def __setattr__(self, name: str, value: object) -> None:
        raise frozen_error(self, name)

    def __delattr__(self, name: str) -> None:
        raise frozen_error(self, name)

    def __reduce__(self) -> tuple[type[Give], tuple[int]]:  # copy and pickle build a new give from its mask
        return (Give, (self.mask,))

    @classmethod
    def of_mask(cls, mask: int) -> "Give":
        """The give of the cards of a 52-bit card ``mask``, shared: gives are frozen, so the
        exchange's legal actions hand out one object per mask (a give back of any two of
        thirteen cards lists 78) instead of building each anew. Equal to ``Give(mask)``."""
        give = _GIVES.get(mask)
        if give is None:
            if len(_GIVES) >= _GIVES_SIZE:
                _GIVES.clear()
            give = _GIVES[mask] = cls(mask)
        return give

    @classmethod
    def parse(cls, text: str) -> "Give":
        """Parse the cards of a give, e.g. ``"2S"`` or ``"AH 2C"``."""
        try:
            return cls(parse_cards(text))
        except NotationError as e:
            raise IllegalAction("bad-notation", e.message) from None

    def __str__(self) -> str:
        return format_mask(self.mask)

    def __repr__(self) -> str:
        return f"Give.parse({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Give) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(("give", self.mask))


_GIVES: dict[int, Give] = {}
_GIVES_SIZE = 8192  # masks kept (cleared when full): the exchanges of a few hundred hands

Action = Union[Play, Pass, Give]


def parse_action(text: str, *, exchange: bool = False) -> Action:
    """Parse ``"pass"`` or cards. With ``exchange=True`` cards become a :class:`Give`.

    Raises:
        IllegalAction: ``bad-notation`` or ``mixed-ranks``.
    """
    t = text.strip()
    if t.lower() == "pass":
        return PASS
    return Give.parse(t) if exchange else Play.parse(t)


def plays_table() -> tuple[tuple[Play | None, ...], ...]:
    """The interned plays, ``table[rank][suits]`` (``suits`` 1..15; index 0 is ``None``)."""
    return _PLAYS


# Precomputed for legal-action listing: for each nibble of held suits, the plays of
# exactly k cards (SUBSET_BY_COUNT[rank][nibble][k]) and all non-empty ones (ALL_SUBSETS).
_SUBSETS = [[s for s in range(1, 16) if s & ~nib == 0] for nib in range(16)]
SUBSETS_BY_COUNT: tuple[tuple[tuple[tuple[Play, ...], ...], ...], ...] = tuple(
    tuple(tuple(tuple(_play(r, s) for s in _SUBSETS[nib] if s.bit_count() == k) for k in range(5))
          for nib in range(16))
    for r in range(13))
ALL_SUBSETS: tuple[tuple[tuple[Play, ...], ...], ...] = tuple(
    tuple(tuple(_play(r, s) for s in sorted(_SUBSETS[nib], key=lambda s: (s.bit_count(), s)))
          for nib in range(16))
    for r in range(13))
del _SUBSETS

# Two ranks at a time, for listing from a hand's bits eight at a time: PAIR_ALL[r][b] is
# ALL_SUBSETS of rank r for the low nibble of b, then of rank r + 1 for its high nibble;
# PAIR_BY_COUNT[k][r][b] the same from SUBSETS_BY_COUNT[.][.][k] (r + 1 past the two: none).
PAIR_ALL: tuple[tuple[tuple[Play, ...], ...], ...] = tuple(
    tuple(ALL_SUBSETS[r][b & 15] + (ALL_SUBSETS[r + 1][b >> 4] if r < 12 else ())
          for b in range(256))
    for r in range(13))
PAIR_BY_COUNT: tuple[tuple[tuple[tuple[Play, ...], ...], ...], ...] = tuple(
    tuple(tuple(SUBSETS_BY_COUNT[r][b & 15][k]
                + (SUBSETS_BY_COUNT[r + 1][b >> 4][k] if r < 12 else ())
                for b in range(256))
          for r in range(13))
    for k in range(5))
