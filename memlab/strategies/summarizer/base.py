"""The summarizer kind: :class:`SummarizerBase` is its one definition."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from memlab.core.types import Memory, Summary


class SummarizerBase(ABC):
    """Summarises one cluster of memories.

    Contract: the summary cites its sources in ``source_ids``, a subset of the given memories' ids (never an
    invented id), and its temporal range spans exactly the cited memories; ``None`` means "no summary" (the
    ``none`` option); deterministic for the same input set. Every :meth:`summarize` takes the keyword
    ``superseded`` (memory id -> id of the memory that supersedes it, from the judged SUPERSEDE edges, for
    members of the cluster; the superseder may lie outside it): a summarizer that can report outdated facts
    fills ``superseded_facts`` from it (``source_memory_id`` always a member) and keeps superseded members out
    of ``key_facts`` and ``decisions``; one that cannot ignores it.
    """

    name: ClassVar[str]
    version: ClassVar[int]
    #: The model file the summarizer reads, to log with the run (``None``: it reads none).
    artifact_path: str | None = None

    @abstractmethod
    def summarize(self, memories: Sequence[Memory], *, superseded: Mapping[str, str] | None = None) -> Summary | None:
        """Summarise ``memories`` (one cluster, any order); ``superseded``: memory id -> id of its superseder."""

    def write_insight(self, narratives: Sequence[Summary]) -> tuple[str, str] | None:
        """``(pattern, category)`` of a cluster of session narratives (Astra's insight extractor, after each
        consolidation with ``pipeline.insights``), written by a language model; default: ``None``, the extractive
        pattern stands in.
        """
        return None
