"""memlab report memory_files: pooled rows per data/judge, LORO folds summed from counts, kinds, targets; undefined
rates shown as '–' and never 0 or 1."""

from __future__ import annotations

from memlab.reports import memory_files as report
from memlab.tracking.query import RunRecord

CASCADE = "memlab.strategies.judge.cascade.CascadeJudge"
EDIT = "memlab.strategies.judge.edit.EditJudge"
SHARED = "/x/shared/datasets/memory-files"
OVERTAKEN = "memlab.strategies.retention.overtaken.OvertakenRetention"


def run(i: int, target: str, split: str, metrics: dict, **params: str) -> RunRecord:
    p = {"judge._target_": target, "dataset.split": split, "dataset.repos": "None", "dataset.kinds": "None"}
    p.update({"dataset.path": SHARED, **params})
    return RunRecord(f"r{i}", "memory_files", "FINISHED", i, p, metrics, {})


def fold(i: int, repo: str, current: float, shown: float, tp: float, fp: float, fn: float) -> RunRecord:
    counts = {"n_block_current": current, "n_block_facts": shown, "rep_tp": tp, "rep_fp": fp, "rep_fn": fn}
    return run(i, EDIT, "dev", counts, **{"judge.model_path": f"/tmp/folds/{repo}.json", "dataset.repos": repo})


def test_labels_and_data() -> None:
    assert report.judge_label({"judge._target_": CASCADE, "judge.edit._target_": EDIT}) == "cascade (edits)"
    assert report.judge_label({"judge._target_": CASCADE, "judge.edit": "None"}) == "cascade"
    assert report.judge_label({"judge._target_": EDIT, "judge.model_path": "/f/a.json"}) == "edit (LORO fold)"
    assert report.judge_label({"judge._target_": "memlab.strategies.judge.none.NoJudge"}) == "none"
    exponential = {"retention._target_": "memlab.strategies.retention.exponential.ExponentialRetention"}
    assert report.judge_label({"judge._target_": EDIT, **exponential, "retention.half_life_days": "30"}) == "edit"
    overtaken = {"retention._target_": OVERTAKEN, "retention.max_later_share": "0.2"}
    assert report.judge_label({"judge._target_": EDIT, **overtaken}) == "edit · overtaken (max_later_share 0.2)"
    assert report.data_label({"dataset.split": "dev", "dataset.path": SHARED, "dataset.kinds": "[CLAUDE.md]"}) == (
        "dev [CLAUDE.md]"
    )


def test_render_pools_folds_from_counts_and_shows_undefined_as_a_dash() -> None:
    whole = {
        "block_current_precision": 0.9,
        "block_current_precision_ci_low": 0.85,
        "block_current_precision_ci_high": 0.95,
        "replacement_f1": 0.5,
        "n_files": 3.0,
        "kind.CLAUDE.md.block_current_precision": 0.8,
        "kind.CLAUDE.md.n_files": 2.0,
    }
    sealed = {"block_current_precision": 0.96, "stale_inferable_in_block": 0.03, "current_coverage": 0.9}
    runs = [
        run(0, EDIT, "dev", whole),
        run(1, EDIT, "sealed", sealed),
        fold(2, "a__b", 9, 10, 3, 1, 0),
        fold(3, "c__d", 1, 10, 0, 0, 2),
    ]
    text = report.render(runs)
    assert "| dev | edit | 3 | 0.900 [0.85, 0.95] | 0.500 |" in text
    # folds: precision (9 + 1) / 20, replacement F1 2*3 / (2*3 + 1 + 2)
    assert "| dev | edit (LORO fold) | 2 | 0.500 | 0.667 |" in text
    assert "| `block_current_precision` | ≥ 0.95 | 0.960 | yes |" in text
    assert "| `stale_inferable_in_block` | ≤ 0.02 | 0.030 | no |" in text
    assert "| `replacement_f1` | ≥ 0.80 | – | – |" in text  # undefined: a dash, never 0
    assert "| CLAUDE.md | 0.800 / – / – (2) |" in text


def test_a_run_with_another_retention_has_its_own_row_and_targets_column() -> None:
    edits = {"judge.edit._target_": EDIT}
    overtaken = {"retention._target_": OVERTAKEN, "retention.max_later_share": "0.2"}
    runs = [
        run(0, EDIT, "sealed", {"block_current_precision": 0.84, "current_coverage": 0.85}),
        run(1, CASCADE, "sealed", {"block_current_precision": 0.95, "current_coverage": 0.7}, **edits, **overtaken),
        run(2, EDIT, "sealed", {"block_current_precision": 0.99}, **{"judge.model_path": "/f/a.json"}),
    ]
    text = report.render(runs)
    assert "| sealed | edit | ? | 0.840 |" in text  # the newer runs do not stand in for the experiment's judge
    assert "| sealed | cascade (edits) · overtaken (max_later_share 0.2) | ? | 0.950 |" in text
    assert "| `block_current_precision` | ≥ 0.95 | 0.840 | no | 0.950 | yes |" in text
    assert "| `current_coverage` | reported | 0.850 |  | 0.700 |  |" in text
