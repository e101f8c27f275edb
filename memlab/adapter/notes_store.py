"""Reading git-notes-memory memories from ``refs/notes/mem/<namespace>`` and appending new ones."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from memlab.adapter.gitcli import Repo, git_text, run_git
from memlab.adapter.locking import file_lock
from memlab.adapter.notes_format import RawMemory, format_memory, memory_id, parse_note
from memlab.errors import MemlabError
from memlab.types import Memory

MEM_PREFIX = "refs/notes/mem/"


@dataclass
class LoadResult:
    """What reading the memory refs found.

    Attributes:
        memories: Distinct memories (one per content hash), in time order.
        records: Memory records parsed (copies on several commits and re-captures counted each time).
        errors: One line per note or record that was skipped.
        tips: ``ref -> commit`` of every memory ref read.
    """

    memories: list[Memory]
    records: int
    errors: list[str] = field(default_factory=list)
    tips: dict[str, str] = field(default_factory=dict)


def read_blobs(repo: Repo, shas: list[str]) -> dict[str, bytes]:
    """Contents of many blobs through one ``git cat-file --batch`` process."""
    if not shas:
        return {}
    proc = run_git(repo.root, ["cat-file", "--batch"], input=("\n".join(shas) + "\n").encode())
    out: dict[str, bytes] = {}
    data = proc.stdout
    pos = 0
    for sha in shas:
        nl = data.index(b"\n", pos)
        header = data[pos:nl].split()
        pos = nl + 1
        if len(header) < 3 or header[1] == b"missing":
            continue
        size = int(header[2])
        out[sha] = data[pos : pos + size]
        pos += size + 1
    return out


def ref_tips(repo: Repo, prefix: str = MEM_PREFIX) -> dict[str, str]:
    """``ref -> object`` for every ref under ``prefix``."""
    text = git_text(repo.root, ["for-each-ref", "--format=%(refname) %(objectname)", prefix])
    return dict(line.split(" ", 1) for line in text.splitlines() if " " in line)


def note_list(repo: Repo, ref: str) -> list[tuple[str, str]]:
    """``(note blob, annotated object)`` pairs of a notes ref."""
    text = git_text(repo.root, ["notes", f"--ref={ref}", "list"])
    return [tuple(line.split()[:2]) for line in text.splitlines() if len(line.split()) >= 2]  # type: ignore[misc]


def collapse(raws: Iterable[tuple[RawMemory, str]]) -> list[Memory]:
    """One :class:`Memory` per content hash: earliest timestamp, its namespace and tags; copies counted."""
    groups: dict[str, list[tuple[RawMemory, str]]] = {}
    for raw, commit in raws:
        groups.setdefault(memory_id(raw.summary, raw.content), []).append((raw, commit))
    out = []
    for mid, items in groups.items():
        items.sort(key=lambda t: (t[0].timestamp, t[0].namespace, t[1]))
        first = items[0][0]
        meta = {
            "occurrences": len(items),
            "last_seen": items[-1][0].timestamp.isoformat(),
            "commits": sorted({c for _, c in items}),
        }
        out.append(Memory(mid, first.namespace, first.timestamp, first.summary, first.content, first.tags, meta))
    return sorted(out, key=lambda m: (m.timestamp, m.id))


def load_memories(repo: Repo) -> LoadResult:
    """Read every memory under ``refs/notes/mem/*``; bad notes and records are skipped and reported."""
    tips = ref_tips(repo)
    raws: list[tuple[RawMemory, str]] = []
    errors: list[str] = []
    for ref in sorted(tips):
        namespace = ref[len(MEM_PREFIX) :]
        pairs = note_list(repo, ref)
        blobs = read_blobs(repo, sorted({b for b, _ in pairs}))
        for blob, commit in pairs:
            data = blobs.get(blob)
            if data is None:
                errors.append(f"{ref} note on {commit[:10]}: blob {blob[:10]} missing")
                continue
            text = data.decode("utf-8", "replace")
            good, bad = parse_note(text, namespace)
            raws.extend((g, commit) for g in good)
            errors.extend(f"{ref} note on {commit[:10]}: {msg}" for msg in bad)
    return LoadResult(collapse(raws), len(raws), errors, tips)


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

    Writers serialise on ``.git/memlab/notes.lock`` and retry git's own ref-lock races, so concurrent
    captures lose nothing.
    """
    if not namespace or not all(c.isalnum() or c in "-_" for c in namespace):
        raise MemlabError(f"bad namespace '{namespace}'; use letters, digits, '-' or '_' (e.g. decisions)")
    if not summary.strip():
        raise MemlabError("a memory needs a summary (--summary)")
    commit = git_text(repo.root, ["rev-parse", "--verify", "-q", f"{target}^{{commit}}"], check=False).strip()
    if not commit:
        raise MemlabError(f"no commit '{target}' to attach the memory to; make a first commit")
    text = format_memory(namespace, timestamp, summary, content or summary, tags)
    parsed, bad = parse_note(text, namespace)
    if bad or len(parsed) != 1:
        raise MemlabError(f"memory cannot be written in git-notes-memory's format: {'; '.join(bad) or 'split'}")
    with file_lock(repo.memlab_dir / "notes.lock"):
        run_git(
            repo.root,
            ["notes", f"--ref={MEM_PREFIX}{namespace}", "append", "-F", "-", commit],
            input=text.encode("utf-8"),
            retries=8,
        )
    return memory_id(parsed[0].summary, parsed[0].content)
