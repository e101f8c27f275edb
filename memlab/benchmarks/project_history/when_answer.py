"""Which context item answers a ``when`` question.

A ``when`` question asks for the day an event happened (``answer_source: recorded``: the day the note that
records it was written) or for a day a note mentions (``mentioned``: "failing since yesterday"). The first
context item is often not that note: retrieval ranks every note about the event alike, and the notes that
planned it ("we might move to X next sprint") or retold it later ("for the record, we moved to X in March")
say the same words. Both answers are still read from the selected context only; what changes is which item:

* ``recorded``: the first item, in retrieval order, of the best tier that has one: (1) a note the store
  records as having superseded another (the judge's SUPERSEDES edges: the note that changed the fact) and
  that does not look ahead; (2) a note that neither looks ahead nor back (:mod:`memlab.text.modality`) and
  that the store does not hold as a duplicate of an earlier note; (3) any item.
* ``mentioned``: the first item whose text mentions a day other than its own (the ``temporal`` strategy
  resolves an expression there: "since yesterday"; a mention of the note's own day, "fixed this morning", says
  no more than its recorded date), else the first item that mentions any date, else the first item.

A summary item speaks through its newest source, as for the other kinds.
"""

from __future__ import annotations

from typing import Any

from memlab.core.types import EdgeType, Memory
from memlab.pipeline.context import QueryContext
from memlab.pipeline.store import MemoryStore
from memlab.pipeline.units import is_summary, sources_of
from memlab.text.modality import prospective, retrospective


def item_memories(store: MemoryStore, context: QueryContext) -> list[Memory]:
    """The memory each context item states, in retrieval order (a summary: its newest source)."""
    out: list[Memory] = []
    for item in context.items:
        unit = item.unit
        if not is_summary(unit):
            out.append(unit)
            continue
        sources = [store.memories[i] for i in sources_of(unit) if i in store.memories]
        if sources:
            out.append(max(sources, key=lambda m: (m.timestamp, m.id)))
    return out


def superseded_something(store: MemoryStore, memory_id: str) -> bool:
    """Whether the store holds a SUPERSEDES edge from ``memory_id`` (it replaced an earlier note)."""
    return any(e.type is EdgeType.SUPERSEDES and e.source == memory_id for e in store.edges_of(memory_id))


def when_memory(store: MemoryStore, context: QueryContext, answer_source: str, temporal: Any) -> Memory | None:
    """The context memory a ``when`` question is answered from (rules in the module docstring)."""
    memories = item_memories(store, context)
    if not memories:
        return None
    if answer_source == "mentioned":
        refs = {m.id: temporal.resolve(m.text, m.timestamp) for m in memories}
        elsewhere = [m for m in memories if any(r.start.date() != m.timestamp.date() for r in refs[m.id])]
        return next(iter(elsewhere), next((m for m in memories if refs[m.id]), memories[0]))
    ahead = {m.id: prospective(m.text) for m in memories}
    changed = [m for m in memories if not ahead[m.id] and superseded_something(store, m.id)]
    if changed:
        return changed[0]
    plain = [
        m for m in memories if not ahead[m.id] and not retrospective(m.text) and store.state(m.id).duplicate_of is None
    ]
    return plain[0] if plain else memories[0]
