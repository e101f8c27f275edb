"""The retriever kind: :class:`RetrieverBase` is its one definition, :class:`Pool` the candidates recall passes."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    import numpy as np

    from memlab.core.types import Memory
    from memlab.embed.base import EmbedderBase


class Pool(list):
    """Candidates (a list of memories in time order) that also know where they sit in the store's time order:
    what recall passes a retriever, so that a retriever may look up per-memory data by position instead of once
    per member and call; a plain list of candidates has no such order.

    Attributes:
        order: The store's memories in time order (the list the positions index).
        positions: Index in ``order`` of each member, ascending.
        order_key: The ``version`` of the store's memories that ``order`` was computed from (versions are
            unique across stores, so equal keys mean the same order).
    """

    __slots__ = ("order", "order_key", "positions")

    def __init__(self, order: list[Memory], positions: np.ndarray, order_key: int) -> None:
        super().__init__(order[i] for i in positions.tolist())
        self.order = order
        self.positions = positions
        self.order_key = order_key


class RetrieverBase(ABC):
    """Ranks the units recall may return (memories, and summaries as units) for a query.

    Contract: :meth:`rank` returns ``(id, score)`` pairs for candidates only, each id at most once, best first
    (higher score is better; scores compare only within one ranking); ties are broken by the candidates' order
    (the pipeline passes them in time order, ties by id, as a :class:`Pool`); deterministic; it sees only
    ``candidates`` (the pipeline passes what existed at ``now``) and reads no clock; odd text never raises.
    ``embedder`` is the run's embedder (dense options need it). The ``none`` option ranks nothing: every
    candidate scores 0, newest first (ties by id), so that recall hands the newest units to the selector.
    """

    name: ClassVar[str]
    version: ClassVar[int]
    #: The model file the retriever reads, to log with the run (``None``: it reads none).
    artifact_path: str | None = None

    @abstractmethod
    def rank(
        self, query: str, candidates: Sequence[Memory], now: datetime, embedder: EmbedderBase | None = None
    ) -> list[tuple[str, float]]:
        """Rank ``candidates`` for ``query``."""

    def rank_many(
        self,
        queries: Sequence[str],
        candidates: Sequence[Memory],
        now: datetime,
        embedder: EmbedderBase | None = None,
        limit: int | None = None,
    ) -> list[list[tuple[str, float]]]:
        """Rank ``candidates`` for each query, the same answers as :meth:`rank`. ``limit`` allows a retriever to
        return only the best ``limit`` of each ranking (faster); default: :meth:`rank` of each query, whole.
        """
        return [self.rank(query, candidates, now, embedder) for query in queries]
