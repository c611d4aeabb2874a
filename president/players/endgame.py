"""The former home of :mod:`president.search.endgame`, kept so that this import path still
works: importing it gives that very module (one module object, so a change to its state
made through either name is seen through both)."""

from ..search import endgame as _module
from ..search.endgame import *  # noqa: F403  (the names, for readers and type checkers)
from ..search.endgame import __all__ as __all__
from ._moved import moved

moved(__name__, _module)
