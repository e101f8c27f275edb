"""Reading real git notes, ids across clones, derived refs, never touching the memories."""

from __future__ import annotations

import gc
import json

import pytest

from memlab.adapter.consolidation import load_store
from memlab.adapter.gitcli import find_repo
from memlab.adapter.notes_store import load_memories, ref_tips
from tests.adapter.conftest import add_note, cli, git, make_repo, policy_of, upstream_memory


def test_reads_upstream_notes_with_rules_in_bodies(seeded):
    result = load_memories(find_repo(seeded))
    assert result.errors == []
    assert result.records == 3
    fastapi = next(m for m in result.memories if m.summary == "Use FastAPI for the API")
    assert "document_type: retrospective" in fastapi.content and fastapi.content.endswith("Done.")


def test_copies_collapse_to_one_memory_and_ids_survive_clone(seeded, tmp_path):
    git(seeded, "commit", "-q", "--allow-empty", "-m", "second")
    git(seeded, "notes", "--ref=refs/notes/mem/learnings", "copy", "HEAD~1", "HEAD")
    result = load_memories(find_repo(seeded))
    assert result.records == 4 and len(result.memories) == 3
    learn = next(m for m in result.memories if m.namespace == "learnings")
    assert learn.meta["occurrences"] == 2
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(seeded), str(clone))
    git(clone, "fetch", "-q", "origin", "refs/notes/mem/*:refs/notes/mem/*")
    assert [m.id for m in load_memories(find_repo(clone)).memories] == [m.id for m in result.memories]


def test_corrupt_notes_are_skipped_and_reported(seeded):
    add_note(seeded, "refs/notes/mem/decisions", "---\ntype: decisions\ntimestamp: [oops\n---\n\nbody\n")
    git(seeded, "commit", "-q", "--allow-empty", "-m", "x")
    add_note(seeded, "refs/notes/mem/progress", "\x00\x01 not a memory at all")
    add_note(seeded, "refs/notes/mem/progress", upstream_memory("progress", "not-a-date", "s", "b"))
    result = load_memories(find_repo(seeded))
    assert len(result.memories) == 3
    assert len(result.errors) == 3
    proc = cli("consolidate", cwd=seeded)
    assert proc.returncode == 0, proc.stderr
    assert "skipped" in proc.stderr


@pytest.mark.slow  # about 3 s: with the slow suite (CI runs it)
def test_consolidation_writes_derived_refs_and_leaves_memories_alone(seeded):
    before = ref_tips(find_repo(seeded))
    blobs = {r: git(seeded, "notes", f"--ref={r}", "list") for r in before}
    proc = cli("consolidate", "--json", cwd=seeded)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["memories"] == 3 and report["candidates"] >= 1
    assert ref_tips(find_repo(seeded)) == before
    assert {r: git(seeded, "notes", f"--ref={r}", "list") for r in before} == blobs
    refs = git(seeded, "for-each-ref", "--format=%(refname)", "refs/notes/").split()
    assert {"refs/notes/mem-meta", "refs/notes/mem-runs"} <= set(refs)
    loaded = load_store(find_repo(seeded), policy_of(seeded))
    assert loaded.errors == [] and len(loaded.meta) == 3 and len(loaded.runs) == 1
    dry = cli("consolidate", "--dry-run", "--json", cwd=seeded)
    assert json.loads(dry.stdout)["dry_run"] is True


def test_capture_appends_in_upstream_format(repo):
    proc = cli(
        "hook",
        "capture",
        "--namespace",
        "decisions",
        "--summary",
        "Use uv",
        "--content",
        "a\n\n---\ntype: x",
        "--tags",
        "tools,explicit",
        cwd=repo,
    )
    assert proc.returncode == 0, proc.stderr
    mid = proc.stdout.strip()
    stdin = json.dumps({"namespace": "learnings", "summary": "From stdin", "content": "body", "cwd": str(repo)})
    assert cli("hook", "capture", cwd=repo, stdin=stdin).returncode == 0
    note = git(repo, "notes", "--ref=refs/notes/mem/decisions", "show", "HEAD")
    assert note.startswith("---\ntype: decisions\n") and "- tools" in note
    result = load_memories(find_repo(repo))
    assert result.errors == []
    assert mid == next(m.id for m in result.memories if m.summary == "Use uv")
    assert {m.summary for m in result.memories} == {"Use uv", "From stdin"}


def test_sync_config_is_idempotent(repo, tmp_path):
    remote = make_repo(tmp_path / "remote")
    git(repo, "remote", "add", "origin", str(remote))
    assert cli("hook", "sync-config", cwd=repo).returncode == 0
    again = cli("hook", "sync-config", cwd=repo)
    assert again.stdout.strip() == "already configured"
    fetch = git(repo, "config", "--get-all", "remote.origin.fetch").split()
    assert "+refs/notes/mem-*:refs/notes/remotes/origin/mem-*" in fetch
    assert "refs/notes/mem/*:refs/notes/mem/*" in git(repo, "config", "--get-all", "remote.origin.push")
    git(repo, "fetch", "-q")  # works although the remote has none of memlab's refs
    assert git(repo, "config", "notes.mem-edges.mergeStrategy").strip() == "cat_sort_uniq"
    assert git(repo, "config", "notes.mem/decisions.mergeStrategy").strip() == "union"
    assert "refs/notes/mem-runs" in git(repo, "config", "--get-all", "notes.rewriteRef")


def test_reading_pauses_automatic_garbage_collection_and_always_restores_it(seeded, monkeypatch):
    from memlab.adapter import notes_store

    repo = find_repo(seeded)
    parse, during = notes_store.parse_chunks, []

    def watched(chunks, namespace):
        during.append(gc.isenabled())
        return parse(chunks, namespace)

    monkeypatch.setattr(notes_store, "parse_chunks", watched)
    assert len(load_memories(repo, cache=False).memories) == 3
    assert during and not any(during) and gc.isenabled()
    gc.disable()
    try:
        load_memories(repo, cache=False)
        assert not gc.isenabled()  # a caller that had it off keeps it off
    finally:
        gc.enable()

    def broken(text, namespace):
        raise RuntimeError("parser bug")

    monkeypatch.setattr(notes_store, "parse_chunks", broken)
    with pytest.raises(RuntimeError):
        load_memories(repo, cache=False)
    assert gc.isenabled()
