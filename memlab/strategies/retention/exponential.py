"""The seed's retention score: exponential recency decay, log activation, namespace importance."""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import datetime
from typing import ClassVar

from memlab.core.types import Memory, MemoryState, RetentionScore
from memlab.strategies.retention.base import RetentionBase
from memlab.strategies.retention.tiers import tier_for

#: The seed's importance weight per namespace (``other`` for anything else).
SEED_IMPORTANCE: Mapping[str, float] = {
    "decisions": 1.0,
    "learnings": 0.9,
    "patterns": 0.85,
    "retrospective": 0.8,
    "inception": 0.7,
    "blockers": 0.7,
    "research": 0.6,
    "elicitation": 0.6,
    "progress": 0.5,
    "reviews": 0.5,
    "other": 0.5,
}


class ExponentialRetention(RetentionBase):
    """``overall = w_r·recency + w_a·activation + w_i·importance`` (× penalty if superseded), clamped.

    recency = exp(−age·ln2 / half_life) with age from the later of creation and last access;
    activation = min(1, log1p(n) / log1p(saturation)).

    Args:
        half_life_days: Days for recency to halve.
        weights: ``{recency, activation, importance}`` weights.
        importance: Namespace → importance; ``other`` is the fallback.
        superseded_penalty: Factor applied to a superseded memory's score.
        activation_saturation: Retrievals at which activation reaches 1.
        thresholds: ``{hot, warm, cold}`` tier thresholds.
    """

    name: ClassVar[str] = "exponential"
    version: ClassVar[int] = 1

    def __init__(
        self,
        half_life_days: float = 30.0,
        weights: Mapping[str, float] | None = None,
        importance: Mapping[str, float] | None = None,
        superseded_penalty: float = 0.2,
        activation_saturation: int = 20,
        thresholds: Mapping[str, float] | None = None,
    ) -> None:
        self.half_life_days = half_life_days
        self.weights = dict(weights or {"recency": 0.4, "activation": 0.2, "importance": 0.4})
        self.importance = dict(importance or SEED_IMPORTANCE)
        self.superseded_penalty = superseded_penalty
        self.activation_saturation = activation_saturation
        self.thresholds = dict(thresholds or {"hot": 0.6, "warm": 0.3, "cold": 0.1})

    @staticmethod
    def age_days(memory: Memory, state: MemoryState, now: datetime) -> float:
        """Days since the later of creation and last access (0 for a memory from the future)."""
        ref = max(memory.timestamp, state.last_accessed or memory.timestamp)
        return max(0.0, (now - ref).total_seconds() / 86400.0)

    def recency(self, memory: Memory, state: MemoryState, now: datetime) -> float:
        """Exponential decay of the age since the later of creation and last access."""
        return math.exp(-self.age_days(memory, state, now) * math.log(2) / self.half_life_days)

    def score(self, memory: Memory, state: MemoryState, now: datetime) -> RetentionScore:
        """Score a memory; see the class docstring."""
        recency = self.recency(memory, state, now)
        activation = min(1.0, math.log1p(max(0, state.activation_count)) / math.log1p(self.activation_saturation))
        importance = float(self.importance.get(memory.namespace, self.importance.get("other", 0.5)))
        overall = (
            self.weights.get("recency", 0.0) * recency
            + self.weights.get("activation", 0.0) * activation
            + self.weights.get("importance", 0.0) * importance
        )
        if state.superseded_by:
            overall *= self.superseded_penalty
        overall = min(1.0, max(0.0, overall))
        t = self.thresholds
        return RetentionScore(
            overall, tier_for(overall, t["hot"], t["warm"], t["cold"]), recency, activation, importance
        )
