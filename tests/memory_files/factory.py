"""Tiny synthetic memory-file histories written for the tests (no third-party text)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def commit(k: int, day: int, status: str = "M") -> dict[str, Any]:
    """Commit ``k`` on 2025-01-``day``."""
    return {"sha": f"{k:040x}", "date": f"2025-01-{day:02d}T10:00:00+02:00", "status": status, "rewrite": False}


def fact(fid: str, text: str, recorded: int, removed: int | None = None, removal: str | None = None, **extra: Any):
    """One fact added in commit ``recorded`` and removed in ``removed`` (indexes)."""
    return {
        "id": fid,
        "text": text,
        "section": "Commands",
        "in_code": False,
        "recorded_in": f"{recorded:040x}",
        "removed_in": None if removed is None else f"{removed:040x}",
        "removal": removal,
        "replaced_by": [],
        "pair_jaccard": None,
        "moved_in": [],
        **extra,
    }


def claude_file(path: str = "CLAUDE.md", kind: str = "CLAUDE.md") -> dict[str, Any]:
    """Three commits: a test command changed (a kept pair), a note retired, a fact added."""
    return {
        "path": path,
        "kind": kind,
        "commits": [commit(0, 1, "A"), commit(1, 3), commit(2, 5)],
        "facts": [
            fact("f1", "- Run tests with `npm test`", 0, 1, "paired", replaced_by=["f3"], pair_jaccard=0.5),
            fact("f2", "- Use pnpm as the package manager", 0),
            fact("f3", "- Run tests with `pnpm vitest`", 1),
            fact("f4", "- The login page is being redesigned", 0, 2, "retired"),
            fact("f5", "- Lint with `pnpm lint`", 2),
        ],
    }


def write_repo(folder: Path, repo: str, files: list[dict[str, Any]]) -> Path:
    """Write one repository file ``owner__name.json`` into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    data = {"repo": repo, "commit": "0" * 40, "license": "MIT", "files": files}
    path = folder / (repo.replace("/", "__") + ".json")
    path.write_text(json.dumps(data), encoding="utf-8")
    return path
