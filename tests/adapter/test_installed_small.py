"""Smaller attacks through the installed command: deep JSON in the cache and on stdin, a bad ``cwd``, a
resumed session never seen, oversized capture input, and dangling refs."""

from __future__ import annotations

import json

import pytest

from memlab.adapter.gitcli import find_repo
from memlab.adapter.notes_store import load_memories
from tests.adapter.conftest import git, main_in_process, seed
from tests.adapter.installed import payload

DEEP = "[" * 200_000 + "]" * 200_000


def test_a_deep_cache_file_is_bypassed_and_the_raw_notes_injected(installed):
    seed(installed.project)
    cache = installed.project / ".git" / "memlab" / "candidates.json"
    cache.parent.mkdir(exist_ok=True)
    cache.write_text('{"format": 2, "rows": ' + DEEP + "}")
    out = installed.session_start()
    assert "Use FastAPI for the API" in out["hookSpecificOutput"]["additionalContext"], (out, installed.log())


def test_a_bad_cwd_type_still_injects_and_garbage_is_logged(installed):
    seed(installed.project)
    for cwd in (5, ["x"], None, ""):
        proc = installed.run("SessionStart", payload(installed.project, "SessionStart", cwd=cwd))
        assert proc.returncode == 0 and "Use FastAPI" in proc.stdout, (cwd, proc.stdout, installed.log())
    proc = installed.run("SessionStart", DEEP)
    assert proc.returncode == 0 and proc.stdout == "" and proc.stderr == ""
    assert "nested too deeply" in installed.log()


def test_a_resumed_session_never_seen_gets_the_block(installed):
    seed(installed.project)
    first = installed.context(source="startup", session_id="A")
    assert first and installed.context(source="resume", session_id="A") == ""
    assert installed.context(source="resume", session_id="started-before-install") == first


def test_capture_input_errors_are_one_line(installed_checkout):
    hook = installed_checkout
    for stdin, words in ((DEEP, "nested too deeply"), ("x" * (5 * 1024 * 1024), "larger than 4 MiB")):
        proc = hook.memlab("hook", "capture", stdin=stdin)
        assert proc.returncode != 0 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
        assert words in proc.stderr and "Traceback" not in proc.stderr


def test_dangling_refs_stop_nothing_and_never_wedge_writes(installed_checkout):
    hook = installed_checkout
    seed(hook.project)
    missing = "1234567890" * 4
    git(
        hook.project, "update-ref", "--no-deref", "refs/notes/mem/ghost", git(hook.project, "rev-parse", "HEAD").strip()
    )
    (hook.project / ".git" / "refs" / "notes" / "mem" / "ghost").write_text(missing + "\n")
    (hook.project / ".git" / "refs" / "notes" / "mem-meta").write_text(missing + "\n")
    assert "Use FastAPI for the API" in hook.context()
    code, _, err = main_in_process("consolidate", "--project", str(hook.project))
    assert code == 0, err
    assert len(load_memories(find_repo(hook.project)).memories) == 3
    proc = hook.memlab("hook", "capture", "--namespace", "ghost", "--summary", "s")
    assert proc.returncode != 0 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert "missing from the repository" in proc.stderr and "60 attempts" not in proc.stderr
    status = json.loads(main_in_process("status", "--json", "--project", str(hook.project))[1])
    assert status["memories"] == 3 and any("refs/notes/mem/ghost" in e for e in status["errors"])


@pytest.mark.slow  # over 4 s: runs with the slow suite (make test-slow, CI)
def test_git_failures_name_their_reason_and_stale_files_are_cleaned(installed_checkout, tmp_path):
    import os
    import subprocess

    hook = installed_checkout
    lock = hook.project / ".git" / "refs" / "notes" / "mem" / "decisions.lock"
    seed(hook.project)
    lock.write_text("")  # a git process killed while it held the ref
    proc = hook.memlab("hook", "capture", "--namespace", "decisions", "--summary", "s")
    assert proc.returncode != 0 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert str(lock) in proc.stderr and "delete that lock file" in proc.stderr
    lock.unlink()
    stale = hook.project / ".git" / "memlab" / "index-99999-deadbeef"
    stale.write_bytes(b"DIRC")  # the temporary index of a capture killed long ago
    os.utime(stale, (1, 1))
    proc = hook.memlab("hook", "capture", "--namespace", "decisions", "--summary", "s")
    assert proc.returncode == 0 and not stale.exists(), proc.stderr
    if os.geteuid() == 0:  # a repository owned by someone else: git refuses it and memlab says why
        subprocess.run(["chown", "-R", "nobody", str(hook.project)], check=True)
        proc = hook.memlab("hook", "capture", "--namespace", "decisions", "--summary", "t")
        assert proc.returncode != 0 and "dubious ownership" in proc.stderr, proc.stderr


@pytest.mark.slow  # two recalls: over 2 s
def test_a_stale_ref_lock_is_reported_at_once(installed_checkout):
    import time

    hook = installed_checkout
    seed(hook.project)
    seconds = []
    for stale in (False, True):
        lock = hook.project / ".git" / "refs" / "notes" / "mem-meta.lock"  # a git process killed holding the ref
        if stale:
            lock.write_text("")
        t0 = time.monotonic()
        proc = hook.memlab("recall", "API")  # records activations in mem-meta
        seconds.append(time.monotonic() - t0)
    errors = [line for line in proc.stderr.splitlines() if not line.startswith("memlab recall: policy")]
    assert proc.returncode != 0 and len(errors) == 1 and str(lock) in errors[0], proc.stderr
    assert seconds[1] - seconds[0] < 6, seconds  # the lock cost 17 s at idle: 60 attempts of three git processes
