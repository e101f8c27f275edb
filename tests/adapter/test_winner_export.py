"""The winner of a real comparison is what gets exported; a superseding policy's hook keeps only the current fact.

The quickstart's comparison (``+experiment=seed_git_notes_memory_nollm,tuned``, both filed under ``presets``) runs
into a temporary MLflow store; ``memlab export --sweep last`` freezes its winner by the main metric (whichever policy
that is). ``tuned``'s run, exported by id, is installed into a fresh repository; the installed SessionStart command
and ``memlab recall`` then see "Use Kafka for the event bus" replaced by "Switched from Kafka to NATS for the event
bus".
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from datetime import UTC, datetime

import pytest
from mlflow.tracking import MlflowClient

from memlab.adapter.gitcli import find_repo
from memlab.adapter.notes_store import append_memory
from tests.adapter.conftest import ROOT, env, make_repo
from tests.adapter.installed import install

OLD = "Use Kafka for the event bus"
NEW = "Switched from Kafka to NATS for the event bus"


def capture(project, summary: str, when: datetime) -> None:
    """What ``memlab hook capture`` writes, at a chosen time (the hook's clock is fixed in these tests)."""
    append_memory(find_repo(project), "decisions", summary, summary + ".", timestamp=when)


def memlab(*args: str, cwd, uri: str) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        [sys.executable, "-m", "memlab.cli", *args],
        cwd=cwd,
        env=env(MLFLOW_TRACKING_URI=uri, HF_HUB_OFFLINE="1"),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc


@pytest.mark.slow
def test_the_quickstart_winner_is_exported_and_tuned_installed_injects_only_the_current_fact(tmp_path):
    uri = f"sqlite:///{tmp_path / 'mlruns.db'}"
    sweep = subprocess.run(
        [
            *(sys.executable, "-m", "memlab", "--multirun", "+experiment=seed_git_notes_memory_nollm,tuned"),
            f"hydra.sweep.dir={tmp_path / 'multirun'}",
        ],
        cwd=tmp_path,
        env=env(MLFLOW_TRACKING_URI=uri, HF_HUB_OFFLINE="1", PYTHONPATH=str(ROOT)),
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert sweep.returncode == 0, sweep.stderr[-2000:]
    hint = re.search(r"memlab: as a hook: memlab export --sweep (\S+) --out", sweep.stdout)
    assert hint and f"memlab: its winner: memlab best --sweep {hint.group(1)}" in sweep.stdout, sweep.stdout

    chosen = json.loads(memlab("best", "--sweep", "last", "--json", cwd=tmp_path, uri=uri).stdout)
    assert chosen["among"] == f"sweep {hint.group(1)} (2 jobs)"
    client = MlflowClient(uri)
    runs = {r.info.run_name: r for r in client.search_runs([client.get_run(chosen["run_id"]).info.experiment_id])}
    scores = {name: r.data.metrics["reader_acc"] for name, r in runs.items() if name.startswith("experiment=")}
    assert chosen["tags"]["mlflow.runName"] == max(scores, key=scores.get), scores  # the main metric's winner
    winner_dir = tmp_path / "winner"
    memlab("export", "--sweep", "last", "--out", str(winner_dir), cwd=tmp_path, uri=uri)
    winner = json.loads((winner_dir / "memlab-hook.json").read_text())
    assert winner["source"]["run_id"] == chosen["run_id"] and winner["source"]["sweep"] == hint.group(1)

    spec_dir = tmp_path / "spec"
    memlab("export", "--run-id", runs["experiment=tuned"].info.run_id, "--out", str(spec_dir), cwd=tmp_path, uri=uri)
    spec_file = spec_dir / "memlab-hook.json"

    project = make_repo(tmp_path / "project")
    capture(project, OLD, datetime(2025, 11, 3, 10, tzinfo=UTC))
    hook = install(project, spec_file, sys.executable, "checkout", consolidate=True)  # the first consolidation
    assert OLD in hook.context(session_id="first")
    capture(project, NEW, datetime(2025, 12, 10, 10, tzinfo=UTC))
    done = hook.memlab("consolidate", "--spec", str(spec_file))  # what the Stop hook starts in the background
    assert done.returncode == 0, done.stderr
    block = hook.context(session_id="second")
    assert NEW in block and OLD not in block, block

    recalled = hook.memlab("recall", "event bus", "--spec", str(spec_file))
    assert recalled.returncode == 0, recalled.stderr
    lines = recalled.stdout.splitlines()
    assert NEW in lines[0] and "superseded" not in lines[0], recalled.stdout
    stale = next(line for line in lines if OLD in line)
    assert re.search(rf"\[superseded by m_\w+, 2025-12-10: {NEW}\]$", stale), recalled.stdout
    data = json.loads(hook.memlab("recall", "Kafka", "--spec", str(spec_file), "--json").stdout)
    assert [d["superseded"] for d in data] == [False, True] and data[1]["superseded_by"] == data[0]["id"], data
