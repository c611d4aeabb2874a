"""Tables in memory (:class:`Tables`) and one table (:class:`Table`): its state (it is a
:class:`~president.web.state.TableState`), two parts it makes and holds, its computer players
(``table.computers``, :mod:`president.web.runner`) and its hints (``table.hints``,
:mod:`president.web.hints`), and what its humans do (join, leave, act), which is here.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import secrets
import threading
import time
from collections import OrderedDict, deque
from typing import Any, Callable, Sequence, cast

from ..actions import Give, Play
from ..errors import IllegalAction, PresidentError, RulesError
from ..events import Event
from ..rules import PRESETS, Rules
from . import protocol as P
from .hints import HINT_REFUSAL_SECONDS, Hints
from .ledger import KEEP_SECONDS, LedgerLike, StaleRecord, StoreError
from .limits import TABLE_BURST, TABLES_PER_MINUTE, Rate
from .levels import DEFAULT_HINT_LEVEL, DEFAULT_STANDIN, FAST_LEVELS, HUMAN, known_levels
from .names import BadName, check_names, same_name
from .runner import ComputerPlayers
from .sealing import Sealer, SealError
from .state import (
    DEFAULT_FILL_SECONDS,
    MAX_FILL_SECONDS,
    MIN_FILL_SECONDS,
    open_seat_name,
    DEFAULT_GRACE_SECONDS,
    DEFAULT_NAMES,
    MATCH_PRESETS,
    MAX_SOCKETS_PER_SEAT,
    MAX_TABLE_ACTIONS,
    PRACTICE_NAMES,
    RECORD_VERSION,
    Connection,
    TableError,
    TableState,
    bot_delay_from_env,
)
from .store import TableOwners, TableStoreLike
from .thinker import Thinker

log = logging.getLogger("president.web")

__all__ = ["Table", "Tables", "GroupCommit", "Connection", "TableError", "TableState",
           "PRACTICE_NAMES", "DEFAULT_NAMES", "MATCH_PRESETS", "DEFAULT_HINT_LEVEL",
           "DEFAULT_STANDIN", "DEFAULT_GRACE_SECONDS", "HUMAN", "FAST_LEVELS",
           "HINT_REFUSAL_SECONDS", "RECORD_VERSION", "bot_delay_from_env", "known_levels"]

class Table(TableState):
    """One table of the browser game: its state (:class:`~president.web.state.TableState`,
    whose arguments it takes), its computer players (:attr:`computers`), its hints
    (:attr:`hints`), and what its humans do: join, leave, act.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.computers = ComputerPlayers(self)
        """The computer players' loop, the timers and the stand-ins."""
        self.hints = Hints(self)
        """The hints asked for by this table's humans."""

    def _new_match(self) -> None:
        """A rematch (:meth:`TableState._new_match`); the last match's stand-ins go too."""
        super()._new_match()
        self.computers.new_match()

    async def join(self, player: int, conn: Any, *, token: str | None = None) -> None:
        """Attach a socket of human ``player`` and send it ``welcome``, the match's ``log``
        and the ``state``, in that order: the table's lock keeps computer plays from slipping
        in between (they follow the state).

        Raises:
            TableError: ``too-many-pages`` when the seat already has
                :data:`MAX_SOCKETS_PER_SEAT` sockets.
        """
        async with self._lock:
            if self.closed:     # forgotten (a practice round left) while this page waited
                raise TableError("unknown-table", "this table is no longer on the server; "
                                 "start a new game")
            if len(self.humans[player].connections) >= MAX_SOCKETS_PER_SEAT:
                raise TableError("too-many-pages", f"this seat is already open in "
                                 f"{MAX_SOCKETS_PER_SEAT} pages; close one of them first")
            first = not self.humans[player].connections
            self.humans[player].connections.add(conn)
            self.last_active = time.monotonic()
            if self.on_join is not None:
                self.on_join(self)
            what = None
            if first and self.friends:
                what = "returned" if player in self.seen else "joined"
            self.seen.add(player)
            back = first and player in self.standins
            self.standins.discard(player)
            self.computers.arm_timer()
            invites = self.invites() if player == self.host else []
            await conn.send({"type": "welcome", "table": self.id, "player": player,
                             "name": self.names[player], "kind": self.kind,
                             "rules": self.rule_lines(player), "host": self.host,
                             "invites": invites, **({"token": token} if token else {})})
            for msg in (self.log_for(player), self.state_for(player)):
                if self.on_send is not None:
                    self.on_send(player, msg)
                await conn.send(msg)
            if what is not None:
                await self._announce(player, what, exclude=conn)
            if back:
                await self._announce(player, "back")   # the returner too: what was played for them
            if what is not None or back:
                await self._send_states(exclude=conn)
        self.computers.kick()

    def invites(self) -> list[dict[str, Any]]:
        """The host's seat links: ``{"player", "name", "token"}`` of each friend's seat (none at
        an open table, whose seats go to whoever joins: a token handed out by the host would
        let the host act for them)."""
        if self.open:
            return []
        return [{"player": p, "name": self.names[p], "token": h.token}
                for p, h in self.humans.items() if p != self.host]

    # ----- open tables (docs/web.md, "Open tables") ------------------------------------

    def free_seats(self) -> list[int]:
        """An open table's human seats nobody has taken yet (the host's is never free)."""
        if not (self.open and self.lobby):
            return []
        return [p for p in sorted(self.humans) if p != self.host and p not in self.claimed]

    def listing(self) -> dict[str, Any] | None:
        """What the list of open tables shows of this one, or ``None`` when it is not listed
        (not open, started, or every seat taken)."""
        free = self.free_seats()
        if not free:
            return None
        return {"table": self.id, "preset": self.rules.preset_name, "twists": list(self.rules.twists),
                "players": self.rules.players, "host": self.names[self.host],
                "seated": [self.names[p] for p in sorted({self.host, *self.claimed})],
                "computers": len(self.bots), "free": len(free), "fill_by": self.fill_by}

    def _rename(self, player: int, name: str) -> None:
        names = list(self.names)
        names[player] = name
        self.names = tuple(names)
        self.match.rename(player, name)

    async def _save_setup(self) -> None:
        """Keep the table's setup (names and tokens changed in the waiting room) and its place
        on the list of open tables (``on_setup``), before anyone hears of the change."""
        if self.on_setup is not None:
            await self.on_setup(self)

    async def claim(self, name: str) -> tuple[int, str]:
        """Take a free seat of this open table for a person named ``name``: ``(player,
        token)``, kept before this returns.

        Raises:
            TableError: ``not-open`` (not an open table, or its match has started),
                ``table-full`` (every seat is taken), ``bad-name`` (the name rules of
                :func:`~president.web.names.check_names`, or a name someone at the table has).
        """
        async with self._lock:
            if not self.open or not self.lobby or self.closed:
                raise TableError("not-open", "this table is not open to join (its match has "
                                 "started, or it is a table for invited friends)")
            free = self.free_seats()
            if not free:
                raise TableError("table-full", "every seat at this table is taken; choose another "
                                 "open table, or make one")
            p = free[0]
            taken = next((n for q, n in enumerate(self.names)
                          if q != p and (q not in self.humans or q == self.host
                                         or q in self.claimed) and same_name(name, n)), None)
            if taken is not None:
                raise TableError("bad-name", f"{taken} already sits at this table; choose "
                                 "another name")
            names = list(self.names)
            names[p] = name if name.strip() else ""
            try:
                shown = check_names(names, defaults=[*names[:p], f"Player {p + 1}",
                                                     *names[p + 1:]], friends=True)
            except BadName as e:
                raise TableError("bad-name", e.message) from None
            if shown[p].startswith("Seat "):
                raise TableError("bad-name", "choose a name other than a seat's number")
            old = self.humans[p]
            self.humans[p] = type(old)(secrets.token_urlsafe(24))   # this person's own
            self.claimed.add(p)
            self._rename(p, shown[p])
            try:
                await self._save_setup()
            except BaseException:
                self.humans[p] = old
                self.claimed.discard(p)
                self._rename(p, open_seat_name(p))
                raise
            token = self.humans[p].token
        await self._send_states()
        return p, token

    async def fill(self) -> None:
        """An open table's wait is over (:attr:`fill_by`): the match starts, computers playing
        the seats nobody took."""
        async with self._lock:
            if not self.lobby or self.closed:
                return
            await self._start()
        self.computers.kick()

    async def _start(self) -> None:
        """Leave the waiting room: the match starts (the table's lock is held)."""
        self.lobby = False
        self._accept("s")
        await self._save()
        if self.open:
            await self._save_setup()    # off the list of open tables
        for p in self.humans:     # the deal so far (the lobby showed none of it)
            await self._send(p, self.log_for(p))
        for p in self.humans:     # a friend who never came: the stand-in until they do
            if p != self.host and p not in self.seen and not self.humans[p].connections:
                self.standins.add(p)
                # an open table's seat nobody took is the computer's, not someone's who is away
                unclaimed = self.open and p not in self.claimed
                await self._announce(p, "filled" if unclaimed else "standin")
        batch: list[Event] = []
        self.computers.instant_bots(batch)
        self.computers.arm_timer()
        await self._broadcast(batch)

    def leave(self, player: int, conn: Any) -> None:
        """Detach a socket. At a table for friends, the others hear that ``player`` left
        when their last page closes, and the grace period starts if it is their turn."""
        had = bool(self.humans[player].connections) or conn in self._dropped
        self._dropped.discard(conn)
        self.humans[player].connections.discard(conn)
        self.last_active = time.monotonic()
        if not self.connected:
            self._grown = None     # the record's growing stream (~24 KB) only while a page is open
        if had and not self.humans[player].connections and self.friends and not self.closed:
            try:
                self._spawn(self._left(player))
            except RuntimeError:    # no running loop (a test outside one): nobody to tell
                return

    async def _left(self, player: int) -> None:
        async with self._lock:
            if self.humans[player].connections or self.closed:
                return
            resumed = self.paused and player == self.host
            if resumed:     # only the host may resume: their pause must not outlast them
                self.paused = False
                self.paused_by = None
            await self._announce(player, "left")
            await self._advance_if_ready()
            self.computers.arm_timer()
            await self._send_states()
        if resumed:
            self.computers.kick()

    # ----- deals and rematches ---------------------------------------------------------

    async def _advance_if_ready(self) -> None:
        """Between deals or after the match at a table for friends: deal, or start the
        rematch, once every present human is ready (call with the lock held)."""
        m = self.match
        if not self.ready or m.phase not in ("between-deals", "match-over"):
            return
        if not set(self.present()) <= self.ready:
            return
        await self._next(rematch=m.phase == "match-over")

    async def _next(self, *, rematch: bool) -> None:
        """Deal the next deal, or start a new match at this table (lock held)."""
        self.ready.clear()
        if rematch:
            self._new_match()
            self._accept("r")
            await self._save()
            await self._announce(self.host, "rematch")     # said before the new match's log
            for p in self.humans:
                await self._send(p, self.log_for(p))
            batch: list[Event] = []
        else:
            events = self.match.start_next_deal()
            self._accept("n")
            self._collect(events)
            batch = list(events)
        self.computers.instant_bots(batch)
        self.computers.arm_timer()
        await self._broadcast(batch)

    # ----- actions ----------------------------------------------------------------------

    async def handle(self, player: int, conn: Any, msg: Any) -> None:
        """Carry out one validated browser message from human ``player``. An illegal action
        gets an ``error`` reply on ``conn`` and changes nothing. At a table for friends
        (docs/web.md, "Friends at one table") ``start``, ``seat``, ``pause``, ``resume`` and a
        forced ``next-deal`` or ``rematch`` are the host's (others get ``host-only``)."""
        self.last_active = time.monotonic()

        async def refuse(reason: str, why: str) -> None:
            await conn.send(P.error_message(reason, why))

        if self.closed:     # forgotten by the server while this page was open: nothing more
            await refuse("unknown-table", "this table is no longer on the server; reload the "
                         "page to see whether it can be opened again")
            return

        host_only = self.friends and player != self.host
        if isinstance(msg, (P.PlayMsg, P.PassMsg, P.GiveMsg)):
            async with self._lock:
                m = self.match
                if self.lobby:
                    await refuse("wrong-phase", f"the match has not started: {self.names[self.host]} "
                                 "starts it from the waiting room")
                    return
                if player in self.standins:
                    await refuse("standin", f"a computer plays your seat now; "
                                 f"{self.names[self.host]} (the host) can hand it back to you")
                    return
                if msg.at is not None and msg.at != len(self.log):
                    await refuse("stale", f"that was chosen at action {msg.at} and the table "
                                 f"is at action {len(self.log)}; nothing was played: choose "
                                 "again from the table as it is now")
                    return
                seat = self.seat_of(player)
                names = [self.names[p] for p in m.seating]
                try:
                    action = P.to_action(msg, m.phase)
                    if isinstance(action, Give) and m.phase != "exchange":
                        raise IllegalAction("wrong-phase", "there is no exchange now; play cards or pass")
                    if isinstance(action, Play) and m.phase == "exchange":
                        raise IllegalAction("wrong-phase", "it is the exchange: give cards, do not play them")
                    events = m.act(seat, action)
                except PresidentError as e:
                    await conn.send(P.error_message(e.reason, P.readable(e.message, names, seat)))
                    return
                await self.computers.acted(seat, action, events)
            self.computers.kick()
        elif isinstance(msg, P.HintMsg):
            await conn.send(await self.hints.hint_async(player, msg.level or DEFAULT_HINT_LEVEL))
        elif isinstance(msg, (P.NextDealMsg, P.RematchMsg)):
            rematch = isinstance(msg, P.RematchMsg)
            async with self._lock:
                m = self.match
                if self.lobby:
                    await refuse("wrong-phase", "the match has not started yet")
                    return
                if rematch and m.phase != "match-over":
                    await refuse("wrong-phase", "a rematch starts once this match is over")
                    return
                if not rematch and m.phase != "between-deals":
                    why = ("the match is over; start a new match" if m.phase == "match-over"
                           else "the deal is still being played; finish it first")
                    await refuse("wrong-phase", why)
                    return
                if msg.force and host_only:
                    await refuse("host-only", f"only {self.names[self.host]} (the host) can start "
                                 "before everyone is ready")
                    return
                if len(self.log) >= MAX_TABLE_ACTIONS:
                    await refuse("table-full", f"this table has kept {len(self.log):,} actions, "
                                 f"the most one table keeps ({MAX_TABLE_ACTIONS:,}); start a new "
                                 "table to play on")
                    return
                if not self.friends or msg.force:
                    await self._next(rematch=rematch)
                else:
                    self.ready.add(player)
                    if set(self.present()) <= self.ready:
                        await self._next(rematch=rematch)
                    else:
                        await self._send_states()
            self.computers.kick()
        elif isinstance(msg, P.StartMsg):
            async with self._lock:
                if not self.lobby:
                    await refuse("wrong-phase", "the match has already started")
                    return
                if player != self.host:
                    await refuse("host-only", f"only {self.names[self.host]} (the host) starts the match")
                    return
                await self._start()
            self.computers.kick()
        elif isinstance(msg, P.UnseatMsg):
            async with self._lock:
                p = msg.player
                if player != self.host:
                    await refuse("host-only", f"only {self.names[self.host]} (the host) frees a seat")
                    return
                if not (self.open and self.lobby) or p not in self.claimed:
                    await refuse("bad-seat", "only a seat someone took at an open table, before the "
                                 f"match starts, can be freed; taken seats: "
                                 f"{', '.join(str(q) for q in sorted(self.claimed)) or 'none'}")
                    return
                gone = list(self.humans[p].connections)
                self.humans[p] = type(self.humans[p])(secrets.token_urlsafe(24))
                self.claimed.discard(p)
                self.seen.discard(p)
                self._rename(p, open_seat_name(p))
                await self._save_setup()
                await self._send_states()
            for conn in gone:       # their page: told, then closed (its old token opens nothing)
                try:
                    await conn.send(P.error_message("unseated", "the host freed your seat before "
                                                    "the match started; find another table"))
                    await conn.close(4001, "unseated")
                except Exception:
                    pass
        elif isinstance(msg, P.SeatMsg):
            async with self._lock:
                p = msg.player
                if player != self.host:
                    await refuse("host-only", f"only {self.names[self.host]} (the host) hands seats over")
                    return
                if p == self.host or p not in self.humans:
                    friends = [str(q) for q in self.humans if q != self.host]
                    await refuse("bad-seat", f"player {p} is not a friend's seat; friends' seats are "
                                 f"{', '.join(friends) or 'none'}")
                    return
                if msg.computer and p not in self.standins:
                    self.standins.add(p)
                    await self._announce(p, "standin")
                elif not msg.computer and p in self.standins:
                    self.standins.discard(p)
                    await self._announce(p, "back")
                await self._advance_if_ready()
                self.computers.arm_timer()
                await self._send_states()
            self.computers.kick()
        elif isinstance(msg, (P.PauseMsg, P.ResumeMsg)):
            pause = isinstance(msg, P.PauseMsg)
            if host_only:
                await refuse("host-only", f"only {self.names[self.host]} (the host) can "
                             f"{'pause' if pause else 'resume'} a table with friends")
                return
            self.paused = pause
            self.paused_by = self.names[player] if pause else None
            async with self._lock:
                self.computers.arm_timer()
                await self._send_states()
            if not pause:
                self.computers.kick()
        elif isinstance(msg, P.SpeedMsg):
            changed = msg.speed != self.speed
            self.speed = msg.speed
            if changed:
                async with self._lock:
                    await self._send_states()
                self.computers.kick()
        else:
            await conn.send(P.error_message("bad-message", "you have already joined this table"))

    def close(self) -> None:
        """Stop the computer players and the timers for good."""
        self.closed = True
        self._grown = None
        self.computers.stop()
        if self.fill_timer is not None:
            self.fill_timer.cancel()


WRITERS = 4
"""Writer threads of a :class:`GroupCommit`: while one waits on a slow write, the others keep
the other tables' actions."""


class _Item:
    """One write asked of a :class:`GroupCommit`: a table's actions, or a job."""

    __slots__ = ("key", "job", "table", "start", "entries", "loop", "done")

    def __init__(self, key: str | None, job: Callable[[], Any] | None, table: Any, start: int,
                 entries: list[Any], loop: asyncio.AbstractEventLoop | None,
                 done: asyncio.Future[Any] | None) -> None:
        self.key, self.job, self.table, self.start, self.entries = key, job, table, start, entries
        self.loop, self.done = loop, done


class GroupCommit:
    """Accepted actions kept on disk with one write per moment for the tables ready then, and
    one slow write holding up only its own table.

    ``await keep(table, start, entries)`` returns once the entries are committed. Each table's
    writes are done one at a time in the order asked; different tables' are independent.
    :data:`WRITERS` threads share the work: a free one takes every write then waiting whose
    table has no write under way and writes them in one transaction (a group commit: one
    hand-off and one commit for a burst of tables). So a write that is slow (a lock on its
    table's row, a slow disk) holds only the tables of its own transaction, for that write:
    the other threads go on with the rest, and the table's next writes wait for it.

    The table store's other writes (a new table, a join, a table forgotten) go through the
    same threads (:meth:`run`, :meth:`later`), in order among that table's actions when given
    its ``key`` (the table id); a job without a key is a barrier: it runs alone, after every
    write asked before it and before every write asked after it.

    Args:
        write: ``write(batches)`` with ``batches`` a list of ``(table, start, entries)``,
            at most one write under way per table; runs in a writer thread.
        writers: the number of writer threads.
    """

    def __init__(self, write: Callable[[list[tuple[TableState, int, list[Any]]]], None], *,
                 writers: int = WRITERS) -> None:
        self._write = write
        self._writers = max(1, writers)
        self._cond = threading.Condition()
        self._items: list[_Item] = []
        self._busy: set[str] = set()        # tables with a write under way
        self._under_way = 0                 # writes under way (a barrier waits for none)
        self._barrier = False               # a barrier job is running
        self._closing = False
        self._threads: list[threading.Thread] = []

    def _put(self, item: _Item) -> None:
        with self._cond:
            if not self._threads:           # started by the first write
                self._threads = [threading.Thread(target=self._run, name="president-store",
                                                  daemon=True) for _ in range(self._writers)]
                for thread in self._threads:
                    thread.start()
            self._items.append(item)
            self._cond.notify()

    async def keep(self, table: TableState, start: int, entries: list[Any]) -> None:
        """Return once ``entries`` (log entries ``start``, ``start + 1``, ...) are on disk.

        Raises:
            Exception: whatever the write raised (the caller's action is then not sent).
        """
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._put(_Item(table.id, None, table, start, entries, loop, done))
        await done

    async def run(self, job: Callable[[], Any], key: str | None = None) -> Any:
        """``job()`` run in a writer thread after the writes asked before it for table
        ``key`` (``None``: every write asked before it); returns its result once done.

        Raises:
            Exception: whatever ``job`` raised.
        """
        loop = asyncio.get_running_loop()
        done: asyncio.Future[Any] = loop.create_future()
        self._put(_Item(key, job, None, 0, [], loop, done))
        return await done

    def flush(self, timeout: float = 30.0) -> None:
        """Block until every write asked for so far is done (at most ``timeout`` seconds).
        For rare paths that must see the store as the queued writes leave it."""
        if not self._threads:
            return
        done = threading.Event()
        self._put(_Item(None, done.set, None, 0, [], None, None))
        done.wait(timeout)

    def later(self, job: Callable[[], Any], key: str | None = None) -> None:
        """``job()`` run in a writer thread (in order as :meth:`run`), without waiting for
        it (an error is logged)."""
        self._put(_Item(key, job, None, 0, [], None, None))

    def _take(self) -> list[_Item]:
        """The next writes to do (the caller holds the condition): a job alone, or every
        table's actions that may go now; ``[]`` if none may."""
        if self._barrier:
            return []
        taken: list[_Item] = []
        blocked = set(self._busy)
        for i, item in enumerate(self._items):
            if item.key is None:            # a barrier: nothing after it goes before it
                if i == 0 and not self._under_way:
                    taken, self._barrier = [item], True
                break
            if item.key in blocked:
                continue
            if item.job is not None:
                if not taken:
                    taken = [item]
                    break
                blocked.add(item.key)       # that table's later actions wait for the job
                continue
            taken.append(item)
        if taken:
            chosen = {id(t) for t in taken}
            self._items = [t for t in self._items if id(t) not in chosen]
            self._busy.update(t.key for t in taken if t.key is not None)
            self._under_way += 1
        return taken

    def _run(self) -> None:
        while True:
            with self._cond:
                while True:
                    taken = self._take()
                    if taken:
                        break
                    if self._closing and not self._items and not self._under_way:
                        self._cond.notify_all()
                        return
                    self._cond.wait()
            try:
                if taken[0].job is not None:
                    self._run_job(taken[0])
                else:
                    self._write_batch(taken)
            finally:
                with self._cond:
                    self._under_way -= 1
                    if taken[0].key is None:
                        self._barrier = False
                    self._busy.difference_update(t.key for t in taken)
                    # This thread takes what its write held back itself (it asks again at
                    # once); the others sleep on: waking every writer after each write cost
                    # more than the write. At the end they are all woken to stop.
                    if self._closing:
                        self._cond.notify_all()

    def _write_batch(self, batch: list[_Item]) -> None:
        try:
            self._write([(b.table, b.start, b.entries) for b in batch])
            error: BaseException | None = None
        except Exception as e:      # reaches every caller of this write
            error = e
        by_loop: dict[asyncio.AbstractEventLoop, list[asyncio.Future[None]]] = {}
        for b in batch:
            if b.loop is not None and b.done is not None:
                by_loop.setdefault(b.loop, []).append(b.done)
        for loop, futures in by_loop.items():
            _call_soon(loop, _settle, futures, error)

    @staticmethod
    def _run_job(item: _Item) -> None:
        assert item.job is not None
        try:
            result, error = item.job(), None
        except Exception as e:
            result, error = None, e
            if item.done is None:
                log.error("a write of the table store failed: %r", e)
        if item.done is not None and item.loop is not None:
            _call_soon(item.loop, _settle_one, item.done, result, error)

    def close(self) -> None:
        """Stop the writer threads after the writes already asked for."""
        with self._cond:
            self._closing = True
            self._cond.notify_all()
        for thread in self._threads:
            thread.join(timeout=30)


def _call_soon(loop: asyncio.AbstractEventLoop, *call: Any) -> None:
    try:
        loop.call_soon_threadsafe(*call)
    except RuntimeError:    # that loop is closed: nobody is waiting any more
        pass


def _settle_one(done: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if not done.done():
        if error is None:
            done.set_result(result)
        else:
            done.set_exception(error)


def _settle(futures: list[asyncio.Future[None]], error: BaseException | None) -> None:
    for done in futures:
        if not done.done():
            if error is None:
                done.set_result(None)
            else:
                done.set_exception(error)


ELSEWHERE_MESSAGE = ("another server process holds this table just now; this page tries "
                     "again in a moment (it reaches the table where it is held, or here once "
                     "that process is gone)")
"""The hello refused with ``elsewhere`` (several processes on one store: docs/web.md)."""


class Tables:
    """Every table of one server process, by id; with a store, every table on disk too.

    With a :class:`~president.web.store.TableStore`, each table is written there when made
    and each accepted action before its result is sent, so a crash (``kill -9``) loses none;
    after a restart a table comes back from the store the first time its id is asked for
    (:meth:`get`), exactly as it was. Tables idle for ``memory_seconds`` without a socket leave
    memory (they stay on disk); tables idle for ``idle_seconds``, and tables nobody joined
    within ``unjoined_seconds``, are forgotten. Making room never walks every table: memory
    is kept in order of last use, and the store finds stale tables by an index.

    Args:
        sealer: seals match records (``None``: no snapshots, no restore).
        bot_delay: seconds between computer actions.
        allow_seed: accept a client-chosen match seed (tests only: a seed reveals the deal).
        max_tables: the most tables kept (memory and store).
        idle_seconds: a table with no action or socket for this long is forgotten.
        unjoined_seconds: a table nobody joined is forgotten after this long.
        memory_seconds: a table with no socket for this long leaves memory (store only).
        per_address: the most tables one client address may make per minute.
        tables_per_minute: the most new tables all clients together may make a minute (a
            token bucket with a burst of :data:`~president.web.limits.TABLE_BURST`; 0: no
            limit).
        ledger: remembers the newest record version issued or action accepted per table, so
            an older sealed record is refused (``None``: no such check).
        store: keeps every table on disk (``None``: memory only; a restart loses them).
        thinker: the worker processes of slow computer players (``None``: threads).
        recover_records: rebuild a table from any saved match a page sends that the
            ledger does not refuse as old, also one whose history the ledger cannot vouch for
            (the operator's way back after losing the store and the ledger; docs/web.md,
            "Backups and recovery": a page holding an older copy than the lost state could
            rewind its match). Default ``False``: such a record is refused
            (``unknown-history``).
        owners: where several processes share the store (``president serve
            --shared-store``), which tables this one owns
            (:class:`~president.web.store_pg.PgOwners`): a table is kept in memory only while
            owned, and given back when it leaves memory (after its pending writes); a hello
            for a table another process owns gets :class:`TableError` ``elsewhere``.
            ``None`` (default): this process is the store's only server.
    """

    SWEEP_SECONDS = 5.0
    """Tables are swept (memory and store) at most this often, on the way of a new one."""

    FRESH_TABLES = 256
    """New tables nobody has joined yet kept in memory besides the store (the newest ones):
    the page that made one joins it at once, and finds it without the store's read and the
    rebuild of a table made a moment ago (about a millisecond of CPU each, in the server's
    one process: a practice round makes a new table every few actions). Older unjoined tables
    are on disk only, so a flood of tables nobody joins costs no more memory than these."""

    def __init__(self, *, sealer: Sealer | None, bot_delay: float = 0.8, allow_seed: bool = False,
                 max_tables: int = 20_000, idle_seconds: float = 6 * 3600,
                 unjoined_seconds: float = 600, memory_seconds: float = 120,
                 per_address: int = 30, ledger: LedgerLike | None = None,
                 store: TableStoreLike | None = None, thinker: Thinker | None = None,
                 recover_records: bool = False,
                 tables_per_minute: float = TABLES_PER_MINUTE,
                 owners: TableOwners | None = None) -> None:
        self.sealer = sealer
        self.owners = owners
        self.ledger_in_store = ledger is not None and getattr(store, "ledger", None) is ledger
        """The store notes this ledger's versions with the actions, in one statement (a
        PostgreSQL store and its ledger: :attr:`~president.web.store_pg.PgTableStore.ledger`)."""
        self._total = Rate(tables_per_minute / 60.0, TABLE_BURST)
        """New tables of the whole server (:data:`~president.web.limits.TABLES_PER_MINUTE`)."""
        self.recover_records = recover_records
        self.ledger = ledger
        self.store = store
        self.thinker = thinker
        self.bot_delay = bot_delay
        self.allow_seed = allow_seed
        self.max_tables = max_tables
        self.idle_seconds = idle_seconds
        self.unjoined_seconds = unjoined_seconds
        self.memory_seconds = memory_seconds
        self.per_address = per_address
        self.tables: OrderedDict[str, Table] = OrderedDict()
        """Tables in memory, least recently used first."""
        self._count = len(store) if store is not None else 0
        self._made: dict[str, deque[float]] = {}
        self._swept = 0.0
        self._commit = GroupCommit(self._accepted)
        self._rebuilding: dict[str, asyncio.Future[Table | TableError | None]] = {}
        self._removing: set[str] = set()
        """Tables dropped whose removal from the store is still to be written."""
        self._fresh: OrderedDict[str, Table] = OrderedDict()
        """The newest tables nobody joined yet (:attr:`FRESH_TABLES`), oldest first."""

    def __len__(self) -> int:
        """Tables kept (in the store, or in memory without one)."""
        return self._count if self.store is not None else len(self.tables)

    @property
    def in_memory(self) -> int:
        """Tables held in memory: in use, and the newest ones nobody joined yet."""
        return len(self.tables) + len(self._fresh)

    def _elsewhere(self) -> TableError:
        return TableError("elsewhere", ELSEWHERE_MESSAGE)

    def _disown(self, table_id: str) -> None:
        """The table left memory: its owner's lock is given back after its pending writes
        (unless it came back meanwhile)."""
        owners = self.owners
        if owners is None or table_id in self.tables or table_id in self._fresh:
            return
        owners.let_go(table_id)
        self._commit.later(lambda: owners.settle(table_id), key=table_id)

    def get(self, table_id: str) -> Table | None:
        """The table with this id (from memory, else rebuilt from the store), or ``None``.

        Raises:
            TableError: ``elsewhere``: another process owns it (``owners``)."""
        table = self.tables.get(table_id)
        if table is not None:
            self.tables.move_to_end(table_id)
            return table
        if self.store is None:
            return None
        fresh = self._take_fresh(table_id)
        if fresh is not None:
            return fresh
        return self._settle_rebuilt(table_id, self._rebuild(table_id))

    async def get_async(self, table_id: str, token: str) -> Table | None:
        """:meth:`get` for a page's hello: ``None`` unless ``token`` is a seat token of the
        table. A table on disk only is rebuilt (its log replayed through the engine, which
        takes a while for a long one) in a worker thread, so other tables go on meanwhile,
        and only for a token of its own: a hello with a wrong token costs one row read.
        Hellos for the same table while it is rebuilt share the one rebuild."""
        table = self.tables.get(table_id)
        if table is not None:
            self.tables.move_to_end(table_id)
            return table if table.player_for(token) is not None else None
        if self.store is None or table_id in self._removing:
            return None
        fresh = self._fresh.get(table_id)
        if fresh is not None and fresh.player_for(token) is not None:
            return self._take_fresh(table_id)
        pending = self._rebuilding.get(table_id)
        if pending is None:
            if not self.seat_stored(table_id, token):
                return None
            pending = asyncio.ensure_future(asyncio.to_thread(self._rebuild, table_id))
            self._rebuilding[table_id] = pending
            try:
                built = await asyncio.shield(pending)
            finally:
                self._rebuilding.pop(table_id, None)
            table = self._settle_rebuilt(table_id, built)
        else:   # settled by whichever waiter resumes first (the first may have been cancelled)
            table = self._settle_rebuilt(table_id, await asyncio.shield(pending))
        return table if table is not None and table.player_for(token) is not None else None

    def seat_stored(self, table_id: str, token: str) -> bool:
        """Whether the store has ``table_id`` with a seat whose token is ``token`` (one row
        read; constant-time compare)."""
        if self.store is None:
            return False
        setup = self.store.setup(table_id)
        tokens = setup.get("tokens") if isinstance(setup, dict) else None
        return isinstance(tokens, dict) and any(
            hmac.compare_digest(str(t).encode(), token.encode()) for t in tokens.values())

    async def hand_over(self, table_id: str) -> bool:
        """Give up a table this process owns, for another process whose pages reach it (a
        proxy hashing on the table id sends them there): only when no page is at it here and
        it is not being rebuilt. It leaves memory, and its lock is given back once its pending
        writes are kept; ``True`` then (the other process rebuilds it from the store).
        Several processes sharing a store only (``owners``)."""
        owners = self.owners
        if owners is None or table_id in self._rebuilding:
            return False
        table = self.tables.get(table_id) or self._fresh.get(table_id)
        if table is None or table.connected or table_id in self._removing:
            return False
        table.close()
        self.tables.pop(table_id, None)
        self._fresh.pop(table_id, None)
        owners.let_go(table_id)
        try:        # (the lock is given back after the table's pending writes, in their turn)
            await asyncio.wait_for(asyncio.shield(self._commit.run(
                lambda: owners.settle(table_id), key=table_id)), 10)
        except asyncio.TimeoutError:
            return False
        return True

    def _take_fresh(self, table_id: str) -> Table | None:
        """A new table kept since it was made (:attr:`FRESH_TABLES`), now put in memory as
        any table in use; ``None`` if there is none, or if the store has forgotten it
        meanwhile (nobody joined it in time)."""
        table = self._fresh.pop(table_id, None)
        if table is None:
            return None
        assert self.store is not None
        if table_id in self._removing or table_id not in self.store:
            table.close()
            self._disown(table_id)
            return None
        self.tables[table_id] = table
        return table

    def _rebuild(self, table_id: str) -> Table | TableError | None:
        """The table rebuilt from the store (``None``: not there; the error: it does not
        replay). Touches nothing but the store's read: safe in a worker thread."""
        assert self.store is not None
        if self.owners is not None and not self.owners.take(table_id):
            return self._elsewhere()
        record = self.store.load(table_id)
        if record is None:
            return None
        try:
            return Table.from_record(record, bot_delay=self.bot_delay, sealer=self.sealer,
                                     thinker=self.thinker)
        except TableError as e:
            return e

    def _settle_rebuilt(self, table_id: str, built: Table | TableError | None) -> Table | None:
        """Put a rebuilt table in memory (in the event loop's thread). A table that came into
        memory meanwhile wins.

        Raises:
            StoreError: the stored table does not replay (its saved state is damaged). It
                stays in the store as it is, for its operator to look at or restore: it was
                forgotten once, which lost a table for good over what may be a damaged page
                of the file.
        """
        live = self.tables.get(table_id)
        if live is not None:
            return live
        if isinstance(built, TableError) and built.reason == "elsewhere":
            raise built
        if built is None:
            self._disown(table_id)
            return None
        if self.store is not None and (table_id in self._removing or table_id not in self.store):
            self._disown(table_id)
            return None     # forgotten while it was rebuilt
        if isinstance(built, TableError):
            self._disown(table_id)
            log.error("table %s cannot be rebuilt from the store (%s); it stays there as it is",
                      table_id, built.message)
            raise StoreError(f"table {table_id} cannot be rebuilt from the store: {built.message}")
        self._watch(built)
        self.tables[built.id] = built
        return built

    def _touch(self, table: TableState) -> None:
        if table.id in self.tables:
            self.tables.move_to_end(table.id)

    def _accepted(self, batches: list[tuple[TableState, int, list[Any]]]) -> None:
        """Actions the engine accepted, ``(table, start, entries)`` per table (log entries
        ``start``, ``start + 1``, ...): on disk before anyone hears of them (runs in the
        :class:`GroupCommit` worker thread)."""
        versions = ([(t.id, start + len(entries)) for t, start, entries in batches
                     if t.kind == "match"] if self.ledger is not None else [])
        if self.store is not None:
            # Each entry was encoded once when accepted (Table._log_json).
            rows = [(t.id, start, t._log_json[start:start + len(entries)])
                    for t, start, entries in batches]
            if versions and self.ledger_in_store:   # one statement for both (PostgreSQL)
                cast(Any, self.store).append_batches(rows, issued=versions)
                return
            self.store.append_batches(rows)
        if versions and self.ledger is not None:
            self.ledger.issued_many(versions)

    def _joined(self, table: TableState) -> None:
        self._touch(table)
        if self.store is not None:
            store, tid = self.store, table.id
            self._commit.later(lambda: store.joined(tid), key=tid)

    def _sweep(self, *, force: bool = False) -> None:
        """Let idle tables leave memory, and forget stale ones; O(tables swept)."""
        now = time.monotonic()
        if not force and now - self._swept < self.SWEEP_SECONDS:
            return
        self._swept = now
        # Memory, least recently used first: stop at the first table that is still fresh.
        for tid in list(self.tables):
            t = self.tables[tid]
            if t.connected:
                self.tables.move_to_end(tid)    # in use: to the back of the line
                continue
            if self.store is not None:
                limit = self.memory_seconds     # it leaves memory, and stays on disk
            else:
                limit = 120 if t.kind == "practice" else self.idle_seconds
            if now - t.last_active < limit:
                break
            if self.store is None:
                self.drop(tid)
            else:
                t.close()
                del self.tables[tid]
                self._disown(tid)
        if self.store is not None:
            wall = time.time()
            taken: list[str] = []
            def in_use(tid: str) -> bool:
                if tid in self._rebuilding:     # a page is waiting for it right now
                    return True
                live = self.tables.get(tid)
                if live is not None:
                    return live.connected > 0
                if self.owners is not None and tid not in self._fresh:
                    if not self.owners.take(tid):
                        return True             # another process owns it: it forgets it
                    taken.append(tid)
                return False
            try:
                for tid in self.store.expire(before=wall - self.idle_seconds,
                                             unjoined_before=wall - self.unjoined_seconds,
                                             keep=in_use, now=wall):
                    if tid not in self._removing:   # a drop has counted that one already
                        self._count -= 1
                    gone = self.tables.pop(tid, None) or self._fresh.pop(tid, None)
                    if gone is not None:
                        gone.close()
                        self._disown(tid)
            finally:
                for tid in taken:
                    self._disown(tid)

    def busy(self, client: str | None) -> str | None:
        """Why ``client`` may not make a table now (it made :attr:`per_address` in the last
        minute, or the whole server is at its ``tables_per_minute``), or ``None``. Only
        looks: :meth:`create` counts the tables made."""
        if not self._total.ready():
            return (f"the server makes at most {self._total.per_second * 60:g} new tables a "
                    "minute, and is at that rate now; try again in a minute")
        if client is None or not self.per_address:
            return None
        made = self._made.get(client)
        if made is None:
            return None
        now = time.monotonic()
        recent = len(made) - sum(1 for t in made if now - t > 60)
        if recent >= self.per_address:
            return (f"{self.per_address} new tables a minute is the most one address may "
                    "make; wait a minute and try again")
        return None

    def _admit(self, client: str | None, *, new: bool = True) -> None:
        """Refuse a new table (``new``; a table rebuilt from a saved match is not) past the
        per-address rate, the whole server's rate, or the most tables held."""
        now = time.monotonic()
        if new and not self._total.ready():
            raise TableError("busy", self.busy(None) or "too many new tables")
        if client is not None and self.per_address:
            made = self._made.setdefault(client, deque())
            while made and now - made[0] > 60:
                made.popleft()
            if len(made) >= self.per_address:
                raise TableError("busy", self.busy(client) or "too many new tables")
            made.append(now)
            if len(self._made) > 10_000:        # forget quiet addresses (bounded memory)
                for addr in [a for a, q in self._made.items() if not q or now - q[-1] > 60]:
                    del self._made[addr]
        self._sweep(force=len(self) >= self.max_tables)
        if len(self) >= self.max_tables:
            raise TableError("full", f"this server already holds {self.max_tables} tables; "
                             "try again later")
        if new:
            self._total.take(now)

    def create(self, **options: Any) -> Table:
        """Make a table (the options of :meth:`make`) and keep it in the store at once."""
        table = self.make(**options)
        if self.store is not None:
            self.store.add(table.id, table.setup())
            if table.open:
                self.store.list_table(table.id, table.listing())
        return table

    async def create_async(self, **options: Any) -> Table:
        """:meth:`create` for the server: the store's write runs in its writer thread (the
        event loop waits for none), and this returns once it is committed."""
        table = self.make(**options)
        if self.store is not None:
            store, tid, setup, listing = self.store, table.id, table.setup(), table.listing()

            def keep() -> None:
                store.add(tid, setup)
                if listing is not None:
                    store.list_table(tid, listing)
            try:
                await self._commit.run(keep, key=tid)
            except Exception:           # not kept (a disk error; a request that went away
                # is kept all the same: the write goes on without it)
                self._fresh.pop(tid, None)
                self._count -= 1
                table.close()
                raise
        return table

    def make(self, *, kind: str, preset: str = "practice", twists: Sequence[str] = (),
             players: int | None = None, names: Sequence[str] | None = None,
             levels: Sequence[str] | None = None, seed: int | None = None,
             client: str | None = None, standin: str = DEFAULT_STANDIN,
             grace_seconds: float = DEFAULT_GRACE_SECONDS,
             turn_seconds: float | None = None, open_seats: bool = False,
             fill_seconds: float = DEFAULT_FILL_SECONDS) -> Table:
        """Make a table (:meth:`create` and :meth:`create_async` then keep it in the store).
        ``kind="practice"`` ignores the other options (one standalone deal).

        With ``open_seats`` (a match with at least one human seat besides the first), the
        table is open: listed for anyone on this server, its other human seats named "Seat N"
        until someone takes them (:meth:`Table.claim`), and its match starts by itself
        ``fill_seconds`` (10 to 600) after it was made, computers playing the seats nobody
        took (docs/web.md, "Open tables").

        Args:
            client: the address asking (for the per-address limit), if known.
            standin, grace_seconds, turn_seconds: a table for friends' stand-in level, grace
                period and turn timer (:class:`Table`).

        Raises:
            TableError: ``bad-rules`` / ``bad-table`` with what was wrong and what is allowed,
                ``busy`` past :attr:`per_address` tables a minute from ``client``, ``full``
                when the server holds ``max_tables``.
        """
        if seed is not None and not self.allow_seed:
            raise TableError("bad-table", "this server does not accept a chosen seed "
                             "(start it with PRESIDENT_WEB_ALLOW_SEED=1 for tests)")
        if kind == "practice":
            rules = Rules.preset("practice")
            names = list(PRACTICE_NAMES)
            levels = [HUMAN, "simple", "simple", "simple"]
        elif kind == "match":
            if preset == "practice":
                raise TableError("bad-rules", "practice is the one-deal practice round, not a match "
                                 f"preset: send kind \"practice\", or a match preset: {', '.join(MATCH_PRESETS)}")
            if preset not in PRESETS:
                raise TableError("bad-rules", f"no preset {P.excerpt(preset)}; presets are {', '.join(MATCH_PRESETS)}")
            try:
                rules = Rules.preset(preset, players=players, twists=list(twists))
            except RulesError as e:
                raise TableError("bad-rules", e.message) from None
            n = rules.players
            names = list(names) if names is not None else [""] * n
            levels = list(levels) if levels is not None else [HUMAN] + ["simple"] * (n - 1)
            if len(names) != n or len(levels) != n:
                raise TableError("bad-table", f"give {n} names and {n} levels for {n} players, "
                                 f"not {len(names)} and {len(levels)}")
            try:
                names = check_names([str(x) for x in names], defaults=DEFAULT_NAMES,
                                    friends=HUMAN in levels[1:])
            except BadName as e:
                raise TableError("bad-table", e.message) from None
            if levels[0] != HUMAN:
                raise TableError("bad-table", 'the first seat is yours: its level must be "human"')
            known = set(known_levels()) | {HUMAN}
            for lv in levels:
                if lv not in known:
                    raise TableError("bad-table", f"no computer level {P.excerpt(lv)}; choose from "
                                     f"{', '.join(sorted(known))}")
            if standin not in known_levels():
                raise TableError("bad-table", f"no computer level {P.excerpt(standin)} for the stand-in; "
                                 f"choose from {', '.join(known_levels())}")
        else:
            raise TableError("bad-table", f"no table kind {P.excerpt(kind)}; kinds are practice, match")
        fill_by = None
        if open_seats:
            if kind != "match" or HUMAN not in levels[1:]:
                raise TableError("bad-table", 'an open table is a match with at least one more '
                                 '"human" seat than yours, for whoever joins')
            if not MIN_FILL_SECONDS <= fill_seconds <= MAX_FILL_SECONDS:
                raise TableError("bad-table", f"fill_seconds {fill_seconds:g} is out of range; "
                                 f"give {MIN_FILL_SECONDS} to {MAX_FILL_SECONDS} seconds")
            names = [name if p == 0 or levels[p] != HUMAN else open_seat_name(p)
                     for p, name in enumerate(names)]
            fill_by = time.time() + fill_seconds
        self._admit(client)
        tid = secrets.token_urlsafe(16)
        if self.owners is not None and not self.owners.take(tid):
            raise self._elsewhere()     # (a new random id: another process never has it)
        # A chosen seed (tests only) keeps 32-bit deal seeds so a test can pick its deal;
        # otherwise 128 random bits, so no one can search the seeds for the deal.
        bits = 128 if seed is None else 32
        if seed is None:
            seed = secrets.randbits(128)
        table = Table(tid, kind, rules, names, levels, seed, bot_delay=self.bot_delay,
                      sealer=self.sealer, deal_seed_bits=bits, thinker=self.thinker,
                      standin=standin, grace_seconds=grace_seconds, turn_seconds=turn_seconds,
                      open_seats=open_seats, fill_by=fill_by)
        self._watch(table)
        self._count += 1
        if self.store is None:
            self.tables[tid] = table
        else:
            # With a store, a table nobody joins is on disk only: the newest few wait in
            # memory too, for the page that made it.
            self._fresh[tid] = table
            while len(self._fresh) > self.FRESH_TABLES:
                old = self._fresh.popitem(last=False)[1]
                old.close()
                self._disown(old.id)
        return table

    def _watch(self, table: Table) -> None:
        table.on_actions = self._commit.keep
        table.on_join = self._joined
        table.on_lost = self._lost
        table.on_setup = self._setup_changed
        if table.open and table.lobby and table.fill_by is not None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:        # (a table rebuilt in a worker thread: armed at settle)
                return
            self._arm_fill(table, loop)

    def _arm_fill(self, table: Table, loop: asyncio.AbstractEventLoop) -> None:
        """Start an open table's match when its wait is over (:meth:`Table.fill`)."""
        assert table.fill_by is not None
        delay = max(0.0, table.fill_by - time.time())

        def due() -> None:
            if not table.closed:
                table._spawn(table.fill())
        table.fill_timer = loop.call_later(delay, due)

    async def _setup_changed(self, table: TableState) -> None:
        """Keep a table's new setup and its place on the list of open tables, in its turn
        among the table's writes, before anyone hears of the change."""
        store = self.store
        if store is None:
            return
        assert isinstance(table, Table)
        setup, listing, log = table.setup(), table.listing(), list(table.log)

        def write() -> None:
            store.add(table.id, setup, entries=log)
            store.list_table(table.id, listing)
        await self._commit.run(write, key=table.id)

    def open_listing(self, limit: int = 50) -> list[dict[str, Any]]:
        """The open tables with a free seat whose wait is not over, the newest first (from
        the store, so every process sharing it lists the same; without one, from memory)."""
        now = time.time()
        found: list[dict[str, Any] | None]
        if self.store is not None:
            found = [listing for _, listing in self.store.listed(limit)]
        else:
            found = [t.listing() for t in self.tables.values()]
        return [x for x in found if x is not None and isinstance(x.get("fill_by"), (int, float))
                and x["fill_by"] > now and int(x.get("free", 0)) > 0][:limit]

    async def open_table_async(self, table_id: str) -> Table | None:
        """An open table with a free seat, for a ``join`` (rebuilt from the store if need
        be), or ``None``.

        Raises:
            TableError: ``elsewhere``: another process owns it."""
        table = self.tables.get(table_id) or self._fresh.get(table_id)
        if table is None and self.store is not None:
            setup = await asyncio.to_thread(self.store.setup, table_id)
            tokens = setup.get("tokens") if isinstance(setup, dict) else None
            if not (isinstance(setup, dict) and setup.get("open") is True
                    and isinstance(tokens, dict) and tokens):
                return None
            table = await self.get_async(table_id, str(next(iter(tokens.values()))))
        elif table is not None and table_id in self._fresh:
            table = self._take_fresh(table_id)
        return table if table is not None and table.open else None

    def _lost(self, table: TableState) -> None:
        """A table whose accepted actions could not be kept (a disk error): it is ahead of
        the store, so it leaves memory, closed; its pages are told to reload, and the next
        hello rebuilds it from the store as it was at its last kept action."""
        if self.store is None:      # memory is its only copy: it stays
            return
        assert isinstance(table, Table)
        table.close()
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
            self._disown(table.id)

    def restore(self, sealed: str, table_id: str | None = None, *,
                rebuild_stored: bool = True) -> Table:
        """The table a sealed record describes: the live one if the server still has it, else
        rebuilt from the record.

        Args:
            sealed: the sealed record (a page's ``snapshot``).
            table_id: the table the record must be of (the hello's); another table's record
                is refused before anything is rebuilt.
            rebuild_stored: rebuild a table that is in the store but not in memory (a
                hello's restore passes ``False``: :meth:`get_async` has already rebuilt it
                for a right token, so one here came with a wrong token and gets
                ``unknown-table``, without the rebuild's cost).

        Raises:
            TableError: ``unknown-history`` for a record the ledger cannot vouch for
                (:meth:`~president.web.ledger.Ledger.vouches`: sealed before a lost store and
                ledger were replaced), unless :attr:`recover_records`;
                ``bad-record`` for a damaged, foreign or too old record (sealed more
                than :data:`~president.web.ledger.KEEP_SECONDS` ago) or one of another table
                than ``table_id``; ``old-record`` for a
                record older than the newest one this server issued for that table (the
                ledger survives restarts: an old record must not rewind a match).
        """
        if self.sealer is None:
            raise TableError("bad-record", "this server keeps no saved matches")
        try:
            record, sealed_at = self.sealer.open_dated(
                sealed, max_age=KEEP_SECONDS if self.ledger else None)
        except SealError as e:
            raise TableError("bad-record", str(e)) from None
        tid = record.get("id") if isinstance(record, dict) else None
        if isinstance(tid, str) and tid in self._removing:
            self._commit.flush()        # a drop's removal first: then the store is as it says
        if table_id is not None and tid != table_id:
            raise TableError("bad-record", f"this saved match is of another table than "
                             f"{P.excerpt(table_id)}; send the record the page kept for that table")
        if isinstance(tid, str) and not rebuild_stored and tid not in self.tables \
                and self.store is not None and tid in self.store:
            raise TableError("unknown-table", "this server has no such table or seat (it may "
                             "have ended or the server restarted); start a new game")
        live = self.get(tid) if isinstance(tid, str) else None
        if live is not None:       # a live or stored table is never rebuilt from a record
            return live
        actions = record.get("log") if isinstance(record, dict) else None
        if not isinstance(tid, str) or not isinstance(actions, list):
            raise TableError("bad-record", "the saved match cannot be restored (it has no table id "
                             "or actions)")
        if self.ledger is not None:
            try:
                self.ledger.check(tid, len(actions))
            except StaleRecord as e:
                raise TableError("old-record", str(e)) from None
            vouched = self.ledger.vouches(tid, len(actions), sealed_at)
            if not vouched and not self.recover_records:
                log.warning("a saved match of table %s (%d actions) was refused: this server "
                             "has no history of it (start with --recover-saved-matches to let "
                             "it back)", tid, len(actions))
                raise TableError("unknown-history", "this server has no history of this match "
                                 "(its saved tables were lost or replaced), so it cannot tell "
                                 "whether this saved copy is the newest; start a new match, or "
                                 "ask the server's operator to recover saved matches")
            if not vouched:
                log.warning("table %s rebuilt from a saved match of %d actions that this "
                             "server has no history of (--recover-saved-matches)", tid, len(actions))
        self._admit(None, new=False)
        if self.owners is not None and not self.owners.take(tid):
            raise self._elsewhere()
        try:
            table = Table.from_record(record, bot_delay=self.bot_delay, sealer=self.sealer,
                                      thinker=self.thinker)
            self._watch(table)
            if self.store is not None:      # setup and log in one transaction
                self.store.add(table.id, table.setup(), entries=table.log)
        except BaseException:
            self._disown(tid)
            raise
        if self.ledger is not None:
            self.ledger.issued(table.id, len(table.log))
        self._count += 1
        self.tables[table.id] = table
        return table

    def drop(self, table_id: str) -> None:
        """Forget a table (memory and store) and stop its computer players. The store forgets
        it in its writer thread, after the table's writes already asked for; until then a
        page asking for it is told there is no such table."""
        table = self.tables.pop(table_id, None) or self._fresh.pop(table_id, None)
        if table is not None:
            table.close()
        if self.store is not None and table_id not in self._removing and table_id in self.store:
            self._count -= 1
            store, removing = self.store, self._removing
            removing.add(table_id)

            def remove() -> None:
                try:
                    store.remove(table_id)
                finally:
                    removing.discard(table_id)
            self._commit.later(remove, key=table_id)
        self._disown(table_id)      # after the removal (one table's jobs run in order)

    def close_all(self) -> None:
        """Stop every table in memory (server shutdown); the store keeps them for the next
        start."""
        for table in (*self.tables.values(), *self._fresh.values()):
            table.close()
        self.tables.clear()
        self._fresh.clear()
        self._commit.close()
        if self.thinker is not None:
            self.thinker.close()
