"""The project_history report reads real MLflow runs (a temporary sqlite store) and writes markdown."""

from __future__ import annotations

import pytest

from memlab.run import run
from tests.support.compose import compose_cfg


@pytest.mark.slow
def test_report_from_mlflow_runs(tmp_path):
    uri = f"sqlite:///{tmp_path / 'mlruns.db'}"
    base = ["tracking=mlflow", f"tracking.uri={uri}", "embedder=tfidf", "clusterer=none"]
    for judge, difficulty in (("similarity", "default"), ("similarity", "hard"), ("none", "default")):
        overrides = [
            *base,
            "dataset=project_history",
            "dataset.size=100",
            f"dataset.difficulty={difficulty}",
            f"judge={judge}",
            "experiment_name=project_history",
        ]
        run(compose_cfg(overrides), tmp_path / f"{judge}-{difficulty}")
    for experiment in ("gitnotes_real", "gitnotes_real_cold"):
        notes = [*base, "dataset=gitnotes_real", "dataset.limit=150", "judge=slot", f"experiment_name={experiment}"]
        run(compose_cfg(notes), tmp_path / experiment)
    from memlab.reports.project_history import main

    out = tmp_path / "reports" / "project_history.md"
    assert main(["--uri", uri, "--out", str(out)]) == 0
    text = out.read_text()
    assert "| similarity | default | 100 | 0 |" in text
    assert "| similarity | 100 |" in text  # the drop table
    assert "| gitnotes_real | tfidf@1 | slot |" in text and "| gitnotes_real_cold | tfidf@1 | slot |" in text
    assert (tmp_path / "reports" / "project_history_f1.png").is_file()
