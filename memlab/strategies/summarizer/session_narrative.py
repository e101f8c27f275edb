"""Astra's session narrative without an LLM: what happened, key interactions, unresolved threads."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import ClassVar

from memlab.core.types import Memory, Summary, SummaryDecision
from memlab.strategies.summarizer.base import SummarizerBase
from memlab.strategies.summarizer.extract import (
    centrality,
    cluster_summary,
    line_of,
    superseded_facts,
)

_QUESTION = re.compile(r"\?\s*(?:\[|$)")
#: Namespaces whose items are open by nature (a blocker is an unresolved thread until superseded).
OPEN_NAMESPACES: tuple[str, ...] = ("blockers",)


class SessionNarrativeSummarizer(SummarizerBase):
    """One narrative per session (Astra's Session Consolidator), extractive.

    The cluster is the session: pair this with ``clusterer=time_window clusterer.mode=gap`` (sessions end
    after 30 minutes of inactivity, as in Astra) so that each cluster is one session; every member is a
    parent of the narrative (``source_ids`` = the session's items; the pipeline marks them consolidated).

    Astra's four parts, rendered into the :class:`~memlab.core.types.Summary` fields:

    * **session summary** (``summary``): ``Session <start>..<end>, <n> items[ (<namespaces/speakers>)]:
      began "<first item>" … ended "<last item>".`` plus the number of unresolved threads;
    * **key interactions** (``key_facts``, prefixed ``Key interaction:``): the ``max_interactions`` most
      central items (summed token overlap with the rest of the session; ties newest first), in time order;
    * **unresolved threads** (``key_facts``, prefixed ``Unresolved:``): questions (an item whose text ends
      in ``?``) among the last ``open_tail`` fraction of the session, and items of ``OPEN_NAMESPACES``
      (blockers) that are not superseded — at most ``max_unresolved``, newest first;
    * **emotional arc**: *not rendered*. Astra derives it from each experience's valence; memlab's
      memories carry none and an extractive summary cannot judge tone. This is what the non-LLM version
      cannot do (with an LLM, ``summarizer=dspy`` writes free-form summaries; it has no arc field either).

    ``decisions`` are the session's ``decisions``-namespace items; ``superseded_facts`` come from the
    optional ``superseded`` mapping (see :class:`~.base.SummarizerBase`). Confidence 1.0 (quoted).

    Args:
        max_interactions: Key interactions kept.
        max_unresolved: Unresolved threads kept.
        open_tail: Fraction of the session (its end) in which a question counts as unresolved.
        max_chars: Longest quoted line.
    """

    name: ClassVar[str] = "session_narrative"
    version: ClassVar[int] = 1

    def __init__(
        self, max_interactions: int = 5, max_unresolved: int = 3, open_tail: float = 0.5, max_chars: int = 200
    ) -> None:
        self.max_interactions = max_interactions
        self.max_unresolved = max_unresolved
        self.open_tail = open_tail
        self.max_chars = max_chars

    def key_interactions(self, ordered: Sequence[Memory]) -> list[Memory]:
        """The most central items (ties: newer first, then id), returned in time order."""
        scores = centrality(ordered)
        ranked = sorted(range(len(ordered)), key=lambda i: (-scores[i], -i))[: self.max_interactions]
        return [ordered[i] for i in sorted(ranked)]

    def unresolved(self, ordered: Sequence[Memory], outdated: set[str]) -> list[Memory]:
        """Late questions and open-namespace items that are not superseded, newest first."""
        tail_start = int(len(ordered) * (1.0 - self.open_tail))
        found = [
            m
            for i, m in enumerate(ordered)
            if m.id not in outdated
            and ((i >= tail_start and _QUESTION.search(m.text.strip())) or m.namespace in OPEN_NAMESPACES)
        ]
        return list(reversed(found))[: self.max_unresolved]

    def summarize(self, memories: Sequence[Memory], *, superseded: Mapping[str, str] | None = None) -> Summary | None:
        """The session's narrative (any order in, same narrative out)."""
        if not memories:
            return None
        ordered = sorted(memories, key=lambda m: (m.timestamp, m.id))
        outdated, outdated_ids = superseded_facts(ordered, superseded)
        start, end = ordered[0].timestamp, ordered[-1].timestamp
        voices = sorted({str(m.meta.get("speaker")) for m in ordered if m.meta and m.meta.get("speaker")})
        who = voices or sorted({m.namespace for m in ordered})
        open_threads = self.unresolved(ordered, outdated_ids)
        first, last = line_of(ordered[0], self.max_chars), line_of(ordered[-1], self.max_chars)
        text = (
            f"Session {start.date()}..{end.date()}, {len(ordered)} items ({', '.join(who)}): "
            f'began "{first}"' + (f' … ended "{last}"' if len(ordered) > 1 else "") + "."
        )
        if open_threads:
            text += f" {len(open_threads)} unresolved thread(s)."
        facts = [f"Key interaction: {line_of(m, self.max_chars)}" for m in self.key_interactions(ordered)]
        facts += [f"Unresolved: {line_of(m, self.max_chars)}" for m in open_threads]
        decisions = tuple(
            SummaryDecision(line_of(m, self.max_chars))
            for m in ordered
            if m.namespace == "decisions" and m.id not in outdated_ids
        )
        return cluster_summary(ordered, text, facts, decisions, outdated)
