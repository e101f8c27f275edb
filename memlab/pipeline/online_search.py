"""Candidate search of online consolidation: the nearest current memories of an arriving one.

The index keeps the unit vectors of the store's original memories in arrival order and grows with the
store (stores only ever gain memories); combined memories (``kind: merged``) are never candidates, the index
remembers which combined memories cite each original instead.
"""

from __future__ import annotations

import weakref
from itertools import islice

import numpy as np

from memlab.core.types import Memory
from memlab.pipeline.store import MemoryStore
from memlab.pipeline.vectors import embed_missing
from memlab.wiring.components import Components

#: ``meta["kind"]`` of a combined memory written by a MERGE.
MERGED_KIND = "merged"


def merged_sources(memory: Memory) -> tuple[str, ...]:
    """The ids a combined memory cites (empty for any other memory)."""
    return tuple(memory.meta.get("sources", ())) if memory.meta.get("kind") == MERGED_KIND else ()


class Index:
    """Unit vectors of the store's original memories, in arrival order (grows with the store).

    Attributes:
        ids: Original memory ids, in the order they were indexed.
        pos: Id -> row.
        merged_by: Original id -> ids of the combined memories that cite it.
    """

    def __init__(self) -> None:
        self.seen = 0
        self.ids: list[str] = []
        self.pos: dict[str, int] = {}
        self.buffer = np.zeros((0, 0), dtype=np.float32)
        self.merged_by: dict[str, list[str]] = {}

    @property
    def matrix(self) -> np.ndarray:
        """The indexed unit vectors, one row per id."""
        return self.buffer[: len(self.ids)]

    def sync(self, store: MemoryStore, components: Components) -> None:
        """Index the memories added to ``store`` since the last call (embedding them when needed)."""
        new = [store.memories[i] for i in islice(store.memories, self.seen, None)]
        self.seen = len(store.memories)
        originals = [m for m in new if not merged_sources(m)]
        for memory in new:
            for source in merged_sources(memory):
                self.merged_by.setdefault(source, []).append(memory.id)
        if not originals:
            return
        embed_missing(store, components, originals)
        for memory in originals:
            vec = np.asarray(store.embeddings[memory.id], dtype=np.float32).ravel()
            norm = float(np.linalg.norm(vec))
            n = len(self.ids)
            if n == len(self.buffer):  # grow by doubling: amortised O(1) per memory
                grown = np.zeros((max(64, 2 * n), vec.shape[0]), dtype=np.float32)
                if n:
                    grown[:n] = self.buffer[:n]
                self.buffer = grown
            self.buffer[n] = vec / norm if norm > 0 else vec
            self.pos[memory.id] = n
            self.ids.append(memory.id)


_INDEXES: weakref.WeakKeyDictionary[MemoryStore, Index] = weakref.WeakKeyDictionary()


def index_of(store: MemoryStore, components: Components) -> Index:
    """The store's candidate index, brought up to date."""
    index = _INDEXES.get(store)
    if index is None:
        index = _INDEXES[store] = Index()
    index.sync(store, components)
    return index


def candidates(store: MemoryStore, components: Components, memory: Memory) -> list[tuple[Memory, float]]:
    """The memories ``memory`` is judged against: best cosine first (ties by id), at most ``online_top_k``."""
    settings = components.settings
    index = index_of(store, components)
    if not index.ids:
        return []
    if memory.id not in index.pos:
        return []
    sims = index.matrix @ index.matrix[index.pos[memory.id]]
    above = [(round(float(sims[i]), 6), index.ids[i]) for i in np.flatnonzero(sims > settings.online_min_similarity)]
    out: list[tuple[Memory, float]] = []
    for sim, memory_id in sorted(above, key=lambda t: (-t[0], t[1])):
        other = store.memories[memory_id]
        if (other.timestamp, other.id) >= (memory.timestamp, memory.id):
            continue
        if store.state(other.id).duplicate_of is not None or not store.valid_at(other.id, memory.timestamp):
            continue
        out.append((other, sim))
        if len(out) >= settings.online_top_k:
            break
    return out
