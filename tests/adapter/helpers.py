"""Shared helpers: write a project history into a repository as git-notes-memory notes."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

from memlab.adapter.notes_format import format_memory
from memlab.core.types import Memory
from tests.adapter.conftest import add_note


def write_memories(repo: Path, memories: list[Memory]) -> None:
    """Append every memory to the HEAD note of its namespace (one note per namespace, like upstream)."""
    by_ns: dict[str, list[str]] = {}
    for m in memories:
        by_ns.setdefault(m.namespace, []).append(format_memory(m.namespace, m.timestamp, m.summary, m.content, m.tags))
    for ns, texts in by_ns.items():
        add_note(repo, f"refs/notes/mem/{ns}", "\n".join(texts))


def can_mount() -> bool:
    """Whether this process may mount a tmpfs (root with CAP_SYS_ADMIN)."""
    import os
    import subprocess
    import tempfile

    if os.geteuid() != 0:
        return False
    with tempfile.TemporaryDirectory() as tmp:
        if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", tmp], capture_output=True).returncode:
            return False
        subprocess.run(["umount", tmp], check=True)
    return True


@contextlib.contextmanager
def state_on_tmpfs(folder: Path, size_kib: int, *, readonly: bool = False) -> Iterator[Path]:
    """Mount a ``size_kib`` tmpfs on ``folder`` (its files copied in), read-only with ``readonly``."""
    import shutil
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory() as saved:
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copytree(folder, saved, dirs_exist_ok=True)
        subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_kib}k,mode=755", "tmpfs", str(folder)], check=True)
        try:
            shutil.copytree(saved, folder, dirs_exist_ok=True)
            if readonly:
                subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
            yield folder
        finally:
            subprocess.run(["umount", "-l", str(folder)], check=False)
