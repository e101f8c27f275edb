"""Fifteen mistakes a researcher makes (typos, wrong types, unknown keys, missing data, bad names): each fails in one
line that says what is wrong, in under 5 s, before any episode runs and before any MLflow run is recorded."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from memlab.core.paths import PROJECT_ROOT

MISTAKES = [
    (["retention=exponental"], "unknown retention 'exponental'"),
    (["+experiment=quickstrt"], "did you mean 'quickstart'?"),
    (["pipeline.knn=5"], "unknown key 'pipeline.knn'"),
    (["retension.half_life_days=3"], "unknown config key 'retension'"),
    (["retention=[unclosed"], "malformed override"),
    (["reprot", "locomo"], "'reprot' is not an override"),
    (["pipeline.budget_tokens=abc"], "pipeline.budget_tokens must be an integer"),
    (["seed=x"], "seed must be an integer"),
    (["pipeline.incremental=3"], "pipeline.incremental must be true or false"),
    (["judge.threshold=abc"], "judge.threshold must be a number"),
    (["dataset=locomo", "dataset.path=/nonexistent/locomo.json"], "LoCoMo file not found"),
    (["best", "--experiment", "policy_sweep"], "no MLflow store"),
    (["export", "--run-id", "0123", "--out", "OUT"], "no MLflow store"),
    (["report", "presetz"], "unknown report 'presetz'"),
    (["report", "--experiment", "policy_sweep", "--uri", "URI"], "no FINISHED runs of experiment policy_sweep"),
]


@pytest.mark.parametrize(("args", "expected"), MISTAKES, ids=[" ".join(a) for a, _ in MISTAKES])
def test_a_mistake_fails_in_one_line_quickly_and_before_any_work(tmp_path, args, expected):
    uri = f"sqlite:///{tmp_path / 'mlruns.db'}"
    args = [a.replace("OUT", str(tmp_path / "out")).replace("URI", uri) for a in args]
    if "=" in args[0] or args[0] == "reprot":
        args += ["tracking=mlflow", f"tracking.uri={uri}", f"hydra.run.dir={tmp_path / 'run'}"]
    env = {**os.environ, "MLFLOW_TRACKING_URI": uri}
    env.pop("HYDRA_FULL_ERROR", None)
    started = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "memlab", *args], capture_output=True, text=True, env=env, cwd=PROJECT_ROOT, timeout=60
    )
    elapsed = time.monotonic() - started
    errors = [line for line in proc.stderr.splitlines() if line.startswith("memlab: error: ")]
    assert proc.returncode == 2 and len(errors) == 1 and expected in errors[0], proc.stderr[-2000:]
    assert "Traceback" not in proc.stdout + proc.stderr
    assert not (tmp_path / "mlruns.db").exists() and not list(tmp_path.rglob("predictions.jsonl"))
    assert elapsed < 5, elapsed
