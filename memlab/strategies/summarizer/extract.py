"""Shared by the extractive summarizers: quoted lines, superseded facts from judged edges, centrality."""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Mapping, Sequence

from memlab.core.types import Memory, Summary, SummaryDecision, SupersededFact

_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def summary_id(source_ids: Sequence[str]) -> str:
    """Deterministic summary id from the sorted source ids."""
    return "sum_" + hashlib.sha256("\n".join(sorted(source_ids)).encode()).hexdigest()[:12]


def first_sentence(text: str, limit: int = 200) -> str:
    """First sentence of ``text`` (whitespace collapsed), cut to ``limit`` characters."""
    flat = " ".join(text.split())
    return _SENTENCE.split(flat, maxsplit=1)[0][:limit] if flat else ""


def line_of(memory: Memory, limit: int = 200) -> str:
    """The memory's one-line statement: its summary, else the first sentence of its content."""
    return " ".join((memory.summary or first_sentence(memory.content, limit)).split())[:limit]


def superseded_facts(
    memories: Sequence[Memory], superseded: Mapping[str, str] | None
) -> tuple[tuple[SupersededFact, ...], set[str]]:
    """Superseded facts of the cluster from ``superseded`` (memory id -> id of its superseder).

    Only members of the cluster are reported (``source_memory_id`` is always a member). ``superseded_by``
    is the superseder's line when the superseder is in the cluster, else its id (the summarizer knows no
    more about it). Returns the facts in time order of the superseded memory and the superseded ids.
    """
    if not superseded:
        return (), set()
    by_id = {m.id: m for m in memories}
    facts, ids = [], set()
    for m in sorted(memories, key=lambda m: (m.timestamp, m.id)):
        newer = superseded.get(m.id)
        if not newer or newer == m.id:
            continue
        replacement = line_of(by_id[newer]) if newer in by_id else str(newer)
        facts.append(SupersededFact(line_of(m), replacement, m.id))
        ids.add(m.id)
    return tuple(facts), ids


def centrality(memories: Sequence[Memory]) -> list[float]:
    """How much each memory shares with the rest: summed Jaccard overlap of its content tokens with every
    other member's (a TextRank-like degree; the most central items are the ones the group is about).
    """
    from memlab.text.lexical import tokens

    sets = [frozenset(tokens(m.text)) for m in memories]
    out = []
    for i, a in enumerate(sets):
        total = 0.0
        for j, b in enumerate(sets):
            if i != j and (a or b):
                total += len(a & b) / len(a | b)
        out.append(total)
    return out


def dominant_namespace(memories: Sequence[Memory]) -> str:
    """Most frequent namespace (ties by name)."""
    counts = Counter(m.namespace for m in memories)
    return min(counts, key=lambda ns: (-counts[ns], ns))


def cluster_summary(
    ordered: Sequence[Memory],
    text: str,
    facts: Sequence[str],
    decisions: Sequence[SummaryDecision],
    outdated: Sequence[SupersededFact],
) -> Summary:
    """The summary of the cluster ``ordered`` (time order): it cites every member and spans their times."""
    return Summary(
        id=summary_id([m.id for m in ordered]),
        namespace=dominant_namespace(ordered),
        summary=text,
        key_facts=tuple(facts),
        decisions=tuple(decisions),
        superseded_facts=tuple(outdated),
        temporal_start=ordered[0].timestamp,
        temporal_end=ordered[-1].timestamp,
        source_ids=tuple(m.id for m in ordered),
        confidence=1.0,
    )
