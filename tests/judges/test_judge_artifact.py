"""A run with the learned judge keeps the model it used beside its other artifacts (and so in MLflow)."""

from __future__ import annotations

import json

import pytest
from mlflow.tracking import MlflowClient

from memlab.run import run
from tests.support.compose import compose_cfg


@pytest.mark.slow  # over 5 s: with the slow suite (CI runs it)
def test_learned_model_is_logged_with_the_run(tiny_model, tmp_path):
    uri = f"sqlite:///{tmp_path / 'mlruns.db'}"
    cfg = compose_cfg(
        [
            "embedder=tfidf",
            "judge=learned",
            f"judge.model_path={tiny_model}",
            "tracking=mlflow",
            f"tracking.uri={uri}",
        ]
    )
    outcome = run(cfg, tmp_path / "out")
    copied = outcome.output_dir / "models" / "judge" / tiny_model.name
    assert copied.read_bytes() == tiny_model.read_bytes()
    card = json.loads((copied.parent / "tiny.card.json").read_text())
    assert card["train_seeds"] == [1000, 1001]
    arts = {a.path for a in MlflowClient(tracking_uri=uri).list_artifacts(outcome.run_id, "models/judge")}
    assert arts == {"models/judge/tiny.json", "models/judge/tiny.card.json"}


@pytest.mark.slow  # over 5 s: with the slow suite (CI runs it)
def test_export_pins_the_runs_model(tiny_model, tmp_path, capsys):
    from datetime import UTC, datetime

    from memlab.adapter.spec import build_components, load_spec
    from memlab.cli import main
    from memlab.core.types import Memory, Relation

    uri = f"sqlite:///{tmp_path / 'mlruns.db'}"
    cfg = compose_cfg(
        ["embedder=tfidf", "judge=learned", f"judge.model_path={tiny_model}", "tracking=mlflow", f"tracking.uri={uri}"]
    )
    outcome = run(cfg, tmp_path / "out")
    moved = tiny_model.with_name("moved.json")
    tiny_model.rename(moved)  # the spec must not depend on the training folder
    try:
        assert main(["export", "--run-id", outcome.run_id, "--tracking-uri", uri, "--out", str(tmp_path / "spec")]) == 0
        spec = load_spec(tmp_path / "spec" / "memlab-hook.json")
        pinned = spec["strategies"]["judge"]["model_path"]
        assert pinned.startswith(str(tmp_path / "spec"))
        assert pinned.endswith("models/judge/tiny.json")
        judge = build_components(spec).judge
        t = datetime(2025, 1, 1, tzinfo=UTC)
        verdict = judge.judge(
            Memory("a", "decisions", t, "Use Flask", "Use Flask"), Memory("b", "decisions", t, "x", "y")
        )
        assert isinstance(verdict.relation, Relation)
        assert judge.artifact_path == pinned
    finally:
        moved.rename(tiny_model)
