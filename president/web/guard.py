"""What the web app refuses before a route sees a request, and the shape of every refusal.

- :class:`BodyLimit`: a request body over :data:`MAX_BODY_BYTES` gets 413 before it is
  parsed: at once from its ``Content-Length``, or, for a body without one (chunked), as soon
  as the bytes counted on arrival pass the limit; the rest is never read into memory.
- :class:`HostCheck`: Starlette's ``TrustedHostMiddleware`` (HTTP and websocket requests) with
  the hosts the server was started for (:func:`allowed_hosts_for`), its refusal in the JSON
  shape below. A DNS-rebinding page (``http://evil.example:8000/`` resolved to 127.0.0.1)
  sends ``Host: evil.example:8000`` and is refused.
- :func:`origin_allowed`: a browser's websocket must come from a page of this server: the
  hostname of its ``Origin`` is an allowed host and its port is the port of the ``Host``.
- :data:`SECURITY_HEADERS`: sent with every HTTP answer.
- :func:`refusal`: ``{"error": reason, "message": what was wrong and what would be right}``,
  the body of every HTTP refusal.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import os
import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Mapping
from urllib.parse import urlsplit

from starlette.datastructures import Headers, MutableHeaders
from starlette.exceptions import HTTPException
from pydantic import BaseModel, ValidationError
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..errors import shown_field
from .protocol import excerpt

__all__ = ["AnswerHeaders", "EarlyRefusal", "BodyLimit", "HostCheck", "SocketPath", "BodyTooLarge", "refusal", "allowed_hosts_for",
           "origin_allowed", "origin_refusal", "MAX_BODY_BYTES", "DRAIN_BYTES", "DRAIN_SECONDS", "LOCAL_HOSTS", "HOSTS_ENV", "SECURITY_HEADERS"]

MAX_BODY_BYTES = 16 * 1024
"""Largest HTTP request body, in bytes. ``POST /api/tables`` needs a few hundred (seven
24-character names at most)."""

DRAIN_BYTES = 64 * 1024 * 1024
"""Of a body refused as too large, the most bytes read and dropped before the 413 is sent
(so that its sender, still sending, reads the 413 instead of a connection reset); past it
the connection is closed with the rest unread."""
DRAIN_SECONDS = 5.0
"""The most seconds spent reading and dropping such a body."""

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
"""Names of this machine that every server answers to."""

HOSTS_ENV = "PRESIDENT_WEB_HOSTS"
"""Environment variable: more host names the server answers to, separated by commas."""

SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Permissions-Policy": ("accelerometer=(), autoplay=(), camera=(), display-capture=(), "
                           "geolocation=(), gyroscope=(), magnetometer=(), microphone=(), "
                           "midi=(), payment=(), publickey-credentials-get=(), usb=(), "
                           "xr-spatial-tracking=()"),
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}
"""Headers of every HTTP answer besides the Content-Security-Policy: no sniffing, no referrer,
no device or sensor, no window or resource shared with another origin."""


def refusal(status: int, reason: str, message: str,
            headers: Mapping[str, str] | None = None) -> JSONResponse:
    """An HTTP refusal in the documented shape ``{"error": reason, "message": message}``."""
    return JSONResponse({"error": reason, "message": message}, status_code=status,
                        headers=headers)


class AnswerHeaders:
    """Pure ASGI middleware: every HTTP answer (and every HTTP answer refusing a websocket
    upgrade) gets the ``Content-Security-Policy`` ``csp``, :data:`SECURITY_HEADERS`, and
    ``Cache-Control: no-cache`` for the page and its static files (``/`` and ``/static/...``),
    added to the answer's first message as it goes out.

    (It replaced a Starlette ``BaseHTTPMiddleware``, which runs every request in a task of its
    own with streams in between: during a flood of refused requests that cost more than the
    refusals themselves.)
    """

    def __init__(self, app: ASGIApp, csp: str) -> None:
        self.app = app
        self.csp = csp

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        cache = scope["type"] == "http" and (path == "/" or path.startswith("/static/"))

        async def with_headers(message: Message) -> None:
            # an HTTP answer, or the HTTP answer refusing a websocket upgrade
            if message["type"] in ("http.response.start", "websocket.http.response.start"):
                headers = MutableHeaders(scope=message)
                headers["Content-Security-Policy"] = self.csp
                for name, value in SECURITY_HEADERS.items():
                    headers[name] = value
                if cache:
                    headers["Cache-Control"] = "no-cache"
            await send(message)

        await self.app(scope, receive, with_headers)


class EarlyRefusal:
    """Pure ASGI middleware: ``refuse(scope)`` sees each HTTP request before its body is
    read or anything else runs, and may refuse it (it returns the answer, or ``None`` to let
    the request through). The server uses it to turn away an address past its
    table-making rate cheaply, however fast it asks.

    A refusal is sent after ``delay`` seconds or up to half as long again (a sleep: no CPU
    is spent waiting; random, so that a burst of refused requests is answered over half a
    second, not all in one moment), so a client that asks again as soon as it is answered
    can make at most one request a ``delay`` per connection: a flood
    over a few keep-alive connections no longer keeps the event loop busy answering it, and
    the other tables' players are not slowed.
    """

    def __init__(self, app: ASGIApp, refuse: Callable[[Scope], Response | None], *,
                 delay: float = 0.0) -> None:
        if not delay >= 0:
            raise ValueError(f"delay = {delay!r} must be 0 or more seconds")
        self.app = app
        self.refuse = refuse
        self.delay = delay

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            answer = self.refuse(scope)
            if answer is not None:
                if self.delay:
                    await asyncio.sleep(self.delay * random.uniform(1.0, 1.5))
                await answer(scope, receive, send)
                return
        await self.app(scope, receive, send)


class BodyTooLarge(HTTPException):
    """Raised by :class:`BodyLimit` while a route reads a body past the limit (an
    ``HTTPException``, so FastAPI passes it on to the app's handler instead of calling it a
    body it could not parse)."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"the request body is over {limit} bytes, the most this server "
                              "reads; every request of the game (a new table, a move to try, "
                              "a score sheet or a game record) is far smaller",
                         headers={"Connection": "close"})


async def _drain(receive: Receive, more: bool) -> None:
    """Read and drop the rest of a request body refused as too large, at most
    :data:`DRAIN_BYTES` and :data:`DRAIN_SECONDS` (nothing is kept: memory does not grow). A
    server that answers while its client is still sending, and then closes, makes the
    client's system reset the connection, and the client may never read the answer."""
    got = 0
    try:
        async with asyncio.timeout(DRAIN_SECONDS):
            while more and got < DRAIN_BYTES:
                message = await receive()
                if message["type"] != "http.request":   # the client went away
                    return
                got += len(message.get("body", b""))
                more = bool(message.get("more_body", False))
    except TimeoutError:
        return


def _too_large(limit: int) -> JSONResponse:
    e = BodyTooLarge(limit)
    return refusal(413, "too-large", e.detail, headers=e.headers)


class BodyLimit:
    """Pure ASGI middleware: HTTP request bodies of at most ``limit`` bytes.

    A ``Content-Length`` over the limit is answered 413 before the app runs. Otherwise the
    bytes are counted as the app receives them; past the limit the receive raises
    :class:`BodyTooLarge` (413), so a chunked body without a length is cut off there too.
    Before the 413 the rest of the body is read and dropped (at most :data:`DRAIN_BYTES`
    and :data:`DRAIN_SECONDS`), so that the sender reads the answer; the 413 says
    ``Connection: close``. The body of a GET or HEAD request (the page, a file: no route reads
    one), or one that passes the limit after the app has started its answer, is dropped the
    same way instead, and the answer goes on.
    """

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = Headers(scope=scope).get("content-length", "")
        if length.strip().isdigit() and int(length) > self.limit:
            await _drain(receive, True)
            await _too_large(self.limit)(scope, receive, send)
            return
        seen = 0
        started = False
        no_body = scope.get("method") in ("GET", "HEAD")     # no route of this app reads one

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    await _drain(receive, bool(message.get("more_body", False)))
                    if started or no_body:
                        # The answer may be on its way (a page or a file, which reads no
                        # body: Starlette only listens for the client leaving; compression
                        # holds the answer's start back): the body is dropped.
                        return {"type": "http.request", "body": b"", "more_body": False}
                    raise BodyTooLarge(self.limit)
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except BodyTooLarge:  # an app that let it through (not FastAPI's routes)
            if started:
                raise
            await _too_large(self.limit)(scope, receive, send)


def client_key(host: str | None) -> str | None:
    """The client a per-address limit counts (tables a minute, sockets waiting for a hello):
    an IPv4 address as it is; an IPv6 address by its /64 network, which one subscriber or
    machine usually holds whole (so it cannot escape a limit by taking a new address of
    it each time), and an IPv4-mapped one (``::ffff:a.b.c.d``) as its IPv4 address. Anything
    else (a Unix socket's name, ``None``) as it is.

    >>> client_key("192.0.2.7"), client_key("2001:db8:1:2:aa::5"), client_key("::ffff:192.0.2.7")
    ('192.0.2.7', '2001:db8:1:2::/64', '192.0.2.7')
    """
    if host is None or ":" not in host:
        return host
    try:
        address = ipaddress.IPv6Address(host.split("%", 1)[0])
    except ValueError:
        return host
    if address.ipv4_mapped is not None:
        return str(address.ipv4_mapped)
    if address.is_loopback:
        return str(address)
    return str(ipaddress.IPv6Network((address, 64), strict=False))


def _bare(host: str) -> str:
    """A host name or address, lower case, without IPv6 brackets."""
    return host.strip().lower().removeprefix("[").removesuffix("]")


def _as_host_header(host: str) -> str:
    """A host as it appears in a ``Host`` header: IPv6 addresses in brackets."""
    bare = _bare(host)
    try:
        if isinstance(ipaddress.ip_address(bare), ipaddress.IPv6Address):
            return f"[{bare}]"
    except ValueError:
        pass
    return bare


def allowed_hosts_for(host: str | None = None, extra: Iterable[str] = ()) -> list[str]:
    """The hosts a server listening on ``host`` answers to: :data:`LOCAL_HOSTS`, ``host``
    itself, ``extra`` and the names in ``$PRESIDENT_WEB_HOSTS`` (comma-separated), each as a
    ``Host`` header writes it (``[::1]``) and bare (``::1``).

    A wildcard ``host`` (``0.0.0.0``, ``::``) adds no name: the addresses other machines use
    for this one are named in ``extra`` (``president serve --allow-host``) or the variable.

    >>> allowed_hosts_for("::1")
    ['127.0.0.1', 'localhost', '[::1]', '::1']
    >>> allowed_hosts_for("192.168.1.20", extra=["Game.Local"])[-2:]
    ['192.168.1.20', 'game.local']
    """
    names = [*LOCAL_HOSTS]
    if host and _bare(host) not in ("0.0.0.0", "::", ""):
        names.append(host)
    names.extend(extra)
    names.extend(n for n in os.environ.get(HOSTS_ENV, "").split(",") if n.strip())
    hosts: list[str] = []
    for name in names:
        for form in (_as_host_header(name), _bare(name)):
            if form not in hosts:
                hosts.append(form)
    return hosts


class _Refused:
    """The ``send`` of a request TrustedHostMiddleware refuses: its plain-text answer is
    replaced by the documented JSON refusal."""

    def __init__(self, scope: Scope, receive: Receive, send: Send, allowed: Sequence[str]) -> None:
        self.inner = send
        self.scope, self.receive = scope, receive
        self.allowed = allowed
        self.sent = False

    async def __call__(self, message: Message) -> None:
        if self.sent:
            return
        self.sent = True
        host = Headers(scope=self.scope).get("host", "")
        names = ", ".join(h for h in self.allowed if not (":" in h and not h.startswith("[")))
        response = refusal(400, "bad-host", f"this server does not answer to the host "
                           f"{excerpt(host)}; open it as one of: {names} (president serve "
                           "--allow-host NAME adds one)")
        await response(self.scope, self.receive, self.inner)


class HostCheck:
    """Starlette's ``TrustedHostMiddleware`` (HTTP and websocket scopes) with its refusal as
    ``400 {"error": "bad-host", "message": ...}`` (a websocket gets that as the HTTP answer to
    its upgrade request)."""

    def __init__(self, app: ASGIApp, allowed_hosts: Sequence[str]) -> None:
        self.app = app
        self.allowed = list(allowed_hosts)
        self._check = TrustedHostMiddleware(self._passed, allowed_hosts=self.allowed,
                                            www_redirect=False)

    async def _passed(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.app(scope, receive, send.inner if isinstance(send, _Refused) else send)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        await self._check(scope, receive, _Refused(scope, receive, send, self.allowed))


class SocketPath:
    """Pure ASGI middleware: a websocket upgrade to any path but ``path`` gets
    ``404 {"error": "not-found"}`` before routing (Starlette would answer a bare 403, and a
    mount such as ``/static`` would take it)."""

    def __init__(self, app: ASGIApp, path: str) -> None:
        self.app = app
        self.path = path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket" or scope.get("path") == self.path:
            await self.app(scope, receive, send)
            return
        response = refusal(404, "not-found", f"there is no websocket at "
                           f"{excerpt(scope.get('path', ''))}; the game's socket is {self.path}")
        await send({"type": "websocket.http.response.start", "status": response.status_code,
                    "headers": response.raw_headers})
        await send({"type": "websocket.http.response.body", "body": response.body})


def origin_refusal(origin: str | None, host: str | None, scheme: str,
                   allowed_hosts: Sequence[str], what: str) -> str:
    """The words of a ``bad-origin`` refusal: ``what`` is refused and why, and, when the
    origin would pass over https but the request came as plain http (a TLS proxy in front
    whose ``X-Forwarded-Proto`` the server does not trust), how to fix it.

    >>> hosts = allowed_hosts_for()
    >>> origin_refusal("https://localhost", "localhost", "http", hosts, "x").split(";")[1]
    ' the page is https but the request reached the server as plain http: behind a TLS proxy, start the server with --trusted-proxy ADDRESS of that proxy (docs/deploy.md)'
    """
    said = f"{what}; the origin {excerpt(origin)} is not one of its hosts"
    if origin is not None and origin.startswith("https://") and scheme in ("http", "ws") \
            and origin_allowed(origin, host, "https" if scheme == "http" else "wss",
                               allowed_hosts):
        said = (f"{what}; the page is https but the request reached the server as plain "
                "http: behind a TLS proxy, start the server with --trusted-proxy ADDRESS of "
                "that proxy (docs/deploy.md)")
    return said


def origin_allowed(origin: str | None, host: str | None, scheme: str,
                   allowed_hosts: Sequence[str]) -> bool:
    """Whether a websocket with this ``Origin`` header may join, or a request of another
    method than GET, HEAD and OPTIONS be answered: no ``Origin`` (not a browser: the seat
    tokens still guard every table), or an origin as a browser sends it (``http`` or
    ``https``, a host and maybe a port; no user, path, query or fragment) whose hostname is
    an allowed host and whose port is the port of the ``Host`` header (defaults by scheme).

    >>> hosts = allowed_hosts_for()
    >>> origin_allowed("http://localhost:8000", "127.0.0.1:8000", "ws", hosts)
    True
    >>> origin_allowed("http://evil.example:8000", "127.0.0.1:8000", "ws", hosts)
    False
    >>> origin_allowed("http://127.0.0.1:3000", "127.0.0.1:8000", "ws", hosts)
    False
    >>> origin_allowed("http://evil.example@127.0.0.1:8000", "127.0.0.1:8000", "ws", hosts)
    False
    """
    if origin is None:
        return True
    try:
        seen = urlsplit(origin)
        there = urlsplit("//" + (host or ""))
        origin_port = seen.port or {"http": 80, "https": 443}.get(seen.scheme)
        host_port = there.port or (443 if scheme in ("wss", "https") else 80)
    except ValueError:
        return False
    if seen.scheme not in ("http", "https") or not seen.hostname:
        return False
    if seen.username is not None or seen.password is not None or seen.path or seen.query \
            or seen.fragment or "?" in origin or "#" in origin:
        return False   # a browser's Origin is scheme://host[:port], nothing more
    return _bare(seen.hostname) in {_bare(h) for h in allowed_hosts} and origin_port == host_port


def read_json(raw: bytes, model: type[BaseModel] | None, example: str) -> Any:
    """A JSON request body read and checked by a route itself: ``model`` validated from it
    (or, without a model, any JSON object), or the refusal ``422 {"error": "bad-request",
    "message"}`` naming the first wrong field and ending with ``example``."""
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return refusal(422, "bad-request", f"the body is not JSON text in UTF-8; {example}")
    if model is None:
        if not isinstance(data, dict):
            return refusal(422, "bad-request", f"the body is not a JSON object; {example}")
        return data
    try:
        return model.model_validate(data)
    except ValidationError as e:
        errors = e.errors()
        first = errors[0] if errors else {"loc": (), "msg": "bad request"}
        where = ".".join(shown_field(p) for p in first.get("loc", ()))[:80] or "body"
        return refusal(422, "bad-request", f"{where}: "
                       f"{excerpt(first.get('msg'), 120)[1:-1]}; {example}")
