"""The group commit of accepted actions (president.web.tables.GroupCommit) and the store's
and ledger's batch writes under it. Tests taking ``store_engine`` run on SQLite and on
PostgreSQL (tests/store_engines.py: PostgreSQL must be reachable, or
``PRESIDENT_TEST_NO_POSTGRES=1`` skips those)."""

from __future__ import annotations

import asyncio
import threading

import pytest

pytest.importorskip("fastapi")

from president.web.store import TableStore  # noqa: E402
from president.web.tables import GroupCommit  # noqa: E402
from tests.helpers import run_async  # noqa: E402


class _T:
    def __init__(self, tid: str) -> None:
        self.id = tid


def test_a_slow_write_holds_only_its_own_table_and_the_others_share_one_write():
    """Issue 33: one table's write held (a lock, a slow disk) must not hold the others. Writes
    of other tables asked meanwhile go in one write of their own at once; the held table's
    next write waits for the held one (each table's writes stay in order)."""
    writes: list[list[tuple]] = []
    held = threading.Event()
    gate = threading.Event()

    def write(batches):
        if any(t.id == "slow" for t, _, _ in batches):
            held.set()
            gate.wait(5)
        writes.append([(t.id, start, list(entries)) for t, start, entries in batches])

    async def main():
        commit = GroupCommit(write)
        slow = asyncio.create_task(commit.keep(_T("slow"), 3, [[0, "3C"]]))
        while not held.is_set():                       # a writer holds the slow table's write
            await asyncio.sleep(0.005)
        after = asyncio.create_task(commit.keep(_T("slow"), 4, [[1, "pass"]]))
        others = [asyncio.create_task(commit.keep(_T(f"t{i}"), 4, [[1, "pass"]]))
                  for i in range(4)]
        await asyncio.wait_for(asyncio.gather(*others), 2)   # kept while the slow one waits
        assert not slow.done() and not after.done()
        gate.set()
        await asyncio.gather(slow, after)
        commit.close()

    run_async(main)
    ids = [[w[0] for w in batch] for batch in writes]
    assert sorted(i for batch in ids[:-2] for i in batch) == ["t0", "t1", "t2", "t3"]
    assert ids[-2:] == [["slow"], ["slow"]]
    assert [w[0][1] for w in writes[-2:]] == [3, 4]            # in order


def test_writes_of_one_table_are_never_under_way_together():
    """Per-table order under many writer threads: a table's writes come one at a time, in
    the order asked, whatever the other tables do."""
    import time as _time

    seen: dict[str, list[int]] = {}
    under_way: set[str] = set()
    clash: list[str] = []
    lock = threading.Lock()

    def write(batches):
        with lock:      # (one write may hold several of a table's, in order)
            for tid in {t.id for t, _, _ in batches}:
                if tid in under_way:
                    clash.append(tid)
                under_way.add(tid)
        _time.sleep(0.001)
        with lock:
            for t, start, _ in batches:
                seen.setdefault(t.id, []).append(start)
                under_way.discard(t.id)

    async def main():
        commit = GroupCommit(write)
        await asyncio.gather(*(commit.keep(_T(f"t{n % 5}"), n // 5, [n]) for n in range(200)))
        commit.close()

    run_async(main)
    assert clash == []
    assert seen == {f"t{k}": list(range(40)) for k in range(5)}


def test_a_failed_write_reaches_every_caller_of_that_write_and_the_next_one_works():
    calls = []

    def write(batches):
        calls.append(sorted(t.id for t, _, _ in batches))
        if len(calls) == 1:
            raise OSError("disk full")

    async def main():
        commit = GroupCommit(write, writers=1)
        gate = threading.Event()
        commit.later(lambda: gate.wait(5))             # the one writer is busy: both queue
        both = asyncio.gather(commit.keep(_T("a"), 0, [1]), commit.keep(_T("b"), 0, [1]),
                              return_exceptions=True)
        await asyncio.sleep(0.05)
        gate.set()
        assert [type(r) for r in await both] == [OSError, OSError]
        await commit.keep(_T("a"), 0, [1])             # the next write goes through
        commit.close()

    run_async(main)
    assert calls == [["a", "b"], ["a"]]


def test_store_batches_keep_each_tables_actions_in_order(store_engine):
    store = store_engine.table_store()
    store.add("a", {"v": 1}, now=1.0)
    store.add("b", {"v": 1}, now=1.0)
    store.append_batches([("a", 0, ['[0,"3C"]', '[1,"pass"]']), ("b", 0, ['[2,"4D"]'])], now=5.0)
    store.append_many("a", 2, [[2, "5H"]], now=6.0)
    assert store.load("a")["log"] == [[0, "3C"], [1, "pass"], [2, "5H"]]
    assert store.load("b")["log"] == [[2, "4D"]]
    assert store.expire(before=5.5) == ["b"]           # b last acted at 5.0, a at 6.0
    store.close()


def test_ledger_issued_many_only_ever_raises_a_version(store_engine):
    ledger = store_engine.ledger()
    ledger.issued_many([("a", 7), ("b", 2)])
    ledger.issued_many([("a", 5), ("b", 3)])
    ledger.issued_many([("c", 4), ("c", 6), ("c", 5)])       # one table twice in one write
    assert (ledger.latest("a"), ledger.latest("b"), ledger.latest("c")) == (7, 3, 6)
    ledger.close()


def test_jobs_run_in_the_writer_thread_in_order_with_the_actions():
    order: list[str] = []

    def write(batches):
        order.extend(f"{t.id}:{start}" for t, start, _ in batches)

    async def main():
        commit = GroupCommit(write)
        first = asyncio.create_task(commit.keep(_T("a"), 0, [[0, "3C"]]))
        await asyncio.sleep(0)              # each task queues its item when it first runs
        commit.later(lambda: order.append("joined a"))
        job = asyncio.create_task(commit.run(lambda: threading.current_thread().name))
        await asyncio.sleep(0)
        second = asyncio.create_task(commit.keep(_T("a"), 1, [[1, "pass"]]))
        await asyncio.gather(first, second)
        name = await job
        failing = commit.run(lambda: 1 / 0)
        with pytest.raises(ZeroDivisionError):
            await failing
        commit.later(lambda: 1 / 0)          # logged; the writer goes on
        await commit.keep(_T("b"), 0, [[0, "4D"]])
        commit.close()
        return name

    assert run_async(main) == "president-store"
    assert order == ["a:0", "joined a", "a:1", "b:0"]


def test_store_reads_do_not_wait_for_a_write_under_way(tmp_path):
    store = TableStore(tmp_path / "tables.sqlite3")
    store.add("t1", {"v": 1, "id": "t1"})
    store.append("t1", 0, [0, "3C"])
    with store._lock:                      # a write holds the writer's connection
        started = threading.Event()
        answers: list = []

        def read():
            started.set()
            answers.extend([store.setup("t1"), "t1" in store, len(store), store.load("t1")["log"]])
        reader = threading.Thread(target=read)
        reader.start()
        reader.join(5)
        assert started.is_set() and not reader.is_alive()
    assert answers == [{"v": 1, "id": "t1"}, True, 1, [[0, "3C"]]]
    store.close()


def test_a_table_dropped_twice_is_counted_once_and_gone_for_a_hello(store_engine):
    from president.web.tables import Tables

    async def main():
        tables = Tables(sealer=None, bot_delay=0.0, store=store_engine.table_store())
        made = await tables.create_async(kind="practice")
        token = made.humans[0].token
        assert len(tables) == 1 and made.id in tables.store
        tables.drop(made.id)
        tables.drop(made.id)
        assert len(tables) == 0
        gone = await tables.get_async(made.id, token)   # the store's removal may still be queued
        tables.close_all()
        return gone, made.id in tables.store

    assert run_async(main) == (None, False)


def test_a_new_table_is_joined_from_memory_and_only_the_newest_wait_there(store_engine,
                                                                         monkeypatch):
    from president.web.tables import Tables

    tables = Tables(sealer=None, bot_delay=0.0, per_address=0,
                    store=store_engine.table_store())
    monkeypatch.setattr(Tables, "FRESH_TABLES", 3)
    made = [tables.create(kind="practice") for _ in range(5)]
    assert list(tables._fresh) == [t.id for t in made[2:]]       # the newest 3
    assert all(t.closed for t in made[:2]) and not tables.tables
    rebuilt: list[str] = []
    real = tables._rebuild
    monkeypatch.setattr(tables, "_rebuild", lambda tid: rebuilt.append(tid) or real(tid))

    async def main():
        wrong = await tables.get_async(made[4].id, made[3].humans[0].token)
        newest = await tables.get_async(made[4].id, made[4].humans[0].token)
        oldest = await tables.get_async(made[0].id, made[0].humans[0].token)
        return wrong, newest, oldest

    wrong, newest, oldest = run_async(main)
    assert wrong is None
    assert newest is made[4] and tables.tables[made[4].id] is made[4]   # no rebuild
    assert oldest is not None and oldest is not made[0] and oldest.id == made[0].id
    assert rebuilt == [made[0].id]
    # a fresh table the store forgot (nobody joined it in time) is not handed out
    tables.store.remove(made[3].id)
    assert tables.get(made[3].id) is None and made[3].closed
    assert made[3].id not in tables._fresh
    tables.close_all()


def test_a_page_joining_a_table_closed_meanwhile_is_told_it_is_gone(tmp_path):
    from president.web.tables import TableError, Tables

    tables = Tables(sealer=None, bot_delay=0.0, per_address=0)
    table = tables.create(kind="practice")
    table.close()

    class Page:
        async def send(self, message):
            raise AssertionError(f"nothing is sent: {message}")

    with pytest.raises(TableError) as e:
        run_async(lambda: table.join(0, Page()))
    assert e.value.reason == "unknown-table"
    assert not table.humans[0].connections


def test_an_action_the_store_cannot_keep_leaves_memory_and_the_table_comes_back_before_it(
        tmp_path, monkeypatch):
    from president.web import protocol as P
    from president.web.tables import Tables

    store = TableStore(tmp_path / "t.sqlite3")
    tables = Tables(sealer=None, bot_delay=0.0, per_address=0, allow_seed=True, store=store)
    sent: list = []

    class Page:
        batches = False

        async def send(self, message):
            sent.append(message)

    made = tables.create(kind="match", preset="house", players=4, seed=5)
    token = made.humans[0].token

    async def main():
        table = await tables.get_async(made.id, token)
        page = Page()
        await table.join(0, page)
        await table.computers.run_bots_now()
        kept = len(table.log)
        state = [m for m in sent if m["type"] == "state"][-1]
        play = next(a for a in state["legal"] if a != "pass")
        real = store.append_batches

        def failing(batches, **kw):
            raise OSError("disk full")
        monkeypatch.setattr(store, "append_batches", failing)
        before = len(sent)
        with pytest.raises(OSError):
            await table.handle(0, page, P.PlayMsg(type="play", cards=play))
        assert sent[before:] == []                 # nothing about the lost action went out
        assert table.closed and made.id not in tables.tables
        monkeypatch.setattr(store, "append_batches", real)
        again = await tables.get_async(made.id, token)
        return kept, again

    kept, again = run_async(main)
    assert again is not None and again is not made and len(again.log) == kept
    assert len(store.load(made.id)["log"]) == kept
    tables.close_all()


def test_a_new_table_the_store_cannot_keep_is_refused_and_takes_no_place(tmp_path, monkeypatch):
    from president.web.tables import Tables

    store = TableStore(tmp_path / "t.sqlite3")
    tables = Tables(sealer=None, bot_delay=0.0, per_address=0, store=store, max_tables=2)

    def failing(*a, **k):
        raise OSError("disk full")
    monkeypatch.setattr(store, "add", failing)
    for _ in range(3):
        with pytest.raises(OSError):
            run_async(lambda: tables.create_async(kind="practice"))
    assert len(tables) == 0 and not tables._fresh
    monkeypatch.undo()
    made = run_async(lambda: tables.create_async(kind="practice"))
    assert len(tables) == 1 and made.id in store
    tables.close_all()


def test_a_table_dropped_and_then_expired_is_counted_once(store_engine):
    import time as _time

    from president.web.tables import Tables

    tables = Tables(sealer=None, bot_delay=0.0, per_address=0, unjoined_seconds=0,
                    store=store_engine.table_store())
    made = [tables.create(kind="practice") for _ in range(3)]
    gate = threading.Event()
    tables._commit.later(lambda: gate.wait(5))        # the writer is busy: the removal waits
    tables.drop(made[0].id)
    _time.sleep(0.01)
    tables._sweep(force=True)                         # expires all three (nobody joined)
    gate.set()
    tables.close_all()
    assert len(tables) == 0 and len(tables.store) == 0


def test_the_server_answers_a_new_table_it_cannot_keep_with_a_documented_refusal(tmp_path,
                                                                                  monkeypatch):
    from fastapi.testclient import TestClient

    from president.web.app import create_app

    app = create_app(bot_delay=0, secret=b"s" * 32, state_dir=tmp_path)
    with TestClient(app) as client:
        store = app.state.tables.store

        def failing(*a, **k):
            raise OSError("disk full")
        monkeypatch.setattr(store, "add", failing)
        r = client.post("/api/tables", json={"kind": "practice"})
        assert r.status_code == 503
        assert r.json()["error"] == "server-error" and "disk" in r.json()["message"]
        assert len(app.state.tables) == 0
        monkeypatch.undo()
        assert client.post("/api/tables", json={"kind": "practice"}).status_code == 200
