"""Sync never deletes: another clone's ``git notes remove`` (or a cut note) pushed to the remote is merged
as a union into this clone, never fast-forwarded over its memories — run with the installed interpreter."""

from __future__ import annotations

import sys
from pathlib import Path

from memlab.adapter.gitcli import find_repo
from memlab.adapter.notes_store import load_memories
from tests.adapter.conftest import add_note, git, make_repo, upstream_memory
from tests.adapter.installed import install, write_spec


def _clone(bare: Path, path: Path) -> Path:
    git(bare.parent, "clone", "-q", str(bare), str(path))
    git(path, "config", "user.email", "t@example.com")
    git(path, "config", "user.name", "T")
    return path


def _summaries(repo: Path) -> set[str]:
    return {m.summary for m in load_memories(find_repo(repo)).memories}


def test_a_deletion_in_another_clone_never_empties_this_one(tmp_path):
    origin = make_repo(tmp_path / "origin")
    commits = []
    for c in range(3):
        git(origin, "commit", "-q", "--allow-empty", "-m", f"c{c}")
        commits.append(git(origin, "rev-parse", "HEAD").strip())
        memories = [upstream_memory("decisions", f"2025-12-1{c}T0{i}:00:00+00:00", f"M{c}{i}", "b") for i in range(4)]
        add_note(origin, "refs/notes/mem/decisions", "\n".join(memories), commit=commits[-1])
    bare = tmp_path / "remote.git"
    git(tmp_path, "clone", "-q", "--bare", str(origin), str(bare))
    a, b = _clone(bare, tmp_path / "a"), _clone(bare, tmp_path / "b")
    (tmp_path / "spec").mkdir()
    hook_a = install(a, write_spec(tmp_path / "spec"), sys.executable, "checkout")
    hook_b = install(b, hook_a.spec, sys.executable, "checkout")
    git(origin, "remote", "add", "origin", str(bare))
    push = git(origin, "push", "-q", "origin", "refs/notes/mem/decisions:refs/notes/mem/decisions")
    assert push == ""
    for hook in (hook_a, hook_b):
        proc = hook.memlab("hook", "sync")
        assert proc.returncode == 0, proc.stderr
    every = {f"M{c}{i}" for c in range(3) for i in range(4)}
    assert _summaries(a) == _summaries(b) == every
    # clone B removes one note and cuts another to one memory, and pushes (a fast-forward for the remote)
    git(b, "notes", "--ref=refs/notes/mem/decisions", "remove", commits[0])
    kept = upstream_memory("decisions", "2025-12-11T00:00:00+00:00", "M10", "b")
    git(b, "notes", "--ref=refs/notes/mem/decisions", "add", "-f", "-F", "-", commits[1], input=kept)
    assert git(b, "push", "-q", "origin", "refs/notes/mem/decisions:refs/notes/mem/decisions") == ""
    assert len(_summaries(b)) == 5
    proc = hook_a.memlab("hook", "sync")
    assert proc.returncode == 0, proc.stderr
    assert "lacks local memories" in proc.stdout
    assert _summaries(a) == every  # nothing deleted here: 12 of 12
    assert all(f"M2{i}" in hook_a.context() for i in range(4))
    assert hook_b.memlab("hook", "sync").returncode == 0  # and B gets them back from the pushed union
    assert _summaries(b) == every
