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
from tests.support.stores import fresh_store
from tests.sweeps.helpers import log_run


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    folder = tmp_path_factory.mktemp("lookups")
    uri = fresh_store(folder)
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


WRONG = [
    (["best", "--experiment", "policy_swep"], "no MLflow experiment 'policy_swep'"),
    (["best", "--experiment", "policy_sweep", "--metric", "f1"], "logged metric 'f1'"),
    (["export", "--best", "--experiment", "nope", "--metric", "x", "--out", "OUT"], "no MLflow experiment 'nope'"),
    (["export", "--run-id", "0123abc", "--out", "OUT"], "no MLflow run '0123abc'"),
    (["report", "--experiment", "nope"], "nope"),
]


def answered(store: str, folder, args: list[str], expected: str) -> float:
    """Run ``memlab ARGS`` against ``store``: exit 2 with ``expected`` in one line; its wall time."""
    args = [a.replace("OUT", str(folder / "out")) for a in args]
    env = {**os.environ, "MLFLOW_TRACKING_URI": store}
    started = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "memlab", *args], capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and expected in proc.stderr, proc.stderr
    return time.monotonic() - started


@pytest.mark.parametrize(("args", "expected"), WRONG)
def test_a_wrong_name_is_answered_in_one_line(store, tmp_path, args, expected):
    answered(store, tmp_path, args, expected)


@pytest.mark.slow
@pytest.mark.parametrize(("args", "expected"), WRONG)
def test_a_wrong_name_is_answered_under_two_seconds(store, tmp_path, args, expected):
    """A wall-clock bound: slow, since the default suite's parallel tests on a shared machine make it flaky."""
    assert answered(store, tmp_path, args, expected) < 2
