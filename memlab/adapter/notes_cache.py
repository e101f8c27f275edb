"""Parsed-notes cache: what :func:`memlab.adapter.notes_format.parse_note` made of each note blob, keyed by
the blob's git object id.

An object id names its content, so a hit is exact: one blob always parses to the same memories and skip
messages (for one parser: :data:`PARSER`, the parser's version and limits, is stored in the file and any
change re-parses everything). The cache lives in ``.git/memlab/notes-cache/`` (local, never pushed) as 16
JSON files, one per first hex digit of the annotated object (the order notes are listed and read in, so a
first session reading against its deadline loads only the files it reaches) — never pickle, so a planted
file can at worst describe wrong memories, never run code.

It only speeds reading up; it never decides what is read. A file that is missing, unreadable, over
:data:`MAX_CACHE_BYTES`, not JSON, nested too deeply or of another format is ignored with one line in
``hook.log``; an entry of the wrong shape (or empty: a note always yields a memory or a skip message) is
ignored and its blob read and parsed, so the cache can never hide a note. Memory ids are recomputed from
the cached text, never read from the file. A file rewritten holds entries for the notes listed by that read
only, up to :data:`MAX_CACHED_CHARS` characters of text; notes beyond are parsed every time.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import Any

from memlab.adapter.notes_format import MAX_DEPTH, MAX_FRONT_MATTER, MAX_MEMORY_BYTES, RawMemory

CACHE_DIR = "notes-cache"
#: Layout of a file: ``{"format", "parser", "notes": {blob: [[[namespace, timestamp, summary, content, [tags]]...],
#: [skip messages]]}}`` (a :class:`RawMemory` as JSON writes the tuple: no copy is built to write it; the
#: namespace stored is not read, the ref's is used).
FORMAT = 2
#: The parser whose results the files hold (a newer memlab with other rules or limits re-parses).
PARSER = f"notes_format/2 memory={MAX_MEMORY_BYTES} front={MAX_FRONT_MATTER} depth={MAX_DEPTH}"
#: Largest cache file read (100,000 short memories take about 15 MB over the 16 files).
MAX_CACHE_BYTES = 64 * 1024 * 1024
#: Most text (summaries, contents, tags and messages, in characters) written into one cache file.
MAX_CACHED_CHARS = 16 * 1024 * 1024


def read_file(path: Path) -> dict[str, Any]:
    """One cache file's ``blob -> entry`` map as stored (entries unchecked: :func:`entry` checks each one).

    Returns ``{}`` when there is no usable file; a file that exists but cannot be used is logged.
    """
    from memlab.adapter.safe_io import read_regular
    from memlab.adapter.state import log_line
    from memlab.core.errors import MemlabError

    where = path.parent.parent
    try:
        data = read_regular(path, MAX_CACHE_BYTES)
        if data is None:
            return {}
        found = json.loads(data)
    except (MemlabError, ValueError, RecursionError, MemoryError) as exc:
        log_line(where, f"notes cache {path.name} ignored (its notes are parsed): {str(exc)[:200]}")
        return {}
    if not isinstance(found, dict) or found.get("format") != FORMAT or not isinstance(found.get("notes"), dict):
        log_line(where, f"notes cache {path.name} ignored (its notes are parsed): not format {FORMAT}")
        return {}
    if found.get("parser") != PARSER:  # written by another memlab version: re-parse quietly
        return {}
    return found["notes"]


def _strings(value: Any) -> bool:
    return type(value) is list and all(type(v) is str for v in value)


def entry(value: Any, namespace: str) -> tuple[list[RawMemory], list[str]] | None:
    """The memories and skip messages of one cache entry (``None`` when it has the wrong shape)."""
    if type(value) is not list or len(value) != 2 or type(value[0]) is not list or not _strings(value[1]):
        return None
    rows, messages = value
    if not rows and not messages:
        return None
    out = []
    parse = datetime.fromisoformat
    for row in rows:
        if type(row) is not list or len(row) != 5:
            return None
        _, when, summary, content, tags = row
        if type(when) is not str or type(summary) is not str or type(content) is not str or not _strings(tags):
            return None
        try:
            stamp = parse(when)
        except ValueError:
            return None
        if stamp.tzinfo is None:
            return None
        out.append(RawMemory(namespace, stamp, summary, content, tuple(tags)))
    return out, list(messages)


def _chars(value: list[Any]) -> int:
    rows, messages = value
    return sum(len(r[2]) + len(r[3]) + sum(map(len, r[4])) + 50 for r in rows) + sum(map(len, messages)) + 8


def write_file(path: Path, notes: dict[str, Any]) -> None:
    """Replace one cache file with ``notes`` (``blob -> entry``), cut to :data:`MAX_CACHED_CHARS`; never raises."""
    from memlab.adapter.safe_io import atomic_write
    from memlab.adapter.state import log_line
    from memlab.core.errors import MemlabError

    def dump(notes: dict[str, Any]) -> str:  # parses or JSON read back: no cycle; timestamps the only non-JSON value
        data = {"format": FORMAT, "parser": PARSER, "notes": notes}
        return json.dumps(data, separators=(",", ":"), default=datetime.isoformat, check_circular=False)

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        text = dump(notes)
        if len(text) > MAX_CACHED_CHARS:  # cut to what fits (rare: counting every entry costs a tenth of a second)
            kept, total = {}, 0
            for blob, value in notes.items():
                try:
                    size = _chars(value)
                except (TypeError, ValueError, IndexError):
                    continue
                if total + size <= MAX_CACHED_CHARS:
                    kept[blob] = value
                    total += size
            text = dump(kept)
        atomic_write(path, text.encode("ascii"), mode=0o644, fsync=False)
    except (MemlabError, OSError, TypeError, ValueError, RecursionError) as exc:
        log_line(path.parent.parent, f"notes cache {path.name} not written: {str(exc)[:200]}")


class NotesCache:
    """The cache of one repository, its files read on first use.

    Args:
        memlab_dir: The repository's ``.git/memlab``.
    """

    def __init__(self, memlab_dir: Path) -> None:
        self.folder = memlab_dir / CACHE_DIR
        self.files_: dict[str, dict[str, Any]] = {}
        self.fresh_: dict[str, dict[str, list[Any]]] = {}

    def _file(self, obj: str) -> dict[str, Any]:
        key = obj[:1]
        if key not in self.files_:
            self.files_[key] = read_file(self.folder / f"{key}.json")
        return self.files_[key]

    def get(self, blob: str, obj: str, namespace: str) -> tuple[list[RawMemory], list[str]] | None:
        """The cached parse of note ``blob`` on object ``obj`` (``None``: not cached or unusable)."""
        value = self._file(obj).get(blob)
        return None if value is None else entry(value, namespace)

    def put(self, blob: str, obj: str, good: list[RawMemory], bad: list[str]) -> None:
        """Remember the parse of note ``blob`` on object ``obj`` (an empty one is not worth a lookup)."""
        if good or bad:
            self.fresh_.setdefault(obj[:1], {})[blob] = [good, bad]

    def save(self, listed: Iterable[tuple[str, str, str]]) -> None:
        """Rewrite every file read whose notes changed: kept are the ``(ref, blob, object)`` notes of
        ``listed`` (the read's whole listing) that the file or this read's parses hold.
        """
        wanted: dict[str, set[str]] = {}
        for _, blob, obj in listed:
            wanted.setdefault(obj[:1], set()).add(blob)
        wrote = False
        for key, old in self.files_.items():
            fresh = self.fresh_.get(key, {})
            blobs = wanted.get(key, set())
            if fresh or not old.keys() <= blobs:
                notes = {b: fresh[b] if b in fresh else old[b] for b in sorted(blobs & (fresh.keys() | old.keys()))}
                write_file(self.folder / f"{key}.json", notes)
                wrote = True
        if wrote:
            _drop_stale_temporaries(self.folder)


def _drop_stale_temporaries(folder: Path, age: float = 600.0) -> None:
    """Remove temporary files over ``age`` seconds old that a writer killed mid-write left in ``folder``."""
    import os
    import time

    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                temporary = entry.name.startswith(".") and entry.name.endswith(".tmp")
                if temporary and time.time() - entry.stat(follow_symlinks=False).st_mtime > age:
                    os.unlink(entry.path)
    except OSError:
        pass
