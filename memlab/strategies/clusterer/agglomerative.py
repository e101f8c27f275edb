"""The seed's clusterer: average-linkage agglomerative clustering on cosine distance."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import ClassVar

import numpy as np

from memlab.core.errors import MemlabError
from memlab.embed.linkage import average_linkage
from memlab.strategies.clusterer.base import ClustererBase
from memlab.strategies.clusterer.canonical import order_independent


class AgglomerativeClusterer(ClustererBase):
    """Cosine distances, average linkage, cut at ``1 − similarity_threshold``; keep clusters of
    ``min_cluster_size..max_cluster_size`` members. Time plays no part (the seed clusters by meaning only).

    Args:
        similarity_threshold: Cosine similarity at which clusters stop merging (seed: 0.85).
        min_cluster_size: Smallest cluster kept (seed: 3).
        max_cluster_size: Largest cluster kept (seed: 20).
        max_items: Refuse inputs larger than this (a dense distance matrix grows as n²).
    """

    name: ClassVar[str] = "agglomerative"
    version: ClassVar[int] = 1

    def __init__(
        self,
        similarity_threshold: float = 0.85,
        min_cluster_size: int = 3,
        max_cluster_size: int = 20,
        max_items: int = 15000,
    ) -> None:
        self.similarity_threshold = similarity_threshold
        self.min_cluster_size = min_cluster_size
        self.max_cluster_size = max_cluster_size
        self.max_items = max_items

    def _fit(self, x: np.ndarray) -> np.ndarray:
        if len(x) < 2:
            return np.full(len(x), 0 if len(x) else -1, dtype=int)
        return average_linkage(x, self.similarity_threshold)

    def fit_predict(self, embeddings: np.ndarray, timestamps: Sequence[datetime]) -> np.ndarray:
        """Label rows; see the class docstring."""
        if len(timestamps) > self.max_items:
            raise MemlabError(
                f"agglomerative clustering of {len(timestamps)} items exceeds max_items={self.max_items} "
                "(a dense n² matrix); use clusterer=knn_graph (k-NN graph, no n² matrix) or clusterer=none, "
                "or raise clusterer.max_items"
            )
        return order_independent(self._fit, embeddings, timestamps, self.min_cluster_size, self.max_cluster_size)
