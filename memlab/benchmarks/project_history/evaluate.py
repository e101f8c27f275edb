"""Evaluate a policy on a :class:`ProjectHistory`: consolidate at the history's clock, query, inject.

Metrics (exact names reused across issues): ``supersession_precision``, ``supersession_recall``,
``supersession_f1`` (SUPERSEDE pairs, compared as transitive closures), ``current_truth_at_1`` (the first
recalled memory for a ``current`` query is among its evidence), ``tier_frac_*``, ``injected_tokens``,
``latency_total_s`` and ``latency_<phase>_s``.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from memlab.benchmarks import metrics
from memlab.benchmarks.base import BenchmarkResult, DatasetCard
from memlab.benchmarks.project_history.schema import ProjectHistory
from memlab.components import Components
from memlab.pipeline.consolidate import PHASES, consolidate
from memlab.pipeline.inject import build_block
from memlab.pipeline.recall import recall
from memlab.pipeline.store import MemoryStore
from memlab.types import EdgeType, Relation


def evaluate_history(history: ProjectHistory, components: Components, card: DatasetCard) -> BenchmarkResult:
    """Run the whole policy on ``history`` and score it against its gold."""
    t_start = time.perf_counter()
    store = MemoryStore(history.memories)
    now = history.now
    result = consolidate(store, components, now)

    predicted = [(e.target, e.source) for e in store.edges.values() if e.type is EdgeType.SUPERSEDES]
    gold = [(r.older, r.newer) for r in history.relations if r.relation is Relation.SUPERSEDE]
    precision, recall_, f1 = metrics.supersession_scores(predicted, gold)

    predictions: list[dict[str, Any]] = []
    current_hits: list[float] = []
    t0 = time.perf_counter()
    for query in history.queries:
        if query.kind != "current":
            continue
        hits = recall(store, components, query.question, query.as_of, limit=5, track=False)
        ranked = [h.memory.id for h in hits]
        ok = metrics.hit_at_1(ranked, query.evidence)
        current_hits.append(ok)
        predictions.append(
            {
                "query_id": query.id,
                "kind": query.kind,
                "question": query.question,
                "gold_answer": query.answer,
                "evidence": list(query.evidence),
                "ranked": ranked,
                "correct_at_1": ok,
            }
        )
    recall_seconds = time.perf_counter() - t0

    t0 = time.perf_counter()
    block = build_block(store, components, now)
    inject_seconds = time.perf_counter() - t0

    out: dict[str, float] = {
        "supersession_precision": precision,
        "supersession_recall": recall_,
        "supersession_f1": f1,
        "current_truth_at_1": metrics.mean(current_hits),
        "injected_tokens": float(block.tokens),
        "n_memories": float(len(history.memories)),
        "n_queries_current": float(len(current_hits)),
        "latency_recall_s": recall_seconds,
        "latency_inject_s": inject_seconds,
    }
    out.update(metrics.tier_fractions(result.tier_counts))
    for phase in PHASES:
        out[f"latency_{phase}_s"] = float(result.phase_seconds.get(phase, 0.0))
    out["latency_total_s"] = time.perf_counter() - t_start
    lo, hi = metrics.bootstrap_ci(current_hits)
    info: dict[str, Any] = {
        "consolidation": _result_dict(result),
        "current_truth_at_1_ci95": [lo, hi],
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


def _result_dict(result: Any) -> Mapping[str, Any]:
    return {
        "run_id": result.run_id,
        "now": result.now.isoformat(),
        "memories_processed": result.memories_processed,
        "clusters_found": result.clusters_found,
        "summaries_created": result.summaries_created,
        "edges_created": dict(result.edges_created),
        "tier_counts": dict(result.tier_counts),
        "transitions": len(result.transitions),
        "review_queue": len(result.review),
    }
