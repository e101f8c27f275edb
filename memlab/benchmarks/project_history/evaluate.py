"""A :class:`ProjectHistory` as an episode, and the scores of its outcome.

The memories arrive in time order and the policy consolidates on its schedule
(:mod:`memlab.pipeline.episode`); every gold query is asked at its own time; the SessionStart block is
built at the history's clock. Metrics (exact names, shared across issues):

* ``supersession_precision``, ``supersession_recall``, ``supersession_f1``: SUPERSEDE pairs, both sides
  closed transitively (a chain A→B→C found as A→B, B→C scores like gold).
* ``relation_{precision,recall,f1}_{duplicate,supersede,merge,coexist}``: per-relation scores over candidate
  pairs (definition in :mod:`history_metrics`; judged pairs absent from gold are COEXIST).
* ``current_truth_at_1``, ``stale_rate_top5``, ``as_of_acc``, ``when_acc``, ``history_acc``,
  ``context_tokens``: the query kinds, each answered from its selected context (:mod:`evaluate_queries`).
* ``reader_acc``, ``reader_acc_{current,as_of,when}``, ``reader_answered`` (counts ``n_reader``,
  ``n_reader_<kind>``): the run's ``reader`` answering the same questions from the same contexts
  (:mod:`reader_scoring`; none with ``reader=none``).
* ``stale_rate_injected``: fraction of facts in the SessionStart block (memories; a summary counts as its
  source memories) that gold says were superseded at the block's time. ``current_coverage_injected``:
  fraction of ``current`` queries (one per queried topic instance) for which a memory stating the current
  value (the query's evidence) is in the block. ``injected_tokens``: the block's size.
* ``dup_collapsed_exact``: fraction of redundant exact-duplicate records marked duplicate;
  ``compression_ratio``: memories in / memories still retrievable in standard mode.
* Counts beside the rates: ``n_supersession_{predicted,gold}`` (closures), ``n_relation_{predicted,gold}_*``,
  ``n_queries_<kind>``, ``n_top5_items``, ``n_injected_facts``, ``n_dup_redundant_exact``,
  ``n_retrievable``, ``n_memories``. A rate whose denominator is empty is undefined and absent (never 1.0
  or 0.0 by convention).
* ``tier_frac_*``, ``n_consolidations``, ``latency_total_s``, ``latency_<phase>_s`` (consolidation phases
  summed over runs, ``ingest``, ``recall``, ``select``, ``answer``, ``inject``; ``online`` in online mode).
* ``anchor_drift`` (final), ``anchor_drift_max`` with ``pipeline.identity_anchor``; ``n_insights`` with
  ``pipeline.insights`` (memlab/pipeline/astra.py). In online mode the audit log is the ``audit.jsonl``
  artifact.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from memlab.benchmarks import metrics
from memlab.benchmarks.base import BenchmarkResult, DatasetCard
from memlab.benchmarks.project_history import history_metrics as hm
from memlab.benchmarks.project_history.evaluate_queries import episode_query, query_metrics
from memlab.benchmarks.project_history.reader_scoring import reader_metrics
from memlab.core.types import TIER_ORDER, EdgeType, Relation
from memlab.data.project_history.schema import ProjectHistory
from memlab.pipeline.astra import extras_info, extras_metrics
from memlab.pipeline.audit import audit_jsonl
from memlab.pipeline.episode import Episode, EpisodeOutcome
from memlab.pipeline.inject import InjectedBlock
from memlab.pipeline.online import expand_merged
from memlab.pipeline.recall import eligible
from memlab.pipeline.store import MemoryStore
from memlab.wiring.components import Components

EDGE_RELATION: Mapping[EdgeType, Relation] = {
    EdgeType.SUPERSEDES: Relation.SUPERSEDE,
    EdgeType.DUPLICATES: Relation.DUPLICATE,
    EdgeType.MERGES: Relation.MERGE,
}


def history_episode(history: ProjectHistory) -> Episode:
    """The history's memories and gold queries as one episode ending at the history's clock."""
    now = history.now
    return Episode(history.name, history.memories, tuple(episode_query(q, now) for q in history.queries), end=now)


def stale_since(history: ProjectHistory) -> dict:
    """Memory id -> the gold time it stopped being true."""
    timestamps = {m.id: m.timestamp for m in history.memories}
    return hm.superseded_at([(r.older, r.newer, r.relation) for r in history.relations], timestamps)


def predicted_relations(store: MemoryStore) -> dict[tuple[str, str], Relation]:
    """``(older, newer) -> relation`` of every judge edge in the store."""
    out: dict[tuple[str, str], Relation] = {}
    for edge in store.edges.values():
        relation = EDGE_RELATION.get(edge.type)
        if relation is not None:
            out[(edge.target, edge.source)] = relation
    return out


def injected_fact_ids(store: MemoryStore, block: InjectedBlock) -> list[str]:
    """Memory ids the block speaks for: memory items, and the sources of summary items."""
    ids: list[str] = []
    for item in block.items:
        if item.kind == "summary" and item.id in store.summaries:
            ids.extend(store.summaries[item.id].source_ids)
        else:
            ids.append(item.id)
    return expand_merged(store, ids)  # an online MERGE's combined memory speaks for its sources


def latency_metrics(outcome: EpisodeOutcome) -> dict[str, float]:
    """``latency_<phase>_s`` per phase, ``latency_total_s`` and ``n_consolidations``."""
    out = metrics.latency_metrics([outcome.seconds])
    out["n_consolidations"] = float(len(outcome.runs))
    return out


def final_tier_counts(outcome: EpisodeOutcome) -> dict[str, int]:
    """Memories per tier value at the end of the episode."""
    counts = {t.value: 0 for t in TIER_ORDER}
    for state in outcome.store.states.values():
        counts[state.tier.value] += 1
    return counts


def score_history(history: ProjectHistory, outcome: EpisodeOutcome, card: DatasetCard) -> BenchmarkResult:
    """Score one history's episode against its gold."""
    store, block, now = outcome.store, outcome.block, outcome.end
    predicted = predicted_relations(store)
    gold_triples = [(r.older, r.newer, r.relation) for r in history.relations]
    pred_sup = [p for p, r in predicted.items() if r is Relation.SUPERSEDE]
    gold_sup = [(o, n) for o, n, r in gold_triples if r is Relation.SUPERSEDE]
    precision, recall_, f1 = metrics.supersession_scores(pred_sup, gold_sup)
    labels = hm.gold_labels(gold_triples)
    relation = hm.relation_scores(store.judged, predicted, labels, [(o, n) for o, n, _ in gold_triples])

    predictions = [q.answer for q in outcome.queries]
    facts = injected_fact_ids(store, block)
    fact_set = set(facts)
    current = [q for q in history.queries if q.kind == "current"]
    covered = [float(bool(fact_set & set(q.evidence))) for q in current]
    groups = hm.exact_duplicate_groups(history.memories)
    duplicate_of = {mid: store.state(mid).duplicate_of for g in groups for mid in g}
    retrievable = len(eligible(store, "standard", now))
    tiers = final_tier_counts(outcome)

    out: dict[str, float | None] = {
        "supersession_precision": precision,
        "supersession_recall": recall_,
        "supersession_f1": f1,
        **metrics.supersession_counts(pred_sup, gold_sup),
        **relation,
        **query_metrics(predictions),
        **reader_metrics(predictions),
        "stale_rate_injected": hm.stale_rate(facts, stale_since(history), now),
        "n_injected_facts": float(len(facts)),
        "current_coverage_injected": metrics.mean(covered),
        "injected_tokens": float(block.tokens),
        "injected_items": float(len(block.items)),
        "dup_collapsed_exact": hm.dup_collapsed_exact(groups, duplicate_of),
        "n_dup_redundant_exact": float(hm.n_redundant(groups)),
        "compression_ratio": hm.compression_ratio(len(history.memories), retrievable),
        "n_retrievable": float(retrievable),
        "n_memories": float(len(history.memories)),
        "n_judged_pairs": float(len(store.judged)),
        **metrics.tier_fractions(tiers),
        **latency_metrics(outcome),
        **extras_metrics(store),
    }
    current_hits = [r["correct"] for r in predictions if r["kind"] == "current"]
    interval = metrics.bootstrap_ci(current_hits)
    info: dict[str, Any] = {
        "consolidations": [r.counts() for r in outcome.runs],
        "current_truth_at_1_ci95": list(interval) if interval else None,
        "history_meta": history.meta,
        "injected_block": block.text,
        "injected_ids": [c.id for c in block.items],
        "review_queue": len(store.review_queue),
        **extras_info(store),
    }
    artifacts = {"injected_block.md": block.text.encode("utf-8")}
    if store.audit:  # pipeline.mode=online: the operations, replayable (memlab/pipeline/audit.py)
        artifacts["audit.jsonl"] = audit_jsonl(store.audit)
    return BenchmarkResult(metrics.defined(out), predictions, card, info, tier_counts=tiers, artifacts=artifacts)


def evaluate_history(history: ProjectHistory, components: Components, card: DatasetCard) -> BenchmarkResult:
    """Run the policy on ``history`` as one episode and score it (what the history benchmarks do)."""
    from memlab.benchmarks.project_history.evaluate_queries import make_answerer
    from memlab.pipeline.episode import run_episode

    answer = make_answerer(history, components, stale_since(history))
    return score_history(history, run_episode(history_episode(history), components, answer), card)
