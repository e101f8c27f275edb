"""Ranking helpers of the engine retrievers: top-k by partial sort, and a vector bank for large pools."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from memlab.protocols import Embedder


def top_order(scores: np.ndarray, limit: int | None = None) -> np.ndarray:
    """Indices best first by (score desc, index asc), only the first ``limit`` (``None``: all): the prefix of
    the full ``np.lexsort`` order, found with a partial sort (``O(n + limit log limit)``).
    """
    n = len(scores)
    if limit is None or limit >= n or np.isnan(scores).any():
        return np.lexsort((np.arange(n), -scores))[: n if limit is None else max(0, limit)]
    if limit <= 0:
        return np.zeros(0, dtype=np.int64)
    kth = np.partition(scores, n - limit)[n - limit]  # the limit-th largest score
    idx = np.flatnonzero(scores >= kth)  # every unit scoring at least that, ties included
    return idx[np.lexsort((idx, -scores[idx]))][:limit]


#: Dense pools at least this large are ranked through the retriever's vector bank (the vectors of every text
#: seen, one matrix product per batch of queries) instead of an index built per pool: a store's as-of
#: queries each ask over a different pool, and copying 100,000 vectors per pool dominated recall. Smaller
#: pools keep the per-pool index (the same ranking; the bank's batched product may round differently).
BANK_MIN_UNITS = 5000


class VectorBank:
    """Vectors of the texts a retriever has ranked (rows in arrival order), for one embedding model."""

    def __init__(self, model_id: str | None) -> None:
        self.model_id = model_id
        self.rows: dict[str, int] = {}
        self.matrix = np.zeros((0, 0), dtype=np.float32)

    def lookup(self, texts: Sequence[str], embedder: Embedder) -> np.ndarray:
        """Row of each text, embedding (through ``embedder``) the texts not yet in the bank."""
        try:
            return np.fromiter(map(self.rows.__getitem__, texts), dtype=np.int64, count=len(texts))
        except KeyError:
            pass
        todo = sorted({t for t in texts if t not in self.rows})
        vecs = np.asarray(embedder.encode(todo), dtype=np.float32)
        n = len(self.rows)
        if self.matrix.shape[0] < n + len(todo) or self.matrix.shape[1] != vecs.shape[1]:
            grown = np.zeros((max(2 * self.matrix.shape[0], n + len(todo)), vecs.shape[1]), dtype=np.float32)
            if n:
                grown[:n] = self.matrix[:n]
            self.matrix = grown
        self.matrix[n : n + len(todo)] = vecs
        for i, t in enumerate(todo):
            self.rows[t] = n + i
        return np.fromiter(map(self.rows.__getitem__, texts), dtype=np.int64, count=len(texts))

    def scores(self, queries: np.ndarray) -> np.ndarray:
        """Cosine of every bank row with each query vector: ``(rows, queries)``."""
        return self.matrix[: len(self.rows)] @ np.asarray(queries, dtype=np.float32).T
