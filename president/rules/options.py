"""The options of docs/rules.md ("Options"), each defined once in :data:`OPTIONS`: its name,
its values (a :class:`~enum.StrEnum` per choice, :class:`FirstLead` and :class:`MatchEnd` for
the two structured ones), the check that reads and types a value, each value in plain words,
what the option means and the seeds it comes from (:meth:`Option.sources`, read from the
registries of :mod:`president.rules.presets`). :data:`OPTION_VALUES` and :data:`OPTION_HELP`
are made from it.

This module is part of the rules core: standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Callable, Literal, Mapping, Sequence

from ..cards import Card
from ..errors import NotationError, RulesError, shown
from ..events import TITLE_NAMINGS
from .presets import PRESET_SEEDS, PRESETS, TWISTS, preset_options

if TYPE_CHECKING:
    from .value import Rules

__all__ = ["MAX_NUMBER", "Beat", "Passing", "Exchange", "GiveBack", "Seating", "LaterLead",
           "Titles", "FirstLead", "MatchEnd", "Option", "OPTIONS", "OPTION_VALUES",
           "OPTION_HELP", "check_option_names", "parse_scoring"]

MAX_NUMBER = 1_000_000
"""The largest number a rule takes: points for a place, a points target, a number of deals."""


# ----- the values of the choice options ------------------------------------------------

class Beat(StrEnum):
    """docs/rules.md ``beat``: what a play must be to beat the latest play on the pile."""
    HIGHER = "higher"
    EQUAL_OR_HIGHER = "equal-or-higher"


class Passing(StrEnum):
    """docs/rules.md ``passing``: what a pass means for the rest of the pile."""
    RE_ENTER = "re-enter"
    SIT_OUT = "sit-out"
    ONCE_AROUND = "once-around"


class Exchange(StrEnum):
    """docs/rules.md ``exchange``: the cards that change hands before every deal but the first."""
    NONE = "none"
    ONE_CARD = "one-card"
    TWO_AND_ONE = "two-and-one"


class GiveBack(StrEnum):
    """docs/rules.md ``give_back``: what the President (and Vice-President) hand back."""
    ANY = "any"
    LOWEST = "lowest"


class Seating(StrEnum):
    """docs/rules.md ``seating``: how seats and the dealer change between deals."""
    FIXED = "fixed"
    BY_FINISH = "by-finish"


class LaterLead(StrEnum):
    """docs/rules.md ``later_lead``: who leads every deal after a match's first."""
    PRESIDENT = "president"
    LEFT_OF_DEALER = "left-of-dealer"


class Titles(StrEnum):
    """docs/rules.md "Places and titles": how each source names the finishing places (the words
    are :data:`~president.events.TITLE_NAMINGS`)."""
    PLACES = "places"
    LAST_TO_FINISH = "last-to-finish"
    PRESIDENT_ONLY = "president-only"
    ROLES = "roles"


# ----- the two structured options ------------------------------------------------------

@dataclass(frozen=True, slots=True, eq=False)
class FirstLead:
    """docs/rules.md ``first_lead``: who leads the first deal of a match.

    Written ``left-of-dealer``, ``holder-of:<card>`` or ``seat:<n>`` (:meth:`parse` reads
    it, ``str()`` writes it). Compares equal to another :class:`FirstLead` of the same
    lead and to its own text (``FirstLead.parse("seat:0") == "seat:0"``), so code and
    records written when the option was text keep working.

    Attributes:
        kind: ``"left-of-dealer"``, ``"holder-of"`` or ``"seat"``.
        card: for ``holder-of``, the :class:`~president.cards.Card` whose holder leads;
            else ``None``.
        seat: for ``seat``, the seat number (0 is the first seat); else ``None``.

    Raises:
        RulesError: (option ``first_lead``) when the kind does not fit its card or seat.
    """

    kind: Literal["left-of-dealer", "holder-of", "seat"]
    card: Card | None = None
    seat: int | None = None

    def __post_init__(self) -> None:
        ok = (self.kind == "left-of-dealer" and self.card is None and self.seat is None) or \
             (self.kind == "holder-of" and isinstance(self.card, Card) and self.seat is None) or \
             (self.kind == "seat" and self.card is None and isinstance(self.seat, int)
              and not isinstance(self.seat, bool) and self.seat >= 0)
        if not ok:
            raise RulesError("first_lead", f"first_lead = FirstLead({shown(self.kind)}, card="
                             f"{shown(self.card)}, seat={shown(self.seat)}) is not allowed; choose one "
                             f"of: {OPTION_VALUES['first_lead']}")

    @classmethod
    def parse(cls, text: str | FirstLead) -> FirstLead:
        """The first lead written as text (a :class:`FirstLead` is returned as it is).

        Raises:
            RulesError: (option ``first_lead``) if the text is none of the three forms, the
                card is not a card, or the seat is not a number.
        """
        if isinstance(text, FirstLead):
            return text
        if isinstance(text, str):
            if text == "left-of-dealer":
                return cls("left-of-dealer")
            if text.startswith("holder-of:"):
                try:
                    return cls("holder-of", card=Card.parse(text.partition(":")[2]))
                except NotationError:
                    raise RulesError("first_lead", f"first_lead = {shown(text)} does not name a "
                                     "card; write it like holder-of:3C") from None
            if text.startswith("seat:"):
                n = text.partition(":")[2]
                if n.isdigit():
                    return cls("seat", seat=int(n))
                raise RulesError("first_lead", f"first_lead = {shown(text)} names no seat; write "
                                 "it like seat:0")
        raise RulesError("first_lead", f"first_lead = {shown(text)} is not allowed; choose one of: "
                         f"{OPTION_VALUES['first_lead']}")

    def __str__(self) -> str:
        if self.card is not None:
            return f"holder-of:{self.card}"
        if self.seat is not None:
            return f"seat:{self.seat}"
        return "left-of-dealer"

    def __repr__(self) -> str:
        return f"FirstLead.parse({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (FirstLead, str)):
            return str(self) == str(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(str(self))


@dataclass(frozen=True, slots=True, eq=False)
class MatchEnd:
    """docs/rules.md ``match_end``: when a match ends.

    Written ``points:<target>``, ``deals:<n>``, ``single-deal`` or ``never`` (:meth:`parse`
    reads it, ``str()`` writes it); compares equal to its own text, like :class:`FirstLead`.

    Attributes:
        kind: ``"points"``, ``"deals"``, ``"single-deal"`` or ``"never"``.
        target: for ``points``, the total (at least 1) that ends the match after the deal
            in which someone reaches it; else ``None``.
        deals: for ``deals``, how many deals (at least 1) the match has; else ``None``.

    Raises:
        RulesError: (option ``match_end``) when the kind does not fit its number.
    """

    kind: Literal["points", "deals", "single-deal", "never"]
    target: int | None = None
    deals: int | None = None

    def __post_init__(self) -> None:
        def count(n: object) -> bool:
            return isinstance(n, int) and not isinstance(n, bool) and 0 < n <= MAX_NUMBER
        ok = (self.kind in ("single-deal", "never") and self.target is None
              and self.deals is None) or \
             (self.kind == "points" and count(self.target) and self.deals is None) or \
             (self.kind == "deals" and count(self.deals) and self.target is None)
        if not ok:
            raise RulesError("match_end", f"match_end = MatchEnd({shown(self.kind)}, target="
                             f"{shown(self.target)}, deals={shown(self.deals)}) is not allowed; choose "
                             f"one of: {OPTION_VALUES['match_end']}")

    @classmethod
    def parse(cls, text: str | MatchEnd) -> MatchEnd:
        """The end of a match written as text (a :class:`MatchEnd` is returned as it is).

        Raises:
            RulesError: (option ``match_end``) if the text is none of the four forms or its
                number is not a whole number of at least 1.
        """
        if isinstance(text, MatchEnd):
            return text
        if isinstance(text, str):
            if text == "single-deal":
                return cls("single-deal")
            if text == "never":
                return cls("never")
            kind, _, n = text.partition(":")
            if n.isascii() and n.isdigit() and 0 < len(n) <= 7 and 0 < int(n) <= MAX_NUMBER:
                if kind == "points":
                    return cls("points", target=int(n))
                if kind == "deals":
                    return cls("deals", deals=int(n))
        raise RulesError("match_end", f"match_end = {shown(text)} is not allowed; choose one of: "
                         f"{OPTION_VALUES['match_end']}")

    def __str__(self) -> str:
        if self.target is not None:
            return f"points:{self.target}"
        if self.deals is not None:
            return f"deals:{self.deals}"
        return self.kind

    def __repr__(self) -> str:
        return f"MatchEnd.parse({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (MatchEnd, str)):
            return str(self) == str(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(str(self))


# ----- one definition per option ---------------------------------------------------------

Words = Callable[["Rules", "Sequence[str] | None"], "str | None"]


@dataclass(frozen=True)
class Option:
    """One option of docs/rules.md "Options", defined once; everything else about the option
    is made from this.

    Attributes:
        name: the option's name in docs/rules.md, also its field of :class:`Rules` (``"beat"``).
        label: its name in plain words (``"Beat"``), for :func:`describe_items`.
        values: the allowed values in words, as :data:`OPTION_VALUES` and the error messages
            say them (``"higher, equal-or-higher"``).
        table_values: the allowed values in the options table of docs/rules.md (Markdown).
        meaning: what the option does, in that table.
        help: what it means, for a newcomer: :data:`OPTION_HELP` (the "?" beside a rule).
        check: ``check(value, players)``: the value as :class:`Rules` stores it (an enum
            member, a :class:`FirstLead`, a tuple of points...) from a value or its text, for
            a table of ``players``. Raises :class:`~president.errors.RulesError` naming the
            option and the allowed values.
        words: ``words(rules, names)``: the value of ``rules`` in plain words (``names``:
            player names by seat, or ``None``), or ``None`` where :func:`describe_items`
            leaves the option out.
        choices: the :class:`~enum.StrEnum` of a choice option's values, else ``None``.
        texts: for a choice option, each value in plain words (what ``words`` says before
            fitting it to the other options); else empty.
        cleared: for an option that makes a play clear the pile at once
            (:data:`president.kernel.CLEARS_OPTIONS`), why a pile cleared by it, in words
            (:data:`president.narration.CLEAR_REASONS`); else ``None``.

    The seeds that set each value come from the registries: :meth:`sources`.
    """

    name: str
    label: str
    values: str
    table_values: str
    meaning: str
    help: str
    check: Callable[[Any, int], Any]
    words: Words
    choices: type[StrEnum] | None = None
    texts: Mapping[str, str] = field(default_factory=dict)
    cleared: str | None = None

    def read(self, text: str) -> Any:
        """The value written as ``text`` in a rules name (``"true"``, ``"3,2,1"``), not yet
        checked (:attr:`check` does that).

        Raises:
            RulesError: for a yes-or-no option, text other than ``true`` or ``false``.
        """
        if self.table_values == "bool":
            if text in ("true", "false"):
                return text == "true"
            raise RulesError(self.name, f"{self.name} = {shown(text)} is not allowed; use true or "
                             "false")
        return text

    def sources(self) -> str:
        """Which seeds set which value, from the registries: each preset by its seed's
        number (:data:`~president.rules.PRESET_SEEDS`), each twist that sets this option as
        ``"000's sit-out"``. For example ``"re-enter: 000, 001, 003, 004; sit-out: 000's
        sit-out; once-around: 001's once-around"``; for ``players``, each preset's table sizes."""
        by_value: dict[str, list[str]] = {}
        for preset, (lo, hi, _) in PRESETS.items():
            seed = PRESET_SEEDS[preset][:3]
            if self.name == "players":
                by_value.setdefault(f"{lo}–{hi}" if lo != hi else f"{lo}", []).append(seed)
                continue
            value = self.check(preset_options(preset)[self.name], lo)
            by_value.setdefault(self.write(value), []).append(seed)
            for twist, (_, changes) in TWISTS[preset].items():
                if self.name in changes:
                    value = self.check(preset_options(preset, [twist])[self.name], lo)
                    by_value.setdefault(self.write(value), []).append(f"{seed}'s {twist}")
        if self.name == "players":
            return "; ".join(f"{', '.join(seeds)}: {v}" for v, seeds in by_value.items())
        return "; ".join(f"{v}: {', '.join(seeds)}" for v, seeds in by_value.items())

    def write(self, value: Any) -> str:
        """``value`` as text for a rules name; :meth:`read` and :attr:`check` read it back."""
        if isinstance(value, bool):
            return "true" if value else "false"
        if value is None:
            return "none"
        if isinstance(value, tuple):
            return ",".join(str(v) for v in value)
        return str(value)


def _choice(name: str, label: str, choices: type[StrEnum], texts: Mapping[str, str], *,
            meaning: str, help: str,
            tailor: Callable[[Rules, str], str | None] | None = None) -> Option:
    """A choice option: its values are the members of ``choices`` and ``texts`` says each in
    plain words; ``tailor(rules, text)``, if given, fits that text to the rest of the rules
    (``None``: :func:`describe_items` leaves the option out)."""
    by_value = {str(m): m for m in choices}
    missing = set(by_value) ^ set(texts)
    assert not missing, f"{name}: words for {sorted(missing)}"
    allowed = ", ".join(by_value)

    def check(value: Any, players: int) -> StrEnum:
        if isinstance(value, str) and value in by_value:
            return by_value[value]
        raise RulesError(name, f"{name} = {shown(value)} is not allowed; choose one of: {allowed}")

    def words(r: Rules, names: Sequence[str] | None) -> str | None:
        text = texts[getattr(r, name)]
        return text if tailor is None else tailor(r, text)

    return Option(name, label, allowed, " · ".join(f"`{v}`" for v in by_value), meaning,
                  help, check, words, choices, dict(texts))


def _check_players(value: Any, players: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 3 <= value <= 7:
        raise RulesError("players", f"players = {shown(value)} is not allowed; a table has 3 to 7 "
                         "players")
    return value


def _players_words(r: Rules, names: Sequence[str] | None) -> str:
    text = str(r.players)
    if r.preset_name:
        lo, hi, _ = PRESETS[r.preset_name]
        text += f" (this preset allows {lo}" + (f" to {hi})" if hi != lo else ")")
    return text


def _check_bool(value: Any, players: int) -> bool:
    if not isinstance(value, bool):
        raise RulesError("last_of_rank_clears", f"last_of_rank_clears = {shown(value)} is not "
                         "allowed; use true or false")
    return value


def _check_reversal(value: Any, players: int) -> bool:
    if not isinstance(value, bool):
        raise RulesError("reversal", f"reversal = {shown(value)} is not allowed; use true or false")
    return value


def _give_back_words(r: Rules, text: str) -> str | None:
    """Shown only with an exchange; the words of a value speak of cards, and of one card
    under ``one-card`` (two-and-one gives back two and one)."""
    if r.exchange == Exchange.NONE:
        return None
    return text.replace("cards", "card") if r.exchange == Exchange.ONE_CARD else text


def _check_first_lead(value: Any, players: int) -> FirstLead:
    lead = FirstLead.parse(value)
    if lead.seat is not None and lead.seat >= players:
        raise RulesError("first_lead", f"first_lead = {shown(str(lead))} names no seat; seats are 0 "
                         f"to {players - 1}")
    return lead


def _first_lead_words(r: Rules, names: Sequence[str] | None) -> str:
    lead = r.first_lead
    if lead.card is not None:
        return f"whoever holds the {lead.card}"
    if lead.seat is not None:
        seat = lead.seat
        return names[seat] if names is not None and 0 <= seat < len(names) else f"seat {seat}"
    return "the player left of the dealer"


def parse_scoring(value: Any) -> Any:
    """Scoring as text (``"2,1"``, ``"none"``) or a list, as a tuple or ``None``; other
    values are returned as they are for :func:`_check_scoring`."""
    if value is None:
        return None
    if isinstance(value, str):
        text = value.strip().lower()
        if text in ("none", ""):
            return None
        try:
            return tuple(int(p) for p in text.split(","))
        except ValueError:
            raise RulesError("scoring", f"scoring = {shown(value)} is not allowed; give points by "
                             "place such as 2,1, or none") from None
    if isinstance(value, list):
        return tuple(value)
    return value


def _check_scoring(value: Any, players: int) -> tuple[int, ...] | None:
    v = parse_scoring(value)
    if v is None:
        return None
    try:
        points: tuple[int, ...] | None = tuple(v)
    except TypeError:
        points = None
    if points is None or not points or len(points) > players or any(
            isinstance(p, bool) or not isinstance(p, int) or not 0 <= p <= MAX_NUMBER
            for p in points):
        raise RulesError("scoring", f"scoring = {shown(value)} is not allowed; give points by "
                         f"place (0 to {MAX_NUMBER:,} each) for at most {players} places, such "
                         "as 2,1, or none")
    return points


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth",
            7: "seventh"}.get(n, f"{n}th")


def _scoring_words(r: Rules, names: Sequence[str] | None) -> str:
    if r.scoring is None:
        return "none (roles only)"
    return ", ".join(f"{p} for {_ordinal(i + 1)}" for i, p in enumerate(r.scoring)) \
        + ", 0 for the rest"


def _match_end_words(r: Rules, names: Sequence[str] | None) -> str:
    end = r.match_end
    if end.target is not None:
        return (f"ends after the deal in which someone reaches {end.target} points; "
                "highest total wins, ties share")
    if end.deals is not None:
        return f"exactly {end.deals} deals; highest total wins, ties share"
    return "one deal" if end.kind == "single-deal" else "no end; play as many deals as you like"


OPTIONS: dict[str, Option] = {o.name: o for o in [
    Option(
        "players", "Players", "3 to 7", "3–7 (`practice`: 4)",
        "table size; `house` and `family` allow 4–7, `first-night` 3–7",
        "How many people sit at the table. The whole pack is dealt, so with more "
        "players each hand is smaller and some hands get one card more than others.",
        _check_players, _players_words),
    _choice(
        "beat", "Beat", Beat,
        {Beat.HIGHER: "same number of cards, strictly higher rank",
         Beat.EQUAL_OR_HIGHER: "same number of cards, equal or higher rank"},
        meaning="same count and strictly higher rank; or same count and equal or higher rank",
        help="To beat the play on the pile you put down the same number of cards (a pair on "
             "a pair) of a higher rank; under equal-or-higher the same rank also beats it. "
             "Twos are the highest rank, threes the lowest."),
    _choice(
        "passing", "Passing", Passing,
        {Passing.RE_ENTER: "a pass skips only this turn; the pile clears when everyone else "
                           "has passed since the latest play",
         Passing.SIT_OUT: "a pass takes you out of the pile until it clears",
         Passing.ONCE_AROUND: "after the lead everyone else gets one turn, then the pile "
                              "clears"},
        meaning="see below",
        help="What a pass means for the rest of the pile: whether you may play again on "
             "this pile after passing, and when the pile is cleared away."),
    Option(
        "last_of_rank_clears", "Last of a rank", "true, false", "bool",
        "a play that puts all four cards of its rank on the current pile (four of a kind at "
        "once, or the rest of that rank onto the same rank already on the pile) clears the "
        "pile at once; that player leads again, or, if that play emptied their hand, the next "
        "seat clockwise with cards leads",
        "When this is on, a play that completes all four cards of one rank on the pile sweeps "
        "the pile away at once, and whoever played it leads next.",
        _check_bool,
        lambda r, names: "completing all four cards of a rank on the pile clears it"
        if r.last_of_rank_clears else "no special effect",
        cleared="all four cards of the rank are on the pile"),
    Option(
        "twos_clear", "Twos clear", "true, false", "bool",
        "a play of twos (one or more) clears the pile at once; that player leads again, or, "
        "if that play emptied their hand, the next seat clockwise with cards leads; this holds "
        "whatever the rank order",
        "When this is on, playing 2s sweeps the pile away at once and you lead again: nobody "
        "gets a chance to answer them.",
        _check_bool,
        lambda r, names: "a play of twos clears the pile at once and its player leads again "
        "(the next seat with cards, if the twos emptied that hand)" if r.twos_clear else None,
        cleared="twos were played"),
    Option(
        "reversal", "Rank reversal", "true, false", "bool",
        "a play of four of a kind reverses the rank order until the deal ends (a second one "
        "reverses it back): a lower rank then beats (under `equal-or-higher`, an equal or "
        "lower one); the four of a kind clears the pile only as any play would; every deal "
        "starts in normal order and the exchange is not affected",
        "When this is on, playing four of a kind turns the order of the ranks upside down "
        "for the rest of the deal: threes are then the highest and twos the lowest, so you "
        "beat a play with a lower rank. Another four of a kind turns it back.",
        _check_reversal,
        lambda r, names: "four of a kind reverses the rank order until the deal ends (a "
        "second one reverses it back)" if r.reversal else None),
    _choice(
        "exchange", "Exchange", Exchange,
        {Exchange.NONE: "none",
         Exchange.ONE_CARD: "before each later deal the last player gives their highest card "
                            "to the President, who gives one card back",
         Exchange.TWO_AND_ONE: "before each later deal the bottom gives their two highest "
                               "cards to the President and gets two back; the Vice-Scum and "
                               "Vice-President swap one (with 3 players only one card each "
                               "between President and bottom)"},
        meaning="card exchange before every deal but a match's first",
        help="Cards that change hands before a deal, according to the last deal's "
             "finishing places: the bottom player must give their best cards to the "
             "President, who gives the same number of cards back."),
    _choice(
        "give_back", "Give back", GiveBack,
        {GiveBack.ANY: "any cards of the giver's choice",
         GiveBack.LOWEST: "the giver's lowest cards (any suit among equal ranks)"},
        meaning="what the President and Vice-President give back in the exchange: any cards "
                "of their choice, or their lowest cards (any suit among equal ranks)",
        help="Which cards the President (and, in the two-and-one swap, the Vice-President) "
             "hand back in the exchange: any cards they choose, or their lowest ones (they "
             "still pick the suit among cards of equal rank).",
        tailor=_give_back_words),
    _choice(
        "seating", "Seating", Seating,
        {Seating.FIXED: "seats stay; the dealer moves one seat clockwise each deal",
         Seating.BY_FINISH: "players sit in last deal's finishing order; the last player "
                            "deals"},
        meaning="how seats and the dealer change between deals",
        help="Whether everyone keeps their chair between deals, or moves to sit in the "
             "order they finished, so that the dealer and the turn order change."),
    Option(
        "first_lead", "First deal's lead",
        "left-of-dealer, holder-of:<card> (e.g. holder-of:3C), seat:<n>",
        "`left-of-dealer` · `holder-of:<card>` · `seat:<n>`",
        "who leads the first deal of a match",
        "Who puts down the first cards of the first deal. That player may lead "
        "any single, pair, triple or four of a kind.",
        _check_first_lead, _first_lead_words),
    _choice(
        "later_lead", "Later deals' lead", LaterLead,
        {LaterLead.PRESIDENT: "the previous President",
         LaterLead.LEFT_OF_DEALER: "the player left of the dealer"},
        meaning="who leads every later deal",
        help="Who puts down the first cards of every deal after the first.",
        tailor=lambda r, text: None if r.match_end.kind == "single-deal" else text),
    Option(
        "scoring", "Scoring", "points by place such as 2,1 (the rest score 0), or none",
        "points by place, e.g. `2,1` (rest 0) · none", "points added after each deal",
        "Points given after each deal by finishing place; places not listed score "
        "nothing. With no points, only the titles (President, Vice-President, ...) "
        "count.",
        _check_scoring, _scoring_words),
    Option(
        "match_end", "Match", "points:<target>, deals:<n>, single-deal, never",
        "`points:<target>` · `deals:<n>` · `single-deal` · `never`", "when a match ends",
        "When the whole match is over and who wins it.",
        lambda value, players: MatchEnd.parse(value), _match_end_words),
    _choice(
        "titles", "Titles", Titles, TITLE_NAMINGS,
        meaning='how finishing places are named (see "Places and titles")',
        help="What each finishing place is called after a deal. The sources name them "
             "differently; the names never change the play, and the exchange goes by "
             "finishing place."),
]}
"""Every option of docs/rules.md "Options" by name, in the order of its table: the one
definition of each (see :class:`Option`)."""

OPTION_VALUES: dict[str, str] = {name: o.values for name, o in OPTIONS.items()}
"""The allowed values of each option, in words (from :data:`OPTIONS`)."""

OPTION_HELP: dict[str, str] = {name: o.help for name, o in OPTIONS.items()}
"""What each option of :class:`Rules` means, in plain words for a newcomer (the start
screen's "?" beside each rule); its value in words is :func:`describe_items`."""



def check_option_names(options: Mapping[str, Any]) -> None:
    """Check that every key of ``options`` names an option a preset's values may be changed
    by (any of :data:`OPTIONS` but ``players``, the table size, which is given apart).

    Raises:
        RulesError: (option: the key) for the first key that is no such option.
    """
    for key in options:
        if key not in OPTIONS or key == "players":
            more = (" (the table size is not an option of the name: give it on its own, "
                    "e.g. --players 5 on the command line)") if key == "players" else ""
            raise RulesError(key, f"there is no option {shown(key)}{more}; options are: "
                             f"{', '.join(k for k in OPTIONS if k != 'players')}")

