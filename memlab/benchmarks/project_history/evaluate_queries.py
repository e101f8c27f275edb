"""Answering the four query kinds against a consolidated store, and scoring the answers.

* ``current``: standard recall (current-only) at the query time; correct when the first hit is evidence.
  ``stale_rate_top5`` counts the top-5 hits that gold says were superseded by then.
* ``as_of``: recall restricted to the memories the policy considers valid at ``as_of``; first hit in evidence.
* ``when``: exhaustive recall; the answer is the first hit's recorded date, or (``answer_source=mentioned``)
  the start date of the first temporal expression the ``temporal`` strategy resolves in its text.
* ``history``: exhaustive recall, then the chain of the first hit (oldest first); correct when the chain is
  exactly the evidence list.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from memlab.benchmarks import metrics
from memlab.benchmarks.project_history.history_metrics import stale_rate
from memlab.benchmarks.project_history.schema import GoldQuery
from memlab.components import Components
from memlab.pipeline.history import history_of
from memlab.pipeline.recall import recall
from memlab.pipeline.store import MemoryStore


def answer_query(
    store: MemoryStore, components: Components, query: GoldQuery, stale_since: Mapping[str, datetime]
) -> dict[str, Any]:
    """One prediction record (JSON-serialisable) with ``correct`` in {0, 1} and, for current, ``stale_top5``."""
    record: dict[str, Any] = {
        "query_id": query.id,
        "kind": query.kind,
        "question": query.question,
        "as_of": query.as_of.isoformat(),
        "gold_answer": query.answer,
        "evidence": list(query.evidence),
    }
    if query.kind == "current":
        hits = recall(store, components, query.question, query.as_of, limit=5, track=False)
        ranked = [h.memory.id for h in hits]
        record.update(
            ranked=ranked,
            correct=metrics.hit_at_1(ranked, query.evidence),
            stale_top5=stale_rate(ranked, stale_since, query.as_of),
            n_top5=len(ranked),
        )
    elif query.kind == "as_of":
        hits = recall(store, components, query.question, query.as_of, as_of=query.as_of, limit=5, track=False)
        ranked = [h.memory.id for h in hits]
        record.update(ranked=ranked, correct=metrics.hit_at_1(ranked, query.evidence))
    elif query.kind == "when":
        hits = recall(store, components, query.question, query.as_of, mode="exhaustive", limit=1, track=False)
        predicted = ""
        if hits:
            memory = hits[0].memory
            predicted = memory.timestamp.date().isoformat()
            if query.answer_source == "mentioned":
                refs = components.temporal.resolve(memory.text, memory.timestamp)
                predicted = refs[0].start.date().isoformat() if refs else ""
        record.update(ranked=[h.memory.id for h in hits], predicted=predicted, correct=float(predicted == query.answer))
    else:  # history
        hits = recall(store, components, query.question, query.as_of, mode="exhaustive", limit=1, track=False)
        chain = [m.id for m in history_of(store, hits[0].memory.id)] if hits else []
        record.update(ranked=[h.memory.id for h in hits], chain=chain, correct=float(chain == list(query.evidence)))
    return record


def query_metrics(records: list[dict[str, Any]]) -> dict[str, float]:
    """``current_truth_at_1``, ``stale_rate_top5``, ``as_of_acc``, ``when_acc``, ``history_acc`` and counts."""
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for r in records:
        by_kind.setdefault(r["kind"], []).append(r)
    current = by_kind.get("current", [])
    n_top = sum(r["n_top5"] for r in current)
    out = {
        "current_truth_at_1": metrics.mean(r["correct"] for r in current),
        "stale_rate_top5": (sum(r["stale_top5"] * r["n_top5"] for r in current) / n_top) if n_top else 0.0,
        "as_of_acc": metrics.mean(r["correct"] for r in by_kind.get("as_of", [])),
        "when_acc": metrics.mean(r["correct"] for r in by_kind.get("when", [])),
        "history_acc": metrics.mean(r["correct"] for r in by_kind.get("history", [])),
        "n_queries_current": float(len(current)),
    }
    for kind in ("as_of", "when", "history"):
        out[f"n_queries_{kind}"] = float(len(by_kind.get(kind, [])))
    return out
