"""Shared helpers: write a project history into a repository as git-notes-memory notes."""

from __future__ import annotations

from pathlib import Path

from memlab.adapter.notes_format import format_memory
from memlab.types import Memory
from tests.adapter.conftest import add_note


def write_memories(repo: Path, memories: list[Memory]) -> None:
    """Append every memory to the HEAD note of its namespace (one note per namespace, like upstream)."""
    by_ns: dict[str, list[str]] = {}
    for m in memories:
        by_ns.setdefault(m.namespace, []).append(format_memory(m.namespace, m.timestamp, m.summary, m.content, m.tags))
    for ns, texts in by_ns.items():
        add_note(repo, f"refs/notes/mem/{ns}", "\n".join(texts))
