"""Which rules the compiled code (C) may play: one allow-list for every compiled part.

The C sources of the two optional extensions ``president._playout`` (the play-outs, the
compiled kernel state, the endgame solver) and ``president._vector`` (the batched core under
:class:`president.env.VectorEnv`) live in this folder; the rules of play are stated once in
C in ``_rules.h``, a restatement of :mod:`president.kernel` (the Python statement is the
reference).

:data:`NATIVE_VALUES` names, for every option of :class:`president.rules.Rules`, the values
the C code plays. An option missing from it, or a value of an option that it does not list,
means the Python code plays those rules: a new option or value is never silently ignored by
C, it takes the Python path until someone teaches the C code and adds it here (a test fails
while an option of ``Rules`` is missing from the table).

>>> from president.rules import Rules
>>> native_supports(Rules.preset("house"))
True
>>> native_refusal(Rules.preset("house", twists=("reversal",)))
'the reversal twist (reversal = on) is played in Python only; the compiled code plays reversal = off'
"""

from __future__ import annotations

from dataclasses import fields
from typing import TYPE_CHECKING, Final, Protocol

from ..kernel import CLEARS_OPTIONS, PASSING, strict_of

if TYPE_CHECKING:
    from ..rules import Rules

__all__ = ["EVERY_VALUE", "NATIVE_VALUES", "native_supports", "native_refusal",
           "deal_supported"]


class _EveryValue:
    """The marker of an option whose every value the C code plays (see :data:`EVERY_VALUE`)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "EVERY_VALUE"


EVERY_VALUE: Final = _EveryValue()
"""In :data:`NATIVE_VALUES`: every value of the option is fine for C, because the C code
never reads it while it plays a deal (a name, a list of twist names whose effects are other
options, the points per place that the compiled core only copies into rewards)."""

def _clears_known() -> int:
    """The clearing rules the C code states (``R_CLEARS_KNOWN`` of ``_rules.h``, a bit mask
    of :data:`president.kernel.CLEARS_OPTIONS`' bits), ``0`` when the extension is not
    built (then C plays nothing anyway)."""
    try:
        from .. import _playout  # type: ignore[attr-defined]
    except ImportError:
        return 0
    return int(_playout.CLEARS_KNOWN)


_CLEARS_KNOWN: Final = _clears_known()

NATIVE_VALUES: Final[dict[str, frozenset[object] | _EveryValue]] = {
    # The play of a deal: what C states in _rules.h.
    "players": frozenset(range(2, 8)),
    "beat": frozenset({"higher", "equal-or-higher"}),
    "passing": frozenset({"re-enter", "sit-out", "once-around"}),
    # The options that clear the pile at once (kernel.CLEARS_OPTIONS): on where _rules.h
    # states the rule (its bit in R_CLEARS_KNOWN, read from the built module), else off only.
    **{option: frozenset({False, True}) if bit & _CLEARS_KNOWN else frozenset({False})
       for option, bit, _ in CLEARS_OPTIONS},
    "reversal": frozenset({False}),
    # Options of the match around a deal. The play-outs never read them and the compiled
    # core plays one-deal episodes; the values are listed all the same, so that a new value
    # (one that might change the play of a deal) takes the Python path until it is checked.
    "exchange": frozenset({"none", "one-card", "two-and-one"}),
    "give_back": frozenset({"any", "lowest"}),
    "seating": frozenset({"fixed", "by-finish"}),
    "first_lead": frozenset({"left-of-dealer", "holder-of", "seat"}),   # its kind
    "later_lead": frozenset({"president", "left-of-dealer"}),
    "match_end": frozenset({"points", "deals", "single-deal", "never"}),   # its kind
    "titles": frozenset({"places", "last-to-finish", "president-only", "roles"}),
    "scoring": EVERY_VALUE,
    "preset_name": EVERY_VALUE,
    "twists": EVERY_VALUE,
}
"""For each option of :class:`president.rules.Rules` (by field name), the values the C code
plays: a set of plain values (an enum option by its word, a bool as ``False``/``True``, an
option with a ``kind`` such as ``first_lead`` by its kind), or :data:`EVERY_VALUE`."""


def _plain(value: object) -> object:
    """An option value as :data:`NATIVE_VALUES` lists it: an enum's word (a ``str``
    subclass becomes a plain ``str``), a ``kind`` for an option value that has one, else
    the value itself."""
    kind = getattr(value, "kind", None)
    if isinstance(kind, str):
        return kind
    if isinstance(value, str):
        return str.__str__(value)
    return value


def _words(value: object) -> str:
    """A plain option value in a player's words: ``on``/``off`` for a bool."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def _known(allowed: frozenset[object]) -> str:
    """The values C plays, sorted, in words: ``a, b or c``."""
    words = sorted(_words(v) for v in allowed)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def native_refusal(rules: "Rules") -> str | None:
    """Why the C code may not play ``rules`` (a :class:`president.rules.Rules`), in a
    player's words, or ``None`` when it may. The first option (in the order of the
    ``Rules`` fields) that :data:`NATIVE_VALUES` does not name, or whose value it does not
    list, is the reason."""
    for f in fields(rules):
        allowed = NATIVE_VALUES.get(f.name)
        value = _plain(getattr(rules, f.name))
        if allowed is None:
            return (f"the option {f.name} is new to the compiled code, which does not play "
                    "it yet; these rules are played in Python only")
        if isinstance(allowed, _EveryValue):
            continue
        try:
            known = value in allowed
        except TypeError:   # an unhashable value is no value C knows
            known = False
        if not known:
            what = f"{f.name} = {_words(value)}"
            if f.name in ("reversal",) and value is True:
                what = f"the {f.name} twist ({what})"
            return (f"{what} is played in Python only; the compiled code plays "
                    f"{f.name} = {_known(allowed)}")
    return None


def native_supports(rules: "Rules") -> bool:
    """Whether the C code may play ``rules`` (a :class:`president.rules.Rules`): every
    option is named in :data:`NATIVE_VALUES` with its value listed (:func:`native_refusal`
    is ``None``)."""
    return native_refusal(rules) is None


class _DealOptions(Protocol):
    """The options a deal on counts carries (:class:`president.kernel.PlayState`, and the
    ``reversal`` of :class:`president.players.playout_state.FastDeal`)."""

    players: int
    strict: bool
    mode: int
    clears: int
    reversal: bool


def deal_supported(deal: _DealOptions) -> bool:
    """Whether the C code may play a deal on counts (a
    :class:`president.players.playout_state.FastDeal` or a
    :class:`president.kernel.Position`), judged by the options it carries, each against
    :data:`NATIVE_VALUES`: ``players``, ``strict`` (the ``beat`` option), ``mode`` (the
    ``passing`` option), ``clears`` (the clearing options' bits,
    :data:`president.kernel.CLEARS_OPTIONS`) and ``reversal``.

    A value that no rules give (a ``mode`` that is not an index of
    :data:`president.kernel.PASSING`, a table of more than 7 seats) is not a rules value
    that C might get wrong but a broken state: it is left to the C code, whose loader refuses
    it with a ``ValueError`` saying what is wrong."""
    beats = NATIVE_VALUES["beat"]
    passing = NATIVE_VALUES["passing"]
    if isinstance(beats, _EveryValue) or isinstance(passing, _EveryValue):
        return False   # never: the table lists these values
    mode = deal.mode
    return (_listed("players", deal.players) or deal.players not in _TABLE_SIZES)\
        and bool(deal.strict) in {strict_of(str(b)) for b in beats}\
        and (mode not in range(len(PASSING)) or PASSING[mode] in passing)\
        and all(_listed(option, bool(deal.clears & bit)) for option, bit, _ in CLEARS_OPTIONS)\
        and _listed("reversal", bool(deal.reversal))


#: The table sizes any rules may give (``players`` of :class:`president.rules.Rules`).
_TABLE_SIZES: Final = range(2, 8)


def _listed(name: str, value: object) -> bool:
    """Whether :data:`NATIVE_VALUES` lets C play ``value`` of the option ``name``."""
    allowed = NATIVE_VALUES.get(name)
    return allowed is not None and (isinstance(allowed, _EveryValue) or value in allowed)
