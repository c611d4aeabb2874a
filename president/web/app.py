"""The ASGI app of the browser game (FastAPI; serve it with uvicorn).

Routes:

- ``GET /``: the page (``static/index.html``); ``/static/*``: its CSS and JS modules (no build
  step, nothing from another host).
- ``GET /api/options``: presets, their table sizes and twists (one line each), computer levels.
- ``POST /api/tables``: make a table (practice or match); answers its id and the seat token(s).
- ``WS /ws``: one socket per player; the message protocol is :mod:`president.web.protocol`
  (``docs/web.md``).

Configuration (arguments of :func:`create_app`, else environment): ``PRESIDENT_BOT_DELAY``
(seconds between computer plays, 0 for tests), ``PRESIDENT_WEB_SECRET`` (seals saved matches;
else a key file), ``PRESIDENT_WEB_ALLOW_SEED=1`` (accept a chosen match seed: tests only).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.middleware.gzip import GZipMiddleware
from starlette.websockets import WebSocketDisconnect, WebSocketState

from ..rules import OPTION_HELP, PRESETS, TWISTS, Rules, describe_items
from . import protocol as P
from .ledger import LEDGER_FILE, Ledger, default_state_dir
from .sealing import SECRET_FILE, Sealer, load_secret
from .store import TABLES_FILE, TableStore
from .thinker import Thinker
from .tables import (DEFAULT_HINT_LEVEL, DEFAULT_NAMES, HUMAN, MATCH_PRESETS, PRACTICE_NAMES,
                     TableError, Tables, bot_delay_from_env, known_levels)

__all__ = ["create_app", "NewTable", "STATIC", "WS_MAX_BYTES", "MAX_BAD_HELLOS"]

WS_MAX_BYTES = 1 << 20
"""Largest websocket message uvicorn takes (bytes; ``president serve``); a bigger one closes
the socket with code 1009 ("message too big") before the app sees it. Messages up to this
size but over :data:`~president.web.protocol.MAX_MESSAGE_CHARS` get a ``bad-message`` reply."""
GZIP_MINIMUM_BYTES = 500
"""HTTP bodies at least this long are gzip-compressed for a client that accepts gzip."""
MAX_BAD_HELLOS = 5
"""Failed ``hello`` messages (unknown table or seat, or a saved match that cannot be restored)
after which the server closes the socket."""

STATIC = Path(__file__).parent / "static"
log = logging.getLogger("president.web")

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
       "form-action 'self'")
_Name = Annotated[str, Field(max_length=24)]


class NewTable(BaseModel):
    """Body of ``POST /api/tables``.

    ``kind="practice"``: seed 003's round (the other fields are ignored). ``kind="match"``:
    ``preset`` (a name in :data:`president.rules.PRESETS` other than ``practice``, which is
    the practice round's), ``twists`` (names in
    ``TWISTS[preset]``), ``players`` (the preset's range), ``names`` and ``levels`` by seat
    (seat 0 is you and must be ``"human"``; another ``"human"`` gets its own seat link; no two
    names alike, ignoring case and spaces),
    ``seed`` only when the server allows it (tests).
    """

    model_config = ConfigDict(extra="forbid")
    kind: Literal["practice", "match"]
    preset: Annotated[str, Field(max_length=32)] = "house"
    twists: Annotated[list[Annotated[str, Field(max_length=40)]], Field(max_length=6)] = []
    players: Annotated[int, Field(ge=3, le=7)] | None = None
    names: Annotated[list[_Name], Field(max_length=7)] | None = None
    levels: Annotated[list[Annotated[str, Field(max_length=24)]], Field(max_length=7)] | None = None
    seed: Annotated[int, Field(ge=0, lt=2**32)] | None = None


class _Socket:
    """A websocket as a :class:`~president.web.tables.Connection` (sends one at a time)."""

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self._lock = asyncio.Lock()

    async def send(self, message: dict[str, Any]) -> None:
        async with self._lock:
            if self.ws.application_state == WebSocketState.CONNECTED:
                await self.ws.send_text(json.dumps(message, separators=(",", ":")))


def _same_origin(ws: WebSocket) -> bool:
    origin = ws.headers.get("origin")
    if not origin:  # not a browser (tests, tools): the tokens still guard every table
        return True
    return urlsplit(origin).netloc == ws.headers.get("host", "")


def _rule_lines(preset: str) -> list[dict[str, str]]:
    """The preset's options in plain words for the start screen: ``[{"option", "label",
    "text", "help"}]`` (:func:`~president.rules.describe_items` without the table size, which
    the form picks, and :data:`~president.rules.OPTION_HELP` behind each "?")."""
    return [{"option": option, "label": label, "text": text, "help": OPTION_HELP[option]}
            for option, label, text in describe_items(Rules.preset(preset)) if option != "players"]


def _twist_help(preset: str, twist: str) -> str:
    """What a twist changes, in plain words: each option it sets, as the rules list says it,
    with that option's help text."""
    rules = Rules.preset(preset, twists=[twist])
    changed = TWISTS[preset][twist][1]
    return " ".join(f"{label}: {text}. {OPTION_HELP[option]}"
                    for option, label, text in describe_items(rules) if option in changed)


def create_app(*, bot_delay: float | None = None, secret: bytes | None = None,
               allow_seed: bool | None = None, max_tables: int = 20_000,
               state_dir: str | os.PathLike[str] | None = None,
               workers: int | None = None, per_address: int = 30) -> FastAPI:
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

    Raises:
        ValueError: for a bad ``$PRESIDENT_BOT_DELAY``.
    """
    if bot_delay is None:
        bot_delay = bot_delay_from_env()
    if allow_seed is None:
        allow_seed = os.environ.get("PRESIDENT_WEB_ALLOW_SEED") == "1"
    state = Path(state_dir) if state_dir is not None else default_state_dir()
    if secret is None:
        secret = load_secret(state / SECRET_FILE if state_dir is not None else None)
    ledger = Ledger(state / LEDGER_FILE)
    store = TableStore(state / TABLES_FILE)
    tables = Tables(sealer=Sealer(secret), bot_delay=bot_delay, allow_seed=allow_seed,
                    max_tables=max_tables, ledger=ledger, store=store,
                    thinker=Thinker(workers), per_address=per_address)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        yield
        tables.close_all()
        ledger.close()
        store.close()

    app = FastAPI(title="President", lifespan=lifespan, docs_url=None, redoc_url=None,
                  openapi_url=None)
    app.state.tables = tables

    # Compression sits inside the headers middleware below (added first, so innermost): it sees
    # each answer whole, as the routes send it, so it can leave bodies under
    # GZIP_MINIMUM_BYTES and HEAD answers as they are and keep Content-Length; it compresses
    # the page, app.js, style.css and JSON answers when the request accepts gzip, and passes
    # websockets through. (Outside it, it would get the headers middleware's streamed body
    # and compress even a 100-byte answer, chunked.)
    app.add_middleware(GZipMiddleware, minimum_size=GZIP_MINIMUM_BYTES, compresslevel=6)

    @app.middleware("http")
    async def headers(request: Request, call_next):
        response = await call_next(request)
        response.headers["Content-Security-Policy"] = CSP
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        if request.url.path == "/" or request.url.path.startswith("/static/"):
            response.headers["Cache-Control"] = "no-cache"
        return response

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        first = errors[0] if errors else {"loc": (), "msg": "bad request"}
        where = ".".join(str(p) for p in first.get("loc", ())[1:]) or "body"
        return JSONResponse(status_code=422, content={
            "error": "bad-request",
            "message": f"{where}: {first.get('msg')}; send JSON such as "
                       '{"kind": "match", "preset": "house", "players": 4}'})

    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/api/options")
    async def options() -> dict[str, Any]:
        """Presets (table sizes, twists with a one-line explanation), computer levels and
        default names, for the start screen."""
        return {
            "presets": [{"name": name, "min_players": lo, "max_players": hi,
                         "twists": [{"name": t, "text": text, "help": _twist_help(name, t)}
                                    for t, (text, _) in TWISTS[name].items()],
                         "rules": _rule_lines(name)}
                        for name, (lo, hi, _) in PRESETS.items() if name in MATCH_PRESETS],
            "levels": list(known_levels()),
            "default_level": "simple",
            "hint_levels": list(known_levels()),
            "default_hint_level": DEFAULT_HINT_LEVEL,
            "names": list(DEFAULT_NAMES),
            "practice": {"names": list(PRACTICE_NAMES), "level": "simple"},
            "bot_delay": tables.bot_delay,
        }

    @app.post("/api/tables")
    async def new_table(body: NewTable, request: Request) -> JSONResponse:
        """Make a table; answer ``{"table", "player", "token", "invites"}``."""
        try:
            table = tables.create(kind=body.kind, preset=body.preset, twists=body.twists,
                                  players=body.players, names=body.names, levels=body.levels,
                                  seed=body.seed,
                                  client=request.client.host if request.client else None)
        except TableError as e:
            status = {"full": 503, "busy": 429}.get(e.reason, 400)
            return JSONResponse(status_code=status, content={"error": e.reason, "message": e.message})
        invites = [{"player": p, "name": table.names[p], "token": h.token}
                   for p, h in table.humans.items() if p != 0]
        return JSONResponse({"table": table.id, "player": 0, "token": table.humans[0].token,
                             "kind": table.kind, "invites": invites})

    @app.websocket("/ws")
    async def socket(ws: WebSocket) -> None:
        if not _same_origin(ws):
            await ws.close(code=1008)
            return
        await ws.accept()
        conn = _Socket(ws)
        table = None
        player = -1
        bad_hellos = 0
        closed_code = None
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    closed_code = message.get("code")
                    break
                raw = message.get("text")
                if raw is None:
                    raw = message.get("bytes") or b""
                try:
                    msg = P.parse_client(raw)
                except P.MessageError as e:
                    await conn.send(P.error_message("bad-message", e.message))
                    continue
                if table is None:
                    if not isinstance(msg, P.Hello):
                        await conn.send(P.error_message(
                            "bad-message", 'join a table first: {"type": "hello", "table": ..., "token": ...}'))
                        continue
                    found = tables.get(msg.table)
                    if found is None and msg.snapshot:
                        try:
                            found = tables.restore(msg.snapshot)
                        except TableError as e:
                            bad_hellos += 1
                            await conn.send(P.error_message(e.reason, e.message))
                            if bad_hellos >= MAX_BAD_HELLOS:
                                break
                            continue
                        if found.id != msg.table:
                            found = None
                    who = found.player_for(msg.token) if found is not None else None
                    if found is None or who is None:
                        bad_hellos += 1
                        await conn.send(P.error_message(
                            "unknown-table", "this server has no such table or seat (it may have "
                            "ended or the server restarted); start a new game"))
                        if bad_hellos >= MAX_BAD_HELLOS:
                            break
                        continue
                    table, player = found, who
                    try:
                        await table.join(player, conn)
                    except TableError as e:
                        await conn.send(P.error_message(e.reason, e.message))
                        table = None
                        break
                    continue
                try:
                    await table.handle(player, conn, msg)
                except WebSocketDisconnect:
                    raise  # the browser left while its answer was on the way: not a failure
                except Exception:  # never let one table take the server down
                    log.exception("table %s failed on %r", table.id, msg)
                    await conn.send(P.error_message("server-error", "the server could not carry "
                                                    "out that message; the table is unchanged"))
        except WebSocketDisconnect:
            pass
        finally:
            if table is not None:
                table.leave(player, conn)
                # Seed 003: leaving or reloading clears the round; a server going away (1012,
                # a restart) does not: the round comes back from the store.
                if table.kind == "practice" and table.connected == 0 and closed_code != 1012:
                    tables.drop(table.id)
            if ws.application_state == WebSocketState.CONNECTED:
                try:
                    await ws.close()
                except Exception:
                    pass

    return app
