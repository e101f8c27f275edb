"""Metric functions: exact values and pinned edge cases."""

from __future__ import annotations

import pytest

from memlab.benchmarks import metrics


def test_prf_edge_cases():
    assert metrics.precision_recall_f1([], []) == (None, None, None)
    assert metrics.precision_recall_f1([], [1]) == (None, 0.0, 0.0)
    assert metrics.precision_recall_f1([1], []) == (0.0, None, 0.0)
    p, r, f = metrics.precision_recall_f1([1, 2, 3, 4], [3, 4, 5])
    assert (p, r) == (0.5, pytest.approx(2 / 3)) and f == pytest.approx(2 * 0.5 * (2 / 3) / (0.5 + 2 / 3))


def test_transitive_closure_and_supersession_scores():
    assert metrics.transitive_closure([("a", "b"), ("b", "c")]) == {("a", "b"), ("b", "c"), ("a", "c")}
    assert metrics.transitive_closure([("a", "b"), ("b", "a")]) == {("a", "b"), ("b", "a")}
    gold = [("a", "b"), ("b", "c")]
    assert metrics.supersession_scores([("a", "b"), ("b", "c"), ("a", "c")], gold) == (1.0, 1.0, 1.0)
    p, r, _f = metrics.supersession_scores([("a", "c")], gold)
    assert (p, r) == (1.0, pytest.approx(1 / 3))
    assert metrics.supersession_scores([], []) == (None, None, None)


def test_mean():
    assert metrics.mean([]) is None and metrics.mean([1, 0, 0, 1]) == 0.5
    assert metrics.mean([None, 1.0, None, 0.0]) == 0.5


def test_tier_fractions():
    assert metrics.tier_fractions({}) == {}
    fr = metrics.tier_fractions({"hot": 1, "warm": 3})
    assert fr["tier_frac_hot"] == 0.25 and fr["tier_frac_warm"] == 0.75 and fr["tier_frac_archived"] == 0.0


def test_bootstrap_ci_brackets_mean_and_is_seeded():
    vals = [0, 1] * 50
    lo, hi = metrics.bootstrap_ci(vals, seed=1)
    assert lo <= 0.5 <= hi and (lo, hi) == metrics.bootstrap_ci(vals, seed=1)
    assert metrics.bootstrap_ci([]) is None


def test_one_bootstrap_for_means_and_ratios_undefined_is_absent():
    """The logged interval of a mean and the reports' interval of a ratio of sums are one function: unit weights
    give the mean's interval exactly; an interval with nothing to resample is ``None``, never NaN."""
    import numpy as np

    rng = np.random.default_rng(7)
    for n in (3, 40, 300):  # 300 items: 1,000 resamples are drawn in chunks
        vals = list((rng.random(n) < 0.4).astype(float))
        lo, hi = metrics.bootstrap_ci(vals, seed=2)
        assert metrics.bootstrap_ci(vals, [1.0] * n, seed=2) == (lo, hi)
        idx = np.random.default_rng(2).integers(0, n, size=(1000, n))  # one draw of every resample
        assert (lo, hi) == tuple(float(q) for q in np.quantile(np.asarray(vals)[idx].mean(axis=1), [0.025, 0.975]))
    assert metrics.bootstrap_ci([1.0, 0.0], [0.0, 0.0]) is None  # no resample has a weight
    assert metrics.bootstrap_ci([1.0, 0.0], [1.0, 0.0], resamples=200) == (1.0, 1.0)  # only the weighted item counts
    assert metrics.bootstrap_ci([0.5]) == (0.5, 0.5)


def test_a_paired_comparison_without_a_defined_interval_is_absent():
    from memlab.benchmarks.stats import paired_test

    assert paired_test({"q": (1.0, 0.0)}, {"q": (0.0, 0.0)}) is None  # no weight on either side
    assert paired_test({"q": (1.0, 1.0)}, {"r": (0.0, 1.0)}) is None  # no shared item
    res = paired_test({"q": (1.0, 1.0), "r": (0.0, 1.0)}, {"q": (1.0, 1.0), "r": (1.0, 1.0)}, permutations=100)
    assert res is not None and (res.n, res.diff) == (2, 0.5) and res.ci_low <= res.diff <= res.ci_high


def test_latency_metrics_sum_every_phase_over_episodes_and_total_them():
    from memlab.benchmarks.metrics import latency_metrics

    out = latency_metrics([{"ingest": 1.0, "recall": 0.5}, {"ingest": 2.0, "answer": 0.25}])
    assert out == {"latency_ingest_s": 3.0, "latency_recall_s": 0.5, "latency_answer_s": 0.25, "latency_total_s": 3.75}
    assert latency_metrics([]) == {"latency_total_s": 0.0}
