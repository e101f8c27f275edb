"""The presets report's sensitivity section (each group's ablation), on a tiny synthetic MLflow store."""

from __future__ import annotations

import json

import pytest

from memlab.reports import sensitivity as sn
from memlab.tracking.mlflow_tracker import MlflowTracker

BASE = {"retention": "exponential", "judge": "similarity", "clusterer": "agglomerative"}


def log(uri: str, folder, correct: list[int], **options: str) -> None:
    """One FINISHED run on consolidation_history with the baseline's options but ``options``."""
    folder.mkdir(parents=True, exist_ok=True)
    records = [{"query_id": f"q{i}", "kind": "current", "reader_correct": float(c)} for i, c in enumerate(correct)]
    (folder / "predictions.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    tags = {"memlab.main_metric": "reader_acc", "memlab.dataset": f"{sn.BENCHMARK}@1"}
    tags |= {f"memlab.strategy.{g}": f"{o}@1" for g, o in {**BASE, **options}.items()}
    tracker = MlflowTracker(uri, sn.EXPERIMENT)
    tracker.start(folder.name, {"seed": 0}, tags)
    tracker.log_metrics({"reader_acc": sum(correct) / len(correct)})
    tracker.log_artifacts(folder)
    tracker.finish("FINISHED")


@pytest.mark.slow  # an MLflow store: with the slow suite (CI runs it)
def test_each_ablation_against_the_baseline_paired_over_the_questions(tmp_path, monkeypatch):
    monkeypatch.setattr(sn, "baseline_options", lambda: dict(BASE))
    uri = f"sqlite:///{tmp_path / 'mlruns.db'}"
    assert sn.lines(uri) == []  # no runs: no section
    log(uri, tmp_path / "base", [1] * 30 + [0] * 10)
    log(uri, tmp_path / "nojudge", [1] * 10 + [0] * 30, judge="none")
    log(uri, tmp_path / "same", [1] * 30 + [0] * 10, retention="none")
    log(uri, tmp_path / "two", [0] * 40, judge="none", retention="none")  # two groups changed: in no row
    text = "\n".join(sn.lines(uri))
    assert "0.750 over 40 questions (seeds 0)" in text
    rows = {tuple(c.strip() for c in line.strip("|").split("|")[:2]): line for line in text.splitlines()}
    assert "-0.500 [" in rows["judge", "`none`"] and "(distinguishable, 40)" in rows["judge", "`none`"]
    assert "+0.000" in rows["retention", "`none`"] and "(not distinguishable, 40)" in rows["retention", "`none`"]
    assert ("judge", "`slot`") not in rows and "0.000 |" not in rows["judge", "`none`"].split("|")[3]
    assert f"experiment_name={sn.EXPERIMENT} judge=none,slot" in text
