"""A socket that asks for slow hints back to back (issue 9's hint spam): each refusal comes
late and costs no observation, so the spam cannot take the event loop from other tables."""

from __future__ import annotations

import asyncio
import concurrent.futures
import types

import pytest

pytest.importorskip("fastapi")

from president import PASS  # noqa: E402
from president.web import protocol as P  # noqa: E402
from president.web import tables as T  # noqa: E402
from president.web.sealing import Sealer  # noqa: E402


class Page:
    """A socket that keeps what it is sent."""

    def __init__(self) -> None:
        self.sent: list = []

    async def send(self, message) -> None:
        self.sent.append(message)


class BusyThinker:
    """Every worker busy: a slow hint must be refused."""

    def busy(self) -> bool:
        return True


def test_refused_slow_hints_are_answered_late_and_without_work(monkeypatch):
    from president.web import hints as H
    monkeypatch.setattr(H, "HINT_REFUSAL_SECONDS", 0.05)   # (hints.py reads its own name)
    slept: list[float] = []
    real_sleep = asyncio.sleep

    async def sleep(delay, result=None):              # the refusal's wait, recorded
        slept.append(delay)
        return await real_sleep(delay, result)

    monkeypatch.setattr(H, "asyncio", types.SimpleNamespace(**{**vars(asyncio), "sleep": sleep}))

    async def go():
        tables = T.Tables(sealer=Sealer(b"h" * 32), bot_delay=0.0, per_address=0)
        table = tables.create(kind="practice")
        table.thinker = BusyThinker()
        looked = []
        real = table.hints._hint_start
        monkeypatch.setattr(table.hints, "_hint_start", lambda *a: looked.append(a) or real(*a))
        answers = [await table.hints.hint_async(0, "expert") for _ in range(4)]
        assert [a["text"] for a in answers] == [
            "The computer players are all busy thinking; ask again in a moment."] * 4
        assert slept == [0.05] * 4 and looked == []       # late, and no observation built
        fast = await table.hints.hint_async(0, "simple")          # a fast level is never refused
        assert fast["type"] == "hint" and (fast["cards"] or fast["pass"]) and len(looked) == 1
        table.hints._hinting.add(0)
        again = await table.hints.hint_async(0, "expert")
        assert again["text"] == "Still working on your last hint; wait for it."
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(lambda: asyncio.run(go())).result()


def test_the_same_question_in_the_same_position_gets_the_same_hint(monkeypatch):
    # A search may answer differently each time it runs; asked again with nothing played
    # since, the player gets the answer already given, without a second search.
    async def go():
        tables = T.Tables(sealer=Sealer(b"h" * 32), bot_delay=0.0, per_address=0)
        table = tables.create(kind="practice")
        searches = []

        async def think(level, obs, seed, hint=False):
            searches.append(level)
            options = [a for a in obs.legal_actions if a is not PASS]
            if not options:                # (a random deal: the new position may allow only
                return PASS                # a pass; CI met one)
            return options[len(searches) % len(options)]   # a different option each search

        monkeypatch.setattr(table, "_think", think)
        first = await table.hints.hint_async(0, "expert")
        again = await table.hints.hint_async(0, "expert")
        assert first["cards"] and again == first and searches == ["expert"]
        simple = await table.hints.hint_async(0, "simple")      # another level: its own answer
        assert simple["cards"] and searches == ["expert"]
        page = Page()
        await table.handle(0, page, P.PlayMsg(type="play", cards=first["cards"]))
        await table.computers.run_bots_now()    # the computers answer: a new position
        assert not page.sent and len(table.log) > 1
        await table.hints.hint_async(0, "expert")
        assert searches == ["expert", "expert"]
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(lambda: asyncio.run(go())).result()


def test_closing_the_workers_ends_a_stuck_one_in_bounded_time():
    """A worker busy past the close's grace (a slow bot of one's own; the workers ignore
    Ctrl-C and SIGTERM, which are the server's) is killed: the server's stop never hangs."""
    import time as _time

    from president.web.thinker import Thinker

    thinker = Thinker(1)
    busy = thinker._executor().submit(_time.sleep, 60)
    deadline = _time.monotonic() + 30
    while not busy.running() and _time.monotonic() < deadline:
        _time.sleep(0.05)
    workers = list(thinker._executor()._processes.values())
    assert busy.running() and workers
    t0 = _time.monotonic()
    thinker.close(seconds=1.0)
    assert _time.monotonic() - t0 < 15
    deadline = _time.monotonic() + 10          # (a loaded machine reaps a killed child late)
    while any(w.is_alive() for w in workers) and _time.monotonic() < deadline:
        _time.sleep(0.1)
    assert not any(w.is_alive() for w in workers)
