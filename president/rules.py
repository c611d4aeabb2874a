"""The rule options, presets and twists of RULES.md, as one frozen value.

Every option of RULES.md ("Options") is a field of :class:`Rules`; a reader finds each
option here and nowhere else. Presets (one per seed file) and named twists are looked up
by name:

>>> r = Rules.preset("house", players=5, twists=["sit-out"])
>>> r.passing, r.scoring, r.match_end
('sit-out', (2, 1), 'points:11')
>>> Rules.parse("first-night+swap", players=3).exchange
'two-and-one'

Values are checked when a :class:`Rules` is built; a wrong value raises
:class:`~president.errors.RulesError` naming the option and the allowed values.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any, Mapping, Sequence

from .cards import Card, Rank
from .errors import NotationError, RulesError
from .events import TITLE_NAMINGS

__all__ = ["Rules", "PRESETS", "TWISTS", "OPTION_VALUES", "OPTION_HELP", "PRESET_SEEDS",
           "describe_items"]

OPTION_VALUES: dict[str, str] = {
    "players": "3 to 7",
    "beat": "higher, equal-or-higher",
    "passing": "re-enter, sit-out, once-around",
    "last_of_rank_clears": "true, false",
    "exchange": "none, one-card, two-and-one",
    "give_back": "any, lowest",
    "seating": "fixed, by-finish",
    "first_lead": "left-of-dealer, holder-of:<card> (e.g. holder-of:3C), seat:<n>",
    "later_lead": "president, left-of-dealer",
    "scoring": "points by place such as 2,1 (the rest score 0), or none",
    "match_end": "points:<target>, deals:<n>, single-deal, never",
    "titles": ", ".join(TITLE_NAMINGS),
}

# preset name -> (min players, max players, options). RULES.md "Presets".
PRESETS: dict[str, tuple[int, int, dict[str, Any]]] = {
    "house": (4, 7, dict(beat="higher", passing="re-enter", last_of_rank_clears=False,
                         exchange="one-card", give_back="any", seating="fixed",
                         first_lead="left-of-dealer", later_lead="president", scoring=(2, 1),
                         match_end="points:11", titles="places")),
    "family": (4, 7, dict(beat="higher", passing="re-enter", last_of_rank_clears=False,
                          exchange="one-card", give_back="any", seating="by-finish",
                          first_lead="left-of-dealer", later_lead="president", scoring=(2, 1),
                          match_end="points:11", titles="last-to-finish")),
    "practice": (4, 4, dict(beat="higher", passing="re-enter", last_of_rank_clears=False,
                            exchange="none", give_back="any", seating="fixed",
                            first_lead="seat:0",
                            later_lead="president", scoring=None, match_end="single-deal",
                            titles="places")),
    "first-night": (3, 7, dict(beat="equal-or-higher", passing="re-enter",
                               last_of_rank_clears=True, exchange="none", give_back="lowest",
                               seating="by-finish",
                               first_lead="left-of-dealer", later_lead="president",
                               scoring=None, match_end="never", titles="roles")),
}

PRESET_SOURCES = {
    "house": "a house-match guide",
    "family": "a family guide",
    "practice": "a browser practice round",
    "first-night": "a first-night guide",
}

PRESET_SEEDS = {
    "house": "000_2ebb75a2290c9d05.txt",
    "family": "001_6a3b64d15368b01c.txt",
    "practice": "003_e6cd2942d7a2654f.txt",
    "first-night": "004_7dd5a514fa081721.txt",
}

# preset -> twist name -> (one-line explanation, option changes). A twist taking an
# argument (``lowest-three-starts:3D``) has "{arg}" in a value and a default argument.
TWISTS: dict[str, dict[str, tuple[str, dict[str, Any]]]] = {
    "house": {
        "sit-out": ("A pass takes you out of the pile until it clears.",
                    dict(passing="sit-out")),
        "fresh-hands": ("No card exchange; the player left of the dealer opens every deal.",
                        dict(exchange="none", later_lead="left-of-dealer")),
        "three-deals": ("The match is exactly three deals instead of a race to 11 points.",
                        dict(match_end="deals:3")),
    },
    "family": {
        "equal-plays": ("A play may be beaten by the same rank as well as a higher one.",
                        dict(beat="equal-or-higher")),
        "once-around": ("After a lead everyone gets one chance to play or pass, then the pile clears.",
                        dict(passing="once-around")),
        "lowest-three-starts": ("On the first deal the holder of a chosen three (3C unless named) leads.",
                                dict(first_lead="holder-of:{arg}")),
    },
    "first-night": {
        "swap": ("Before each later deal the bottom gives the President their two best cards "
                 "and gets the President's two lowest; Vice-Scum and Vice-President swap one "
                 "the same way (at 3 players one card each way).",
                 dict(exchange="two-and-one", give_back="lowest")),
        "three-of-clubs-starts": ("On the first deal the holder of the three of clubs leads.",
                                  dict(first_lead="holder-of:3C")),
    },
    "practice": {},
}
TWIST_DEFAULT_ARG = {"lowest-three-starts": "3C"}


def _choice(option: str, value: Any, allowed: Sequence[str]) -> str:
    if value not in allowed:
        raise RulesError(option, f"{option} = {value!r} is not allowed; choose one of: "
                         f"{', '.join(allowed)}")
    return value


@dataclass(frozen=True, kw_only=True)
class Rules:
    """All the options of one table (RULES.md, "Options"). Immutable and checked when built.

    Build one from a preset with :meth:`preset` or :meth:`parse`; the plain constructor
    takes every option by keyword (defaults are the ``house`` preset with 4 players).

    Attributes:
        players: table size, 3–7 (a preset may narrow it).
        beat: ``"higher"`` or ``"equal-or-higher"``.
        passing: ``"re-enter"``, ``"sit-out"`` or ``"once-around"``.
        last_of_rank_clears: whether completing all four cards of a rank on the pile clears it.
        exchange: ``"none"``, ``"one-card"`` or ``"two-and-one"``.
        give_back: what the President (and Vice-President) give back in the exchange:
            ``"any"`` cards of their choice (seeds 000 and 001) or their ``"lowest"`` cards,
            any suit among equal ranks (seed 004's "two worst").
        seating: ``"fixed"`` or ``"by-finish"``.
        first_lead: ``"left-of-dealer"``, ``"holder-of:<card>"`` or ``"seat:<n>"``.
        later_lead: ``"president"`` or ``"left-of-dealer"``.
        scoring: points by finishing place (first place first; missing places score 0),
            or ``None`` for no points (roles only).
        match_end: ``"points:<target>"``, ``"deals:<n>"``, ``"single-deal"`` or ``"never"``.
        titles: how finishing places are named (RULES.md, "Places and titles"), as each
            source names them: ``"places"`` (seed 000), ``"last-to-finish"`` (seed 001),
            ``"president-only"`` (seed 003) or ``"roles"`` (seed 004); the words are
            :func:`~president.events.title_for_place`.
        preset: the preset this came from, or ``None``.
        twists: the twists applied, in order, as written (``"lowest-three-starts:3D"``).

    Raises:
        RulesError: on any value outside the allowed ones, naming the option.
    """

    players: int = 4
    beat: str = "higher"
    passing: str = "re-enter"
    last_of_rank_clears: bool = False
    exchange: str = "one-card"
    give_back: str = "any"
    seating: str = "fixed"
    first_lead: str = "left-of-dealer"
    later_lead: str = "president"
    scoring: tuple[int, ...] | None = (2, 1)
    match_end: str = "points:11"
    titles: str = "places"
    preset: str | None = None
    twists: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        if isinstance(self.players, bool) or not isinstance(self.players, int) \
                or not 3 <= self.players <= 7:
            raise RulesError("players", f"players = {self.players!r} is not allowed; "
                             "a table has 3 to 7 players")
        _choice("beat", self.beat, ("higher", "equal-or-higher"))
        _choice("passing", self.passing, ("re-enter", "sit-out", "once-around"))
        if not isinstance(self.last_of_rank_clears, bool):
            raise RulesError("last_of_rank_clears", f"last_of_rank_clears = "
                             f"{self.last_of_rank_clears!r} is not allowed; use true or false")
        _choice("exchange", self.exchange, ("none", "one-card", "two-and-one"))
        _choice("give_back", self.give_back, ("any", "lowest"))
        _choice("seating", self.seating, ("fixed", "by-finish"))
        _choice("later_lead", self.later_lead, ("president", "left-of-dealer"))
        _choice("titles", self.titles, tuple(TITLE_NAMINGS))
        self._check_first_lead()
        self._check_scoring()
        self._check_match_end()
        if self.preset is not None:
            if self.preset not in PRESETS:
                raise RulesError("preset", f"no preset named {self.preset!r}; presets are: "
                                 f"{', '.join(PRESETS)}")
            lo, hi, _ = PRESETS[self.preset]
            if not lo <= self.players <= hi:
                allowed = f"{lo}" if lo == hi else f"{lo} to {hi}"
                raise RulesError("players", f"the {self.preset} preset is for {allowed} players, "
                                 f"not {self.players}")
        if not isinstance(self.twists, tuple):
            object.__setattr__(self, "twists", tuple(self.twists))

    def _check_first_lead(self) -> None:
        v = self.first_lead
        if not isinstance(v, str):
            _choice("first_lead", v, ())
        if v == "left-of-dealer":
            return
        if v.startswith("holder-of:"):
            try:
                card = Card.parse(v.split(":", 1)[1])
            except NotationError:
                raise RulesError("first_lead", f"first_lead = {v!r} does not name a card; "
                                 "write it like holder-of:3C") from None
            object.__setattr__(self, "first_lead", f"holder-of:{card}")
            return
        if v.startswith("seat:"):
            n = v.split(":", 1)[1]
            if n.isdigit() and int(n) < self.players:
                return
            raise RulesError("first_lead", f"first_lead = {v!r} names no seat; seats are 0 to "
                             f"{self.players - 1}")
        raise RulesError("first_lead", f"first_lead = {v!r} is not allowed; choose one of: "
                         f"{OPTION_VALUES['first_lead']}")

    def _check_scoring(self) -> None:
        v = self.scoring
        if v is None:
            if self.match_end.startswith("points:"):
                raise RulesError("scoring", "a match that ends at a points target needs scoring; "
                                 "set scoring such as 2,1 or end the match another way")
            return
        if isinstance(v, str):
            v = _parse_scoring(v)
        try:
            v = tuple(v)
        except TypeError:
            v = None
        if v is None or not v or any(isinstance(p, bool) or not isinstance(p, int) or p < 0
                                     for p in v) or len(v) > self.players:
            raise RulesError("scoring", f"scoring = {self.scoring!r} is not allowed; give "
                             f"non-negative points by place for at most {self.players} places, "
                             "such as 2,1, or none")
        object.__setattr__(self, "scoring", v)

    def _check_match_end(self) -> None:
        v = self.match_end
        if v in ("single-deal", "never"):
            return
        if isinstance(v, str) and ":" in v:
            kind, n = v.split(":", 1)
            if kind in ("points", "deals") and n.isdigit() and int(n) > 0:
                return
        raise RulesError("match_end", f"match_end = {v!r} is not allowed; choose one of: "
                         f"{OPTION_VALUES['match_end']}")

    # ----- construction from names -------------------------------------------------

    @classmethod
    def _preset(cls, name: str, *, players: int | None = None, twists: Sequence[str] = (),
                **options: Any) -> "Rules":
        """The rules of a named preset with twists and option overrides applied.

        Args:
            name: ``"house"``, ``"family"``, ``"practice"`` or ``"first-night"``.
            players: table size (default: the preset's smallest table).
            twists: twist names of that preset, e.g. ``["sit-out"]`` or
                ``["lowest-three-starts:3D"]``.
            **options: any option by its RULES.md name, overriding the preset.

        Raises:
            RulesError: unknown preset, twist or option, or a value not allowed.
        """
        if name not in PRESETS:
            raise RulesError("preset", f"no preset named {name!r}; presets are: "
                             f"{', '.join(PRESETS)}")
        lo, _hi, base = PRESETS[name]
        values = dict(base)
        applied = []
        for twist in twists:
            tname, _, arg = twist.partition(":")
            if any(t.partition(":")[0] == tname for t in applied):
                raise RulesError("twist", f"twist {tname!r} is named twice; name each twist once")
            table = TWISTS[name]
            if tname not in table:
                known = ", ".join(table) or "none"
                raise RulesError("twist", f"the {name} preset has no twist {tname!r}; its "
                                 f"twists are: {known}")
            if arg and tname not in TWIST_DEFAULT_ARG:
                raise RulesError("twist", f"twist {tname!r} takes no argument (got {arg!r})")
            if tname in TWIST_DEFAULT_ARG:
                arg = arg or TWIST_DEFAULT_ARG[tname]
                try:
                    card = Card.parse(arg)
                except NotationError:
                    raise RulesError("twist", f"{twist!r} does not name a card; write it like "
                                     f"{tname}:3D") from None
                if card.rank != Rank.THREE:
                    raise RulesError("twist", f"{twist!r} must name a three (3C, 3D, 3H or 3S)")
                arg = str(card)
                twist = f"{tname}:{arg}" if arg != TWIST_DEFAULT_ARG[tname] else tname
            for key, value in table[tname][1].items():
                values[key] = value.replace("{arg}", arg) if isinstance(value, str) else value
            applied.append(twist)
        for key, value in options.items():
            if key not in OPTION_VALUES or key == "players":
                raise RulesError(key, f"there is no option {key!r}; options are: "
                                 f"{', '.join(k for k in OPTION_VALUES if k != 'players')}")
            values[key] = value
        return cls(players=lo if players is None else players, preset=name,
                   twists=tuple(applied), **values)

    @classmethod
    def parse(cls, spec: str, *, players: int | None = None, **options: Any) -> "Rules":
        """Rules from ``"PRESET[+TWIST…]"``, e.g. ``"house+sit-out+three-deals"``.

        Raises:
            RulesError: as :meth:`preset`.
        """
        name, *twists = spec.strip().split("+")
        return cls.preset(name, players=players, twists=twists, **options)

    # ----- records ------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict: preset, twists, players and every option by its RULES.md name."""
        out: dict[str, Any] = {"preset": self.preset, "twists": list(self.twists),
                               "players": self.players}
        for f in fields(self):
            if f.name in ("preset", "twists", "players"):
                continue
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Rules":
        """Inverse of :meth:`to_dict`; options not given come from the preset (without a
        preset, from the defaults of :class:`Rules`). So a dict stored before an option
        existed still loads: one without ``titles`` names places as its preset does
        (``"places"`` without a preset). ``give_back`` is the exception: a dict without it
        was written when every give back was free, so rules with an exchange load with
        ``"any"`` whatever the preset and twists say, and a stored record or saved match
        replays as it was played (``{"preset": "first-night", "twists": ["swap"],
        "give_back": "lowest"}`` names seed 004's rule).

        ``scoring`` may be a list, a string like ``"2,1"``, or ``"none"``/``null``.

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
            data["scoring"] = _parse_scoring(data["scoring"])
        unknown = [k for k in data if k not in OPTION_VALUES]
        if unknown:
            raise RulesError(unknown[0], f"there is no option {unknown[0]!r}; options are: "
                             f"{', '.join(OPTION_VALUES)}")
        if preset is None:
            if twists:
                raise RulesError("twist", "twists need a preset")
            return cls(players=4 if players is None else players, **data)
        rules = cls.preset(preset, players=players, twists=twists, **data)
        if "give_back" not in data and rules.exchange != "none":
            rules = replace(rules, give_back="any")
        return rules

    def with_options(self, **options: Any) -> "Rules":
        """A copy with some options changed (checked again)."""
        return replace(self, **options)

    @property
    def name(self) -> str:
        """``"house+sit-out"`` style name, or ``"custom"`` without a preset."""
        return "+".join([self.preset or "custom", *self.twists])

    def describe(self) -> str:
        """The rules in plain words, one line per option."""
        return "\n".join(describe_lines(self))


# The field ``preset`` (default ``None``) and the constructor ``Rules.preset(name, ...)`` share
# a name. A method of that name in the class body would replace the field's default before
# ``@dataclass`` reads it (``Rules()`` would then get the method as its preset), so the
# constructor is attached after the class is built; on an instance the field still wins.
_preset_method = Rules.__dict__["_preset"]
_preset_method.__func__.__name__ = "preset"
_preset_method.__func__.__qualname__ = "Rules.preset"
Rules.preset = _preset_method  # type: ignore[assignment, method-assign]
del Rules._preset


def _parse_scoring(value: Any) -> Any:
    if value is None:
        return None
    if isinstance(value, str):
        text = value.strip().lower()
        if text in ("none", ""):
            return None
        try:
            return tuple(int(p) for p in text.split(","))
        except ValueError:
            raise RulesError("scoring", f"scoring = {value!r} is not allowed; give points by "
                             "place such as 2,1, or none") from None
    if isinstance(value, list):
        return tuple(value)
    return value


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth",
            7: "seventh"}.get(n, f"{n}th")


OPTION_HELP: dict[str, str] = {
    "players": "How many people sit at the table. The whole pack is dealt, so with more "
               "players each hand is smaller and some hands get one card more than others.",
    "beat": "To beat the play on the pile you put down the same number of cards (a pair on "
            "a pair) of a higher rank; under equal-or-higher the same rank also beats it. "
            "Twos are the highest rank, threes the lowest.",
    "passing": "What a pass means for the rest of the pile: whether you may play again on "
               "this pile after passing, and when the pile is cleared away.",
    "last_of_rank_clears": "When this is on, a play that completes all four cards of one "
                           "rank on the pile sweeps the pile away at once, and whoever "
                           "played it leads next.",
    "exchange": "Cards that change hands before a deal, according to the last deal's "
                "finishing places: the bottom player must give their best cards to the "
                "President, who gives the same number of cards back.",
    "give_back": "Which cards the President (and, in the two-and-one swap, the "
                 "Vice-President) hand back in the exchange: any cards they choose, or "
                 "their lowest ones (they still pick the suit among cards of equal rank).",
    "seating": "Whether everyone keeps their chair between deals, or moves to sit in the "
               "order they finished, so that the dealer and the turn order change.",
    "first_lead": "Who puts down the first cards of the first deal. That player may lead "
                  "any single, pair, triple or four of a kind.",
    "later_lead": "Who puts down the first cards of every deal after the first.",
    "scoring": "Points given after each deal by finishing place; places not listed score "
               "nothing. With no points, only the titles (President, Vice-President, ...) "
               "count.",
    "match_end": "When the whole match is over and who wins it.",
    "titles": "What each finishing place is called after a deal. The sources name them "
              "differently; the names never change the play, and the exchange goes by "
              "finishing place.",
}
"""What each option of :class:`Rules` means, in plain words for a newcomer (the start
screen's "?" beside each rule); its value in words is :func:`describe_items`."""


def describe_items(r: Rules, names: Sequence[str] | None = None) -> list[tuple[str, str, str]]:
    """Each option of ``r`` in plain words: ``(option, label, text)`` such as
    ``("beat", "Beat", "same number of cards, strictly higher rank")``, in the order of
    RULES.md "Options" (``give_back`` after ``exchange``, and only with an exchange), then
    ``titles`` (RULES.md, "Places and titles"); :data:`OPTION_HELP` explains each ``option``.

    Args:
        r: the rules.
        names: player names by seat; when given, a first lead by seat names its player
            instead of a seat number.
    """
    items: list[tuple[str, str, str]] = []
    players = str(r.players)
    if r.preset:
        lo, hi, _ = PRESETS[r.preset]
        players += f" (this preset allows {lo}" + (f" to {hi})" if hi != lo else ")")
    items.append(("players", "Players", players))
    items.append(("beat", "Beat", "same number of cards, strictly higher rank" if r.beat == "higher"
                  else "same number of cards, equal or higher rank"))
    items.append(("passing", "Passing", {
        "re-enter": "a pass skips only this turn; the pile clears when everyone else has passed "
                    "since the latest play",
        "sit-out": "a pass takes you out of the pile until it clears",
        "once-around": "after the lead everyone else gets one turn, then the pile clears",
    }[r.passing]))
    items.append(("last_of_rank_clears", "Last of a rank",
                  "completing all four cards of a rank on the pile clears it"
                  if r.last_of_rank_clears else "no special effect"))
    items.append(("exchange", "Exchange", {
        "none": "none",
        "one-card": "before each later deal the last player gives their highest card to the "
                    "President, who gives one card back",
        "two-and-one": "before each later deal the bottom gives their two highest cards to the "
                       "President and gets two back; the Vice-Scum and Vice-President swap one "
                       "(with 3 players only one card each between President and bottom)",
    }[r.exchange]))
    if r.exchange != "none":
        one = r.exchange == "one-card"  # one card given back; two-and-one gives back two and one
        items.append(("give_back", "Give back", ("any card of the giver's choice" if one else
                                                 "any cards of the giver's choice")
                      if r.give_back == "any" else
                      ("the giver's lowest card (any suit among equal ranks)" if one else
                       "the giver's lowest cards (any suit among equal ranks)")))
    items.append(("seating", "Seating", "seats stay; the dealer moves one seat clockwise each deal"
                  if r.seating == "fixed" else
                  "players sit in last deal's finishing order; the last player deals"))
    fl = r.first_lead
    if fl == "left-of-dealer":
        first = "the player left of the dealer"
    elif fl.startswith("holder-of:"):
        first = f"whoever holds the {fl.split(':')[1]}"
    else:
        seat = int(fl.split(":")[1])
        first = names[seat] if names is not None and 0 <= seat < len(names) else f"seat {seat}"
    items.append(("first_lead", "First deal's lead", first))
    if r.match_end != "single-deal":
        items.append(("later_lead", "Later deals' lead", "the previous President"
                      if r.later_lead == "president" else "the player left of the dealer"))
    if r.scoring is None:
        items.append(("scoring", "Scoring", "none (roles only)"))
    else:
        parts = [f"{p} for {_ordinal(i + 1)}" for i, p in enumerate(r.scoring)]
        items.append(("scoring", "Scoring", ", ".join(parts) + ", 0 for the rest"))
    me = r.match_end
    if me == "single-deal":
        end = "one deal"
    elif me == "never":
        end = "no end; play as many deals as you like"
    elif me.startswith("points:"):
        end = (f"ends after the deal in which someone reaches {me[7:]} points; "
               "highest total wins, ties share")
    else:
        end = f"exactly {me[6:]} deals; highest total wins, ties share"
    items.append(("match_end", "Match", end))
    items.append(("titles", "Titles", TITLE_NAMINGS[r.titles]))
    return items


def describe_lines(r: Rules) -> list[str]:
    """Plain-words lines for each option of ``r`` (used by ``president rules``): the name,
    :func:`describe_items` as ``Label: text``, the preset's twists and its source."""
    lines = [f"Rules: {r.name}"] + [f"{label}: {text}" for _, label, text in describe_items(r)]
    if r.preset and TWISTS[r.preset]:
        lines.append("Twists available:")
        lines.extend(f"  {name}: {text}" for name, (text, _) in TWISTS[r.preset].items())
    if r.preset:
        lines.append(f"Source: {PRESET_SOURCES[r.preset]} (seed {PRESET_SEEDS[r.preset][:3]}, "
                     "see docs/rules.md)")
    return lines
