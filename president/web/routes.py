"""The HTTP routes of the browser game (:func:`add_routes`): the page, health and readiness,
the start screen's options, new tables and the lessons. The websocket is
:mod:`president.web.sockets`; the table companion's routes are
:mod:`president.web.companion`; what every request passes first (hosts, origins, sizes,
rates) is :mod:`president.web.guard`, set up by :func:`president.web.app.create_app`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field

from ..lessons import LESSONS, MAX_MOVE_CHARS, LessonError
from ..errors import RulesError
from ..rules import OPTION_HELP, PRESETS, TWISTS, Rules, describe_items
from . import guard
from . import protocol as P
from .names import MAX_NAME_CHARS, BadName, check_names
from .state import DEFAULT_FILL_SECONDS, MAX_FILL_SECONDS, MIN_FILL_SECONDS
from .tables import (DEFAULT_GRACE_SECONDS, DEFAULT_HINT_LEVEL, DEFAULT_NAMES, DEFAULT_STANDIN,
                     HUMAN, MATCH_PRESETS, PRACTICE_NAMES, TableError, Tables, known_levels)

__all__ = ["add_routes", "NewTable", "PlayNow", "LessonTry", "STATIC", "READY_SECONDS"]

STATIC = Path(__file__).parent / "static"
log = logging.getLogger("president.web")
_Name = Annotated[str, Field(max_length=MAX_NAME_CHARS)]


class NewTable(BaseModel):
    """Body of ``POST /api/tables``.

    ``kind="practice"``: the practice round (the other fields are ignored). ``kind="match"``:
    ``preset`` (a name in :data:`president.rules.PRESETS` other than ``practice``, which is
    the practice round's), ``twists`` (names in
    ``TWISTS[preset]``), ``players`` (the preset's range), ``names`` and ``levels`` by seat
    (seat 0 is you and must be ``"human"``; another ``"human"`` gets its own seat link; the
    rules of :mod:`president.web.names`: no control or invisible characters, no two names
    alike, ignoring case, spaces and lookalike letters),
    ``seed`` only when the server allows it (tests).
    """

    model_config = ConfigDict(extra="forbid")
    kind: Literal["practice", "match"]
    preset: Annotated[str, Field(max_length=32)] = "house"
    twists: Annotated[list[Annotated[str, Field(max_length=40)]], Field(max_length=6)] = []
    players: Annotated[int, Field(ge=3, le=7)] | None = None
    names: Annotated[list[_Name], Field(max_length=7)] | None = None
    levels: Annotated[list[Annotated[str, Field(max_length=120)]], Field(max_length=7)] | None = None
    seed: Annotated[int, Field(ge=0, lt=2**32)] | None = None
    standin: Annotated[str, Field(max_length=120)] = DEFAULT_STANDIN
    grace_seconds: Annotated[float, Field(ge=1, le=600)] = DEFAULT_GRACE_SECONDS
    turn_seconds: Annotated[float, Field(ge=5, le=600)] | None = None
    open: bool = False
    """Open to anyone on this server (docs/web.md, "Open tables"): listed on the start screen,
    its other ``"human"`` seats taken by whoever joins."""
    fill_seconds: Annotated[float, Field(ge=MIN_FILL_SECONDS, le=MAX_FILL_SECONDS)] = (
        DEFAULT_FILL_SECONDS)
    """An open table's match starts this long after it was made, computers in the seats
    nobody took."""


class PlayNow(BaseModel):
    """Body of ``POST /api/play-now``: a seat at an open table of ``preset`` for ``players``
    (any size: ``None``), or a new open table of them with you as its host."""

    model_config = ConfigDict(extra="forbid")
    preset: Annotated[str, Field(max_length=32)] = "house"
    players: Annotated[int, Field(ge=3, le=7)] | None = None
    name: _Name = ""


PLAY_NOW_FILL_SECONDS = 30.0
"""How long a table "Play now" opens waits for people before computers fill it."""


class LessonTry(BaseModel):
    """Body of ``POST /api/lessons/{id}/try``: a move (``"KD KS"``, ``"pass"``, ``"Blair KD KS"``,
    at most :data:`~president.lessons.MAX_MOVE_CHARS` characters) tried in the position after
    the lesson's step ``step`` (0-based)."""

    model_config = ConfigDict(extra="forbid")
    step: Annotated[int, Field(ge=0, le=999, strict=True)]
    move: Annotated[str, Field(max_length=MAX_MOVE_CHARS)]


def _lesson_try(raw: bytes) -> LessonTry | JSONResponse:
    """The body of a lesson try, read and checked here (not by the app's table-request
    handler, whose messages name a table request): a :class:`LessonTry`, or the refusal
    ``422 {"error": "bad-request", "message"}``."""
    result: LessonTry | JSONResponse = guard.read_json(
        raw, LessonTry, 'send JSON such as {"step": 1, "move": "KD KS"}')
    return result


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


READY_SECONDS = 5.0
"""How long ``GET /readyz`` waits for the store's trivial read before answering 503."""



def add_routes(app: FastAPI, *, tables: Tables, table_store: Any, ledger: Any,
               cluster: Any = None, friend_url: str | None = None) -> None:
    """Add the HTTP routes to ``app`` (see :mod:`president.web.app` for the list).

    Args:
        app: the app; its ``state.stopping`` says the server is stopping.
        tables: the tables of this process.
        table_store, ledger: probed by ``GET /readyz``.
        cluster: several processes' shared counts (:class:`~president.web.cluster.Cluster`;
            ``None``: one process): new tables per address are counted across them.
        friend_url: the address friends on other devices open (``/api/options``).
    """
    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> dict[str, str]:
        """The process is up and its event loop answers (docs/deploy.md)."""
        return {"status": "ok"}

    @app.get("/readyz", include_in_schema=False)
    async def readyz() -> JSONResponse:
        """The server can take tables: it is not stopping and its store and ledger each
        answer a trivial read within :data:`READY_SECONDS`; else 503 ``not-ready``."""
        if app.state.stopping:
            return guard.refusal(503, "not-ready", "the server is stopping; it takes no new "
                                 "tables")

        def probe() -> None:
            _ = "readyz-probe" in table_store
            ledger.latest("readyz-probe")
        try:
            await asyncio.wait_for(asyncio.to_thread(probe), READY_SECONDS)
        except Exception as e:   # a store that fails or does not answer in time
            why = "it did not answer in time" if isinstance(e, asyncio.TimeoutError) else (
                type(e).__name__)
            return guard.refusal(503, "not-ready", "the server cannot read its store just now "
                                 f"({why}); it takes no new tables until it can")
        return JSONResponse({"status": "ready"})

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
            "friend_url": friend_url,
        }

    @app.post("/api/tables")
    async def new_table(body: NewTable, request: Request) -> JSONResponse:
        """Make a table; answer ``{"table", "player", "token", "invites"}``."""
        names = body.names
        if body.kind == "match" and names is not None:
            try:   # president.web.names: no invisible characters, no lookalike names, no "You"
                names = check_names(names, defaults=DEFAULT_NAMES,
                                    friends=HUMAN in (body.levels or [])[1:])
            except BadName as e:
                return guard.refusal(400, "bad-table", e.message)
        client = guard.client_key(request.client.host) if request.client else None
        return await make(client, kind=body.kind, preset=body.preset, twists=body.twists,
                          players=body.players, names=names, levels=body.levels,
                          seed=body.seed, standin=body.standin,
                          grace_seconds=body.grace_seconds, turn_seconds=body.turn_seconds,
                          open_seats=body.open, fill_seconds=body.fill_seconds)

    async def make(client: str | None, **options: Any) -> JSONResponse:
        """Make a table; its seat for the maker, or the refusal (with several processes, the
        address's new tables are counted across them first)."""
        if (cluster is not None and client is not None
                and not await cluster.table_allowed(client, tables.per_address)):
            return guard.refusal(429, "busy", f"{tables.per_address} new tables a minute is the "
                                 "most one address may make; wait a minute and try again")
        try:
            table = await tables.create_async(client=client, **options)
        except TableError as e:
            status = {"full": 503, "busy": 429}.get(e.reason, 400)
            return JSONResponse(status_code=status, content={"error": e.reason, "message": e.message})
        except Exception:   # the store could not keep it (a disk error): no table was made
            log.exception("a new table could not be kept")
            return guard.refusal(503, "server-error", "the server could not keep a new table "
                                 "on its disk; try again later")
        return JSONResponse({"table": table.id, "player": 0, "token": table.humans[0].token,
                             "kind": table.kind, "invites": table.invites(),
                             "open": table.open, "players": table.rules.players,
                             "names": list(table.names)})

    @app.get("/api/open-tables")
    async def open_tables() -> dict[str, Any]:
        """The open tables with a free seat, the newest first: ``{"tables": [{"table",
        "preset", "twists", "players", "host", "seated", "computers", "free", "starts_in"}]}``
        (``starts_in``: seconds until computers fill the free seats and the match starts)."""
        now = time.time()
        found = await asyncio.to_thread(tables.open_listing)
        return {"tables": [{**{k: v for k, v in x.items() if k != "fill_by"},
                            "starts_in": max(0, round(float(x["fill_by"]) - now))}
                           for x in found]}

    @app.post("/api/play-now")
    async def play_now(body: PlayNow, request: Request) -> JSONResponse:
        """A seat at the newest open table of ``preset`` (and ``players``) with a free seat:
        ``{"table", "join": true}`` (the page then sends ``join`` on its socket); or, when
        there is none, a new open table of all-human seats with you as host, whose match
        starts after :data:`PLAY_NOW_FILL_SECONDS` with computers in the seats nobody took:
        the answer of ``POST /api/tables``."""
        found = await asyncio.to_thread(tables.open_listing)
        for listing in found:
            if listing.get("preset") == body.preset and body.players in (
                    None, listing.get("players")):
                return JSONResponse({"table": listing["table"], "join": True})
        client = guard.client_key(request.client.host) if request.client else None
        try:
            n = Rules.preset(body.preset, players=body.players).players
        except (RulesError, KeyError):
            return guard.refusal(400, "bad-rules", f"no preset {P.excerpt(body.preset)} for "
                                 f"{body.players or 'its'} players; presets are "
                                 f"{', '.join(MATCH_PRESETS)}")
        try:
            names = check_names([body.name, *[""] * (n - 1)], defaults=DEFAULT_NAMES,
                                friends=True)
        except BadName as e:
            return guard.refusal(400, "bad-name", e.message)
        return await make(client, kind="match", preset=body.preset, players=body.players,
                          names=names, levels=[HUMAN] * n, open_seats=True,
                          fill_seconds=PLAY_NOW_FILL_SECONDS)

    lesson_pages: dict[str, dict[str, Any]] = {}   # GET /api/lessons/{id}, built once

    @app.get("/api/lessons")
    async def lessons() -> dict[str, Any]:
        """The lessons for the start screen's Learn section: ``{"lessons": [{"id", "title",
        "source", "summary", "rules", "twist", "steps"}]}``."""
        return {"lessons": [lesson.summary_dict() for lesson in LESSONS.values()]}

    @app.get("/api/lessons/{lesson_id}")
    async def lesson_page(lesson_id: str) -> Any:
        """One whole lesson (``Lesson.to_dict``: every step's events, why and the table face
        up), or ``404 {"error": "unknown-lesson"}``."""
        lesson = LESSONS.get(lesson_id)
        if lesson is None:
            return guard.refusal(404, "unknown-lesson", f"no lesson {P.excerpt(lesson_id)}; the "
                                 "lessons are listed at /api/lessons")
        if lesson_id not in lesson_pages:
            lesson_pages[lesson_id] = lesson.to_dict()
        return lesson_pages[lesson_id]

    @app.post("/api/lessons/{lesson_id}/try")
    async def lesson_try(lesson_id: str, request: Request) -> Any:
        """Try a move at a step: ``{"step", "move"}`` -> ``{"legal", "reason", "code",
        "as_lesson"}`` (the engine's answer; the lesson does not change)."""
        lesson = LESSONS.get(lesson_id)
        if lesson is None:
            return guard.refusal(404, "unknown-lesson", f"no lesson {P.excerpt(lesson_id)}; the "
                                 "lessons are listed at /api/lessons")
        body = _lesson_try(await request.body())
        if isinstance(body, JSONResponse):
            return body
        try:
            return lesson.trial(body.step, body.move).to_dict()
        except LessonError as e:
            return guard.refusal(400, e.reason, e.message)

