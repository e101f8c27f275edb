"""The four query kinds as episode queries, answered from their selected context, and their scores.

Each gold query is asked at its own time (``GoldQuery.as_of``; an ``as_of`` question is asked at the
history's end about that earlier time). Recall hands the policy's own ``pipeline.recall_limit`` units to the
selector, so each policy is scored on the context it would build (a window design's running document, a summary
design's summaries); the answer is read from the first context item in retrieval order (a summary, or an online
MERGE's combined memory, speaks through its newest source, the line it quotes first):

* ``current``: standard recall (current-only); correct when the answer memory is evidence.
  ``stale_rate_top5`` counts the context's first five memories that gold says were superseded by then.
* ``as_of``: recall restricted to the memories the policy considers valid at ``as_of``.
* ``when``: exhaustive recall; the answer is the recorded date of the context item that records the event,
  or (``answer_source=mentioned``) the start date of the first temporal expression the ``temporal`` strategy
  resolves in the first item that mentions a date (:mod:`when_answer`: which item, still from the context).
* ``history``: exhaustive recall, then the chain of the answer memory as the store stands at the query's
  time (oldest first); correct when the chain is exactly the evidence list.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from memlab.benchmarks import metrics
from memlab.benchmarks.project_history.history_metrics import stale_rate
from memlab.benchmarks.project_history.reader_scoring import reader_fields, topic_values
from memlab.benchmarks.project_history.when_answer import when_memory
from memlab.core.types import Memory
from memlab.data.project_history.schema import GoldQuery, ProjectHistory
from memlab.pipeline.context import QueryContext
from memlab.pipeline.episode import Query
from memlab.pipeline.history import history_of
from memlab.pipeline.online_search import merged_sources
from memlab.pipeline.store import MemoryStore
from memlab.pipeline.units import is_summary, sources_of
from memlab.wiring.components import Components

#: Recall mode per query kind (``None``: the policy's ``pipeline.recall_mode``).
KIND_MODE: Mapping[str, str | None] = {"current": None, "as_of": None, "when": "exhaustive", "history": "exhaustive"}


def episode_query(query: GoldQuery, end: datetime) -> Query:
    """The gold query as an episode query (gold stays with the benchmark; ``meta`` carries the id)."""
    at = end if query.kind == "as_of" else query.as_of
    as_of = query.as_of if query.kind == "as_of" else None
    past = query.kind in ("when", "history")  # about events, not about what is current
    mode = KIND_MODE[query.kind]
    return Query(query.id, query.question, at, as_of, mode, None, past, {"kind": query.kind})


def answer_memory(store: MemoryStore, context: QueryContext) -> Memory | None:
    """The memory the first context item states (a summary: its newest source)."""
    if not context.items:
        return None
    unit = context.items[0].unit
    merged = merged_sources(unit)  # an online MERGE's combined memory speaks through its newest source too
    if not is_summary(unit) and not merged:
        return unit
    sources = [store.memories[i] for i in (merged or sources_of(unit)) if i in store.memories]
    return max(sources, key=lambda m: (m.timestamp, m.id)) if sources else None


def make_answerer(
    history: ProjectHistory, components: Components, stale_since: Mapping[str, datetime], *, read: bool = True
):
    """``answer(query, context, store)`` scoring each answer against the history's gold (``read``: the run's
    ``reader`` also answers, for the benchmarks whose card uses it).
    """
    gold = {q.id: q for q in history.queries}
    values = topic_values(history.queries)

    def answer(query: Query, context: QueryContext, store: MemoryStore) -> dict[str, Any]:
        q = gold[query.id]
        if q.kind == "when":
            memory = when_memory(store, context, q.answer_source, components.temporal)
        else:
            memory = answer_memory(store, context)
        ids = context.memory_ids()
        record: dict[str, Any] = {
            "query_id": q.id,
            "kind": q.kind,
            "question": q.question,
            "as_of": q.as_of.isoformat(),
            "gold_answer": q.answer,
            "evidence": list(q.evidence),
            "ranked": context.ranked_ids,
            "context": context.unit_ids,
            "context_tokens": context.tokens,
            "answer_memory": memory.id if memory else None,
        }
        if q.kind in ("current", "as_of"):
            record["correct"] = float(memory is not None and memory.id in q.evidence)
            if q.kind == "current":
                top = ids[:5]
                record.update(stale_top5=stale_rate(top, stale_since, query.at), n_top5=len(top))
        elif q.kind == "when":
            predicted = ""
            if memory is not None:
                predicted = memory.timestamp.date().isoformat()
                if q.answer_source == "mentioned":
                    refs = components.temporal.resolve(memory.text, memory.timestamp)
                    predicted = refs[0].start.date().isoformat() if refs else ""
            record.update(predicted=predicted, correct=float(predicted == q.answer))
        else:  # history
            chain = [m.id for m in history_of(store, memory.id)] if memory is not None else []
            record.update(chain=chain, correct=float(chain == list(q.evidence)))
        units = [item.unit for item in context.items]
        if read:
            record.update(reader_fields(components.reader, q, query.text, units, query.at, values))
        return record

    return answer


def query_metrics(records: list[dict[str, Any]]) -> dict[str, float]:
    """``current_truth_at_1``, ``stale_rate_top5``, ``as_of_acc``, ``when_acc``, ``history_acc``,
    ``context_tokens`` and their counts (``n_queries_<kind>``, ``n_top5_items``); a rate over no query (or no
    item) is undefined and absent.
    """
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for r in records:
        by_kind.setdefault(r["kind"], []).append(r)
    current = by_kind.get("current", [])
    n_top = sum(r["n_top5"] for r in current)
    out = {
        "current_truth_at_1": metrics.mean(r["correct"] for r in current),
        "stale_rate_top5": metrics.ratio(sum(r["stale_top5"] * r["n_top5"] for r in current if r["n_top5"]), n_top),
        "n_top5_items": float(n_top),
        "as_of_acc": metrics.mean(r["correct"] for r in by_kind.get("as_of", [])),
        "when_acc": metrics.mean(r["correct"] for r in by_kind.get("when", [])),
        "history_acc": metrics.mean(r["correct"] for r in by_kind.get("history", [])),
        "n_queries_current": float(len(current)),
        "context_tokens": metrics.mean(r["context_tokens"] for r in records),
    }
    for kind in ("as_of", "when", "history"):
        out[f"n_queries_{kind}"] = float(len(by_kind.get(kind, [])))
    return metrics.defined(out)
