"""The presets and twists of docs/rules.md: the registries :data:`PRESETS` and :data:`TWISTS`,
where each source's rules are written once, and the two helpers every reader of them uses:
:func:`canonical_twists` (the twists of a preset checked, spelled one way and put in the
registry's order) and :func:`preset_options` (the option values a preset with twists gives).

Values are written here as text (``"re-enter"``, ``"points:11"``); :class:`~president.rules.Rules`
checks and types them. This module is part of the rules core: standard library only.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..cards import Card, Rank
from ..errors import NotationError, RulesError, shown

__all__ = ["PRESETS", "PRESET_SOURCES", "PRESET_SEEDS", "TWISTS", "TWIST_DEFAULT_ARG",
           "canonical_twists", "preset_options"]

# preset name -> (min players, max players, options). docs/rules.md "Presets".
PRESETS: dict[str, tuple[int, int, dict[str, Any]]] = {
    "house": (4, 7, dict(beat="higher", passing="re-enter", last_of_rank_clears=False,
                         reversal=False, twos_clear=False, exchange="one-card", give_back="any",
                         seating="fixed",
                         first_lead="left-of-dealer", later_lead="president", scoring=(2, 1),
                         match_end="points:11", titles="places")),
    "family": (4, 7, dict(beat="higher", passing="re-enter", last_of_rank_clears=False,
                          reversal=False, twos_clear=False, exchange="one-card", give_back="any",
                          seating="by-finish",
                          first_lead="left-of-dealer", later_lead="president", scoring=(2, 1),
                          match_end="points:11", titles="last-to-finish")),
    "practice": (4, 4, dict(beat="higher", passing="re-enter", last_of_rank_clears=False,
                            reversal=False, twos_clear=False, exchange="none", give_back="any",
                            seating="fixed",
                            first_lead="seat:0",
                            later_lead="president", scoring=None, match_end="single-deal",
                            titles="places")),
    "first-night": (3, 7, dict(beat="equal-or-higher", passing="re-enter",
                               last_of_rank_clears=True, reversal=False, twos_clear=False,
                               exchange="none",
                               give_back="lowest",
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

_REVERSAL = ("Four of a kind reverses the rank order until the deal ends (lower beats "
             "higher; another four of a kind reverses it back); it clears nothing by itself, "
             "and each deal and its exchange start in normal order.")

# A house rule that the house-match guide (000_2ebb75a2290c9d05.txt: a two is simply the
# highest rank) and the practice round (003_e6cd2942d7a2654f.txt: no automatic two clears)
# name and keep out of their main games.
_TWOS_CLEAR = "A play of 2s clears the pile at once and the same player leads again."

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
        "reversal": (_REVERSAL, dict(reversal=True)),
        "twos-clear": (_TWOS_CLEAR, dict(twos_clear=True)),
    },
    "family": {
        "equal-plays": ("A play may be beaten by the same rank as well as a higher one.",
                        dict(beat="equal-or-higher")),
        "once-around": ("After a lead everyone gets one chance to play or pass, then the pile clears.",
                        dict(passing="once-around")),
        "lowest-three-starts": ("On the first deal the holder of a chosen three (3C unless named) leads.",
                                dict(first_lead="holder-of:{arg}")),
        "reversal": (_REVERSAL, dict(reversal=True)),
        "twos-clear": (_TWOS_CLEAR, dict(twos_clear=True)),
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


def canonical_twists(preset: str | None, twists: Sequence[str]) -> tuple[str, ...]:
    """The twists of ``preset`` as a rules value keeps them: each checked, its argument
    spelled one way (``"lowest-three-starts:3C"`` is ``"lowest-three-starts"``, the default
    three; ``"lowest-three-starts:3d"`` is ``"lowest-three-starts:3D"``), in the order
    :data:`TWISTS` declares them, whatever order they were given in. No two twists of one
    preset set the same option, so the order never changes what the rules are; one order
    gives one name and one hash.

    Args:
        preset: a name of :data:`PRESETS`, or ``None`` for custom rules (which have no twists).
        twists: twist names such as ``["three-deals", "sit-out"]`` or
            ``["lowest-three-starts:3D"]``.

    Raises:
        RulesError: (option ``twist``) a twist that is not text, not one of the preset's, named
            twice, given an argument it does not take, or an argument that is not a three;
            any twist without a preset.
    """
    table = TWISTS[preset] if preset is not None else {}
    order = list(table)
    seen: dict[str, str] = {}
    for twist in twists:
        if not isinstance(twist, str):
            raise RulesError("twist", f"twist {shown(twist)} is not a twist name; twists are "
                             f"written as text, like {order[0] if order else 'sit-out'}")
        tname, colon, arg = twist.partition(":")
        if tname not in table:
            if preset is None:
                raise RulesError("twist", f"twist {shown(twist)} needs a preset; custom rules "
                                 "have no twists")
            raise RulesError("twist", f"the {preset} preset has no twist {shown(tname)}; its "
                             f"twists are: {', '.join(order) or 'none'}")
        if tname in seen:
            raise RulesError("twist", f"twist {shown(tname)} is named twice; name each twist once")
        if colon and tname not in TWIST_DEFAULT_ARG:
            raise RulesError("twist", f"twist {shown(tname)} takes no argument (got {shown(arg)})")
        if tname in TWIST_DEFAULT_ARG:
            arg = arg or TWIST_DEFAULT_ARG[tname]
            try:
                card = Card.parse(arg)
            except NotationError:
                raise RulesError("twist", f"{shown(twist)} does not name a card; write it like "
                                 f"{tname}:3D") from None
            if card.rank != Rank.THREE:
                raise RulesError("twist", f"{shown(twist)} must name a three (3C, 3D, 3H or 3S)")
            twist = f"{tname}:{card}" if str(card) != TWIST_DEFAULT_ARG[tname] else tname
        seen[tname] = twist
    return tuple(seen[t] for t in order if t in seen)


def preset_options(preset: str, twists: Sequence[str] = ()) -> dict[str, Any]:
    """The options (by docs/rules.md name, as written in :data:`PRESETS`: text, booleans,
    tuples) that ``preset`` gives with ``twists`` applied, a twist's argument put in its
    place (``first_lead="holder-of:3D"``). Not checked: :class:`~president.rules.Rules` does that.

    Raises:
        RulesError: no such preset, or twists :func:`canonical_twists` refuses.
    """
    if preset not in PRESETS:
        raise RulesError("preset", f"no preset named {shown(preset)}; presets are: "
                         f"{', '.join(PRESETS)}")
    values = dict(PRESETS[preset][2])
    for twist in canonical_twists(preset, twists):
        tname, _, arg = twist.partition(":")
        arg = arg or TWIST_DEFAULT_ARG.get(tname, "")
        for key, value in TWISTS[preset][tname][1].items():
            values[key] = value.replace("{arg}", arg) if isinstance(value, str) else value
    return values
