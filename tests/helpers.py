"""Small helpers shared by several test files."""

from __future__ import annotations

import asyncio
import concurrent.futures
from typing import Any, Awaitable, Callable


def run_async(make: Callable[[], Awaitable[Any]]) -> Any:
    """``asyncio.run(make())`` in a thread of its own: ``asyncio.run`` refuses to start inside
    the event loop Playwright's sync API leaves running once the browser tests have run."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(make())).result()
