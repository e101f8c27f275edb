"""Ranking helpers of the engine retrievers: top-k by partial sort, and a vector bank for large pools."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

import numpy as np

from memlab.embed.base import EmbedderBase
from memlab.strategies.retriever.base import Pool


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
        #: ``((order_key, tag), row of each text of that order or -1)``, see :meth:`rows_of`.
        self.order_rows: tuple[tuple, np.ndarray | None] | None = None

    def lookup(self, texts: Sequence[str], embedder: EmbedderBase) -> np.ndarray:
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

    def rows_of(
        self, units: Sequence, texts: Callable[[Sequence], list[str]], embedder: EmbedderBase, tag: Hashable = None
    ) -> np.ndarray:
        """:meth:`lookup` of ``texts(units)`` (``tag`` names ``texts``: the same tag, the same function).

        When ``units`` is a recall :class:`~memlab.strategies.retriever.base.Pool` (it knows its positions in the
        store's time order) and a second pool over the same order arrives, the row of each text of that order
        already in the bank is kept, so later pools whose texts are all in the bank cost no lookup per unit.
        """
        if not isinstance(units, Pool):
            return self.lookup(texts(units), embedder)
        key, positions = (units.order_key, tag), units.positions
        if self.order_rows is None or self.order_rows[0] != key:  # first pool over this order: as lookup
            self.order_rows = (key, None)
            return self.lookup(texts(units), embedder)
        known = self.order_rows[1]
        if known is None:
            order = units.order
            known = np.fromiter((self.rows.get(t, -1) for t in texts(order)), dtype=np.int64, count=len(order))
            self.order_rows = (key, known)
        rows = known[positions]
        if (rows < 0).any():  # texts new to the bank: embedded as lookup embeds them, then remembered
            rows = self.lookup(texts(units), embedder)
            known[positions] = rows
        return rows

    def scores(self, queries: np.ndarray) -> np.ndarray:
        """Cosine of every bank row with each query vector: ``(rows, queries)``."""
        return self.matrix[: len(self.rows)] @ np.asarray(queries, dtype=np.float32).T
