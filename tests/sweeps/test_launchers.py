"""Sweeps end to end (slow): 8 parallel joblib jobs on a fresh store, the Ray launcher on a local Ray head
this test starts and stops, and a 20-trial Optuna search that resumes."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from tests.sweeps import procs

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]


def memlab(*args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    env = {**os.environ, "MEMLAB_QUIET": "1"}
    return subprocess.run(
        [sys.executable, "-m", "memlab", *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout, env=env
    )


def sweep_runs(uri: str):
    from mlflow.tracking import MlflowClient

    client = MlflowClient(tracking_uri=uri)
    runs = client.search_runs([e.experiment_id for e in client.search_experiments()], max_results=1000)
    parents = [r for r in runs if "memlab.sweep_parent" in r.data.tags]
    children = [r for r in runs if "memlab.sweep_parent" not in r.data.tags]
    return client, parents, children


def test_eight_parallel_joblib_jobs_on_a_fresh_store(tmp_path):
    uri = f"sqlite:///{tmp_path / 'mlruns.db'}"
    proc = memlab(
        "--multirun", "hydra/launcher=joblib", "hydra.launcher.n_jobs=8", "dataset=temporal_norm", "temporal=none",
        "seed=0,1,2,3,4,5,6,7", f"tracking.uri={uri}", f"hydra.sweep.dir={tmp_path / 'sweep'}",
    )  # fmt: skip
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output[-3000:]
    assert "database is locked" not in output and "Online migration" not in output and "duplicate column" not in output
    client, parents, children = sweep_runs(uri)
    assert len(parents) == 1 and len(children) == 8
    parent = parents[0]
    assert {r.data.tags["mlflow.parentRunId"] for r in children} == {parent.info.run_id}
    assert {r.info.status for r in children} == {"FINISHED"} and parent.info.status == "FINISHED"
    assert sorted(r.info.run_name for r in children) == [f"seed={i}" for i in range(8)]
    assert [a.path for a in client.list_artifacts(parent.info.run_id)] == ["comparison.md", "comparison.png"]
    assert {r.info.experiment_id for r in children} == {parent.info.experiment_id}
    folders = sorted((tmp_path / "sweep").glob("*/predictions.jsonl"))
    assert len(folders) == 8  # one output folder per job
    assert "sweep comparison" in output and f"8 runs under parent run {parent.info.run_id}" in output


def test_ray_launcher_on_a_local_ray_head(tmp_path):
    ray_bin = Path(sys.executable).with_name("ray")
    if not ray_bin.exists():
        pytest.skip("the ray command is not installed in this environment")
    temp = tempfile.mkdtemp(prefix="rmt", dir="/tmp")  # short: Ray's socket paths must stay < 108 bytes
    port = procs.free_port()
    head = procs.start(
        [str(ray_bin), "start", "--head", "--block", f"--port={port}", "--node-ip-address=127.0.0.1", "--num-cpus=2",
         "--include-dashboard=false",
         "--disable-usage-stats", f"--temp-dir={temp}"],
        str(tmp_path / "ray.log"),
    )  # fmt: skip
    try:
        procs.wait_for_port(port, head, timeout=180)
        uri = f"sqlite:///{tmp_path / 'mlruns.db'}"
        proc = memlab(
            "--multirun", "hydra/launcher=ray", f"hydra.launcher.address=127.0.0.1:{port}", "dataset=temporal_norm",
            "temporal=none,pattern_table", f"tracking.uri={uri}", f"hydra.sweep.dir={tmp_path / 'sweep'}",
        )  # fmt: skip
        assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
        _, parents, children = sweep_runs(uri)
        assert len(parents) == 1 and len(children) == 2
        assert {r.info.status for r in children} == {"FINISHED"}
        assert {r.data.tags["mlflow.parentRunId"] for r in children} == {parents[0].info.run_id}
    finally:
        procs.stop(head, timeout=60)
        time.sleep(2)
        for pid in procs.pids_with(temp):  # workers Ray started in their own sessions
            os.kill(pid, signal.SIGKILL)
        shutil.rmtree(temp, ignore_errors=True)
    assert head.poll() is not None and procs.pids_with(temp) == []


def test_twenty_trial_optuna_search_completes_and_resumes(tmp_path):
    import optuna

    storage = f"sqlite:///{tmp_path / 'optuna.db'}"
    common = ["--multirun", "+search=builtin_history", f"hydra.sweeper.storage={storage}", "tracking=none"]
    first = memlab(*common, "hydra.sweeper.n_trials=8", f"hydra.sweep.dir={tmp_path / 's1'}")
    assert first.returncode == 0, (first.stdout + first.stderr)[-3000:]
    study = optuna.load_study(study_name="builtin_history", storage=storage)
    assert len(study.trials) == 8
    study.ask()  # a trial left RUNNING, as by a killed search
    second = memlab(*common, f"hydra.sweep.dir={tmp_path / 's2'}")  # n_trials: 20 in conf/search/builtin_history.yaml
    out = second.stdout + second.stderr
    assert second.returncode == 0, out[-3000:]
    assert "has 8 complete trials of 20 (1 interrupted trials marked FAIL); running 12" in out
    study = optuna.load_study(study_name="builtin_history", storage=storage)
    complete = study.get_trials(states=(optuna.trial.TrialState.COMPLETE,))
    assert len(complete) == 20 and len(study.get_trials(states=(optuna.trial.TrialState.FAIL,))) == 1
    assert complete[8].params != complete[0].params  # the resumed sampler does not replay the start
    assert 0.0 <= study.best_value <= 1.0
    third = memlab(*common, f"hydra.sweep.dir={tmp_path / 's3'}")
    assert third.returncode == 0 and "has 20 complete trials of 20; running 0" in third.stdout + third.stderr


def test_every_job_of_a_joblib_sweep_reports_its_start_and_end(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("MEMLAB_QUIET", "CI")}
    proc = subprocess.run(
        [sys.executable, "-m", "memlab", "--multirun", "hydra/launcher=joblib", "hydra.launcher.n_jobs=2",
         "dataset=temporal_norm", "temporal=none", "seed=0,1,2,3,4", "tracking=none",
         f"hydra.sweep.dir={tmp_path / 'sweep'}"],
        cwd=ROOT, capture_output=True, text=True, timeout=600, env=env,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    job = "memlab: job #{n} dataset=temporal_norm temporal=none seed={n}: running (model loading, episodes, scoring)"
    for n in range(5):  # the workers' later jobs end within a second: still announced (loky forwards stderr)
        assert job.format(n=n) + " ...\n" in proc.stderr and job.format(n=n) + ": done in " in proc.stderr
