"""One test per metric convention: an undefined value (no gold of a class, no question of a kind, no evidence,
no prediction) is absent, never 1.0 or 0.0; every rate has its count ``n_...`` beside it. Exact values on tiny
data."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memlab.benchmarks import metrics
from memlab.core.types import Memory, Relation
from tests.support.stores import fresh_store

S, D, M, C = Relation.SUPERSEDE, Relation.DUPLICATE, Relation.MERGE, Relation.COEXIST
T0 = datetime(2025, 1, 1, tzinfo=UTC)


def test_precision_is_undefined_without_a_prediction():
    assert metrics.precision_recall_f1([], ["a", "b"]) == (None, 0.0, 0.0)
    assert metrics.supersession_scores([], [("a", "b"), ("b", "c")]) == (None, 0.0, 0.0)
    assert metrics.supersession_counts([], [("a", "b"), ("b", "c")]) == {
        "n_supersession_predicted": 0.0,
        "n_supersession_gold": 3.0,  # the closure: (a,b), (b,c), (a,c)
    }


def test_recall_is_undefined_without_gold_and_f1_without_either():
    assert metrics.precision_recall_f1(["a"], []) == (0.0, None, 0.0)
    assert metrics.precision_recall_f1([], []) == (None, None, None)
    assert metrics.precision_recall_f1(["a", "b"], ["b"]) == (0.5, 1.0, pytest.approx(2 / 3))


def test_relation_f1_merge_is_absent_without_merge_gold_or_prediction():
    from memlab.benchmarks.project_history import history_metrics as hm

    gold = [("a", "b", S), ("a", "c", D)]
    labels = hm.gold_labels(gold)
    out = hm.relation_scores([("a", "b"), ("a", "c"), ("b", "c")], {("a", "b"): S}, labels, [("a", "b"), ("a", "c")])
    assert not any(k.endswith("_merge") and not k.startswith("n_") for k in out)
    assert out["n_relation_predicted_merge"] == 0.0 and out["n_relation_gold_merge"] == 0.0
    assert out["relation_f1_supersede"] == 1.0 and out["n_relation_gold_supersede"] == 1.0
    # DUPLICATE: gold (a,c), nothing predicted -> recall and F1 0, precision undefined
    assert out["relation_recall_duplicate"] == 0.0 and out["relation_f1_duplicate"] == 0.0
    assert "relation_precision_duplicate" not in out and out["n_relation_predicted_duplicate"] == 0.0
    # COEXIST: gold (b,c); predicted (a,c), (b,c)
    assert out["relation_precision_coexist"] == 0.5 and out["relation_recall_coexist"] == 1.0


def _record(kind: str, correct: float, tokens: int = 10, top: int = 0, stale: float | None = None) -> dict:
    record = {"kind": kind, "correct": correct, "context_tokens": tokens}
    if kind == "current":
        record.update(n_top5=top, stale_top5=stale)
    return record


def test_query_accuracy_is_absent_without_a_query_of_its_kind():
    from memlab.benchmarks.project_history.evaluate_queries import query_metrics

    out = query_metrics([_record("current", 1.0, 10, 2, 0.5), _record("current", 0.0, 20, 3, 0.0)])
    assert out == {
        "current_truth_at_1": 0.5,
        "stale_rate_top5": 0.2,  # one stale item of five
        "n_top5_items": 5.0,
        "n_queries_current": 2.0,
        "context_tokens": 15.0,
        "n_queries_as_of": 0.0,
        "n_queries_when": 0.0,
        "n_queries_history": 0.0,
    }


def test_stale_rate_is_absent_without_items():
    from memlab.benchmarks.project_history import history_metrics as hm
    from memlab.benchmarks.project_history.evaluate_queries import query_metrics

    assert hm.stale_rate([], {"a": T0}, T0) is None
    out = query_metrics([_record("current", 0.0, 0, 0, None)])
    assert "stale_rate_top5" not in out and out["n_top5_items"] == 0.0 and out["current_truth_at_1"] == 0.0
    assert query_metrics([]) == {f"n_queries_{k}": 0.0 for k in ("current", "as_of", "when", "history")} | {
        "n_top5_items": 0.0
    }


def test_mean_and_interval_of_nothing_are_undefined():
    assert metrics.mean([]) is None and metrics.mean([None]) is None
    assert metrics.bootstrap_ci([]) is None
    assert metrics.ci_metrics("x", []) == {}
    assert metrics.ci_metrics("x", [1.0, 1.0]) == {"x_ci_low": 1.0, "x_ci_high": 1.0}
    assert metrics.ratio(1, 0) is None and metrics.ratio(1, 4) == 0.25
    assert metrics.defined({"a": None, "b": 0.0}) == {"b": 0.0}


def test_tier_fractions_are_absent_without_memories():
    assert metrics.tier_fractions({}) == {}
    assert metrics.tier_fractions({"hot": 1, "cold": 3}) == {
        "tier_frac_hot": 0.25,
        "tier_frac_warm": 0.0,
        "tier_frac_cold": 0.75,
        "tier_frac_archived": 0.0,
    }


def test_duplicate_collapse_and_compression_are_undefined_without_their_denominator():
    from memlab.benchmarks.project_history import history_metrics as hm

    assert hm.dup_collapsed_exact([], {}) is None and hm.n_redundant([]) == 0
    assert hm.dup_collapsed_exact([["a", "b", "c"]], {"b": "a"}) == 0.5 and hm.n_redundant([["a", "b", "c"]]) == 2
    assert hm.compression_ratio(10, 0) is None and hm.compression_ratio(0, 0) is None
    assert hm.compression_ratio(10, 4) == 2.5


def _row(category: int, evidence: list[str], ranked: list[str], context: list[str]) -> dict:
    from memlab.benchmarks.locomo.recall import recall_at_k, recall_row

    return {
        "category": category,
        "evidence": evidence,
        "recall": recall_row(ranked, evidence, ks=(1, 5, 10, 25)),
        "evidence_recall_at_budget": recall_at_k(context, evidence, len(context)),
        "context_tokens": 7,
    }


def test_locomo_question_without_evidence_has_no_recall():
    from memlab.benchmarks.locomo.aggregate import confidence_intervals, context_metrics, recall_metrics

    rows = [
        _row(1, ["D1:1", "D1:2"], ["D1:1", "D2:1"], ["D1:1"]),
        _row(3, [], ["D1:1"], []),  # no evidence, empty context: undefined, not 1.0
        _row(4, ["D2:1"], ["D1:1", "D2:1"], []),
    ]
    assert rows[1]["evidence_recall_at_budget"] is None and set(rows[1]["recall"].values()) == {None}
    out = recall_metrics(rows)
    assert out["recall_at_1_turn"] == 0.25  # (1/2 + 0) / 2: the question without evidence is left out
    assert out["recall_at_1_turn_cat1"] == 0.5 and out["recall_at_1_turn_cat4"] == 0.0
    assert not any(k.endswith("_cat3") and not k.startswith("n_") for k in out)
    assert (out["n_questions_cat1_4"], out["n_evidence_cat1_4"], out["n_no_evidence_cat1_4"]) == (3.0, 2.0, 1.0)
    assert out["n_evidence_cat3"] == 0.0 and out["n_evidence_cat1"] == 1.0
    ctx = context_metrics(rows)
    assert ctx["evidence_recall_at_budget"] == 0.25 and "evidence_recall_at_budget_cat3" not in ctx
    assert ctx["context_tokens"] == 7.0
    ci = confidence_intervals(rows)
    assert set(ci) == {
        f"{n}_ci_{b}" for n in ("recall_at_10_turn", "evidence_recall_at_budget") for b in ("low", "high")
    }


def test_locomo_temporal_metrics_are_absent_without_temporal_questions():
    from memlab.benchmarks.locomo.aggregate import all_metrics, temporal_metrics

    assert temporal_metrics([]) == {"n_temporal": 0.0, "n_temporal_datelike": 0.0}
    out = all_metrics([_row(4, ["D1:1"], ["D1:1"], ["D1:1"])])
    assert not any(k.startswith("temporal_") for k in out)
    assert "recall_at_1_turn_cat2" not in out and out["recall_at_1_turn"] == 1.0


def test_longmemeval_recall_is_absent_without_scored_questions():
    from memlab.benchmarks.longmemeval.benchmark import aggregate, session_recall

    assert session_recall(["s1"], set(), 1) == (None, None)
    assert aggregate([{"scored": False, "question_type": "x"}], (1,)) == {"n_questions": 1.0, "n_scored": 0.0}
    row = {"scored": True, "question_type": "multi-session", "evidence_recall_at_budget": 0.5, "context_tokens": 4}
    out = aggregate([{**row, "recall_at_1": 1.0, "recall_all_at_1": 0.0}], (1,))
    assert out["lme_recall_at_1_session_multi_session"] == 1.0 and out["n_scored_multi_session"] == 1.0


def test_temporal_norm_rates_are_absent_without_phrases():
    from memlab.benchmarks.temporal_norm.scoring import intervals, metrics_for

    assert metrics_for([]) == {"n_evaluated": 0.0, "n_correct": 0.0, "n_supported": 0.0}
    rows = [{"status": "unsupported"}, {"status": "wrong"}]
    out = metrics_for(rows, "_dev")
    assert out["resolver_acc_dev"] == 0.0 and out["resolver_coverage_dev"] == 0.5
    assert out["resolver_acc_supported_dev"] == 0.0 and out["n_supported_dev"] == 1.0
    assert set(intervals([{"status": "unsupported"}])) == {"resolver_acc_ci_low", "resolver_acc_ci_high"}


def test_synth_accuracy_is_absent_for_an_empty_subset():
    pytest.importorskip("memlab.benchmarks.locomo.dates")
    from memlab.benchmarks.locomo_synth.score import gold_scores

    item = {"sample_id": "s", "qa_index": 0, "kind": "yesterday", "start": "2023-05-07", "end": "2023-05-08"}
    rows = [{"qid": "locomo_0_qa0", "conversation": "s", "category": 2, "prediction": "7 May 2023"}]
    out = gold_scores(rows, [{**item, "grain": "day", "distractors": []}])
    assert out == {
        "n_synth_temporal": 1.0,
        "synth_date_acc": 1.0,
        "synth_date_acc_yesterday": 1.0,
        "n_synth_temporal_yesterday": 1.0,
        "n_synth_temporal_distracted": 0.0,
        "synth_date_acc_undistracted": 1.0,
        "n_synth_temporal_undistracted": 1.0,
    }
    assert gold_scores([], []) == {"n_synth_temporal": 0.0, "n_synth_temporal_distracted": 0.0,
                                   "n_synth_temporal_undistracted": 0.0}  # fmt: skip


def test_adr_repository_rates_carry_their_counts():
    from memlab.benchmarks.adr.pooled import pooled_metrics, rate_counts, rates

    no_gold = {"sup_fp": 2.0, "n_injected_facts": 4.0, "n_stale_injected": 1.0}
    assert rates(no_gold) == {"supersession_precision": 0.0, "supersession_f1": 0.0, "stale_rate_injected": 0.25}
    counts = rate_counts(no_gold)
    assert counts["n_supersession_predicted"] == 2.0 and counts["n_supersession_gold"] == 0.0
    assert counts["n_current_queries"] == 0.0 and counts["n_gold_listed"] == 0.0
    out = pooled_metrics([no_gold])
    assert "supersession_recall" not in out and "current_truth_at_1" not in out
    assert out["n_supersession_gold"] == 0.0 and out["n_current_queries"] == 0.0


def test_count_name_finds_each_rates_denominator():
    logged = {
        "when_acc": 0.5,
        "n_queries_when": 4.0,
        "relation_precision_merge": 1.0,
        "n_relation_predicted_merge": 2.0,
        "relation_f1_merge": 1.0,
        "n_relation_gold_merge": 3.0,
        "recall_at_10_turn_cat2_tune": 0.5,
        "n_evidence_cat2_tune": 8.0,
        "temporal_date_acc_ci_low_heldout": 0.1,
        "n_temporal_heldout": 9.0,
        "repo.a__b.current_truth_at_1": 1.0,
        "repo.a__b.n_current_queries": 2.0,
        "resolver_acc_day": 1.0,
        "n_day": 5.0,
        "resolver_acc_dev": 1.0,
        "n_evaluated_dev": 6.0,
        "tier_frac_hot": 0.5,
        "n_memories": 10.0,
        "injected_tokens": 100.0,
    }
    assert metrics.count_of("when_acc", logged) == 4.0
    assert metrics.count_of("relation_precision_merge", logged) == 2.0
    assert metrics.count_of("relation_f1_merge", logged) == 3.0
    assert metrics.count_of("recall_at_10_turn_cat2_tune", logged) == 8.0
    assert metrics.count_of("temporal_date_acc_ci_low_heldout", logged) == 9.0
    assert metrics.count_name("repo.a__b.current_truth_at_1", logged) == "repo.a__b.n_current_queries"
    assert metrics.count_of("resolver_acc_day", logged) == 5.0
    assert metrics.count_of("resolver_acc_dev", logged) == 6.0
    assert metrics.count_of("tier_frac_hot", logged) == 10.0
    assert metrics.count_of("injected_tokens", logged) is None  # not a rate
    assert metrics.count_of("history_acc", logged) is None  # its count was not logged
    assert metrics.is_defined(0.0) and not metrics.is_defined(None) and not metrics.is_defined(float("nan"))


def _history():
    from memlab.data.project_history.schema import GoldQuery, GoldRelation, ProjectHistory

    memories = (
        Memory("m1", "decisions", T0, "Database: PostgreSQL", "We use PostgreSQL for storage."),
        Memory("m2", "decisions", T0 + timedelta(days=1), "Database: SQLite", "We moved storage to SQLite."),
        Memory("m3", "progress", T0 + timedelta(days=2), "Logo", "The logo is blue."),
    )
    query = GoldQuery("q1", "current", "Which database?", T0 + timedelta(days=3), "SQLite", ("m2",))
    return ProjectHistory("tiny", memories, (GoldRelation("m1", "m2", S),), queries=(query,))


def test_a_run_that_predicts_nothing_logs_no_precision_and_no_empty_kind():
    """End to end on a tiny history with a judge that never relates two memories."""
    from dataclasses import replace

    from memlab.benchmarks.base import DatasetCard
    from memlab.benchmarks.project_history.evaluate import evaluate_history
    from memlab.core.types import Verdict
    from memlab.strategies.judge.base import JudgeBase
    from memlab.wiring.build import build_components
    from tests.support.compose import compose_cfg

    class Never(JudgeBase):
        name, version = "never", 1

        def judge(self, older, newer, similarity=None):
            return Verdict(C, 1.0, "never")

    cfg = compose_cfg(["embedder=tfidf", "clusterer=none", "pipeline.min_pair_similarity=0.0"])
    components = replace(build_components(cfg), judge=Never())
    out = evaluate_history(_history(), components, DatasetCard("t", "1", "0", "x", "x", "supersession_f1")).metrics
    assert "supersession_precision" not in out and out["n_supersession_predicted"] == 0.0
    assert out["supersession_recall"] == 0.0 and out["supersession_f1"] == 0.0 and out["n_supersession_gold"] == 1.0
    for name in ("as_of_acc", "when_acc", "history_acc", "dup_collapsed_exact", "relation_f1_merge"):
        assert name not in out
    assert out["n_queries_when"] == 0.0 and out["n_dup_redundant_exact"] == 0.0 and out["n_queries_current"] == 1.0
    assert out["n_relation_gold_merge"] == 0.0 and out["n_memories"] == 3.0
    assert out["compression_ratio"] == 3.0 / out["n_retrievable"]
    assert all(v == v and v is not None for v in out.values())


def test_sweep_table_skips_undefined_values_and_shows_counts():
    from memlab.sweeps.table import comparison_table, ranked, render_comparison
    from memlab.tracking.store import ChildRun

    rows = [
        ChildRun("a" * 32, "judge=none", "FINISHED", "when_acc", float("nan"), (("supersession_f1", None),)),
        ChildRun(
            "b" * 32, "judge=slot", "FINISHED", "when_acc", 0.25, (("supersession_f1", 0.5),),
            metrics=(("n_queries_when", 4.0), ("n_supersession_gold", 6.0)),
        ),
    ]  # fmt: skip
    assert [c.name for c in ranked(rows)] == ["judge=slot", "judge=none"]  # NaN ranks with the unscored
    table = comparison_table(rows)
    assert "| 0.250 (n=4) | 0.500 (n=6) |" in table
    assert "| judge=none | when_acc | – | – |" in table and "nan" not in table
    text = render_comparison(rows, 80)
    assert "sweep comparison: when_acc" in text and "nan" not in text
    assert [line.split()[3] for line in text.splitlines() if line.startswith(("1 ", "2 "))] == ["4", "–"]  # n


def test_best_ranks_only_runs_where_the_metric_is_defined_and_prints_its_count(tmp_path, capsys):
    from memlab.cli import main
    from tests.sweeps.helpers import log_run

    uri = fresh_store(tmp_path)
    log_run(uri, "conv", tmp_path / "a", strategies={"judge": "slot"}, params={}, correct=[1, 0],
            metrics={"n_queries_current": 2.0})  # fmt: skip
    log_run(uri, "conv", tmp_path / "b", strategies={"judge": "none"}, params={}, correct=[1], main_metric="when_acc")
    assert main(["best", "--experiment", "conv", "--metric", "current_truth_at_1", "--tracking-uri", uri]) == 0
    out = capsys.readouterr().out
    assert "current_truth_at_1=0.5 (n=2)" in out.splitlines()[0]
    assert "best of 1 FINISHED runs of experiment conv where current_truth_at_1 is defined" in out
