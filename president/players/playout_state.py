"""The former home of :mod:`president.search.playout_state`, kept so that this import path still
works: importing it gives that very module (one module object, so a change to its state
made through either name is seen through both)."""

from ..search import playout_state as _module
from ..search.playout_state import *  # noqa: F403  (the names, for readers and type checkers)
from ..search.playout_state import __all__ as __all__
from ._moved import moved

moved(__name__, _module)
