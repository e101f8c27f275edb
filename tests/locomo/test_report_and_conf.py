"""The locomo_temporal experiment composes; the report renders from run records (no MLflow needed)."""

from __future__ import annotations

from memlab.benchmarks.base import POLICY
from memlab.reports.locomo import render
from memlab.tracking.query import RunRecord
from memlab.wiring.build import build
from tests.support.compose import compose_cfg


def test_experiment_composes_with_rules_and_heldout() -> None:
    cfg = compose_cfg(["+experiment=locomo_temporal", "embedder=tfidf"])
    assert cfg["experiment_name"] == "locomo_temporal"
    assert cfg["temporal"]["_target_"].endswith("RulesResolver")
    assert cfg["dataset"]["heldout"] == ["conv-41", "conv-42", "conv-43"]
    assert cfg["dataset"]["path"].endswith("locomo/locomo_dev.json")
    bench = build(cfg["dataset"], "dataset")
    assert cfg["retriever"]["_target_"].endswith("HybridRetriever") and cfg["retriever"]["bm25_window"] == 1
    assert bench.card.uses == (*POLICY, "temporal")
    assert bench.cv_grid["top_n"] == [5, 10] and "rank_weight" in bench.cv_grid  # the reported figure is the LOOCV one


def _run(run_id: str, resolver: str, mode: str, start: int, tags: str = "locomo", errata: str = "None") -> RunRecord:
    metrics = {
        "recall_at_10_turn": 0.75,
        "recall_at_10_turn_cat1": 0.5,
        "temporal_date_acc_datelike": 0.7,
        "temporal_date_acc_datelike_heldout": 0.65,
        "n_temporal": 156.0,
        "quirk_integer_answers": 6.0,
    }
    if errata != "None":
        metrics.update(recall_at_10_turn_incl_flagged=0.7, n_errata_excluded=85.0)
    return RunRecord(
        run_id,
        "locomo_temporal",
        "FINISHED",
        start,
        {"dataset.errata": errata, "retriever.bm25_window": "1"},
        metrics,
        {
            "memlab.strategy.temporal": f"{resolver}@1",
            "memlab.strategy.retriever": f"{mode}@1",
            "memlab.tags": tags,
            "memlab.config_hash": "abc",
        },
    )


def test_report_renders_sections_from_runs() -> None:
    runs = [
        _run("old", "rules", "hybrid", 1),
        _run("new", "rules", "hybrid", 2),
        _run("pt", "pattern_table", "bm25", 3),
        _run("base", "rules", "hybrid", 4, tags="locomo,baseline"),
        _run("err", "rules", "hybrid", 5, errata="/x/errata.json"),
    ]
    text, head, sweep = render(runs, "locomo_temporal")
    assert head.run_id == "new"  # newest plain rules/hybrid run; baseline and errata runs are not the headline
    assert [r.run_id for r in sweep] == ["pt", "new"]
    assert "| memlab (turns) | 10 | – | 50.0 | – | – | 75.0 |" in text
    assert "85 flagged questions excluded" in text and "| integer_answers | 6 |" in text
    assert "Mem0g (Mem0 paper) | 51.55 | 58.13" in text


def test_report_leads_with_the_cross_validated_estimate() -> None:
    run = _run("cv", "rules", "hybrid", 1)
    run.metrics.update(
        {
            "cv_temporal_date_acc_datelike": 0.774,
            "cv_temporal_date_acc_datelike_ci_low": 0.699,
            "cv_temporal_date_acc_datelike_ci_high": 0.842,
            "cv_n_settings": 36.0,
            "cv_heldout_conv-26": 0.848,
            "cv_heldout_conv-30": 0.84,
        }
    )
    text, _, _ = render([run], "locomo_temporal")
    assert "**Cross-validated `temporal_date_acc_datelike`: 77.4 % [69.9, 84.2]** (36 answer settings" in text
    assert "| held-out conversation | conv-26 | conv-30 |" in text and "| 84.8 | 84.0 |" in text


def test_report_without_runs() -> None:
    text, head, sweep = render([], "locomo_temporal")
    assert head is None and sweep == [] and "python -m memlab +experiment=locomo_temporal" in text
