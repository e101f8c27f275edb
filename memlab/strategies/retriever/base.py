"""Base class of every retriever: the optional method of the protocol, with its default."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from memlab.protocols import Embedder
    from memlab.types import Memory


class RetrieverBase(ABC):
    """What every retriever has (:class:`~memlab.protocols.Retriever`): ``rank`` is the one method a retriever
    must define; :meth:`rank_many` defaults to ranking each query alone.
    """

    name: ClassVar[str]
    version: ClassVar[int]
    #: The model file the retriever reads, to log with the run (``None``: it reads none).
    artifact_path: str | None = None

    @abstractmethod
    def rank(
        self, query: str, candidates: Sequence[Memory], now: datetime, embedder: Embedder | None = None
    ) -> list[tuple[str, float]]:
        """Rank ``candidates`` for ``query``."""

    def rank_many(
        self,
        queries: Sequence[str],
        candidates: Sequence[Memory],
        now: datetime,
        embedder: Embedder | None = None,
        limit: int | None = None,
    ) -> list[list[tuple[str, float]]]:
        """Rank ``candidates`` for each query, the same answers as :meth:`rank`. ``limit`` allows a retriever to
        return only the best ``limit`` of each ranking (faster); default: :meth:`rank` of each query, whole.
        """
        return [self.rank(query, candidates, now, embedder) for query in queries]
