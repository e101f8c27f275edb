"""Extractive summary of a cluster, with the seed's ``MemorySummary`` fields and no LLM."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from memlab.core.types import Memory, Summary, SummaryDecision
from memlab.strategies.summarizer.base import SummarizerBase
from memlab.strategies.summarizer.extract import (
    cluster_summary,
    first_sentence,
    line_of,
    summary_id,
    superseded_facts,
)

__all__ = ["ExtractiveSummarizer", "first_sentence", "summary_id"]


class ExtractiveSummarizer(SummarizerBase):
    """Quote the cluster instead of paraphrasing it.

    ``summary`` is the newest current member's summary line with the member count and date span;
    ``key_facts`` are the distinct summary lines of the current members, newest first; ``decisions`` are
    the current members from the ``decisions`` namespace (rationale: the first sentence of their content);
    ``superseded_facts`` come from the optional ``superseded`` mapping (memory id -> id of its superseder,
    from the judged SUPERSEDE edges; see :class:`~.base.SummarizerBase`): each superseded member
    becomes a fact ``original_fact → superseded_by`` (the superseder's line when it is in the cluster,
    else its id) and leaves the key facts and decisions. "Current" = not superseded; without the mapping
    every member is current. Confidence is 1.0: every sentence is quoted from a cited source.

    Args:
        max_facts: Key facts kept.
        max_decisions: Decisions kept.
    """

    name: ClassVar[str] = "extractive"
    version: ClassVar[int] = 2

    def __init__(self, max_facts: int = 5, max_decisions: int = 3) -> None:
        self.max_facts = max_facts
        self.max_decisions = max_decisions

    def summarize(self, memories: Sequence[Memory], *, superseded: Mapping[str, str] | None = None) -> Summary | None:
        """Summarise one cluster (any order in, same summary out)."""
        if not memories:
            return None
        ordered = sorted(memories, key=lambda m: (m.timestamp, m.id))
        outdated, outdated_ids = superseded_facts(ordered, superseded)
        current = [m for m in reversed(ordered) if m.id not in outdated_ids] or list(reversed(ordered))
        facts: list[str] = []
        for m in current:
            line = line_of(m)
            if line and line not in facts:
                facts.append(line)
            if len(facts) >= self.max_facts:
                break
        decisions = tuple(
            SummaryDecision(" ".join(m.summary.split()), first_sentence(m.content))
            for m in current
            if m.namespace == "decisions" and m.id not in outdated_ids
        )[: self.max_decisions]
        start, end = ordered[0].timestamp, ordered[-1].timestamp
        lead = facts[0] if facts else ""
        text = f"{lead} ({len(ordered)} related memories, {start.date()} to {end.date()})"
        return cluster_summary(ordered, text, facts, decisions, outdated)
