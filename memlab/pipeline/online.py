"""Online consolidation (``pipeline.mode=online``): MycelicMemory's flow, run as each memory arrives.

MycelicMemory (``documentation/mermaid/07-memory-consolidation-pipeline.md``): a new fact is embedded, the
store is searched for similar memories (cosine above ``online_min_similarity``, 0.85; the best
``online_top_k``, 5), the judge classifies each (older, newer) pair, and the verdict becomes an operation:

* no candidate → **ADD** (the memory is stored as it is);
* DUPLICATE → **NOOP**: the older memory's access time is refreshed (``last_accessed``, ``access_times``)
  and the new one is marked ``duplicate_of`` it (MycelicMemory discards it; memlab keeps it, hidden from
  current recall like any duplicate);
* SUPERSEDE → **UPDATE** of the older memory: ``valid_until``/``superseded_by`` and the SUPERSEDES edge
  (:func:`~memlab.pipeline.verdicts.apply_verdict`, which links the chain); combined memories citing it
  stop being valid too; with ``online_archive_superseded`` a **DELETE** follows: the older memory is
  archived (tier ARCHIVED, kept through later tier phases: :func:`keep_deleted_archived`; nothing is ever
  erased);
* MERGE → **MERGE**: the MERGES edge, and a combined memory whose text joins both (or, when the judge has
  a ``merge_text`` that answers, MycelicMemory's merge prompt's statement), whose meta cites both
  (``kind: merged``, ``sources``), embedded like any memory; the originals stay as they are;
* COEXIST → **ADD** with a ``related_to`` edge (REFERENCES, reason ``related_to``) to the older memory.

Candidates are the memories recorded before the arriving one that are still valid at its time and not
duplicates; combined memories are never candidates (the originals they cite are). With
``online_judge_all`` off (MycelicMemory's consolidator) the first applied verdict ends the search;
verdicts held back (non-COEXIST under ``min_judge_confidence``) go to the review queue and the search goes
on. ``exact_dedup`` answers identical texts DUPLICATE without the judge, as the batch judge phase does.
Every operation appends an audit record to ``store.audit`` (format: memlab/pipeline/audit.py).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from memlab.core.types import (
    MAX_ACCESS_TIMES,
    RELATION_EDGE,
    Edge,
    EdgeType,
    Memory,
    Relation,
    Tier,
    TierTransition,
    Verdict,
)
from memlab.pipeline.audit import edge_to_dict, memory_to_dict, state_to_dict
from memlab.pipeline.online_search import MERGED_KIND, Index, candidates, index_of, merged_sources
from memlab.pipeline.store import MemoryStore
from memlab.pipeline.vectors import embed_missing
from memlab.pipeline.verdicts import apply_verdict, exact_key
from memlab.wiring.components import Components

#: ``run_id`` of the edges online operations write.
ONLINE_RUN = "online"
#: Edge reasons of the REFERENCES edges online operations write.
RELATED_TO = "related_to"
MERGED_FROM = "merged_from"


def expand_merged(store: MemoryStore, ids: Iterable[str]) -> list[str]:
    """``ids`` with each combined memory replaced by the originals it cites (recursively), order kept."""
    out: list[str] = []
    for memory_id in ids:
        memory = store.memories.get(memory_id)
        sources = merged_sources(memory) if memory is not None else ()
        out.extend(expand_merged(store, sources) if sources else [memory_id])
    return out


def merged_memory(older: Memory, newer: Memory, text: str | None = None) -> Memory:
    """The combined memory of a MERGE: both summaries and both contents, citing both, at the newer's time.

    ``text`` (a judge's merge prompt, ``merge_text``) replaces the summaries joined with ``"; "`` (the stand-in).
    """
    digest = hashlib.sha256(f"{older.id}\x00{newer.id}".encode()).hexdigest()[:16]
    summaries = [s for s in (older.summary, newer.summary) if s]
    contents = [c for c in (older.content, newer.content) if c and c not in summaries]
    tags = tuple(dict.fromkeys((*older.tags, *newer.tags)))
    meta = {"kind": MERGED_KIND, "sources": [older.id, newer.id], "created_at": older.timestamp.isoformat()}
    if text:
        meta["merged_by"] = "merge_prompt"
    summary = text or "; ".join(summaries)
    return Memory(f"merge-{digest}", newer.namespace, newer.timestamp, summary, "\n".join(contents), tags, meta)


class _Arrival:
    """Writes the audit records of one arriving memory."""

    def __init__(self, store: MemoryStore, memory: Memory, *, arriving: bool = True) -> None:
        self.store = store
        self.memory = memory
        self.pending: list[Memory] = [memory] if arriving else []  # an arrival rides on its first record
        self.records: list[dict[str, Any]] = []

    def emit(
        self,
        operation: str,
        sources: Sequence[str],
        target: str,
        touched: Sequence[str],
        apply: Callable[[], list[Edge]],
        *,
        verdict: Verdict | None = None,
        similarity: float | None = None,
        judged: Sequence[tuple[str, str]] = (),
        review: dict | None = None,
        new: Sequence[Memory] = (),
        reasoning: str | None = None,
    ) -> None:
        brought = [*self.pending, *new]
        fresh = {m.id for m in brought}
        touched = list(dict.fromkeys([*(m.id for m in self.pending), *touched]))
        before = {i: None if i in fresh else state_to_dict(self.store.state(i)) for i in touched}
        edges = apply()
        record = {
            "seq": len(self.store.audit),
            "arrival": self.memory.id,
            "at": self.memory.timestamp.isoformat(),
            "operation": operation,
            "sources": list(sources),
            "target": target,
            "classification": verdict.relation.value if verdict else None,
            "confidence": verdict.confidence if verdict else None,
            "reasoning": reasoning if reasoning is not None else (verdict.reason if verdict else ""),
            "similarity": similarity,
            "review": review,
            "memories": [memory_to_dict(m) for m in brought],
            "edges": [edge_to_dict(e) for e in edges],
            "judged": [list(p) for p in judged],
            "before": before,
            "after": {i: state_to_dict(self.store.state(i)) for i in touched},
        }
        self.pending = []
        self.store.audit.append(record)
        self.records.append(record)


def _judge_edge(store: MemoryStore, older: Memory, newer: Memory, verdict: Verdict) -> list[Edge]:
    """Apply a verdict with :func:`apply_verdict`; the edge it added, if any."""
    if not apply_verdict(store, older, newer, verdict, ONLINE_RUN):
        return []
    return [store.edges[(newer.id, older.id, RELATION_EDGE[verdict.relation])]]


def _reference(store: MemoryStore, source: str, target: str, weight: float, reason: str, at) -> list[Edge]:
    edge = Edge(source, target, EdgeType.REFERENCES, weight=weight, reason=reason, created_at=at, run_id=ONLINE_RUN)
    return [edge] if store.add_edge(edge) else []


def _apply(
    arrival: _Arrival, components: Components, index: Index, older: Memory, verdict: Verdict, sim: float
) -> None:
    """Turn one applied verdict on (older, arriving) into its operation(s)."""
    store, memory = arrival.store, arrival.memory
    pair = [(older.id, memory.id)]
    common = {"verdict": verdict, "similarity": sim}
    relation = verdict.relation
    if relation is Relation.DUPLICATE:

        def noop() -> list[Edge]:
            edges = _judge_edge(store, older, memory, verdict)
            state = store.state(older.id)
            seen = max(memory.timestamp, state.last_accessed or memory.timestamp)
            times = (*state.access_times, memory.timestamp)[-MAX_ACCESS_TIMES:]
            store.update_state(older.id, last_accessed=seen, access_times=times)
            return edges

        arrival.emit("NOOP", [memory.id], older.id, [older.id, memory.id], noop, judged=pair, **common)
    elif relation is Relation.SUPERSEDE:
        followers = [m for m in index.merged_by.get(older.id, ()) if store.state(m).valid_until is None]

        def update() -> list[Edge]:
            edges = _judge_edge(store, older, memory, verdict)
            for merged in followers:
                store.update_state(merged, superseded_by=memory.id, valid_until=memory.timestamp)
            return edges

        arrival.emit("UPDATE", [memory.id, older.id], older.id, [older.id, *followers], update, judged=pair, **common)
        if components.settings.online_archive_superseded and store.state(older.id).tier is not Tier.ARCHIVED:
            archive(arrival, older.id, verdict, sim)
    elif relation is Relation.MERGE:
        combined = merged_memory(older, memory, components.judge.merge_text(older, memory))  # JudgeBase: None

        def merge() -> list[Edge]:
            edges = _judge_edge(store, older, memory, verdict)
            store.add([combined])
            embed_missing(store, components, [combined])
            for source in (older.id, memory.id):
                edges += _reference(store, combined.id, source, 1.0, MERGED_FROM, memory.timestamp)
            return edges

        arrival.emit(
            "MERGE", [older.id, memory.id], combined.id, [combined.id], merge, judged=pair, new=[combined], **common
        )
    else:

        def related() -> list[Edge]:
            return _reference(store, memory.id, older.id, verdict.confidence, RELATED_TO, memory.timestamp)

        arrival.emit("ADD", [memory.id, older.id], memory.id, [], related, judged=pair, **common)


def archive(
    arrival: _Arrival,
    memory_id: str,
    verdict: Verdict | None = None,
    sim: float | None = None,
    reasoning: str | None = None,
) -> None:
    """DELETE: archive ``memory_id`` (tier ARCHIVED; the memory and its history stay)."""
    store = arrival.store

    def apply() -> list[Edge]:
        store.update_state(memory_id, tier=Tier.ARCHIVED)
        return []

    arrival.emit(
        "DELETE", [memory_id], memory_id, [memory_id], apply, verdict=verdict, similarity=sim, reasoning=reasoning
    )


def delete(store: MemoryStore, memory_id: str, reason: str = "") -> dict[str, Any]:
    """DELETE outside an arrival (a curator's call): archive ``memory_id`` and audit it; returns the record."""
    arrival = _Arrival(store, store.memories[memory_id], arriving=False)
    archive(arrival, memory_id, reasoning=reason)
    return arrival.records[0]


def keep_deleted_archived(store: MemoryStore, transitions: Sequence[TierTransition]) -> list[TierTransition]:
    """After a tier phase: memories a DELETE archived go back to ARCHIVED (their transitions are dropped).

    The tier phase scores every memory with the retention function; a DELETE is an explicit decision that
    outlives it (MycelicMemory archives the superseded memory for good).
    """
    deleted = {r["target"] for r in store.audit if r["operation"] == "DELETE"}
    for memory_id in deleted:
        if memory_id in store.states and store.state(memory_id).tier is not Tier.ARCHIVED:
            store.update_state(memory_id, tier=Tier.ARCHIVED)
    return [t for t in transitions if t.memory_id not in deleted]


def process_arrival(store: MemoryStore, components: Components, memory: Memory) -> list[dict[str, Any]]:
    """Consolidate ``memory`` into ``store`` as it arrives (added if absent); returns its audit records.

    Deterministic for the same store, memory and judge. The judge sees ``(older, memory, similarity)``
    for each candidate (best first); its ``observe`` hook, if any, first gets the original memories
    recorded so far.
    """
    settings = components.settings
    store.add([memory])
    arrival = _Arrival(store, memory)
    found = candidates(store, components, memory)
    if not found:
        arrival.emit("ADD", [], memory.id, [], list)
        return arrival.records
    index = index_of(store, components)
    if components.judge.observes:
        components.judge.observe([m for m in store.ordered(until=memory.timestamp) if not merged_sources(m)])
    for older, sim in found:
        pair = (older.id, memory.id)
        store.judged.add(pair)
        if settings.exact_dedup and exact_key(older) == exact_key(memory):
            verdict = Verdict(Relation.DUPLICATE, 1.0, "identical text (exact dedup)")
        else:
            verdict = components.judge.judge(older, memory, similarity=sim)
        if verdict.relation is not Relation.COEXIST and settings.held(verdict.confidence):
            review = {
                "older": older.id,
                "newer": memory.id,
                "relation": verdict.relation.value,
                "confidence": verdict.confidence,
                "reason": verdict.reason,
            }

            def held(review: dict = review) -> list[Edge]:
                store.review_queue.append(review)
                return []

            arrival.emit(
                "ADD", [memory.id, older.id], memory.id, [], held, verdict=verdict, similarity=sim,
                judged=[pair], review=review,
            )  # fmt: skip
            continue
        _apply(arrival, components, index, older, verdict, sim)
        if not settings.online_judge_all:
            break
    return arrival.records
