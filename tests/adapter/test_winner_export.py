"""The winner of the README's comparison is what gets exported, and its hook injects only the current fact.

The quickstart's comparison (``+experiment=seed_git_notes_memory_nollm,tuned dataset=project_history``, both filed
under ``presets``) runs into a temporary MLflow store; ``memlab export --sweep last`` freezes its winner by the main
metric (whichever policy that is), the exported spec is installed into a fresh repository that holds "Use Kafka for
the event bus" and, five weeks later, "Switched from Kafka to NATS for the event bus", and the installed
SessionStart command and ``memlab recall`` are read: the first session must show only the NATS fact. The other
policy of the comparison (the seed's) is installed the same way, to say what the choice changed.
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


def installed_block(tmp_path, name: str, spec_file) -> tuple[str, object]:
    """A fresh repository with the old and the new fact, ``spec_file`` installed (first consolidation included)."""
    project = make_repo(tmp_path / name)
    capture(project, OLD, datetime(2025, 11, 3, 10, tzinfo=UTC))
    capture(project, NEW, datetime(2025, 12, 10, 10, tzinfo=UTC))
    hook = install(project, spec_file, sys.executable, "checkout", consolidate=True)
    return hook.context(session_id="first"), hook


@pytest.mark.slow
def test_the_quickstart_winner_is_exported_and_its_first_session_injects_only_the_current_fact(tmp_path):
    uri = f"sqlite:///{tmp_path / 'mlruns.db'}"
    sweep = subprocess.run(
        [
            *(sys.executable, "-m", "memlab", "--multirun", "+experiment=seed_git_notes_memory_nollm,tuned"),
            *("dataset=project_history", f"hydra.sweep.dir={tmp_path / 'multirun'}"),
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
    assert "memlab: #1 is distinguishably ahead of #2" in sweep.stdout, sweep.stdout  # enough questions to choose

    chosen = json.loads(memlab("best", "--sweep", "last", "--json", cwd=tmp_path, uri=uri).stdout)
    assert chosen["among"] == f"sweep {hint.group(1)} (2 jobs)"
    client = MlflowClient(uri)
    runs = {r.info.run_name: r for r in client.search_runs([client.get_run(chosen["run_id"]).info.experiment_id])}
    scores = {name: r.data.metrics["reader_acc"] for name, r in runs.items() if name.startswith("experiment=")}
    assert chosen["tags"]["mlflow.runName"] == max(scores, key=scores.get), scores  # the main metric's winner
    winner_dir = tmp_path / "winner"
    memlab("export", "--sweep", "last", "--out", str(winner_dir), cwd=tmp_path, uri=uri)
    spec_file = winner_dir / "memlab-hook.json"
    winner = json.loads(spec_file.read_text())
    assert winner["source"]["run_id"] == chosen["run_id"] and winner["source"]["sweep"] == hint.group(1)

    block, hook = installed_block(tmp_path, "project", spec_file)
    assert NEW in block and OLD not in block, (chosen["tags"]["mlflow.runName"], block)
    recalled = hook.memlab("recall", "event bus", "--spec", str(spec_file))
    assert recalled.returncode == 0, recalled.stderr
    lines = recalled.stdout.splitlines()
    assert NEW in lines[0] and "superseded" not in lines[0], recalled.stdout
    stale = next(line for line in lines if OLD in line)
    assert re.search(rf"\[superseded by m_\w+, 2025-12-10: {NEW}\]$", stale), recalled.stdout
    data = json.loads(hook.memlab("recall", "Kafka", "--spec", str(spec_file), "--json").stdout)
    assert [d["superseded"] for d in data] == [False, True] and data[1]["superseded_by"] == data[0]["id"], data

    (other,) = [name for name in scores if name != chosen["tags"]["mlflow.runName"]]
    other_dir = tmp_path / "other"
    memlab("export", "--run-id", runs[other].info.run_id, "--out", str(other_dir), cwd=tmp_path, uri=uri)
    other_block, _ = installed_block(tmp_path, "other-project", other_dir / "memlab-hook.json")
    assert OLD in other_block and NEW in other_block, (other, other_block)  # what the choice changed
