"""The ASGI app of the browser game (FastAPI; serve it with uvicorn).

Routes:

- ``GET /``: the page (``static/index.html``); ``/static/*``: its CSS and JS modules (no build
  step, nothing from another host).
- ``GET /api/options``: presets, their table sizes and twists (one line each), computer levels.
- ``POST /api/tables``: make a table (practice or match); answers its id and the seat token(s).
- ``GET /api/lessons``, ``GET /api/lessons/{id}``, ``POST /api/lessons/{id}/try``: the lessons
  of :mod:`president.lessons` (every hand face up) and the engine's answer to a move tried in one.
- ``POST /api/companion``, ``/api/companion/export``, ``/api/companion/import``: the table
  companion's score sheet, stateless (:mod:`president.web.companion`).
- ``WS /ws``: one socket per player; the message protocol is :mod:`president.web.protocol`
  (``docs/web.md``).

:func:`create_app` puts the parts together: the store and the tables
(:mod:`~president.web.tables`), with several processes their owners and what they share
(:mod:`~president.web.cluster`), the guards every request passes, the HTTP routes
(:mod:`~president.web.routes`), the websocket (:mod:`~president.web.sockets`) and the metrics.

Configuration (arguments of :func:`create_app`, else environment): ``PRESIDENT_BOT_DELAY``
(seconds between computer plays, 0 for tests), ``PRESIDENT_WEB_SECRET`` (seals saved matches;
else a key file), ``PRESIDENT_WEB_ALLOW_SEED=1`` (accept a chosen match seed: tests only),
``PRESIDENT_WEB_HOSTS`` (more host names to answer to, comma-separated).

Before a route sees a request, :mod:`president.web.guard` refuses a body over 16 KiB (413), a
``Host`` the server was not started for (400) and a websocket from another origin (403); every
HTTP refusal is ``{"error": reason, "message": ...}``.
"""

from __future__ import annotations

import hashlib
import logging
import os
import time
from contextlib import asynccontextmanager
from pathlib import Path
from collections.abc import AsyncIterator
from typing import Sequence

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import ClientDisconnect
from starlette.types import Scope

from ..errors import shown_field
from ..players import register_level
from . import guard
from . import limits
from . import protocol as P
from .cluster import REDIS_ENV, Cluster, check_redis
from .companion import add_routes as add_companion_routes
from .ledger import StoreError, default_state_dir
from .metrics import CountRefusals, Metrics, add_metrics_route
from .sealing import SECRET_FILE, Sealer, load_secret
from .store import TableOwners, open_stores, store_from_env
from .routes import READY_SECONDS, STATIC, NewTable, add_routes
from .sockets import (HELLO_SECONDS, MAX_BAD_HELLOS, MAX_BEFORE_HELLO,
                      MAX_WAITING_PER_ADDRESS, STOPPING_MESSAGE, STORE_ERROR_MESSAGE, Sockets)
from .thinker import Thinker
from .tables import (Tables, bot_delay_from_env,
                     known_levels)

__all__ = ["create_app", "NewTable", "STATIC", "WS_MAX_BYTES", "MAX_BAD_HELLOS", "MAX_BEFORE_HELLO",
           "REFUSAL_DELAY_SECONDS",
           "HELLO_SECONDS", "MAX_WAITING_PER_ADDRESS", "StoreError", "STOPPING_MESSAGE",
           "STORE_ERROR_MESSAGE", "READY_SECONDS"]

WS_MAX_BYTES = 1 << 20
"""Largest websocket message uvicorn takes (bytes; ``president serve``); a bigger one closes
the socket with code 1009 ("message too big") before the app sees it. Messages up to this
size but over :data:`~president.web.protocol.MAX_MESSAGE_CHARS` get a ``bad-message`` reply."""
GZIP_MINIMUM_BYTES = 500
"""HTTP bodies at least this long are gzip-compressed for a client that accepts gzip."""
REFUSAL_DELAY_SECONDS = 1.0
"""Seconds before an address past its table-making rate gets its 429 (``guard.EarlyRefusal``):
one refused request a second per connection, however fast the client asks again."""

log = logging.getLogger("president.web")

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
       "form-action 'self'")


def create_app(*, bot_delay: float | None = None, secret: bytes | None = None,
               allow_seed: bool | None = None, max_tables: int = 20_000,
               allowed_hosts: Sequence[str] | None = None,
               state_dir: str | os.PathLike[str] | None = None,
               workers: int | None = None, per_address: int | None = None,
               max_sockets_per_address: int = 2000,
               friend_url: str | None = None, extra_levels: Sequence[str] = (),
               refusal_delay: float = REFUSAL_DELAY_SECONDS,
               recover_records: bool = False,
               max_waiting_total: int = limits.MAX_WAITING_TOTAL,
               handshakes_per_second: float | None = None,
               hellos_per_second: float | None = None,
               tables_per_minute: float | None = None,
               store: str | None = None, metrics_from: Sequence[str] = (),
               shared_store: bool = False, redis: str | None = None) -> FastAPI:
    """The browser game as an ASGI app.

    Args:
        bot_delay: seconds between computer actions (default ``$PRESIDENT_BOT_DELAY`` or 0.8).
        secret: key that seals saved matches (default :func:`~president.web.sealing.load_secret`
            with the key file ``web-secret`` in ``state_dir``).
        allow_seed: accept ``seed`` in ``POST /api/tables`` (default
            ``$PRESIDENT_WEB_ALLOW_SEED == "1"``); never on a shared server.
        max_tables: the most tables held at once.
        state_dir: directory of the key file and of the ledger of saved-match versions
            (:class:`~president.web.ledger.Ledger`, file ``web-saved-matches.sqlite3``) that
            refuses an old saved match after a restart; default
            :func:`~president.web.ledger.default_state_dir`.
        allowed_hosts: the ``Host`` names the server answers to (HTTP and websocket) and the
            only hostnames a websocket's ``Origin`` may have; default
            :func:`~president.web.guard.allowed_hosts_for` with no host: 127.0.0.1,
            localhost, [::1] and ``$PRESIDENT_WEB_HOSTS`` (``president serve`` passes its
            ``--host`` and ``--allow-host`` names).
        workers: processes slow computer players think in (default: one fewer than the
            cores, at least one; :func:`~president.web.thinker.default_workers`).
        per_address: the most new tables one client address may make a minute (default
            ``$PRESIDENT_WEB_TABLES_PER_MINUTE`` or 30; 0 for no limit, benchmarks only).
        max_sockets_per_address: the most websockets one client address may hold open
            (of which at most :data:`MAX_WAITING_PER_ADDRESS` not yet joined to a table).
        friend_url: the address friends on other devices open (``president serve --host
            0.0.0.0`` passes this machine's network address), given to the page in
            ``/api/options`` so a host on a loopback address is sent there; ``None``: the server
            listens on this machine only.
        extra_levels: your own computer players by import path (``"package.module:Class"``,
            :func:`president.players.register_level`), offered beside the built-in levels
            (``president serve --level``). Only the server's owner names them; the page can
            ask for an import path only if it is listed here. They think in the worker
            processes, like the slow built-in levels.
        refusal_delay: seconds before a request refused for the table-making rate gets its
            429 (:data:`REFUSAL_DELAY_SECONDS`; 0 answers at once), so a flood of them
            costs the server one answer a second per connection.
        recover_records: rebuild a match from a page's saved copy even when the server has
            no history of it (after its store and ledger were lost;
            :class:`~president.web.tables.Tables` ``recover_records``; ``president serve
            --recover-saved-matches``; docs/web.md, "Backups and recovery").
        max_waiting_total, handshakes_per_second, hellos_per_second, tables_per_minute: the
            limits of the whole server (:mod:`president.web.limits`; a rate of 0: none).
            The rates default to :mod:`~president.web.limits`'s, or to none with
            ``$PRESIDENT_WEB_SERVER_RATES=0`` (load benchmarks, whose one client makes
            hundreds of tables and sockets at once).
        store: where the tables and the saved-match versions are kept
            (:func:`~president.web.store.open_stores`): ``None`` for ``$PRESIDENT_STORE``, and
            without it the SQLite files of ``state_dir``; ``postgresql://user:password@host:
            port/database`` for PostgreSQL (``president serve --store``; docs/web.md, "The
            store: SQLite or PostgreSQL").
        metrics_from: addresses or networks besides this machine's loopback allowed to read
            ``GET /metrics`` (:mod:`president.web.metrics`; ``president serve --metrics-from``).
        shared_store: several processes share the PostgreSQL ``store``, each table owned by
            one of them at a time (a PostgreSQL advisory lock per table:
            :class:`~president.web.store_pg.PgOwners`); a hello for a table another process
            owns gets ``elsewhere`` and the socket is closed with 1013 (``president serve
            --shared-store``; docs/web.md, "Several processes").
            Default ``False``: a second server on the same store is refused.
        redis: with ``shared_store``, the Redis the processes share
            (``redis://host:port/db``; default ``$PRESIDENT_REDIS``;
            :class:`~president.web.cluster.Cluster`): per-address limits counted across the
            processes, and a page whose table another process owns relayed to it instead of
            ``elsewhere`` (docs/web.md, "Several processes").

    Raises:
        StoreError: the state folder's store or ledger cannot be kept (read-only, damaged,
            truncated, of a newer version; a PostgreSQL store unreachable, refusing the login,
            read-only or newer): the message names the file or the address (never its
            password), the problem and what to do. The server never runs on memory in their place.
        ValueError: for a bad ``$PRESIDENT_BOT_DELAY``, a negative ``refusal_delay``, or an
            ``extra_levels`` entry that does not load (saying why, see
            :func:`president.players.load_class`).
    """
    for path in extra_levels:
        register_level(path)
    if extra_levels:
        known_levels.cache_clear()
    if bot_delay is None:
        bot_delay = bot_delay_from_env()
    if allow_seed is None:
        allow_seed = os.environ.get("PRESIDENT_WEB_ALLOW_SEED") == "1"
    hosts = list(allowed_hosts) if allowed_hosts is not None else guard.allowed_hosts_for()
    state = Path(state_dir) if state_dir is not None else default_state_dir()
    if secret is None:
        secret = load_secret(state / SECRET_FILE if state_dir is not None else None)
    if per_address is None:
        per_address = int(os.environ.get("PRESIDENT_WEB_TABLES_PER_MINUTE") or 30)
    address = store if store is not None else store_from_env()
    table_store, ledger = open_stores(address, state, shared=shared_store)
    owners: TableOwners | None = None
    if shared_store:
        from .store_pg import PgOwners
        try:
            owners = PgOwners(str(address))
        except BaseException:
            ledger.close()
            table_store.close()
            raise
    cluster: Cluster | None = None
    redis = redis if redis is not None else os.environ.get(REDIS_ENV) or None
    if redis and owners is not None:
        try:
            check_redis(redis)
        except BaseException:
            owners.close()
            ledger.close()
            table_store.close()
            raise
        cluster = Cluster(redis, owners, namespace=hashlib.sha256(
            repr(ledger.created).encode()).hexdigest()[:12])
    rated = os.environ.get("PRESIDENT_WEB_SERVER_RATES") != "0"

    def rate(given: float | None, default: float) -> float:
        return given if given is not None else default if rated else 0.0
    tables = Tables(sealer=Sealer(secret), bot_delay=bot_delay, allow_seed=allow_seed,
                    max_tables=max_tables, ledger=ledger, store=table_store,
                    thinker=Thinker(workers), per_address=per_address,
                    recover_records=recover_records,
                    tables_per_minute=rate(tables_per_minute, limits.TABLES_PER_MINUTE),
                    owners=owners)
    handshakes = limits.Rate(rate(handshakes_per_second, limits.HANDSHAKES_PER_SECOND),
                             limits.HANDSHAKE_BURST)
    cooldown = limits.Cooldown()
    hellos = limits.Rate(rate(hellos_per_second, limits.HELLOS_PER_SECOND), limits.HELLO_BURST)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if cluster is not None:
            await cluster.start()
        yield
        started = time.monotonic()
        if cluster is not None:
            await cluster.stop()    # relayed pages told to reconnect, before the tables go
        tables.close_all()      # after the store's pending writes (GroupCommit.close)
        if owners is not None:
            owners.close()      # every table given back, once its writes are kept
        ledger.close()
        table_store.close()
        if app.state.stopping:
            log.info("stopped: the store's pending writes were finished in %.3f s",
                     time.monotonic() - started,
                     extra={"seconds": round(time.monotonic() - started, 3)})

    app = FastAPI(title="President", lifespan=lifespan, docs_url=None, redoc_url=None,
                  openapi_url=None)
    # "/api/tables/" is not a route: 404 in the documented shape, not a bare redirect
    app.router.redirect_slashes = False
    app.state.tables = tables
    app.state.stopping = False
    """Set by ``president serve`` when it is told to stop (a signal): only then is a socket
    closed with code 1012 ("service restart") the server going away."""
    app.state.allowed_hosts = hosts
    app.state.upgrade_ready = handshakes.ready
    app.state.cooldown = cooldown
    """Addresses lately refused as busy (:class:`~president.web.limits.Cooldown`): ``president
    serve`` refuses their new connections before reading them."""
    """Whether the server takes a new websocket now (its rate for the whole server): ``president
    serve``'s HTTP protocol refuses an upgrade past it before any work is done for it."""

    # Compression sits inside the headers middleware below (added first, so innermost): it sees
    # each answer whole, as the routes send it, so it can leave bodies under
    # GZIP_MINIMUM_BYTES and HEAD answers as they are and keep Content-Length; it compresses
    # the page, app.js, style.css and JSON answers when the request accepts gzip, and passes
    # websockets through. (Outside it, it would get the headers middleware's streamed body
    # and compress even a 100-byte answer, chunked.)
    app.add_middleware(GZipMiddleware, minimum_size=GZIP_MINIMUM_BYTES, compresslevel=6)
    # Outside compression and inside the headers middleware (so refusals carry the headers
    # too): bodies over 16 KiB get 413 before they are read (guard.BodyLimit), then a Host
    # the server was not started for gets 400 (guard.HostCheck, websockets included).
    app.add_middleware(guard.BodyLimit, limit=guard.MAX_BODY_BYTES)

    def over_rate(scope: Scope) -> Response | None:
        """An address past its table-making rate gets its 429 here, before its body is read
        or validated (a flood of such requests then costs the server little)."""
        if scope["method"] != "POST" or scope["path"] not in ("/api/tables", "/api/play-now"):
            return None
        client = scope.get("client")
        key = guard.client_key(client[0]) if client else None
        why = tables.busy(key)
        if why is None:
            return None
        cooldown.refused(key)
        return guard.refusal(429, "busy", why)

    app.add_middleware(guard.EarlyRefusal, refuse=over_rate, delay=refusal_delay)

    def while_stopping(scope: Scope) -> Response | None:
        """While the server stops (a signal: ``app.state.stopping``), a new table gets
        ``503 stopping``: its page asks again, of this server once back or of another."""
        if (app.state.stopping and scope["method"] == "POST"
                and scope["path"] in ("/api/tables", "/api/play-now")):
            return guard.refusal(503, "stopping", STOPPING_MESSAGE)
        return None

    app.add_middleware(guard.EarlyRefusal, refuse=while_stopping)

    def cross_site(scope: Scope) -> Response | None:
        """A request that changes or computes something (any method but GET, HEAD and
        OPTIONS) sent by a page of another site gets 403 ``bad-origin``: a browser names the
        page's origin on every such request, and a page elsewhere could otherwise make a
        player's browser post here (an attack kept a game slow that way through the score
        sheet's route). Clients that send no ``Origin`` (not a browser) are let through, as
        for the websocket."""
        if scope["method"] in ("GET", "HEAD", "OPTIONS"):
            return None
        origins, host = [], None
        for name, value in scope["headers"]:
            if name == b"origin":
                origins.append(value.decode("latin-1"))
            elif name == b"host":
                host = value.decode("latin-1")
        origin = origins[0] if origins else None
        if len(origins) < 2 and guard.origin_allowed(origin, host, scope.get("scheme", "http"),
                                                     hosts):
            return None     # (a browser sends one Origin; two are refused whatever they say)
        return guard.refusal(403, "bad-origin", guard.origin_refusal(
            origin, host, scope.get("scheme", "http"), hosts,
            "this server takes requests only from its own page"))

    app.add_middleware(guard.EarlyRefusal, refuse=cross_site)

    def odd_static_path(scope: Scope) -> Response | None:
        """A file's path with a trailing or doubled slash ("/static/app.js/") is not a file:
        404 ``not-found`` (StaticFiles would serve the file under any such spelling)."""
        path = scope["path"]
        if path.startswith("/static/") and (path.endswith("/") or "//" in path
                                             or path.endswith("/.")):
            return guard.refusal(404, "not-found", f"there is nothing at {P.excerpt(path)}")
        return None

    app.add_middleware(guard.EarlyRefusal, refuse=odd_static_path)
    app.add_middleware(guard.SocketPath, path="/ws")
    app.add_middleware(guard.HostCheck, allowed_hosts=hosts)
    # Outermost: every answer, refusals included, carries the page's security headers.
    app.add_middleware(guard.AnswerHeaders, csp=CSP)

    @app.exception_handler(ClientDisconnect)
    async def client_left(request: Request, exc: ClientDisconnect) -> Response:
        # The client went away while its body was read (a broken chunk, the request timer,
        # a closed socket): nobody is left to answer, and it is no server error to log.
        return Response(status_code=400)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        first = errors[0] if errors else {"loc": (), "msg": "bad request"}
        where = ".".join(shown_field(p) for p in first.get("loc", ())[1:])[:80] or "body"
        return guard.refusal(422, "bad-request", f"{where}: "
                             f"{P.excerpt(first.get('msg'), 120)[1:-1]}; send JSON such as "
                             '{"kind": "match", "preset": "house", "players": 4}')

    @app.exception_handler(StarletteHTTPException)
    async def refused(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        """Every other HTTP refusal in the documented shape: a body that is not UTF-8 JSON or
        nests too deeply (FastAPI's 400; 422 here, as for any body that is not JSON), an
        unknown page (404), a wrong method (405), a body over the limit (413)."""
        status, message = exc.status_code, str(exc.detail)
        if status == 400 and message == "There was an error parsing the body":
            status, message = 422, ("the body is not JSON text in UTF-8, or nests too deeply; "
                                    'send JSON such as {"kind": "match", "preset": "house", '
                                    '"players": 4}')
        elif status == 404:
            message = f"nothing here at {P.excerpt(request.url.path)}; the game is at /"
        elif status == 405:
            message = f"{P.excerpt(request.method)[1:-1]} is not allowed here"
        reason = {404: "not-found", 405: "method-not-allowed", 413: "too-large",
                  422: "bad-request"}.get(status, "bad-request" if status < 500 else "server-error")
        return guard.refusal(status, reason, message,
                             headers=dict(exc.headers) if exc.headers else None)

    add_routes(app, tables=tables, table_store=table_store, ledger=ledger, cluster=cluster,
               friend_url=friend_url)     # president.web.routes
    add_companion_routes(app)    # POST /api/companion, /export, /import (president.web.companion)

    metrics = Metrics(tables_in_memory=lambda: tables.in_memory, tables_kept=lambda: len(tables),
                      sockets_open=lambda: sockets.open_total,
                      sockets_waiting=lambda: sockets.waiting_total)
    app.state.metrics = metrics
    add_metrics_route(app, metrics, metrics_from)       # GET /metrics (president.web.metrics)
    sockets = Sockets(tables=tables, hosts=hosts, metrics=metrics,
                      is_stopping=lambda: bool(app.state.stopping),
                      max_sockets_per_address=max_sockets_per_address,
                      max_waiting_total=max_waiting_total, handshakes=handshakes, hellos=hellos,
                      cooldown=cooldown, cluster=cluster)
    if cluster is not None:
        cluster.sockets = sockets
    app.state.sockets = sockets
    app.add_middleware(CountRefusals, metrics=metrics)  # outermost: sees every refusal go out

    @app.websocket("/ws")
    async def socket(ws: WebSocket) -> None:
        await sockets.serve(ws)     # president.web.sockets

    return app
