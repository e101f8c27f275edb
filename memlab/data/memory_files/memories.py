"""A memory file's facts as memories in commit order, and the gold rule's kept pairs (shared by the benchmark and
the edit judge's training, which takes its data from here rather than from the benchmark).

Each fact is a memory recorded at the time of the commit that added it (namespace from the file's kind,
:data:`NAMESPACES`; summary = the fact); commit times are the author dates, made strictly increasing in commit
order (a later commit dated earlier is placed one second after its predecessor). A **kept pair** is a removed fact
and the added fact of its hunk it was paired with, at token Jaccard ≥ :data:`KEEP_JACCARD` (0.2: the hand check
in the data folder's ``SOURCE.md`` found it kept no unrelated pair and about 90% of the real successors).
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta

from memlab.core.types import Memory
from memlab.data.memory_files.corpus import Fact, MemoryFile

#: The gold rule's token-Jaccard cut (SOURCE.md's hand check).
KEEP_JACCARD = 0.2
#: Namespace of a memory file's facts, by the file name's lower-case basename (anything else: ``patterns``):
#: instruction files hold conventions and commands, memory banks say what they are in their names.
NAMESPACES: dict[str, str] = {
    "decisionlog.md": "decisions", "progress.md": "progress", "activecontext.md": "progress",
    "techcontext.md": "learnings", "productcontext.md": "inception", "projectbrief.md": "inception",
    "systempatterns.md": "patterns",
}  # fmt: skip


def namespace(kind: str) -> str:
    """The namespace of a file kind (:data:`NAMESPACES`)."""
    return NAMESPACES.get(kind.rsplit("/", 1)[-1].lower(), "patterns")


def memory_id(repo: str, path: str, fact_id: str) -> str:
    """An opaque memory id (never the fact's position in the file)."""
    return "mf-" + hashlib.sha256(f"{repo}\0{path}\0{fact_id}".encode()).hexdigest()[:12]


def file_memories(mfile: MemoryFile) -> tuple[tuple[Memory, ...], tuple[datetime, ...], dict[str, str]]:
    """``(memories, commit times, fact id -> memory id)`` of one memory file (see the module docstring)."""
    times: list[datetime] = []
    for commit in mfile.commits:
        at = commit.date.astimezone(UTC)
        times.append(at if not times or at > times[-1] else times[-1] + timedelta(seconds=1))
    ns = namespace(mfile.kind)
    ids = {f.id: memory_id(mfile.repo, mfile.path, f.id) for f in mfile.facts}
    memories = tuple(Memory(ids[f.id], ns, times[f.recorded], f.text, meta={"session": f"commit-{f.recorded}",
                            "repo": mfile.repo, "path": mfile.path}) for f in mfile.facts)  # fmt: skip
    return memories, tuple(times), ids


def kept_pairs(mfile: MemoryFile) -> list[tuple[Fact, Fact]]:
    """``(older, newer)`` of every pair the gold rule keeps: paired, best successor at Jaccard ≥ the cut."""
    by_id = {f.id: f for f in mfile.facts}
    return [
        (f, by_id[f.replaced_by[0]])
        for f in mfile.facts
        if f.removal == "paired" and f.replaced_by and f.jaccard is not None and f.jaccard >= KEEP_JACCARD
    ]
