"""Local state under ``.git/memlab/`` (never pushed): log, candidate cache, per-session injections."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path

TYPE_CHECKING = False  # not typing's: the SessionStart hook never imports typing (memlab.core.selection_types)
if TYPE_CHECKING:
    from typing import Any

#: The log is cut to its last half when it grows past this many bytes.
LOG_LIMIT = 1_000_000

#: Largest state file read (a candidate cache of 100,000 memories is about 40 MB).
MAX_STATE_BYTES = 256 * 1024 * 1024
CACHE_FILE = "candidates.json"
SESSIONS_FILE = "sessions.json"
LAST_RUN_FILE = "last-consolidation.json"
LAST_ATTEMPT_FILE = "last-attempt.json"
#: The memories the last consolidation read that are not candidates (read only when memories arrived since).
SEEN_FILE = "seen.json"
LOG_FILE = "hook.log"
#: Version of the candidate cache layout: ``fields`` (:data:`CANDIDATE_COLUMNS`) and one ``rows`` list per
#: candidate, which JSON parses and checks about twice as fast as one object per candidate (format 1).
CACHE_FORMAT = 2
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
#: The cache's columns, in :class:`memlab.core.types.InjectionCandidate` field order.
CANDIDATE_COLUMNS: tuple[str, ...] = tuple(CANDIDATE_FIELDS)
_NUMBER = (int, float)


def clock() -> datetime:
    """Now (UTC), or ``$MEMLAB_NOW`` (ISO-8601) for reproducible runs and tests.

    Raises:
        MemlabError: ``$MEMLAB_NOW`` is not an ISO-8601 time.
    """
    fixed = os.environ.get("MEMLAB_NOW")
    if fixed:
        try:
            ts = datetime.fromisoformat(fixed)
        except ValueError:
            from memlab.core.errors import MemlabError

            raise MemlabError(
                f"MEMLAB_NOW={fixed[:40]!r} is not an ISO-8601 time (e.g. 2025-12-24T10:00:00+00:00); fix or unset it"
            ) from None
        return ts if ts.tzinfo else ts.replace(tzinfo=UTC)
    return datetime.now(UTC)


def write_json_atomic(path: Path, data: Any) -> None:
    """Write JSON through a temporary file and ``os.replace`` (readers never see half a file).

    Raises:
        MemlabError: The state folder is not writable or the disk is full.
    """
    from memlab.adapter.safe_io import atomic_write
    from memlab.core.errors import MemlabError

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise MemlabError(f"cannot create {path.parent}: {exc.strerror or exc}; make it writable") from None
    text = json.dumps(data, ensure_ascii=False, sort_keys=True)
    atomic_write(path, text.encode("utf-8"), mode=0o644, fsync=False)


def cache_rows(candidates: list[dict[str, Any]]) -> list[list[Any]]:
    """Candidate objects (:data:`CANDIDATE_FIELDS` keys) as the cache's rows, in :data:`CANDIDATE_COLUMNS` order."""
    return [[c[name] for name in CANDIDATE_COLUMNS] for c in candidates]


def _bad_field(row: list[Any]) -> str | None:
    """The first column of ``row`` whose value has the wrong JSON type (``None`` when all are right)."""
    for name, value in zip(CANDIDATE_COLUMNS, row, strict=True):
        if not isinstance(value, CANDIDATE_FIELDS[name]) or isinstance(value, bool):
            return name
    return None


def candidate_rows(cache: Any) -> tuple[list[tuple[Any, ...]], str | None]:
    """Check a candidate cache and convert its rows in one pass.

    Args:
        cache: The parsed cache file (anything JSON gives).

    Returns:
        ``(rows, None)`` with one ``(id, kind, namespace, text, timestamp, relevance, recency, activation,
        confidence, tier)`` tuple per candidate (timestamp a ``datetime``, scores floats, tier text), or
        ``([], problem)`` naming why the cache cannot be used: missing, other format, bad fields.
    """
    if cache is None:
        return [], "no candidate cache"
    if not isinstance(cache, dict) or cache.get("format") != CACHE_FORMAT:
        return [], "the candidate cache has another format"
    rows = cache.get("rows")
    if cache.get("fields") != list(CANDIDATE_COLUMNS):
        return [], "the candidate cache has other columns"
    if not isinstance(rows, list):
        return [], "the candidate cache has no candidate list"
    out = []
    parse = datetime.fromisoformat
    width = len(CANDIDATE_COLUMNS)
    for i, row in enumerate(rows):
        if not isinstance(row, list) or len(row) != width:
            return [], f"candidate {i} is not a row of {width} values"
        cid, kind, ns, text, ts, relevance, recency, activation, confidence, tier = row
        # exact types first (what JSON gives); anything else gets the field-by-field check
        if not (type(cid) is type(kind) is type(ns) is type(text) is type(ts) is type(tier) is str) or not (
            type(relevance) in _NUMBER
            and type(recency) in _NUMBER
            and type(activation) in _NUMBER
            and type(confidence) in _NUMBER
        ):
            bad = _bad_field(row)
            if bad:
                return [], f"candidate {i} has no valid {bad}"
        if tier not in TIERS:
            return [], f"candidate {i} has an unknown tier"
        try:
            when = parse(ts)
        except ValueError:
            return [], f"candidate {i} has a bad timestamp"
        out.append(
            (cid, kind, ns, text, when, float(relevance), float(recency), float(activation), float(confidence), tier)
        )
    return out, None


def cache_problem(cache: Any) -> str | None:
    """Why a candidate cache cannot be used (``None`` when it can): missing, other format, bad fields."""
    return candidate_rows(cache)[1]


def read_json(path: Path, default: Any = None) -> Any:
    """Parsed JSON of ``path``, or ``default`` when missing, not a regular file (a link, a FIFO: never opened
    through), unreadable, over 256 MiB or nested too deeply.
    """
    from memlab.adapter.safe_io import read_regular
    from memlab.core.errors import MemlabError

    try:
        data = read_regular(path, MAX_STATE_BYTES)
        return default if data is None else json.loads(data)
    except (MemlabError, ValueError, RecursionError, MemoryError):
        return default


def log_line(memlab_dir: Path, message: str) -> None:
    """Append one line to ``hook.log`` (never raises; one line per call), never through a link (a planted link is
    replaced by a new log) nor into a non-regular file; cutting the log to its last half replaces it.
    """
    import stat

    from memlab.adapter.safe_io import atomic_write, read_regular

    path = memlab_dir / LOG_FILE
    flat = " ".join(str(message).split())[:500]
    line = f"{datetime.now(UTC).isoformat(timespec='seconds')} {flat}\n".encode()
    try:
        memlab_dir.mkdir(parents=True, exist_ok=True)
        if os.path.islink(path):  # (one planted between this test and the open makes the open fail)
            return atomic_write(path, line, mode=0o644, fsync=False)
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK, 0o644)
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return
            os.write(fd, line)
            size = os.fstat(fd).st_size
        finally:
            os.close(fd)
        if size > LOG_LIMIT:
            data = read_regular(path, 4 * LOG_LIMIT) or b""
            atomic_write(path, data[len(data) // 2 :].split(b"\n", 1)[-1], mode=0o644, fsync=False)
    except Exception:  # a log line is never worth a failure
        pass
