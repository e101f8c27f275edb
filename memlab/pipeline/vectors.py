"""The store's vectors: memories embedded once per text, and the run's embedder behind the same memo.

Every phase that needs vectors goes through here: the scan phase and online mode embed memories
(:func:`embed_missing`); recall, Astra's extras and the benchmarks embed queries and summary texts
(:class:`StoreEmbedder`). Both fill ``store.text_vectors``, so a text is encoded once per store.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from memlab.core.types import Memory
from memlab.observability.trace import traced
from memlab.pipeline.store import MemoryStore
from memlab.wiring.components import Components


@traced("embed")
def embed_missing(store: MemoryStore, components: Components, memories: Sequence[Memory]) -> np.ndarray:
    """Embed memories whose vectors the store lacks; return the matrix for ``memories`` in order."""
    missing = [m for m in memories if m.id not in store.embeddings]
    if missing:
        todo = sorted({m.text for m in missing if m.text not in store.text_vectors})
        if todo:
            vectors = components.embedder.encode(todo)
            for text, vec in zip(todo, vectors, strict=True):
                store.text_vectors[text] = np.asarray(vec, dtype=np.float32)
        for memory in missing:
            store.embeddings[memory.id] = store.text_vectors[memory.text]
    if not memories:
        return np.zeros((0, 0), dtype=np.float32)
    return np.array([store.embeddings[m.id] for m in memories])  # np.stack: 10x slower over 10,000 rows


class StoreEmbedder:
    """The run's embedder behind an in-process memo (text -> vector) kept on the store.

    Consolidation has embedded every memory already; the retriever asks for the same texts again per
    query moment, and for the queries themselves. The memo answers the repeats without the model or the
    on-disk cache.
    """

    def __init__(self, store: MemoryStore, embedder: object) -> None:
        self.store = store
        self.embedder = embedder

    @property
    def model_id(self) -> str:
        """The wrapped embedder's model id."""
        return self.embedder.model_id  # type: ignore[attr-defined]

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors for ``texts`` (float32, unit rows), computing only the texts not seen before."""
        memo = self.store.text_vectors
        todo = sorted({t for t in texts if t not in memo})
        if todo:
            vectors = self.embedder.encode(todo)  # type: ignore[attr-defined]
            for text, vec in zip(todo, vectors, strict=True):
                memo[text] = np.asarray(vec, dtype=np.float32)
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        return np.array([memo[t] for t in texts])
