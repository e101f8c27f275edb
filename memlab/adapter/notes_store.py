"""Reading git-notes-memory memories from ``refs/notes/mem/<namespace>`` and appending new ones."""

from __future__ import annotations

import gc
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime

from memlab.adapter.blob_stream import BlobStream, stream_note, until
from memlab.adapter.gitcli import Repo, git_reason, git_text, run_git
from memlab.adapter.locking import writer_lock
from memlab.adapter.notes_collect import Collector
from memlab.adapter.notes_format import (
    MAX_MEMORY_BYTES,
    format_memory,
    memory_id,
    parse_chunks,
    parse_note,
)
from memlab.adapter.notes_split import split_text
from memlab.adapter.notes_write import append_note, batch
from memlab.core.errors import MemlabError
from memlab.core.types import Memory

MEM_PREFIX = "refs/notes/mem/"
#: Notes read per batch when reading against a deadline (the first session's raw-notes fallback).
RAW_BATCH = 500
#: Most memory records read against a deadline: what follows reading (collapsing, rendering, selecting) must
#: fit in the rest of the first session's budget even when cached notes make reading itself fast.
RAW_MAX_RECORDS = 20_000
#: Notes read between two collections of the young garbage-collector generations (automatic collection is
#: paused while reading: its full collections over the growing heap cost more than parsing).
GC_EVERY = 1_000


@dataclass
class LoadResult:
    """What reading the memory refs found.

    Attributes:
        memories: Distinct memories (one per content hash), in time order.
        records: Memory records parsed (copies on several commits and re-captures counted each time).
        errors: One line per note or record that was skipped.
        tips: ``ref -> commit`` of every memory ref read.
        total: Distinct memories found (more than ``memories`` when a cap kept only the newest).
    """

    memories: list[Memory]
    records: int
    errors: list[str] = field(default_factory=list)
    tips: dict[str, str] = field(default_factory=dict)
    total: int = 0


def ref_tips(repo: Repo, prefix: str = MEM_PREFIX) -> dict[str, str]:
    """``ref -> object`` for every ref under ``prefix``."""
    text = git_text(repo.root, ["for-each-ref", "--format=%(refname) %(objectname)", prefix])
    return dict(line.split(" ", 1) for line in text.splitlines() if " " in line)


HEX_DIGITS = frozenset("0123456789abcdef")


def _entries(data: bytes, width: int) -> Iterator[tuple[bytes, str, str]]:
    """``(mode, name, object id)`` of a raw tree object (ids ``width`` bytes long)."""
    pos = 0
    while pos < len(data):
        space = data.index(b" ", pos)
        nul = data.index(b"\0", space)
        yield data[pos:space], data[space + 1 : nul].decode("utf-8", "replace"), data[nul + 1 : nul + 1 + width].hex()
        pos = nul + 1 + width


def list_notes(repo: Repo, tips: dict[str, str]) -> tuple[list[tuple[str, str, str]], list[str]]:
    """``(ref, note blob, annotated object)`` of every note of every ref in ``tips``, and one line per ref
    that is not a notes commit.

    All refs are read together: one ``git cat-file --batch`` per fan-out level (notes trees split
    ``ab/cdef...`` paths), never one ``git notes list`` per ref (3,000 namespace refs were 3,000 processes).
    Notes come in ``git notes list`` order (by annotated object) within each ref.
    """
    out: list[tuple[str, str, str]] = []
    errors: list[str] = []
    pending = [(ref, f"{sha}^{{tree}}", "") for ref, sha in sorted(tips.items())]
    while pending:
        found = batch(repo, [name for _, name, _ in pending])
        deeper: list[tuple[str, str, str]] = []
        for (ref, _name, prefix), obj in zip(pending, found, strict=True):
            if obj is None or obj.type != "tree":
                if not prefix:
                    errors.append(f"{ref}: cannot list its notes (not a notes commit); other refs read")
                continue
            width = len(tips[ref]) // 2
            for mode, name, oid in _entries(obj.data, width):
                path = prefix + name
                if not set(name) <= HEX_DIGITS:
                    continue
                if mode == b"40000" and len(name) == 2 and len(path) < 2 * width:
                    deeper.append((ref, oid, path))
                elif mode.startswith(b"100") and len(path) == 2 * width:
                    out.append((ref, oid, path))
        pending = deeper
    out.sort(key=lambda t: (t[0], t[2]))
    return out, errors


def load_memories(
    repo: Repo, *, deadline: float | None = None, cache: bool = True, cap: int | None = None, save: bool = True
) -> LoadResult:
    """Read every memory under ``refs/notes/mem/*``; bad notes and records are skipped and reported.

    A ref git cannot list is reported and the others read. Notes over :data:`MAX_NOTE_BYTES` are streamed
    memory by memory; a memory over :data:`MAX_MEMORY_BYTES` is skipped. With ``cap`` only the newest ``cap``
    memories are held while reading (:class:`Collector`; ``total`` counts all). With ``deadline`` (a
    ``time.monotonic()`` value) the time is checked before every note and every few memories, and reading
    stops there once something was read (``truncated`` error), as after :data:`RAW_MAX_RECORDS` records.
    With ``cache`` parsed note blobs come from :mod:`memlab.adapter.notes_cache` (keyed by blob id), and go to
    it unless ``save`` is false.
    """
    with paused_gc():
        return _load(repo, deadline, cache, Collector(cap), save)


@contextmanager
def paused_gc() -> Iterator[None]:
    """Automatic garbage collection off inside (restored on every exit): its full collections over a heap
    growing by 100,000 memories cost more than parsing them (reading makes no reference cycles).
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _parse(repo: Repo, ref: str, blob: str, data: bytes | None, deadline: float | None):
    """``(memories, skip messages, whole)`` of one note: ``data`` parsed (or the blob streamed when it is large),
    checking ``deadline`` every few memories (``whole`` is false when it cut the note).
    """
    namespace = ref[len(MEM_PREFIX) :]
    if data is None:
        return (*stream_note(repo, blob, namespace, deadline), False)
    chunks = split_text(data.decode("utf-8", "replace").replace("\r\n", "\n"), MAX_MEMORY_BYTES)
    good, bad = parse_chunks(chunks if deadline is None else until(chunks, deadline, every=16), namespace)
    return good, bad, deadline is None or time.monotonic() <= deadline


def _load(repo: Repo, deadline: float | None, cache: bool, found: Collector, save: bool = True) -> LoadResult:
    from memlab.adapter import notes_cache

    tips = ref_tips(repo)
    listed, errors = list_notes(repo, tips)
    known = notes_cache.NotesCache(repo.memlab_dir) if cache else None
    step = len(listed) if deadline is None else RAW_BATCH  # against a deadline: blobs asked for batch by batch
    stop = ""
    for start in range(0, len(listed), max(1, step)):
        part = listed[start : start + step]
        hits = [known.get(blob, obj, ref[len(MEM_PREFIX) :]) if known else None for ref, blob, obj in part]
        need = [blob for (_, blob, _), hit in zip(part, hits, strict=True) if hit is None]
        with BlobStream(repo, need) as blobs:  # in the order they are parsed in
            for n, ((ref, blob, commit), hit) in enumerate(zip(part, hits, strict=True), 1):
                if deadline is not None and found.records and time.monotonic() > deadline:
                    stop = "the time budget"
                elif deadline is not None and found.records >= RAW_MAX_RECORDS:
                    stop = f"{found.records:,} records"
                if stop:
                    break
                if not n % GC_EVERY:
                    gc.collect(1)  # only what the last notes allocated: cycles a hostile note made are freed
                if hit is not None:
                    good, bad = hit
                else:
                    data = blobs.get(blob)
                    if data is None and blob not in blobs.large_:
                        errors.append(f"{ref} note on {commit[:10]}: blob {blob[:10]} missing")
                        continue
                    good, bad, whole = _parse(repo, ref, blob, data, deadline)
                    if known and whole and save:
                        known.put(blob, commit, good, bad)
                for g in good:
                    found.add(g, commit)
                if bad:
                    errors.extend(f"{ref} note on {commit[:10]}: {msg}" for msg in bad)
        if stop:
            errors.append(f"reading stopped at {stop} (truncated)")
            break
    if known and save and (deadline is None or time.monotonic() < deadline):  # the rest of the budget is the caller's
        known.save(listed)
    memories = found.memories()
    return LoadResult(memories, found.records, errors, tips, len(memories) + len(found.dropped))


def append_memory(
    repo: Repo,
    namespace: str,
    summary: str,
    content: str,
    *,
    timestamp: datetime,
    tags: tuple[str, ...] = (),
    target: str = "HEAD",
) -> str:
    """Append one memory to the note on ``target`` under ``refs/notes/mem/<namespace>``; returns its id.

    Writers hold ``.git/memlab/notes.lock`` and git-notes-memory's capture lock, and move the ref by
    compare-and-swap, so neither concurrent captures nor other writers of the ref lose anything.

    Raises:
        MemlabError: A field has the wrong type or is empty, or git failed.
    """
    for name, value in (("namespace", namespace), ("summary", summary), ("content", content)):
        if not isinstance(value, str):
            raise MemlabError(f"capture {name} must be text, not {type(value).__name__}")
    if not all(isinstance(t, str) for t in tags):
        raise MemlabError("capture tags must be text")
    if not namespace or len(namespace) > 64 or not all(c.isalnum() or c in "-_" for c in namespace):
        raise MemlabError(f"bad namespace '{namespace}'; use letters, digits, '-' or '_' (e.g. decisions)")
    if not summary.strip():
        raise MemlabError("a memory needs a summary (--summary)")
    proc = run_git(repo.root, ["rev-parse", "--verify", "-q", f"{target}^{{commit}}"], check=False)
    if proc.returncode != 0 and proc.stderr.strip():  # git refuses the repository itself: say why
        reason = git_reason(proc.stderr.decode("utf-8", "replace"), proc.returncode)
        raise MemlabError(f"git refuses {repo.root}: {reason}")
    commit = proc.stdout.decode().strip()
    if not commit:
        raise MemlabError(f"no commit '{target}' to attach the memory to; make a first commit")
    text = format_memory(namespace, timestamp, summary, content or summary, tags)
    size = len(text.encode("utf-8"))
    if size > MAX_MEMORY_BYTES:
        raise MemlabError(
            f"memory of {size:,} bytes is over the {MAX_MEMORY_BYTES:,}-byte limit of one memory; "
            "shorten --content or split it into several memories"
        )
    parsed, bad = parse_note(text, namespace)
    if bad or len(parsed) != 1:
        raise MemlabError(f"memory cannot be written in git-notes-memory's format: {'; '.join(bad) or 'split'}")
    with writer_lock(repo.memlab_dir, foreign=True):
        append_note(repo, f"{MEM_PREFIX}{namespace}", commit, text, "Notes added by 'memlab hook capture'")
    return memory_id(parsed[0].summary, parsed[0].content)
