"""Former import paths of modules that moved to :mod:`president.search`.

A module at a former path calls :func:`moved` at its end: the import system then gives the
new module for the old name, and the old module object itself, should anything already
hold it (a tool that loads files by path, as pytest's doctest collection does), reads,
sets and deletes every name on the new module, so the two names never disagree."""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any

__all__ = ["moved"]


class _Forward(ModuleType):
    """A module left at a former path: every name but the module's own ``__dunder__``
    ones (its name, file, docstring, ``__all__``) is the new module's, and so is its
    ``__dict__`` (which tools such as pytest's ``monkeypatch`` read)."""

    def __getattribute__(self, name: str) -> Any:
        if name == "__dict__":
            return super().__getattribute__("__dict__")["__moved_to__"].__dict__
        if name.startswith("__") and name.endswith("__"):
            return super().__getattribute__(name)
        return getattr(super().__getattribute__("__dict__")["__moved_to__"], name)

    def __setattr__(self, name: str, value: Any) -> None:
        if name.startswith("__") and name.endswith("__"):
            super().__setattr__(name, value)
        else:
            setattr(super().__getattribute__("__dict__")["__moved_to__"], name, value)

    def __delattr__(self, name: str) -> None:
        if name.startswith("__") and name.endswith("__"):
            super().__delattr__(name)
        else:
            delattr(super().__getattribute__("__dict__")["__moved_to__"], name)


def moved(old: str, new: ModuleType) -> None:
    """Make the module being imported as ``old`` (a dotted name in :data:`sys.modules`)
    stand for ``new``: ``sys.modules[old]`` becomes ``new``, and the old module object
    forwards its names to ``new``.

    Raises:
        KeyError: ``old`` is not a module being imported."""
    shim = sys.modules[old]
    shim.__dict__["__moved_to__"] = new
    shim.__class__ = _Forward
    sys.modules[old] = new
