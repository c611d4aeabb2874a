"""``president serve [--host H] [--port N] [--allow-host NAME] [--no-browser] [--bot-delay S]
[--store URL]``:
the browser game.

Starts the web app (:mod:`president.web.app`) with uvicorn, prints the address and opens the
browser unless ``--no-browser`` (a machine without a browser only gets the printed address).
The app answers only to the hosts it was started for (127.0.0.1, localhost, [::1], ``--host``,
each ``--allow-host`` and ``$PRESIDENT_WEB_HOSTS``: :func:`president.web.guard.allowed_hosts_for`),
and uvicorn sends no ``server`` header.
"""

from __future__ import annotations

import argparse
import asyncio
import errno
import http
import logging
import os
import signal
import socket
import sys
import threading
import time
import webbrowser
from typing import Any

HELP = "Start the browser game (a web server on 127.0.0.1)."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``president serve``."""
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                        help="another host name or address the game answers to, besides "
                             "127.0.0.1, localhost, [::1] and --host (repeatable; for friends "
                             "on other machines with --host 0.0.0.0)")
    parser.add_argument("--level", action="append", default=[], metavar="MODULE:CLASS",
                        dest="extra_levels",
                        help="offer your own computer player, named by import path "
                             "(package.module:ClassName) or a saved network's path "
                             "(FILE.npz), beside the built-in levels "
                             "(repeatable; its code runs in this server, so only name code you "
                             "trust)")
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser")
    parser.add_argument("--recover-saved-matches", action="store_true",
                        help="after losing the state folder's files (restored from an old "
                             "backup, or started afresh), rebuild a match from the copy a page "
                             "kept even when this server has no history of it; a page holding "
                             "an older copy could then rewind its match (docs/web.md, "
                             "\"Backups and recovery\")")
    parser.add_argument("--store", default=None, metavar="URL",
                        help="where the tables and saved-match versions are kept: "
                             "postgresql://user:password@host:port/database for PostgreSQL "
                             "(needs pip install 'president-game[postgres]'), or a folder for "
                             "SQLite files (default $PRESIDENT_STORE, else SQLite files in the "
                             "state folder; docs/web.md, \"The store: SQLite or PostgreSQL\")")
    parser.add_argument("--shared-store", action="store_true", dest="shared_store",
                        help="several president serve processes share this PostgreSQL --store, "
                             "each table owned by one of them at a time (a PostgreSQL advisory "
                             "lock); a page that reaches another process is asked to try again "
                             "(default: a second server on one store is refused; docs/web.md, "
                             "\"Several processes\")")
    parser.add_argument("--redis", default=None, metavar="URL",
                        help="with --shared-store or --workers: the Redis the processes share "
                             "(redis://host:port/0; default $PRESIDENT_REDIS): per-address "
                             "limits hold across them, and a page that reaches a process other "
                             "than its table's is relayed to it (docs/web.md, \"Several "
                             "processes\"; needs pip install 'president-game[redis]')")
    parser.add_argument("--workers", type=int, default=1, metavar="N",
                        help="serve with N processes on this one port (default 1); needs a "
                             "PostgreSQL --store and --redis: each table is owned by one "
                             "process, a page reaching another is relayed, and a process that "
                             "dies is started again while the others take its tables over")
    parser.add_argument("--worker-fd", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--trusted-proxy", action="append", default=[], metavar="ADDRESS",
                        dest="trusted_proxy",
                        help="the address (or network, e.g. 172.16.0.0/12) of a reverse proxy "
                             "in front of this server whose X-Forwarded-For and "
                             "X-Forwarded-Proto are honoured, so the per-address limits see "
                             "the real clients (repeatable; also $PRESIDENT_TRUSTED_PROXIES, "
                             "comma-separated; default none: docs/deploy.md)")
    parser.add_argument("--bot-delay", type=float, default=None, metavar="SECONDS",
                        help="pause between computer plays (default $PRESIDENT_BOT_DELAY or 0.8)")
    parser.add_argument("--log-json", action="store_true",
                        help="write the server's log as one JSON object a line on stderr "
                             "(also $PRESIDENT_LOG_JSON=1; docs/web.md, \"Operating the "
                             "server\")")
    parser.add_argument("--metrics-from", action="append", default=[], metavar="ADDRESS",
                        dest="metrics_from",
                        help="an address or network (e.g. 10.0.0.0/24) besides this "
                             "machine's loopback that may read the Prometheus metrics at "
                             "/metrics (repeatable; default: loopback only)")


def own_addresses() -> list[str]:
    """This machine's own addresses on its networks (IPv4, not loopback), best first: the one
    its default route uses, then the host name's addresses. Nothing is sent anywhere (a UDP
    socket is only pointed at a documentation address to read which local address it gets)."""
    import socket

    found: list[str] = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))
            found.append(s.getsockname()[0])
    except OSError:
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(str(info[4][0]))
    except OSError:
        pass
    out: list[str] = []
    for a in found:
        if not a.startswith("127.") and a != "0.0.0.0" and a not in out:
            out.append(a)
    return out


def _open_browser(url: str) -> None:
    try:
        webbrowser.open(url)
    except Exception:  # no browser here: the printed address is enough
        pass


SHUTDOWN_SECONDS = 10
"""The most seconds a stop (SIGTERM, Ctrl-C) waits for the connections to close after their
pages were told to come back (1012) before it cancels what is left; the store's pending
writes are then finished (``Tables.close_all``) before the process ends."""

DOUBLE_SIGNAL_SECONDS = 0.5
"""A second stop signal this soon after the first (a double Ctrl-C) is the same request, not
uvicorn's "stop now", which cuts the graceful stop short (and logs a traceback)."""

REQUEST_SECONDS = 20.0
"""The most seconds a connection may take over one HTTP request, head and body (from
connecting, or from the answer to its previous request) until its answer is complete; then it
is closed. uvicorn's h11 waits for ever, so a few sockets trickling a head or a body byte by
byte ("slowloris") would hold their connections. A websocket is timed only until its upgrade.
``$PRESIDENT_WEB_REQUEST_SECONDS`` changes it (tests)."""

STUCK_SECONDS = 5.0
"""The most seconds a websocket may leave the server's writes to it waiting without taking
any of them: when what is queued for a page passes the transport's high-water mark (the
system's socket buffer is full too), the queue is looked at every :data:`STUCK_CHECK_SECONDS`;
a page that drained nothing for this long is cut (a slow one that drains is left alone).
Messages to a table's pages go out one after another while the table is held, so a page
that stops reading would otherwise hold its whole table (and the server's stop) for ever.
``$PRESIDENT_WEB_STUCK_SECONDS`` changes it (tests)."""

HTTP_CONNECTIONS_PER_ADDRESS = 64
"""The most HTTP connections one client address (:func:`president.web.guard.client_key`) may
hold open at once before they become websockets; one more gets 429 ``busy`` and is closed.
A browser opens six or so to a host. Without it, idle connections from one address used up
the server's open-file limit (1,024 by default on many desktops): new pages failed and a
table whose computer player was due to move stopped. Websockets have their own limits (per
seat and address). ``$PRESIDENT_WEB_CONNECTIONS_PER_ADDRESS`` changes it (tests)."""

OPEN_FILES_WANTED = 65_536
"""The open-file limit (connections count) :func:`raise_open_files` asks for, within the hard
limit the system allows."""

STUCK_CHECK_SECONDS = 1.0
"""How often a paused websocket's queue is looked at (see :data:`STUCK_SECONDS`)."""

GC_THRESHOLDS = (20_000, 50, 100)
"""The server's cyclic garbage collector thresholds (:func:`gc.set_threshold`; Python's
default is ``(700, 10, 10)``). Each action allocates a few thousand short-lived objects
(messages, observations) that reference counting frees, so the default ran a young-object
collection or two per action, and, while a thousand tables grew, full collections over
every table's logs and events that held the event loop (so every table) for 0.3 s each. At
these thresholds a young collection comes about once per 20,000 objects still alive and a
full one rarely; cycles left by closed tables are still collected (a thousand players:
``benchmarks/bench_attack.py --phases scale``)."""


def tune_gc() -> None:
    """Set the collector for a long-running server: the objects alive once the server has
    imported everything (modules, classes, the app) move to the permanent generation
    (:func:`gc.freeze`: no collection walks them again), and :data:`GC_THRESHOLDS` apply."""
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)

BAD_HTTP_MESSAGE = ("this is not an HTTP/1.1 request this server can read (a malformed request "
                    "line or header, or a head over 16 KiB); send a well-formed request")


def _refusal_bytes(status: int, reason: str, message: str) -> tuple[list[tuple[bytes, bytes]], bytes]:
    """The headers and body of a refusal written below the web app (by a protocol): the
    app's own refusal (:func:`~president.web.guard.refusal`) with its security headers."""
    from ..web.app import CSP
    from ..web.guard import SECURITY_HEADERS, refusal

    response = refusal(status, reason, message, headers={
        "Connection": "close", "Content-Security-Policy": CSP, **SECURITY_HEADERS})
    return list(response.raw_headers), bytes(response.body)


def raise_open_files(wanted: int = OPEN_FILES_WANTED) -> tuple[int, int]:
    """Raise this process's soft limit of open files (each connection is one) towards
    ``wanted``, never past the hard limit; returns the (soft, hard) limits after. A system
    without :mod:`resource` (Windows) keeps its own."""
    try:
        import resource
    except ImportError:       # pragma: no cover - not on Linux
        return (-1, -1)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):
            pass
    got = resource.getrlimit(resource.RLIMIT_NOFILE)
    return (int(got[0]), int(got[1]))


PID_FILE = "serve.pid"
"""The file in the state folder that names the process of the running ``president serve``."""


def hold_state_dir(state_dir: str | os.PathLike[str]) -> tuple[int | None, str | None]:
    """Lock the state folder for this server: ``(a file descriptor of the folder, None)``,
    to keep open as long as the server runs (the lock goes with the process, ``kill -9``
    included), or ``(None, why)`` when another ``president serve`` holds it. The folder
    itself is locked (``flock``), so no file in it can be removed, replaced or linked
    elsewhere to get past the lock; ``serve.pid`` only names the holder (written without
    following a link). Two servers on one folder would each keep their own copy of the same
    tables in memory, and a page of one could be rewound by the other's older copy after a
    restart. ``(None, None)``: nothing to lock (no :mod:`fcntl`, as on Windows).

    Raises:
        OSError: if the folder cannot be made or opened (the server then refuses to start).
    """
    from ..web.ledger import private_dir
    try:
        import fcntl
    except ImportError:       # pragma: no cover - not on Linux
        return None, None
    folder = private_dir(state_dir)
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        holder = "another process"
        try:
            with open(os.open(folder / PID_FILE, os.O_RDONLY | os.O_NOFOLLOW),
                      encoding="utf-8") as f:
                holder = f.read(40).strip() or holder
        except OSError:
            pass
        return None, (f"another president serve ({holder}) is using the state folder "
                      f"{folder}; stop it first, or give this one a folder of its own "
                      "with XDG_STATE_HOME=/some/folder")
    try:
        pid = os.open(folder / PID_FILE, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW,
                      0o600)
        with open(pid, "w", encoding="utf-8") as f:
            f.write(f"pid {os.getpid()}\n")
    except OSError:
        pass                  # a link planted there, or a folder in its place: not written
    return fd, None


def guarded_http_protocol(seconds: float, per_address: int | None = None,
                          upgrade_ready: Any = None, cooldown: Any = None,
                          trusted: Any = None, refused: Any = None) -> type:
    """uvicorn's h11 protocol with :data:`REQUEST_SECONDS` (``seconds``) on each request: the
    timer starts when the connection opens and again after each answer, stops when a
    websocket upgrade leaves the protocol, and closes the connection when it runs out (a head
    or a body still arriving, or an answer not yet complete). h11's own refusal of a malformed
    request (400) comes in the documented JSON shape with the security headers, not as
    uvicorn's bare text. At most ``per_address`` (default
    :data:`HTTP_CONNECTIONS_PER_ADDRESS`) connections of one client address are open at once
    before their websocket upgrade; one more gets 429 ``busy`` at once and is closed. With
    ``upgrade_ready`` (a function: ``False`` when the whole server takes no new websocket
    now, the app's :data:`~president.web.limits.HANDSHAKES_PER_SECOND`), an upgrade past that
    rate gets its 429 ``busy`` here, before the websocket protocol and the app do any work
    for it (the app still counts the ones it accepts). With ``cooldown`` (a
    :class:`~president.web.limits.Cooldown`), a connection from an address refused as busy
    in the last second gets a ready-made 429 ``busy`` before a byte of it is read, and every
    429 ``busy`` sent here starts that address's cooldown. With ``trusted`` (a
    :class:`~president.web.proxy.TrustedProxies`), a connection from a trusted reverse proxy
    (many clients behind one address) is neither counted nor cooled down here: the app's
    per-address limits count the client it forwards. With ``refused`` (a function of the
    status and reason: the app's :meth:`~president.web.metrics.Metrics.refused`), each
    refusal made here is counted. Imports uvicorn (the web extra)."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    from ..web.guard import client_key
    limit = HTTP_CONNECTIONS_PER_ADDRESS if per_address is None else per_address
    open_by_address: dict[str | None, int] = {}
    cooling_headers, cooling_body = _refusal_bytes(
        429, "busy", "your address was refused as busy a moment ago; try again in a few seconds")
    cooling = (b"HTTP/1.1 429 Too Many Requests\r\n"
               + b"".join(k + b": " + v + b"\r\n" for k, v in cooling_headers)
               + b"\r\n" + cooling_body)

    class GuardedH11(H11Protocol):
        _request_timer: asyncio.TimerHandle | None = None
        _counted = False                  # whether this connection counts for _key
        _key: str | None = None           # its client address (client_key; None from a proxy)

        def _count(self, key: str | None) -> bool:
            """Count this connection for its address ``key``; False if that address is at the
            limit."""
            held = open_by_address.get(key, 0)
            if held >= limit:
                return False
            open_by_address[key] = held + 1
            self._counted = True
            return True

        def _uncount(self) -> None:
            if self._counted:
                self._counted = False
                left = open_by_address.get(self._key, 1) - 1
                if left > 0:
                    open_by_address[self._key] = left
                else:
                    open_by_address.pop(self._key, None)

        def _start_request_timer(self) -> None:
            self._stop_request_timer()
            self._request_timer = self.loop.call_later(seconds, self._request_too_slow)

        def _stop_request_timer(self) -> None:
            if self._request_timer is not None:
                self._request_timer.cancel()
                self._request_timer = None

        def _request_too_slow(self) -> None:
            self._request_timer = None
            if not self.transport.is_closing():
                self.transport.close()

        _proxied = False                  # from a trusted proxy: not counted here

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            peer = transport.get_extra_info("peername")
            address = peer[0] if isinstance(peer, tuple) and peer else None
            if trusted and trusted.trusts(address):
                self._proxied = True
                self._start_request_timer()
                return
            key = self._key = client_key(address)
            if cooldown is not None and cooldown.active(key):
                if refused is not None:
                    refused(429, "busy")
                self._turned_away(cooling)
                return
            if not self._count(key):
                self._refuse(429, "busy", "too many connections from your address are open "
                             f"at once (at most {limit}); close some and try again")
                return
            self._start_request_timer()

        def handle_websocket_upgrade(self, event: h11.Request) -> None:
            self._stop_request_timer()     # the websocket protocol takes the connection over
            self._uncount()                # and counts it under its own limits
            if upgrade_ready is not None and not upgrade_ready():
                self._refuse(429, "busy", "the server is opening as many connections as it "
                             "can just now; try again in a few seconds")
                return
            if event.http_version != b"1.1":
                # RFC 6455, 4.1: the opening handshake is HTTP/1.1. uvicorn writes the request
                # line again as HTTP/1.1 for the websocket protocol, which would open it.
                self._refuse(400, "bad-websocket", "this websocket upgrade request cannot be "
                             f"accepted (it is HTTP/{event.http_version.decode()}; a websocket "
                             "opens over HTTP/1.1); open the socket from the game's page")
                return
            super().handle_websocket_upgrade(event)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._start_request_timer()

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_request_timer()
            self._uncount()
            super().connection_lost(exc)

        def send_400_response(self, msg: str) -> None:
            # A request that breaks HTTP after its answer has gone out (a bad chunk of a body
            # nobody read) can get no answer: the connection just ends (h11 would raise).
            # One whose route is still at work is answered here, and the route's own answer
            # is then dropped, as for a client that left.
            cycle = self.cycle
            if cycle is not None and not cycle.response_complete:
                cycle.disconnected = True
                cycle.message_event.set()
            self._refuse(400, "bad-request", BAD_HTTP_MESSAGE)

        _away = False        # answered before reading: what arrives is dropped

        def _turned_away(self, answer: bytes) -> None:
            """Send ``answer`` without reading the request, then end the connection: our
            side is shut at once (the client reads the answer, then the end), and the
            connection closed when the client closes or a second later. (Closed at once
            with the request unread, the system would reset the connection, and the client
            could lose the answer.)"""
            self._away = True
            if answer:
                self.transport.write(answer)
            try:
                self.transport.write_eof()
            except (NotImplementedError, OSError, RuntimeError):
                self.transport.close()
                return
            self.loop.call_later(1.0, self.transport.close)

        def data_received(self, data: bytes) -> None:
            if self._away:
                return                   # nothing of it is read
            super().data_received(data)

        def eof_received(self) -> None:
            if self._away:
                self.transport.close()
                return
            super().eof_received()

        def _refuse(self, status: int, error: str, message: str) -> None:
            """Answer ``status`` in the documented shape (if an answer can still be sent)
            and close the connection."""
            if refused is not None:
                refused(status, error)
            if cooldown is not None and error == "busy" and not self._proxied:
                cooldown.refused(self._key)
            if self.conn.our_state in (h11.IDLE, h11.SEND_RESPONSE):
                headers, body = _refusal_bytes(status, error, message)
                head = (self.scope or {}).get("method") == "HEAD"   # a head, no body
                reason = http.HTTPStatus(status).phrase.encode()
                events = [h11.Response(status_code=status, headers=headers, reason=reason),
                          *([] if head else [h11.Data(data=body)]), h11.EndOfMessage()]
                try:
                    for event in events:
                        self.transport.write(self.conn.send(event) or b"")
                except h11.LocalProtocolError:
                    pass
            self._turned_away(b"")

    return GuardedH11


def guarded_ws_protocol(seconds: float, stuck_seconds: float = STUCK_SECONDS,
                        refused: Any = None) -> type:
    """uvicorn's websockets (sans-I/O) protocol, with the refusals the ``websockets`` package
    makes itself, before the app sees the socket, sent in the documented JSON shape with the
    security headers, and sent at all:

    - a handshake it refuses (a missing or bad ``Sec-WebSocket-Key`` or version);
    - a request head its own parser refuses although h11 passed it (a body, too many or too
      long header lines): uvicorn never wrote that answer nor closed the connection, which
      then stayed open for ever outside every socket limit. It now gets ``400`` (or ``431``,
      ``414``) and is closed.

    As a last guard, an upgrade whose request has not reached the app ``seconds`` after the
    protocol took the connection over is closed. A socket whose writes stay paused (its page
    reads nothing) for ``stuck_seconds`` is cut (:data:`STUCK_SECONDS`): the send waiting on
    it then fails, and its table drops it and goes on. With ``refused`` (a function of the
    status and reason), each refusal sent here is counted (``/metrics``). Imports uvicorn
    (the web extra)."""
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
    from websockets.datastructures import Headers
    from websockets.http11 import Response

    def shaped(response: Response) -> Response:
        why = response.body.decode("utf-8", "replace").strip()
        server = response.status_code >= 500
        if refused is not None:
            refused(response.status_code, "server-error" if server else "bad-websocket")
        headers, body = _refusal_bytes(
            response.status_code, "server-error" if server else "bad-websocket",
            f"the server failed to open this websocket ({why[:200]})" if server else
            f"this websocket upgrade request cannot be accepted ({why[:200]}); "
            "open the socket from the game's page")
        return Response(response.status_code, response.reason_phrase,
                        Headers([(k.decode(), v.decode()) for k, v in headers]), body)

    class GuardedWebSockets(WebSocketsSansIOProtocol):
        _own_answer = True     # until the app has the request, answers are websockets' own
        _answered = False
        _refused = False        # an unparsed request head was answered and closed
        _guard: asyncio.TimerHandle | None = None
        _stuck: asyncio.TimerHandle | None = None
        _queued = 0             # bytes waiting in the transport at the last look
        _moved = 0.0            # when they last went down (loop time)

        def pause_writing(self) -> None:
            super().pause_writing()
            if self._stuck is None:
                self._queued = self.transport.get_write_buffer_size()
                self._moved = self.loop.time()
                self._stuck = self.loop.call_later(min(STUCK_CHECK_SECONDS, stuck_seconds),
                                                   self._check_stuck)

        def resume_writing(self) -> None:
            super().resume_writing()
            self._unstick()

        def _unstick(self) -> None:
            if self._stuck is not None:
                self._stuck.cancel()
                self._stuck = None

        def _check_stuck(self) -> None:
            # A slow page still drains (its queue goes down): it is left alone, however long a
            # big message takes. One that drained nothing for stuck_seconds is aborted (a
            # close frame could not get out either); connection_lost wakes the waiting send.
            self._stuck = None
            now = self.loop.time()
            queued = self.transport.get_write_buffer_size()
            if queued < self._queued:
                self._queued, self._moved = queued, now
            elif now - self._moved >= stuck_seconds:
                self.transport.abort()
                return
            self._stuck = self.loop.call_later(min(STUCK_CHECK_SECONDS, stuck_seconds),
                                               self._check_stuck)

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            send_response = self.conn.send_response

            def send(response: Response) -> None:
                if self._own_answer and response.status_code != 101:
                    response = shaped(response)
                self._answered = True
                send_response(response)

            self.conn.send_response = send  # type: ignore[method-assign]
            self._guard = self.loop.call_later(seconds, self._too_slow)

        def _too_slow(self) -> None:
            self._guard = None
            if self._own_answer and not self.transport.is_closing():
                self.transport.close()

        def _unguard(self) -> None:
            if self._guard is not None:
                self._guard.cancel()
                self._guard = None

        def handle_connect(self, event: Any) -> None:
            self._unguard()
            super().handle_connect(event)   # a refusal here is websockets' own (shaped)
            self._own_answer = False        # from now on the app answers, as it sends

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self._own_answer and self.conn.handshake_exc is not None:
                self._refuse_unparsed()   # uvicorn before 0.55 wrote nothing here

        def handle_handshake_exception(self) -> None:
            # uvicorn 0.55 and later call this when websockets' parser refused the request
            # head, and write their own plain-text 400: the documented shape instead
            self._refuse_unparsed()

        def _refuse_unparsed(self) -> None:
            """websockets' parser refused the request head: its answer if it made one (431,
            414, shaped as it was sent), else a 400 in the documented shape; then the end."""
            if self._refused:
                return
            self._refused = True
            out = self.conn.data_to_send()
            if not self._answered:
                exc = self.conn.handshake_exc
                cause = f": {exc.__cause__}" if exc is not None and exc.__cause__ is not None else ""
                out = [shaped(self.conn.reject(
                    400, f"Failed to open a WebSocket connection: {exc}{cause}.")).serialize()]
            self.transport.write(b"".join(out))
            self.handshake_complete = self.close_sent = True   # nothing more to send
            self.transport.close()

        def connection_lost(self, exc: Exception | None) -> None:
            self._unguard()
            self._unstick()
            super().connection_lost(exc)

    return GuardedWebSockets


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted; returns the exit status (2 for bad options, 1 if the web
    extra is missing, 130 for a Ctrl-C before the server was up)."""
    try:
        return _serve(args)
    except KeyboardInterrupt:   # while the web app was still being imported or made
        return 130


def _serve(args: argparse.Namespace) -> int:
    if not 0 < args.port < 65536:
        print(f"president serve: port {args.port} is out of range; give 1 to 65535", file=sys.stderr)
        return 2
    if args.bot_delay is not None and not 0 <= args.bot_delay <= 10:
        print(f"president serve: --bot-delay {args.bot_delay} is out of range; give 0 to 10 seconds",
              file=sys.stderr)
        return 2
    try:
        import uvicorn  # noqa: F401  (the web extra is there: checked before anything starts)

        from ..web import app  # noqa: F401
    except ModuleNotFoundError as e:
        print(f"president serve: {e.name} is not installed; install the web extra: "
              "pip install 'president-game[web]'", file=sys.stderr)
        return 1
    workers = getattr(args, "workers", None)
    workers = 1 if workers is None else workers
    if not 1 <= workers <= MAX_WORKERS:
        print(f"president serve: --workers {workers} is out of range; give 1 to {MAX_WORKERS}",
              file=sys.stderr)
        return 2
    if getattr(args, "worker_fd", None) is not None:   # one of --workers N's processes
        return _serve_holding(args)
    from ..web.ledger import default_state_dir
    try:
        lock, held = hold_state_dir(default_state_dir())
    except OSError as e:
        print(f"president serve: cannot use the state folder {default_state_dir()} "
              f"({e.strerror or e}), where the server keeps every table; give it a folder it "
              "can write, e.g. XDG_STATE_HOME=/some/folder", file=sys.stderr)
        return 1
    if held is not None:
        print(f"president serve: {held}", file=sys.stderr)
        return 1
    from ..web.store import store_from_env
    store = getattr(args, "store", None) or store_from_env()
    store_lock: int | None = None
    try:
        if (store is not None and "://" not in store     # another folder of SQLite files: held too
                and os.path.realpath(store) != os.path.realpath(default_state_dir())):
            try:
                store_lock, held = hold_state_dir(store)
            except OSError as e:
                print(f"president serve: cannot use the store folder {store} "
                      f"({e.strerror or e}); give it a folder it can write", file=sys.stderr)
                return 1
            if held is not None:
                print(f"president serve: {held}", file=sys.stderr)
                return 1
        return _serve_workers(args) if workers > 1 else _serve_holding(args)
    finally:
        if store_lock is not None:
            os.close(store_lock)
        if lock is not None:
            os.close(lock)          # the state folder is free for the next server


def _serve_holding(args: argparse.Namespace) -> int:
    """:func:`_serve` once the state folder is this server's: the app, the address, uvicorn."""
    import uvicorn

    from ..web.app import WS_MAX_BYTES, create_app
    from ..web.guard import allowed_hosts_for
    from ..web.ledger import StoreError
    from ..web.proxy import TrustedProxies, parse_proxies, proxies_from_env
    from ..web.store import store_from_env
    from ..web.store_pg import is_postgres_address, mask_address
    from uvicorn.config import LOGGING_CONFIG

    from ..web.logs import json_log_config, log_json_from_env
    log_json = bool(getattr(args, "log_json", False)) or log_json_from_env()
    if log_json:      # from the start: a refusal to start is a JSON line too
        from logging.config import dictConfig
        dictConfig(json_log_config())
    try:
        proxies = parse_proxies([*(getattr(args, "trusted_proxy", None) or ()),
                                 *proxies_from_env()])
    except ValueError as e:
        print(f"president serve: {e}", file=sys.stderr)
        return 2
    wildcard = args.host in ("0.0.0.0", "::")
    lan = own_addresses() if wildcard else []
    try:
        # Listening on every interface: friends on the network reach this machine by its own
        # addresses, which the server then answers to (other names still need --allow-host).
        hosts = allowed_hosts_for(args.host, [*lan, *(getattr(args, "allow_host", None) or ())])
        friend_url = f"http://{lan[0]}:{args.port}/" if lan else None
        app = create_app(bot_delay=args.bot_delay, allowed_hosts=hosts, friend_url=friend_url,
                         extra_levels=getattr(args, "extra_levels", None) or (),
                         recover_records=bool(getattr(args, "recover_saved_matches", False)),
                         store=getattr(args, "store", None),
                         metrics_from=getattr(args, "metrics_from", None) or (),
                         shared_store=bool(getattr(args, "shared_store", False)
                                           or getattr(args, "worker_fd", None) is not None),
                         redis=getattr(args, "redis", None))
    except StoreError as e:
        # never on memory instead: the tables and actions it accepted would be lost at the
        # next restart
        if log_json:
            logging.getLogger("president.serve").error("president serve: %s", e.message)
        else:
            print(f"president serve: {e.message}", file=sys.stderr)
        return 1
    except ValueError as e:
        print(f"president serve: {e}", file=sys.stderr)
        return 2
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
    if ":" in shown:
        shown = f"[{shown}]"
    url = f"http://{shown}:{args.port}/"
    if lan:     # every interface: open (and print) the address friends can use too
        url = f"http://{lan[0]}:{args.port}/"
    # h11, not httptools: h11 refuses a request head still incomplete past 16 KiB, where
    # httptools would read a header of any size (a 250 MB header froze the server for
    # minutes). A head that arrives whole in one socket read (about 100 KiB) is still read.
    request_seconds = float(os.environ.get("PRESIDENT_WEB_REQUEST_SECONDS") or REQUEST_SECONDS)
    worker_fd = getattr(args, "worker_fd", None)
    where: dict[str, Any] = ({"fd": worker_fd} if worker_fd is not None
                             else {"host": args.host, "port": args.port})
    config = uvicorn.Config(app, **where,
                            log_level="info" if log_json else "warning",
                            log_config=json_log_config() if log_json else LOGGING_CONFIG,
                            access_log=not log_json,
                            timeout_graceful_shutdown=SHUTDOWN_SECONDS,
                            ws_max_size=WS_MAX_BYTES, ws_ping_interval=20, ws_ping_timeout=20,
                            server_header=False, ws_per_message_deflate=False,
                            http=guarded_http_protocol(request_seconds, int(
                                os.environ.get("PRESIDENT_WEB_CONNECTIONS_PER_ADDRESS")
                                or HTTP_CONNECTIONS_PER_ADDRESS),
                                upgrade_ready=app.state.upgrade_ready,
                                cooldown=app.state.cooldown, trusted=TrustedProxies(proxies),
                                refused=app.state.metrics.refused),
                            ws=guarded_ws_protocol(request_seconds, float(
                                os.environ.get("PRESIDENT_WEB_STUCK_SECONDS") or STUCK_SECONDS),
                                refused=app.state.metrics.refused),
                            h11_max_incomplete_event_size=16 * 1024,
                            # the peer's own address counts, never a client's X-Forwarded-For
                            # (uvicorn trusts it from 127.0.0.1 by default: any local program
                            # could name any address and escape every per-address limit),
                            # unless the peer is a proxy named by --trusted-proxy
                            proxy_headers=bool(proxies),
                            forwarded_allow_ips=proxies or [])
    problem = listen_problem(args.host, args.port) if worker_fd is None else None
    if problem:
        print(f"president serve: {problem}", file=sys.stderr)
        return 1
    class Server(uvicorn.Server):
        first_exit = 0.0

        def handle_exit(self, sig: int, frame: Any) -> None:
            # told to stop: the sockets uvicorn now closes with 1012 are the server going
            # away (a practice round is kept for the restart), not pages that left
            now = time.monotonic()
            if app.state.stopping and now - self.first_exit < DOUBLE_SIGNAL_SECONDS:
                return   # one Ctrl-C pressed twice: a second stop would cut the first short
            if not app.state.stopping:
                self.first_exit = now
            app.state.stopping = True
            super().handle_exit(sig, frame)
            if sig == signal.SIGTERM and sig in self._captured_signals:
                # a service manager's stop: the graceful stop is the whole answer (uvicorn
                # would raise SIGTERM again once stopped, ending with its status, not 0)
                self._captured_signals.remove(sig)
            if self.first_exit == now:
                logging.getLogger("president.serve").info(
                    "stopping on %s: no new tables or sockets, pages closed with 1012 to come "
                    "back, then the store's pending writes", signal.Signals(sig).name,
                    extra={"signal": signal.Signals(sig).name})

    server = Server(config)

    # uvicorn's websockets-sansio protocol logs this error after a refusal sent as an HTTP
    # denial response (403 bad origin, 429 busy): its handshake flag stays unset although the
    # answer went out. Every socket this app refuses is refused that way, so the line is noise.
    logging.getLogger("uvicorn.error").addFilter(
        lambda record: record.getMessage() != "ASGI callable returned without completing handshake.")

    store_address = getattr(args, "store", None) or store_from_env()
    store_shown = (f"PostgreSQL at {mask_address(store_address)}"
                   if store_address and is_postgres_address(store_address) else None)

    def announce() -> None:
        while not server.started and not server.should_exit:
            threading.Event().wait(0.05)
        if server.started:
            print(f"President is being served at {url} (Ctrl+C stops it)", flush=True)
            if store_shown:
                print(f"Tables are kept in {store_shown}", flush=True)
            if proxies:
                print("Client addresses come from X-Forwarded-For on connections from "
                      f"{', '.join(proxies)} (--trusted-proxy)", flush=True)
            if wildcard:
                if lan:
                    print(f"Friends on your network: open {url} (make the match there, so the "
                          "seat links carry that address)", flush=True)
                print("Another name for this machine (a host name, a tunnel): add it with "
                      "--allow-host NAME", flush=True)
            elif not proxies:     # (behind a proxy, friends come through the proxy)
                print("Only this computer can open it; for friends on other devices: "
                      "president serve --host 0.0.0.0", flush=True)
            if not args.no_browser:
                _open_browser(url)

    if worker_fd is None:     # (the processes of --workers N: their supervisor announces)
        threading.Thread(target=announce, daemon=True).start()
    raise_open_files()
    tune_gc()
    try:
        server.run()
    except (KeyboardInterrupt, SystemExit):
        pass
    if not server.started:
        print(f"president serve: could not listen on {args.host}:{args.port} (see the error "
              "above)", file=sys.stderr)
        return 1
    return 0


MAX_WORKERS = 64
"""The most processes ``president serve --workers`` starts."""
RESTART_SECONDS = 1.0
"""A process of ``--workers N`` that died is started again after this long."""


def _worker_argv(args: argparse.Namespace, fd: int) -> list[str]:
    """The command line of one process of ``--workers N``: this one's options, listening on
    the supervisor's socket ``fd``. The store's and Redis's addresses, which may hold
    passwords, go in the environment (:func:`_serve_workers`), never on a command line that
    ``ps`` shows."""
    argv = [sys.executable, "-m", "president", "serve", "--host", args.host, "--port",
            str(args.port), "--no-browser", "--worker-fd", str(fd)]
    for flag, name in (("--bot-delay", "bot_delay"),):
        value = getattr(args, name, None)
        if value is not None:
            argv += [flag, str(value)]
    for flag, name in (("--allow-host", "allow_host"), ("--level", "extra_levels"),
                       ("--trusted-proxy", "trusted_proxy"), ("--metrics-from", "metrics_from")):
        for value in getattr(args, name, None) or ():
            argv += [flag, str(value)]
    for flag, name in (("--log-json", "log_json"),
                       ("--recover-saved-matches", "recover_saved_matches")):
        if getattr(args, name, False):
            argv.append(flag)
    return argv


def _serve_workers(args: argparse.Namespace) -> int:
    """``president serve --workers N``: N server processes on one listening socket (the
    kernel spreads new connections over them), sharing a PostgreSQL store and Redis
    (:mod:`president.web.cluster`). Each table is owned by one process; a page that reaches
    another is relayed to it. A process that dies (``kill -9``) is started again after
    :data:`RESTART_SECONDS`, and its tables are taken over meanwhile by the process their pages
    reach. SIGTERM or Ctrl-C stops them all gracefully (exit 0)."""
    import socket as sockets
    import subprocess

    from ..web.cluster import REDIS_ENV, check_redis
    from ..web.ledger import StoreError
    from ..web.sealing import load_secret
    from ..web.store import store_from_env
    from ..web.store_pg import is_postgres_address, mask_address

    store = getattr(args, "store", None) or store_from_env()
    redis = getattr(args, "redis", None) or os.environ.get(REDIS_ENV) or None
    if not store or not is_postgres_address(store) or not redis:
        print("president serve: --workers needs a PostgreSQL --store and --redis, which the "
              "processes share (docs/web.md, \"Several processes\"); one process on the "
              "SQLite files serves without them", file=sys.stderr)
        return 2
    try:
        check_redis(redis)
        load_secret()       # made here once: every process seals with the same key
    except StoreError as e:
        print(f"president serve: {e.message}", file=sys.stderr)
        return 1
    problem = listen_problem(args.host, args.port)
    if problem:
        print(f"president serve: {problem}", file=sys.stderr)
        return 1
    family = sockets.AF_INET6 if ":" in args.host else sockets.AF_INET
    listener = sockets.socket(family, sockets.SOCK_STREAM)
    listener.setsockopt(sockets.SOL_SOCKET, sockets.SO_REUSEADDR, 1)
    listener.bind((args.host, args.port))
    listener.listen(2048)
    listener.set_inheritable(True)
    fd = listener.fileno()
    argv = _worker_argv(args, fd)
    stopping = threading.Event()

    env = dict(os.environ, PRESIDENT_STORE=store, **{REDIS_ENV: redis})

    def start() -> subprocess.Popen[bytes]:
        return subprocess.Popen(argv, pass_fds=(fd,), env=env)

    def stop(sig: int, frame: Any) -> None:
        stopping.set()
    old = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    procs = [start() for _ in range(args.workers)]
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
    url = f"http://[{shown}]:{args.port}/" if ":" in shown else f"http://{shown}:{args.port}/"
    log = logging.getLogger("president.serve")
    try:
        if _wait_healthy(url, stopping):
            print(f"President is being served at {url} by {args.workers} processes "
                  "(Ctrl+C stops them)", flush=True)
            print(f"Tables are kept in PostgreSQL at {mask_address(store)}; the processes "
                  "share Redis", flush=True)
            if not args.no_browser:
                _open_browser(url)
        while not stopping.wait(0.2):
            for i, proc in enumerate(procs):
                code = proc.poll()
                if code is None or stopping.is_set():
                    continue
                print(f"president serve: process {i + 1} of {args.workers} (pid {proc.pid}) "
                      f"ended ({_ended(code)}); starting another, its tables are taken over "
                      "meanwhile", file=sys.stderr, flush=True)
                if stopping.wait(RESTART_SECONDS):
                    break
                procs[i] = start()
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + SHUTDOWN_SECONDS + 20
        for proc in procs:
            try:
                proc.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                log.warning("process %s did not stop in time; killed", proc.pid)
                proc.kill()
                proc.wait()
        listener.close()
        for sig, handler in old.items():
            signal.signal(sig, handler)
    return 0


def _ended(code: int) -> str:
    if code < 0:
        try:
            return f"signal {signal.Signals(-code).name}"
        except ValueError:
            return f"signal {-code}"
    return f"status {code}"


def _wait_healthy(url: str, stopping: threading.Event, seconds: float = 60) -> bool:
    """Wait until ``url``'s ``/healthz`` answers (one of the processes is up)."""
    import urllib.request

    deadline = time.monotonic() + seconds
    while not stopping.is_set() and time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url + "healthz", timeout=2) as answer:
                if answer.status == 200:
                    return True
        except OSError:
            pass
        stopping.wait(0.2)
    return False


def listen_problem(host: str, port: int) -> str | None:
    """Why the server could not listen on ``host``:``port``, in words, or ``None`` when a
    trial bind works (it is closed again before uvicorn binds for real). Says which of these
    it is: a host name that does not resolve, an address that is not this machine's, a port
    in use, or one that needs privileges; any other error with its own words."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as e:
        return (f"cannot find the address of --host {host} ({e.strerror}); give an address of "
                "this machine such as 127.0.0.1 or 0.0.0.0 (every interface)")
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)   # as uvicorn does
        try:
            probe.bind(address)
        except OSError as e:
            if e.errno == errno.EADDRINUSE:
                return (f"port {port} is in use on {host} (another server, or president serve "
                        f"already running?); choose another with --port, e.g. --port {port + 1} "
                        f"(make play PORT={port + 1})")
            if e.errno == errno.EADDRNOTAVAIL:
                return (f"{host} is not an address of this machine; give one of its own "
                        "(127.0.0.1 for this machine only, 0.0.0.0 for every interface)")
            if e.errno == errno.EACCES:
                return (f"port {port} needs administrator rights; choose one from 1024 up, "
                        "e.g. --port 8000")
            return f"could not listen on {host}:{port}: {e.strerror}"
    return None
