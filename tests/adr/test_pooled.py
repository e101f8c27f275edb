"""Pooled figures with exact expected numbers."""

import pytest

from memlab.benchmarks.adr.pooled import bootstrap, macro_f1, pooled_metrics, rates

A = {  # 2 of 3 gold found, 1 false positive; 4 gold listed pairs (3 SUPERSEDE, 1 MERGE), 3 judged
    "sup_tp": 2, "sup_fp": 1, "sup_fn": 1, "n_gold_supersede": 3, "n_gold_merge": 1, "n_gold_candidates": 3,
    "n_gold_merge_found": 1,
    "n_injected_facts": 10, "n_stale_injected": 1, "n_current_queries": 2, "n_current_correct": 1,
    "n_current_covered": 2, "n_as_of_queries": 3, "n_as_of_correct": 3,
}  # fmt: skip
B = {  # no gold; one false positive; nothing injected is stale
    "sup_tp": 0, "sup_fp": 1, "sup_fn": 0, "n_gold_supersede": 0, "n_gold_merge": 0, "n_gold_candidates": 0,
    "n_gold_merge_found": 0,
    "n_injected_facts": 5, "n_stale_injected": 0, "n_current_queries": 0, "n_current_correct": 0,
    "n_current_covered": 0, "n_as_of_queries": 0, "n_as_of_correct": 0,
}  # fmt: skip
C = {  # gold never found, nothing predicted
    **{k: 0 for k in A},
    "sup_fn": 2, "n_gold_supersede": 2, "n_gold_candidates": 1, "n_injected_facts": 5, "n_stale_injected": 2,
    "n_current_queries": 1,
}  # fmt: skip


def test_rates_of_one_repository():
    got = rates(A)
    assert got["supersession_precision"] == pytest.approx(2 / 3)
    assert got["supersession_recall"] == pytest.approx(2 / 3)
    assert got["supersession_f1"] == pytest.approx(2 / 3)
    assert got["candidate_recall"] == pytest.approx(3 / 4) and got["merge_recall"] == 1.0
    assert got["stale_rate_injected"] == pytest.approx(0.1)
    assert got["current_truth_at_1"] == 0.5 and got["current_coverage_injected"] == 1.0 and got["as_of_acc"] == 1.0


def test_undefined_rates_are_absent():
    got = rates(B)
    assert got == {"supersession_precision": 0.0, "supersession_f1": 0.0, "stale_rate_injected": 0.0}
    got = rates(C)
    assert "supersession_precision" not in got and got["supersession_recall"] == 0.0 and got["supersession_f1"] == 0.0
    assert rates({}) == {}


def test_pooled_is_micro_and_macro_over_repositories_with_gold():
    got = pooled_metrics([A, B, C])
    # TP 2, FP 2, FN 3
    assert got["supersession_precision"] == pytest.approx(2 / 4)
    assert got["supersession_recall"] == pytest.approx(2 / 5)
    assert got["supersession_f1"] == pytest.approx(4 / 9)
    assert got["supersession_f1_macro"] == pytest.approx((2 / 3 + 0.0) / 2)
    assert got["candidate_recall"] == pytest.approx(4 / 6)
    assert got["stale_rate_injected"] == pytest.approx(3 / 20)
    assert got["current_truth_at_1"] == pytest.approx(1 / 3)
    assert got["n_repos"] == 3 and got["n_repos_with_gold"] == 2 and got["n_gold_supersede"] == 5
    assert (got["n_supersession_tp"], got["n_supersession_fp"], got["n_supersession_fn"]) == (2, 2, 3)
    assert macro_f1([B]) is None


def test_bootstrap_intervals_bracket_and_skip_undefined_resamples():
    got = bootstrap([A, B, C], seed=0)
    for name in ("supersession_f1", "candidate_recall", "stale_rate_injected", "current_truth_at_1"):
        assert got[f"{name}_ci_low"] <= pooled_metrics([A, B, C])[name] <= got[f"{name}_ci_high"]
    assert got["candidate_recall_ci_low"] >= 0.0 and got["candidate_recall_ci_high"] <= 1.0
    only_b = bootstrap([B])
    assert "supersession_recall_ci_low" not in only_b and only_b["supersession_f1_ci_low"] == 0.0
    assert bootstrap([]) == {}
    one = bootstrap([A])
    assert one["supersession_f1_ci_low"] == one["supersession_f1_ci_high"] == pytest.approx(2 / 3)
