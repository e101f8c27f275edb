"""One ``typing.Protocol`` per strategy kind; each docstring is the contract the contract tests enforce.

Every strategy class also carries ``name`` and ``version`` class attributes: a behaviour change gets a new
version while the old one keeps working. Constructors only store hyperparameters (the scikit-learn rule);
anything learned or loaded lives in attributes ending in ``_`` and is created lazily.

Every strategy class inherits its kind's base class (``memlab/strategies/<kind>/base.py``; the embedders'
``memlab/embed/base.py``; :data:`memlab.groups.BASES`), which gives the optional methods a protocol names their
default behaviour, so that a caller calls them on any strategy and never asks whether a strategy has them. Every
base also gives ``artifact_path = None`` (a strategy that reads a model file names it there, to log it with the run).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

from memlab.groups import PROTOCOL_NAMES

if TYPE_CHECKING:
    import numpy as np

    from memlab.types import (
        Answer,
        InjectionCandidate,
        Memory,
        MemoryState,
        RetentionScore,
        SelectionContext,
        Summary,
        TemporalRef,
        Verdict,
    )


@runtime_checkable
class RetentionFunction(Protocol):
    """Scores how strongly a memory should stay retrievable, and the tier that follows.

    Contract: ``score(...).overall`` is in [0, 1]; with everything else fixed it never rises as ``now``
    moves later; the tier is monotone in ``overall`` (a higher score never gets a colder tier); it reads
    no clock (``now`` is the benchmark's time) and has no side effects.

    Optional: ``score_all(memories: Sequence[Memory], states: Sequence[MemoryState], now, *, references=None)
    -> list[RetentionScore]`` (one score per memory, in order, the same contract per item; ``references``: memory
    id -> ids it refers to); the pipeline's tier phase calls it with every memory the consolidation run sees.
    Default (:class:`~memlab.strategies.retention.base.RetentionBase`): ``score`` of each memory alone. A
    function whose score depends on the other memories (a sliding window, a capacity cap) overrides it;
    ``score`` then scores one memory as if it were the only one.
    """

    name: ClassVar[str]
    version: ClassVar[int]

    def score(self, memory: Memory, state: MemoryState, now: datetime) -> RetentionScore:
        """Score ``memory`` in ``state`` at time ``now``."""
        ...


@runtime_checkable
class Clusterer(Protocol):
    """Groups related memories from their embeddings.

    Contract: returns one integer label per row (``-1`` = unclustered); the same rows in any order give
    the same partition (labels may be renamed); no side effects.
    """

    name: ClassVar[str]
    version: ClassVar[int]

    def fit_predict(self, embeddings: np.ndarray, timestamps: Sequence[datetime]) -> np.ndarray:
        """Label each row of ``embeddings`` (L2-normalised) with a cluster id or ``-1``."""
        ...


@runtime_checkable
class Summarizer(Protocol):
    """Summarises one cluster of memories.

    Contract: the summary cites its sources in ``source_ids``, a subset of the given memories' ids (never
    an invented id), and its temporal range spans exactly the cited memories; ``None`` means "no
    summary" (the ``none`` option); deterministic for the same input set.

    Every ``summarize`` takes the keyword ``superseded: Mapping[str, str] | None = None`` (memory id -> id of
    the memory that supersedes it, from the judged SUPERSEDE edges, for members of the cluster; the superseder
    may lie outside the cluster; :class:`~memlab.strategies.summarizer.base.SummarizerBase`). Optional use: a
    summarizer that can report outdated facts fills ``superseded_facts`` from it (``source_memory_id`` always a
    member) and keeps superseded members out of ``key_facts`` and ``decisions``; one that cannot ignores it.
    """

    name: ClassVar[str]
    version: ClassVar[int]

    def summarize(self, memories: Sequence[Memory], *, superseded: Mapping[str, str] | None = None) -> Summary | None:
        """Summarise ``memories`` (one cluster, any order)."""
        ...


@runtime_checkable
class SupersessionJudge(Protocol):
    """Decides how a newer memory relates to an older one.

    Contract: returns a :class:`~memlab.types.Verdict` whose relation is one of DUPLICATE, SUPERSEDE,
    MERGE, COEXIST and whose confidence is in [0, 1]; malformed model output or any internal failure
    gives COEXIST, never an exception; ``similarity`` (cosine of the two embeddings, when the pipeline
    has it) is a hint, not a requirement.

    Optional, with the defaults of :class:`~memlab.strategies.judge.base.JudgeBase`:
    ``observe(memories: Sequence[Memory]) -> None`` — the pipeline calls it with every memory the
    consolidation run sees (none recorded after its clock) before judging; a judge that learns from the store
    it judges (the learned judge's slot profiles) overrides it; default: nothing.
    ``judge_many(pairs: Sequence[tuple[older, newer, similarity]]) -> list[Verdict]`` — a run's pairs at once
    (the learned judge's classifier runs once per batch); it must equal ``judge`` of each pair, in order,
    which is the default. ``set_eval_seed(seed) -> None`` — the seed of the data about to be judged (a judge
    trained on seeds checks it against them); default: nothing.
    """

    name: ClassVar[str]
    version: ClassVar[int]

    def judge(self, older: Memory, newer: Memory, similarity: float | None = None) -> Verdict:
        """Judge ``newer`` against ``older`` (``older.timestamp <= newer.timestamp``)."""
        ...


@runtime_checkable
class TemporalResolver(Protocol):
    """Finds temporal expressions in text and resolves them against an anchor time.

    Contract: ``anchor`` is the memory's own timestamp, never the wall clock; every returned interval is
    half-open ``[start, end)`` with ``start < end`` (timezone of the anchor); spans index into ``text``
    and do not overlap; unparseable text gives ``[]``, never an exception.
    """

    name: ClassVar[str]
    version: ClassVar[int]

    def resolve(self, text: str, anchor: datetime) -> list[TemporalRef]:
        """Resolve every temporal expression in ``text`` against ``anchor``."""
        ...


@runtime_checkable
class InjectionSelector(Protocol):
    """Chooses what goes into the SessionStart block.

    Contract: the estimated tokens of the returned items (:func:`memlab.text.tokens.item_tokens` of each text
    with ``context.chars_per_token``) sum to at most ``budget_tokens``; no id appears twice; the result
    does not depend on the order of ``candidates`` (ties are broken by score descending, then id
    ascending); deterministic.
    """

    name: ClassVar[str]
    version: ClassVar[int]

    def select(
        self,
        candidates: Sequence[InjectionCandidate],
        context: SelectionContext,
        budget_tokens: int,
    ) -> list[InjectionCandidate]:
        """Select and order candidates for injection."""
        ...


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised vectors.

    Contract: returns a float32 array of shape ``(len(texts), dim)`` whose rows have unit norm (a zero
    vector only for text with no usable content); the same text always gives the same vector, whatever
    the batch; ``model_id`` identifies the model and its settings (the cache key uses it).
    """

    name: ClassVar[str]
    version: ClassVar[int]

    @property
    def model_id(self) -> str:
        """Identifier of the model and its settings."""
        ...

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Embed ``texts``."""
        ...


@runtime_checkable
class Retriever(Protocol):
    """Ranks the units recall may return (memories, and summaries as units) for a query.

    Contract: returns ``(id, score)`` pairs for candidates only, each id at most once, best first (higher
    score is better; scores compare only within one ranking); ties are broken by the candidates' order
    (the pipeline passes them in time order, ties by id); deterministic; it sees only ``candidates`` (the
    pipeline passes what existed at ``now``) and reads no clock; odd text never raises. ``embedder`` is
    the run's embedder (dense options need it). The ``none`` option ranks nothing: every candidate scores 0,
    newest first (ties by id), so that recall hands the newest units to the selector.

    Optional: ``rank_many(queries, candidates, now, embedder=None, limit=None)`` ranks several queries over one
    candidate list (the same answers as ``rank``, faster; with ``limit`` it may return only the best ``limit``
    of each ranking). Default (:class:`~memlab.strategies.retriever.base.RetrieverBase`): ``rank`` of each
    query, whole.
    """

    name: ClassVar[str]
    version: ClassVar[int]

    def rank(
        self, query: str, candidates: Sequence[Memory], now: datetime, embedder: Embedder | None = None
    ) -> list[tuple[str, float]]:
        """Rank ``candidates`` for ``query``."""
        ...


@runtime_checkable
class Reader(Protocol):
    """Answers a benchmark's question from the context a policy produced, the same reader for every policy.

    Contract: ``answer(question, context, now)`` reads only ``context`` (the selected units in retrieval order:
    memories, cluster summaries, session narratives, a running document, insights alike, each a
    :class:`~memlab.types.Memory` with its text and recorded time) and ``now`` (when the question is asked); it
    returns an :class:`~memlab.types.Answer` whose ``unit_ids`` are ids of context units, whose ``confidence`` is
    in [0, 1], and whose text is ``""`` with confidence 0 when the context holds no answer (an empty context
    included); deterministic for the same inputs; odd text never raises. The ``none`` option reads nothing
    (``reads = False``): a benchmark then scores only its own built-in answerer and logs no reader metric.
    """

    name: ClassVar[str]
    version: ClassVar[int]
    reads: ClassVar[bool]

    def answer(self, question: str, context: Sequence[Memory], now: datetime) -> Answer:
        """Answer ``question`` from ``context`` as of ``now``."""
        ...


@runtime_checkable
class AdmissionStrategy(Protocol):
    """Which records may enter the SessionStart block (contract: ``AdmissionBase``, the kind's one definition)."""

    name: ClassVar[str]
    version: ClassVar[int]

    def admit(self, memory: Memory, store: Mapping[str, Memory]) -> Any:
        """Whether ``memory`` may enter the block (an ``Admission``)."""
        ...


#: Conf group -> protocol its options must satisfy (the groups of :data:`memlab.groups.TABLE`).
GROUP_PROTOCOLS: dict[str, type] = {group: globals()[protocol] for group, protocol in PROTOCOL_NAMES.items()}
