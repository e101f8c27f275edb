"""Core value types shared by every strategy, benchmark and the adapter.

All types are frozen dataclasses (or string enums) so that they can be hashed, compared and passed
between phases without defensive copies. Timestamps are timezone-aware ``datetime`` objects (UTC when
the source gives no zone). Field names follow the consolidation seed spec (``MemoryMetadata``,
``MemorySummary``, ``MemoryEdge``, ``TierTransition``, ``ConsolidationResult``), trimmed to what memlab
measures.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import Any

# Defined in a small module of their own so that the SessionStart hook loads only them; part of this API.
from memlab.core.selection_types import TIER_ORDER as TIER_ORDER
from memlab.core.selection_types import InjectionCandidate as InjectionCandidate
from memlab.core.selection_types import SelectionContext as SelectionContext
from memlab.core.selection_types import Tier as Tier

#: The ten git-notes-memory namespaces, in the plugin's order.
NAMESPACES: tuple[str, ...] = (
    "inception",
    "elicitation",
    "research",
    "decisions",
    "progress",
    "blockers",
    "reviews",
    "learnings",
    "retrospective",
    "patterns",
)


class Relation(enum.StrEnum):
    """How a newer memory relates to an older one (the supersession judge's answer).

    DUPLICATE: the same fact restated. SUPERSEDE: the newer replaces the older (the older is no longer
    true). MERGE: the newer adds detail to the same fact (both stay true). COEXIST: unrelated, or related
    but both true in different scopes.
    """

    DUPLICATE = "DUPLICATE"
    SUPERSEDE = "SUPERSEDE"
    MERGE = "MERGE"
    COEXIST = "COEXIST"


class EdgeType(enum.StrEnum):
    """Type of a stored edge between memories or summaries."""

    SUPERSEDES = "supersedes"
    DUPLICATES = "duplicates"
    MERGES = "merges"
    CONSOLIDATES = "consolidates"
    REFERENCES = "references"


#: The edge a judge's relation produces (COEXIST produces none).
RELATION_EDGE: Mapping[Relation, EdgeType] = {
    Relation.SUPERSEDE: EdgeType.SUPERSEDES,
    Relation.DUPLICATE: EdgeType.DUPLICATES,
    Relation.MERGE: EdgeType.MERGES,
}


@dataclass(frozen=True)
class Memory:
    """One captured memory.

    Attributes:
        id: Stable identifier (a content hash in the adapter; the dataset's own id in benchmarks).
        namespace: One of :data:`NAMESPACES` for project memories; free text for other sources
            (LoCoMo turns use ``"dialogue"``).
        timestamp: When the memory was recorded (timezone-aware). Relative expressions in the text are
            anchored here.
        summary: One-line summary (git-notes-memory's front-matter ``summary``).
        content: The body.
        tags: Free tags.
        meta: Extra source fields (speaker, dialogue id, commit, ...). Not part of equality.
    """

    id: str
    namespace: str
    timestamp: datetime
    summary: str
    content: str = ""
    tags: tuple[str, ...] = ()
    meta: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @cached_property
    def text(self) -> str:
        """Summary and content joined, the text strategies embed and judge (computed once per memory)."""
        if self.content and self.content != self.summary:
            return f"{self.summary}\n{self.content}" if self.summary else self.content
        return self.summary or self.content


#: Accesses a :class:`MemoryState` keeps in ``access_times`` (the oldest are dropped first).
MAX_ACCESS_TIMES = 32


@dataclass(frozen=True)
class MemoryState:
    """Mutable-by-replacement consolidation state of a memory (the seed's ``MemoryMetadata``).

    Attributes:
        memory_id: The memory this state belongs to.
        tier: Current tier.
        activation_count: How often recall returned this memory.
        last_accessed: Time of the last recall that returned it (benchmark clock).
        retention: Overall retention score of the last tiering.
        superseded_by: Id of the memory that supersedes this one, if any.
        valid_until: When this memory stopped being true (the superseding memory's timestamp).
        duplicate_of: Id of the memory this one duplicates, if any.
        consolidated_into: Id of the summary that covers this memory, if any.
        access_times: Times of the most recent recalls that returned it (benchmark clock, oldest first;
            at most :data:`MAX_ACCESS_TIMES`), for retention functions that read the access history.
    """

    memory_id: str
    tier: Tier = Tier.HOT
    activation_count: int = 0
    last_accessed: datetime | None = None
    retention: float = 1.0
    superseded_by: str | None = None
    valid_until: datetime | None = None
    duplicate_of: str | None = None
    consolidated_into: str | None = None
    access_times: tuple[datetime, ...] = ()


@dataclass(frozen=True)
class RetentionScore:
    """Retention score with its factor breakdown.

    Attributes:
        overall: Combined score in [0, 1].
        tier: Tier the retention function assigns to ``overall``.
        recency: Time-decay factor in [0, 1].
        activation: Retrieval-frequency factor in [0, 1].
        importance: Namespace weight in [0, 1].
    """

    overall: float
    tier: Tier
    recency: float = 0.0
    activation: float = 0.0
    importance: float = 0.0


@dataclass(frozen=True)
class Verdict:
    """A supersession judge's answer for an (older, newer) pair.

    Attributes:
        relation: The relation of the newer memory to the older one.
        confidence: Confidence in [0, 1].
        reason: Short human-readable justification.
    """

    relation: Relation
    confidence: float = 1.0
    reason: str = ""


@dataclass(frozen=True)
class Edge:
    """A directed edge ``source -> target``.

    For SUPERSEDES/DUPLICATES/MERGES the source is the newer memory and the target the older one;
    for CONSOLIDATES the source is a summary id and the target a memory id.
    """

    source: str
    target: str
    type: EdgeType
    weight: float = 1.0
    reason: str = ""
    created_at: datetime | None = None
    run_id: str | None = None


@dataclass(frozen=True)
class SummaryDecision:
    """A decision extracted into a summary."""

    decision: str
    rationale: str = ""
    outcome: str | None = None


@dataclass(frozen=True)
class SupersededFact:
    """A fact in a summary known to be outdated."""

    original_fact: str
    superseded_by: str
    source_memory_id: str


@dataclass(frozen=True)
class Summary:
    """A consolidated summary of related memories (the seed's ``MemorySummary``).

    Attributes:
        id: Deterministic id (hash of the sorted source ids).
        namespace: Dominant namespace of the sources.
        summary: Summary text.
        key_facts: Facts still valid.
        decisions: Decisions with rationale.
        superseded_facts: Facts known to be outdated.
        temporal_start: Earliest source timestamp.
        temporal_end: Latest source timestamp.
        source_ids: Ids of the summarised memories; never ids that were not given.
        confidence: Confidence in [0, 1].
    """

    id: str
    namespace: str
    summary: str
    key_facts: tuple[str, ...]
    decisions: tuple[SummaryDecision, ...]
    superseded_facts: tuple[SupersededFact, ...]
    temporal_start: datetime
    temporal_end: datetime
    source_ids: tuple[str, ...]
    confidence: float = 1.0


@dataclass(frozen=True)
class TierTransition:
    """A memory's change of tier during a consolidation run."""

    memory_id: str
    from_tier: Tier
    to_tier: Tier
    retention_score: float
    reason: str = ""


@dataclass(frozen=True)
class ConsolidationResult:
    """What one consolidation run did.

    Attributes:
        run_id: Deterministic run id.
        now: The benchmark clock the run used.
        memories_processed: Memories scanned.
        clusters_found: Clusters kept after size filtering.
        summaries_created: Summaries written.
        edges_created: Edges written, by type value; ``withdrawn``: pairs whose earlier verdict the judge withdrew.
        tier_counts: Memories per tier after the run, by tier value.
        transitions: Tier changes.
        phase_seconds: Wall time per phase (scan, cluster, summarize, supersession, tier, persist).
        review: Verdicts held back for review (confidence under the pipeline's threshold).
        errors: Non-fatal problems met on the way.
    """

    run_id: str
    now: datetime
    memories_processed: int
    clusters_found: int
    summaries_created: int
    edges_created: Mapping[str, int]
    tier_counts: Mapping[str, int]
    transitions: tuple[TierTransition, ...] = ()
    phase_seconds: Mapping[str, float] = field(default_factory=dict)
    review: tuple[Mapping[str, Any], ...] = ()
    errors: tuple[str, ...] = ()

    def counts(self) -> dict[str, Any]:
        """The run as plain JSON-ready counts (transitions and review records counted, not listed)."""
        return {
            "run_id": self.run_id,
            "now": self.now.isoformat(),
            "memories_processed": self.memories_processed,
            "clusters_found": self.clusters_found,
            "summaries_created": self.summaries_created,
            "edges_created": dict(self.edges_created),
            "tier_counts": dict(self.tier_counts),
            "transitions": len(self.transitions),
            "phase_seconds": {k: round(v, 4) for k, v in self.phase_seconds.items()},
            "review_queue": len(self.review),
        }


@dataclass(frozen=True)
class TemporalRef:
    """A temporal expression found in text and resolved to a half-open interval.

    Attributes:
        text: The expression as written.
        span: ``(start, end)`` character offsets in the input text.
        start: Interval start (inclusive).
        end: Interval end (exclusive).
        grain: ``second|minute|hour|day|week|month|season|quarter|year|decade``.
        confidence: Confidence in [0, 1] (vague expressions such as "recently" are low).
        kind: ``point`` for a time, ``duration`` for a length of time ("for two weeks"), ``open`` for an
            open interval ("since May"; ``end`` is then the anchor).
    """

    text: str
    span: tuple[int, int]
    start: datetime
    end: datetime
    grain: str
    confidence: float = 1.0
    kind: str = "point"


@dataclass(frozen=True)
class Answer:
    """A reader's answer to a question (:class:`memlab.strategies.reader.base.ReaderBase`).

    Attributes:
        text: The answer ("" when the context holds none).
        unit_ids: Ids of the context units the answer was read from (a subset of the context's ids).
        confidence: Confidence in [0, 1] (0 for no answer).
    """

    text: str
    unit_ids: tuple[str, ...] = ()
    confidence: float = 0.0
