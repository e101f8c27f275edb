"""One repository's episode scored: its counts for the pooled figures, its gold pairs and prediction records.

The counts follow :mod:`memlab.benchmarks.adr.pooled`. A gold pair is a *candidate* when the policy judged
it (``store.judged``, whichever way the pair reached the judge). The store keeps a verdict only when it
produced an edge (relation, confidence, reason) or was held in the review queue; a judged pair with
neither was judged COEXIST (or dropped as a weak slot-only verdict), recorded as ``coexist_or_dropped``.
"""

from __future__ import annotations

from typing import Any

from memlab.benchmarks import metrics
from memlab.benchmarks.project_history.evaluate import (
    EDGE_RELATION,
    injected_fact_ids,
    predicted_relations,
    stale_since,
)
from memlab.core.types import Relation
from memlab.data.project_history.schema import ProjectHistory
from memlab.pipeline.episode import EpisodeOutcome
from memlab.pipeline.store import MemoryStore

Record = dict[str, Any]


def _verdicts(store: MemoryStore) -> dict[tuple[str, str], Record]:
    """What the store kept of each verdict: edges, then review-queue entries (held back)."""
    out: dict[tuple[str, str], Record] = {}
    for record in store.review_queue:
        out[(record["older"], record["newer"])] = {
            "relation": str(record["relation"]),
            "confidence": float(record["confidence"]),
            "reason": str(record.get("reason", "")),
            "held_for_review": True,
        }
    for edge in store.edges.values():
        if edge.type in EDGE_RELATION:
            out[(edge.target, edge.source)] = {
                "relation": EDGE_RELATION[edge.type].value,
                "confidence": float(edge.weight),
                "reason": edge.reason,
                "held_for_review": False,
            }
    return out


def repo_score(history: ProjectHistory, outcome: EpisodeOutcome) -> tuple[dict[str, float], Record, list[Record]]:
    """``(counts, info, predictions)`` of one repository's episode.

    Returns:
        counts: :data:`memlab.benchmarks.adr.pooled.COUNTS` plus ``injected_tokens``.
        info: The gold pairs (candidate, predicted relation, verdict), skipped links, sizes.
        predictions: One record per query, per gold pair and per predicted edge absent from gold.
    """
    store, block = outcome.store, outcome.block
    predicted = predicted_relations(store)
    gold_sup = [(r.older, r.newer) for r in history.relations if r.relation is Relation.SUPERSEDE]
    gold_closure = metrics.transitive_closure(gold_sup)
    pred_closure = metrics.transitive_closure([p for p, rel in predicted.items() if rel is Relation.SUPERSEDE])
    verdicts = _verdicts(store)
    pairs = _gold_pairs(history, store, predicted, verdicts)
    answers = [q.answer for q in outcome.queries]
    stated = [p for p in map(tuple, history.meta.get("stated_links", ())) if p in gold_sup]
    counts = {
        "sup_tp": float(len(pred_closure & gold_closure)),
        "sup_fp": float(len(pred_closure - gold_closure)),
        "sup_fn": float(len(gold_closure - pred_closure)),
        "n_gold_supersede": float(len(gold_sup)),
        "n_gold_merge": float(sum(1 for r in history.relations if r.relation is Relation.MERGE)),
        "n_gold_candidates": float(sum(1 for p in pairs if p["candidate"])),
        "n_gold_merge_found": float(sum(1 for p in pairs if p["relation"] == "MERGE" and p["predicted"] == "MERGE")),
        **_block_counts(history, outcome, answers),
        "n_gold_stated": float(len(stated)),
        "n_gold_stated_found": float(sum(1 for p in stated if p in pred_closure)),
        "injected_tokens": float(block.tokens),
    }
    predictions: list[Record] = [{"record": "query", "repo": history.name, **a} for a in answers]
    predictions += [{"record": "gold_pair", "repo": history.name, **p} for p in pairs]
    predictions += _edges_beyond_gold(history, predicted, gold_closure, verdicts)
    info = {
        "gold_pairs": pairs,
        "skipped_links": history.meta.get("skipped_links", []),
        "n_records": history.meta.get("n_records", len(history.memories)),
        "no_links": bool(history.meta.get("no_links")),
        "n_judged_pairs": len(store.judged),
        "n_consolidations": len(outcome.runs),
        "injected_ids": [c.id for c in block.items],
    }
    return counts, info, predictions


def _gold_pairs(
    history: ProjectHistory,
    store: MemoryStore,
    predicted: dict[tuple[str, str], Relation],
    verdicts: dict[tuple[str, str], Record],
) -> list[Record]:
    """One record per gold relation: whether the policy judged it, what it predicted, the verdict it kept."""
    title = {m.id: m.summary for m in history.memories}
    pairs: list[Record] = []
    for r in history.relations:
        key = (r.older, r.newer)
        pairs.append(
            {
                "older": r.older,
                "newer": r.newer,
                "older_title": title.get(r.older, ""),
                "newer_title": title.get(r.newer, ""),
                "relation": r.relation.value,
                "candidate": key in store.judged,
                "predicted": predicted[key].value if key in predicted else None,
                "verdict": verdicts.get(key, "coexist_or_dropped" if key in store.judged else None),
            }
        )
    return pairs


def _block_counts(history: ProjectHistory, outcome: EpisodeOutcome, answers: list[Record]) -> dict[str, float]:
    """The injected block's facts (stale ones among them) and the query answers, as counts."""
    facts = injected_fact_ids(outcome.store, outcome.block)
    fact_set = set(facts)
    stale = stale_since(history)
    current = [a for a in answers if a.get("kind") == "current"]
    as_of = [a for a in answers if a.get("kind") == "as_of"]
    evidence = {q.id: set(q.evidence) for q in history.queries}
    return {
        "n_injected_facts": float(len(facts)),
        "n_stale_injected": float(sum(1 for i in facts if i in stale and stale[i] <= outcome.end)),
        "n_current_queries": float(len(current)),
        "n_current_correct": float(sum(a["correct"] for a in current)),
        "n_current_covered": float(sum(1 for a in current if fact_set & evidence.get(a["query_id"], set()))),
        "n_as_of_queries": float(len(as_of)),
        "n_as_of_correct": float(sum(a["correct"] for a in as_of)),
    }


def _edges_beyond_gold(
    history: ProjectHistory,
    predicted: dict[tuple[str, str], Relation],
    gold_closure: set[tuple[str, str]],
    verdicts: dict[tuple[str, str], Record],
) -> list[Record]:
    """One record per predicted edge between a pair gold does not list."""
    title = {m.id: m.summary for m in history.memories}
    listed = {(r.older, r.newer) for r in history.relations}
    out: list[Record] = []
    for (older, newer), relation in sorted(predicted.items()):
        if (older, newer) in listed:
            continue
        out.append(
            {
                "record": "predicted_edge",
                "repo": history.name,
                "older": older,
                "newer": newer,
                "older_title": title.get(older, ""),
                "newer_title": title.get(newer, ""),
                "relation": relation.value,
                "in_gold_closure": relation is Relation.SUPERSEDE and (older, newer) in gold_closure,
                "verdict": verdicts.get((older, newer)),
            }
        )
    return out
