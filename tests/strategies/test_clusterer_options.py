"""Clusterer options: hdbscan on separated blobs and its size limit; time_window's windows and sessions."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from memlab.core.errors import MemlabError
from memlab.strategies.clusterer.agglomerative import AgglomerativeClusterer
from memlab.strategies.clusterer.hdbscan import HdbscanClusterer
from memlab.strategies.clusterer.time_window import TimeWindowClusterer

T0 = datetime(2025, 1, 1, tzinfo=UTC)


def partition(labels) -> list[list[int]]:
    groups: dict[int, list[int]] = {}
    for i, lab in enumerate(labels):
        if lab >= 0:
            groups.setdefault(int(lab), []).append(i)
    return sorted(groups.values())


def blobs(n_per: int = 6, k: int = 3, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(k, 32))
    rows = np.concatenate([c + 0.03 * rng.normal(size=(n_per, 32)) for c in centres])
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


@pytest.mark.parametrize("metric", ["euclidean", "cosine"])
def test_hdbscan_finds_separated_blobs(metric):
    x = blobs()
    ts = [T0 + timedelta(hours=i) for i in range(len(x))]
    labels = HdbscanClusterer(metric=metric).fit_predict(x, ts)
    assert partition(labels) == [list(range(0, 6)), list(range(6, 12)), list(range(12, 18))]


def test_hdbscan_drops_clusters_over_the_size_cap_and_small_inputs():
    x = blobs(n_per=8, k=2)
    ts = [T0] * len(x)
    assert partition(HdbscanClusterer(max_cluster_size=8).fit_predict(x, ts)) == [list(range(8)), list(range(8, 16))]
    assert all(lab == -1 for lab in HdbscanClusterer(max_cluster_size=5, min_cluster_size=6).fit_predict(x, ts))
    assert list(HdbscanClusterer().fit_predict(x[:2], ts[:2])) == [-1, -1]


def test_hdbscan_refuses_inputs_over_max_items_naming_the_scalable_option():
    x = blobs()
    with pytest.raises(MemlabError, match="clusterer=knn_graph"):
        HdbscanClusterer(max_items=10).fit_predict(x, [T0] * len(x))
    with pytest.raises(MemlabError, match="valid: euclidean, cosine"):
        HdbscanClusterer(metric="manhattan").fit_predict(x, [T0] * len(x))


def test_time_window_fixed_days():
    hours = [0, 1, 23, 24, 25, 30, 49, 50, 51, 52]
    ts = [T0 + timedelta(hours=h) for h in hours]
    labels = TimeWindowClusterer(window_hours=24).fit_predict(np.eye(len(ts)), ts)
    # day 1: 0,1,23 ; day 2: 24,25,30 ; day 3: 49..52 (4 items)
    assert partition(labels) == [[0, 1, 2], [3, 4, 5], [6, 7, 8, 9]]


def test_time_window_gap_sessions_and_oversize_split():
    minutes = [0, 10, 35, 100, 101, 102, 103, 104, 300]
    ts = [T0 + timedelta(minutes=m) for m in minutes]
    gap = TimeWindowClusterer(mode="gap", gap_minutes=30)
    # gaps > 30 min after 35 and after 104: sessions {0,10,35}, {100..104}, {300} (too small)
    assert partition(gap.fit_predict(np.eye(len(ts)), ts)) == [[0, 1, 2], [3, 4, 5, 6, 7]]
    small = TimeWindowClusterer(mode="gap", gap_minutes=30, max_cluster_size=3, min_cluster_size=2)
    assert partition(small.fit_predict(np.eye(len(ts)), ts)) == [[0, 1, 2], [3, 4, 5], [6, 7]]
    drop = TimeWindowClusterer(mode="gap", gap_minutes=30, max_cluster_size=3, split_oversize=False)
    assert partition(drop.fit_predict(np.eye(len(ts)), ts)) == [[0, 1, 2]]
    with pytest.raises(MemlabError, match="valid: fixed, gap"):
        TimeWindowClusterer(mode="weekly").fit_predict(np.eye(1), ts[:1])


def test_time_window_ignores_meaning_and_agglomerative_ignores_time():
    """The ablation is testable: one partition depends only on time, the other only on meaning."""
    x = blobs(n_per=3, k=3)
    ts = [T0 + timedelta(hours=h) for h in (0, 1, 2, 30, 31, 32, 60, 61, 62)]
    rng = np.random.default_rng(1)
    shuffled_meaning = x[rng.permutation(len(x))]
    shuffled_time = [ts[i] for i in rng.permutation(len(ts))]
    window = TimeWindowClusterer()
    assert partition(window.fit_predict(x, ts)) == partition(window.fit_predict(shuffled_meaning, ts))
    agglo = AgglomerativeClusterer()
    assert partition(agglo.fit_predict(x, ts)) == partition(agglo.fit_predict(x, shuffled_time))
