"""Shared by the count-based retention functions: rank memories newest first, split live/archived."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from memlab.core.types import Memory, MemoryState, RetentionScore, Tier
from memlab.strategies.retention.base import RetentionBase

if TYPE_CHECKING:
    from memlab.strategies.retention.base import References

#: Score of a memory inside the window (kept verbatim in context).
LIVE = RetentionScore(1.0, Tier.HOT, recency=1.0)
#: Score of a memory outside it (summarised/archived; exhaustive recall only).
ARCHIVED = RetentionScore(0.0, Tier.ARCHIVED)


def newest_ranks(memories: Sequence[Memory]) -> list[int]:
    """Rank of each memory (0 = newest) by ``(timestamp, id)`` descending: ties by id, order-independent."""
    order = sorted(range(len(memories)), key=lambda i: (memories[i].timestamp, memories[i].id), reverse=True)
    ranks = [0] * len(memories)
    for rank, index in enumerate(order):
        ranks[index] = rank
    return ranks


def keep_newest(memories: Sequence[Memory], keep: int) -> list[RetentionScore]:
    """``LIVE`` for the ``keep`` newest memories, ``ARCHIVED`` for the rest (in input order)."""
    return [LIVE if rank < keep else ARCHIVED for rank in newest_ranks(memories)]


class WindowRetention(RetentionBase):
    """A window over the store: the newest :meth:`kept` of its ``n`` memories are HOT (score 1), the rest ARCHIVED
    (score 0). A memory's score depends on the others, so the pipeline calls :meth:`score_all`; :meth:`score`
    scores one memory as if it were the only one.
    """

    @abstractmethod
    def kept(self, n: int) -> int:
        """How many of ``n`` memories the window keeps (a one-line error for hyperparameters that contradict)."""

    def score(self, memory: Memory, state: MemoryState, now: datetime) -> RetentionScore:
        """One memory alone (HOT unless the window keeps none)."""
        return self.score_all([memory], [state], now)[0]

    def score_all(
        self, memories: Sequence[Memory], states: Sequence[MemoryState], now: datetime, *, references: References = None
    ) -> list[RetentionScore]:
        """The newest ``kept(len(memories))`` HOT, the rest ARCHIVED."""
        return keep_newest(memories, self.kept(len(memories)))
