"""squidbot's running memory document without an LLM: a dated section of quoted lines per archived chunk."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from memlab.core.types import Memory, Summary
from memlab.strategies.summarizer.base import SummarizerBase
from memlab.strategies.summarizer.extract import (
    dominant_namespace,
    line_of,
    summary_id,
    superseded_facts,
)


class RunningDocumentSummarizer(SummarizerBase):
    """The text squidbot appends to its ``memory.md`` when messages leave the context window
    (Athemis/squidbot's consolidation design: append, never overwrite; the raw log is never modified).

    The cluster is the archived chunk (with ``retention=sliding_window`` everything but the newest 20
    messages once more than 100 exist; pair it with the clusterer of squidbot's archived chunks,
    ``clusterer=time_window clusterer.mode=archive``, so that every archived message is in a section).
    ``summary`` is one Markdown section meant to be appended as is::

        ## <start> .. <end> (<n> messages)
        - <line>
        - <line>

    with one line per distinct statement in time order: **every** archived message keeps its line (squidbot's
    point is that the agent retains the content of old exchanges), so the section is bounded by size, not by a
    count of lines: each line is cut to ``max_chars`` and, when the lines would pass ``max_section_chars``, to
    an equal share of it (never below ``min_line_chars``, so a very long chunk may pass the bound rather than
    lose a message). A chunk that spans more than one day dates each line (``[YYYY-MM-DD] ...``): the day a
    message was said is part of its content, and the heading alone gives only the chunk's range. Superseded
    statements (optional ``superseded`` mapping, see :class:`~.base.SummarizerBase`) are written as
    ``~~old~~ → new`` so that an
    appended document never states an outdated fact as current. ``key_facts`` are the lines.

    The running document itself is the concatenation of these sections in time order (the pipeline's or
    the adapter's job); squidbot's LLM rewrites the chunk in its own words and can merge facts across
    messages, which quoting cannot.

    Args:
        max_chars: Longest line.
        max_section_chars: Size of a section's lines together, shared equally when they would pass it.
        min_line_chars: Shortest cut of a line.
    """

    name: ClassVar[str] = "running_document"
    version: ClassVar[int] = 2

    def __init__(self, max_chars: int = 200, max_section_chars: int = 12000, min_line_chars: int = 60) -> None:
        self.max_chars = max_chars
        self.max_section_chars = max_section_chars
        self.min_line_chars = min_line_chars

    def summarize(self, memories: Sequence[Memory], *, superseded: Mapping[str, str] | None = None) -> Summary | None:
        """One appendable section for the chunk (any order in, same section out)."""
        if not memories:
            return None
        ordered = sorted(memories, key=lambda m: (m.timestamp, m.id))
        outdated, outdated_ids = superseded_facts(ordered, superseded)
        replaced = {f.source_memory_id: f.superseded_by for f in outdated}
        start, end = ordered[0].timestamp, ordered[-1].timestamp
        dated = start.date() != end.date()
        first: dict[str, Memory] = {}  # each distinct statement at its first message
        for m in ordered:
            first.setdefault(line_of(m, self.max_chars), m)
        distinct = [m for line, m in first.items() if line]
        share = self.max_section_chars // max(1, len(distinct))
        limit = max(self.min_line_chars, min(self.max_chars, share))
        lines = []
        for m in distinct:
            line = line_of(m, limit)
            line = f"~~{line}~~ → {replaced[m.id]}" if m.id in outdated_ids else line
            lines.append(f"[{m.timestamp.date()}] {line}" if dated else line)
        head = f"## {start.date()} .. {end.date()} ({len(ordered)} messages)"
        return Summary(
            id=summary_id([m.id for m in ordered]),
            namespace=dominant_namespace(ordered),
            summary="\n".join([head, *(f"- {line}" for line in lines)]),
            key_facts=tuple(lines),
            decisions=(),
            superseded_facts=outdated,
            temporal_start=start,
            temporal_end=end,
            source_ids=tuple(m.id for m in ordered),
            confidence=1.0,
        )
