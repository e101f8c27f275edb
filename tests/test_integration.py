"""The quickstart through Hydra's compose API into a temporary sqlite store, read back with MlflowClient."""

from __future__ import annotations

import json

import pytest

from memlab.run import run
from tests.support.compose import compose_cfg

EXPECTED_METRICS = [
    "supersession_precision",
    "supersession_recall",
    "supersession_f1",
    "current_truth_at_1",
    "tier_frac_hot",
    "tier_frac_warm",
    "tier_frac_cold",
    "tier_frac_archived",
    "injected_tokens",
    "latency_total_s",
    *[f"latency_{p}_s" for p in ("scan", "cluster", "summarize", "supersession", "tier", "persist")],
]


@pytest.fixture(scope="module")
def quickstart_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("qs")
    uri = f"sqlite:///{tmp / 'store.db'}"
    cfg = compose_cfg(
        ["+experiment=quickstart", "tracking=mlflow", f"tracking.uri={uri}", f"paths.cache_dir={tmp / 'cache'}"]
    )
    outcome = run(cfg, tmp / "out")
    return uri, outcome, cfg


@pytest.mark.slow  # its module fixture runs the quickstart with MLflow (about 7 s): with the slow suite
def test_quickstart_run_is_recorded_in_mlflow(quickstart_run):
    from mlflow.tracking import MlflowClient

    uri, outcome, _cfg = quickstart_run
    client = MlflowClient(tracking_uri=uri)
    r = client.get_run(outcome.run_id)
    assert r.info.status == "FINISHED"
    assert client.get_experiment(r.info.experiment_id).name == "quickstart"
    for name in EXPECTED_METRICS:
        assert name in r.data.metrics, name
        assert r.data.metrics[name] == pytest.approx(outcome.metrics[name])
    tags = r.data.tags
    for key in (
        "memlab.config_hash",
        "memlab.git_sha",
        "memlab.git_dirty",
        "memlab.dataset_sha256",
        "memlab.version.memlab",
        "memlab.strategy.judge",
    ):
        assert tags.get(key), key
    assert tags["memlab.strategy.embedder"] == "minilm@1"
    assert r.data.params["retention.half_life_days"] == "30.0"
    arts = {a.path for a in client.list_artifacts(outcome.run_id)}
    assert {"config.json", "predictions.jsonl", "result.json", "tier_distribution.png"} <= arts


@pytest.mark.slow  # its module fixture runs the quickstart with MLflow (about 7 s): with the slow suite
def test_quickstart_outputs_are_consistent(quickstart_run):
    _, outcome, cfg = quickstart_run
    out = outcome.output_dir
    assert json.loads((out / "config.json").read_text())["judge"] == cfg["judge"]
    preds = [json.loads(line) for line in (out / "predictions.jsonl").read_text().splitlines()]
    preds = [p for p in preds if p["kind"] == "current"]
    assert len(preds) == outcome.metrics["n_queries_current"]
    assert outcome.metrics["current_truth_at_1"] == pytest.approx(sum(p["correct"] for p in preds) / len(preds))
    fracs = [outcome.metrics[f"tier_frac_{t}"] for t in ("hot", "warm", "cold", "archived")]
    assert sum(fracs) == pytest.approx(1.0)
    assert (out / "tier_distribution.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_builtin_run_is_reproducible(tmp_path):
    cfg = compose_cfg(["embedder=tfidf"])
    a = run(cfg, tmp_path / "a").metrics
    b = run(cfg, tmp_path / "b").metrics
    keys = [k for k in a if not k.startswith("latency_")]
    assert {k: a[k] for k in keys} == {k: b[k] for k in keys}


@pytest.mark.slow  # over 4 s: runs with the slow suite (make test-slow, CI)
def test_multirun_sweep_files_children_under_one_parent(tmp_path):
    import subprocess
    import sys

    from memlab.core.paths import PROJECT_ROOT
    from memlab.tracking.query import find_runs

    uri = f"sqlite:///{tmp_path / 'sweep.db'}"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "memlab",
            "--multirun",
            "embedder=tfidf",
            "judge=similarity,none",
            f"tracking.uri={uri}",
            "experiment_name=sweeptest",
            f"hydra.sweep.dir={tmp_path / 'sweep'}",
        ],
        capture_output=True,
        text=True,
        cwd=PROJECT_ROOT,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    runs = find_runs("sweeptest", uri)
    assert sorted(r.tags["memlab.strategy.judge"] for r in runs) == ["none@1", "similarity@1"]
    parents = {r.tags["mlflow.parentRunId"] for r in runs}
    assert len(parents) == 1


def test_a_run_is_tagged_with_the_model_file_a_strategy_loaded():
    from types import SimpleNamespace

    from memlab.benchmarks.project_history.benchmark import ProjectHistoryBenchmark
    from memlab.run import run_tags

    judge = SimpleNamespace(name="learned", version=8, artifact_path="/models/judge/learned_v10.json")
    plain = SimpleNamespace(name="slot", version=1, artifact_path=None)
    components = SimpleNamespace(judge=judge, retention=plain)
    tags = run_tags({}, ProjectHistoryBenchmark.card, components, ["judge", "retention"], "abc")
    assert tags["memlab.strategy.judge"] == "learned@8" and tags["memlab.model.judge"] == "learned_v10.json"
    assert "memlab.model.retention" not in tags
