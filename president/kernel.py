"""The rules of play, stated once, on ranks and counts.

Suits never matter in the play of a deal (docs/rules.md, "Deck"): what may be played and what a
play or a pass does depend only on ranks, counts of cards and seats. This module says it
once, for every value of the options ``beat``, ``passing`` and ``last_of_rank_clears`` and
for 3 to 7 players. Everything else reads it: :class:`president.deal.Deal` (which adds
suits, events and scoring), :class:`president.search.playout_state.FastDeal` and the Python
play-outs, and the players' knowledge (:mod:`president.search.knowledge`). Standard
library only; nothing here imports web, numpy or research code.

Values
------
- a *rank* is an int ``0`` (three) … ``12`` (two), low to high (docs/rules.md, "Deck");
- a *count* is the number of cards in a play, ``1`` … ``4`` (single … four of a kind);
- an *action* is an int: :data:`PASS` (``-1``) or ``rank * 4 + count - 1`` (0 … 51), see
  :func:`encode` and :func:`decode`;
- a *hand* is a sequence of 13 counts per rank, each 0 … 4;
- ``strict`` is the ``beat`` option as a bool (:data:`BEAT_STRICT`): ``True`` for
  ``higher``, ``False`` for ``equal-or-higher``;
- ``mode`` is the ``passing`` option as an int, its index in :data:`PASSING`;
- ``reversed`` is the current rank order under the ``reversal`` option: ``True`` while an
  odd number of fours of a kind have been played this deal (then "beats" means lower, and
  ``equal-or-higher`` means equal or lower). Every deal starts in normal order.

What may be played (docs/rules.md, "A play", "The pile", "The leader must play", ``beat``)
-------------------------------------------------------------------------------------
- :func:`may_play`: on an empty pile (``need == 0``) any 1–4 cards of one held rank; on a
  pile, exactly ``need`` cards of a rank that :func:`beats` the latest play's rank (in the
  current order: :func:`follow_ranks`).
- :func:`may_pass`: only on a pile (``need > 0``); the leader must play.
- :func:`legal_actions`: every legal action of a hand, plays by rank then count, then
  :data:`PASS` when passing is allowed.

What a play or a pass does (docs/rules.md, "Clearing", "Going out", "End of the deal",
``passing``, ``last_of_rank_clears``)
--------------------------------------------------------------------------------------
:class:`PlayState` holds the public state of the play (cards held per seat, the pile's count
and top rank, passes, the finishing order) and :meth:`PlayState.play` /
:meth:`PlayState.pass_` change it, returning what happened: :data:`GOES_ON`,
:data:`CLEARED_ALL_PASSED`, :data:`CLEARED_ONCE_AROUND`, :data:`CLEARED_LAST_OF_RANK` or
:data:`ENDED` (a player going out shows as that seat's count reaching 0).

Sources (the rule sources listed in docs/rules.md, the presets of :mod:`president.rules`)
-----------------------------------------------------------------------------------------
- Same count, strictly higher rank, a two the highest, a single never beats a pair; pass and
  re-enter; the pile clears when everyone else passed since the latest play; a player who
  went out passes the lead clockwise: every preset (``000_2ebb75a2290c9d05.txt``, ``house``;
  ``001_6a3b64d15368b01c.txt``, ``family``; ``003_e6cd2942d7a2654f.txt``, ``practice``).
- ``beat = equal-or-higher`` and ``last_of_rank_clears``: ``004_7dd5a514fa081721.txt``
  (``first-night``, "Same count, equal or higher", "Last of a rank passes the lead");
  equal plays also in ``001`` as the ``family`` twist ``equal-plays``.
- ``passing = sit-out``: ``000`` ("Pass and sit out", ``house`` twist ``sit-out``).
- ``passing = once-around``: ``001`` ("Once around", ``family`` twist ``once-around``).
- ``reversal`` (a four of a kind reverses the rank order until the deal ends; a second one
  reverses it back): ``000`` names "rank-reversal versions" as a choice a table may make,
  apart from its main game; the ``house`` and ``family`` twist ``reversal``. The details
  (the four of a kind clears nothing by itself, the exchange is not affected) are this
  project's, stated in docs/rules.md.

Tables for hot loops
--------------------
:func:`follow_masks` gives, per ``strict``, the 13-bit mask of ranks allowed on each top
rank; it is built from :func:`beats` once and cached. The play-outs index it instead of
calling :func:`beats` per check.

>>> beats(9, 9, strict=False), beats(9, 9, strict=True)
(True, False)
>>> legal_actions([0, 0, 2] + [0] * 9 + [1], need=2, top=1, strict=True) == [encode(2, 2), PASS]
True
>>> s = Position(4, [13, 13, 13, 13], leader=0, strict=True, mode=0, clears=0)
>>> s.play(0, 5, 2), s.to_act
(0, 1)
>>> [s.pass_(seat) for seat in (1, 2, 3)], s.to_act, s.need
([0, 0, 1], 0, 0)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, Sequence

if TYPE_CHECKING:
    from .rules import Rules

__all__ = ["PASS", "RANKS", "TOP_RANK", "PASSING", "BEAT_STRICT", "GOES_ON",
           "CLEARED_ALL_PASSED", "CLEARED_ONCE_AROUND", "CLEARED_LAST_OF_RANK", "ENDED",
           "CLEAR_REASONS", "CLEARED_TWOS", "CLEAR_LAST_OF_RANK", "CLEAR_TWOS", "CLEARS_OPTIONS", "clears_of", "play_clears",
           "encode", "decode", "strict_of", "mode_of", "first_rank_to_follow",
           "beats", "follow_ranks", "FOLLOW_RANKS", "may_play", "may_pass", "completes_rank", "legal_actions",
           "follow_masks",
           "STATE_SLOTS", "PlayState", "Position"]

PASS: Final = -1
"""The action int of a pass."""
RANKS: Final = 13
"""Ranks in the deck, ``0`` (three) … ``12`` (two)."""
TOP_RANK: Final = 12
"""The highest rank, the two: nothing is higher (docs/rules.md, "Deck")."""

BEAT_STRICT: Final[dict[str, bool]] = {"higher": True, "equal-or-higher": False}
"""The ``beat`` option's values (docs/rules.md, "Options"; ``higher`` in the presets
``house``, ``family`` and ``practice``; ``equal-or-higher`` in ``first-night`` and the
``family`` twist ``equal-plays``) and whether each needs a strictly higher rank."""

PASSING: Final = ("re-enter", "sit-out", "once-around")
"""The ``passing`` option's values; a value's index is its ``mode`` int (0, 1, 2).
``re-enter`` is every preset's default; ``sit-out`` is a ``house`` twist, ``once-around`` a
``family`` twist."""

GOES_ON: Final = 0
"""Outcome: the pile stays and ``to_act`` is the next seat to act."""
CLEARED_ALL_PASSED: Final = 1
"""Outcome: everyone else passed (``re-enter``, ``sit-out``); the pile is cleared."""
CLEARED_ONCE_AROUND: Final = 2
"""Outcome: every other seat had its one turn (``once-around``); the pile is cleared."""
CLEARED_LAST_OF_RANK: Final = 3
"""Outcome: the play put the fourth card of its rank on the pile (``last_of_rank_clears``,
preset ``first-night``); the pile is cleared."""
ENDED: Final = 4
"""Outcome: only one seat holds cards; it took last place and the deal is over."""
CLEARED_TWOS: Final = 5
"""Outcome: the play was of twos (``twos_clear``, the ``house`` and ``family`` twist
``twos-clear``); the pile is cleared."""
CLEAR_REASONS: Final = (None, "all-passed", "once-around", "last-of-rank", None, "twos")
"""The reason word of each outcome that clears the pile (as in
:class:`president.events.PileCleared`), ``None`` for the others."""

CLEAR_LAST_OF_RANK: Final = 1
"""Bit of :attr:`PlayState.clears`: ``last_of_rank_clears`` is on."""
CLEAR_TWOS: Final = 2
"""Bit of :attr:`PlayState.clears`: ``twos_clear`` is on."""
CLEARS_OPTIONS: Final = (("last_of_rank_clears", CLEAR_LAST_OF_RANK, CLEARED_LAST_OF_RANK),
                         ("twos_clear", CLEAR_TWOS, CLEARED_TWOS))
"""The options that make a play clear the pile at once: ``(option, bit, outcome)``, the
option's field of :class:`~president.rules.Rules`, its bit of :attr:`PlayState.clears`
(:func:`clears_of`) and the outcome of a play it clears (its reason word in
:data:`CLEAR_REASONS`); :func:`play_clears` states what each does."""


def clears_of(rules: "Rules") -> int:
    """The bit mask of the clearing rules ``rules`` turn on (:data:`CLEARS_OPTIONS`): the
    ``clears`` of a :class:`PlayState` under those rules."""
    return sum(bit for option, bit, _ in CLEARS_OPTIONS if getattr(rules, option))


def play_clears(clears: int, rank: int, same: int) -> int:
    """Whether a play of ``rank`` that made ``same`` cards of that rank in a row on the pile
    clears it at once under the clearing rules ``clears`` (a bit mask, :func:`clears_of`):
    the outcome that says why, or :data:`GOES_ON`. ``last_of_rank_clears``
    (``first-night``, ``004_7dd5a514fa081721.txt``): the play put the fourth card of its rank
    on the pile (:func:`completes_rank`). ``twos_clear`` (a twist of ``house`` and ``family``;
    the house-match guide, ``000_2ebb75a2290c9d05.txt``, keeps it out of its main game): the
    play was of twos, whatever the rank order. A play both rules clear is said to clear by
    the last of its rank."""
    if clears & CLEAR_LAST_OF_RANK and same == 4:
        return CLEARED_LAST_OF_RANK
    if clears & CLEAR_TWOS and rank == TOP_RANK:
        return CLEARED_TWOS
    return GOES_ON


def encode(rank: int, count: int) -> int:
    """The action int of a play of ``count`` (1–4) cards of ``rank`` (0–12)."""
    return rank * 4 + count - 1


def decode(action: int) -> tuple[int, int]:
    """``(rank, count)`` of a play's action int (not of :data:`PASS`)."""
    return action >> 2, (action & 3) + 1


def strict_of(beat: str) -> bool:
    """Whether the ``beat`` option value needs a strictly higher rank.

    Raises:
        ValueError: for a value that is not in :data:`BEAT_STRICT`.
    """
    try:
        return BEAT_STRICT[beat]
    except KeyError:
        raise ValueError(f"no beat option {beat!r}; use one of {', '.join(BEAT_STRICT)}") from None


def mode_of(passing: str) -> int:
    """The ``mode`` int (index in :data:`PASSING`) of a ``passing`` option value.

    Raises:
        ValueError: for a value that is not in :data:`PASSING`.
    """
    try:
        return PASSING.index(passing)
    except ValueError:
        raise ValueError(f"no passing option {passing!r}; use one of {', '.join(PASSING)}") from None


# ----- what may be played --------------------------------------------------------------

def first_rank_to_follow(top: int, strict: bool) -> int:
    """The lowest rank that beats a play of rank ``top``: ``top + 1`` under ``beat =
    higher``, ``top`` itself under ``equal-or-higher``. ``13`` (no rank) means nothing
    beats ``top``. This is the ``beat`` rule; every other check derives from it."""
    return top + 1 if strict else top


def beats(rank: int, top: int, strict: bool, reversed: bool = False) -> bool:
    """Whether a play of ``rank`` beats the latest play's rank ``top`` (counts equal);
    ``strict`` is the ``beat`` option (see :func:`strict_of`), ``reversed`` the current
    order under ``reversal`` (then a lower rank beats, or an equal one when not strict).

    >>> beats(5, 9, True), beats(5, 9, True, reversed=True), beats(9, 9, False, True)
    (False, True, True)
    """
    if reversed:
        return rank <= 12 - first_rank_to_follow(12 - top, strict)
    return rank >= first_rank_to_follow(top, strict)


def follow_ranks(top: int, strict: bool, reversed: bool = False) -> range:
    """The ranks that beat a play of rank ``top`` (:func:`beats`), low to high: from
    :func:`first_rank_to_follow` up to the two, or, in reversed order, from the three up
    to the last rank below ``top`` (``top`` included when not strict)."""
    if reversed:
        return range(0, 13 - first_rank_to_follow(12 - top, strict))
    return range(first_rank_to_follow(top, strict), RANKS)


#: :func:`follow_ranks` worked out once for every pile: ``FOLLOW_RANKS[reversed][strict][top]``
#: (``reversed`` and ``strict`` as 0/1 or bools, ``top`` 0–12), for the engine's hot paths;
#: the rule is the function's.
FOLLOW_RANKS: Final = tuple(tuple(tuple(follow_ranks(top, bool(strict), bool(rev))
                                        for top in range(RANKS))
                                  for strict in (0, 1))
                            for rev in (0, 1))


def may_play(rank: int, count: int, need: int, top: int, strict: bool,
             reversed: bool = False) -> bool:
    """Whether ``count`` cards of ``rank`` may go on a pile that needs ``need`` cards (0: an
    empty pile, a lead) and whose latest play has rank ``top``, in the current order
    ``reversed``. Holding the cards is the caller's check."""
    if not (0 <= rank < RANKS and 1 <= count <= 4):
        return False
    return need == 0 or (count == need and beats(rank, top, strict, reversed))


def may_pass(need: int) -> bool:
    """Whether the seat to act may pass: not on an empty pile (the leader must play)."""
    return need > 0


def completes_rank(rank: int, count: int, top: int, same: int) -> bool:
    """Whether ``count`` cards of ``rank`` put the fourth card of that rank on the pile:
    the play and the cards of the same rank played in a row just before it (``same`` of
    rank ``top``) make four. Under ``last_of_rank_clears`` such a play clears the pile."""
    return (same + count if rank == top else count) == 4


def legal_actions(hand: Sequence[int], need: int, top: int, strict: bool,
                  reversed: bool = False) -> list[int]:
    """Every legal action int of a seat holding ``hand`` (13 counts): on an empty pile
    (``need == 0``) each count 1..held of each held rank, ranks low to high; on a pile each
    rank that beats ``top`` (in the order ``reversed``, :func:`follow_ranks`) held at least
    ``need`` times, low to high, then :data:`PASS`."""
    if need == 0:
        return [r * 4 + k for r in range(RANKS) for k in range(hand[r])]
    acts = [r * 4 + need - 1 for r in follow_ranks(top, strict, reversed) if hand[r] >= need]
    acts.append(PASS)
    return acts


_FOLLOW_MASKS: dict[tuple[bool, bool], dict[int, int]] = {}


def follow_masks(strict: bool, reversed: bool = False) -> dict[int, int]:
    """``{top: mask}`` for ``top`` in -1..12: bit ``r`` of ``mask`` is set when rank ``r``
    beats ``top`` (:func:`beats`, in the order ``reversed``; ``top = -1`` gives every rank).
    Built once per ``strict`` and order and shared: do not change it."""
    table = _FOLLOW_MASKS.get((strict, reversed))
    if table is None:
        table = {t: sum(1 << r for r in range(RANKS) if beats(r, t, strict, reversed))
                 for t in range(RANKS)}
        table[-1] = (1 << RANKS) - 1
        _FOLLOW_MASKS[strict, reversed] = table
    return table


# ----- what a play or a pass does --------------------------------------------------------

STATE_SLOTS: Final = ("players", "ncards", "to_act", "need", "top", "same", "last", "passes",
                      "passed", "round_left", "finish", "strict", "mode", "clears")
"""The attributes of a :class:`PlayState`, in the order of its documentation."""


class PlayState:
    """The public state of the play of one deal, on counts, and its two transitions.

    This class holds the rules and no storage (``__slots__ = ()``): a subclass declares the
    attributes named in :data:`STATE_SLOTS` (:class:`Position` does, and so does
    :class:`president.search.playout_state.FastDeal`, which adds the hands).

    Attributes (mutable):
        players: number of seats, 3–7.
        ncards: cards held per seat (list of ``players`` ints).
        to_act: seat to act, ``-1`` once the deal is over.
        need: cards per play on the current pile, ``0`` when it is empty (a lead).
        top: rank of the latest play on the pile, ``-1`` when empty.
        same: cards of rank ``top`` put on this pile in a row (for ``last_of_rank_clears``).
        last: seat of the latest play, ``-1`` before the first.
        passes: passes since the latest play.
        passed: bit mask of seats that passed (since the latest play under ``re-enter``, on
            this pile otherwise).
        round_left: seats still to answer the lead under ``once-around``, in turn order.
        finish: seats in finishing order; every seat once the deal is over.
        strict: the ``beat`` option (:func:`strict_of`); mode: the ``passing`` option
            (:func:`mode_of`); clears: the clearing rules on, a bit mask
            (:func:`clears_of`; :data:`CLEAR_LAST_OF_RANK` for ``last_of_rank_clears``).
        reversal: the ``reversal`` option: a play of four cards reverses the rank order.
        reversed: whether the rank order is reversed now (``reversal`` only; ``False`` at
            the start of every deal).

    ``reversal`` and ``reversed`` are class attributes ``False`` here, so a subclass that
    does not declare them as slots plays in normal order; :class:`Position` and
    :class:`president.search.playout_state.FastDeal` declare them and take ``reversal``.

    The transitions are unchecked: :meth:`play` must be given a legal play (see
    :func:`may_play`) of the seat to act, :meth:`pass_` a legal pass (:func:`may_pass`).
    """

    if not TYPE_CHECKING:
        # No storage here (a subclass names it); mypy would read an empty __slots__ as "these
        # attributes may not be assigned", although every subclass gives them slots.
        __slots__ = ()
    players: int
    ncards: list[int]
    to_act: int
    need: int
    top: int
    same: int
    last: int
    passes: int
    passed: int
    round_left: list[int]
    finish: list[int]
    strict: bool
    mode: int
    clears: int
    reversal: bool = False
    reversed: bool = False

    def __init__(self, players: int, ncards: Sequence[int], leader: int, *, strict: bool,
                 mode: int, clears: int) -> None:
        self.players = players
        self.ncards = list(ncards)
        self.to_act = leader
        self.need = 0
        self.top = -1
        self.same = 0
        self.last = -1
        self.passes = 0
        self.passed = 0
        self.round_left: list[int] = []
        self.finish: list[int] = []
        self.strict = strict
        self.mode = mode
        self.clears = clears

    @property
    def lor(self) -> bool:
        """Whether ``last_of_rank_clears`` is on (its bit of :attr:`clears`)."""
        return bool(self.clears & CLEAR_LAST_OF_RANK)

    @staticmethod
    def for_rules(rules: "Rules", ncards: Sequence[int], leader: int, *,
                  cls: "type[Position] | None" = None) -> "Position":
        """The state at the start of a deal under ``rules`` (a :class:`president.rules.Rules`;
        only ``players``, ``beat``, ``passing``, ``last_of_rank_clears`` and ``reversal`` are
        read), with ``ncards`` cards per seat and ``leader`` to lead, in normal order.
        ``cls``: the class to build, :class:`Position` by default (:class:`president.deal.Deal`
        passes the compiled copy, ``president._playout.Position``, when it is built).

        Raises:
            ValueError: for a ``beat`` or ``passing`` value the kernel does not know.
        """
        return (cls or Position)(rules.players, ncards, leader, strict=strict_of(rules.beat),
                                 mode=mode_of(rules.passing),
                                 clears=clears_of(rules),
                                 reversal=bool(rules.reversal))

    def next_with_cards(self, seat: int) -> int:
        """The next seat clockwise from ``seat`` that holds cards (docs/rules.md, "Turn order";
        at least one other seat must hold cards)."""
        after = _AFTER[self.players]
        ncards = self.ncards
        s = after[seat]
        while not ncards[s]:
            if s == seat:
                raise _nobody_holds_cards()
            s = after[s]
        return s

    def next_eligible(self, seat: int) -> int:
        """``sit-out``: the next seat clockwise from ``seat`` that holds cards and has not
        passed on this pile, ``-1`` if none."""
        after = _AFTER[self.players]
        ncards = self.ncards
        passed = self.passed
        s = after[seat]
        while s != seat:
            if ncards[s] and not (passed >> s) & 1:
                return s
            s = after[s]
        return -1

    def play(self, seat: int, rank: int, count: int) -> int:
        """``seat`` plays ``count`` cards of ``rank``; returns the outcome (:data:`GOES_ON`,
        :data:`CLEARED_LAST_OF_RANK`, :data:`CLEARED_ALL_PASSED` under ``sit-out`` when no
        one is left to answer, :data:`CLEARED_ONCE_AROUND`, or :data:`ENDED`). A seat whose
        count reaches 0 is appended to ``finish`` (it went out). Under ``reversal`` a play of
        four cards reverses the order at once (it is then the play to beat in the new
        order); it clears the pile only as any play would."""
        ncards = self.ncards
        held = ncards[seat] - count
        ncards[seat] = held
        mode = self.mode
        if self.need == 0:  # the lead fixes the count of the pile
            self.need = count
            if mode == 2:
                n = self.players
                self.round_left = [s for s in ((seat + i) % n for i in range(1, n)) if ncards[s]]
        elif mode == 2:
            self.round_left.pop(0)
        same = self.same + count if rank == self.top else count
        self.same = same
        if count == 4 and self.reversal:
            self.reversed = not self.reversed
        self.top = rank
        self.last = seat
        self.passes = 0
        if mode == 0:
            self.passed = 0
        if not held:  # going out: the next place, at once
            finish = self.finish
            finish.append(seat)
            if self.players - len(finish) == 1:  # one seat left holding cards: it is last
                for s in range(self.players):
                    if ncards[s]:
                        finish.append(s)
                        break
                self.to_act = -1
                return ENDED
        if self.clears:
            out = play_clears(self.clears, rank, same)
            if out:
                return self._clear(out)
        if mode == 0:
            after = _AFTER[self.players]
            s = after[seat]
            while not ncards[s]:
                if s == seat:
                    raise _nobody_holds_cards()
                s = after[s]
            self.to_act = s
        elif mode == 1:
            nxt = self.next_eligible(seat)
            if nxt < 0:
                return self._clear(CLEARED_ALL_PASSED)
            self.to_act = nxt
        elif self.round_left:
            self.to_act = self.round_left[0]
        else:
            return self._clear(CLEARED_ONCE_AROUND)
        return GOES_ON

    def pass_(self, seat: int) -> int:
        """``seat`` passes; returns the outcome (:data:`GOES_ON`, :data:`CLEARED_ALL_PASSED`
        or :data:`CLEARED_ONCE_AROUND`)."""
        passes = self.passes + 1
        self.passes = passes
        self.passed |= 1 << seat
        mode = self.mode
        if mode == 0:  # re-enter: every other seat with cards passed since the latest play
            ncards = self.ncards
            players = self.players
            active = players - len(self.finish)
            if passes >= (active - 1 if ncards[self.last] else active):
                return self._clear(CLEARED_ALL_PASSED)
            after = _AFTER[players]
            s = after[seat]
            while not ncards[s]:
                if s == seat:
                    raise _nobody_holds_cards()
                s = after[s]
            self.to_act = s
        elif mode == 1:  # sit-out: no one but the latest player still eligible
            nxt = self.next_eligible(seat)
            if nxt < 0 or nxt == self.last:
                return self._clear(CLEARED_ALL_PASSED)
            self.to_act = nxt
        else:  # once-around: one turn each after the lead
            rl = self.round_left
            rl.pop(0)
            if rl:
                self.to_act = rl[0]
            else:
                return self._clear(CLEARED_ONCE_AROUND)
        return GOES_ON

    def _clear(self, outcome: int) -> int:
        # The latest player leads, or the next seat with cards if it went out.
        self.need = 0
        self.top = -1
        self.same = 0
        self.passes = 0
        self.passed = 0
        self.round_left = []
        w = self.last
        ncards = self.ncards
        if not ncards[w]:
            after = _AFTER[self.players]
            w = after[w]
            while not ncards[w]:
                if w == self.last:
                    raise _nobody_holds_cards()
                w = after[w]
        self.to_act = w
        return outcome


class Position(PlayState):
    """A :class:`PlayState` with its own storage (what :class:`president.deal.Deal` keeps,
    and what tests build): ``Position(players, ncards, leader, strict=, mode=, clears=,
    reversal=False)`` or :meth:`PlayState.for_rules`; it carries the current order
    (``reversed``) under the ``reversal`` option."""

    __slots__ = STATE_SLOTS + ("reversal", "reversed")

    def __init__(self, players: int, ncards: Sequence[int], leader: int, *, strict: bool,
                 mode: int, clears: int, reversal: bool = False) -> None:
        PlayState.__init__(self, players, ncards, leader, strict=strict, mode=mode,
                           clears=clears)
        self.reversal = reversal
        self.reversed = False


def _nobody_holds_cards() -> ValueError:
    """The error of a turn-order loop that went all the way round: no seat holds cards, a
    state no deal reaches (its ``ncards`` were set by hand). Raised, not looped on."""
    return ValueError("no seat holds cards, so no one can act: ncards is not a state a deal "
                      "reaches (the deal ends when one seat is left holding cards)")


# _AFTER[players][seat]: the seat on the left (the next one clockwise)
_AFTER: Final = tuple(tuple((s + 1) % n for s in range(n)) if n else () for n in range(8))
