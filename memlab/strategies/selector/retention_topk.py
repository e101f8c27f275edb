"""Top k by the retention function's verdict: warmest tier first, then the highest recency factor."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from memlab.core.selection_types import TIER_ORDER, InjectionCandidate, SelectionContext
from memlab.strategies.selector.base import SelectorBase
from memlab.strategies.selector.packing import pack, unique

_TIER_RANK = {tier: i for i, tier in enumerate(TIER_ORDER)}


class RetentionTopkSelector(SelectorBase):
    """Rank by retention: the candidate's tier (HOT > WARM > COLD > ARCHIVED, the retention function's
    verdict on its overall score), then its ``recency`` factor (the retention function's recency for
    memories, the seed's 30-day exponential for summaries), then ``activation``, then id; take the first
    ``k`` that fit the budget (``skip`` or ``stop`` on overflow). Candidates do not carry the overall
    retention score itself; tier then recency orders them the same way for tier-deciding functions.

    Args:
        k: At most this many items (seed: 10).
        min_confidence: Candidates below this confidence are skipped (seed: 0.7).
        on_overflow: ``skip`` or ``stop``.
    """

    name: ClassVar[str] = "retention_topk"
    version: ClassVar[int] = 1

    def __init__(self, k: int | None = 10, min_confidence: float = 0.7, on_overflow: str = "skip") -> None:
        self.k = k
        self.min_confidence = min_confidence
        self.on_overflow = on_overflow

    @staticmethod
    def score(c: InjectionCandidate) -> float:
        """One number ordering (tier, recency, activation): tier dominates, recency and activation in [0, 1]."""
        return (len(TIER_ORDER) - _TIER_RANK[c.tier]) * 10.0 + c.recency + c.activation * 1e-3

    def select(
        self, candidates: Sequence[InjectionCandidate], context: SelectionContext, budget_tokens: int
    ) -> list[InjectionCandidate]:
        """Top ``k`` by retention under the budget."""
        ranked = unique(candidates, self.score, self.min_confidence)
        return pack(ranked, budget_tokens, context.chars_per_token, self.k, self.on_overflow)
