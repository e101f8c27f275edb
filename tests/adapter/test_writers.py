"""Other writers of the same refs lose nothing: compare-and-swap, git-notes-memory's lock, activations
re-read under the lock, derived records that survive gc and prune, and `memlab hook sync` between clones."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from memlab.adapter import jsonl_refs
from memlab.adapter.consolidation import load_store
from memlab.adapter.gitcli import find_repo
from memlab.adapter.notes_store import append_memory, load_memories
from memlab.adapter.state import clock
from tests.adapter.conftest import PY, cli, env, git, make_repo, policy_of, seed

MEMLAB_LOOP = """
import sys
from datetime import UTC, datetime
from memlab.adapter.gitcli import find_repo
from memlab.adapter.notes_store import append_memory
repo = find_repo(sys.argv[1]); w = sys.argv[2]
for i in range(int(sys.argv[3])):
    append_memory(repo, "decisions", f"memlab {w} {i}", f"body {w}/{i}", timestamp=datetime.now(UTC))
"""
FOREIGN_ENTRY = "---\ntype: decisions\ntimestamp: 2025-12-20T10:00:00+00:00\nsummary: foreign {w} {i}\n---\n\nx{w}{i}\n"


def foreign_loop(repo: Path, w: int, n: int, lock: Path | None) -> subprocess.Popen:
    """``git notes append`` in a loop, as git-notes-memory writes (under its capture lock when given)."""
    lines = []
    for i in range(n):
        entry = FOREIGN_ENTRY.format(w=w, i=i).replace("'", "")
        cmd = f"git notes --ref=refs/notes/mem/decisions append -m '{entry}' HEAD"
        lines.append(f"flock {lock} {cmd}" if lock else cmd)
    return subprocess.Popen(["bash", "-c", " && ".join(lines)], cwd=repo)


def summaries(repo: Path) -> set[str]:
    result = load_memories(find_repo(repo))
    assert not [e for e in result.errors if "decisions" in e], result.errors
    return {m.summary for m in result.memories}


def run_writers(repo: Path, memlab_writers: int, foreign_writers: int, n: int, lock: Path | None) -> None:
    procs = [
        subprocess.Popen([PY, "-c", MEMLAB_LOOP, str(repo), str(w), str(n)], env=env()) for w in range(memlab_writers)
    ]
    procs += [foreign_loop(repo, w, n, lock) for w in range(foreign_writers)]
    for p in procs:
        assert p.wait(timeout=300) == 0


@pytest.mark.slow
def test_memlab_beside_git_notes_memory_writers_lose_nothing(repo, tmp_path, monkeypatch):
    """8 memlab capture loops beside 8 ``git notes append`` loops under git-notes-memory's capture lock."""
    data = tmp_path / "memory-plugin"
    data.mkdir()
    monkeypatch.setenv("MEMORY_PLUGIN_DATA_DIR", str(data))
    run_writers(repo, 8, 8, 10, data / ".capture.lock")
    got = summaries(repo)
    assert {f"foreign {w} {i}" for w in range(8) for i in range(10)} <= got
    assert {f"memlab {w} {i}" for w in range(8) for i in range(10)} <= got


def test_an_unlocked_foreign_writer_is_never_overwritten(repo):
    """memlab moves the ref only from the tip it read, so even a writer that takes no lock loses nothing."""
    run_writers(repo, 4, 1, 12, None)
    assert {f"foreign 0 {i}" for i in range(12)} <= summaries(repo)


def test_a_write_between_read_and_update_is_kept(repo, monkeypatch):
    """Deterministic interleaving: another writer appends after memlab built its commit, before it moved the
    ref; memlab's compare-and-swap fails, it rebuilds on the new tip, and both memories stay."""
    from memlab.adapter import notes_write

    real = notes_write.commit_tree
    calls = []

    def racing(*args, **kwargs):
        made = real(*args, **kwargs)
        if not calls:
            git(repo, "notes", "--ref=refs/notes/mem/decisions", "append", "-m", FOREIGN_ENTRY.format(w=9, i=9), "HEAD")
        calls.append(made)
        return made

    monkeypatch.setattr(notes_write, "commit_tree", racing)
    append_memory(find_repo(repo), "decisions", "memlab 0 0", "body", timestamp=clock())
    assert len(calls) == 2 and {"foreign 9 9", "memlab 0 0"} <= summaries(repo)


def test_recall_during_consolidation_keeps_activations(consolidated, monkeypatch):
    """A recall that lands while a consolidation runs keeps its activation counts."""
    import memlab.pipeline.consolidate as pipeline
    from memlab.adapter.consolidation import consolidate_repo
    from memlab.adapter.spec import default_spec
    from memlab.cli import main

    real = pipeline.consolidate

    def with_recall(*args, **kwargs):
        result = real(*args, **kwargs)
        for _ in range(2):  # in this process: the consolidation holds its lock, recall takes the writer lock
            assert main(["recall", "API", "--limit", "10", "--project", str(consolidated)]) == 0
        return result

    monkeypatch.setattr(pipeline, "consolidate", with_recall)
    consolidate_repo(find_repo(consolidated), default_spec())
    meta, _ = jsonl_refs.read_records(find_repo(consolidated), "meta", policy_of(consolidated))
    assert len(meta) == 3 and all(r["activation_count"] == 2 for r in meta.values()), meta


@pytest.mark.slow
def test_concurrent_recalls_count_every_activation(consolidated):
    procs = [
        subprocess.Popen([PY, "-m", "memlab.cli", "recall", "API", "--limit", "10"], cwd=consolidated, env=env())
        for _ in range(6)
    ]
    assert all(p.wait(timeout=120) == 0 for p in procs)
    meta, _ = jsonl_refs.read_records(find_repo(consolidated), "meta", policy_of(consolidated))
    assert sorted(r["activation_count"] for r in meta.values()) == [6, 6, 6]


def test_derived_records_survive_gc_and_prune(consolidated):
    before = load_store(find_repo(consolidated), policy_of(consolidated))
    assert before.meta and before.runs
    git(consolidated, "gc", "-q", "--prune=now")
    for ref in jsonl_refs.DERIVED_REFS.values():
        git(consolidated, "notes", f"--ref={ref}", "prune")
    after = load_store(find_repo(consolidated), policy_of(consolidated))
    assert after.errors == [] and after.meta == before.meta and after.runs == before.runs
    assert len(after.store.summaries) == len(before.store.summaries)


def clone(bare: Path, path: Path) -> Path:
    git(bare.parent, "clone", "-q", str(bare), str(path))
    git(path, "config", "user.email", "t@example.com")
    git(path, "config", "user.name", "T")
    return path


def capture(repo: Path, summary: str) -> None:
    proc = cli("hook", "capture", "--namespace", "decisions", "--summary", summary, cwd=repo)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.slow
def test_sync_between_two_clones_and_a_bare_remote(tmp_path):
    origin = seed(make_repo(tmp_path / "origin"))
    bare = tmp_path / "remote.git"
    git(tmp_path, "clone", "-q", "--bare", str(origin), str(bare))
    git(origin, "remote", "add", "origin", str(bare))
    assert cli("hook", "sync", cwd=origin).returncode == 0  # pushes the notes
    a, b = clone(bare, tmp_path / "a"), clone(bare, tmp_path / "b")
    # a clone, sync-config and a plain fetch: the notes land under refs/notes/remotes/, memlab sync merges them
    assert cli("hook", "sync-config", cwd=b).returncode == 0
    git(b, "fetch", "-q")
    assert len(load_memories(find_repo(b)).memories) == 0
    assert (
        "refs/notes/remotes/origin/mem/decisions"
        in json.loads(cli("status", "--json", cwd=b).stdout)["fetched_not_merged"]
    )
    capture(a, "Only in A")
    assert cli("consolidate", cwd=a).returncode == 0
    capture(b, "Only in B")  # same commit, same note: the two sides diverge
    assert cli("consolidate", cwd=b).returncode == 0
    proc = cli("hook", "sync", cwd=a)
    assert proc.returncode == 0, proc.stderr
    proc = cli("hook", "sync", cwd=b)
    assert proc.returncode == 0, proc.stderr
    assert "merged" in proc.stdout
    assert cli("hook", "sync", cwd=a).returncode == 0
    for side in (a, b):
        names = {m.summary for m in load_memories(find_repo(side)).memories}
        assert {"Only in A", "Only in B", "Use FastAPI for the API"} <= names and len(names) == 5
        loaded = load_store(find_repo(side), policy_of(side))
        assert loaded.errors == [] and len(loaded.runs) == 2
    assert git(a, "rev-parse", "refs/notes/mem/decisions") == git(b, "rev-parse", "refs/notes/mem/decisions")
    status = json.loads(cli("status", "--json", cwd=b).stdout)
    assert status["memories"] == 5
