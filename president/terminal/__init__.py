"""The terminal game (an adapter over the rules core; uses ``rich``). See :mod:`.game`: the
view (:mod:`.view`), what you type (:mod:`.input`) and the match loop (:mod:`.loop`)."""

from .game import COMPUTER_NAMES, HELP_TEXT, Quit, TerminalGame

__all__ = ["TerminalGame", "COMPUTER_NAMES", "Quit", "HELP_TEXT"]
