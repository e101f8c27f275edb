"""`memlab best --sweep` and `memlab export --sweep` rank the runs of one comparison (a `--multirun`'s children, by
their sweep id), not every run of the experiment they are filed under."""

from __future__ import annotations

import json
import os

import pytest

from memlab.core.errors import MemlabError
from memlab.tracking.base import SWEEP_EXPERIMENT_ENV
from memlab.tracking.mlflow_tracker import MlflowTracker
from tests.support.stores import fresh_store

TAGS = {"memlab.main_metric": "current_truth_at_1"}


def log(uri: str, experiment: str, name: str, value: float, sweep: str | None = None, judge: str = "slot") -> str:
    """One FINISHED run with a judge config (enough for `export`), filed under ``experiment`` (a sweep's child)."""
    tracker = MlflowTracker(uri, experiment)
    params = {"judge._target_": f"memlab.strategies.judge.{judge}", "pipeline.budget_tokens": 500}
    tags = {**TAGS, "memlab.strategy.judge": f"{judge}@1"}
    run_id = tracker.start(name, params, tags, sweep_id=sweep)
    tracker.log_metrics({"current_truth_at_1": value, "n_queries_current": 8.0})
    tracker.finish("FINISHED")
    return run_id


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """`presets` holds an unrelated run that scores best, then two sweeps of two runs each (the second newer)."""
    uri = fresh_store(tmp_path_factory.mktemp("store"))
    saved = os.environ.get(SWEEP_EXPERIMENT_ENV)
    os.environ[SWEEP_EXPERIMENT_ENV] = "presets"
    try:
        ids = {"other": log(uri, "presets", "another preset on another dataset", 0.9)}
        ids["old_a"] = log(uri, "presets", "experiment=a", 0.6, "20260101-000000-aaaaaa")
        ids["old_b"] = log(uri, "presets", "experiment=b", 0.2, "20260101-000000-aaaaaa")
        ids["new_seed"] = log(uri, "presets", "experiment=seed", 0.375, "20260102-000000-bbbbbb", judge="similarity")
        ids["new_tuned"] = log(uri, "presets", "experiment=tuned", 0.5, "20260102-000000-bbbbbb", judge="cascade")
    finally:
        if saved is None:
            os.environ.pop(SWEEP_EXPERIMENT_ENV, None)
        else:
            os.environ[SWEEP_EXPERIMENT_ENV] = saved
    return uri, ids


def best(*args: str) -> dict:
    from tests.adapter.conftest import main_in_process

    code, out, err = main_in_process("best", *args, "--json")
    assert code == 0, err
    return json.loads(out)


def test_the_last_sweep_is_ranked_alone(store):
    uri, ids = store
    assert best("--experiment", "presets", "--tracking-uri", uri)["run_id"] == ids["other"]  # the old path's pick
    last = best("--sweep", "last", "--tracking-uri", uri)
    assert last["run_id"] == ids["new_tuned"] and last["value"] == 0.5
    assert last["among"] == "sweep 20260102-000000-bbbbbb (2 jobs)"
    assert best("--sweep", "20260101-000000-aaaaaa", "--tracking-uri", uri)["run_id"] == ids["old_a"]


def test_a_wrong_sweep_is_one_line(store):
    from tests.adapter.conftest import main_in_process

    code, _, err = main_in_process("best", "--sweep", "20990101-nope", "--tracking-uri", store[0])
    assert code != 0 and "no sweep '20990101-nope'" in err and len(err.strip().splitlines()) == 1, err


def test_no_sweep_in_the_store(tmp_path):
    from memlab.tracking.sweep_runs import find_sweep

    uri = fresh_store(tmp_path)
    log(uri, "presets", "alone", 0.5)
    with pytest.raises(MemlabError, match="no sweep in"):
        find_sweep("last", uri)


def test_export_sweep_last_writes_the_winner(store, tmp_path):
    from tests.adapter.conftest import main_in_process

    uri, ids = store
    out = tmp_path / "spec"
    code, printed, err = main_in_process("export", "--sweep", "last", "--out", str(out), "--tracking-uri", uri)
    assert code == 0, err
    spec = json.loads((out / "memlab-hook.json").read_text())
    assert spec["source"]["run_id"] == ids["new_tuned"] and spec["source"]["sweep"] == "20260102-000000-bbbbbb"
    assert spec["strategies"]["judge"]["_target_"] == "memlab.strategies.judge.cascade"
    assert "best of 2 runs of sweep 20260102-000000-bbbbbb (2 jobs): current_truth_at_1=0.5 (n=8)" in printed


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--run-id", "x", "--sweep", "last"], "give exactly one of"),
        (["--best"], "--best goes with --experiment NAME"),
        (["--sweep", "last", "--experiment", "presets"], "--best goes with --experiment NAME"),
    ],
)
def test_export_selectors_are_exclusive(args, expected, tmp_path):
    from tests.adapter.conftest import main_in_process

    code, _, err = main_in_process("export", *args, "--out", str(tmp_path / "o"))
    assert code != 0 and expected in err, err
