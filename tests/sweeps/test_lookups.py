"""`memlab best`, `export` and `report` answer a wrong experiment, run id or metric name in one line, in under 2 s
(the names are looked up in the sqlite store's tables before MLflow is imported)."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from memlab.core.errors import MemlabError
from memlab.tracking.lookup import check_experiment, check_metric, check_run
from tests.sweeps.helpers import log_run


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    folder = tmp_path_factory.mktemp("lookups")
    uri = f"sqlite:///{folder / 'mlruns.db'}"
    log_run(uri, "policy_sweep", folder / "a", strategies={"judge": "slot"}, params={"seed": 0}, correct=[1, 0])
    return uri


def test_names_are_checked_from_the_store_tables(store):
    assert check_experiment("policy_sweep", store)
    with pytest.raises(MemlabError, match=r"no MLflow experiment 'policy_swep'.*did you mean 'policy_sweep'"):
        check_experiment("policy_swep", store)
    with pytest.raises(MemlabError, match="no MLflow run 'nope'"):
        check_run("nope", store)
    check_metric("policy_sweep", "current_truth_at_1", store)
    with pytest.raises(MemlabError, match="logged metric 'current_truth_at_2'; metrics with that stem"):
        check_metric("policy_sweep", "current_truth_at_2", store)


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["best", "--experiment", "policy_swep"], "no MLflow experiment 'policy_swep'"),
        (["best", "--experiment", "policy_sweep", "--metric", "f1"], "logged metric 'f1'"),
        (["export", "--best", "--experiment", "nope", "--metric", "x", "--out", "OUT"], "no MLflow experiment 'nope'"),
        (["export", "--run-id", "0123abc", "--out", "OUT"], "no MLflow run '0123abc'"),
        (["report", "--experiment", "nope"], "nope"),
    ],
)
def test_a_wrong_name_is_answered_in_one_line_under_two_seconds(store, tmp_path, args, expected):
    args = [a.replace("OUT", str(tmp_path / "out")) for a in args]
    env = {**os.environ, "MLFLOW_TRACKING_URI": store}
    started = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "memlab", *args], capture_output=True, text=True, env=env, timeout=60)
    elapsed = time.monotonic() - started
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and expected in proc.stderr, proc.stderr
    assert elapsed < 2, elapsed
