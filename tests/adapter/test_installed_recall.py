"""``memlab recall`` (also the plugin's ``/recall``) with summaries among the hits and hostile memory text."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from memlab.adapter import jsonl_refs
from memlab.adapter.gitcli import find_repo
from memlab.adapter.notes_store import append_memory
from tests.adapter.conftest import main_in_process, policy_of


@pytest.mark.slow  # over 4 s: runs with the slow suite (make test-slow, CI)
def test_recall_with_summaries_among_the_hits_tracks_and_prints_no_escape(installed_checkout):
    hook = installed_checkout
    repo = find_repo(hook.project)
    for i in range(12):
        summary = f"Use Postgres {i} for the database \x1b]0;owned\x07\x1b[2J \x9b2J \u202ereversed"
        body = f"We use Postgres {i} because of JSON support and the database migrations."
        append_memory(repo, "decisions", summary, body, timestamp=datetime(2025, 12, 1, tzinfo=UTC) + timedelta(days=i))
    code, _, err = main_in_process("consolidate", "--project", str(hook.project))
    assert code == 0, err
    assert jsonl_refs.read_records(repo, "summaries", policy_of(hook.project))[0]  # a summary exists to be hit
    proc = hook.memlab("recall", "Postgres database JSON migrations", "--limit", "20")
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert "sum_" in proc.stdout and "\x1b" not in proc.stdout and "\\x1b]0;owned" in proc.stdout, proc.stdout
    meta, _ = jsonl_refs.read_records(repo, "meta", policy_of(hook.project))
    assert sum(int(r.get("activation_count") or 0) for r in meta.values()) > 0  # memories among the hits counted
    proc = hook.memlab("recall", "Postgres database JSON migrations", "--limit", "20", "--reason")
    assert proc.returncode == 0 and "Traceback" not in proc.stderr and "source sum_" in proc.stdout, proc.stderr
    proc = hook.memlab("recall", "Postgres", "--json")
    assert proc.returncode == 0 and not any(c in proc.stdout for c in "\x1b\x9b\u202e"), proc.stdout
    data = json.loads(proc.stdout)
    assert "\x9b2J \u202ereversed" in data[0]["summary"]  # escaped in the output, exact once parsed
