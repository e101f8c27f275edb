"""memlab report adr: pooled rows per data/refs/judge, LORO folds summed from counts, per-repository F1, targets,
undefined rates shown as '–' and never 0 or 1."""

from __future__ import annotations

from pathlib import Path

import pytest

from memlab.core.errors import MemlabError
from memlab.reports import adr
from memlab.tracking.query import RunRecord

CASCADE = "memlab.strategies.judge.cascade.CascadeJudge"
RECORD = "memlab.strategies.judge.record.RecordJudge"


def run(i: int, target: str, split: str, refs: str, metrics: dict, **params: str) -> RunRecord:
    p = {"judge._target_": target, "dataset.split": split, "dataset.refs": refs, "dataset.repos": "None"}
    p.update({"dataset.path": "/x/shared/datasets/adr-decisions", **params})
    return RunRecord(f"r{i}", "adr_decisions", "FINISHED", i, p, metrics, {})


def fold(i: int, repo: str, tp: float, fp: float, fn: float) -> RunRecord:
    counts = {"n_supersession_tp": tp, "n_supersession_fp": fp, "n_supersession_fn": fn, "n_gold_supersede": tp + fn}
    counts["n_gold_candidates"] = tp + fn - 1
    return run(
        i, RECORD, "dev", "strip", counts, **{"judge.model_path": f"/tmp/folds/{repo}.json", "dataset.repos": repo}
    )


def test_labels_name_the_cascade_stages_and_fold_models() -> None:
    assert adr.judge_label({"judge._target_": CASCADE, "judge.references": "True", "judge.records": "True"}) == (
        "cascade (references, record stores)"
    )
    assert adr.judge_label({"judge._target_": CASCADE}) == "cascade (note judges only)"
    assert adr.judge_label({"judge._target_": RECORD, "judge.model_path": "/f/a.json"}) == "record (LORO fold)"
    assert adr.judge_label({"judge._target_": RECORD, "judge.model_path": "None"}) == "record"


def test_labels_of_the_composed_cascade_name_the_stages_it_holds() -> None:
    from memlab.observability.provenance import flatten
    from tests.support.compose import compose_cfg

    def label(*overrides: str) -> str:
        return adr.judge_label({k: str(v) for k, v in flatten({"judge": compose_cfg(overrides)["judge"]}).items()})

    assert label("judge=cascade") == adr.DEFAULT_JUDGE == "cascade (references, record stores)"
    assert label("judge=cascade", "judge.reference=null") == "cascade (record stores)"
    assert label("judge=cascade", "judge.reference=null", "judge.record=null") == "cascade (note judges only)"
    assert (
        label("judge=cascade", "judge.record.model_path=/f/a.json") == "cascade (references, record stores) (LORO fold)"
    )


def test_loro_folds_are_pooled_from_their_counts() -> None:
    lines = adr.loro_table([fold(1, "a", 1, 1, 1), fold(2, "b", 2, 0, 3)])
    row = next(line for line in lines if "LORO" in line)
    # tp 3, fp 1, fn 4: F1 = 6 / 11, P = 0.75, R = 3 / 7, candidates 5 of 7; stale and current truth have no
    # denominator: '–'
    cells = [c.strip() for c in row.strip("|").split("|")]
    # the folds logged no stated-link counts (runs older than them): those rates are '–' too, never 0
    assert cells == ["strip", "record (LORO fold)", "2", "0.545", "0.750", "0.429", "0.714", "–", "–", "–", "–"]


def test_a_newer_fold_of_the_same_repository_replaces_the_older() -> None:
    row = next(line for line in adr.loro_table([fold(1, "a", 0, 5, 5), fold(2, "a", 1, 0, 0)]) if "LORO" in line)
    assert "| 1 | 1.000 | 1.000 | 1.000 |" in row


def test_render_pools_per_repo_and_targets() -> None:
    metrics = {
        "supersession_f1": 0.5,
        "supersession_f1_ci_low": 0.25,
        "supersession_f1_ci_high": 0.75,
        "candidate_recall": 1.0,
        "stale_rate_injected": 0.05,
        "n_repos": 2,
        "repo.o__a.supersession_f1": 0.4,
        "latency_total_s": 12.0,
    }
    runs = [
        run(1, CASCADE, "sealed", "strip", metrics, **{"judge.references": "True", "judge.records": "True"}),
        run(
            2,
            "memlab.strategies.judge.none.NoJudge",
            "sealed",
            "strip",
            {"n_repos": 2, "repo.o__a.supersession_f1": 0.0},
        ),
    ]
    text = adr.render(runs)
    assert "| sealed | strip | cascade (references, record stores) | 2 | 0.500 [0.25, 0.75] |" in text
    assert "| o__a | 0.400 | 0.000 |" in text
    assert "| strip | `supersession_f1` | ≥ 0.60 | 0.500 | no |" in text
    assert "| strip | `candidate_recall` | ≥ 0.95 | 1.000 | yes |" in text
    assert "| strip | `current_truth_at_1` | ≥ 0.70 | – | – |" in text  # not logged: no figure, no verdict


def test_no_runs_is_a_one_line_error_and_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "adr.md"
    with pytest.raises(MemlabError, match="no FINISHED runs"):
        adr.main(["--uri", f"sqlite:///{tmp_path}/empty.db", "--out", str(out)])
    assert not out.exists()
