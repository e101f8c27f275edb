"""Pure metrics of the history evaluation, with exact expected values on tiny data."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memlab.benchmarks.project_history import history_metrics as hm
from memlab.core.types import Memory, Relation

S, D, M, C = Relation.SUPERSEDE, Relation.DUPLICATE, Relation.MERGE, Relation.COEXIST


def test_gold_labels_close_supersede_only():
    labels = hm.gold_labels([("a", "b", S), ("b", "c", S), ("a", "x", D), ("x", "y", M)])
    assert labels[("a", "c")] is S
    assert ("a", "y") not in labels
    assert labels[("a", "x")] is D


def test_relation_scores_exact():
    gold = [("a", "b", S), ("b", "c", S), ("a", "d", D), ("a", "e", M), ("a", "f", C)]
    labels = hm.gold_labels(gold)
    listed = [(o, n) for o, n, _ in gold]
    judged = [("a", "b"), ("a", "c"), ("a", "d"), ("a", "e"), ("a", "f"), ("d", "e")]
    predicted = {("a", "b"): S, ("a", "c"): S, ("a", "d"): S, ("d", "e"): D}
    out = hm.relation_scores(judged, predicted, labels, listed)
    # universe: judged + listed (b,c) -> 7 pairs; gold S: (a,b),(b,c),(a,c); predicted S: (a,b),(a,c),(a,d)
    assert out["relation_precision_supersede"] == pytest.approx(2 / 3)
    assert out["relation_recall_supersede"] == pytest.approx(2 / 3)
    # gold D: (a,d); predicted D: (d,e) -> 0
    assert out["relation_f1_duplicate"] == 0.0
    # gold M: (a,e) not predicted
    assert out["relation_recall_merge"] == 0.0 and "relation_precision_merge" not in out  # nothing predicted
    assert out["relation_f1_merge"] == 0.0
    assert out["n_relation_predicted_merge"] == 0.0 and out["n_relation_gold_merge"] == 1.0
    # gold COEXIST in universe: (a,f), (d,e); predicted COEXIST: (a,e), (a,f), (b,c)
    assert out["relation_precision_coexist"] == pytest.approx(1 / 3)
    assert out["relation_recall_coexist"] == pytest.approx(1 / 2)


def test_relation_scores_empty_are_undefined():
    out = hm.relation_scores([], {}, {}, [])
    assert all(k.startswith("n_relation_") and v == 0.0 for k, v in out.items())
    assert len(out) == 8  # predicted and gold counts of the four relations; no score


def test_closure_pairs_count_only_when_judged():
    labels = hm.gold_labels([("a", "b", S), ("b", "c", S)])
    out = hm.relation_scores([("a", "b"), ("b", "c")], {("a", "b"): S, ("b", "c"): S}, labels, [("a", "b"), ("b", "c")])
    assert out["relation_f1_supersede"] == 1.0


def test_stale_rate_and_superseded_at():
    t = datetime(2025, 1, 1, tzinfo=UTC)
    stamps = {"a": t, "b": t + timedelta(days=1), "c": t + timedelta(days=2)}
    since = hm.superseded_at([("a", "b", S), ("a", "c", S), ("b", "c", D)], stamps)
    assert since == {"a": t + timedelta(days=1)}
    assert hm.stale_rate(["a", "b"], since, t) == 0.0
    assert hm.stale_rate(["a", "b"], since, t + timedelta(days=1)) == 0.5
    assert hm.stale_rate([], since, t) is None


def test_exact_duplicates_and_collapse():
    t = datetime(2025, 1, 1, tzinfo=UTC)
    ms = [
        Memory("x2", "p", t + timedelta(hours=2), "s", "c"),
        Memory("x1", "p", t, "s", "c"),
        Memory("x3", "p", t + timedelta(hours=3), "s", "c"),
        Memory("y", "p", t, "s", "c "),  # differs by a character: not an exact duplicate
    ]
    groups = hm.exact_duplicate_groups(ms)
    assert groups == [["x1", "x2", "x3"]]
    assert hm.dup_collapsed_exact(groups, {"x2": "x1", "x3": None}) == 0.5
    assert hm.dup_collapsed_exact([], {}) is None
    assert hm.n_redundant(groups) == 2 and hm.n_redundant([]) == 0


def test_compression_ratio_edges():
    assert hm.compression_ratio(0, 0) is None
    assert hm.compression_ratio(10, 0) is None
    assert hm.compression_ratio(10, 4) == 2.5
