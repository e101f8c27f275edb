"""A question's selected context as JSON records, and back: what the temporal answerer read, cached per run.

The episode runs once; each temporal question's context (the selected units in retrieval order) is kept in
its prediction row as ``context_units``, so the answerer can be re-run on exactly that context under other
settings (cross-validation, error analysis) without re-running the policy.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from memlab.core.types import Memory
from memlab.pipeline.context import QueryContext
from memlab.pipeline.store import MemoryStore

#: ``meta`` keys a record keeps (what the answerers read; the rest is the loader's bookkeeping).
META_KEYS: tuple[str, ...] = ("text", "speaker", "dia_id", "session", "kind", "sources", "start")


def unit_record(unit: Memory) -> dict[str, Any]:
    """One context unit as a JSON-ready record (times in ISO 8601)."""
    meta: dict[str, Any] = {}
    for key in META_KEYS:
        if key in unit.meta:
            value = unit.meta[key]
            if isinstance(value, datetime):
                value = value.isoformat()
            elif isinstance(value, tuple):
                value = list(value)
            meta[key] = value
    return {
        "id": unit.id,
        "namespace": unit.namespace,
        "timestamp": unit.timestamp.isoformat(),
        "summary": unit.summary,
        "content": unit.content,
        "meta": meta,
    }


def unit_from_record(record: Mapping[str, Any]) -> Memory:
    """The unit a :func:`unit_record` describes."""
    meta = dict(record.get("meta") or {})
    if "sources" in meta:
        meta["sources"] = tuple(meta["sources"])
    if isinstance(meta.get("start"), str):
        meta["start"] = datetime.fromisoformat(meta["start"])
    return Memory(
        id=str(record["id"]),
        namespace=str(record.get("namespace", "dialogue")),
        timestamp=datetime.fromisoformat(str(record["timestamp"])),
        summary=str(record.get("summary", "")),
        content=str(record.get("content", "")),
        meta=meta,
    )


def units_from_records(records: Sequence[Mapping[str, Any]]) -> list[Memory]:
    """Units of a cached context, in their order."""
    return [unit_from_record(r) for r in records]


def context_units(context: QueryContext) -> list[Memory]:
    """The selected units in retrieval order (what the answerers read)."""
    return [item.unit for item in context.items]


def context_dia_ids(context: QueryContext, store: MemoryStore) -> list[str]:
    """Dialogue ids of the turns the context holds (a summary holds its sources), first occurrence order."""
    out: dict[str, None] = {}
    for mid in context.memory_ids():
        memory = store.memories.get(mid)
        if memory is not None and "dia_id" in memory.meta:
            out.setdefault(str(memory.meta["dia_id"]), None)
    return list(out)
