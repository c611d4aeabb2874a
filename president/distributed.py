"""The Ray backend of ``president simulate`` and ``president tournament`` (extra ``ray``).

:func:`president.simulate.simulate` and :func:`president.tournament.run_tournament` cut
their boards into chunks and hand each chunk to a worker; with ``backend="ray"`` the
workers are Ray tasks on a cluster (``address``) or on a Ray started on this machine. A
board's result depends only on the configuration and the board number, and the results are
put back in board order before the statistics are computed, so a Ray run gives exactly the
local result for the same seed (bar the wall-clock ``seconds``, and an expert with a time
limit, whose decisions depend on the machine's speed wherever it runs).

Your own bots (``package.module:ClassName``) are imported by that path on each Ray worker,
so their module must be importable there: installed on every node, or shipped with the
cluster's ``runtime_env``.

This module is the only one that imports ``ray``, and only when a Ray run is asked for; the
rules core and the local path never load it.
"""

from __future__ import annotations

import contextlib
from types import ModuleType
from typing import Any, Callable, Iterator, Sequence, TypeVar

__all__ = ["INSTALL_HINT", "require_ray", "ray_session", "cluster_cpus", "map_chunks"]

#: What to install for the Ray backend.
INSTALL_HINT = "pip install 'president-game[ray]'"

_Config = TypeVar("_Config")
_Result = TypeVar("_Result")


def require_ray() -> ModuleType:
    """The ``ray`` module.

    Raises:
        ModuleNotFoundError: ray is not installed (``name`` is ``"ray"``; the message says
            which extra to install).
    """
    try:
        import ray
    except ModuleNotFoundError as e:
        if e.name != "ray":
            raise
        raise ModuleNotFoundError(f"the Ray backend needs ray, which is not installed; "
                                  f"install the ray extra: {INSTALL_HINT}", name="ray") from None
    return ray


@contextlib.contextmanager
def ray_session(address: str | None = None) -> Iterator[Any]:
    """Connect to Ray for the length of the ``with`` block and yield the ``ray`` module.

    A Ray already initialised in this process (``ray.init`` called by the caller) is used as
    it is and left running. Otherwise ``ray.init(address=address)`` connects to the cluster
    at ``address`` (e.g. ``"auto"``, ``"10.0.0.5:6379"`` or ``"ray://head:10001"``), or with
    ``address=None`` starts a Ray on this machine (no dashboard); either is shut down when
    the block ends.

    Raises:
        ModuleNotFoundError: ray is not installed.
    """
    ray = require_ray()
    if ray.is_initialized():
        yield ray
        return
    if address is None:
        ray.init(include_dashboard=False)
    else:
        ray.init(address=address)
    try:
        yield ray
    finally:
        ray.shutdown()


def cluster_cpus(ray: Any) -> int:
    """CPUs of the connected Ray cluster (at least 1)."""
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def map_chunks(ray: Any, func: Callable[[_Config, list[int]], list[_Result]],
               config: _Config, chunks: Sequence[Sequence[int]],
               on_done: Callable[[Sequence[int], list[_Result]], None]) -> None:
    """Run ``func(config, chunk)`` for every chunk as Ray tasks; ``on_done(chunk, result)``
    is called in this process as each finishes (in the order they finish). ``config`` is
    put in Ray's object store once, not once per task.

    Raises:
        whatever a task raised (Ray's ``RayTaskError`` wraps it and is also an instance of
        the original exception's class).
    """
    task = ray.remote(num_cpus=1)(func)
    ref = ray.put(config)
    pending = {task.remote(ref, list(ch)): ch for ch in chunks}
    while pending:
        ready, _ = ray.wait(list(pending), num_returns=1)
        for r in ready:
            on_done(pending.pop(r), ray.get(r))
