"""President (also called Presidents or Scum): an exact rules engine and adapters.

The rules core (this package's top level) imports nothing outside the standard library.

>>> from president import Match, Rules
>>> match = Match(Rules.preset("practice"), ["You", "Robin", "Alex", "Sam"], seed=3)
>>> match.to_act
0
"""

from .actions import PASS, Action, Give, Pass, Play, parse_action
from .cards import CARDS, Card, Rank, Suit, format_cards, parse_cards
from .deal import Deal, deal_hands, hand_sizes
from .errors import IllegalAction, NotationError, PresidentError, RulesError
from .events import (DealEnded, Dealt, Event, Exchanged, MatchEnded, Passed, PileCleared,
                     Played, WentOut, title_for_place, visible_to)
from .match import DealResult, Match, Transfer
from .observation import Observation
from .rules import PRESETS, TWISTS, Rules

__version__ = "0.1.0"

__all__ = [
    "PASS", "Action", "Give", "Pass", "Play", "parse_action", "CARDS", "Card", "Rank", "Suit",
    "format_cards", "parse_cards", "Deal", "deal_hands", "hand_sizes", "IllegalAction",
    "NotationError", "PresidentError", "RulesError", "DealEnded", "Dealt", "Event", "Exchanged",
    "MatchEnded", "Passed", "PileCleared", "Played", "WentOut", "title_for_place", "visible_to",
    "DealResult", "Match", "Transfer", "Observation", "PRESETS", "TWISTS", "Rules",
]
