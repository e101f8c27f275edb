"""Scalable clustering: connected components of the k-nearest-neighbour graph above a similarity."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import ClassVar

import numpy as np

from memlab.embed.knn import knn_pairs
from memlab.strategies.clusterer.base import ClustererBase
from memlab.strategies.clusterer.canonical import order_independent


class KnnGraphClusterer(ClustererBase):
    """Link each row to its ``k`` nearest neighbours with cosine ≥ ``similarity_threshold``; clusters are
    the connected components, kept when their size is in ``[min_cluster_size, max_cluster_size]``.

    Identical rows count as one node (exact duplicates share a component). Memory stays ``O(block · n)``
    (blocked neighbour search, no dense n² matrix), so it runs where
    agglomerative clustering refuses (100,000 memories). Rows are processed in a canonical order, so the
    same set in any order gives the same partition. Single-link chaining can grow large components; the
    size cap drops them (label -1).

    Args:
        k: Neighbours per row.
        similarity_threshold: Minimum cosine similarity of a graph edge.
        min_cluster_size: Smallest cluster kept.
        max_cluster_size: Largest cluster kept.
    """

    name: ClassVar[str] = "knn_graph"
    version: ClassVar[int] = 1

    def __init__(
        self, k: int = 5, similarity_threshold: float = 0.85, min_cluster_size: int = 3, max_cluster_size: int = 20
    ) -> None:
        self.k = k
        self.similarity_threshold = similarity_threshold
        self.min_cluster_size = min_cluster_size
        self.max_cluster_size = max_cluster_size

    def _fit(self, x: np.ndarray) -> np.ndarray:
        n = len(x)
        if n < 2:
            return np.full(n, 0 if n else -1, dtype=int)
        from scipy.sparse import coo_matrix
        from scipy.sparse.csgraph import connected_components

        # Identical rows (exact duplicates) are one node: search neighbours among distinct rows only.
        unique, inverse = np.unique(np.asarray(x, dtype=np.float32), axis=0, return_inverse=True)
        inverse = np.asarray(inverse).reshape(-1)
        m = len(unique)
        pairs = knn_pairs(unique, self.k, self.similarity_threshold) if m > 1 else []
        rows = np.array([p[0] for p in pairs], dtype=np.int64)
        cols = np.array([p[1] for p in pairs], dtype=np.int64)
        graph = coo_matrix((np.ones(len(pairs), dtype=np.int8), (rows, cols)), shape=(m, m))
        _, labels = connected_components(graph, directed=False)
        return labels[inverse]

    def fit_predict(self, embeddings: np.ndarray, timestamps: Sequence[datetime]) -> np.ndarray:
        """Label rows; see the class docstring."""
        return order_independent(self._fit, embeddings, timestamps, self.min_cluster_size, self.max_cluster_size)
