"""The former home of :mod:`president.search.fastsim`, kept so that this import path still
works: importing it gives that very module (one module object, so a change to its state
made through either name is seen through both)."""

from ..search import fastsim as _module
from ..search.fastsim import *  # noqa: F403  (the names, for readers and type checkers)
from ..search.fastsim import __all__ as __all__
from ._moved import moved

moved(__name__, _module)
