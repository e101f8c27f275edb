"""The episode runner: the one loop every history-like benchmark runs through the whole policy.

An episode is a stream of memories and the queries asked along the way. Memories arrive in time order
(ties by id); consolidation runs on the policy's schedule (``pipeline.schedule``), as the git-notes hook
does in production:

* ``session`` — when a session ends (the next memory belongs to another session: ``meta["session"]``, else
  the calendar day) and before a query (a query opens a session); the hook consolidates after a session
  stops, so the next session starts from a consolidated store;
* ``every_n`` — after every ``pipeline.schedule_every`` new memories;
* ``end`` — once, when the last memory has arrived (a first consolidation of an existing store).

Whatever the schedule, the episode ends with a consolidation of anything still pending, so the final
SessionStart block reflects every memory. A consolidation runs at the time of the newest memory it sees.

Each query is asked at its own time ``at``: it sees only the memories recorded by then and the store as
the last consolidation left it; it goes through recall (mode, tiers, validity, the retriever; ``as_of``
restricts it to what was valid at that time) and the selector's token budget; the benchmark's answerer
reads only the selected context. Latency is timed here, once, per phase: the consolidation phases summed
over runs, plus ``ingest``, ``recall``, ``select``, ``answer`` and ``inject`` (and ``online`` with
``pipeline.mode=online``, where each memory is judged as it arrives: the arrival steps of
memlab/pipeline/steps.py, memlab/pipeline/online.py).
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from memlab.core.types import ConsolidationResult, Memory
from memlab.observability.trace import span
from memlab.pipeline.consolidate import PHASES, consolidate
from memlab.pipeline.context import QueryContext, select_context
from memlab.pipeline.inject import InjectedBlock, render, store_block
from memlab.pipeline.recall import recall_many
from memlab.pipeline.steps import ARRIVAL_STEPS
from memlab.pipeline.store import MemoryStore
from memlab.wiring.components import Components

#: Phases timed by the runner besides the consolidation phases.
QUERY_PHASES: tuple[str, ...] = ("ingest", "recall", "select", "answer", "inject")


@dataclass(frozen=True)
class Query:
    """A question asked during an episode.

    Attributes:
        id: Identifier (unique within the episode).
        text: The question.
        at: When it is asked (the benchmark clock); it sees only what existed then.
        as_of: Ask about this earlier time (only memories valid then are eligible, and only the doubts raised by
            then, contested SUPERSEDE verdicts in the review queue, lower a memory's confidence); ``None``: about
            ``at``.
        mode: Recall mode (``None``: ``pipeline.recall_mode``).
        limit: Units recall hands to the selector (``None``: ``pipeline.recall_limit``).
        past: The question asks about past events ("when did we move to X", a fact's history), not what is
            current: a pending doubt whether a memory is still current (a contested SUPERSEDE in the review
            queue) does not lower its confidence for the selector, as superseded memories are eligible too.
        meta: Whatever the benchmark's answerer and scorer need (gold stays with the benchmark).
    """

    id: str
    text: str
    at: datetime
    as_of: datetime | None = None
    mode: str | None = None
    limit: int | None = None
    past: bool = False
    meta: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True)
class Episode:
    """Memories and the queries asked along the way.

    Attributes:
        id: Identifier (a conversation id, a history name).
        memories: The memories (any order; they arrive in time order).
        queries: The queries (asked in time order; ties keep this order).
        end: Clock of the final SessionStart block (``None``: the last memory's or query's time).
        block_query: Optional session context for the final block's relevance.
        checkpoints: Times at which a session starts and its SessionStart block is kept (a memory file's
            commits): the memories recorded by then are in, a ``session`` schedule consolidates first, as the
            hook does after a session stops.
    """

    id: str
    memories: tuple[Memory, ...]
    queries: tuple[Query, ...] = ()
    end: datetime | None = None
    block_query: str | None = None
    checkpoints: tuple[datetime, ...] = ()


#: ``answer(query, context, store) -> record``: reads only ``context`` (the store serves lookups such as
#: a chain's members as the store stands at the query's time).
Answerer = Callable[[Query, QueryContext, MemoryStore], dict[str, Any]]


@dataclass
class QueryOutcome:
    """One query, the context it got and the answerer's record."""

    query: Query
    context: QueryContext
    answer: dict[str, Any]


@dataclass
class EpisodeOutcome:
    """What an episode produced.

    Attributes:
        episode: The episode.
        store: The store at the end.
        queries: One outcome per query, in the order asked.
        block: The SessionStart block at ``end``.
        runs: The consolidation runs, in order.
        seconds: Wall time per phase (consolidation phases summed over runs, and :data:`QUERY_PHASES`).
        end: The clock at the end.
        blocks: The SessionStart block at each of the episode's checkpoints, in time order.
    """

    episode: Episode
    store: MemoryStore
    queries: list[QueryOutcome]
    block: InjectedBlock
    runs: list[ConsolidationResult]
    seconds: dict[str, float]
    end: datetime
    blocks: list[tuple[datetime, InjectedBlock]] = field(default_factory=list)

    @property
    def last_run(self) -> ConsolidationResult | None:
        """The final consolidation run."""
        return self.runs[-1] if self.runs else None


def session_of(memory: Memory) -> str:
    """A memory's session: ``meta["session"]`` when the source has sessions, else its calendar day."""
    session = memory.meta.get("session")
    return f"s:{session}" if session is not None else f"d:{memory.timestamp.date().isoformat()}"


class _Runner:
    """State of one episode run (see :func:`run_episode`)."""

    def __init__(
        self,
        episode: Episode,
        components: Components,
        answer: Answerer | None,
        rejudge_last: bool = False,
        tick: Callable[[int], None] | None = None,
    ) -> None:
        self.episode = episode
        self.tick = tick or (lambda n: None)
        self.components = components
        self.answer = answer
        self.rejudge_last = rejudge_last
        self.settings = components.settings
        self.memories = sorted(episode.memories, key=lambda m: (m.timestamp, m.id))
        self.store = MemoryStore()
        self.pending: list[Memory] = []
        self.next = 0
        self.runs: list[ConsolidationResult] = []
        self.seconds: dict[str, float] = {p: 0.0 for p in (*PHASES, *QUERY_PHASES)}
        self.arrival_steps = [step for step in ARRIVAL_STEPS if step.when(self.settings)]

    def consolidate(self) -> None:
        if not self.pending:
            return
        now = max(m.timestamp for m in self.pending)
        full = self.rejudge_last and now >= self.memories[-1].timestamp
        result = consolidate(self.store, self.components, now, full=full)
        for phase, value in result.phase_seconds.items():
            self.seconds[phase] = self.seconds.get(phase, 0.0) + value
        self.runs.append(result)
        self.pending = []

    def ingest_until(self, t: datetime | None) -> None:
        schedule = self.settings.schedule
        while self.next < len(self.memories) and (t is None or self.memories[self.next].timestamp <= t):
            memory = self.memories[self.next]
            if schedule == "session" and self.pending and session_of(memory) != session_of(self.pending[-1]):
                self.consolidate()
            t0 = time.perf_counter()
            with span("ingest"):
                self.store.add([memory])
            self.seconds["ingest"] += time.perf_counter() - t0
            for step in self.arrival_steps:  # e.g. online mode: judged as it arrives (pipeline/online.py)
                t0 = time.perf_counter()
                step.run(self.store, self.components, memory)
                self.seconds[step.phase] = self.seconds.get(step.phase, 0.0) + time.perf_counter() - t0
            self.pending.append(memory)
            self.next += 1
            self.tick(1)
            if schedule == "every_n" and len(self.pending) >= max(1, self.settings.schedule_every):
                self.consolidate()
            if schedule == "end" and self.next == len(self.memories):
                self.consolidate()

    def ask(self, group: Sequence[Query]) -> list[QueryOutcome]:
        """Queries of one moment and one recall setting: one recall batch, then selection and answers."""
        first = group[0]
        t0 = time.perf_counter()
        with span("recall"):
            hits = recall_many(
                self.store,
                self.components,
                [q.text for q in group],
                first.at,
                mode=first.mode,
                limit=first.limit,
                as_of=first.as_of,
                track=self.settings.track_recall,
            )
        self.seconds["recall"] += time.perf_counter() - t0
        out = []
        for query, query_hits in zip(group, hits, strict=True):
            t0 = time.perf_counter()
            with span("select"):
                context = select_context(
                    self.store, self.components, query_hits, query.at, query.text, past=query.past, as_of=query.as_of
                )
            self.seconds["select"] += time.perf_counter() - t0
            t0 = time.perf_counter()
            with span("answer"):
                record = self.answer(query, context, self.store) if self.answer else {}
            self.seconds["answer"] += time.perf_counter() - t0
            out.append(QueryOutcome(query, context, record))
            self.tick(1)
        return out

    def block(self, at: datetime) -> InjectedBlock:
        """The SessionStart block of a session starting at ``at`` (timed as ``inject``)."""
        t0 = time.perf_counter()
        with span("inject"):
            block = store_block(self.store, self.components, at, self.episode.block_query)
        self.seconds["inject"] += time.perf_counter() - t0
        return block

    def checkpoints_until(self, t: datetime | None) -> None:
        """Keep the block of every checkpoint before ``t`` (``None``: all that are left)."""
        while self.checkpoints and (t is None or self.checkpoints[0] < t):
            at = self.checkpoints.pop(0)
            self.ingest_until(at)
            if self.settings.schedule == "session":
                self.consolidate()
            self.blocks.append((at, self.block(at)))

    def run(self) -> EpisodeOutcome:
        order = sorted(range(len(self.episode.queries)), key=lambda i: self.episode.queries[i].at)
        asked: dict[int, QueryOutcome] = {}
        self.checkpoints = sorted(self.episode.checkpoints)
        self.blocks: list[tuple[datetime, InjectedBlock]] = []
        i = 0
        while i < len(order):
            at = self.episode.queries[order[i]].at
            self.checkpoints_until(at)
            moment = []
            while i < len(order) and self.episode.queries[order[i]].at == at:
                moment.append(order[i])
                i += 1
            self.ingest_until(at)
            if self.settings.schedule == "session":
                self.consolidate()
            groups: dict[tuple, list[int]] = {}
            for index in moment:
                q = self.episode.queries[index]
                groups.setdefault((q.mode, q.limit, q.as_of), []).append(index)
            for indices in groups.values():
                asked.update(zip(indices, self.ask([self.episode.queries[j] for j in indices]), strict=True))
        self.checkpoints_until(None)
        self.ingest_until(None)
        self.consolidate()
        last = self.memories[-1].timestamp if self.memories else None
        times = [t for t in (last, *(q.at for q in self.episode.queries)) if t is not None]
        end = self.episode.end or (max(times) if times else None)
        block = self.block(end) if end else render([], datetime.min.date())
        return EpisodeOutcome(
            self.episode,
            self.store,
            [asked[k] for k in range(len(self.episode.queries))],
            block,
            self.runs,
            self.seconds,
            end,
            self.blocks,
        )


@contextmanager
def full_collections_paused() -> Iterator[None]:
    """While the block runs, CPython's cyclic garbage collector collects only its two young generations.

    An episode keeps nearly every object it makes (memories, states, edges, vectors, parses), and a full
    collection walks all of them each time the oldest generation has grown by a quarter: at 100,000
    memories (about two million objects) ten full collections took 18 s of a 114 s episode (wall, load 8).
    Short-lived cycles are still collected by the young generations; the thresholds are restored on exit.
    """
    before = gc.get_threshold()
    gc.set_threshold(before[0], before[1], max(before[2], 1 << 30))
    try:
        yield
    finally:
        gc.set_threshold(*before)


def run_episode(
    episode: Episode,
    components: Components,
    answer: Answerer | None = None,
    *,
    rejudge_last: bool = False,
    tick: Callable[[int], None] | None = None,
) -> EpisodeOutcome:
    """Run ``episode`` through the policy ``components``; ``answer`` reads each query's context.

    ``rejudge_last`` (a diagnosis, never a policy): the consolidation that takes in the last memory judges every
    candidate pair again, those of earlier runs included (``consolidate(..., full=True)``). ``tick(1)`` is called
    after each memory taken in and each query answered (a caller's progress; the pipeline itself prints nothing).

    Returns:
        The store, each query's context and answer record, the final block, the consolidation runs and
        the time per phase. Deterministic for the same episode and components.
    """
    with full_collections_paused():
        return _Runner(episode, components, answer, rejudge_last, tick).run()
