"""A run with the learned judge keeps the model it used beside its other artifacts (and so in MLflow)."""

from __future__ import annotations

import json

from mlflow.tracking import MlflowClient

from memlab.run import run
from tests.support.compose import compose_cfg


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
    copied = outcome.output_dir / "models" / "judge" / "learned_judge.joblib"
    assert copied.read_bytes() == tiny_model.read_bytes()
    card = json.loads((copied.parent / "learned_judge.json").read_text())
    assert card["train_seeds"] == [1000, 1001]
    arts = {a.path for a in MlflowClient(tracking_uri=uri).list_artifacts(outcome.run_id, "models/judge")}
    assert arts == {"models/judge/learned_judge.joblib", "models/judge/learned_judge.json"}
