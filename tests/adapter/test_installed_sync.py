"""Sync never deletes and merges what it moves: another clone's ``git notes remove``, a cut note, a note moved
to a path of another id width, a derived ref cut to one line are merged as a union into this clone; refs that
cannot merge are skipped and reported while the rest sync — run with the installed interpreter."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from memlab.adapter.gitcli import find_repo
from memlab.adapter.locking import writer_lock
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


def _shared_clones(tmp_path: Path):
    """A remote holding 12 memories in 3 notes, clone A (installed, synced) and clone B (plain git, the attacker)."""
    origin = make_repo(tmp_path / "origin")
    commits = []
    for c in range(3):
        git(origin, "commit", "-q", "--allow-empty", "-m", f"c{c}")
        commits.append(git(origin, "rev-parse", "HEAD").strip())
        memories = [upstream_memory("decisions", f"2025-12-1{c}T0{i}:00:00+00:00", f"M{c}{i}", "b") for i in range(4)]
        add_note(origin, "refs/notes/mem/decisions", "\n".join(memories), commit=commits[-1])
    bare = tmp_path / "remote.git"
    git(tmp_path, "clone", "-q", "--bare", str(origin), str(bare))
    git(origin, "push", "-q", str(bare), "refs/notes/mem/decisions:refs/notes/mem/decisions")
    a, b = _clone(bare, tmp_path / "a"), _clone(bare, tmp_path / "b")
    (tmp_path / "spec").mkdir()
    hook = install(a, write_spec(tmp_path / "spec"), sys.executable, "checkout")
    proc = hook.memlab("hook", "sync")
    assert proc.returncode == 0, proc.stderr
    git(b, "fetch", "-q", "origin", "+refs/notes/*:refs/notes/*")
    return hook, b, commits


EVERY = {f"M{c}{i}" for c in range(3) for i in range(4)}


def test_a_deletion_in_another_clone_never_empties_this_one(tmp_path):
    hook_a, b, commits = _shared_clones(tmp_path)
    assert _summaries(hook_a.project) == _summaries(b) == EVERY
    # clone B removes one note and cuts another to one memory, and pushes (a fast-forward for the remote)
    git(b, "notes", "--ref=refs/notes/mem/decisions", "remove", commits[0])
    kept = upstream_memory("decisions", "2025-12-11T00:00:00+00:00", "M10", "b")
    git(b, "notes", "--ref=refs/notes/mem/decisions", "add", "-f", "-F", "-", commits[1], input=kept)
    assert git(b, "push", "-q", "origin", "refs/notes/mem/decisions:refs/notes/mem/decisions") == ""
    assert len(_summaries(b)) == 5
    proc = hook_a.memlab("hook", "sync")
    assert proc.returncode == 0, proc.stderr
    assert "lacks local memories" in proc.stdout
    assert _summaries(hook_a.project) == EVERY  # nothing deleted here: 12 of 12
    assert all(f"M2{i}" in hook_a.context() for i in range(4))
    git(b, "fetch", "-q", "origin", "+refs/notes/mem/decisions:refs/notes/mem/decisions")
    assert _summaries(b) == EVERY  # and B gets them back from the pushed union


def test_a_note_moved_under_a_path_of_another_id_width_loses_nothing(tmp_path):
    hook, b, commits = _shared_clones(tmp_path)
    assert _summaries(hook.project) == EVERY
    tip = git(b, "rev-parse", "refs/notes/mem/decisions").strip()
    entries = []
    for line in git(b, "ls-tree", tip).splitlines():  # the note on commits[0] moved to <sha>/000…0 (64 digits)
        meta, path = line.split("\t")
        if path == commits[0]:
            folder = git(b, "mktree", input=f"{meta}\t{'0' * 24}\n").strip()
            line = f"040000 tree {folder}\t{path}"
        entries.append(line + "\n")
    forged = git(b, "commit-tree", git(b, "mktree", input="".join(entries)).strip(), "-p", tip, "-m", "m").strip()
    git(b, "push", "-q", "origin", f"{forged}:refs/notes/mem/decisions")
    proc = hook.memlab("hook", "sync")
    assert proc.returncode == 0 and "lacks local memories: kept" in proc.stdout, (proc.stdout, proc.stderr)
    assert _summaries(hook.project) == EVERY
    git(b, "fetch", "-q", "origin", "+refs/notes/mem/decisions:refs/notes/mem/decisions")
    assert _summaries(b) == EVERY  # the pushed union holds them again


def test_a_derived_ref_cut_to_one_line_is_merged_and_activations_kept(tmp_path):
    from memlab.adapter import jsonl_refs

    hook, b, _ = _shared_clones(tmp_path)
    repo = find_repo(hook.project)
    ids = sorted(m.id for m in load_memories(repo).memories)
    jsonl_refs.append_records(repo, "meta", [{"id": i, "tier": "hot", "activation_count": 3} for i in ids])
    assert hook.memlab("hook", "sync").returncode == 0
    git(b, "fetch", "-q", "origin", "+refs/notes/mem-meta:refs/notes/mem-meta")
    line = json.dumps({"id": ids[0], "tier": "hot", "activation_count": 0, "written_at": jsonl_refs.now_stamp()})
    b_repo = find_repo(b)
    with writer_lock(b_repo.memlab_dir):
        jsonl_refs.rewrite(b_repo, "meta", lambda _: line + "\n", "one line")
    git(b, "push", "-q", "origin", "refs/notes/mem-meta:refs/notes/mem-meta")
    proc = hook.memlab("hook", "sync")
    assert proc.returncode == 0 and "refs/notes/mem-meta: merged" in proc.stdout, proc.stdout
    records, _ = jsonl_refs.read_records(repo, "meta")
    assert sorted(records) == ids and all(records[i]["activation_count"] == 3 for i in ids), records[ids[0]]


def test_refs_that_cannot_merge_are_skipped_and_reported_while_the_rest_sync(tmp_path):
    hook, b, _ = _shared_clones(tmp_path)
    git(b, "notes", "--ref=refs/notes/mem/learnings", "add", "-m", "x", "HEAD")
    git(b, "push", "-q", "origin", "refs/notes/mem/learnings:refs/notes/mem/learnings")
    assert hook.memlab("hook", "sync").returncode == 0
    assert hook.memlab("hook", "sync-config").returncode == 0
    blob = git(b, "hash-object", "-w", "--stdin", input="not a notes commit").strip()
    git(b, "push", "-q", "-f", "origin", f"{blob}:refs/notes/mem/learnings")  # a memory ref forced onto a blob
    git(b, "push", "-q", "origin", ":refs/notes/mem/decisions")  # decisions deleted, decisions/evil created
    git(b, "push", "-q", "origin", "refs/notes/mem/decisions:refs/notes/mem/decisions/evil")
    proc = hook.memlab("hook", "capture", "--namespace", "progress", "--summary", "Only in A")
    assert proc.returncode == 0, proc.stderr
    proc = hook.memlab("hook", "sync")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "refs/notes/mem/learnings: skipped: the remote side points at a blob" in out, out
    assert "refs/notes/mem/decisions/evil: skipped: its name clashes" in out, out
    assert "refs/notes/mem/decisions: not pushed" in out, out
    assert "Only in A" in git(tmp_path / "remote.git", "notes", "--ref=refs/notes/mem/progress", "show", "HEAD")
    assert _summaries(hook.project) == EVERY | {"Only in A"}
    fetch = subprocess.run(["git", "fetch", "origin"], cwd=hook.project, capture_output=True, text=True)
    assert fetch.returncode == 0, fetch.stderr  # the user's own fetch, with sync-config's refspecs


@pytest.mark.slow  # 3,000 refs pushed once
def test_a_no_op_sync_over_thousands_of_refs_spawns_nothing_per_ref(tmp_path):
    project = make_repo(tmp_path / "project")
    add_note(project, "refs/notes/mem/decisions", upstream_memory("decisions", "2025-12-20T10:00:00+00:00", "S", "b"))
    tip = git(project, "rev-parse", "refs/notes/mem/decisions").strip()
    git(project, "update-ref", "--stdin", input="".join(f"create refs/notes/mem/ns{i} {tip}\n" for i in range(3000)))
    git(tmp_path, "init", "-q", "--bare", str(tmp_path / "remote.git"))
    git(project, "remote", "add", "origin", str(tmp_path / "remote.git"))
    (tmp_path / "spec").mkdir()
    hook = install(project, write_spec(tmp_path / "spec"), sys.executable, "checkout")
    first = hook.memlab("hook", "sync")
    assert first.returncode == 0 and "pushed 3001 notes refs to origin" in first.stdout, first.stdout[-500:]
    again = hook.memlab("hook", "sync")  # 33 s before: a merge check and git processes per ref
    assert again.returncode == 0 and again.stdout.splitlines() == ["3001 notes refs up to date", "nothing to push"]
