"""The error family of the engine.

Every error is a :class:`ValueError` subclass carrying a machine-readable ``reason``
(a short kebab-case string) and a message in plain words that says what was wrong and
what would be right.
"""

from __future__ import annotations


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
