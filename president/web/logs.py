"""The server's log as one JSON object a line (``president serve --log-json`` or
``$PRESIDENT_LOG_JSON=1``; docs/web.md, "Operating the server").

Each record of the game's loggers (``president.*``) and uvicorn's (``uvicorn.error``) becomes
``{"time", "level", "logger", "message", ...}`` on stderr: the time in UTC (ISO 8601, to the
millisecond), the level's name, the logger's name, the message with its arguments filled in,
then the fields the code gave the record (``extra=``, such as ``table``), and ``exception``
with the traceback when there is one. uvicorn's access log stays off. Standard library
only.
"""

from __future__ import annotations

import datetime
import json
import logging
import os
from typing import Any

__all__ = ["JsonFormatter", "QuietSockets", "json_log_config", "log_json_from_env", "LOGGERS"]

LOGGERS = ("president", "uvicorn", "uvicorn.error")
"""Loggers written as JSON lines."""

_STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime", "color_message",
                                                    "taskName"}
"""Attributes every record has (not fields of its own); ``color_message`` is uvicorn's
coloured copy of the message."""


class JsonFormatter(logging.Formatter):
    """A record as one line of JSON (see the module's text).

    >>> record = logging.makeLogRecord({"name": "president.web", "levelname": "ERROR",
    ...     "msg": "table %s failed", "args": ("abc",), "created": 0.0, "table": "abc"})
    >>> JsonFormatter().format(record)
    '{"time": "1970-01-01T00:00:00.000Z", "level": "ERROR", "logger": "president.web", "message": "table abc failed", "table": "abc"}'
    """

    def format(self, record: logging.LogRecord) -> str:
        when = datetime.datetime.fromtimestamp(record.created, datetime.timezone.utc)
        out: dict[str, Any] = {
            "time": when.strftime("%Y-%m-%dT%H:%M:%S.") + f"{when.microsecond // 1000:03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key not in _STANDARD and key not in out:
                out[key] = value
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            out["exception"] = record.exc_text
        return json.dumps(out, default=str, ensure_ascii=False)


class QuietSockets(logging.Filter):
    """Leaves out uvicorn's lines for every websocket opened and closed (``"WebSocket /ws"
    [accepted]``, ``connection open``, ``connection closed``): an access log by another
    name, two or three lines a page; ``/metrics`` counts the sockets."""

    def filter(self, record: logging.LogRecord) -> bool:
        msg = record.msg
        return not (isinstance(msg, str) and record.name.startswith("uvicorn")
                    and (msg in ("connection open", "connection closed")
                         or '"WebSocket %s"' in msg))


def json_log_config(level: str = "INFO") -> dict[str, Any]:
    """A :func:`logging.config.dictConfig` (uvicorn's ``log_config``) writing
    :data:`LOGGERS` as JSON lines on stderr at ``level`` and up, and nothing of
    ``uvicorn.access``."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": JsonFormatter}},
        "filters": {"quiet": {"()": QuietSockets}},
        "handlers": {"json": {"class": "logging.StreamHandler", "formatter": "json",
                              "filters": ["quiet"], "stream": "ext://sys.stderr"}},
        "loggers": {
            "president": {"handlers": ["json"], "level": level, "propagate": False},
            "uvicorn": {"handlers": ["json"], "level": level, "propagate": False},
            "uvicorn.error": {"level": level, "propagate": True},
            "uvicorn.access": {"handlers": [], "level": "WARNING", "propagate": False},
        },
    }


def log_json_from_env() -> bool:
    """Whether ``$PRESIDENT_LOG_JSON`` asks for JSON lines (``1``, ``true``, ``yes``)."""
    return os.environ.get("PRESIDENT_LOG_JSON", "").strip().lower() in ("1", "true", "yes")
