"""Whole runs: the same config and seed give the same metrics; finished configurations can be skipped; a
missing data file fails before any MLflow run exists; every run leaves its span tree."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from memlab.core.errors import MemlabError
from memlab.run import run
from tests.support.compose import compose_cfg

ROOT = Path(__file__).resolve().parents[2]
CHEAP = ["dataset=builtin_history", "embedder=tfidf", "clusterer=none"]


def timing(name: str) -> bool:
    return name.startswith("latency_") or name.endswith(("_us_per_expr", "_seconds"))


def test_same_config_and_seed_give_identical_metrics_and_predictions(tmp_path):
    cfg = compose_cfg([*CHEAP, "seed=3"])
    first = run(cfg, tmp_path / "a")
    second = run(compose_cfg([*CHEAP, "seed=3"]), tmp_path / "b")
    kept = lambda m: {k: v for k, v in m.items() if not timing(k)}  # noqa: E731
    assert kept(first.metrics) == kept(second.metrics) and len(kept(first.metrics)) > 20
    assert (tmp_path / "a" / "predictions.jsonl").read_bytes() == (tmp_path / "b" / "predictions.jsonl").read_bytes()
    tree = json.loads((tmp_path / "a" / "trace.json").read_text())
    names = {c["name"] for c in tree["children"][0]["children"]}
    assert {"consolidate", "recall", "select", "answer"} <= names


@pytest.mark.slow
def test_skip_finished_reuses_the_run_with_the_same_config_hash(tmp_path):
    uri = f"sqlite:///{tmp_path / 'mlruns.db'}"
    base = ["dataset=temporal_norm", "temporal=none", "tracking=mlflow", f"tracking.uri={uri}"]
    first = run(compose_cfg(base), tmp_path / "a")
    again = run(compose_cfg([*base, "tracking.skip_finished=true", "logging.format=json"]), tmp_path / "b")
    assert again.skipped and again.run_id == first.run_id and again.metrics == pytest.approx(first.metrics)
    assert not (tmp_path / "b").exists()  # nothing ran
    other = run(compose_cfg([*base, "tracking.skip_finished=true", "seed=1"]), tmp_path / "c")
    assert not other.skipped and other.run_id != first.run_id
    from mlflow.tracking import MlflowClient

    client = MlflowClient(tracking_uri=uri)
    traces = client.search_traces(locations=[client.get_run(first.run_id).info.experiment_id], run_id=first.run_id)
    assert len(traces) == 1  # the span tree is an MLflow trace linked to the run
    assert client.get_run(first.run_id).info.run_name == "temporal_norm"


def test_a_missing_data_file_fails_before_any_run_is_recorded(tmp_path):
    uri = f"sqlite:///{tmp_path / 'mlruns.db'}"
    cfg = compose_cfg(
        ["dataset=locomo", f"dataset.path={tmp_path / 'missing.json'}", "tracking=mlflow", f"tracking.uri={uri}"]
    )
    with pytest.raises(MemlabError, match=r"missing\.json"):
        run(cfg, tmp_path / "out")
    assert not (tmp_path / "mlruns.db").exists() and not (tmp_path / "out").exists()


def test_ui_command_works_without_an_activated_venv_and_the_run_has_an_address():
    from memlab.tracking.mlflow_tracker import MlflowTracker

    tracker = MlflowTracker("sqlite:////tmp/x.db", "e")
    command = tracker.ui_command()
    assert command.startswith("LITELLM_LOCAL_MODEL_COST_MAP=True MLFLOW_DISABLE_TELEMETRY=true ")
    assert "MLFLOW_SERVER_ENABLE_JOB_EXECUTION=false " in command  # no GenAI job runner: half the start-up
    assert f" {sys.executable} -m mlflow ui " in command
    assert "--backend-store-uri sqlite:////tmp/x.db" in command and "--port 5000" in command
    tracker.experiment_id_ = "3"
    assert tracker.run_url("abc") == "http://127.0.0.1:5000/#/experiments/3/runs/abc"


def test_json_logs_from_the_command_line(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "memlab", "--quiet", "dataset=temporal_norm", "temporal=none", "tracking=none",
         "logging.format=json", f"hydra.run.dir={tmp_path}"],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip
    records = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    finished = [r for r in records if r["msg"] == "run finished"]
    assert finished and finished[0]["main_metric"] == "resolver_acc" and finished[0]["value"] == 0.0


_RACE = """
import sys, time
from memlab.tracking.mlflow_tracker import MlflowTracker
from memlab.tracking.store import prepare_store
uri, start, i = sys.argv[1], float(sys.argv[2]), sys.argv[3]
while time.time() < start:
    time.sleep(0.001)
prepare_store(uri, "race")  # what a sweep's launcher does
tracker = MlflowTracker(uri, "race")
tracker.start(f"job-{i}", {"i": i}, {})
tracker.finish()
"""


@pytest.mark.slow  # over 4 s: runs with the slow suite (make test-slow, CI)
def test_processes_that_open_a_fresh_store_together_all_record_their_runs(tmp_path):
    """Two sweeps started at the same moment on a fresh sqlite store raced on MLflow's schema creation ("table
    experiments already exists") and one job's run was lost."""
    import time

    from mlflow.tracking import MlflowClient

    uri = f"sqlite:///{tmp_path / 'mlruns.db'}"
    start = str(time.time() + 8)  # after every process has imported MLflow
    jobs = [
        subprocess.Popen([sys.executable, "-c", _RACE, uri, start, str(i)], stderr=subprocess.PIPE, text=True)
        for i in range(3)
    ]
    errors = [job.communicate(timeout=180)[1] for job in jobs]
    assert [job.returncode for job in jobs] == [0, 0, 0], errors
    client = MlflowClient(tracking_uri=uri)
    runs = client.search_runs([client.get_experiment_by_name("race").experiment_id])
    assert sorted(r.info.run_name for r in runs) == ["job-0", "job-1", "job-2"]
