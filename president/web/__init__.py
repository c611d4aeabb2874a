"""The browser game: a FastAPI app served by uvicorn, one websocket per player.

- :mod:`president.web.app` builds the ASGI app (:func:`create_app`).
- :mod:`president.web.tables` keeps the tables in memory and runs the computer players.
- :mod:`president.web.protocol` validates browser messages and builds every message a
  browser is sent, from that seat's :class:`~president.observation.Observation` and
  :func:`~president.events.visible_to` only.
- :mod:`president.web.messages` declares what each of those messages holds (their JSON
  Schema: :func:`president.web.protocol.messages_schema`, ``docs/messages.schema.json``).
- :mod:`president.web.sealing` seals a table's record so a browser can keep it without
  reading it (encrypted and signed by the server).

See ``docs/web.md`` for the message protocol.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fastapi import FastAPI

__all__ = ["create_app"]


def create_app(*args: Any, **kwargs: Any) -> FastAPI:
    """Build the ASGI app; see :func:`president.web.app.create_app`."""
    from .app import create_app as _create_app
    return _create_app(*args, **kwargs)
