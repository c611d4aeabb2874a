"""Computer players. Each sees only its own :class:`~president.observation.Observation`.

A player is any object with ``act(observation) -> action`` (a :class:`~president.Play`,
:data:`~president.PASS`, or a :class:`~president.Give` during an exchange), returning one of
``observation.legal_actions``. Build one by level name with :func:`make_player`.

Your own bot is named by its import path, ``"package.module:ClassName"``: a class whose
constructor takes ``seed=`` (an ``int`` or ``None``) and that has ``act``; or by the path of
a network saved as ``.npz`` (``"mybot.npz"``, played by
:class:`president.env.policy.PolicyPlayer`; needs the ``env`` extra). ``make_player``
loads such a path only when asked (``imports=True``), so a name that arrives from outside
(the browser) can never import a module or read a file; :func:`register_level` adds a path
to :data:`LEVELS` for the rest of the process (``president play --levels`` does), and
:func:`register_policy` adds a policy under a name of your choice.

>>> from president import Match, Rules
>>> from president.players import make_player
>>> m = Match(Rules.preset("practice"), seed=4)
>>> bot = make_player("simple", seed=1)
>>> m.observation(0).legal_actions[0] == bot.act(m.observation(0))
True
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from ..errors import shown
from .base import Player
from .random_player import RandomPlayer
from .simple import SimplePlayer

if TYPE_CHECKING:  # imported lazily at run time, by __getattr__
    from .beginner import BeginnerPlayer
    from .expert import ExpertPlayer
    from .intermediate import IntermediatePlayer
    from .learned import LearnedPlayer
    from .master import MasterPlayer
    from ..env.policy import MLP, PolicyFn, PolicyPlayer, PolicySource

__all__ = ["Player", "RandomPlayer", "SimplePlayer", "BeginnerPlayer", "IntermediatePlayer",
           "ExpertPlayer", "MasterPlayer", "LearnedPlayer", "LEVELS", "BUILT_IN", "Level", "make_player",
           "available_levels", "level_class", "load_class", "is_import_path", "is_policy_file",
           "register_level", "register_policy"]


@dataclass(frozen=True)
class Level:
    """A built-in computer level: where its class lives and how fast it decides.

    Attributes:
        module: its module in :mod:`president.players` (imported when first used).
        cls: the player class's name in that module; built as ``cls(seed=seed, **options)``.
        fast: whether it decides in well under a millisecond (the browser game runs it in
            its event loop; slower levels think in worker processes).
    """

    module: str
    cls: str
    fast: bool


BUILT_IN: dict[str, Level] = {
    "random": Level("random_player", "RandomPlayer", fast=True),
    "beginner": Level("beginner", "BeginnerPlayer", fast=True),
    "simple": Level("simple", "SimplePlayer", fast=True),
    "learned": Level("learned", "LearnedPlayer", fast=True),
    "intermediate": Level("intermediate", "IntermediatePlayer", fast=True),
    "expert": Level("expert", "ExpertPlayer", fast=False),
    "master": Level("master", "MasterPlayer", fast=False),
}
"""The one list of the built-in levels, weakest to strongest (every front end, the hint,
``president simulate`` and the ladder read it, through :data:`LEVELS`). A new level is a
module here and a line in this dict."""

# The classes of the built-in levels, imported when first asked for (PEP 562), so that
# ``import president.players`` stays cheap.
_LAZY_CLASSES = {level.cls: level.module for level in BUILT_IN.values()}


def __getattr__(name: str) -> type:
    if name in _LAZY_CLASSES:
        cls: type = getattr(importlib.import_module(f"{__name__}.{_LAZY_CLASSES[name]}"), name)
        return cls
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def level_class(level: str) -> Callable[..., Player]:
    """The player class of a built-in level (:data:`BUILT_IN`), imported on first use.

    Raises:
        ValueError: for a name that is not a built-in level.
    """
    found = BUILT_IN.get(level) if isinstance(level, str) else None
    if found is None:
        raise ValueError(f"no built-in computer level {shown(level)}; levels are: "
                         f"{', '.join(BUILT_IN)}")
    cls: Callable[..., Player] = getattr(importlib.import_module(f"{__name__}.{found.module}"),
                                         found.cls)
    return cls


def _factory(level: str) -> Callable[[int | None], Player]:
    def factory(seed: int | None) -> Player:
        return level_class(level)(seed=seed)
    return factory


# level name -> factory(seed), ordered weakest to strongest: the built-in levels, then any
# added by register_level. Levels whose module is not there yet are skipped by
# make_player's error (see available_levels()).
LEVELS: dict[str, Callable[[int | None], Player]] = {name: _factory(name) for name in BUILT_IN}


def available_levels() -> list[str]:
    """Level names whose implementation is installed, weakest first."""
    out = []
    for name in LEVELS:
        try:
            make_player(name, seed=0)
        except (ImportError, AttributeError):
            continue
        out.append(name)
    return out


def level_choices() -> str:
    """The names a seat's level may take, for help and error texts (str): the level names of
    :data:`LEVELS`, weakest first, then your own bot's import-path form."""
    return (f"{', '.join(LEVELS)}, or your own bot as package.module:ClassName or a saved "
            "network FILE.npz")


def is_policy_file(level: str) -> bool:
    """Whether ``level`` names a saved network file (a path ending in ``.npz``)."""
    return isinstance(level, str) and level.lower().endswith(".npz")


def is_import_path(level: str) -> bool:
    """Whether ``level`` names a bot of your own rather than a level: an import path
    ``"package.module:ClassName"`` or a saved network's ``.npz`` path (:func:`is_policy_file`);
    either loads only where imports are allowed."""
    return isinstance(level, str) and (":" in level or is_policy_file(level))


def load_class(path: str) -> Callable[..., Player]:
    """The player class at import path ``"package.module:ClassName"`` (the module is
    imported; ``ClassName`` may be dotted for a nested class).

    A saved network's ``.npz`` path gives a maker of
    :class:`president.env.policy.PolicyPlayer` for that file (loaded once, here).

    Raises:
        ValueError: saying what is wrong: not written ``module:Class``, the module cannot be
            imported (and why), it has no such attribute, or the attribute is not a class
            with ``act`` whose constructor takes ``seed=``; a ``.npz`` file that does not
            load (see :meth:`president.env.policy.MLP.load`).
    """
    if is_policy_file(path):
        return _policy_maker(path)
    module_name, sep, qualname = path.partition(":") if isinstance(path, str) else ("", "", "")
    if not sep or not module_name.strip() or not qualname.strip():
        raise ValueError(f"{path!r} is not an import path; write package.module:ClassName, "
                         "e.g. mybots.greedy:GreedyPlayer")
    try:
        obj = importlib.import_module(module_name.strip())
    except ImportError as e:
        raise ValueError(f"cannot import module {module_name!r} for {path!r}: {e}; is it "
                         "installed or on PYTHONPATH?") from None
    for part in qualname.strip().split("."):
        if not hasattr(obj, part):
            raise ValueError(f"module {module_name!r} has no {qualname!r} (from {path!r})")
        obj = getattr(obj, part)
    if not isinstance(obj, type) or not callable(getattr(obj, "act", None)):
        raise ValueError(f"{path!r} is not a player class: give a class with an act(observation) "
                         "method")
    import inspect
    try:
        params = inspect.signature(obj).parameters
    except (TypeError, ValueError):   # a signature Python cannot read: trust the class
        return obj
    if "seed" not in params and not any(p.kind is p.VAR_KEYWORD for p in params.values()):
        raise ValueError(f"{path!r}: the constructor must take seed= (an int or None), e.g. "
                         "def __init__(self, *, seed=None)")
    return obj


def _policy_maker(path: str) -> Callable[..., Player]:
    try:
        from ..env.policy import MLP, PolicyPlayer
    except ImportError as e:
        raise ValueError(f"{path!r} is a saved network; playing it needs numpy (pip install "
                         f"'president-game[env]'): {e}") from None
    net = MLP.load(path)

    def make(*, seed: int | None = None, **options: object) -> Player:
        if options:
            raise ValueError(f"{path!r} takes no options (got {', '.join(options)})")
        return PolicyPlayer(net, seed=seed, level=path)
    return make


def register_policy(name: str, policy: "PolicySource") -> str:
    """Make ``policy`` the computer level ``name`` in this process: :func:`make_player`,
    :func:`~president.simulate.simulate`, :func:`~president.tournament.run_tournament` and the
    front ends started here then know it (:data:`president.players.LEVELS`). A file is loaded
    once, now. Returns ``name``.

    Raises:
        ValueError: ``name`` empty, containing ``|`` or ``:``, or a built-in level's name; a
            policy that does not load (see :func:`president.env.policy.load_policy`).
    """
    from ..env.policy import MLP, PolicyPlayer, load_policy
    if not isinstance(name, str) or not name.strip() or any(c in name for c in "|:"):
        raise ValueError(f"level name {name!r} must be a non-empty text without '|' or ':'")
    if name in BUILT_IN:
        raise ValueError(f"{name!r} is a built-in level; register the policy under another name")
    loaded: "PolicyFn | MLP" = MLP.load(policy) if isinstance(policy, (str, os.PathLike)) \
        else policy
    load_policy(loaded)     # refuses what is not a policy, now rather than at the first game

    def factory(seed: int | None) -> "PolicyPlayer":
        return PolicyPlayer(loaded, seed=seed, level=name)
    LEVELS[name] = factory
    return name


def register_level(path: str) -> str:
    """Add the player class at import path ``path`` to :data:`LEVELS` under that path, so
    :func:`make_player` and :func:`available_levels` know it in this process. Returns
    ``path``. Raises ``ValueError`` as :func:`load_class`."""
    if path in LEVELS and not is_import_path(path):
        raise ValueError(f"{path!r} is a built-in level, offered already; --level adds a bot of "
                         "your own by import path, e.g. mybots.greedy:GreedyPlayer")
    cls = load_class(path)
    LEVELS[path] = lambda seed: cls(seed=seed)
    return path


def make_player(level: str, *, seed: int | None = None, imports: bool = False) -> Player:
    """A computer player of the named level (see :data:`LEVELS`), or with ``imports=True``
    also of a class named by import path (``"package.module:ClassName"``, built with
    ``seed=seed``).

    Raises:
        ValueError: for an unknown level, listing the known ones; for an import path
            without ``imports=True``, or one that does not load (see :func:`load_class`).
    """
    factory = LEVELS.get(level) if isinstance(level, str) else None
    if factory is not None:
        return factory(seed)
    if is_import_path(level):
        if not imports:
            raise ValueError(f"no computer level {shown(level)}; an import path names a bot only "
                             "where imports are allowed (president simulate, president play)")
        return load_class(level)(seed=seed)
    raise ValueError(f"no computer level {shown(level)}; levels are: {level_choices()}")
