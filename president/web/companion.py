"""The table companion's HTTP routes ("At a real table" on the start screen).

Stateless: the page keeps the score sheet (``president.companion.Sheet.to_dict``) in its
local storage and sends it whole; the server replays it through the engine and answers what
the table needs to see. Nothing is kept on the server.

- ``POST /api/companion``: ``{"sheet", "order"?, "replay"?, "undo"?}`` → ``{"sheet", "view"}``:
  the sheet with at most one change (a deal's finishing order, this deal dealt again, or the
  last entry taken back) and :func:`president.companion.view` of it.
- ``POST /api/companion/export``: ``{"sheet"}`` → the sheet as a ``president/2`` game record
  (:func:`president.companion.record_from_sheet`).
- ``POST /api/companion/import``: a game record → ``{"sheet", "view"}``
  (:func:`president.companion.sheet_from_record`).

Refusals: ``400 {"error": SheetError.reason, "message"}`` for a sheet or an entry the
companion refuses (``name-twice``, ``missing-player``, ``unknown-name``, ``same-name``,
``bad-name``, ``match-over``, ...; nothing is changed, so the page keeps what it had),
``422 {"error": "bad-request", "message"}`` for a body of the wrong shape, and the app's
own bounds (16 KiB bodies).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..companion import FORMAT, MAX_ENTRIES, REPLAYED, Sheet, SheetError, record_from_sheet, \
    sheet_from_record, view
from . import guard
from . import protocol as P
from .names import MAX_NAME_CHARS, BadName, clean_name, same_name

__all__ = ["add_routes", "SheetIn", "CompanionRequest", "ExportRequest"]

_Name = Annotated[str, Field(max_length=MAX_NAME_CHARS + 16)]
_Order = Annotated[list[_Name | Annotated[int, Field(ge=0, le=6, strict=True)]],
                   Field(max_length=7)]


class SheetIn(BaseModel):
    """A score sheet as the page keeps it (``Sheet.to_dict``)."""

    model_config = ConfigDict(extra="forbid")
    format: Literal["president-sheet/1"] = FORMAT  # type: ignore[assignment]
    rules: Annotated[str, Field(min_length=1, max_length=120)]
    players: Annotated[list[_Name], Field(min_length=3, max_length=7)]
    first_dealer: Annotated[int, Field(ge=0, le=6, strict=True)] | None = None
    entries: Annotated[list[_Order | Literal["replayed"]],
                       Field(max_length=MAX_ENTRIES)] = []


class CompanionRequest(BaseModel):
    """Body of ``POST /api/companion``: the sheet and at most one change."""

    model_config = ConfigDict(extra="forbid")
    sheet: SheetIn
    order: _Order | None = None
    replay: bool = False
    undo: bool = False


class ExportRequest(BaseModel):
    """Body of ``POST /api/companion/export``."""

    model_config = ConfigDict(extra="forbid")
    sheet: SheetIn


_EXAMPLE = ('send JSON such as {"sheet": {"rules": "house", "players": ["Alex", "Blair", '
            '"Casey", "Drew"], "first_dealer": 3, "entries": []}, "order": ["Blair", "Alex", '
            '"Casey"]}')


def _sheet(data: SheetIn) -> Sheet:
    """The sheet, with the web's rules for names (:mod:`president.web.names`: no invisible
    characters, no two names alike, lookalike letters included) on top of the core's.

    Raises:
        SheetError: ``bad-name``, ``same-name`` or any refusal of :class:`Sheet`.
    """
    try:
        names = [clean_name(n, s) for s, n in enumerate(data.players)]
    except BadName as e:
        raise SheetError("bad-name", e.message) from None
    for j in range(len(names)):
        for i in range(j):
            if names[i] == names[j]:
                raise SheetError("same-name", f"seats {i + 1} and {j + 1} are both named "
                                 f"{P.excerpt(names[i])}; give each player a different name")
            if same_name(names[i], names[j]):
                raise SheetError("same-name", f"seats {i + 1} and {j + 1} are named "
                                 f"{P.excerpt(names[i])} and {P.excerpt(names[j])}, which look "
                                 "alike; give each player a different name")
    # orders may name players by index: Sheet checks them and keeps names
    entries: Any = tuple(e if e == REPLAYED else tuple(e) for e in data.entries)
    return Sheet(data.rules, tuple(names), data.first_dealer, entries)


def _sentence(text: str) -> str:
    """A refusal's message as a sentence for the page: a capital first letter, a full stop."""
    text = text.strip()
    if text[:1].islower():
        text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def _answer(sheet: Sheet) -> JSONResponse:
    return JSONResponse({"sheet": sheet.to_dict(), "view": view(sheet)})


def add_routes(app: FastAPI) -> None:
    """Register the companion's routes on ``app``."""

    @app.post("/api/companion")
    async def companion(request: Request) -> JSONResponse:
        """The sheet with at most one change, and what the table needs to see."""
        body = guard.read_json(await request.body(), CompanionRequest, _EXAMPLE)
        if isinstance(body, JSONResponse):
            return body
        changes = (body.order is not None) + body.replay + body.undo
        if changes > 1:
            return guard.refusal(422, "bad-request", "give at most one of order, replay and "
                                 "undo")
        try:
            sheet = _sheet(body.sheet)
            if body.order is not None:
                sheet = sheet.enter(body.order)
            elif body.replay:
                sheet = sheet.replay_deal()
            elif body.undo:
                sheet = sheet.undo()
        except SheetError as e:
            return guard.refusal(400, e.reason, _sentence(e.message))
        return _answer(sheet)

    @app.post("/api/companion/export")
    async def companion_export(request: Request) -> JSONResponse:
        """The sheet as a ``president/2`` game record."""
        body = guard.read_json(await request.body(), ExportRequest,
                     'send JSON such as {"sheet": {"rules": "house", "players": [...]}}')
        if isinstance(body, JSONResponse):
            return body
        try:
            return JSONResponse(record_from_sheet(_sheet(body.sheet)))
        except SheetError as e:
            return guard.refusal(400, e.reason, _sentence(e.message))

    @app.post("/api/companion/import")
    async def companion_import(request: Request) -> JSONResponse:
        """The sheet of a ``president/2`` game record."""
        data = guard.read_json(await request.body(), None,
                     'send a game record such as {"format": "president/2", ...}')
        if isinstance(data, JSONResponse):
            return data
        try:
            sheet = sheet_from_record(data)
            return _answer(_sheet(SheetIn.model_validate(sheet.to_dict())))
        except SheetError as e:
            return guard.refusal(400, e.reason, _sentence(e.message))
        except ValidationError:
            return guard.refusal(400, "bad-record", "The record's sheet is more than a sheet "
                                 "holds (too many deals or names too long).")
