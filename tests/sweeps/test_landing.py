"""Where a sweep lands: one MLflow experiment per study (parent and children together, one default experiment),
children named by what varies, a saved UI view of the children with the main metric in front, a comparison
table and figure on the parent run, and the UI command and the view's address printed at the end."""

from __future__ import annotations

import json

import pytest
from omegaconf import OmegaConf, open_dict

from memlab.sweeps.jobs import fixed_overrides, job_name, study_experiment
from memlab.tracking.base import SWEEP_ENV, SWEEP_EXPERIMENT_ENV, SWEEP_NAME_ENV
from memlab.tracking.landing import VIEW_TAG_PREFIX, view_state
from memlab.tracking.mlflow_tracker import MlflowTracker
from memlab.tracking.store import open_client
from tests.support.stores import fresh_store
from tests.sweeps.helpers import landed_sweep

SWEEP = ["dataset=builtin_history", "judge=slot,none", "pipeline.budget_tokens=500,2000"]


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch):
    for key in (SWEEP_ENV, SWEEP_EXPERIMENT_ENV, SWEEP_NAME_ENV):
        monkeypatch.delenv(key, raising=False)


def test_a_fresh_store_has_one_default_experiment_prints_no_table_creation_lines_and_logs_values_exactly(
    tmp_path, capfd
):
    """One store created from nothing (seconds of MLflow's migration: the other tests copy a created one)."""
    import logging

    import mlflow  # noqa: F401  (configures MLflow's loggers, as a run does)

    for name in ("alembic", "mlflow.store.db.utils"):
        logging.getLogger(name).setLevel(logging.NOTSET)  # as in a fresh process
    tracker = MlflowTracker(f"sqlite:///{tmp_path / 'mlruns.db'}", "default")
    run_id = tracker.start("r", {}, {})
    out, err = capfd.readouterr()
    assert "Creating initial MLflow database tables" not in out + err and "alembic" not in out + err
    tracker.log_metrics({"reader_acc": 9 / 16, "third": 1 / 3})
    client = open_client(tracker.uri)
    assert client.get_run(run_id).data.metrics == {"reader_acc": 0.5625, "third": 1 / 3}  # exact
    tracker.finish()
    experiments = client.search_experiments()
    assert [(e.experiment_id, e.name) for e in experiments] == [("0", "default")]
    assert experiments[0].artifact_location.startswith((tmp_path / "mlruns-artifacts").as_uri())
    assert tracker.experiment_id_ == "0"


def test_children_are_named_by_the_overrides_that_vary_across_the_sweep():
    config = OmegaConf.create({"hydra": {"overrides": {"task": [*SWEEP, "tracking.uri=sqlite:////x.db"]}}})
    fixed = fixed_overrides(config)
    assert fixed == {"dataset=builtin_history", "tracking.uri=sqlite:////x.db"}
    job = ["dataset=builtin_history", "judge=slot", "pipeline.budget_tokens=500", "tracking.uri=sqlite:////x.db"]
    assert job_name(job, fixed) == "judge=slot budget_tokens=500"
    assert job_name(["+experiment=tuned", "seed=1"], {"seed=1"}) == "experiment=tuned"


def test_the_study_experiment_is_the_one_the_jobs_name(tmp_path):
    from memlab.wiring.config import compose_node, initialized

    with initialized():
        cfg = compose_node(tracking=None, return_hydra_config=True)
        with open_dict(cfg):
            cfg.hydra.overrides.task = ["+experiment=seed_git_notes_memory_nollm,tuned"]
        assert study_experiment(cfg) == ("presets", ["presets"])  # the quickstart: parent under presets too
        with open_dict(cfg):
            cfg.hydra.overrides.task = ["+experiment=quickstart,tuned"]
        assert study_experiment(cfg) == ("default", ["quickstart", "presets"])  # disagree: the launcher's


def test_a_sweep_lands_on_a_comparison_in_one_experiment(tmp_path):
    from mlflow.tracking import MlflowClient

    uri = fresh_store(tmp_path)
    results = {("slot", "500"): 0.5, ("slot", "2000"): 0.75, ("none", "500"): 0.25, ("none", "2000"): 0.25}
    out = landed_sweep(uri, tmp_path / "sweep", results)

    client = MlflowClient(tracking_uri=uri)
    assert [e.name for e in client.search_experiments()] == ["default"]
    runs = client.search_runs(["0"])
    parent = next(r for r in runs if "memlab.sweep_parent" in r.data.tags)
    kids = [r for r in runs if r.info.run_id != parent.info.run_id]
    assert sorted(r.info.run_name for r in kids) == sorted(
        f"judge={j} budget_tokens={b}" for j, b in results
    )  # fmt: skip
    assert {r.data.tags["mlflow.parentRunId"] for r in kids} == {parent.info.run_id}
    artifacts = sorted(a.path for a in client.list_artifacts(parent.info.run_id))
    assert artifacts == ["comparison.md", "comparison.png"]

    experiment = client.get_experiment("0")
    views = {k: v for k, v in experiment.tags.items() if k.startswith(VIEW_TAG_PREFIX)}
    assert len(views) == 1
    (key, value), = views.items()  # fmt: skip
    envelope = json.loads(value)
    assert set(envelope) == {"name", "createdAt", "state"} and isinstance(envelope["createdAt"], int)
    state = json.loads(envelope["state"])
    assert state["searchFilter"] == f"tags.`mlflow.parentRunId` = '{parent.info.run_id}'"
    assert state["orderByKey"] == "tags.`memlab.rank`" and state["orderByAsc"] is True  # the one ranking rule
    front = ["metrics.`current_truth_at_1`", "metrics.`supersession_f1`", "params.`pipeline.budget_tokens`"]
    assert state["columnOrder"][:5] == ["attributes.`Run Name`", "tags.`memlab.rank`", *front]
    assert state["selectedColumns"][1:4] == front and state["runsHiddenMode"] == "SHOW_ALL"
    ranks = {r.data.tags["memlab.rank"]: r.info.run_name for r in kids}
    assert ranks["0001"] == "judge=slot budget_tokens=2000" and sorted(ranks) == ["0001", "0002", "0003", "0004"]
    assert state["columnWidths"]["attributes.`Run Name`"] >= 8 * len("judge=slot budget_tokens=2000")

    share_key = key[len(VIEW_TAG_PREFIX) :]
    assert f"comparison in the UI: http://127.0.0.1:5000/#/experiments/0/runs?viewStateShareKey={share_key}" in out
    ui_line = next(line for line in out.splitlines() if line.startswith("memlab: MLflow UI: "))
    assert f"-m mlflow ui --backend-store-uri {uri} " in ui_line
    assert "judge=slot budget_tokens=2000" in out


def test_the_view_puts_the_main_metric_first_and_filters_to_the_children():
    state = view_state("p1", ["m", "h1", "m"], ["pipeline.x"], [f"run {i}" for i in range(12)])
    charts = state["compareRunCharts"]
    assert [c["metricKey"] for c in charts] == ["m", "h1"] and {c["type"] for c in charts} == {"BAR"}
    assert {c["runsCountToCompare"] for c in charts} == {12}  # every run of a 12-job sweep, not the UI's 10
    assert {c["metricSectionId"] for c in charts} == {state["compareRunSections"][0]["uuid"]}
    assert state["selectedColumns"][:4] == ["tags.`memlab.rank`", "metrics.`m`", "metrics.`h1`", "params.`pipeline.x`"]
    assert state["searchFilter"] == "tags.`mlflow.parentRunId` = 'p1'"
