"""The consolidation phases: scan → cluster → supersession → summarize → tier → persist.

Supersession runs before summarising (the seed's spec summarises first) so that a summary can list which
of its members the judge found superseded (``superseded_facts``); a summarizer that takes the optional
``superseded`` keyword gets, for each member with a superseder, the superseder's id.

Each phase is a small function over a :class:`~memlab.pipeline.store.MemoryStore`; the step table
(memlab/pipeline/steps.py) wires them, and the extras the policy turns on, into
:func:`memlab.pipeline.consolidate.consolidate`. Nothing here reads the wall clock for decisions, imports
Hydra or MLflow.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence
from datetime import datetime

import numpy as np

from memlab.core.types import RELATION_EDGE, Edge, EdgeType, Memory, Relation, TierTransition, Verdict
from memlab.observability.progress import progress
from memlab.observability.trace import traced
from memlab.pipeline.admit import kept
from memlab.pipeline.candidates import candidate_pairs, time_ranks
from memlab.pipeline.store import MemoryStore
from memlab.pipeline.verdicts import apply_verdict, exact_keys, withdraw_verdict
from memlab.wiring.components import Components


@traced("cluster")
def phase_cluster(store: MemoryStore, components: Components, memories: Sequence[Memory], matrix: np.ndarray):
    """Cluster memories; returns lists of member memories (label order, members in time order)."""
    if len(memories) == 0:
        return []
    labels = np.asarray(components.clusterer.fit_predict(matrix, [m.timestamp for m in memories]))
    groups: dict[int, list[Memory]] = {}
    for memory, label in zip(memories, labels, strict=True):
        if int(label) >= 0:
            groups.setdefault(int(label), []).append(memory)
    clusters = [sorted(g, key=lambda m: (m.timestamp, m.id)) for g in groups.values()]
    return sorted(clusters, key=lambda g: (g[0].timestamp, g[0].id))


@traced("summarize")
def phase_summarize(store: MemoryStore, components: Components, clusters, run_id: str, now: datetime) -> int:
    """Summarise each cluster; stores summaries and CONSOLIDATES edges; returns summaries created.

    The clusters of this run are the current view of everything seen so far: a summary of an earlier run
    that this run does not reproduce (its cluster grew, merged or split) is retired — removed with its
    CONSOLIDATES edges — so that recall and injection never see two summaries of one cluster.
    """
    created = 0
    summarize = components.summarizer.summarize
    current: dict[str, object] = {}
    for cluster in progress(clusters, desc="summarizing clusters", unit="cluster"):
        superseded = {m.id: s for m in cluster if (s := store.state(m.id).superseded_by)}
        summary = summarize(cluster, superseded=superseded)
        if summary is None:
            continue
        allowed = {m.id for m in cluster}
        if not set(summary.source_ids) <= allowed:
            raise ValueError(f"summarizer {components.summarizer.name} cited ids outside its cluster")
        if summary.id not in store.summaries:
            created += 1
        current[summary.id] = summary
    for sid in [sid for sid in store.summaries if sid not in current]:
        store.retire_summary(sid)
    for summary in current.values():
        store.summaries[summary.id] = summary
        for mid in summary.source_ids:
            store.add_edge(Edge(summary.id, mid, EdgeType.CONSOLIDATES, created_at=now, run_id=run_id))
            store.update_state(mid, consolidated_into=summary.id)
    return created


def phase_exact_dedup(store: MemoryStore, memories: Sequence[Memory], run_id: str) -> tuple[list[int], int]:
    """Mark exact duplicates (same whitespace-normalised text) DUPLICATE of the earliest copy.

    kNN candidates cannot reach every copy when a text has more than ``knn_k`` copies (ties among
    identical vectors), so identical texts are resolved by hashing instead; the judge then sees only the
    first copy of each text. Returns the indices of those first copies (in ``memories`` order) and the
    number of DUPLICATES edges added.
    """
    first: dict[str, Memory] = {}
    keep: list[int] = []
    added = 0
    verdict = Verdict(Relation.DUPLICATE, 1.0, "identical text (exact dedup)")
    keys = exact_keys(store, memories)
    for index, memory in enumerate(memories):  # memories are in time order
        key = keys[memory.id]
        original = first.get(key)
        if original is None:
            first[key] = memory
            keep.append(index)
            continue
        store.judged.add((original.id, memory.id))
        if apply_verdict(store, original, memory, verdict, run_id):
            added += 1
    return keep, added


@traced("supersession")
def phase_supersession(
    store: MemoryStore,
    components: Components,
    memories: Sequence[Memory],
    matrix: np.ndarray,
    run_id: str,
    *,
    full: bool = False,
    fresh: frozenset[str] | None = None,
) -> tuple[Counter, list[dict]]:
    """Judge k-nearest-neighbour pairs (older, newer); returns edge counts and the review queue.

    With ``fresh`` (an incremental run) only the pairs with a fresh memory on either side are judged, unless the
    judge reads the store (``observes``): then every candidate pair is judged again, as in a full run. Why: such a
    judge's verdict on a pair depends on every memory of the store (the learned judge's slot profiles are PPMI
    counts over all notes), so a new memory changes verdicts on pairs it is not part of: generated history seed 1,
    "Reverted the project's web UI stack back to Svelte" turns ("Svelte it is", "The project now runs on Vue") from
    COEXIST (0.96) into SUPERSEDE (0.63), which an incremental run that skipped the pair never concluded.

    Pairs are judged in time order of the newer memory so that chains build forward. A pair judged in an
    earlier run is not judged again unless ``full``. With ``knn_slot_review``, a verdict other than COEXIST on
    a pair that only the slot source found goes to the review queue whatever its confidence; below
    ``knn_slot_min_confidence`` it is dropped.
    """
    settings = components.settings
    counts: Counter = Counter()
    review: list[dict] = []
    admitted = kept(store, components, memories)
    # every memory this run sees, before any pair (JudgeBase: no-op); records kept out of the block are not read
    components.judge.observe([m for m in memories if admitted[m.id]])
    if settings.exact_dedup and len(memories):
        keep, added = phase_exact_dedup(store, memories, run_id)
        if added:
            counts[EdgeType.DUPLICATES.value] += added
        memories = [memories[i] for i in keep]
        matrix = matrix[keep]
    pairs, slot_only = candidate_pairs(store, components, memories, matrix, full=full)
    rank = time_ranks(memories)
    ordered = []
    for i, j, sim in pairs:
        a, b = (i, j) if rank[i] <= rank[j] else (j, i)
        ordered.append((rank[b], rank[a], memories[a], memories[b], sim))
    ordered.sort(key=lambda t: t[:2])  # by the newer memory's time, then the older's (ids break ties)
    todo = []
    again = full or (fresh is not None and components.judge.observes)
    for _, _, older, newer, sim in ordered:
        key = (older.id, newer.id)
        if key in store.judged and not again:
            continue
        if fresh is not None and not again and older.id not in fresh and newer.id not in fresh:
            continue
        store.judged.add(key)
        todo.append((older, newer, float(sim)))
    verdicts = judge_pairs(components, todo, admitted)
    for (older, newer, _), verdict in zip(todo, verdicts, strict=True):
        key = (older.id, newer.id)
        if key in slot_only and verdict.confidence < settings.knn_slot_min_confidence:
            continue
        if verdict.relation is not Relation.COEXIST and (settings.held(verdict.confidence) or key in slot_only):
            review.append(
                {
                    "older": older.id,
                    "newer": newer.id,
                    "relation": verdict.relation.value,
                    "confidence": verdict.confidence,
                    "reason": verdict.reason,
                }
            )
            continue
        if apply_verdict(store, older, newer, verdict, run_id):
            counts[RELATION_EDGE[verdict.relation].value] += 1
    for older_id, newer_id in components.judge.withdrawals():
        if older_id not in store.memories or newer_id not in store.memories:
            continue
        if withdraw_verdict(store, store.memories[older_id], store.memories[newer_id]):
            counts["withdrawn"] += 1
    return counts, review


def judge_pairs(
    components: Components, todo: Sequence[tuple[Memory, Memory, float]], admitted: dict[str, bool]
) -> list[Verdict]:
    """Verdicts on ``(older, newer, similarity)`` pairs, in order: the judge reads pairs of admitted records, a pair
    with a kept-out record gets only ``judge_capture`` (a re-capture), never hiding an admitted record: its
    DUPLICATE stands unless the newer record is admitted and the older not, its SUPERSEDE (a list re-captured with
    task boxes ticked) only where the older record is kept out.
    """
    judge = components.judge
    inside = [t for t in todo if admitted[t[0].id] and admitted[t[1].id]]
    if judge.judges_in_batch:
        found = iter(judge.judge_many(inside))
    else:  # pair by pair, with progress (an LLM judge can take minutes)
        found = iter(
            [judge.judge(o, n, similarity=s) for o, n, s in progress(inside, desc="judging pairs", unit="pair")]
        )
    out = []
    for older, newer, sim in todo:
        if admitted[older.id] and admitted[newer.id]:
            out.append(next(found))
            continue
        verdict = judge.judge_capture(older, newer, similarity=sim)
        stands = (verdict.relation is Relation.DUPLICATE and not (admitted[newer.id] and not admitted[older.id])) or (
            verdict.relation is Relation.SUPERSEDE and not admitted[older.id]
        )
        if not stands:
            verdict = Verdict(Relation.COEXIST, verdict.confidence, f"kept out of the block: {verdict.reason}")
        out.append(verdict)
    return out


def references_of(store: MemoryStore) -> dict[str, list[str]]:
    """Memory id -> ids it references (REFERENCES and MERGES edges, source to target), for retention
    functions that keep what a kept memory refers to.
    """
    out: dict[str, list[str]] = {}
    for edge in store.edges.values():
        if edge.type in (EdgeType.REFERENCES, EdgeType.MERGES):
            out.setdefault(edge.source, []).append(edge.target)
    return out


@traced("tier")
def phase_tier(store: MemoryStore, components: Components, memories: Sequence[Memory], now: datetime):
    """Score every memory with the retention function and assign its tier; returns transitions."""
    transitions: list[TierTransition] = []
    states = [store.state(m.id) for m in memories]
    retention = components.retention
    references = references_of(store) if retention.reads_references else None
    scores = list(retention.score_all(list(memories), states, now, references=references))
    for memory, state, score in zip(memories, states, scores, strict=True):
        if score.tier is not state.tier:
            transitions.append(TierTransition(memory.id, state.tier, score.tier, score.overall, "retention"))
        store.update_state(memory.id, tier=score.tier, retention=score.overall)
    return transitions


def run_id_for(store: MemoryStore, now: datetime, memories: Sequence[Memory]) -> str:
    """Deterministic run id from the clock, the run count and the memory ids."""
    digest = hashlib.sha256(f"{now.isoformat()}|{len(store.runs)}".encode())
    for m in memories:
        digest.update(m.id.encode())
    return "run_" + digest.hexdigest()[:12]
