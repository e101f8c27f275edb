"""squidbot's running memory document without an LLM: a dated section of quoted lines per archived chunk."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from memlab.strategies.summarizer.base import SummarizerBase
from memlab.strategies.summarizer.extract import (
    centrality,
    dominant_namespace,
    line_of,
    summary_id,
    superseded_facts,
)
from memlab.types import Memory, Summary


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

    with one line per distinct statement in time order; when there are more than ``max_lines``, the most
    central ones (summed token overlap with the rest of the chunk; ties newer first) are kept, still in
    time order; each line is cut to ``max_chars``. Superseded statements (optional ``superseded``
    mapping, see :class:`~.base.SummarizerBase`) are written as ``~~old~~ → new`` so that an
    appended document never states an outdated fact as current. ``key_facts`` are the lines.

    The running document itself is the concatenation of these sections in time order (the pipeline's or
    the adapter's job); squidbot's LLM rewrites the chunk in its own words and can merge facts across
    messages, which quoting cannot.

    Args:
        max_lines: Lines per section.
        max_chars: Longest line.
    """

    name: ClassVar[str] = "running_document"
    version: ClassVar[int] = 1

    def __init__(self, max_lines: int = 20, max_chars: int = 200) -> None:
        self.max_lines = max_lines
        self.max_chars = max_chars

    def summarize(self, memories: Sequence[Memory], *, superseded: Mapping[str, str] | None = None) -> Summary | None:
        """One appendable section for the chunk (any order in, same section out)."""
        if not memories:
            return None
        ordered = sorted(memories, key=lambda m: (m.timestamp, m.id))
        outdated, outdated_ids = superseded_facts(ordered, superseded)
        replaced = {f.source_memory_id: f.superseded_by for f in outdated}
        distinct: list[int] = []
        seen: set[str] = set()
        for i, m in enumerate(ordered):
            line = line_of(m, self.max_chars)
            if line and line not in seen:
                seen.add(line)
                distinct.append(i)
        if len(distinct) > self.max_lines:
            scores = centrality([ordered[i] for i in distinct])
            keep = sorted(range(len(distinct)), key=lambda k: (-scores[k], -k))[: self.max_lines]
            distinct = [distinct[k] for k in sorted(keep)]
        lines = []
        for i in distinct:
            m = ordered[i]
            line = line_of(m, self.max_chars)
            lines.append(f"~~{line}~~ → {replaced[m.id]}" if m.id in outdated_ids else line)
        start, end = ordered[0].timestamp, ordered[-1].timestamp
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
