"""Shared by the count-based retention functions: rank memories newest first, split live/archived."""

from __future__ import annotations

from collections.abc import Sequence

from memlab.types import Memory, RetentionScore, Tier

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
