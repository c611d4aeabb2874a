"""Player names at a web table: which characters a name may hold, and when two names are the
same name.

Names are shown to every seat and read in sentences ("Alex plays a pair of nines."), so:

- **Refused characters.** Control and format characters (Unicode categories ``Cc`` and ``Cf``:
  the bidirectional overrides and isolates U+202A–U+202E and U+2066–U+2069, zero-width
  spaces and joiners, the byte-order mark, soft hyphen...), line and paragraph separators,
  private-use, surrogate and unassigned code points, letters and marks that draw nothing (the
  Hangul fillers, the Braille blank, Mongolian free variation selectors), a name that starts with a combining mark (it would sit on the
  text before it) or stacks more than :data:`MAX_MARKS` of them, and a name with no letter,
  digit, punctuation or symbol at all. :class:`BadName` says which character and what is
  allowed: letters of any script, digits, spaces, punctuation and symbols, at most
  :data:`MAX_NAME_CHARS` characters.
- **What is shown.** Runs of spaces become one space, spaces at either end go, and the name is
  put in Unicode normal form C (:func:`clean_name`).
- **The same name.** Two seats may not share a name, compared after NFKC (so ``Ａｌｅｘ`` and
  ``𝐀𝐥𝐞𝐱`` are ``Alex``), case folding, and Unicode's confusable-character *skeleton*
  (UTS #39, the data of the ``confusable-homoglyphs`` package): a Cyrillic ``Аlex`` or
  ``Аlех`` is ``Alex``, ``AI`` (capital i) is ``Al``, a Greek ``Ο`` is a Latin ``O``
  (:func:`same_name`).
- **"You".** The page calls its reader "You", so no seat but the first may be named "You" (the
  others would read "You plays…" about someone else), and the first seat may not either when
  friends sit at the table (they would read "You leads…" about the host). Left blank, the
  first seat is then called "Host". Punctuation does not make another name of it ("You."
  and "(you)" count as "You"), and no seat may take the page's words for the computer
  playing for someone, "The computer (for you)" (:data:`FOR_YOU`).

>>> check_names(["  Robin   Hood ", "", "Sam"], defaults=["You", "Alex", "Blair"])
['Robin Hood', 'Alex', 'Sam']
>>> check_names(["Alex", "\\u0410lex"])         # Cyrillic А
Traceback (most recent call last):
...
president.web.names.BadName: seats 1 and 2 are named 'Alex' and 'Аlex', which look alike; give each player a different name
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Sequence

from confusable_homoglyphs import confusables

from ..errors import shown as quoted

__all__ = ["BadName", "check_names", "clean_name", "same_name", "name_keys", "MAX_NAME_CHARS",
           "MAX_MARKS", "HOST_NAMES"]

MAX_NAME_CHARS = 24
"""Longest name, in characters (after :func:`clean_name`)."""

MAX_MARKS = 3
"""Most combining marks in a row (enough for any script's letter; more only piles accents up
over the text around the name)."""

HOST_NAMES = ("Host", "Player 1", "Seat 1")
"""The first seat's name, the first of these free, when friends sit at the table and it was
left blank."""

YOU = "You"
FOR_YOU = "The computer (for you)"
"""The page's words for the computer playing a seat for its player (``protocol.FOR_YOU``):
no seat may be named so."""
"""How the page names its reader; see the module text."""

ALLOWED = ("letters of any script, digits, spaces, punctuation and symbols, "
           f"at most {MAX_NAME_CHARS} characters")

_REFUSED = {
    "Cc": "a control character",
    "Cf": "an invisible formatting character",
    "Cs": "a lone surrogate",
    "Co": "a private-use character",
    "Cn": "an unassigned code point",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
}
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f\u17b4\u17b5"
                           "\u180b\u180c\u180d\u180f\U00016fe4\U0001d159")
"""Code points that are letters or marks by category yet draw nothing (Hangul fillers, Braille
pattern blank, the combining grapheme joiner, Khmer inherent vowels, Mongolian free variation
selectors, the Khitan small script filler, the musical null notehead): with the categories refused above, every code
point Unicode lists as Default_Ignorable_Code_Point except the variation selectors, which
emoji need (:data:`_IGNORED_IN_KEY`)."""

_IGNORED_IN_KEY = frozenset(chr(c) for c in [*range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)])
"""Variation selectors: allowed (emoji need them) but invisible, so not part of a name's key."""


class BadName(ValueError):
    """A name that cannot be used; ``message`` says what was wrong and what is allowed, and
    ``seat`` (0-based, or ``None``) which seat's name it was."""

    def __init__(self, message: str, seat: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.seat = seat


def _char(ch: str) -> str:
    return f"U+{ord(ch):04X} {unicodedata.name(ch, 'without a name')}"


def clean_name(name: str, seat: int | None = None) -> str:
    """The name as it will be shown: one space between words, none at the ends, NFC.

    Args:
        name: the name as typed.
        seat: its seat (0-based), for the message.

    Raises:
        BadName: for a refused character (the module text), more than :data:`MAX_MARKS`
            combining marks in a row, a leading combining mark, nothing visible, or more
            than :data:`MAX_NAME_CHARS` characters.
    """
    whose = "the name" if seat is None else f"seat {seat + 1}'s name"
    if not isinstance(name, str):
        raise BadName(f"{whose} must be text", seat)
    for ch in name:
        cat = unicodedata.category(ch)
        if cat in _REFUSED or ch in _BLANK_LETTERS:
            what = _REFUSED.get(cat, "a character that shows nothing")
            raise BadName(f"{whose} {quoted(name)} holds {what} ({_char(ch)}); a name may hold "
                          f"{ALLOWED}", seat)
    text = unicodedata.normalize("NFC", " ".join(name.split()))
    if len(text) > MAX_NAME_CHARS:
        raise BadName(f"{whose} {quoted(name)} has {len(text)} characters; a name may hold "
                      f"{ALLOWED}", seat)
    marks = 0   # counted on the decomposed text: NFC may fold the first mark into its letter
    for i, ch in enumerate(unicodedata.normalize("NFD", text)):
        if unicodedata.category(ch).startswith("M"):
            marks += 1
            if i == 0 or marks > MAX_MARKS:
                how = "starts with a combining mark" if i == 0 else \
                    f"stacks more than {MAX_MARKS} combining marks"
                raise BadName(f"{whose} {quoted(name)} {how} ({_char(ch)}); a name may hold "
                              f"{ALLOWED}", seat)
        else:
            marks = 0
    if text and not any(unicodedata.category(ch)[0] in "LNPS" for ch in text):
        raise BadName(f"{whose} {quoted(name)} shows nothing; a name may hold {ALLOWED}", seat)
    return text


@functools.lru_cache(maxsize=8192)
def _prototype(ch: str) -> str:
    """The character (or short string) that ``ch`` and its lookalikes all map to.

    ``confusable-homoglyphs`` keeps Unicode's confusables.txt (source → prototype) in both
    directions, so a character listed with several lookalikes is itself a prototype; one
    listed with a single lookalike maps to it, unless that lookalike is in turn listed only
    with it, a pair where either may be the prototype: the smaller is taken, the same from
    both sides. (Lookalikes from right-to-left scripts are stored with direction marks by
    the package and are not found: a limitation.)
    """
    found = confusables.is_confusable(ch, greedy=True)
    if not found:
        return ch
    glyphs: list[str] = [g["c"].replace("\u200e", "").replace("\u200f", "") for g in found[0]["homoglyphs"]]
    if len(glyphs) != 1:
        return ch
    other = glyphs[0]
    if len(other) != 1:
        return other
    back = confusables.is_confusable(other, greedy=True)
    if back and len(back[0]["homoglyphs"]) > 1:
        return other
    return min(ch, other)


def _skeleton(text: str) -> str:
    nfd = unicodedata.normalize("NFD", text)
    mapped = "".join(_prototype(ch) for ch in nfd if ch not in _IGNORED_IN_KEY)
    return unicodedata.normalize("NFD", mapped)


def name_keys(name: str) -> tuple[str, str]:
    """Two keys of a (clean) name; two names are the same name when either key is equal.

    Both ignore spaces (``A lex`` = ``Alex``). The first ignores case (NFKC, case folding,
    then the confusable skeleton: ``alex`` = ``ALEX`` = Cyrillic ``аlex``), the second keeps
    it (NFKC, skeleton, case folding: ``AI`` with a capital i = ``Al``, which look alike
    before case is folded).
    """
    nfkc = "".join(unicodedata.normalize("NFKC", name).split())   # spaces ignored: "Y o u" = "You"
    folded = _skeleton(unicodedata.normalize("NFKC", nfkc.casefold()))
    cased = _skeleton(nfkc).casefold()
    return folded, _skeleton(cased)


def _words_key(name: str) -> tuple[str, str]:
    """:func:`name_keys` of the letters and digits of ``name`` alone (of the whole name if
    it has none)."""
    kept = "".join(ch for ch in name if unicodedata.category(ch)[0] in "LN")
    return name_keys(kept or name)


def same_name(a: str, b: str) -> bool:
    """Whether two names would be taken for one another (:func:`name_keys`).

    >>> same_name("Alex", "  ALEX"), same_name("Alex", "\\u0410l\\u0435x"), same_name("Al", "AI")
    (True, True, True)
    >>> same_name("Alex", "Alexa")
    False
    """
    ka, kb = name_keys(a), name_keys(b)
    return ka[0] == kb[0] or ka[1] == kb[1]


def check_names(names: Sequence[str], *, defaults: Sequence[str] = (),
                friends: bool = False) -> list[str]:
    """The names of a table's seats as they will be shown, or why they cannot be used.

    Args:
        names: a name per seat, clockwise from the first (the table's creator); a blank name
            takes ``defaults[seat]``, or if another seat has that name the next default no
            seat has (else ``"Player N"``), or for the first seat with
            ``friends`` the first of :data:`HOST_NAMES` not taken.
        defaults: default names by seat.
        friends: another seat is a human (a friend with a seat link).

    Raises:
        BadName: for a refused character or length (:func:`clean_name`), two seats named
            alike (:func:`same_name`), a seat other than the first named "You", or the first
            named "You" while friends sit at the table.
    """
    shown = [clean_name(name, seat) for seat, name in enumerate(names)]
    for seat, name in enumerate(shown):
        if not name and seat > 0:
            # Its own default, or the next default no other seat has (a typed "Blair" in seat
            # 2 must not make a blank seat 3 "Blair" too), else "Player N".
            own = [defaults[seat]] if seat < len(defaults) else []
            choices = [*own, *defaults[1:], f"Player {seat + 1}"]
            taken = [t for t in shown if t]
            shown[seat] = next((c for c in choices if not any(same_name(c, t) for t in taken)),
                               f"Player {seat + 1}")
    if shown and not shown[0]:
        if friends:
            taken = shown[1:]
            shown[0] = next((h for h in HOST_NAMES if not any(same_name(h, t) for t in taken)),
                            HOST_NAMES[0])
        else:
            shown[0] = defaults[0] if defaults else YOU
    keys = [name_keys(name) for name in shown]
    for j in range(len(shown)):
        for i in range(j):
            if keys[i][0] == keys[j][0] or keys[i][1] == keys[j][1]:
                if shown[i].casefold() == shown[j].casefold():
                    raise BadName(f"seats {i + 1} and {j + 1} are both named {quoted(shown[i])}; "
                                  "give each player a different name", j)
                raise BadName(f"seats {i + 1} and {j + 1} are named {quoted(shown[i])} and "
                              f"{quoted(shown[j])}, which look alike; give each player a "
                              "different name", j)
    # The words the page uses of its reader and of the computer playing for them, compared
    # on letters and digits only ("You." and "You!" read as "You" in "You. plays…").
    you, for_you = _words_key(YOU), _words_key(FOR_YOU)
    for seat, name in enumerate(shown):
        key = _words_key(name)
        if key[0] == for_you[0] or key[1] == for_you[1]:
            raise BadName(f"seat {seat + 1} is named {quoted(name)}, which is what the page "
                          "calls the computer playing for someone; give that seat another "
                          "name", seat)
        if key[0] == you[0] or key[1] == you[1]:
            if seat > 0:
                raise BadName(f"seat {seat + 1} is named {quoted(shown[seat])}, but the page "
                              "calls its reader \"You\"; give that seat another name", seat)
            if friends:
                raise BadName("the first seat is named \"You\", but your friends would read "
                              "\"You leads…\" about you; type your own name in the first seat",
                              seat)
    return shown
