"""The browser game's websocket (``WS /ws``): who may open one, the hello that joins a seat,
and the messages of a joined seat (the protocol is :mod:`president.web.protocol`,
docs/web.md).

:class:`Sockets` holds the counts behind the per-address and whole-server limits and serves
each socket in three steps, each a method a reader can follow on its own:

1. :meth:`Sockets.serve`: the refusals before the upgrade (origin, a stopping server, too
   many sockets from one address or for the whole server), then the socket's life;
2. :meth:`Sockets.hello`: messages until a ``hello`` names a table and a seat token that this
   process serves (or that another process owns: then the socket is relayed to it, see
   :mod:`president.web.cluster`, or refused with ``elsewhere`` where there is no relay);
3. :meth:`Sockets.play`: the joined seat's messages, each handled by its
   :class:`~president.web.tables.Table`, until the socket closes.

Steps 2 and 3 read and write through a :class:`Transport`: a browser's websocket here, or
the relay of a socket another process holds (:class:`~president.web.cluster.Cluster`), so a
relayed page is served by exactly the same code as a direct one.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any, Callable, Literal, Protocol

import orjson
from fastapi import WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from . import guard
from . import limits
from . import protocol as P
from .metrics import Metrics
from .tables import Table, TableError, Tables

__all__ = ["Sockets", "Transport", "WebSocketTransport", "HELLO_SECONDS", "MAX_BAD_HELLOS",
           "MAX_BEFORE_HELLO", "MAX_WAITING_PER_ADDRESS", "STORE_ERROR_MESSAGE",
           "STOPPING_MESSAGE", "encode"]

log = logging.getLogger("president.web")

HELLO_SECONDS = limits.HELLO_SECONDS
"""A socket that has not joined a table within this many seconds of opening (plus a random
share of :data:`~president.web.limits.HELLO_SPREAD_SECONDS`) is closed (code 1008), whatever
it sent meanwhile."""
MAX_WAITING_PER_ADDRESS = 100
"""Sockets one client address may hold open before they join a table; more are refused (429)."""
MAX_BAD_HELLOS = 5
"""Failed ``hello`` messages (unknown table or seat, or a saved match that cannot be restored)
after which the server closes the socket."""
MAX_BEFORE_HELLO = 5
"""Messages other than ``hello`` (or not valid at all) a socket may send before it joins a table;
at this many the server answers a last ``bad-message`` error and closes it (code 1008)."""

STORE_ERROR_MESSAGE = ("the server cannot read its saved tables just now (a problem with its "
                       "disk, which its operator has been told of); your seat is kept on this "
                       "device: try again later")
"""The ``store-error`` answer to a ``hello`` the store could not serve (docs/web.md)."""

STOPPING_MESSAGE = ("the server is restarting and takes no new tables or sockets just now; "
                    "try again in a few seconds")
"""The ``503 stopping`` refusal while the server stops (docs/web.md, "Operating the server")."""


def encode(message: dict[str, Any]) -> str:
    """A message as JSON text (orjson; the standard library's encoder for an integer past 64
    bits, which orjson refuses)."""
    try:
        return orjson.dumps(message).decode()
    except TypeError:
        return json.dumps(message, separators=(",", ":"))


class Transport(Protocol):
    """Where one page's messages come from and go to: its websocket, or a relay of it.

    ``receive`` returns the next message's text (or bytes), or ``None`` once the page has gone
    (then ``closed_code`` is the close code it gave, if any); it raises
    :class:`asyncio.TimeoutError` after ``timeout`` seconds. ``send`` sends one message (a
    dict, as JSON), one at a time and in order; ``close`` ends the socket with a websocket close
    code (1008 policy, 1011 server error, 1012 restart, 1013 try again later)."""

    batches: bool
    closed_code: int | None

    async def receive(self, timeout: float | None = None) -> str | bytes | None: ...

    async def send(self, message: dict[str, Any]) -> None: ...

    async def close(self, code: int = 1000, reason: str = "") -> None: ...


class WebSocketTransport:
    """A browser's websocket as a :class:`Transport` and a
    :class:`~president.web.tables.Connection` (sends one at a time; counts the ``error``
    messages it sends in ``metrics``)."""

    def __init__(self, ws: WebSocket, metrics: Metrics | None = None) -> None:
        self.ws = ws
        self.metrics = metrics
        self._lock = asyncio.Lock()
        self.batches = False
        """The client said (``hello`` with ``batch``) that it takes ``batch`` messages."""
        self.closed_code: int | None = None

    async def receive(self, timeout: float | None = None) -> str | bytes | None:
        try:
            message = await (self.ws.receive() if timeout is None
                             else asyncio.wait_for(self.ws.receive(), timeout))
        except WebSocketDisconnect as e:
            self.closed_code = e.code
            return None
        if message["type"] == "websocket.disconnect":
            self.closed_code = message.get("code")
            return None
        text = message.get("text")
        return text if text is not None else (message.get("bytes") or b"")

    async def send(self, message: dict[str, Any]) -> None:
        if self.metrics is not None and message.get("type") == "error":
            self.metrics.socket_error(message.get("reason"))
        async with self._lock:
            if self.ws.application_state == WebSocketState.CONNECTED:
                await self.ws.send_text(encode(message))

    async def send_text(self, text: str) -> None:
        """Send a message already encoded (a relayed one)."""
        async with self._lock:
            if self.ws.application_state == WebSocketState.CONNECTED:
                await self.ws.send_text(text)

    async def close(self, code: int = 1000, reason: str = "") -> None:
        if self.ws.application_state == WebSocketState.CONNECTED:
            try:
                await self.ws.close(code=code, reason=reason)
            except Exception:   # already closing under us
                pass


class Relayed(Exception):
    """:meth:`Sockets.hello`'s signal that the table is owned by process ``owner`` and this
    socket is to be relayed to it (:mod:`president.web.cluster`); ``hello`` is the page's
    hello as it sent it."""

    def __init__(self, owner: str, hello: str | bytes) -> None:
        super().__init__(owner)
        self.owner = owner
        self.hello = hello


class Sockets:
    """The websocket side of one server process: the counts of open and unjoined sockets (by
    client address and in all) and the three steps of a socket (module docstring).

    Args:
        tables: the tables of this process.
        hosts: the host names a socket's ``Origin`` may have (:mod:`president.web.guard`).
        metrics: counts refusals, errors and each accepted action's time.
        is_stopping: whether the server is stopping (``president serve`` was told to stop).
        max_sockets_per_address: the most websockets one address may hold open (of which at most
            :data:`MAX_WAITING_PER_ADDRESS` not joined yet).
        max_waiting_total: the most unjoined sockets of the whole process.
        handshakes, hellos: the whole process's rates of new sockets and of hellos
            (:class:`~president.web.limits.Rate`).
        cooldown: addresses lately refused as busy (:class:`~president.web.limits.Cooldown`).
        cluster: the processes this one shares its store with
            (:class:`~president.web.cluster.Cluster`; ``None``: none, or no relay): it counts
            sockets per address across them, finds a table's owner and relays a socket there.
    """

    def __init__(self, *, tables: Tables, hosts: list[str], metrics: Metrics,
                 is_stopping: Callable[[], bool], max_sockets_per_address: int,
                 max_waiting_total: int, handshakes: limits.Rate, hellos: limits.Rate,
                 cooldown: limits.Cooldown, cluster: Any = None) -> None:
        self.tables = tables
        self.hosts = hosts
        self.metrics = metrics
        self.is_stopping = is_stopping
        self.max_sockets_per_address = max_sockets_per_address
        self.max_waiting_total = max_waiting_total
        self.handshakes = handshakes
        self.hellos = hellos
        self.cooldown = cooldown
        self.cluster = cluster
        self.open: dict[str, int] = {}
        """Open sockets by client address."""
        self.waiting: dict[str, int] = {}
        """Of those, not yet joined to a table."""
        self.waiting_total = 0
        """Sockets not yet joined, whole process."""

    @property
    def open_total(self) -> int:
        """Open websockets of this process."""
        return sum(self.open.values())

    # ----- 1. the upgrade ---------------------------------------------------------------

    async def _refuse(self, ws: WebSocket, status: int, reason: str, message: str,
                      code: int) -> None:
        try:
            await ws.send_denial_response(guard.refusal(status, reason, message))
        except RuntimeError:   # a server without the denial-response extension
            await ws.close(code=code)

    def _too_many(self, address: str, shared: tuple[int, int] | None) -> str | None:
        opened, waiting = shared if shared is not None else (
            self.open.get(address, 0), self.waiting.get(address, 0))
        if opened >= self.max_sockets_per_address or waiting >= MAX_WAITING_PER_ADDRESS:
            return (f"too many open sockets from your address (at most "
                    f"{self.max_sockets_per_address}, of which {MAX_WAITING_PER_ADDRESS} not "
                    "yet joined to a table); close some and try again")
        if self.waiting_total >= self.max_waiting_total or not self.handshakes.take():
            return ("the server is opening as many connections as it can just now; try again "
                    "in a few seconds")
        return None

    async def serve(self, ws: WebSocket) -> None:
        """Serve one websocket from its upgrade to its close (step 1, then :meth:`hello` and
        :meth:`play`)."""
        origin, host = ws.headers.get("origin"), ws.headers.get("host")
        if not guard.origin_allowed(origin, host, ws.url.scheme, self.hosts):
            # A page of another site (or a DNS-rebinding page): refused before the upgrade.
            await self._refuse(ws, 403, "bad-origin", guard.origin_refusal(
                origin, host, ws.url.scheme, self.hosts,
                "this game's websocket only serves its own page"), 1008)
            return
        if self.is_stopping():      # a restart: the page knocks again in a moment
            await self._refuse(ws, 503, "stopping", STOPPING_MESSAGE, 1012)
            return
        address = guard.client_key(ws.client.host) or "?" if ws.client else "?"
        shared = None
        if self.cluster is not None:    # counted across the processes (Redis), this one first
            shared = await self.cluster.sockets_opened(address)
        why = self._too_many(address, shared)
        if why is not None:
            if shared is not None:
                await self.cluster.sockets_closed(address, waiting=True)
            self.cooldown.refused(address)
            await self._refuse(ws, 429, "busy", why, 1013)
            return
        await ws.accept()
        self.open[address] = self.open.get(address, 0) + 1
        self.waiting[address] = self.waiting.get(address, 0) + 1
        self.waiting_total += 1
        waiting = [True]

        async def joined() -> None:
            if waiting[0]:
                waiting[0] = False
                self.waiting[address] -= 1
                self.waiting_total -= 1
                if self.cluster is not None:
                    await self.cluster.socket_joined(address)
        page = WebSocketTransport(ws, self.metrics)
        try:
            try:
                seat = await self.hello(page, address)
            except Relayed as r:
                await joined()
                await self.cluster.relay(page, r.owner, r.hello, address)
                return
            if seat is not None:
                await joined()
                await self.play(*seat, page)
        except WebSocketDisconnect:
            pass
        finally:
            self.open[address] -= 1
            if not self.open[address]:
                del self.open[address]
            if waiting[0]:
                self.waiting[address] -= 1
                self.waiting_total -= 1
            if not self.waiting.get(address, 1):
                del self.waiting[address]
            if self.cluster is not None:
                await self.cluster.sockets_closed(address, waiting=waiting[0])
            await page.close()

    # ----- 2. the hello -----------------------------------------------------------------

    async def hello(self, page: Transport, address: str, *, relayed: bool = False
                    ) -> tuple[Table, int] | None:
        """Read messages until a ``hello`` joins a seat: ``(table, player)`` once joined, or
        ``None`` when the socket was closed (a timeout, too many bad messages or hellos, a busy
        or stopping server, a store that cannot be read).

        Args:
            page: the page's transport.
            address: its client address (for the cooldown of a busy server).
            relayed: the socket is relayed from another process (whose hello rate counted
                it): a table owned elsewhere again is refused with ``elsewhere``, never
                relayed a second time.

        Raises:
            Relayed: the table is another process's and this one has a relay to it.
        """
        bad_hellos = 0
        before_hello = 0

        async def end_hello(reason: str, message: str, code: int, why: str) -> None:
            """Answer a hello that cannot be served now with the error ``reason`` and close
            the socket: 1013 (try again later: ``busy``, ``elsewhere``) or 1011
            (``store-error``)."""
            await page.send(P.error_message(reason, message))
            await page.close(code, why)

        async def junk(error: dict[str, Any]) -> bool:
            """Answer a message that is not a hello before the join; True (and the socket
            closed) at the MAX_BEFORE_HELLO-th."""
            nonlocal before_hello
            before_hello += 1
            if before_hello < MAX_BEFORE_HELLO:
                await page.send(error)
                return False
            await page.send(P.error_message(
                "bad-message", f"{before_hello} messages and no hello: this socket is closed; "
                'join a table first with {"type": "hello", "table": ..., "token": ...}'))
            await page.close(1008, "join a table first")
            return True

        async def elsewhere(e: TableError, raw: str | bytes, table_id: str) -> None:
            owner = None
            if self.cluster is not None and not relayed:
                owner = await self.cluster.owner_of(table_id)
            if owner is not None:
                raise Relayed(owner, raw)
            await end_hello(e.reason, e.message, 1013, "elsewhere: try again later")

        # one window from the socket's opening: each message before the join used to start
        # it again, so a socket sending a message every 9 s stayed unjoined for minutes
        # (spread: sockets opened together do not all time out together)
        hello_by = limits.hello_deadline(time.monotonic(), HELLO_SECONDS)
        while True:
            try:
                raw = await page.receive(max(0.0, hello_by - time.monotonic()))
            except asyncio.TimeoutError:
                await page.send(P.error_message(
                    "bad-message", f"no hello within {HELLO_SECONDS:g} seconds: this "
                    'socket is closed; join a table with {"type": "hello", ...} first'))
                await page.close(1008, "join a table first")
                return None
            if raw is None:
                return None
            try:
                msg = P.parse_client(raw)
            except P.MessageError as e:
                if await junk(P.error_message("bad-message", e.message)):
                    return None
                continue
            if not isinstance(msg, (P.Hello, P.JoinMsg)):
                if await junk(P.error_message(
                        "bad-message", 'join a table first: {"type": "hello", "table": ..., '
                        '"token": ...}')):
                    return None
                continue
            if self.is_stopping():      # the page comes back once the server does
                await page.close(1012, "service restart")
                return None
            if not relayed and not self.hellos.take():
                self.cooldown.refused(address)
                await end_hello("busy", "the server is busy just now; this page tries "
                                "again in a moment", 1013, "busy: try again later")
                return None
            if isinstance(msg, P.JoinMsg):      # a free seat of an open table
                joined = await self._join_open(page, msg, raw, elsewhere, end_hello)
                if joined is False:
                    return None
                if joined is None:
                    bad_hellos += 1
                    if bad_hellos >= MAX_BAD_HELLOS:
                        await page.close(1008, "too many failed hellos")
                        return None
                    continue
                return joined
            try:
                found = await self.tables.get_async(msg.table, msg.token)
            except TableError as e:     # elsewhere: another process owns the table
                found = await self._taken_over(msg, relayed)
                if found is None:
                    await elsewhere(e, raw, msg.table)
                    return None
            except Exception as e:   # the store could not be read (a damaged file)
                log.error("a hello for table %s failed on the store: %r", msg.table, e,
                          extra={"table": msg.table})
                await end_hello("store-error", STORE_ERROR_MESSAGE, 1011, "store error")
                return None
            if found is None and msg.snapshot:
                try:
                    found = self.tables.restore(msg.snapshot, msg.table, rebuild_stored=False)
                except Exception as e:
                    if not isinstance(e, TableError):
                        log.error("a saved match for table %s failed on the store: %r",
                                  msg.table, e, extra={"table": msg.table})
                        await end_hello("store-error", STORE_ERROR_MESSAGE, 1011,
                                        "store error")
                        return None
                    if e.reason == "elsewhere":
                        await elsewhere(e, raw, msg.table)
                        return None
                    bad_hellos += 1
                    await page.send(P.error_message(e.reason, e.message))
                    if bad_hellos >= MAX_BAD_HELLOS:
                        await page.close(1008, "too many failed hellos")
                        return None
                    continue
                if found.id != msg.table:
                    found = None
            who = found.player_for(msg.token) if found is not None else None
            if found is None or who is None:
                bad_hellos += 1
                await page.send(P.error_message(
                    "unknown-table", "this server has no such table or seat (it may have "
                    "ended or the server restarted); start a new game"))
                if bad_hellos >= MAX_BAD_HELLOS:
                    await page.close(1008, "too many failed hellos")
                    return None
                continue
            page.batches = msg.batch
            try:
                await found.join(who, page)
            except TableError as e:
                await page.send(P.error_message(e.reason, e.message))
                return None
            return found, who

    async def _join_open(self, page: Transport, msg: P.JoinMsg, raw: str | bytes,
                         elsewhere: Any, end_hello: Any
                         ) -> tuple[Table, int] | Literal[False] | None:
        """A ``join``: a free seat of an open table taken and joined (``(table, player)``),
        ``None`` when refused (the page was told why and may try again), ``False`` when the
        socket is done with (closed, or relayed to the table's owner: :class:`Relayed`)."""
        try:
            found = await self.tables.open_table_async(msg.table)
        except TableError as e:     # elsewhere: relayed to its owner (the page stays)
            await elsewhere(e, raw, msg.table)
            return False
        except Exception as e:
            log.error("a join for table %s failed on the store: %r", msg.table, e,
                      extra={"table": msg.table})
            await end_hello("store-error", STORE_ERROR_MESSAGE, 1011, "store error")
            return False
        if found is None:
            await page.send(P.error_message(
                "unknown-table", "there is no open table with a free seat by that id (it may "
                "have started or filled up); choose another open table"))
            return None
        try:
            who, token = await found.claim(msg.name)
        except TableError as e:
            await page.send(P.error_message(e.reason, e.message))
            return None
        page.batches = msg.batch
        try:
            await found.join(who, page, token=token)
        except TableError as e:
            await page.send(P.error_message(e.reason, e.message))
            return False
        return found, who

    async def _taken_over(self, msg: P.Hello, relayed: bool) -> Table | None:
        """A table another process owns, taken over when that process has no page at it
        (:meth:`~president.web.cluster.Cluster.ask_hand_over`), or ``None`` when it stays
        where it is (then the page is relayed)."""
        cluster = self.cluster
        if cluster is None or relayed or not await asyncio.to_thread(
                self.tables.seat_stored, msg.table, msg.token):
            return None
        owner = await cluster.owner_of(msg.table)
        if owner is None or not await cluster.ask_hand_over(owner, msg.table):
            return None
        try:
            return await self.tables.get_async(msg.table, msg.token)
        except TableError:      # another process was quicker
            return None

    # ----- 3. the joined seat -----------------------------------------------------------

    async def play(self, table: Table, player: int, page: Transport) -> None:
        """Hand each message of a joined seat to its table until the page goes; then leave
        the seat (a practice round nobody is left at is forgotten)."""
        try:
            while True:
                raw = await page.receive()
                received = time.perf_counter()
                if raw is None:
                    break
                try:
                    msg = P.parse_client(raw)
                except P.MessageError as e:
                    await page.send(P.error_message("bad-message", e.message))
                    continue
                try:
                    actions = len(table.log)
                    await table.handle(player, page, msg)
                    if len(table.log) > actions:     # accepted, its result sent
                        self.metrics.acted(time.perf_counter() - received)
                except WebSocketDisconnect:
                    raise  # the browser left while its answer was on the way: not a failure
                except Exception:  # never let one table take the server down
                    log.exception("table %s failed on %r", table.id, msg,
                                  extra={"table": table.id})
                    if table.closed:    # its action could not be kept (Tables._lost)
                        await page.send(P.error_message(
                            "server-error", "the server could not keep that action on its "
                            "disk; reload the page: the table comes back as it was before it"))
                    else:
                        await page.send(P.error_message(
                            "server-error", "the server could not carry out that message; the "
                            "table is unchanged"))
        except WebSocketDisconnect as e:
            page.closed_code = e.code
        finally:
            table.leave(player, page)
            # Seed 003: leaving or reloading clears the round; a server going away (1012,
            # a restart) does not: the round comes back from the store. A page may send
            # 1012 itself, so it counts only while the server is stopping.
            going_away = page.closed_code == 1012 and self.is_stopping()
            if table.kind == "practice" and table.connected == 0 and not going_away:
                self.tables.drop(table.id)
