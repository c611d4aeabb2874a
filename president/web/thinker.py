"""Slow computer players think in other processes, so no table waits for another's search.

A level that searches (``expert``: up to 0.8 s of Monte Carlo per decision) would hold the
event loop's GIL in a thread, and thirty sockets asking for expert hints raised every other
player's latency from milliseconds to seconds. :class:`Thinker` sends each such decision to a
:class:`concurrent.futures.ProcessPoolExecutor` (one worker per core, at a lower scheduling
priority than the server) and only awaits the result. A fresh player of the level is made in
the worker for each decision from its seed: computer players keep no state between decisions
besides their random generator, so the seed makes the choice reproducible.

At most ``max_pending`` decisions wait at once; :meth:`Thinker.busy` tells a caller (a hint)
to come back later instead of queueing without bound. Computer seats always queue: each table
has at most one decision in flight, so their number is bounded by the tables.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from typing import Any

__all__ = ["Thinker", "decide"]

log = logging.getLogger("president.web")


def _nice() -> None:  # pragma: no cover - runs in the worker process
    try:
        os.nice(10)
    except OSError:
        pass


def decide(level: str, obs: Any, seed: int) -> Any:
    """The action a fresh computer player of ``level`` (seeded ``seed``) chooses from ``obs``
    (one seat's :class:`~president.observation.Observation`): runs in a worker process."""
    from ..players import make_player
    return make_player(level, seed=seed).act(obs)


class Thinker:
    """A pool of worker processes for slow computer players.

    Args:
        workers: worker processes (default: the number of cores).
        max_pending: decisions allowed in flight at once before :meth:`busy` says so.
        in_process: decide in a thread of this process instead (tests of the web layer that
            need no isolation; never on a server).
    """

    def __init__(self, workers: int | None = None, *, max_pending: int | None = None,
                 in_process: bool = False) -> None:
        self.workers = max(1, workers or os.cpu_count() or 1)
        self.max_pending = max_pending if max_pending is not None else 16 * self.workers
        self.in_process = in_process
        self.pending = 0
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=self.workers, initializer=_nice,
                                             mp_context=multiprocessing.get_context("forkserver"))
        return self._pool

    def busy(self) -> bool:
        """Whether ``max_pending`` decisions are already waiting (a hint should wait)."""
        return self.pending >= self.max_pending

    async def decide(self, level: str, obs: Any, seed: int) -> Any:
        """:func:`decide` in a worker process; the event loop only waits for its answer."""
        self.pending += 1
        try:
            if self.in_process:
                return await asyncio.to_thread(decide, level, obs, seed)
            future = self._executor().submit(decide, level, obs, seed)
            return await asyncio.wrap_future(future)
        finally:
            self.pending -= 1

    def close(self) -> None:
        """Stop the workers (server shutdown); decisions in flight are abandoned."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
