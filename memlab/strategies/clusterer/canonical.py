"""Order-independent clustering: cluster rows in a canonical order, then relabel canonically."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

import numpy as np


def canonical_order(embeddings: np.ndarray, timestamps: Sequence[datetime]) -> np.ndarray:
    """Permutation sorting rows by (timestamp, embedding bytes): the same set in any order sorts alike."""
    keys = [(timestamps[i], np.ascontiguousarray(embeddings[i]).tobytes()) for i in range(len(timestamps))]
    return np.array(sorted(range(len(keys)), key=lambda i: keys[i]), dtype=int)


def relabel(labels: np.ndarray, min_size: int, max_size: int) -> np.ndarray:
    """Drop clusters outside ``[min_size, max_size]`` (→ -1) and number the rest by first occurrence."""
    out = np.full(len(labels), -1, dtype=int)
    sizes: dict[int, int] = {}
    for lab in labels:
        if lab >= 0:
            sizes[int(lab)] = sizes.get(int(lab), 0) + 1
    mapping: dict[int, int] = {}
    for i, lab in enumerate(labels):
        lab = int(lab)
        if lab < 0 or not (min_size <= sizes[lab] <= max_size):
            continue
        if lab not in mapping:
            mapping[lab] = len(mapping)
        out[i] = mapping[lab]
    return out


def order_independent(
    fit: Callable[[np.ndarray], np.ndarray],
    embeddings: np.ndarray,
    timestamps: Sequence[datetime],
    min_size: int,
    max_size: int,
) -> np.ndarray:
    """Run ``fit`` on canonically ordered rows and return labels in the caller's row order."""
    n = len(timestamps)
    if n == 0:
        return np.zeros(0, dtype=int)
    perm = canonical_order(embeddings, timestamps)
    labels_sorted = relabel(np.asarray(fit(np.asarray(embeddings)[perm])), min_size, max_size)
    labels = np.empty(n, dtype=int)
    labels[perm] = labels_sorted
    return labels
