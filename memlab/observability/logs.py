"""Structured logs: ``logging.format=json`` writes one JSON object per record (``text`` keeps Hydra's lines).

Fields: ``ts`` (UTC ISO time), ``level``, ``logger``, ``msg``, plus any ``extra={...}`` the call passed
(run id, metric, span name and seconds, ...). :func:`configure` re-formats the handlers Hydra installed
(console and the job's log file) or adds a stderr handler when there are none.
"""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from memlab.core.errors import MemlabError

FORMATS: tuple[str, ...] = ("text", "json")
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime", "taskName"}


class JsonFormatter(logging.Formatter):
    """One JSON object per record; extra attributes become fields."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as a JSON line."""
        data: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "msg": record.getMessage(),
        }
        data.update({k: v for k, v in vars(record).items() if k not in _STANDARD and not k.startswith("_")})
        if record.exc_info:
            data["exc"] = self.formatException(record.exc_info)
        return json.dumps(data, ensure_ascii=False, default=str)


def configure(settings: Mapping[str, Any] | None) -> None:
    """Apply ``logging.format`` (text | json) and ``logging.level`` to the root logger's handlers.

    Raises:
        MemlabError: Unknown format or level.
    """
    settings = dict(settings or {})
    fmt = str(settings.get("format", "text"))
    if fmt not in FORMATS:
        raise MemlabError(f"unknown logging.format '{fmt}'; valid: {', '.join(FORMATS)}")
    level = str(settings.get("level", "INFO")).upper()
    if not isinstance(logging.getLevelName(level), int):
        raise MemlabError(f"unknown logging.level '{level}'; valid: DEBUG, INFO, WARNING, ERROR")
    root = logging.getLogger()
    logging.getLogger("memlab").setLevel(level)
    if fmt == "text":
        return
    if not root.handlers:
        root.addHandler(logging.StreamHandler(sys.stderr))
    for handler in root.handlers:
        handler.setFormatter(JsonFormatter())
