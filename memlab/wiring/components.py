"""The bundle of built strategies a benchmark or the adapter runs with."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from memlab.core.selection_types import DEFAULT_BUDGET_TOKENS

if TYPE_CHECKING:
    from memlab.embed.base import EmbedderBase
    from memlab.strategies.admission.base import AdmissionBase
    from memlab.strategies.clusterer.base import ClustererBase
    from memlab.strategies.judge.base import JudgeBase
    from memlab.strategies.reader.base import ReaderBase
    from memlab.strategies.retention.base import RetentionBase
    from memlab.strategies.retriever.base import RetrieverBase
    from memlab.strategies.selector.base import SelectorBase
    from memlab.strategies.summarizer.base import SummarizerBase
    from memlab.strategies.temporal.base import TemporalBase

#: Values of ``pipeline.schedule``.
SCHEDULES: tuple[str, ...] = ("session", "every_n", "end")
#: Values of ``pipeline.mode``.
MODES: tuple[str, ...] = ("batch", "online")


@dataclass(frozen=True)
class OnlineSettings:
    """Knobs of online mode (MycelicMemory's flow, memlab/pipeline/online.py).

    Attributes:
        mode: ``batch`` — the judge runs inside each scheduled consolidation over k-NN pairs; ``online`` — each
            arriving memory is judged at once against its nearest current memories and turned into an audited
            operation; the scheduled consolidations then run every phase except the judge.
        online_min_similarity: Only memories with cosine similarity above this are judged.
        online_top_k: At most this many nearest memories are judged.
        online_judge_all: Judge every candidate (``False``: stop at the first verdict that is applied, as
            MycelicMemory's consolidator returns after the first classified candidate).
        online_archive_superseded: A supersession also archives the older memory (a DELETE operation;
            MycelicMemory's state machine archives on supersede).
    """

    mode: str = "batch"
    online_min_similarity: float = 0.85
    online_top_k: int = 5
    online_judge_all: bool = False
    online_archive_superseded: bool = False


@dataclass(frozen=True)
class AstraSettings:
    """Knobs of Astra's extras after each consolidation (memlab/pipeline/insights.py, anchor.py); off by default.

    Attributes:
        insights: Cluster the last ``insight_lookback_days`` of summaries (narratives) into patterns (Astra's
            insight extractor).
        insight_lookback_days: Narratives this recent (by their end) are clustered (Astra: 7).
        insight_min_cluster_size: Smallest cluster that is a pattern (Astra: 3).
        insight_similarity: Cosine similarity at which narrative clusters stop merging (average linkage).
        identity_anchor: Move the identity anchor towards the new narratives and log its drift from the origin
            (Astra's temporal anchor).
        anchor_weight_new: Weight of the new narratives' embedding in the anchor update (Astra: 0.1).
        anchor_drift_warning: Drift from the origin that logs a warning (Astra: 0.2).
        anchor_drift_critical: Drift from the origin that logs a critical warning (Astra: 0.4).
        anchor_dissonance: Drift from the origin above which a dissonance check runs (Astra's implementation:
            0.3; ``None``: never): memlab/pipeline/anchor.py, :func:`~memlab.pipeline.anchor.dissonance_check`.
    """

    insights: bool = False
    insight_lookback_days: float = 7.0
    insight_min_cluster_size: int = 3
    insight_similarity: float = 0.85
    identity_anchor: bool = False
    anchor_weight_new: float = 0.1
    anchor_drift_warning: float = 0.2
    anchor_drift_critical: float = 0.4
    anchor_dissonance: float | None = None


@dataclass(frozen=True)
class PipelineSettings(AstraSettings, OnlineSettings):
    """Knobs of the consolidation pipeline that are not strategies (``pipeline.*``): the core ones below, plus
    online mode's (:class:`OnlineSettings`) and Astra's extras' (:class:`AstraSettings`).

    The parts are classes of their own, each knob and its default written once there (``conf/config.yaml``
    composes the defaults from here, :func:`memlab.wiring.conf_resolvers.register`), and the keys stay flat
    (``pipeline.online_top_k``) so that every command and every exported hook spec keeps working.

    Attributes:
        knn_k: Candidate pairs for the judge come from each memory's ``knn_k`` nearest neighbours
            (never all pairs).
        knn_k_namespace: Further candidate pairs from each memory's ``knn_k_namespace`` nearest neighbours
            within its own namespace (0: none).
        knn_k_summary: Further candidate pairs from each memory's ``knn_k_summary`` nearest neighbours by the
            embedding of its summary alone (0: none): for long records (decision records) whose titles name the
            topic that their long texts dilute; the pair's similarity hint stays the whole texts' cosine.
        knn_k_subject: Further candidate pairs from each memory's ``knn_k_subject`` nearest neighbours among
            the memories naming the same subject (memlab/pipeline/subject_candidates.py; 0: none): a
            candidate source whose reach does not fall as the store grows.
        incremental: Keep the subject candidates' neighbour lists on the store between runs and search only
            the memories new since the last run (memlab/embed/knn_blocks.py): a run over a consolidated store
            costs what its new memories cost. The other candidate sources still search every memory.
        knn_k_blockers: Further candidate pairs from each memory of namespace ``blockers`` and its
            ``knn_k_blockers`` nearest records recorded after it, in any namespace: the record that reports the
            blocker fixed (memlab/pipeline/candidates.py, :func:`~memlab.pipeline.candidates.later_pairs`; 0: none).
        knn_k_slot: Further candidate pairs from each memory's ``knn_k_slot`` best memories by slot score:
            attribute phrases that mean the same thing, one subject (memlab/pipeline/slot_candidates.py;
            0: none). Not filtered by ``min_pair_similarity``.
        knn_slot_review: A verdict other than COEXIST on a pair that only the slot source found goes to the
            review queue (it can keep a contested fact out of the block, never end a memory's validity).
        knn_slot_min_confidence: With ``knn_slot_review``, verdicts on slot-only pairs below this confidence
            are dropped (neither edge nor review record).
        min_pair_similarity: Neighbours below this cosine similarity are not judged.
        recall_limit: Results returned by recall.
        recall_mode: Default recall mode (reflexive, standard, deep, exhaustive).
        budget_tokens: Token budget of the SessionStart block.
        summary_details: A summary in the block also lists its key facts, decisions and superseded facts, one
            indented line each (memlab/pipeline/inject.py, :func:`~memlab.pipeline.inject.summary_candidate`).
        min_judge_confidence: Verdicts below this confidence create no edge (they go to the review
            queue instead).
        review_at_threshold: A verdict at exactly ``min_judge_confidence`` goes to review too (MycelicMemory
            applies a verdict above 0.8 and flags one at or below it); off: it applies.
        exact_dedup: Before the judge, mark memories with identical (whitespace-normalised) text
            DUPLICATE of their earliest copy and judge only first copies (kNN ties cannot reach every
            copy of a text repeated more than ``knn_k`` times).
        propagate_supersession: After the judge, a memory superseded by ``n`` passes that on to the earlier
            members of its DUPLICATES/MERGES group (memlab/pipeline/propagate.py).
        schedule: When an episode consolidates (memlab/pipeline/episode.py): ``session`` — when a session
            ends (a memory's ``meta["session"]``, else its calendar day) and before each query, as the
            git-notes hook does after a session stops; ``every_n`` — after every ``schedule_every`` new
            memories; ``end`` — once, after the last memory (a first consolidation of an existing store).
        schedule_every: Memories between consolidations with ``schedule: every_n``.
        recall_summaries: Cluster summaries are recall units of their own (citing their sources).
        track_recall: Queries count as accesses (activation count, access times). Off by default:
            benchmark queries are probes that should not change the store they measure.
    """

    knn_k: int = 8
    knn_k_namespace: int = 0
    knn_k_summary: int = 0
    knn_k_subject: int = 0
    incremental: bool = False
    knn_k_blockers: int = 0
    knn_k_slot: int = 0
    knn_slot_review: bool = True
    knn_slot_min_confidence: float = 0.0
    min_pair_similarity: float = 0.3
    recall_limit: int = 10
    recall_mode: str = "standard"
    budget_tokens: int = DEFAULT_BUDGET_TOKENS
    summary_details: bool = False
    min_judge_confidence: float = 0.0
    review_at_threshold: bool = False
    exact_dedup: bool = True
    propagate_supersession: bool = False
    schedule: str = "session"
    schedule_every: int = 50
    recall_summaries: bool = True
    track_recall: bool = False

    def held(self, confidence: float) -> bool:
        """Whether a verdict of this confidence (other than COEXIST) goes to review instead of applying."""
        gate = self.min_judge_confidence
        return confidence < gate or (self.review_at_threshold and confidence <= gate)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any] | None) -> PipelineSettings:
        """Build from a config mapping; an unknown key is an error, not ignored (typos must fail)."""
        from memlab.core.errors import MemlabError

        data = dict(data or {})
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(data) - known)
        if unknown:
            raise MemlabError(
                f"unknown pipeline setting(s) {unknown}; valid: {sorted(known)} "
                "(fix the pipeline.* override; the settings: memlab/wiring/components.py)"
            )
        settings = cls(**data)
        choices = {"schedule": (SCHEDULES, "memlab/pipeline/episode.py"), "mode": (MODES, "memlab/pipeline/online.py")}
        for name, (valid, where) in choices.items():
            if getattr(settings, name) not in valid:
                value = getattr(settings, name)
                raise MemlabError(f"unknown pipeline.{name} '{value}'; valid: {', '.join(valid)} ({where})")
        ranges = {
            "online_top_k": (settings.online_top_k, 1, None),
            "insight_min_cluster_size": (settings.insight_min_cluster_size, 1, None),
            "insight_lookback_days": (settings.insight_lookback_days, 0.0, None),
            "anchor_weight_new": (settings.anchor_weight_new, 0.0, 1.0),
        }
        for name, (value, lo, hi) in ranges.items():
            if value < lo or (hi is not None and value > hi):
                bound = f"in [{lo}, {hi}]" if hi is not None else f">= {lo}"
                raise MemlabError(f"pipeline.{name} must be {bound}, got {value} (fix the pipeline.{name} override)")
        return settings


@dataclass(frozen=True)
class Components:
    """Built strategies (one per kind) plus pipeline settings and the raw LLM config."""

    embedder: EmbedderBase
    retention: RetentionBase
    clusterer: ClustererBase
    summarizer: SummarizerBase
    judge: JudgeBase
    temporal: TemporalBase
    selector: SelectorBase
    retriever: RetrieverBase
    #: ``None`` (a policy built by hand, without a reader) reads like ``reader=none``.
    reader: ReaderBase | None = None
    #: ``None`` (a policy built by hand, without admission) reads like ``admission=none``: every record may enter.
    admission: AdmissionBase | None = None
    settings: PipelineSettings = field(default_factory=PipelineSettings)
    llm: Mapping[str, Any] = field(default_factory=dict)
