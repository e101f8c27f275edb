"""Recall units: a memory, or a cluster summary standing in for its sources.

A summary becomes a unit of its own (``meta["kind"] == "summary"``, ``meta["sources"]``: the memories it cites)
for recall (memlab/pipeline/recall.py), the selector (memlab/pipeline/context.py) and Astra's extras, which embed
a summary as its unit's text (memlab/pipeline/insights.py, memlab/pipeline/anchor.py).
"""

from __future__ import annotations

from memlab.core.types import Memory, Summary

#: ``meta["kind"]`` of a summary unit.
SUMMARY_KIND = "summary"


def is_summary(unit: Memory) -> bool:
    """Whether a unit stands for a cluster summary."""
    return unit.meta.get("kind") == SUMMARY_KIND


def sources_of(unit: Memory) -> tuple[str, ...]:
    """The memory ids a unit speaks for: its own id, or a summary's sources."""
    return tuple(unit.meta.get("sources", ())) if is_summary(unit) else (unit.id,)


def summary_unit(summary: Summary) -> Memory:
    """A summary as a retrievable unit: its text and key facts, stamped with its newest source's time."""
    facts = "\n".join(f for f in summary.key_facts if f and f not in summary.summary)
    return Memory(
        id=summary.id,
        namespace=summary.namespace,
        timestamp=summary.temporal_end,
        summary=summary.summary,
        content=facts,
        meta={"kind": SUMMARY_KIND, "sources": tuple(summary.source_ids), "start": summary.temporal_start},
    )
