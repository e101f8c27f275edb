"""The steps of a consolidation, from a table: the phases, and the extras a policy turns on.

:data:`STEPS` lists every step in the order it runs. A step names the phase its wall time counts towards (one
of :data:`memlab.pipeline.consolidate.PHASES`, or ``astra`` for Astra's extras, timed apart), when it runs (a
predicate of the pipeline settings) and what it does (a function of the :class:`Run`, which it reads and
extends). :func:`memlab.pipeline.consolidate.consolidate` runs the table and branches on no setting; an
extra is one function and one row here. The extras:

* ``pipeline.mode=online``: the judge runs as each memory arrives (:data:`ARRIVAL_STEPS`, which the episode
  runs: memlab/pipeline/online.py), so the batch judge step is off, and after the tier phase what a DELETE
  archived stays archived (:func:`~memlab.pipeline.online.keep_deleted_archived`);
* ``pipeline.propagate_supersession``: after the batch judge, a supersession spreads to the restatements of
  the fact it replaced (memlab/pipeline/propagate.py);
* ``pipeline.insights``, ``pipeline.identity_anchor``: Astra's insight extraction and identity anchor after
  the tier phase, in Astra's order (memlab/pipeline/insights.py, memlab/pipeline/anchor.py).

An incremental run (``fresh``: the memories new since the last run, the Stop hook's consolidation) runs only
the steps marked ``incremental``: the judge sees the candidate pairs that touch a fresh memory (the same pairs
a full run would give it about them; every pair when the judge reads the store: phase_supersession), online
mode consolidates each fresh memory as it would have arrived, and tiers are scored again; clusters, summaries
and Astra's extras wait for the next full run.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np

from memlab.core.types import TIER_ORDER, ConsolidationResult, EdgeType, Memory, TierTransition
from memlab.pipeline.anchor import update_anchor
from memlab.pipeline.insights import extract_insights
from memlab.pipeline.online import keep_deleted_archived, process_arrival
from memlab.pipeline.phases import phase_cluster, phase_summarize, phase_supersession, phase_tier, run_id_for
from memlab.pipeline.propagate import propagate_supersession
from memlab.pipeline.store import MemoryStore
from memlab.pipeline.vectors import embed_missing
from memlab.wiring.components import Components, PipelineSettings


@dataclass
class Run:
    """One consolidation in progress: what it was given and what its steps have computed so far.

    Attributes:
        store: The store being consolidated (updated in place).
        components: Strategies and pipeline settings.
        now: Benchmark clock; memories after it are invisible to the run.
        full: Re-judge pairs judged in earlier runs.
        fresh: The ids of the memories new since the last run, for an incremental run (``None``: a full run).
        memories: The memories recorded at or before ``now``, in time order (scan).
        matrix: Their vectors, one row each (scan).
        run_id: The run's id (scan).
        clusters: Member lists (cluster).
        edge_counts: Edges the judge added, per type (supersession).
        review: Verdicts held back for review (supersession).
        created: Summaries created (summarize).
        transitions: Tier changes (tier).
        seconds: Wall time per phase (the runner's).
        result: What the run did (persist).
    """

    store: MemoryStore
    components: Components
    now: datetime
    full: bool = False
    fresh: frozenset[str] | None = None
    memories: list[Memory] = field(default_factory=list)
    matrix: np.ndarray | None = None
    run_id: str = ""
    clusters: list[list[Memory]] = field(default_factory=list)
    edge_counts: Counter = field(default_factory=Counter)
    review: list[dict] = field(default_factory=list)
    created: int = 0
    transitions: list[TierTransition] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)
    result: ConsolidationResult | None = None


@dataclass(frozen=True)
class Step:
    """One row of :data:`STEPS`: the phase it is timed under, when it runs, what it does, and whether an
    incremental run runs it.
    """

    phase: str
    when: Callable[[PipelineSettings], bool]
    run: Callable[[Run], None]
    incremental: bool = True


def always(settings: PipelineSettings) -> bool:
    """Every policy runs the step."""
    return True


def batch_mode(settings: PipelineSettings) -> bool:
    """The judge runs inside each consolidation (``pipeline.mode=batch``)."""
    return settings.mode != "online"


def online_mode(settings: PipelineSettings) -> bool:
    """The judge runs as each memory arrives (``pipeline.mode=online``)."""
    return settings.mode == "online"


def propagating(settings: PipelineSettings) -> bool:
    """The batch judge's supersessions spread across restatements (``pipeline.propagate_supersession``)."""
    return batch_mode(settings) and settings.propagate_supersession


def scan(run: Run) -> None:
    """The memories visible at ``now``, their vectors and the run's id."""
    run.memories = run.store.ordered(until=run.now)
    run.matrix = embed_missing(run.store, run.components, run.memories)
    run.run_id = run_id_for(run.store, run.now, run.memories)


def cluster(run: Run) -> None:
    """The clusterer's groups of the visible memories."""
    run.clusters = phase_cluster(run.store, run.components, run.memories, run.matrix)


def judge(run: Run) -> None:
    """The batch judge over candidate pairs: edges and the review queue."""
    run.edge_counts, run.review = phase_supersession(
        run.store, run.components, run.memories, run.matrix, run.run_id, full=run.full, fresh=run.fresh
    )


def arrive(run: Run) -> None:
    """Online mode, incremental run: each fresh memory consolidated as it arrives, in time order."""
    for memory in run.memories:
        if run.fresh is not None and memory.id in run.fresh:
            process_arrival(run.store, run.components, memory)


def propagate(run: Run) -> None:
    """Supersession spread to every earlier restatement of a replaced fact."""
    run.edge_counts[EdgeType.SUPERSEDES.value] += propagate_supersession(run.store, run.run_id)


def summarize(run: Run) -> None:
    """One summary per cluster; summaries of clusters this run does not reproduce are retired."""
    run.created = phase_summarize(run.store, run.components, run.clusters, run.run_id, run.now)


def tier(run: Run) -> None:
    """Retention scores and tiers of the visible memories."""
    run.transitions = phase_tier(run.store, run.components, run.memories, run.now)


def keep_deleted(run: Run) -> None:
    """Online mode: what a DELETE archived goes back to ARCHIVED (its transitions are dropped)."""
    run.transitions = keep_deleted_archived(run.store, run.transitions)


def insights(run: Run) -> None:
    """Astra's insight extraction over the narratives of the lookback window."""
    extract_insights(run.store, run.components, run.now, run.run_id)


def anchor(run: Run) -> None:
    """Astra's identity anchor: fold in the new narratives and log the drift."""
    update_anchor(run.store, run.components, run.now, run.run_id)


def persist(run: Run) -> None:
    """The run's record, appended to the store's runs; held-back verdicts join the review queue."""
    tier_counts = Counter(run.store.state(m.id).tier.value for m in run.memories)
    run.result = ConsolidationResult(
        run_id=run.run_id,
        now=run.now,
        memories_processed=len(run.memories),
        clusters_found=len(run.clusters),
        summaries_created=run.created,
        edges_created=dict(run.edge_counts),
        tier_counts={t.value: tier_counts.get(t.value, 0) for t in TIER_ORDER},
        transitions=tuple(run.transitions),
        phase_seconds=run.seconds,
        review=tuple(run.review),
    )
    run.store.runs.append(run.result)
    run.store.review_queue.extend(run.review)


#: Every step of a consolidation, in the order they run.
STEPS: tuple[Step, ...] = (
    Step("scan", always, scan),
    Step("cluster", always, cluster, incremental=False),
    Step("supersession", batch_mode, judge),
    Step("supersession", online_mode, arrive),
    Step("supersession", propagating, propagate),
    Step("summarize", always, summarize, incremental=False),
    Step("tier", always, tier),
    Step("tier", online_mode, keep_deleted),
    Step("astra", lambda settings: settings.insights, insights, incremental=False),
    Step("astra", lambda settings: settings.identity_anchor, anchor, incremental=False),
    Step("persist", always, persist),
)


@dataclass(frozen=True)
class ArrivalStep:
    """One row of :data:`ARRIVAL_STEPS`: the episode's timing key, when it runs, and what it does."""

    phase: str
    when: Callable[[PipelineSettings], bool]
    run: Callable[[MemoryStore, Components, Memory], object]


#: What runs as each memory arrives, before the scheduled consolidations (the episode runs these).
ARRIVAL_STEPS: tuple[ArrivalStep, ...] = (ArrivalStep("online", online_mode, process_arrival),)
