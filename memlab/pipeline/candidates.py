"""Candidate pairs for the supersession judge: k nearest neighbours, never all pairs."""

from __future__ import annotations

import numpy as np


def knn_pairs(matrix: np.ndarray, k: int, min_similarity: float, block: int = 2048) -> list[tuple[int, int, float]]:
    """Unordered pairs ``(i, j, cosine)`` with ``i < j`` where ``j`` is among ``i``'s ``k`` nearest neighbours
    (or the reverse) and the cosine similarity is at least ``min_similarity``.

    Rows must be L2-normalised. Work is blocked so memory stays ``O(block · n)``; ties are broken by the
    lower index, so the result is deterministic. Sorted by ``(i, j)``.
    """
    n = matrix.shape[0]
    if n < 2 or k <= 0:
        return []
    k_eff = min(k, n - 1)
    mat = np.asarray(matrix, dtype=np.float32)
    found: dict[tuple[int, int], float] = {}
    for lo in range(0, n, block):
        hi = min(n, lo + block)
        sims = mat[lo:hi] @ mat.T
        rows = np.arange(hi - lo)
        sims[rows, rows + lo] = -np.inf
        # stable: sort by (-sim, index) via lexsort on the k_eff+? candidates
        part = (
            np.argpartition(-sims, k_eff - 1, axis=1)[:, :k_eff]
            if k_eff < n - 1
            else np.argsort(-sims, axis=1, kind="stable")[:, :k_eff]
        )
        for r, cols in enumerate(part):
            i = lo + r
            for j in cols:
                s = float(sims[r, j])
                if s < min_similarity:
                    continue
                key = (i, int(j)) if i < j else (int(j), i)
                found[key] = s
    return [(i, j, s) for (i, j), s in sorted(found.items())]
