"""The terminal game (``president play``): you in the first seat (index 0; seat 1 on screen) of a match against computer players.

The game is three modules by concern, gathered here so ``from president.terminal.game
import TerminalGame`` keeps working:

- :mod:`.view`: the table, your hand, the pile and the story, drawn with ``rich`` from your
  own observation (the sentences come from :mod:`president.narration`);
- :mod:`.input`: what you type at your turn (ranks, cards, ``pass``, ``hint``, ``history``,
  ``score``, ``seen``, ``help``, ``quit``) read into an action, with the prompts and help;
- :mod:`.loop`: :class:`TerminalGame`, the match loop that deals, asks the computer players
  (each handed only its own seat's observation) and you, and writes the record.
"""

from __future__ import annotations

from .input import HELP_TEXT, RANK_NAMES, Quit, describe_action, help_text
from .loop import COMPUTER_NAMES, RESULT_PAUSE, SEED_LIMIT, TerminalGame
from .view import (PASSED_LABELS, SCORE_COLUMNS, SUIT_SYMBOLS, can_show_suit_symbols, can_write,
                   card_label, card_text, cards_gone, cards_text, line_text)

__all__ = ["TerminalGame", "COMPUTER_NAMES", "Quit", "HELP_TEXT", "RANK_NAMES", "help_text",
           "describe_action", "SEED_LIMIT", "RESULT_PAUSE", "PASSED_LABELS", "SCORE_COLUMNS",
           "SUIT_SYMBOLS", "can_show_suit_symbols", "can_write", "card_label", "card_text",
           "cards_gone", "cards_text", "line_text"]
