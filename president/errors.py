"""The error family of the engine.

Every error is a :class:`ValueError` subclass carrying a machine-readable ``reason``
(a short kebab-case string) and a message in plain words that says what was wrong and
what would be right.
"""

from __future__ import annotations

from typing import Any

SHOWN_CHARS = 40
"""The most characters of someone's input an error message quotes (:func:`shown`)."""


def shown(value: Any, limit: int = SHOWN_CHARS) -> str:
    """Input quoted in an error message: its ``repr`` (a string's in quotes, invisible and
    control characters escaped), cut to ``limit`` characters then "…", so an error never
    echoes a long or deceptive input back whole.

    >>> print(shown("dance"), shown(["x"] * 30))
    'dance' ['x', 'x', 'x', 'x', 'x', 'x', 'x', 'x',…
    >>> print(shown("a\u202eb"), shown(10 ** 5000))
    'a\u202eb' a number of about 5001 digits
    """
    if isinstance(value, str):
        return repr(value if len(value) <= limit else value[:limit] + "…")
    try:
        text = repr(value)
    except ValueError:          # an int past Python's digit limit for text
        return f"a number of about {value.bit_length() * 30103 // 100000 + 1} digits" \
            if isinstance(value, int) else "a value too long to show"
    return text if len(text) <= limit else text[:limit] + "…"


def shown_field(part: Any) -> str:
    """One step of a validation error's location (a field's name, or an index) for an error
    message, cut as :func:`shown` cuts. The fields this project reads are ASCII names; a
    name the sender made up (an extra field) may draw nothing or stack marks, so any other
    name is written with escapes, every character outside printable ASCII shown as code.

    >>> print(shown_field("cards"), shown_field(0), shown_field("\u3164x"), shown_field("a\u202e"))
    cards 0 \u3164x a\u202e
    """
    text = str(part)
    if not (text.isascii() and text.isprintable()):
        text = ascii(text)[1:-1]
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS] + "…"


class PresidentError(ValueError):
    """Base of every error raised by the engine.

    Attributes:
        reason: machine-readable kind of error, e.g. ``"not-higher"``.
        message: plain-words explanation for a person.
    """

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.reason!r}, {self.message!r})"


class NotationError(PresidentError):
    """Text that is not valid card, play or record notation (reason ``"bad-notation"``)."""

    def __init__(self, message: str) -> None:
        super().__init__("bad-notation", message)


class RulesError(PresidentError):
    """An invalid rule option, preset, twist or table size (reason ``"bad-rules"``).

    Attributes:
        option: the option (or ``"preset"``/``"twist"``/``"players"``) that was wrong.
    """

    def __init__(self, option: str, message: str) -> None:
        super().__init__("bad-rules", message)
        self.option = option


class IllegalAction(PresidentError):
    """An action refused by the rules. The game state is left unchanged.

    Reasons: ``not-your-turn``, ``not-in-hand``, ``mixed-ranks``, ``wrong-count``,
    ``not-higher``, ``cannot-pass-lead``, ``deal-over``, ``bad-exchange``,
    ``bad-notation``, ``wrong-phase``, ``match-over``.
    """
