"""One log stream: the service's lines and uvicorn's own, in one format (JSON lines by default).

`log_config(settings)` is handed to uvicorn (`log_config=`), so its start-up, shutdown and error lines come
through the same formatter as the service's. Every line has a UTC time with milliseconds and zone, the
level, the logger and the message; a line written while a request is served also carries its request id
(and the W3C trace id when the caller sent a `traceparent`).
"""

from __future__ import annotations

import json
import logging
import logging.config
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

from ..settings import Settings

# The request being served in this task (set by the RequestContext middleware).
REQUEST_ID: ContextVar[str | None] = ContextVar("remedy_request_id", default=None)
TRACE_ID: ContextVar[str | None] = ContextVar("remedy_trace_id", default=None)


def utc_time(record: logging.LogRecord) -> str:
    """`2026-12-01T09:00:00.123Z`: UTC, milliseconds, zone."""
    return datetime.fromtimestamp(record.created, tz=UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _fields(record: logging.LogRecord) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    request_id, trace_id = REQUEST_ID.get(), TRACE_ID.get()
    if request_id:
        fields["request_id"] = request_id
    if trace_id:
        fields["trace_id"] = trace_id
    fields.update(getattr(record, "fields", {}))
    return fields


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, the request's ids and the record's `fields`."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": utc_time(record),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        out.update(_fields(record))
        if record.exc_info:
            out["error"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False, default=str)


class TextFormatter(logging.Formatter):
    """For a terminal: `time level logger message key=value ...`, the same fields as the JSON lines."""

    def format(self, record: logging.LogRecord) -> str:
        fields = " ".join(f"{k}={v}" for k, v in _fields(record).items())
        line = f"{utc_time(record)} {record.levelname.lower():<7} {record.name} {record.getMessage()}"
        line = f"{line} {fields}" if fields else line
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return line


def log_config(settings: Settings) -> dict[str, Any]:
    """A `logging.config.dictConfig` for the service and uvicorn alike (uvicorn's `log_config`)."""
    formatter = JsonFormatter if settings.log_json else TextFormatter
    level = settings.log_level.upper()
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"remedy": {"()": f"{__name__}.{formatter.__name__}"}},
        "handlers": {"stream": {"class": "logging.StreamHandler", "formatter": "remedy", "stream": "ext://sys.stderr"}},
        "loggers": {
            name: {"handlers": ["stream"], "level": level, "propagate": False}
            for name in ("remedy", "uvicorn", "uvicorn.error", "uvicorn.access")
        },
    }


def configure_logging(settings: Settings) -> None:
    logging.config.dictConfig(log_config(settings))
