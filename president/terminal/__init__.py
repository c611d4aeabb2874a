"""The terminal game (an adapter over the rules core; uses ``rich``). See :mod:`.game`."""

from .game import COMPUTER_NAMES, HELP_TEXT, Quit, TerminalGame

__all__ = ["TerminalGame", "COMPUTER_NAMES", "Quit", "HELP_TEXT"]
