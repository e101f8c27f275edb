"""No retention: every memory scores 1 and stays hot (the ablation baseline)."""

from __future__ import annotations

from datetime import datetime
from typing import ClassVar

from memlab.core.types import Memory, MemoryState, RetentionScore, Tier
from memlab.strategies.retention.base import RetentionBase


class NoRetention(RetentionBase):
    """Constant score 1.0, tier HOT; recency 1, no activation or importance factors."""

    name: ClassVar[str] = "none"
    version: ClassVar[int] = 1

    def score(self, memory: Memory, state: MemoryState, now: datetime) -> RetentionScore:
        """Always ``overall=1.0`` and HOT."""
        return RetentionScore(1.0, Tier.HOT, recency=1.0)
