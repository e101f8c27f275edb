"""Density-based clustering with the hdbscan package: no similarity threshold, noise stays unclustered."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import ClassVar

import numpy as np

from memlab.core.errors import MemlabError
from memlab.strategies.clusterer.base import ClustererBase
from memlab.strategies.clusterer.canonical import order_independent

METRICS: tuple[str, ...] = ("euclidean", "cosine")


class HdbscanClusterer(ClustererBase):
    """HDBSCAN (Campello et al. 2013; McInnes et al.'s ``hdbscan`` package) on the L2-normalised rows.

    ``metric: euclidean`` runs on the unit vectors themselves (tree-based, memory ``O(n)``; on unit vectors
    ``‖a − b‖² = 2 − 2·cos(a, b)``, so neighbourhoods are the cosine ones); ``metric: cosine`` passes a
    precomputed dense cosine-distance matrix (``O(n²)`` memory). Clusters are HDBSCAN's excess-of-mass
    selection with ``max_cluster_size`` given to HDBSCAN (it then prefers sub-clusters of that size);
    clusters still outside ``[min_cluster_size, max_cluster_size]`` and HDBSCAN's noise get label -1.
    Unlike ``agglomerative`` there is no similarity threshold: density decides, so it finds clusters of
    any tightness (compare the two to test the seed's fixed 0.85). Rows are clustered in a canonical
    order, so the same rows in any order give the same partition.

    **Size limit.** Inputs above ``max_items`` are refused with a one-line error naming the scalable
    option (``clusterer=knn_graph``). Measured on 384-dimensional vectors (``docs/strategies.md``): the
    euclidean tree took 20.8 s of CPU at 6,000 items; the precomputed cosine matrix is faster (15.3 s at
    10,000) but peaked at 2.6 GiB of memory there.

    Args:
        min_cluster_size: Smallest cluster (seed: 3).
        max_cluster_size: Largest cluster kept (seed: 20).
        min_samples: HDBSCAN's ``min_samples`` (neighbours defining a core point; ``None`` =
            ``min_cluster_size``, the package default).
        metric: ``euclidean`` (on unit vectors) or ``cosine`` (precomputed).
        cluster_selection_method: ``eom`` (excess of mass, the package default) or ``leaf``.
        max_items: Refuse larger inputs.
    """

    name: ClassVar[str] = "hdbscan"
    version: ClassVar[int] = 1

    def __init__(
        self,
        min_cluster_size: int = 3,
        max_cluster_size: int = 20,
        min_samples: int | None = None,
        metric: str = "euclidean",
        cluster_selection_method: str = "eom",
        max_items: int = 10000,
    ) -> None:
        self.min_cluster_size = min_cluster_size
        self.max_cluster_size = max_cluster_size
        self.min_samples = min_samples
        self.metric = metric
        self.cluster_selection_method = cluster_selection_method
        self.max_items = max_items

    def _fit(self, x: np.ndarray) -> np.ndarray:
        n = len(x)
        if n < max(2, self.min_cluster_size):
            return np.full(n, -1, dtype=int)
        import hdbscan

        x = np.asarray(x, dtype=np.float64)
        kwargs = {
            "min_cluster_size": max(2, self.min_cluster_size),
            "min_samples": self.min_samples,
            "max_cluster_size": self.max_cluster_size,
            "cluster_selection_method": self.cluster_selection_method,
            "core_dist_n_jobs": 1,
        }
        if self.metric == "cosine":
            dist = np.clip(1.0 - x @ x.T, 0.0, 2.0)
            np.fill_diagonal(dist, 0.0)
            return hdbscan.HDBSCAN(metric="precomputed", **kwargs).fit_predict(dist)
        return hdbscan.HDBSCAN(metric="euclidean", **kwargs).fit_predict(x)

    def fit_predict(self, embeddings: np.ndarray, timestamps: Sequence[datetime]) -> np.ndarray:
        """Label rows; see the class docstring."""
        if self.metric not in METRICS:
            raise MemlabError(f"unknown hdbscan metric '{self.metric}'; valid: {', '.join(METRICS)}")
        if len(timestamps) > self.max_items:
            raise MemlabError(
                f"hdbscan clustering of {len(timestamps)} items exceeds max_items={self.max_items}; "
                "use clusterer=knn_graph (blocked k-NN graph, no n² memory) or raise clusterer.max_items"
            )
        return order_independent(self._fit, embeddings, timestamps, self.min_cluster_size, self.max_cluster_size)
