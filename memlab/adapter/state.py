"""Local state under ``.git/memlab/`` (never pushed): log, candidate cache, per-session injections."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

#: The log is cut to its last half when it grows past this many bytes.
LOG_LIMIT = 1_000_000

CACHE_FILE = "candidates.json"
SESSIONS_FILE = "sessions.json"
LAST_RUN_FILE = "last-consolidation.json"
LOG_FILE = "hook.log"


def clock() -> datetime:
    """Now (UTC), or ``$MEMLAB_NOW`` (ISO-8601) for reproducible runs and tests."""
    fixed = os.environ.get("MEMLAB_NOW")
    if fixed:
        ts = datetime.fromisoformat(fixed)
        return ts if ts.tzinfo else ts.replace(tzinfo=UTC)
    return datetime.now(UTC)


def write_json_atomic(path: Path, data: Any) -> None:
    """Write JSON through a temporary file and ``os.replace`` (readers never see half a file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.parent / f".{path.name}.{os.getpid()}.tmp"
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump(data, fh, ensure_ascii=False, sort_keys=True)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def read_json(path: Path, default: Any = None) -> Any:
    """Parsed JSON of ``path``, or ``default`` when missing or unreadable."""
    try:
        with open(path, encoding="utf-8") as fh:
            return json.load(fh)
    except (OSError, ValueError):
        return default


def log_line(memlab_dir: Path, message: str) -> None:
    """Append one line to ``hook.log`` (never raises; never more than one line per call)."""
    try:
        memlab_dir.mkdir(parents=True, exist_ok=True)
        path = memlab_dir / LOG_FILE
        flat = " ".join(str(message).split())[:500]
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(f"{datetime.now(UTC).isoformat(timespec='seconds')} {flat}\n")
        if path.stat().st_size > LOG_LIMIT:
            data = path.read_bytes()
            path.write_bytes(data[len(data) // 2 :].split(b"\n", 1)[-1])
    except OSError:
        pass
