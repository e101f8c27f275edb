"""One policy everywhere, and policies that do not leak into each other, through the installed commands.

Every repository command (``consolidate``, ``status``, ``tiers``, ``edges``, ``recall``) runs the spec installed
for the repository and says so on stderr; a spec change of any kind (here ``pipeline.budget_tokens`` alone) makes
the SessionStart cache stale; derived records belong to the policy that wrote them, so a repository switched from
the seed policy to ``tuned`` (uninstall, install, ``consolidate --full``) recalls no seed summary. The block's
header says what the policy does with superseded facts.
"""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime, timedelta

import pytest

from memlab.adapter.gitcli import find_repo
from memlab.adapter.notes_store import append_memory
from memlab.pipeline.inject import CLAIMS
from tests.adapter.conftest import make_repo, seed
from tests.adapter.installed import install
from tests.adapter.test_freshness import policy_spec


@pytest.mark.slow  # six commands in subprocesses
def test_every_repository_command_runs_the_installed_policy_and_says_so(installed_checkout):
    hook = installed_checkout
    seed(hook.project)
    used = f"policy {hook.spec.resolve()} (installed, project scope)"
    proc = hook.memlab("consolidate", "--json")
    assert proc.returncode == 0 and f"memlab consolidate: {used}" in proc.stderr, proc.stderr
    mid = json.loads(hook.memlab("recall", "API", "--json", "--no-track").stdout)[0]["id"]
    for args in (("status",), ("tiers",), ("edges", mid), ("recall", "API", "--no-track")):
        proc = hook.memlab(*args)
        assert proc.returncode == 0 and proc.stderr.splitlines()[0] == f"memlab {args[0]}: {used}", proc.stderr
    status = json.loads(hook.memlab("status", "--json").stdout)
    assert status["cache_fresh"] and status["never_consolidated"] == 0


@pytest.mark.slow  # re-exports, re-installs and consolidates in subprocesses
def test_a_budget_change_alone_makes_the_cache_stale(tmp_path):
    project = make_repo(tmp_path / "project")
    seed(project)
    spec_dir = tmp_path / "spec"
    hook = install(project, policy_spec(spec_dir, "embedder=tfidf"), sys.executable, "checkout", consolidate=True)
    wide = hook.session_start(session_id="a")
    assert len(wide["hookSpecificOutput"]["additionalContext"].splitlines()) > 7
    policy_spec(spec_dir, "embedder=tfidf", "pipeline.budget_tokens=150")  # the same file, re-exported
    install(project, hook.spec, sys.executable, "checkout")
    status = json.loads(hook.memlab("status", "--json").stdout)
    assert not status["cache_fresh"]
    narrow = hook.session_start(session_id="b")
    assert "another spec" in narrow.get("systemMessage", ""), narrow
    items = [ln for ln in narrow["hookSpecificOutput"]["additionalContext"].splitlines() if ln.startswith("- [")]
    assert 0 < len(items) < 3, items  # the new budget, at once
    assert hook.memlab("consolidate").returncode == 0
    assert json.loads(hook.memlab("status", "--json").stdout)["cache_fresh"]


@pytest.mark.slow  # two policies, MiniLM and clustering in subprocesses
def test_switching_from_the_seed_policy_to_tuned_recalls_no_seed_summary(tmp_path):
    project = make_repo(tmp_path / "project")
    repo = find_repo(project)
    for i in range(12):  # one cluster for the seed policy's agglomerative clusterer
        summary = f"Use Postgres {i} for the database"
        body = "We use Postgres because of JSON support and the database migrations."
        append_memory(repo, "decisions", summary, body, timestamp=datetime(2025, 12, 1, tzinfo=UTC) + timedelta(days=i))
    seed_spec = policy_spec(tmp_path / "seed", "+experiment=seed_git_notes_memory_nollm", "dataset=project_history")
    hook = install(project, seed_spec, sys.executable, "checkout", consolidate=True)
    hits = json.loads(hook.memlab("recall", "Postgres database", "--json", "--no-track", "--limit", "20").stdout)
    assert any(h["id"].startswith("sum_") for h in hits), hits  # the seed policy's summary is recalled
    header = hook.context()
    assert CLAIMS["listed"] in header and CLAIMS["omitted"] not in header  # its summaries list them
    assert hook.memlab("uninstall", "--project", str(project), "--scope", "project").returncode == 0
    tuned = policy_spec(tmp_path / "tuned", "+experiment=tuned", "dataset=project_history")
    hook = install(project, tuned, sys.executable, "checkout")
    assert hook.memlab("consolidate", "--full").returncode == 0
    hits = json.loads(hook.memlab("recall", "Postgres database", "--json", "--no-track", "--limit", "20").stdout)
    assert hits and not any(h["id"].startswith("sum_") for h in hits), hits
    assert CLAIMS["omitted"] in hook.context()
