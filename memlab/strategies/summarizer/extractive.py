"""Extractive summary of a cluster, with the seed's ``MemorySummary`` fields and no LLM."""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Sequence
from typing import ClassVar

from memlab.types import Memory, Summary, SummaryDecision

_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def summary_id(source_ids: Sequence[str]) -> str:
    """Deterministic summary id from the sorted source ids."""
    return "sum_" + hashlib.sha256("\n".join(sorted(source_ids)).encode()).hexdigest()[:12]


def first_sentence(text: str, limit: int = 200) -> str:
    """First sentence of ``text`` (whitespace collapsed), cut to ``limit`` characters."""
    flat = " ".join(text.split())
    return _SENTENCE.split(flat, maxsplit=1)[0][:limit] if flat else ""


class ExtractiveSummarizer:
    """Quote the cluster instead of paraphrasing it.

    ``summary`` is the newest member's summary line with the member count and date span; ``key_facts`` are
    the distinct summary lines, newest first; ``decisions`` are the members from the ``decisions``
    namespace (rationale: the first sentence of their content); ``superseded_facts`` stays empty (the
    supersession phase, not the summarizer, knows what is outdated). Confidence is 1.0: every sentence is
    quoted from a cited source.

    Args:
        max_facts: Key facts kept.
        max_decisions: Decisions kept.
    """

    name: ClassVar[str] = "extractive"
    version: ClassVar[int] = 1

    def __init__(self, max_facts: int = 5, max_decisions: int = 3) -> None:
        self.max_facts = max_facts
        self.max_decisions = max_decisions

    def summarize(self, memories: Sequence[Memory]) -> Summary | None:
        """Summarise one cluster (any order in, same summary out)."""
        if not memories:
            return None
        ordered = sorted(memories, key=lambda m: (m.timestamp, m.id))
        newest_first = list(reversed(ordered))
        counts = Counter(m.namespace for m in ordered)
        namespace = min(counts, key=lambda ns: (-counts[ns], ns))
        facts: list[str] = []
        for m in newest_first:
            line = " ".join((m.summary or first_sentence(m.content)).split())
            if line and line not in facts:
                facts.append(line)
            if len(facts) >= self.max_facts:
                break
        decisions = tuple(
            SummaryDecision(" ".join(m.summary.split()), first_sentence(m.content))
            for m in newest_first
            if m.namespace == "decisions"
        )[: self.max_decisions]
        start, end = ordered[0].timestamp, ordered[-1].timestamp
        lead = facts[0] if facts else ""
        text = f"{lead} ({len(ordered)} related memories, {start.date()} to {end.date()})"
        return Summary(
            id=summary_id([m.id for m in ordered]),
            namespace=namespace,
            summary=text,
            key_facts=tuple(facts),
            decisions=decisions,
            superseded_facts=(),
            temporal_start=start,
            temporal_end=end,
            source_ids=tuple(m.id for m in ordered),
            confidence=1.0,
        )
