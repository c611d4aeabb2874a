"""A socket that asks for slow hints back to back (issue 9's hint spam): each refusal comes
late and costs no observation, so the spam cannot take the event loop from other tables."""

from __future__ import annotations

import asyncio
import concurrent.futures
import time

import pytest

pytest.importorskip("fastapi")

from president.web import tables as T  # noqa: E402
from president.web.sealing import Sealer  # noqa: E402


class BusyThinker:
    """Every worker busy: a slow hint must be refused."""

    def busy(self) -> bool:
        return True


def test_refused_slow_hints_are_answered_late_and_without_work(monkeypatch):
    monkeypatch.setattr(T, "HINT_REFUSAL_SECONDS", 0.05)

    async def go():
        tables = T.Tables(sealer=Sealer(b"h" * 32), bot_delay=0.0, per_address=0)
        table = tables.create(kind="practice")
        table.thinker = BusyThinker()
        looked = []
        real = table._hint_start
        monkeypatch.setattr(table, "_hint_start", lambda *a: looked.append(a) or real(*a))
        t0 = time.perf_counter()
        answers = [await table.hint_async(0, "expert") for _ in range(4)]
        took = time.perf_counter() - t0
        assert [a["text"] for a in answers] == [
            "The computer players are all busy thinking; ask again in a moment."] * 4
        assert took >= 4 * 0.05 and looked == []          # late, and no observation built
        fast = await table.hint_async(0, "simple")          # a fast level is never refused
        assert fast["type"] == "hint" and (fast["cards"] or fast["pass"]) and len(looked) == 1
        table._hinting.add(0)
        again = await table.hint_async(0, "expert")
        assert again["text"] == "Still working on your last hint; wait for it."
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(lambda: asyncio.run(go())).result()
