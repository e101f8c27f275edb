"""memlab's derived records as JSON Lines notes under ``refs/notes/mem-{meta,summaries,edges,runs}``.

Each ref holds one note, attached to a fixed anchor blob (``git hash-object`` of a constant string, so
every clone computes the same anchor). The note is JSON Lines: one self-contained record per line with
``id`` and ``written_at``. Git's ``cat_sort_uniq`` notes merge unions and sorts lines, which keeps every
record intact; readers take the newest record per id (``written_at``, then the line text), so line order
never matters. Writers append under ``.git/memlab/notes.lock``; compaction rewrites the note with the
newest record per id. Every write is one atomic ref update, so a killed writer leaves the ref readable.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

from memlab.adapter.gitcli import Repo, git_text, run_git
from memlab.adapter.locking import file_lock

#: kind -> notes ref.
DERIVED_REFS: dict[str, str] = {
    "meta": "refs/notes/mem-meta",
    "summaries": "refs/notes/mem-summaries",
    "edges": "refs/notes/mem-edges",
    "runs": "refs/notes/mem-runs",
}


def now_stamp() -> str:
    """Wall-clock write time with microseconds (UTC ISO-8601)."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def anchor(repo: Repo, kind: str) -> str:
    """The object the ``kind`` note hangs on (written once; the same sha in every clone)."""
    text = f"memlab derived records: {DERIVED_REFS[kind]}\n".encode()
    return git_text(repo.root, ["hash-object", "-w", "--stdin"], input=text).strip()


def encode(records: Iterable[Mapping[str, Any]], written_at: str | None = None) -> str:
    """JSON Lines text; every record gets ``written_at`` unless it has one."""
    stamp = written_at or now_stamp()
    lines = []
    for record in records:
        if "id" not in record:
            raise ValueError("a derived record needs an id")
        full = {**record, "written_at": record.get("written_at") or stamp}
        lines.append(json.dumps(full, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str))
    return "\n".join(lines)


def decode(text: str) -> tuple[dict[str, dict[str, Any]], list[str], int]:
    """Newest record per id, one message per bad line, and the number of good lines."""
    best: dict[str, tuple[tuple[str, str], dict[str, Any]]] = {}
    errors: list[str] = []
    good = 0
    for n, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line:
            continue
        try:
            record = json.loads(line)
            if not isinstance(record, dict) or not isinstance(record.get("id"), str):
                raise ValueError("not an object with a string id")
        except ValueError as exc:
            errors.append(f"line {n}: {str(exc)[:80]}")
            continue
        good += 1
        key = (str(record.get("written_at", "")), line)
        rid = record["id"]
        if rid not in best or key > best[rid][0]:
            best[rid] = (key, record)
    return {rid: rec for rid, (_, rec) in best.items()}, errors, good


def read_text(repo: Repo, kind: str) -> str:
    """The raw note text of ``kind`` ('' when the ref or note does not exist)."""
    ref = DERIVED_REFS[kind]
    proc = run_git(repo.root, ["notes", f"--ref={ref}", "show", anchor(repo, kind)], check=False)
    return proc.stdout.decode("utf-8", "replace") if proc.returncode == 0 else ""


def read_records(repo: Repo, kind: str) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """Newest record per id of ``kind``, plus messages for skipped lines."""
    records, errors, _ = decode(read_text(repo, kind))
    return records, [f"{DERIVED_REFS[kind]} {e}" for e in errors]


def append_records(repo: Repo, kind: str, records: Iterable[Mapping[str, Any]]) -> int:
    """Append records to ``kind``'s note (one atomic ref update); returns how many were written."""
    records = list(records)
    if not records:
        return 0
    text = encode(records)
    target = anchor(repo, kind)
    with file_lock(repo.memlab_dir / "notes.lock"):
        run_git(
            repo.root,
            ["notes", f"--ref={DERIVED_REFS[kind]}", "append", "-F", "-", target],
            input=text.encode("utf-8"),
            retries=8,
        )
    return len(records)


def compact(repo: Repo, kind: str) -> tuple[int, int]:
    """Rewrite ``kind``'s note with only the newest record per id; returns (lines before, records after)."""
    target = anchor(repo, kind)
    with file_lock(repo.memlab_dir / "notes.lock"):
        records, _, good = decode(read_text(repo, kind))
        if good == len(records):
            return good, len(records)
        ordered = [records[k] for k in sorted(records)]
        run_git(
            repo.root,
            ["notes", f"--ref={DERIVED_REFS[kind]}", "add", "-f", "-F", "-", target],
            input=encode(ordered).encode("utf-8"),
            retries=8,
        )
    return good, len(records)
