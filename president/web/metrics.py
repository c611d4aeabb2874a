"""The server's figures for Prometheus at ``GET /metrics`` (docs/web.md, "Operating the
server").

Each app has a :class:`Metrics` of its own (its own ``prometheus_client`` registry, not the
library's global one, so several apps in one process, as in the tests, never clash):

- gauges read when scraped: tables in memory, tables kept (the store), open websockets,
  websockets not yet joined to a table;
- ``president_actions_total`` and the histogram ``president_action_seconds``: each human
  action the server accepted (it entered the table's log), and the seconds from receiving
  it to its result sent to the table's pages (the store's write included);
- ``president_http_refusals_total{status, reason}``: every refusal in the documented shape
  ``{"error": reason, "message": ...}`` (counted by :class:`CountRefusals` as it goes out,
  and by ``president serve``'s own protocols for the ones made before the app sees a
  request), websocket upgrades refused with an HTTP answer included;
- ``president_socket_errors_total{reason}``: every ``error`` message sent on a websocket
  (failed hellos, ``busy``, ``bad-message``, illegal moves, ...).

``/metrics`` answers only clients on this machine's loopback addresses and the addresses or
networks given as ``metrics_from`` (``president serve --metrics-from``); any other client
gets ``403 {"error": "not-allowed"}``. Without the ``prometheus-client`` package (an install
older than the ``web`` extra that brings it) the figures are not kept and ``/metrics``
answers ``404 {"error": "metrics-unavailable"}`` saying what to install.
"""

from __future__ import annotations

import ipaddress
import zlib
from typing import Any, Callable, Iterable

import orjson
from fastapi import FastAPI, Request
from fastapi.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from . import guard

__all__ = ["Metrics", "CountRefusals", "add_metrics_route", "metrics_allowed",
           "ACTION_BUCKETS", "METRICS_PATH"]

METRICS_PATH = "/metrics"
ACTION_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
"""Upper bounds (seconds) of the action-latency histogram's buckets."""
_MAX_REASON_CHARS = 40


class Metrics:
    """The figures of one app.

    Args:
        tables_in_memory, tables_kept, sockets_open, sockets_waiting: functions read at each
            scrape (no work is done for the gauges between scrapes).
    """

    def __init__(self, *, tables_in_memory: Callable[[], int], tables_kept: Callable[[], int],
                 sockets_open: Callable[[], int], sockets_waiting: Callable[[], int]) -> None:
        try:
            from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
        except ModuleNotFoundError:
            self.available = False
            return
        self.available = True
        self.registry = CollectorRegistry()
        for name, text, read in (
                ("president_tables_in_memory", "Tables held in memory (in use, or new).",
                 tables_in_memory),
                ("president_tables_kept", "Tables kept by the server (in its store).",
                 tables_kept),
                ("president_sockets_open", "Open websockets.", sockets_open),
                ("president_sockets_waiting", "Open websockets not yet joined to a table.",
                 sockets_waiting)):
            Gauge(name, text, registry=self.registry).set_function(read)
        self._actions = Counter("president_actions", "Human actions accepted (entered a "
                                "table's log).", registry=self.registry)
        self._seconds = Histogram("president_action_seconds", "Seconds from receiving a "
                                  "human action to its result sent to the table's pages.",
                                  buckets=ACTION_BUCKETS, registry=self.registry)
        self._refusals = Counter("president_http_refusals", "HTTP refusals sent (websocket "
                                 "upgrades refused included), by status and reason.",
                                 ["status", "reason"], registry=self.registry)
        self._errors = Counter("president_socket_errors", "Error messages sent on "
                               "websockets, by reason.", ["reason"], registry=self.registry)

    def acted(self, seconds: float) -> None:
        """A human action accepted, its result sent ``seconds`` after it was received."""
        if self.available:
            self._actions.inc()
            self._seconds.observe(seconds)

    def refused(self, status: int, reason: str) -> None:
        """An HTTP refusal sent (``status``, its ``error`` reason)."""
        if self.available:
            self._refusals.labels(str(status), reason[:_MAX_REASON_CHARS]).inc()

    def socket_error(self, reason: Any) -> None:
        """An ``error`` message sent on a websocket."""
        if self.available:
            self._errors.labels(str(reason)[:_MAX_REASON_CHARS]).inc()

    def render(self) -> bytes:
        """The figures in Prometheus' text format."""
        from prometheus_client import generate_latest
        return bytes(generate_latest(self.registry))


def _reason(body: bytes, gzipped: bool) -> str:
    """The ``error`` of a refusal's body (``"?"`` if it has none)."""
    try:
        if gzipped:
            body = zlib.decompress(body, 16 + zlib.MAX_WBITS)
        reason = orjson.loads(body).get("error")
    except Exception:
        return "?"
    return reason if isinstance(reason, str) else "?"


class CountRefusals:
    """Pure ASGI middleware (the outermost): counts each answer of status 400 or more that
    goes out, by status and the ``error`` of its body (:meth:`Metrics.refused`). Other
    answers and websocket messages pass with a comparison or two."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan" or not self.metrics.available:
            await self.app(scope, receive, send)
            return
        status = 0
        gzipped = False

        async def watched(message: Message) -> None:
            nonlocal status, gzipped
            kind = message["type"]
            if kind in ("http.response.start", "websocket.http.response.start"):
                status = message["status"]
                if status >= 400:
                    gzipped = any(k.lower() == b"content-encoding" and b"gzip" in v.lower()
                                  for k, v in message.get("headers", ()))
            elif status >= 400 and kind in ("http.response.body", "websocket.http.response.body"):
                self.metrics.refused(status, _reason(message.get("body", b""), gzipped))
                status = 0
            await send(message)

        await self.app(scope, receive, watched)


def _networks(addresses: Iterable[str]) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    """``--metrics-from`` values as networks (an address is a network of one).

    Raises:
        ValueError: for a value that is neither, naming it.
    """
    out = []
    for text in addresses:
        try:
            out.append(ipaddress.ip_network(text.strip(), strict=False))
        except ValueError:
            raise ValueError(f"--metrics-from {text!r} is not an address or network (give e.g. "
                             "10.0.0.5 or 10.0.0.0/24)") from None
    return out


def metrics_allowed(host: str | None, networks: Iterable[ipaddress.IPv4Network |
                                                         ipaddress.IPv6Network] = ()) -> bool:
    """Whether a client at ``host`` may read ``/metrics``: a loopback address (IPv4-mapped
    included), or one in ``networks``.

    >>> metrics_allowed("127.0.0.1"), metrics_allowed("::1"), metrics_allowed("203.0.113.5")
    (True, True, False)
    >>> metrics_allowed("10.0.0.7", _networks(["10.0.0.0/24"]))
    True
    """
    if host is None:
        return False
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_loopback or any(address in net for net in networks)


def add_metrics_route(app: FastAPI, metrics: Metrics, metrics_from: Iterable[str] = ()) -> None:
    """``GET /metrics`` on ``app``.

    Raises:
        ValueError: for a ``metrics_from`` value that is not an address or network.
    """
    networks = _networks(metrics_from)

    @app.get(METRICS_PATH, include_in_schema=False)
    async def metrics_page(request: Request) -> Response:
        if not metrics_allowed(request.client.host if request.client else None, networks):
            return guard.refusal(403, "not-allowed", "the server's metrics are served only to "
                                 "this machine (loopback) and the addresses its operator names "
                                 "with --metrics-from")
        if not metrics.available:
            return guard.refusal(404, "metrics-unavailable", "this server keeps no metrics: "
                                 "the prometheus-client package is not installed (pip install "
                                 "'president-game[web]')")
        return Response(metrics.render(),
                        media_type="text/plain; version=0.0.4; charset=utf-8")
