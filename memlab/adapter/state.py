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
LAST_ATTEMPT_FILE = "last-attempt.json"
LOG_FILE = "hook.log"
#: Version of the candidate cache layout.
CACHE_FORMAT = 1
TIERS = ("hot", "warm", "cold", "archived")
#: Candidate field -> accepted JSON types.
CANDIDATE_FIELDS: dict[str, tuple[type, ...]] = {
    "id": (str,),
    "kind": (str,),
    "namespace": (str,),
    "text": (str,),
    "timestamp": (str,),
    "relevance": (int, float),
    "recency": (int, float),
    "activation": (int, float),
    "confidence": (int, float),
    "tier": (str,),
}


def clock() -> datetime:
    """Now (UTC), or ``$MEMLAB_NOW`` (ISO-8601) for reproducible runs and tests."""
    fixed = os.environ.get("MEMLAB_NOW")
    if fixed:
        ts = datetime.fromisoformat(fixed)
        return ts if ts.tzinfo else ts.replace(tzinfo=UTC)
    return datetime.now(UTC)


def write_json_atomic(path: Path, data: Any) -> None:
    """Write JSON through a temporary file and ``os.replace`` (readers never see half a file).

    Raises:
        MemlabError: The state folder is not writable or the disk is full.
    """
    from memlab.adapter.safe_io import atomic_write
    from memlab.errors import MemlabError

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise MemlabError(f"cannot create {path.parent}: {exc.strerror or exc}; make it writable") from None
    text = json.dumps(data, ensure_ascii=False, sort_keys=True)
    atomic_write(path, text.encode("utf-8"), mode=0o644, fsync=False)


def cache_problem(cache: Any) -> str | None:
    """Why a candidate cache cannot be used (``None`` when it can): missing, other format, bad fields."""
    if cache is None:
        return "no candidate cache"
    if not isinstance(cache, dict) or cache.get("format") != CACHE_FORMAT:
        return "the candidate cache has another format"
    cands = cache.get("candidates")
    if not isinstance(cands, list) or not isinstance(cache.get("budget_tokens", 0), int):
        return "the candidate cache has no candidate list"
    for i, c in enumerate(cands):
        if not isinstance(c, dict):
            return f"candidate {i} is not an object"
        for name, types in CANDIDATE_FIELDS.items():
            value = c.get(name)
            if not isinstance(value, types) or isinstance(value, bool):
                return f"candidate {i} has no valid {name}"
        if c["tier"] not in TIERS:
            return f"candidate {i} has an unknown tier"
        try:
            datetime.fromisoformat(c["timestamp"])
        except ValueError:
            return f"candidate {i} has a bad timestamp"
    return None


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
