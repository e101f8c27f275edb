"""The presets report's section on each preset's mechanism switched off, on a tiny synthetic MLflow store."""

from __future__ import annotations

import json

import pytest

from memlab.reports import preset_mechanisms as pm
from memlab.tracking.mlflow_tracker import MlflowTracker


def log(uri: str, folder, judge: str, correct: list[int], f1: float, seed: int = 0) -> None:
    """One FINISHED seed-preset run on project_history with ``judge`` and these reader answers."""
    folder.mkdir(parents=True, exist_ok=True)
    records = [{"query_id": f"q{i}", "kind": "current", "reader_correct": float(c)} for i, c in enumerate(correct)]
    (folder / "predictions.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    tags = {
        "memlab.main_metric": "reader_acc",
        "memlab.dataset": "project_history@1",
        "memlab.tags": "preset,seed_git_notes_memory_nollm",
        "memlab.strategy.judge": f"{judge}@1",
    }
    tracker = MlflowTracker(uri, pm.EXPERIMENT)
    tracker.start(f"judge={judge}", {"seed": seed}, tags)
    tracker.log_metrics({"reader_acc": sum(correct) / len(correct), "supersession_f1": f1, "injected_tokens": 100.0})
    tracker.log_artifacts(folder)
    tracker.finish("FINISHED")


@pytest.mark.slow  # about 4 s (an MLflow store): with the slow suite (CI runs it)
def test_each_mechanism_on_and_off_with_the_paired_difference(tmp_path):
    uri = f"sqlite:///{tmp_path / 'mlruns.db'}"
    assert pm.lines(uri) == []  # no runs: no section
    log(uri, tmp_path / "on", "similarity", [1] * 30 + [0] * 10, 0.4)
    log(uri, tmp_path / "off", "none", [1] * 10 + [0] * 30, 0.0)
    text = "\n".join(pm.lines(uri))
    row = next(line for line in text.splitlines() if line.startswith("| `seed_git_notes_memory_nollm` |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[1] == "the similarity supersession check (`judge=none`)"
    assert cells[2:4] == ["0.750", "0.250"] and cells[4].startswith("+0.500 [")
    assert cells[4].endswith("(distinguishable, 40)") and cells[5] == "0.400 / 0.000"
    assert "mycelic_nollm" not in row and text.count("| `") == 1  # presets without runs are left out
    assert "python -m memlab --multirun +experiment=astra_nollm dataset=project_history seed=0,1,2" in text
