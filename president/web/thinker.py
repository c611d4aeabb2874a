"""Slow computer players think in other processes, so no table waits for another's search.

A level that searches (``expert``: up to 0.8 s of Monte Carlo per decision) would hold the
event loop's GIL in a thread, and thirty sockets asking for expert hints raised every other
player's latency from milliseconds to seconds. :class:`Thinker` sends each such decision to a
:class:`concurrent.futures.ProcessPoolExecutor` (one worker per core but one, at a lower
scheduling priority than the server) and only awaits the result. A fresh player of the level is made in
the worker for each decision from its seed: computer players keep no state between decisions
besides their random generator, so the seed makes the choice reproducible.

At most ``max_pending`` hints (one per worker) wait at once; :meth:`Thinker.busy` tells a
further hint to come back later, so hints can never queue ahead of the computer seats'
decisions. Computer seats always queue: each table has at most one decision in flight, so
their number is bounded by the tables. Workers die with the server (``PR_SET_PDEATHSIG``).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

__all__ = ["Thinker", "decide", "default_workers"]

log = logging.getLogger("president.web")


def _worker_start(server: int | None = None) -> None:  # pragma: no cover - runs in the worker
    """Lower the worker's priority below the server's, and let it die with the server (a
    ``kill -9`` of the server must not leave workers behind: Linux ``PR_SET_PDEATHSIG``).
    Ctrl-C and SIGTERM sent to the terminal's whole process group are the server's to act
    on: the worker ignores them and ends when the server closes the pool (else each worker
    printed a KeyboardInterrupt traceback)."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:
        # SCHED_IDLE: the kernel runs the worker only when no ordinary process wants the CPU,
        # and a waking event loop takes the core from it at once (nice alone still shared
        # time slices with it). Where that policy is missing, a lower nice value.
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (OSError, AttributeError):
        try:
            os.nice(10)
        except OSError:
            pass
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL))   # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    # A server killed before the line above never signals this worker: it is gone already
    # (this process was handed to another parent), so the worker ends now.
    if server is not None and os.getppid() != server:
        os._exit(0)


DECISION_SECONDS = 30.0
"""The most seconds a decision may take in the workers, waiting in their queue included (an
expert decides within about a second; twenty expert tables on one worker waited about 3 s).
A worker past it is taken as hung: the pool is killed and replaced."""


def default_workers(cores: int | None = None) -> int:
    """Worker processes of a server's :class:`Thinker`: one fewer than ``cores`` (default
    :func:`os.cpu_count`), at least one, so the event loop keeps a core of its own.
    ``SCHED_IDLE`` alone did not give it one: on the 2-core development machine, two workers
    each taking a 40 ms search after another (thirty pages asking expert hints) raised an
    event loop's scheduling lag at p95 from 0.25 ms to 0.6 ms and other players' p95 per
    action from 1.5 ms to about 3 ms; one worker left both where they were without it
    (benchmarks/README.md, "hint spam")."""
    n = cores if cores is not None else (os.cpu_count() or 1)
    return max(1, n - 1)


def _workers(pool: ProcessPoolExecutor) -> list[Any]:
    """The worker processes ``pool`` has started (its private ``_processes``)."""
    return list((getattr(pool, "_processes", None) or {}).values())


def decide(level: str, obs: Any, seed: int) -> Any:
    """The action a fresh computer player of ``level`` (seeded ``seed``) chooses from ``obs``
    (one seat's :class:`~president.observation.Observation`): runs in a worker process.
    A level named by import path (``president serve --level``) is imported here: the server
    made the table only after checking the path is one its owner offered."""
    from ..players import is_import_path, make_player
    return make_player(level, seed=seed, imports=is_import_path(level)).act(obs)


class Thinker:
    """A pool of worker processes for slow computer players.

    Args:
        workers: worker processes (default: :func:`default_workers`, one fewer than the
            cores, at least one).
        max_pending: decisions allowed in flight at once before :meth:`busy` says so.
        in_process: decide in a thread of this process instead (tests of the web layer that
            need no isolation; never on a server).
        timeout: seconds a decision may take from its submission (:data:`DECISION_SECONDS`);
            past them the workers are killed and replaced and :meth:`decide` raises
            :class:`TimeoutError`.
    """

    def __init__(self, workers: int | None = None, *, max_pending: int | None = None,
                 in_process: bool = False, timeout: float = DECISION_SECONDS) -> None:
        self.workers = max(1, workers or default_workers())
        self.timeout = timeout
        self.max_pending = max_pending if max_pending is not None else self.workers
        self.in_process = in_process
        self.pending = 0
        self.hints = 0
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # "spawn": each worker is a child of this server, so its parent-death signal
            # fires when the server dies. Under "forkserver" the workers were children of
            # the fork server, which each worker kept alive (every forkserver child holds
            # the write end of the pipe whose end tells the fork server to exit): a kill -9
            # of the server left the fork server, the resource tracker and the workers.
            self._pool = ProcessPoolExecutor(max_workers=self.workers, initializer=_worker_start,
                                             initargs=(os.getpid(),),
                                             mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    def busy(self) -> bool:
        """Whether ``max_pending`` hints are already in the workers' queue (one more should
        wait): hints never fill the queue ahead of the computer seats' own decisions, which
        wait behind at most ``max_pending`` hints (one per worker by default)."""
        return self.hints >= self.max_pending

    async def decide(self, level: str, obs: Any, seed: int, *, hint: bool = False) -> Any:
        """:func:`decide` in a worker process; the event loop only waits for its answer.
        ``hint``: the decision answers a player's hint (counted by :meth:`busy`)."""
        self.pending += 1
        self.hints += hint
        try:
            if self.in_process:
                return await asyncio.to_thread(decide, level, obs, seed)
            for attempt in range(2):
                pool = self._executor()
                try:
                    return await asyncio.wait_for(
                        asyncio.wrap_future(pool.submit(decide, level, obs, seed)),
                        self.timeout)
                except asyncio.TimeoutError:
                    # A worker that hangs (stopped, or a bot of your own in a loop) would
                    # hold its place for ever: its pool is killed and replaced, and the
                    # caller decides otherwise (TableState._think's fallback level).
                    self._discard(pool, kill=True, why=f"a computer player's decision took "
                                  f"over {self.timeout:g} s")
                    raise
                except BrokenProcessPool:
                    # A worker died (the OOM killer, a crash, a kill): the pool is broken
                    # for good. The first decision to see it starts a new pool; each
                    # decision it dropped is asked again there once.
                    self._discard(pool, kill=False,
                                  why="a worker process of the computer players died")
                    if attempt:
                        raise
            raise AssertionError("unreachable")  # pragma: no cover
        finally:
            self.pending -= 1
            self.hints -= hint

    def _discard(self, pool: ProcessPoolExecutor, *, kill: bool, why: str) -> None:
        """Stop using ``pool`` (once: the first decision to find it broken or hung does it;
        the next decision starts a new one), killing its workers if ``kill``."""
        if self._pool is not pool:
            return
        self._pool = None
        log.warning("%s; its worker processes are replaced", why)
        if kill:
            for worker in _workers(pool):
                worker.kill()
        pool.shutdown(wait=False, cancel_futures=True)

    def close(self, seconds: float = 5.0) -> None:
        """Stop the workers (server shutdown): decisions waiting are dropped, those in
        progress get ``seconds`` to end (a built-in level's time limit is about a second),
        so that the workers and their queues end cleanly (no "leaked semaphore" warning at
        exit); a worker still busy then (a slow bot of your own) is killed."""
        if self._pool is None:
            return
        pool, self._pool = self._pool, None
        workers = _workers(pool)
        pool.shutdown(wait=False, cancel_futures=True)
        deadline = time.monotonic() + seconds
        for worker in workers:
            worker.join(max(0.0, deadline - time.monotonic()))
        for worker in workers:
            if worker.is_alive():
                worker.kill()
        for worker in workers:
            worker.join(5.0)
        pool.shutdown(wait=True)
