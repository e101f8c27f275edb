"""Candidate pairs by slot: notes that name the same attribute of the same subject in other words.

A subtle change ("Event bus for the project going forward: Redis Streams") replaces a decision worded
otherwise ("Switched the project's message queue from Kafka to NATS"): the two texts share little, so the
newer note can be 20-230 neighbours away among all memories (the stale facts left on validation histories)
and is never judged. What they share is the slot: attribute phrases that mean the same thing ("message
queue" / "event bus") of one subject.

The slot score of two memories is the largest cosine between their attribute phrases
(:func:`~memlab.text.attributes.attribute_phrases`, embedded with the run's embedder) plus
the cosine of their texts (which orders memories naming the identical phrase); memories whose subjects differ
("the billing service" / "the project") or that name no attribute are never slot neighbours. Each memory's
``k`` best by that score are candidates, in the blocked manner of :func:`~memlab.embed.knn.knn_pairs`
(memory ``O(block · n)``), so this is still a k-nearest-neighbour source, never all pairs.

Reach on validation histories (seeds 1020-1024, size 400, MiniLM): the gold SUPERSEDE pairs that are
candidates rise from 93.9 % (20 nearest neighbours, 10 within the namespace; 28,684 pairs) to 97.7 % with
20 slot neighbours per memory (36,338 pairs); experiments/judges/README.md, "Slot candidates".
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from memlab.core.types import Memory
from memlab.embed.base import EmbedderBase
from memlab.text.attributes import attribute_phrases
from memlab.text.slot_parse import parse


def _phrase_index(memories: Sequence[Memory], embedder: EmbedderBase) -> tuple[list[list[int]], np.ndarray]:
    """Each memory's attribute phrases as row indices into the returned L2-normalised phrase matrix."""
    phrases = [sorted(attribute_phrases(m)) for m in memories]
    unique = sorted({p for ps in phrases for p in ps})
    if not unique:
        return [[] for _ in memories], np.zeros((0, 0), dtype=np.float32)
    where = {p: i for i, p in enumerate(unique)}
    vectors = np.asarray(embedder.encode(unique), dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    vectors = vectors / np.where(norms == 0, 1.0, norms)
    return [[where[p] for p in ps] for ps in phrases], vectors


def _subject_matrix(memories: Sequence[Memory]) -> np.ndarray:
    """Incidence matrix (memories × subjects) of the subjects each memory names."""
    subjects = [parse(m).subjects for m in memories]
    names = {s: i for i, s in enumerate(sorted({s for ss in subjects for s in ss}))}
    out = np.zeros((len(memories), max(1, len(names))), dtype=np.float32)
    for row, ss in enumerate(subjects):
        for s in ss:
            out[row, names[s]] = 1.0
    return out


def slot_pairs(
    memories: Sequence[Memory], matrix: np.ndarray, embedder: EmbedderBase, k: int, block: int = 256
) -> list[tuple[int, int, float]]:
    """Unordered pairs ``(i, j, text cosine)`` with ``i < j`` where ``j`` is among ``i``'s ``k`` best memories by
    slot score (or the reverse). Sorted by ``(i, j)``; deterministic.

    Args:
        memories: The memories, in the row order of ``matrix``.
        matrix: Their L2-normalised text embeddings (the cosine handed to the judge comes from it).
        embedder: Embeds the attribute phrases (the run's embedder).
        k: Slot neighbours per memory (0: none).
        block: Rows scored at once.
    """
    n = len(memories)
    if n < 2 or k <= 0:
        return []
    members, phrase_vecs = _phrase_index(memories, embedder)
    has = np.asarray([bool(m) for m in members])
    if has.sum() < 2:
        return []
    rows = np.flatnonzero(has)
    # phrase instances of the memories with phrases, grouped by memory (column reduction by np.maximum.reduceat)
    inst = np.asarray([p for r in rows for p in members[r]])
    starts = np.cumsum([0] + [len(members[r]) for r in rows[:-1]])
    phrase_sims = phrase_vecs @ phrase_vecs.T
    text = np.asarray(matrix, dtype=np.float32)[rows]
    subj = _subject_matrix([memories[r] for r in rows])
    named = subj.sum(axis=1) > 0
    k_eff = min(k, len(rows) - 1)
    found: dict[tuple[int, int], float] = {}
    for lo in range(0, len(rows), block):
        hi = min(len(rows), lo + block)
        best_phrase = np.stack([phrase_sims[members[r]].max(axis=0) for r in rows[lo:hi]])  # (b, phrases)
        attr = np.maximum.reduceat(best_phrase[:, inst], starts, axis=1)  # (b, memories with phrases)
        cos = text[lo:hi] @ text.T
        score = attr + cos
        differ = named[lo:hi, None] & named[None, :] & ((subj[lo:hi] @ subj.T) == 0)
        score[differ] = -np.inf
        local = np.arange(hi - lo)
        score[local, local + lo] = -np.inf
        order = (
            np.argpartition(-score, k_eff - 1, axis=1)[:, :k_eff]
            if k_eff < len(rows) - 1
            else np.argsort(-score, axis=1, kind="stable")[:, :k_eff]
        )
        for r, cols in enumerate(order):
            for c in cols:
                if not np.isfinite(score[r, c]):
                    continue
                a, b = int(rows[lo + r]), int(rows[c])
                found[(a, b) if a < b else (b, a)] = float(cos[r, c])
    return [(i, j, s) for (i, j), s in sorted(found.items())]
