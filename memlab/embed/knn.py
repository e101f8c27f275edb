"""Candidate pairs for the supersession judge: k nearest neighbours, never all pairs."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np


def knn_pairs(matrix: np.ndarray, k: int, min_similarity: float, block: int = 2048) -> list[tuple[int, int, float]]:
    """Unordered pairs ``(i, j, cosine)`` with ``i < j`` where ``j`` is among ``i``'s ``k`` nearest neighbours
    (or the reverse) and the cosine similarity is at least ``min_similarity``.

    Rows must be L2-normalised. Work is blocked so memory stays ``O(block · n)``; ties are broken by the
    lower index, so the result is deterministic. Sorted by ``(i, j)``; a pair both rows found carries the
    cosine computed for the later row. Exact search: time ``O(n²)``; for large stores block the candidates
    (``pipeline.knn_k_subject``, ``knn_k_namespace``) instead of raising ``knn_k``.
    """
    n = matrix.shape[0]
    if n < 2 or k <= 0:
        return []
    k_eff = min(k, n - 1)
    mat = np.asarray(matrix, dtype=np.float32)
    found_a, found_b, found_s, found_row = [], [], [], []
    for lo in range(0, n, block):
        hi = min(n, lo + block)
        sims = mat[lo:hi] @ mat.T
        rows = np.arange(hi - lo)
        sims[rows, rows + lo] = -np.inf
        part = (
            np.argpartition(-sims, k_eff - 1, axis=1)[:, :k_eff]
            if k_eff < n - 1
            else np.argsort(-sims, axis=1, kind="stable")[:, :k_eff]
        )
        values = np.take_along_axis(sims, part, axis=1).astype(np.float64)
        row = np.broadcast_to((rows + lo)[:, None], part.shape)
        keep = values >= min_similarity
        found_a.append(np.minimum(row, part)[keep])
        found_b.append(np.maximum(row, part)[keep])
        found_s.append(values[keep])
        found_row.append(row[keep])
    a, b = np.concatenate(found_a), np.concatenate(found_b)
    s, row = np.concatenate(found_s), np.concatenate(found_row)
    if not len(a):
        return []
    order = np.lexsort((row, b, a))  # by (i, j), the later row last
    a, b, s = a[order], b[order], s[order]
    last = np.ones(len(a), dtype=bool)
    last[:-1] = (a[1:] != a[:-1]) | (b[1:] != b[:-1])
    return list(zip(a[last].tolist(), b[last].tolist(), s[last].tolist(), strict=True))


def knn_pairs_within(
    matrix: np.ndarray, groups: Sequence[Hashable], k: int, min_similarity: float
) -> list[tuple[int, int, float]]:
    """:func:`knn_pairs` inside each group (rows with the same ``groups`` value), in the full matrix's indices.

    A memory's ``k`` nearest neighbours among the memories of its own group: in a namespace of decisions
    the neighbours are not crowded out by progress notes and blockers that share the topic's words.
    Sorted by ``(i, j)``.
    """
    members: dict[Hashable, list[int]] = {}
    for index, group in enumerate(groups):
        members.setdefault(group, []).append(index)
    found: dict[tuple[int, int], float] = {}
    for rows in members.values():
        for i, j, s in knn_pairs(matrix[rows], k, min_similarity):
            a, b = rows[i], rows[j]
            found[(a, b) if a < b else (b, a)] = s
    return [(i, j, s) for (i, j), s in sorted(found.items())]


def merge_pairs(*lists: Sequence[tuple[int, int, float]]) -> list[tuple[int, int, float]]:
    """Union of pair lists ``(i, j, cosine)`` with ``i < j``, each pair once, sorted by ``(i, j)``."""
    found: dict[tuple[int, int], float] = {}
    for pairs in lists:
        for i, j, s in pairs:
            found[(i, j)] = s
    return [(i, j, s) for (i, j), s in sorted(found.items())]
