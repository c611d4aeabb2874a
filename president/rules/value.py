"""The rules of one table as one frozen value, :class:`Rules`: built from a preset
(:meth:`Rules.preset`), a name (:meth:`Rules.parse`), a stored dict (:meth:`Rules.from_dict`)
or every option by keyword, and written back as a name (:attr:`Rules.name`, ``str()``) or a
dict (:meth:`Rules.to_dict`). The three ways of building give equal values for the same
rules, and a value has one name and one hash whatever order its twists were given in.

This module is part of the rules core: standard library only.
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError, dataclass, replace
from functools import lru_cache
from typing import Any, Callable, Mapping, Sequence, overload

from ..errors import RulesError, shown
from .options import (OPTIONS, Beat, Exchange, FirstLead, GiveBack, LaterLead, MatchEnd, Passing,
                      Seating, Titles, check_option_names, parse_scoring)
from .presets import PRESETS, canonical_twists, preset_options
from .words import describe_lines

__all__ = ["Rules"]

CUSTOM_PLAYERS = 4
"""The table size of custom rules (no preset) when none is given, as for the plain constructor."""

_LEFT_OF_DEALER = FirstLead("left-of-dealer")
_ELEVEN_POINTS = MatchEnd("points", target=11)


class _PresetAccess:
    """``Rules.preset``: on the class, the constructor :meth:`Rules.from_preset`
    (``Rules.preset("house", players=5)``); on a rules value, the name of its preset
    (``rules.preset``, the field :attr:`Rules.preset_name`). A descriptor, so that the
    field and the constructor keep the names every caller uses without sharing one."""

    @overload
    def __get__(self, obj: None, owner: type[Rules]) -> Callable[..., Rules]: ...

    @overload
    def __get__(self, obj: Rules, owner: type[Rules] | None = None) -> str | None: ...

    def __get__(self, obj: Rules | None, owner: type[Rules] | None = None) -> Any:
        if obj is None:
            return (owner or Rules).from_preset
        return obj.preset_name


@dataclass(frozen=True, kw_only=True, slots=True)
class Rules:
    """All the options of one table (docs/rules.md, "Options"). Immutable and checked when built.

    Build one from a preset with :meth:`preset` (:meth:`from_preset`) or :meth:`parse`; the
    plain constructor takes every option by keyword (defaults are the ``house`` preset with 4
    players, without the preset's name). Each option is defined in
    :data:`~president.rules.OPTIONS`, which says what it means and which seeds set it; its
    value may be given as text (``beat="higher"``, ``first_lead="holder-of:3C"``,
    ``scoring="2,1"``) and is stored typed.

    A value cannot be changed: it has no ``__dict__`` and assigning to a field raises
    :class:`dataclasses.FrozenInstanceError`; :meth:`with_options` gives a checked copy.

    Attributes:
        players: table size, 3–7 (a preset may narrow it).
        beat: :class:`~president.rules.Beat`.
        passing: :class:`~president.rules.Passing`.
        last_of_rank_clears: whether completing all four cards of a rank on the pile clears it.
        twos_clear: whether a play of twos clears the pile at once (the same player leads
            again); twist ``twos-clear`` of ``house`` and ``family``.
        reversal: whether a play of four of a kind reverses the rank order until the deal
            ends (a second one reverses it back); twist ``reversal`` of ``house`` and
            ``family``.
        exchange: :class:`~president.rules.Exchange`.
        give_back: :class:`~president.rules.GiveBack`: what the President (and
            Vice-President) give back in the exchange: ``any`` cards of their choice (the
            house-match and family guides) or their ``lowest`` cards, any suit among equal
            ranks (the first-night guide's "two worst").
        seating: :class:`~president.rules.Seating`.
        first_lead: :class:`~president.rules.FirstLead` (``left-of-dealer``,
            ``holder-of:<card>``, ``seat:<n>``).
        later_lead: :class:`~president.rules.LaterLead`.
        scoring: points by finishing place (first place first; missing places score 0),
            or ``None`` for no points (roles only).
        match_end: :class:`~president.rules.MatchEnd` (``points:<target>``, ``deals:<n>``,
            ``single-deal``, ``never``).
        titles: :class:`~president.rules.Titles`: how finishing places are named
            (docs/rules.md, "Places and titles"), as each source names them: ``places`` (the
            house-match guide), ``last-to-finish`` (the family guide), ``president-only``
            (the practice-round source) or ``roles`` (the first-night guide); the words are
            :func:`~president.events.title_for_place`.
        preset_name: the preset this came from, or ``None``; read it as ``rules.preset``.
        twists: the twists applied, in the order :data:`~president.rules.TWISTS` declares
            them (whatever order they were given in), each spelled one way: a twist's
            default argument is left out (``"lowest-three-starts"`` for the three of clubs,
            ``"lowest-three-starts:3D"`` for another three).

    Choice options hold :class:`~enum.StrEnum` members, which are equal to their text
    (``rules.beat == "higher"``); :class:`~president.rules.FirstLead` and
    :class:`~president.rules.MatchEnd` are equal to theirs too.

    Raises:
        RulesError: on any value outside the allowed ones, naming the option; a preset
            that does not exist or does not allow the table size; a twist without a
            preset or not of its preset.
    """

    players: int = 4
    beat: Beat = Beat.HIGHER
    passing: Passing = Passing.RE_ENTER
    last_of_rank_clears: bool = False
    twos_clear: bool = False
    reversal: bool = False
    exchange: Exchange = Exchange.ONE_CARD
    give_back: GiveBack = GiveBack.ANY
    seating: Seating = Seating.FIXED
    first_lead: FirstLead = _LEFT_OF_DEALER
    later_lead: LaterLead = LaterLead.PRESIDENT
    scoring: tuple[int, ...] | None = (2, 1)
    match_end: MatchEnd = _ELEVEN_POINTS
    titles: Titles = Titles.PLACES
    preset_name: str | None = None
    twists: tuple[str, ...] = ()

    preset = _PresetAccess()

    def __post_init__(self) -> None:
        put = object.__setattr__
        for option in OPTIONS.values():  # players first: the checks after it use the size
            put(self, option.name, option.check(getattr(self, option.name), self.players))
        if self.scoring is None and self.match_end.kind == "points":
            raise RulesError("scoring", "a match that ends at a points target needs scoring; "
                             "set scoring such as 2,1 or end the match another way")
        if self.preset_name is not None:
            if not isinstance(self.preset_name, str) or self.preset_name not in PRESETS:
                raise RulesError("preset", f"no preset named {shown(self.preset_name)}; presets "
                                 f"are: {', '.join(PRESETS)}")
            lo, hi, _ = PRESETS[self.preset_name]
            if not lo <= self.players <= hi:
                allowed = f"{lo}" if lo == hi else f"{lo} to {hi}"
                raise RulesError("players", f"the {self.preset_name} preset is for {allowed} "
                                 f"players, not {self.players}")
        twists = (self.twists,) if isinstance(self.twists, str) else self.twists
        put(self, "twists", canonical_twists(self.preset_name, twists))

    # ----- construction from names -------------------------------------------------

    @classmethod
    def from_preset(cls, name: str, *, players: int | None = None, twists: Sequence[str] = (),
                    **options: Any) -> Rules:
        """The rules of a named preset with twists and option overrides applied; also
        called as ``Rules.preset(name, ...)``.

        Args:
            name: a preset of :data:`~president.rules.PRESETS`: ``"house"``, ``"family"``,
                ``"practice"`` or ``"first-night"``.
            players: table size (default: the preset's smallest table).
            twists: twist names of that preset (:data:`~president.rules.TWISTS`), e.g.
                ``["sit-out"]`` or ``["lowest-three-starts:3D"]``, in any order (the value
                keeps them in the registry's order).
            **options: any option of :data:`~president.rules.OPTIONS` but ``players`` by
                its docs/rules.md name, as a value or its text, overriding the preset and twists.

        Raises:
            RulesError: unknown preset, twist or option, or a value not allowed.
        """
        values = preset_options(name, twists)
        check_option_names(options)
        values.update(options)
        return cls(players=PRESETS[name][0] if players is None else players, preset_name=name,
                   twists=tuple(twists), **values)

    @classmethod
    def parse(cls, spec: str, *, players: int | None = None, **options: Any) -> Rules:
        """Rules from their name, :attr:`name`, or from ``str(rules)``:
        ``"PRESET[+TWIST…][/OPTION=VALUE…]"``.

        ``"house+sit-out+three-deals"`` is the ``house`` preset with two twists (in any
        order); ``"house+sit-out/beat=equal-or-higher/scoring=3,2,1"`` changes two options
        after them (each option once, values written as :meth:`Option.write
        <president.rules.Option.write>` writes them: ``true``/``false``, ``none``, ``2,1``,
        ``holder-of:3C``, ``deals:3``); ``"custom/passing=sit-out"`` is the plain
        constructor's options with a change. ``players=N`` after a ``/`` is the table size,
        as ``str()`` writes it; without it the size is ``players`` if given, else the
        preset's smallest table (4 for custom rules). Keyword ``options`` change options
        after those of the name.

        Raises:
            RulesError: as :meth:`from_preset`; a part after ``/`` that is not
                ``OPTION=VALUE`` of a known option, or an option named twice; twists after
                ``custom``; a table size in the name that is not ``players``.
        """
        head, *pairs = spec.strip().split("/")
        name, *twists = head.strip().split("+")
        given: dict[str, Any] = {}
        for pair in pairs:
            key, eq, text = pair.partition("=")
            key, text = key.strip(), text.strip()
            if not eq or not key:
                raise RulesError("rules", f"{shown(pair)} in {shown(spec)} is not OPTION=VALUE; write "
                                 "changes like house+sit-out/beat=equal-or-higher/scoring=3,2,1")
            if key != "players":
                check_option_names({key: None})
            if key in given:
                raise RulesError(key, f"{key} is changed twice in {shown(spec)}; change it once")
            given[key] = OPTIONS[key].read(text)
        if "players" in given:
            text = given.pop("players")
            named = int(text) if text.isascii() and text.isdigit() and len(text) <= 2 else text
            if players is not None and players != named:
                raise RulesError("players", f"{shown(spec)} is for players = {shown(named)}, not "
                                 f"{players}; give the table size once")
            players = named
        check_option_names(options)
        given.update(options)
        if name == "custom":
            if twists:
                raise RulesError("twist", "twists need a preset; custom rules have none")
            return cls(players=CUSTOM_PLAYERS if players is None else players, **given)
        return cls.from_preset(name, players=players, twists=twists, **given)

    # ----- records ------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict: preset, twists, players and every option by its docs/rules.md name,
        as text (``"first_lead": "holder-of:3C"``), ``true``/``false``, or for ``scoring`` a
        list of points or ``None``."""
        out: dict[str, Any] = {"preset": self.preset_name, "twists": list(self.twists),
                               "players": self.players}
        for name in OPTIONS:
            if name == "players":
                continue
            value = getattr(self, name)
            if isinstance(value, tuple):
                out[name] = list(value)
            elif value is None or isinstance(value, bool):
                out[name] = value
            else:
                out[name] = str(value)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Inverse of :meth:`to_dict`; options not given come from the preset and twists
        (without a preset, from the defaults of :class:`Rules`), so a sparse dict is the
        preset: ``Rules.from_dict({"preset": "first-night", "twists": ["swap"]}) ==
        Rules.preset("first-night", twists=["swap"])``. Reading a dict stored under an older
        meaning (a game record of ``president/1``, a saved table of version 1) is the
        reader's business: :func:`president.records.read_rules`.

        ``scoring`` may be a list, a string like ``"2,1"``, or ``"none"``/``null``;
        ``twists`` a list of names or one name.

        Raises:
            RulesError: on an unknown key or a bad value.
        """
        data = dict(data)
        preset = data.pop("preset", None)
        twists = data.pop("twists", []) or []
        players = data.pop("players", None)
        if isinstance(twists, str):
            twists = [twists]
        if "scoring" in data:
            data["scoring"] = parse_scoring(data["scoring"])
        unknown = [k for k in data if k not in OPTIONS]
        if unknown:
            raise RulesError(unknown[0], f"there is no option {shown(unknown[0])}; options are: "
                             f"{', '.join(OPTIONS)}")
        if preset is None:
            if twists:
                raise RulesError("twist", "twists need a preset")
            return cls(players=CUSTOM_PLAYERS if players is None else players, **data)
        return cls.from_preset(preset, players=players, twists=twists, **data)

    def with_options(self, **options: Any) -> Rules:
        """A copy with some options changed (checked again).

        Raises:
            RulesError: on an unknown option or a value not allowed.
        """
        check_option_names(options)
        return replace(self, **options)

    # ----- names --------------------------------------------------------------------

    def _overrides(self) -> tuple[tuple[str, Any], ...]:
        return _overrides_of(self)

    @property
    def overrides(self) -> dict[str, Any]:
        """The options whose values differ from what the preset and twists give (without
        a preset, from the plain constructor's defaults), in the order of
        :data:`~president.rules.OPTIONS`: ``{}`` for ``Rules.preset("house", twists=["sit-out"])``."""
        return dict(self._overrides())

    @property
    def name(self) -> str:
        """The rules' name, which :meth:`parse` reads back to these rules (with the table
        size given apart): ``"house+sit-out"``, ``"custom"`` without a preset, and after a
        ``/`` each option that differs from what the preset and twists give, as
        ``OPTION=VALUE`` (``"house+sit-out/beat=equal-or-higher/scoring=3,2,1"``). The
        twists are in the registry's order, so equal rules have one name."""
        return self._spec(with_players=False)

    def __str__(self) -> str:
        """The name with the table size in it where it is not the one the name alone gives
        (the preset's smallest table; 4 for custom rules), as ``players=N``, the first
        option after the ``/``: ``"house+sit-out"`` at 4 players,
        ``"house+sit-out/players=5/beat=equal-or-higher"`` at 5. ``Rules.parse(str(r)) == r``
        for every rules value."""
        return self._spec(with_players=True)

    def _spec(self, *, with_players: bool) -> str:
        head = "+".join([self.preset_name or "custom", *self.twists])
        parts = [f"{k}={OPTIONS[k].write(v)}" for k, v in self._overrides()]
        default = PRESETS[self.preset_name][0] if self.preset_name else CUSTOM_PLAYERS
        if with_players and self.players != default:
            parts.insert(0, f"players={self.players}")
        return "/".join([head, *parts])

    def describe(self) -> str:
        """The rules in plain words, one line per option."""
        return "\n".join(describe_lines(self))


@lru_cache(maxsize=1024)
def _overrides_of(rules: Rules) -> tuple[tuple[str, Any], ...]:
    """The options of ``rules`` that differ from what its preset and twists give (without a
    preset, from the plain constructor's defaults), as ``(option, value)`` in the order of
    :data:`~president.rules.OPTIONS`; worked out once per rules value (names are asked for
    often, by every screen)."""
    if rules.preset_name is None:
        base = Rules(players=rules.players)
    else:
        base = Rules.from_preset(rules.preset_name, players=rules.players, twists=rules.twists)
    return tuple((name, getattr(rules, name)) for name in OPTIONS
                 if name != "players" and getattr(rules, name) != getattr(base, name))


def _refuse_assignment(self: Rules, name: str, value: Any) -> None:
    raise FrozenInstanceError(f"cannot assign to {name!r}: a Rules value never changes; "
                              "with_options() gives a changed copy")


def _refuse_deletion(self: Rules, name: str) -> None:
    raise FrozenInstanceError(f"cannot delete {name!r}: a Rules value never changes")


# A frozen dataclass with slots (Python 3.11) checks assignments against the class as it was
# before its slots were added, so assigning a name that is no field (``rules.preset = ...``)
# failed with a TypeError from inside dataclasses. Every assignment and deletion is refused
# here in one place, as FrozenInstanceError (an AttributeError).
Rules.__setattr__ = _refuse_assignment  # type: ignore[method-assign,assignment]
Rules.__delattr__ = _refuse_deletion  # type: ignore[method-assign,assignment]
