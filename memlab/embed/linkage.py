"""Average-linkage clustering of unit vectors on cosine distance: the agglomerative clusterer's and the
insight extractor's (memlab/pipeline/insights.py) one implementation.
"""

from __future__ import annotations

import numpy as np


def average_linkage(x: np.ndarray, similarity: float) -> np.ndarray:
    """Labels of average-linkage clustering of unit rows (at least two) on cosine distance, cut at
    ``1 − similarity``: every row labelled, in the rows' order, no size limits.
    """
    from sklearn.cluster import AgglomerativeClustering  # lazy: importing memlab must not load sklearn

    dist = np.clip(1.0 - x.astype(np.float64) @ x.astype(np.float64).T, 0.0, 2.0)
    np.fill_diagonal(dist, 0.0)
    model = AgglomerativeClustering(
        n_clusters=None,
        distance_threshold=1.0 - similarity,
        metric="precomputed",
        linkage="average",
    )
    return model.fit_predict(dist)
