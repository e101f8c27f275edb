"""Candidate pairs for the supersession judge: the union of the configured nearest-neighbour sources.

Sources (``pipeline.*``): ``knn_k`` nearest neighbours over all memories, ``knn_k_namespace`` within each
namespace, ``knn_k_summary`` by the embeddings of the summaries alone (titles of long records),
``knn_k_subject`` within each subject block (memlab/pipeline/subject_candidates.py; with
``incremental`` only the memories new since the last run are searched), ``knn_k_slot`` by slot score
(memlab/pipeline/slot_candidates.py) and ``knn_k_blockers``: each blocker's nearest later records in any
namespace (:func:`later_pairs`). Never all pairs.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from memlab.core.types import Memory
from memlab.embed.knn import knn_pairs, knn_pairs_within, merge_pairs
from memlab.pipeline.store import MemoryStore
from memlab.wiring.components import Components


def candidate_pairs(
    store: MemoryStore, components: Components, memories: Sequence[Memory], matrix: np.ndarray, *, full: bool = False
) -> tuple[list[tuple[int, int, float]], set[tuple[str, str]]]:
    """Pairs ``(i, j, cosine)`` (``i < j``, sorted) of ``memories`` to judge, and the id pairs (both orders)
    that only the slot source found (``knn_slot_review``).
    """
    settings = components.settings
    pairs = knn_pairs(matrix, settings.knn_k, settings.min_pair_similarity)
    if settings.knn_k_namespace > 0:
        namespaces = [m.namespace for m in memories]
        within = knn_pairs_within(matrix, namespaces, settings.knn_k_namespace, settings.min_pair_similarity)
        pairs = merge_pairs(pairs, within)
    if settings.knn_k_summary > 0:  # long records: titles find what whole texts dilute
        titles = components.embedder.encode([m.summary or m.text for m in memories])
        known = {(i, j) for i, j, _ in pairs}
        extra = [
            (i, j, float(matrix[i] @ matrix[j]))
            for i, j, _ in knn_pairs(titles, settings.knn_k_summary, settings.min_pair_similarity)
            if (i, j) not in known
        ]
        pairs = merge_pairs(pairs, extra)
    if settings.knn_k_subject > 0:
        # lazy: subject blocks parse memories (memlab.text.slot_parse, ~20 ms to import); off by default and in the hook
        from memlab.pipeline.subject_candidates import incremental_subject_pairs, subject_pairs

        if settings.incremental and not full:  # only the memories new since the last run are searched
            model_id = str(components.embedder.model_id)
            subject = incremental_subject_pairs(
                store, memories, matrix, settings.knn_k_subject, settings.min_pair_similarity, model_id
            )
        else:
            subject = subject_pairs(memories, matrix, settings.knn_k_subject, settings.min_pair_similarity)
        pairs = merge_pairs(pairs, subject)
    if settings.knn_k_blockers > 0:
        sources = [i for i, m in enumerate(memories) if m.namespace == BLOCKERS]
        pairs = merge_pairs(
            pairs,
            later_pairs(matrix, sources, time_ranks(memories), settings.knn_k_blockers, settings.min_pair_similarity),
        )
    slot_only: set[tuple[str, str]] = set()
    if settings.knn_k_slot > 0:
        # lazy: slot scores parse memories (memlab.text.slot_parse, ~20 ms to import); off by default and in the hook
        from memlab.pipeline.slot_candidates import slot_pairs

        slot = slot_pairs(memories, matrix, components.embedder, settings.knn_k_slot)
        if settings.knn_slot_review:
            known = {(i, j) for i, j, _ in pairs}
            slot_only = {(memories[i].id, memories[j].id) for i, j, _ in slot if (i, j) not in known}
            slot_only |= {(b, a) for a, b in slot_only}
        pairs = merge_pairs(pairs, slot)
    return pairs, slot_only


#: The namespace of impediments: a record that reports one fixed may come later in any namespace (a progress note).
BLOCKERS = "blockers"


def later_pairs(
    matrix: np.ndarray, sources: Sequence[int], rank: Sequence[int], k: int, min_similarity: float
) -> list[tuple[int, int, float]]:
    """Pairs ``(i, j, cosine)`` (``i < j``) of each source row with its ``k`` nearest rows recorded after it.

    Why a source of its own: a blocker is ended by the record that reports it fixed, which comes later and often in
    another namespace (progress) among many notes on the same topic; a memory's nearest neighbours over the whole
    store are mostly its earlier and same-namespace look-alikes, so the fix can fall outside them.
    """
    found: list[tuple[int, int, float]] = []
    order = np.asarray(rank)
    for i in sources:
        later = np.flatnonzero(order > order[i])
        if not len(later):
            continue
        sims = matrix[later] @ matrix[i]
        best = np.argsort(-sims, kind="stable")[:k]
        found += [
            (min(i, int(later[b])), max(i, int(later[b])), float(sims[b])) for b in best if sims[b] >= min_similarity
        ]
    return merge_pairs(found)


def time_ranks(memories: Sequence[Memory]) -> list[int]:
    """Each memory's position in time order (ties by id); the identity when ``memories`` is in that order."""
    if all(
        (memories[i].timestamp, memories[i].id) < (memories[i + 1].timestamp, memories[i + 1].id)
        for i in range(len(memories) - 1)
    ):
        return list(range(len(memories)))
    order = sorted(range(len(memories)), key=lambda i: (memories[i].timestamp, memories[i].id))
    rank = [0] * len(memories)
    for position, i in enumerate(order):
        rank[i] = position
    return rank
