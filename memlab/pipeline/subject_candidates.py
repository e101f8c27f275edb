"""Candidate pairs by subject: each memory's nearest neighbours among the memories about the same subject.

A fixed number of nearest neighbours over the whole store reaches fewer of the pairs that matter as the
store grows: every new topic instance ("the message queue of the billing service", "... of the search
service") crowds the neighbourhoods of the others. On generated histories (seed 0, TF-IDF, cosine >= 0.2)
the gold SUPERSEDE pairs among each memory's 8 nearest neighbours fall from 43 % at 1,000 memories to 19 %
at 10,000; among its 8 nearest neighbours that name the same subject they stay at 66 % (20: 86 %) at both
sizes. A memory's block is the first (sorted) subject phrase it names
(:func:`memlab.text.slot_parse.parse`: ``billing service``); memories naming none are blocked by namespace.

Blocks keep the search exact and its cost ``O(Σ block²)``: linear in the store while the subjects grow
with it (6 subjects at 1,000 generated memories, 51 at 10,000).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from memlab.core.types import Memory
from memlab.embed.knn import knn_pairs_within
from memlab.embed.knn_blocks import BlockedKnn
from memlab.pipeline.store import MemoryStore
from memlab.text.slot_parse import parse


def subject_block(memory: Memory) -> str:
    """The memory's block: ``s:<first subject>``, or ``n:<namespace>`` when it names no subject."""
    subjects = parse(memory).subjects
    return f"s:{min(subjects)}" if subjects else f"n:{memory.namespace}"


def subject_pairs(
    memories: Sequence[Memory], matrix: np.ndarray, k: int, min_similarity: float
) -> list[tuple[int, int, float]]:
    """Pairs ``(i, j, cosine)`` with ``i < j`` where ``j`` is among ``i``'s ``k`` nearest neighbours in its block
    (or the reverse), cosine at least ``min_similarity``; sorted by ``(i, j)``.
    """
    if k <= 0 or len(memories) < 2:
        return []
    return knn_pairs_within(matrix, [subject_block(m) for m in memories], k, min_similarity)


def incremental_subject_pairs(
    store: MemoryStore,
    memories: Sequence[Memory],
    matrix: np.ndarray,
    k: int,
    min_similarity: float,
    model_id: str = "",
) -> list[tuple[int, int, float]]:
    """:func:`subject_pairs` for only the memories new since the last call on this store.

    The neighbour lists live in ``store.cache["subject_knn"]`` (:class:`~memlab.embed.knn_blocks.BlockedKnn`),
    rebuilt when ``k``, ``min_similarity`` or the embedder change. A memory seen before creates no pair
    unless a new memory enters its ``k`` nearest; pairs of two earlier memories were candidates in the run
    that added the later of them (and judged then: ``store.judged``). Indices refer to ``memories``.
    """
    if k <= 0 or len(memories) < 2:
        return []
    setting = (k, float(min_similarity), model_id, int(matrix.shape[1]))
    cached = store.cache.get("subject_knn")
    if cached is None or cached[0] != setting:
        cached = store.cache["subject_knn"] = (setting, BlockedKnn(k, min_similarity))
    index: BlockedKnn = cached[1]
    rows = {m.id: i for i, m in enumerate(memories)}
    new = [m for m in memories if m.id not in index]
    found = index.add([m.id for m in new], [subject_block(m) for m in new], matrix, rows)
    out = []
    for a, b, s in found:
        if a in rows and b in rows:  # a neighbour from an earlier run that is no longer judged (a duplicate)
            i, j = rows[a], rows[b]
            out.append((i, j, s) if i < j else (j, i, s))
    return sorted(out)
