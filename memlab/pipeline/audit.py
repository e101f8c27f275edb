"""The online audit log: JSON-ready records of memories, states and edges, and their replay.

Each record of :data:`MemoryStore.audit <memlab.pipeline.store.MemoryStore>` is one operation of online
consolidation (memlab/pipeline/online.py) as a plain dict (the ``audit.jsonl`` artifact holds one per line):

* ``seq`` (0, 1, ...), ``arrival`` (id of the memory whose arrival caused it), ``at`` (its timestamp);
* ``operation``: ``ADD`` | ``UPDATE`` | ``DELETE`` | ``MERGE`` | ``NOOP``;
* ``sources``: the memories it read; ``target``: the memory it wrote to;
* ``classification`` (the judge's relation, ``null`` without a candidate), ``confidence``, ``reasoning``,
  ``similarity`` (cosine of the pair), ``review`` (the review-queue entry when the verdict was held back);
* ``memories``: memories the record brings into the store (the arriving memory, on the first record of its
  arrival; the combined memory of a MERGE), as :func:`memory_to_dict`;
* ``edges`` it added (:func:`edge_to_dict`), ``judged`` pairs ``[older, newer]`` it judged;
* ``before`` / ``after``: ``{memory id: state}`` (:func:`state_to_dict`; ``before`` is ``null`` for a
  memory the record brings in) of every memory whose state it changed.

:func:`replay` applies records to a starting store: memories are added, each state field that differs
between ``before`` and ``after`` is set to its ``after`` value, edges, judged pairs and review entries are
added. Replaying the whole log onto the store the run started from reproduces the store the online
operations left; the phases of the scheduled consolidations (clusters, summaries, tiers) are recorded in
the runs, not here.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import fields
from datetime import datetime
from typing import Any

from memlab.core.errors import MemlabError
from memlab.core.types import Edge, EdgeType, Memory, MemoryState, Tier
from memlab.pipeline.store import MemoryStore

#: The operations a record may name.
OPERATIONS: tuple[str, ...] = ("ADD", "UPDATE", "DELETE", "MERGE", "NOOP")


def _json_safe(value: Any) -> Any:
    """A JSON-ready copy of ``value`` (tuples become lists, datetimes ISO strings, anything else ``str``)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, Mapping):
        return {str(k): _json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value, key=str) if isinstance(value, (set, frozenset)) else value
        return [_json_safe(v) for v in items]
    return str(value)


def _time(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value is not None else None


def memory_to_dict(memory: Memory) -> dict[str, Any]:
    """A memory as a JSON-ready dict (``meta`` made JSON-safe)."""
    return {
        "id": memory.id,
        "namespace": memory.namespace,
        "timestamp": memory.timestamp.isoformat(),
        "summary": memory.summary,
        "content": memory.content,
        "tags": list(memory.tags),
        "meta": _json_safe(dict(memory.meta)),
    }


def memory_from_dict(data: Mapping[str, Any]) -> Memory:
    """The memory a :func:`memory_to_dict` record describes."""
    return Memory(
        id=data["id"],
        namespace=data["namespace"],
        timestamp=datetime.fromisoformat(data["timestamp"]),
        summary=data["summary"],
        content=data.get("content", ""),
        tags=tuple(data.get("tags", ())),
        meta=dict(data.get("meta") or {}),
    )


def state_to_dict(state: MemoryState) -> dict[str, Any]:
    """A state as a JSON-ready dict (every field)."""
    return {f.name: _json_safe(getattr(state, f.name)) for f in fields(MemoryState)}


def state_changes(before: Mapping[str, Any] | None, after: Mapping[str, Any]) -> dict[str, Any]:
    """The fields of ``after`` that differ from ``before`` (all of them without ``before``), decoded."""
    out: dict[str, Any] = {}
    for name, value in after.items():
        if name == "memory_id" or (before is not None and before.get(name) == value):
            continue
        if name == "tier":
            out[name] = Tier(value)
        elif name in ("last_accessed", "valid_until"):
            out[name] = _time(value)
        elif name == "access_times":
            out[name] = tuple(datetime.fromisoformat(v) for v in value)
        else:
            out[name] = value
    return out


def edge_to_dict(edge: Edge) -> dict[str, Any]:
    """An edge as a JSON-ready dict."""
    return {
        "source": edge.source,
        "target": edge.target,
        "type": edge.type.value,
        "weight": edge.weight,
        "reason": edge.reason,
        "created_at": edge.created_at.isoformat() if edge.created_at else None,
        "run_id": edge.run_id,
    }


def edge_from_dict(data: Mapping[str, Any]) -> Edge:
    """The edge an :func:`edge_to_dict` record describes."""
    return Edge(
        data["source"],
        data["target"],
        EdgeType(data["type"]),
        weight=float(data["weight"]),
        reason=data.get("reason", ""),
        created_at=_time(data.get("created_at")),
        run_id=data.get("run_id"),
    )


def apply_record(store: MemoryStore, record: Mapping[str, Any]) -> None:
    """Apply one audit record to ``store`` (in place) and append it to ``store.audit``."""
    if record.get("operation") not in OPERATIONS:
        raise MemlabError(
            f"audit record {record.get('seq')} has operation {record.get('operation')!r}; "
            f"valid: {', '.join(OPERATIONS)}"
        )
    store.add(memory_from_dict(m) for m in record.get("memories", ()))
    before = record.get("before") or {}
    for memory_id, after in (record.get("after") or {}).items():
        changes = state_changes(before.get(memory_id), after)
        if changes:
            store.update_state(memory_id, **changes)
    for edge in record.get("edges", ()):
        store.add_edge(edge_from_dict(edge))
    for older, newer in record.get("judged", ()):
        store.judged.add((older, newer))
    if record.get("review"):
        store.review_queue.append(dict(record["review"]))
    store.audit.append(dict(record))


def replay(audit: Iterable[Mapping[str, Any]], starting_store: MemoryStore, embedder: Any = None) -> MemoryStore:
    """Apply ``audit`` to a copy of ``starting_store``; returns the copy (the start is not changed).

    Args:
        audit: Records in order (``store.audit``, or the lines of ``audit.jsonl`` parsed).
        starting_store: The store the operations started from.
        embedder: Optional; embeds the memories the log brought in (the combined memories included), as
            the online run did.
    """
    store = copy.deepcopy(starting_store)
    for record in audit:
        apply_record(store, record)
    if embedder is not None:
        missing = [m for m in store.ordered() if m.id not in store.embeddings]
        todo = sorted({m.text for m in missing if m.text not in store.text_vectors})
        if todo:
            for text, vec in zip(todo, embedder.encode(todo), strict=True):
                store.text_vectors[text] = vec
        for memory in missing:
            store.embeddings[memory.id] = store.text_vectors[memory.text]
    return store


def audit_jsonl(records: Sequence[Mapping[str, Any]]) -> bytes:
    """The records as JSON Lines (the ``audit.jsonl`` artifact)."""
    return "".join(json.dumps(r, sort_keys=True) + "\n" for r in records).encode("utf-8")


def read_audit(data: bytes | str) -> list[dict[str, Any]]:
    """Records from an ``audit.jsonl`` artifact's bytes or text."""
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    return [json.loads(line) for line in text.splitlines() if line.strip()]
