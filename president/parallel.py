"""Where the boards of a long run are played: here, in a pool of local processes, or as Ray
tasks. :func:`president.simulate.simulate` and :func:`president.tournament.run_tournament`
both hand their boards to :func:`run_boards`, so the three ways of running them are written
once; the statistics never depend on the way (each board's deals come from its own seed).

The Ray backend lives in :mod:`president.distributed` and is imported only for a Ray run.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any, Callable, Sequence, TypeVar

__all__ = ["BACKENDS", "check_backend", "chunks", "run_boards"]

#: The ways a run can be spread: ``local`` (this process, or ``jobs`` processes) and ``ray``.
BACKENDS = ("local", "ray")

_Config = TypeVar("_Config")


def check_backend(backend: str, address: str | None) -> None:
    """Check a ``backend`` and ``address`` pair.

    Raises:
        ValueError: an unknown backend, or an address for the local backend.
    """
    if backend not in BACKENDS:
        raise ValueError(f"backend = {backend!r}; backends are: {', '.join(BACKENDS)}")
    if address is not None and backend != "ray":
        raise ValueError(f"address = {address!r} is for backend 'ray' (a Ray cluster), "
                         f"not {backend!r}")


def chunks(todo: Sequence[int], workers: int, *, largest: int, per_worker: int) -> list[list[int]]:
    """``todo`` (board numbers) cut into chunks of 1 to ``largest`` boards, about
    ``per_worker`` chunks for each of ``workers`` workers (so a slow chunk does not leave the
    others idle at the end, and a fast one does not cost a hand-off per board)."""
    size = max(1, min(largest, len(todo) // (workers * per_worker) or 1))
    return [list(todo[i:i + size]) for i in range(0, len(todo), size)]


def run_boards(work: Callable[[_Config, list[int]], list[dict[str, Any]]], config: _Config,
               todo: Sequence[int], take: Callable[[Sequence[int], list[dict[str, Any]]], None], *,
               jobs: int, backend: str, address: str | None, largest: int,
               per_worker: int) -> None:
    """Play the boards ``todo`` with ``work(config, chunk)`` (a module-level function, so
    worker processes and Ray tasks can import it; it returns one result per board of
    ``chunk``) and call ``take(chunk, results)`` in this process as each chunk finishes (in
    no set order except with ``jobs=1``).

    Args:
        work, config: what plays a chunk of boards, and its (picklable) argument.
        todo: board numbers to play.
        take: receives every chunk's results.
        jobs: local processes (1: this one); not used by ``ray``.
        backend, address: see :func:`check_backend`; ``ray`` runs on the cluster at
            ``address``, or on a Ray started here (``None``), or on the Ray this process
            already initialised.
        largest, per_worker: chunk sizes, as :func:`chunks`.

    Raises:
        ValueError: as :func:`check_backend`; whatever ``work`` raises (the run stops).
        ModuleNotFoundError: ``backend="ray"`` and ray is not installed.
    """
    check_backend(backend, address)
    if backend == "ray":
        from .distributed import cluster_cpus, map_chunks, ray_session
        with ray_session(address) as ray:
            map_chunks(ray, work, config,
                       chunks(todo, cluster_cpus(ray), largest=largest, per_worker=per_worker),
                       take)
    elif jobs == 1:
        for ch in chunks(todo, 1, largest=largest, per_worker=per_worker):
            take(ch, work(config, ch))
    else:
        pool = ProcessPoolExecutor(max_workers=jobs, initializer=_worker_start,
                                   initargs=(os.getpid(),))
        try:
            futures = {pool.submit(work, config, ch): ch
                       for ch in chunks(todo, jobs, largest=largest, per_worker=per_worker)}
            for fut in as_completed(futures):
                take(futures[fut], fut.result())
        except BaseException:
            # Ctrl-C, a failed board or a failed take: stop the workers now rather than
            # wait for the chunks they are playing (minutes each for the searching levels)
            workers = list(getattr(pool, "_processes", {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for proc in workers:
                proc.terminate()
            raise
        pool.shutdown()


def _worker_start(parent: int) -> None:
    """In each worker process: leave Ctrl-C to the parent (which stops the workers), and
    end when the parent is gone (killed with ``kill -9``, say), instead of waiting forever
    for work that will not come."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="watch-parent").start()
