"""What a session captured is in the next session's block, through the installed hook commands.

The README's walk-through: a repository holding "Use Kafka for the event bus" and "Switched from Kafka to NATS
for the event bus" gets "Moved the event bus from NATS to Redis Streams" captured (``memlab hook capture``); one
Stop later the next SessionStart injects Redis Streams and not NATS, and so it does after a ``memlab consolidate``
without ``--spec``. When the Stop hook's consolidation cannot finish before the session starts (here: the test
holds the consolidation lock), the new memory is shown first, marked as not yet consolidated, and what it visibly
replaces is left out.
"""

from __future__ import annotations

import fcntl
import json
import os
import sys
import time
from pathlib import Path

import pytest

from memlab.adapter.export import spec_from_config
from tests.adapter.conftest import make_repo
from tests.adapter.installed import Installed, install
from tests.support.compose import compose_cfg

KAFKA = "Use Kafka for the event bus"
NATS = "Switched from Kafka to NATS for the event bus"
REDIS = "Moved the event bus from NATS to Redis Streams"
DOCKER = "The integration tests need Docker running"


def policy_spec(folder: Path, *overrides: str) -> Path:
    """An exported spec of the conf defaults with ``overrides``, outside any project."""
    folder.mkdir(parents=True, exist_ok=True)
    spec = folder / "memlab-hook.json"
    spec.write_text(json.dumps(spec_from_config(compose_cfg(list(overrides)))))
    return spec


def capture(hook: Installed, summary: str, when: str, namespace: str = "decisions") -> None:
    """``memlab hook capture`` as a person or an agent runs it (``MEMLAB_NOW`` fixes the clock)."""
    proc = hook.memlab("hook", "capture", "--namespace", namespace, "--summary", summary, MEMLAB_NOW=when)
    assert proc.returncode == 0, proc.stderr


def project_with_history(tmp_path: Path, spec: Path) -> Installed:
    """The walk-through's repository with ``spec`` installed and its first consolidation run."""
    project = make_repo(tmp_path / "project")
    hook = install(project, spec, sys.executable, "checkout")
    capture(hook, KAFKA, "2025-11-03T10:00:00+00:00")
    capture(hook, NATS, "2025-12-10T10:00:00+00:00")
    capture(hook, DOCKER, "2025-12-11T10:00:00+00:00", "learnings")
    assert hook.memlab("consolidate").returncode == 0
    return hook


def stop_and_wait(hook: Installed, captured: int) -> None:
    """The installed Stop command, then the wait for its background consolidation of ``captured`` new memories."""
    proc = hook.run("Stop")
    assert proc.returncode == 0 and proc.stdout == "" and proc.stderr == ""
    deadline = time.time() + 120
    while f"(incremental: {captured} new)" not in hook.log() and time.time() < deadline:
        time.sleep(0.2)
    assert f"(incremental: {captured} new)" in hook.log(), hook.log()


def check_walk_through(hook: Installed) -> None:
    first = hook.context(session_id="first")
    assert NATS in first and KAFKA not in first, first
    capture(hook, REDIS, "2025-12-21T10:00:00+00:00")
    stop_and_wait(hook, 1)
    block = hook.context(session_id="second")
    assert REDIS in block and NATS not in block and "not yet consolidated" not in block, block
    proc = hook.memlab("consolidate")
    assert proc.returncode == 0 and f"policy {hook.spec.resolve()} (installed, project scope)" in proc.stderr
    block = hook.context(session_id="third")
    assert REDIS in block and NATS not in block, block
    answer = hook.memlab("recall", "--reason", "--no-track", "event bus").stdout.splitlines()[0]
    assert answer.startswith(f"answer: {REDIS}"), answer  # the current fact, from the hit about the question
    answer = hook.memlab("recall", "--reason", "--no-track", "which message broker do we use").stdout
    assert answer.splitlines()[0] == "answer: (no memory matches the question)", answer  # not the Docker note


def imported(proc) -> set[str]:
    """Top-level packages a process imported (``PYTHONPROFILEIMPORTTIME`` lines on its stderr)."""
    return {ln.split("|")[-1].strip().split(".")[0] for ln in proc.stderr.splitlines() if ln.startswith("import time")}


@pytest.mark.slow  # three hook events and four consolidations in subprocesses
def test_a_decision_captured_in_one_session_is_current_in_the_next(tmp_path):
    hook = project_with_history(tmp_path, policy_spec(tmp_path / "spec", "embedder=tfidf", "judge=slot"))
    check_walk_through(hook)


@pytest.mark.slow  # the quickstart's winner, MiniLM and the cascade judge (without torch: a few texts)
def test_the_readme_walk_through_with_the_tuned_policy(tmp_path):
    spec = policy_spec(tmp_path / "spec", "+experiment=tuned", "dataset=project_history")
    hook = project_with_history(tmp_path, spec)
    check_walk_through(hook)
    recall = hook.memlab("recall", "event bus broker", "--no-track", PYTHONPROFILEIMPORTTIME="1")
    assert recall.returncode == 0 and REDIS in recall.stdout
    assert not imported(recall) & {"torch", "sentence_transformers", "sklearn"}  # kept vectors, query in numpy
    assert list((hook.project / ".git" / "memlab").glob("vectors-*.bin"))


@pytest.mark.slow  # waits for the hook's deadline while the test holds the consolidation lock
def test_a_session_starting_before_the_consolidation_shows_the_new_memory_marked(tmp_path):
    hook = project_with_history(tmp_path, policy_spec(tmp_path / "spec", "embedder=tfidf", "judge=slot"))
    assert NATS in hook.context(session_id="first")
    capture(hook, REDIS, "2025-12-21T10:00:00+00:00")
    lock = hook.project / ".git" / "memlab" / "consolidate.lock"
    fd = os.open(lock, os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # a long consolidation is running
        out = hook.session_start(session_id="second")
        block = out["hookSpecificOutput"]["additionalContext"]
        assert f"- [decisions, 2025-12-21, not yet consolidated] {REDIS}" in block, block
        assert NATS not in block and DOCKER in block, block  # visibly replaced: it names NATS as the old value
        assert "not yet consolidated" in out["systemMessage"]
    finally:
        os.close(fd)
    deadline = time.time() + 120  # the consolidation the session started runs once the lock is free
    while "(incremental: 1 new)" not in hook.log() and time.time() < deadline:
        time.sleep(0.2)
    block = hook.context(session_id="third")
    assert REDIS in block and NATS not in block and "not yet consolidated" not in block, block


PAD = " The team agreed on it after a long discussion of the alternatives, their operating costs and the effort."
POSTGRES = "Use PostgreSQL as the primary database"
COCKROACH = "Move the primary database from PostgreSQL to CockroachDB"
CI_TOOL = "Use GitHub Actions for continuous integration"


def capture_record(hook: Installed, summary: str, content: str, when: str) -> None:
    """A long-form decision record (summary and content over 200 characters), captured through the hook."""
    proc = hook.memlab(
        "hook", "capture", "--namespace", "decisions", "--summary", summary, "--content", content + PAD * 2,
        MEMLAB_NOW=when,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr


@pytest.mark.slow  # the record judge's MiniLM in two consolidations
@pytest.mark.parametrize("then", ["Stop", "consolidate"])
def test_once_a_record_store_cites_a_consolidation_withdraws_what_the_record_judge_said_before(tmp_path, then):
    spec = policy_spec(tmp_path / "spec", "+experiment=tuned", "dataset=project_history")
    project = make_repo(tmp_path / "project")
    hook = install(project, spec, sys.executable, "checkout")
    capture_record(hook, POSTGRES, "All service data lives in one PostgreSQL cluster.", "2025-01-01T10:00:00+00:00")
    capture_record(hook, CI_TOOL, "Every repository builds and tests on GitHub Actions.", "2025-01-10T10:00:00+00:00")
    capture_record(hook, COCKROACH, "CockroachDB replaces the cluster for writes.", "2025-01-30T10:00:00+00:00")
    assert hook.memlab("consolidate").returncode == 0
    assert POSTGRES not in hook.context(session_id="first")  # no record cites: the record judge's SUPERSEDE
    capture_record(
        hook, "Use Buildkite for continuous integration",
        f"This decision supersedes the decision on {CI_TOOL}.", "2025-02-10T10:00:00+00:00",
    )  # fmt: skip
    if then == "Stop":  # the Stop hook's incremental run
        stop_and_wait(hook, 1)
    else:  # a full run that keeps the earlier states (not --full)
        assert hook.memlab("consolidate").returncode == 0
    block = hook.context(session_id="second")
    assert POSTGRES in block and COCKROACH in block and CI_TOOL not in block, block  # the store cites now
