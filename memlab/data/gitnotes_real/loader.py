"""Read ``notes.jsonl`` (the git-notes-memory-manager export, see its SOURCE.md) into memories.

Each record becomes one :class:`~memlab.core.types.Memory` with id ``<namespace>/<commit[:12]>/<index>`` (a
note is per commit and namespace; ``index`` is the memory's position inside the note). Nothing is copied
into the repository; the file is read where it lies.
"""

from __future__ import annotations

import json
from pathlib import Path

from memlab.core.errors import MemlabError
from memlab.core.types import Memory
from memlab.data.project_history.schema import parse_time

EXPECTED_SHA256 = "fdd0d61cc8ef89fc0c5b7de5eb321d87876934a0856d68d8467d90a0f8b7f27c"
HOW_TO_GET = (
    "the git-notes-memory-manager export lives in ${paths.data_dir}/git-notes-memory-notes/notes.jsonl "
    "(set MEMLAB_DATA_DIR or dataset.path=...)"
)


def load_notes(path: str | Path, limit: int | None = None) -> list[Memory]:
    """Memories of ``notes.jsonl`` in file order (the first ``limit`` records when given)."""
    path = Path(path)
    if not path.is_file():
        raise MemlabError(f"notes file not found: {path}; {HOW_TO_GET}")
    out: list[Memory] = []
    seen: set[str] = set()
    with path.open(encoding="utf-8") as fh:
        for line_no, line in enumerate(fh, start=1):
            if limit is not None and len(out) >= limit:
                break
            if not line.strip():
                continue
            where = f"{path}: line {line_no}"
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as exc:
                raise MemlabError(f"{where}: not valid JSON ({exc.msg})") from None
            if not isinstance(rec, dict):
                raise MemlabError(f"{where}: expected a JSON object")
            for key in ("namespace", "commit", "index", "timestamp", "summary", "content"):
                if key not in rec:
                    raise MemlabError(f"{where}: missing field '{key}'")
            mid = f"{rec['namespace']}/{str(rec['commit'])[:12]}/{rec['index']}"
            if mid in seen:
                raise MemlabError(f"{where}: duplicate record id {mid}")
            seen.add(mid)
            out.append(
                Memory(
                    id=mid,
                    namespace=str(rec["namespace"]),
                    timestamp=parse_time(rec["timestamp"], f"{where} field 'timestamp'"),
                    summary=str(rec["summary"] or ""),
                    content=str(rec["content"] or ""),
                    tags=tuple(str(t) for t in (rec.get("tags") or ())),
                    meta={"commit": rec["commit"], "index": rec["index"]},
                )
            )
    return out
