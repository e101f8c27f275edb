"""Volume: many namespace refs are read in a few git processes and configured by a fixed set; fanned-out
notes trees are listed exactly as ``git notes list`` lists them."""

from __future__ import annotations

import json

import pytest

from memlab.adapter.gitcli import find_repo
from memlab.adapter.notes_store import list_notes, load_memories, ref_tips
from memlab.adapter.spec import build_components, resolve_spec
from memlab.adapter.vectors import read_vectors, text_key, vectors_path
from memlab.core.types import NAMESPACES
from memlab.strategies.retriever.engine import index_text
from tests.adapter.conftest import add_note, git, main_in_process, seed, upstream_memory


def test_many_namespace_refs_are_read_together_and_configured_by_a_fixed_set(installed_checkout):
    hook = installed_checkout
    add_note(
        hook.project,
        "refs/notes/mem/decisions",
        upstream_memory("decisions", "2025-12-20T10:00:00+00:00", "Shared", "b"),
    )
    tip = git(hook.project, "rev-parse", "refs/notes/mem/decisions").strip()
    git(
        hook.project,
        "update-ref",
        "--stdin",
        input="".join(f"create refs/notes/mem/ns{i:04d} {tip}\n" for i in range(600)),
    )
    status = json.loads(main_in_process("status", "--json", "--project", str(hook.project))[1])
    assert status["records"] == 601 and status["memories"] == 1 and status["skipped"] == 0
    assert "Shared" in hook.context()
    assert hook.memlab("hook", "sync-config").returncode == 0
    sections = git(hook.project, "config", "--get-regexp", r"^notes\..*\.mergestrategy$").splitlines()
    assert len(sections) == len(NAMESPACES) + 4, len(sections)


def test_fanned_out_notes_are_listed_like_git_notes_list(installed_checkout):
    hook = installed_checkout
    repo = find_repo(hook.project)
    commits = []
    for i in range(4):
        git(hook.project, "commit", "-q", "--allow-empty", "-m", f"c{i}")
        commits.append(git(hook.project, "rev-parse", "HEAD").strip())
    blobs = [
        git(
            hook.project,
            "hash-object",
            "-w",
            "--stdin",
            input=upstream_memory("decisions", "2025-12-20T10:00:00Z", f"F{i}", "b"),
        ).strip()
        for i in range(4)
    ]
    inner = {}  # commits[0..2] fanned out as ab/cdef..., commits[3] flat, and one non-note entry
    for c, b in zip(commits[:3], blobs[:3], strict=True):
        inner.setdefault(c[:2], []).append(f"100644 blob {b}\t{c[2:]}\n")
    entries = [f"040000 tree {git(hook.project, 'mktree', input=''.join(v)).strip()}\t{k}\n" for k, v in inner.items()]
    entries += [f"100644 blob {blobs[3]}\t{commits[3]}\n", f"100644 blob {blobs[0]}\tREADME\n"]
    tree = git(hook.project, "mktree", input="".join(entries)).strip()
    notes = git(hook.project, "commit-tree", tree, "-m", "notes").strip()
    git(hook.project, "update-ref", "refs/notes/mem/decisions", notes)
    expected = sorted(
        tuple(line.split())
        for line in git(hook.project, "notes", "--ref=refs/notes/mem/decisions", "list").splitlines()
    )
    listed, errors = list_notes(repo, ref_tips(repo))
    assert errors == [] and sorted((blob, obj) for _, blob, obj in listed) == expected and len(expected) == 4
    assert all(f"F{i}" in hook.context() for i in range(4))


def fast_import_notes(project, count: int) -> None:
    """``count`` notes (one memory each, fanned out) on distinct objects under refs/notes/mem/decisions."""
    import hashlib
    import subprocess

    parts = [b"commit refs/notes/mem/decisions\ncommitter x <x@x> 1700000000 +0000\ndata 5\nnotes\n"]
    for i in range(count):
        obj = hashlib.sha1(f"obj{i}".encode()).hexdigest()
        text = (
            f"---\ntype: decisions\ntimestamp: 2025-11-{1 + i % 28:02d}T{i % 24:02d}:00:00+00:00\n"
            f"summary: Decision number {i} about component {i % 97}\ntags:\n- t{i % 13}\n---\n\nBecause {i}.\n"
        ).encode()
        parts.append(f"M 100644 inline {obj[:2]}/{obj[2:]}\ndata {len(text)}\n".encode() + text + b"\n")
    subprocess.run(["git", "fast-import", "--quiet"], cwd=project, input=b"".join(parts), check=True)


def _first_session(hook, count: int) -> tuple[dict, float]:
    import time

    fast_import_notes(hook.project, count)
    t0 = time.monotonic()
    out = hook.session_start()
    return out, time.monotonic() - t0


def test_a_first_session_over_thousands_of_notes_injects(installed):
    out, _ = _first_session(installed, 3_000)
    assert "raw notes" in out["systemMessage"] and out["hookSpecificOutput"]["additionalContext"], out


@pytest.mark.slow
def test_a_first_session_over_100000_notes_injects_within_its_budget(installed_checkout):
    out, seconds = _first_session(installed_checkout, 100_000)
    assert "raw notes" in out["systemMessage"] and out["hookSpecificOutput"]["additionalContext"], out
    assert seconds < 3.0 + 2.0  # the 3 s time guard plus interpreter start on a loaded machine


def test_a_consolidation_over_its_cap_keeps_the_newest_and_still_gives_a_block(installed_checkout):
    hook = installed_checkout
    spec = json.loads(hook.spec.read_text())
    spec["hook"]["max_memories"] = 2
    hook.spec.write_text(json.dumps(spec))
    seed(hook.project)
    code, out, err = main_in_process("consolidate", "--spec", str(hook.spec), "--project", str(hook.project))
    assert code == 0 and "degraded: consolidated the newest 2 of 3 memories" in out, (out, err)
    block = hook.context()
    assert "Use FastAPI for the API" in block and "pytest -x" in block and "Use Flask" not in block, block
    # recall searches every memory: the one past the cap is found, from a vector the consolidation kept
    repo = find_repo(hook.project)
    components = build_components(resolve_spec(str(hook.spec)), groups=("embedder", "retriever"))
    model, context = components.embedder.model_id, components.retriever.context
    flask = next(m for m in load_memories(repo).memories if m.summary == "Use Flask for the API")
    assert text_key(model, index_text(flask, context)) in read_vectors(vectors_path(repo.memlab_dir, model), model)
    proc = hook.memlab("recall", "Flask", "--no-track", "--spec", str(hook.spec))
    assert proc.returncode == 0 and "Use Flask for the API" in proc.stdout.splitlines()[0], (proc.stdout, proc.stderr)
