"""Evaluate a policy on a :class:`ProjectHistory`: consolidate at the history's clock, query, inject.

Metrics (exact names, shared across issues):

* ``supersession_precision``, ``supersession_recall``, ``supersession_f1``: SUPERSEDE pairs, both sides
  closed transitively (kept from the foundation: a chain A→B→C found as A→B, B→C scores like gold).
* ``relation_{precision,recall,f1}_{duplicate,supersede,merge,coexist}``: per-relation scores over candidate
  pairs (definition in :mod:`history_metrics`; judged pairs absent from gold are COEXIST).
* ``current_truth_at_1``, ``stale_rate_top5``, ``as_of_acc``, ``when_acc``, ``history_acc``: the query kinds
  (see :mod:`evaluate_queries`).
* ``stale_rate_injected``: fraction of facts in the SessionStart block (memories; a summary counts as its
  source memories) that gold says were superseded at the block's time. ``current_coverage_injected``:
  fraction of ``current`` queries (one per queried topic instance) for which a memory stating the current
  value (the query's evidence) is in the block. ``injected_tokens``: the block's size.
* ``dup_collapsed_exact``: fraction of redundant exact-duplicate records marked duplicate;
  ``compression_ratio``: memories in / memories still retrievable in standard mode.
* ``tier_frac_*``, ``latency_total_s``, ``latency_<phase>_s``, ``latency_recall_s``, ``latency_inject_s``.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from memlab.benchmarks import metrics
from memlab.benchmarks.base import BenchmarkResult, DatasetCard
from memlab.benchmarks.project_history import history_metrics as hm
from memlab.benchmarks.project_history.evaluate_queries import answer_query, query_metrics
from memlab.benchmarks.project_history.schema import ProjectHistory
from memlab.components import Components
from memlab.pipeline.consolidate import PHASES, consolidate
from memlab.pipeline.inject import build_block
from memlab.pipeline.recall import eligible
from memlab.pipeline.store import MemoryStore
from memlab.types import EdgeType, Relation

EDGE_RELATION: Mapping[EdgeType, Relation] = {
    EdgeType.SUPERSEDES: Relation.SUPERSEDE,
    EdgeType.DUPLICATES: Relation.DUPLICATE,
    EdgeType.MERGES: Relation.MERGE,
}


def predicted_relations(store: MemoryStore) -> dict[tuple[str, str], Relation]:
    """``(older, newer) -> relation`` of every judge edge in the store."""
    out: dict[tuple[str, str], Relation] = {}
    for edge in store.edges.values():
        relation = EDGE_RELATION.get(edge.type)
        if relation is not None:
            out[(edge.target, edge.source)] = relation
    return out


def injected_fact_ids(store: MemoryStore, block: Any) -> list[str]:
    """Memory ids the block speaks for: memory items, and the sources of summary items."""
    ids: list[str] = []
    for item in block.items:
        if item.kind == "summary" and item.id in store.summaries:
            ids.extend(store.summaries[item.id].source_ids)
        else:
            ids.append(item.id)
    return ids


def evaluate_history(history: ProjectHistory, components: Components, card: DatasetCard) -> BenchmarkResult:
    """Run the whole policy on ``history`` and score it against its gold."""
    t_start = time.perf_counter()
    store = MemoryStore(history.memories)
    now = history.now
    result = consolidate(store, components, now)

    predicted = predicted_relations(store)
    gold_triples = [(r.older, r.newer, r.relation) for r in history.relations]
    pred_sup = [p for p, r in predicted.items() if r is Relation.SUPERSEDE]
    gold_sup = [(o, n) for o, n, r in gold_triples if r is Relation.SUPERSEDE]
    precision, recall_, f1 = metrics.supersession_scores(pred_sup, gold_sup)
    labels = hm.gold_labels(gold_triples)
    listed = [(o, n) for o, n, _ in gold_triples]
    relation = hm.relation_scores(store.judged, predicted, labels, listed)

    timestamps = {m.id: m.timestamp for m in history.memories}
    stale_since = hm.superseded_at(gold_triples, timestamps)
    t0 = time.perf_counter()
    predictions = [answer_query(store, components, q, stale_since) for q in history.queries]
    recall_seconds = time.perf_counter() - t0

    t0 = time.perf_counter()
    block = build_block(store, components, now)
    inject_seconds = time.perf_counter() - t0
    facts = injected_fact_ids(store, block)
    fact_set = set(facts)
    current = [q for q in history.queries if q.kind == "current"]
    covered = [float(bool(fact_set & set(q.evidence))) for q in current]

    groups = hm.exact_duplicate_groups(history.memories)
    duplicate_of = {mid: store.state(mid).duplicate_of for g in groups for mid in g}
    retrievable = len(eligible(store, "standard", now))

    out: dict[str, float] = {
        "supersession_precision": precision,
        "supersession_recall": recall_,
        "supersession_f1": f1,
        **relation,
        **query_metrics(predictions),
        "stale_rate_injected": hm.stale_rate(facts, stale_since, now),
        "current_coverage_injected": metrics.mean(covered) if current else 0.0,
        "injected_tokens": float(block.tokens),
        "injected_items": float(len(block.items)),
        "dup_collapsed_exact": hm.dup_collapsed_exact(groups, duplicate_of),
        "compression_ratio": hm.compression_ratio(len(history.memories), retrievable),
        "n_memories": float(len(history.memories)),
        "n_judged_pairs": float(len(store.judged)),
        "latency_recall_s": recall_seconds,
        "latency_inject_s": inject_seconds,
    }
    out.update(metrics.tier_fractions(result.tier_counts))
    for phase in PHASES:
        out[f"latency_{phase}_s"] = float(result.phase_seconds.get(phase, 0.0))
    out["latency_total_s"] = time.perf_counter() - t_start
    current_hits = [r["correct"] for r in predictions if r["kind"] == "current"]
    lo, hi = metrics.bootstrap_ci(current_hits)
    info: dict[str, Any] = {
        "consolidation": result.counts(),
        "current_truth_at_1_ci95": [lo, hi],
        "history_meta": history.meta,
        "injected_block": block.text,
        "injected_ids": [c.id for c in block.items],
    }
    return BenchmarkResult(
        out,
        predictions,
        card,
        info,
        tier_counts=dict(result.tier_counts),
        artifacts={"injected_block.md": block.text.encode("utf-8")},
    )
