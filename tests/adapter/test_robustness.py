"""Broken refs, caches and state folders are contained: one bad ref never stops the others, a corrupt cache
is rebuilt, a state folder that cannot be written gives one-line errors, and concurrent triggers run one
consolidation."""

from __future__ import annotations

import json
import os
import subprocess
import time

import pytest

from memlab.adapter import jsonl_refs
from memlab.adapter.consolidation import load_store
from memlab.adapter.gitcli import find_repo
from memlab.adapter.state import CACHE_FORMAT, CANDIDATE_COLUMNS, cache_problem, cache_rows, candidate_rows
from tests.adapter.conftest import cli, git, main_in_process, policy_of, seed, session_payload
from tests.adapter.helpers import can_mount, state_on_tmpfs

MOUNT = can_mount()


def blob(repo, text: str) -> str:
    return git(repo, "hash-object", "-w", "--stdin", input=text).strip()


def start(repo, **extra) -> dict:
    proc = cli("hook", "session-start", cwd=repo, stdin=session_payload(repo), **extra)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    return json.loads(proc.stdout) if proc.stdout.strip() else {}


def context(out: dict) -> str | None:
    return out.get("hookSpecificOutput", {}).get("additionalContext")


def test_a_memory_ref_pointing_at_a_blob_stops_nothing_else(installed_checkout):
    hook = installed_checkout
    seed(hook.project)
    assert main_in_process("consolidate", "--project", str(hook.project))[0] == 0
    git(hook.project, "update-ref", "refs/notes/mem/broken", blob(hook.project, "not a notes commit"))
    code, out, err = main_in_process("status", "--json", "--project", str(hook.project))
    assert code == 0, err
    data = json.loads(out)
    assert data["memories"] == 3 and any("refs/notes/mem/broken" in e for e in data["errors"])
    assert main_in_process("consolidate", "--project", str(hook.project))[0] == 0
    assert "Use FastAPI for the API" in hook.context()
    capture = hook.memlab("hook", "capture", "--namespace", "broken", "--summary", "x")
    assert capture.returncode == 2 and "not a notes commit" in capture.stderr


def test_a_derived_ref_pointing_at_a_blob_is_reported_and_replaced(consolidated):
    bad = blob(consolidated, "garbage")
    git(consolidated, "update-ref", "refs/notes/mem-meta", bad)
    status = json.loads(main_in_process("status", "--json", "--project", str(consolidated))[1])
    assert any("refs/notes/mem-meta points at a blob" in e for e in status["errors"])
    code, _, err = main_in_process("consolidate", "--project", str(consolidated))
    assert code == 0, err
    loaded = load_store(find_repo(consolidated), policy_of(consolidated))
    assert loaded.errors == [] and len(loaded.meta) == 3
    kept = git(consolidated, "for-each-ref", "--format=%(objectname)", "refs/memlab/broken/").split()
    assert kept == [bad]  # the replaced object is kept, not lost


def test_a_corrupt_cache_is_bypassed_and_rebuilt(installed_checkout):
    hook = installed_checkout
    seed(hook.project)
    assert main_in_process("consolidate", "--project", str(hook.project))[0] == 0
    memlab_dir = find_repo(hook.project).memlab_dir
    path = memlab_dir / "candidates.json"
    cache = json.loads(path.read_text())
    cache["rows"][0][CANDIDATE_COLUMNS.index("recency")] = None
    path.write_text(json.dumps(cache))
    (memlab_dir / "last-attempt.json").unlink(missing_ok=True)
    out = hook.session_start()
    assert "Use FastAPI for the API" in context(out) and "raw notes" in out["systemMessage"]
    assert "candidate 0 has no valid recency" in out["systemMessage"]
    deadline = time.time() + 120  # the background consolidation the session started rebuilds the cache
    while time.time() < deadline:
        if cache_problem(json.loads(path.read_text())) is None:
            break
        time.sleep(0.3)
    assert cache_problem(json.loads(path.read_text())) is None
    assert "raw notes" not in hook.session_start(session_id="s-2")["systemMessage"]


def test_a_failed_sessions_write_keeps_the_block(consolidated):
    sessions = find_repo(consolidated).memlab_dir / "sessions.json"
    sessions.mkdir()  # os.replace onto a folder fails
    assert context(start(consolidated))


def test_compaction_drops_bad_lines(repo):
    r = find_repo(repo)
    jsonl_refs.append_records(r, "meta", [{"id": "a", "tier": "hot"}])
    git(repo, "notes", "--ref=refs/notes/mem-meta", "append", "-m", "{not json", jsonl_refs.anchor(r, "meta"))
    assert jsonl_refs.read_records(r, "meta")[1]
    assert jsonl_refs.compact(r, "meta") == (1, 1)
    assert "{not json" not in jsonl_refs.read_text(r, "meta")
    assert jsonl_refs.read_records(r, "meta")[1] == []


@pytest.mark.parametrize("payload", [{"namespace": 5, "summary": "s"}, {"summary": ["x"]}, {"summary": "s", "tags": 3}])
def test_capture_with_bad_json_types_is_one_line(repo, payload):
    proc = cli("hook", "capture", cwd=repo, stdin=json.dumps(payload))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and len(proc.stderr.splitlines()) == 1


def error_lines(stderr: str) -> list[str]:
    """``stderr`` without the line a repository command starts with to say which policy it runs."""
    return [line for line in stderr.splitlines() if not line.startswith("memlab consolidate: ")]


def _unwritable(memlab_dir):
    """The state folder made unwritable: a read-only tmpfs as root, permissions otherwise."""
    if MOUNT:
        return state_on_tmpfs(memlab_dir, 1024, readonly=True)
    import contextlib

    @contextlib.contextmanager
    def chmodded():
        memlab_dir.chmod(0o555)
        try:
            yield memlab_dir
        finally:
            memlab_dir.chmod(0o755)

    return chmodded()


@pytest.mark.skipif(os.geteuid() == 0 and not MOUNT, reason="root without mount: permissions cannot be enforced")
def test_unwritable_state_folder_gives_one_line_errors(consolidated):
    memlab_dir = find_repo(consolidated).memlab_dir
    with _unwritable(memlab_dir):
        for args in (("hook", "capture", "--summary", "x"), ("consolidate",)):
            proc = cli(*args, cwd=consolidated)
            assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
            assert "writable" in proc.stderr and len(error_lines(proc.stderr)) == 1
        assert context(start(consolidated))  # reading the cache needs no write
        assert cli("status", cwd=consolidated).returncode == 0


@pytest.mark.slow
@pytest.mark.skipif(not MOUNT, reason="needs root to mount a small tmpfs")
def test_a_full_disk_keeps_the_old_cache_and_the_refs(consolidated):
    memlab_dir = find_repo(consolidated).memlab_dir
    before = (memlab_dir / "candidates.json").read_bytes()
    old = context(start(consolidated))
    with state_on_tmpfs(memlab_dir, 256):
        try:
            with open(memlab_dir / "filler", "wb") as fh:
                while True:
                    fh.write(b"\0" * 4096)
                    fh.flush()
        except OSError:
            pass  # the disk is full
        proc = cli("consolidate", "--full", cwd=consolidated)
        assert proc.returncode == 2 and "No space left" in proc.stderr and "Traceback" not in proc.stderr
        assert (memlab_dir / "candidates.json").read_bytes() == before
        assert context(start(consolidated)) == old
    loaded = load_store(find_repo(consolidated), policy_of(consolidated))
    assert loaded.errors == [] and len(loaded.meta) == 3


@pytest.mark.slow
def test_concurrent_session_starts_run_one_consolidation(installed_checkout):
    """Eight first sessions at once through the installed command: the check runs under the lock, so one
    consolidation, and every session injects. Slow: eight hooks on two loaded cores can pass their 3 s time guard
    and inject nothing (seen at load 8); a second trigger starting nothing is in test_session_start.py."""
    from tests.adapter.installed import claude_env, payload

    hook = installed_checkout
    seed(hook.project)
    procs = [
        subprocess.Popen(
            ["sh", "-c", hook.command("SessionStart")],
            cwd=hook.project,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=claude_env(hook.project),
        )
        for _ in range(8)
    ]
    outs = [
        p.communicate(payload(hook.project, "SessionStart", session_id=f"s{i}").encode(), timeout=60)
        for i, p in enumerate(procs)
    ]
    assert all(b"Use FastAPI for the API" in out and err == b"" for out, err in outs), outs
    memlab_dir = find_repo(hook.project).memlab_dir
    deadline = time.time() + 300
    time.sleep(1)
    while time.time() < deadline and _consolidations_of(hook.project):  # every spawned process has ended
        time.sleep(0.5)
    log = (memlab_dir / "hook.log").read_text()
    done = [ln for ln in log.splitlines() if "memories," in ln]
    assert len(done) == 1, log


def _consolidations_of(repo) -> list[int]:
    """Live processes running ``memlab.cli consolidate`` for ``repo`` (read from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as fh:
                argv = fh.read().split(b"\0")
        except OSError:
            continue
        if b"consolidate" in argv and str(repo).encode() in argv:
            found.append(int(entry))
    return found


def test_a_permission_denied_state_folder_is_one_line(seeded, monkeypatch):
    """EACCES on ``.git/memlab`` (whoever runs the tests: root ignores file modes, so it is injected)."""
    real = os.open

    def deny(path, *args, **kwargs):
        if "/.git/memlab/" in str(path):
            raise PermissionError(13, "Permission denied", str(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", deny)
    for args in (("hook", "capture", "--summary", "x"), ("consolidate",)):
        code, _, err = main_in_process(*args, "--project", str(seeded))
        assert code == 2 and "Permission denied" in err and "writable" in err and len(error_lines(err)) == 1


def test_cache_rows_are_checked_and_converted_in_one_pass():
    record = {
        "id": "m1",
        "kind": "memory",
        "namespace": "decisions",
        "text": "Use FastAPI",
        "timestamp": "2025-12-20T10:00:00+00:00",
        "relevance": 0,
        "recency": 0.5,
        "activation": 0.25,
        "confidence": 1.0,
        "tier": "hot",
    }
    cache = {"format": CACHE_FORMAT, "budget_tokens": 2000, "fields": list(CANDIDATE_COLUMNS)}
    rows, problem = candidate_rows({**cache, "rows": cache_rows([record])})
    assert problem is None and rows[0][:4] == ("m1", "memory", "decisions", "Use FastAPI")
    assert rows[0][4].isoformat() == record["timestamp"] and rows[0][5:] == (0.0, 0.5, 0.25, 1.0, "hot")
    assert type(rows[0][5]) is float

    def problem_of(**change):
        return cache_problem({**cache, "rows": cache_rows([{**record, **change}])})

    assert problem_of(recency=True) == "candidate 0 has no valid recency"
    assert problem_of(id=3) == "candidate 0 has no valid id"
    assert problem_of(tier="lukewarm") == "candidate 0 has an unknown tier"
    assert problem_of(timestamp="yesterday") == "candidate 0 has a bad timestamp"
    assert cache_problem({**cache, "rows": [["m1"]]}) == "candidate 0 is not a row of 10 values"
    assert cache_problem({**cache, "rows": [record]}) == "candidate 0 is not a row of 10 values"
    assert cache_problem({**cache, "format": 1, "candidates": [record]}) == "the candidate cache has another format"
    assert cache_problem({**cache, "fields": ["id"], "rows": []}) == "the candidate cache has other columns"
    assert cache_problem(None) == "no candidate cache"
