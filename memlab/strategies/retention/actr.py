"""ACT-R base-level activation over a memory's access history, squashed to a retrieval probability."""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import datetime
from typing import ClassVar

from memlab.core.types import Memory, MemoryState, RetentionScore
from memlab.strategies.retention.base import RetentionBase
from memlab.strategies.retention.tiers import tier_for


class ActrRetention(RetentionBase):
    """ACT-R's base-level learning equation (Anderson & Schooler 1991; Anderson et al. 2004).

    ``B = ln Σ_j t_j^(−d)`` over the uses of the memory, where ``t_j`` is the time since use ``j`` in days:
    the creation counts as the first use, then every recall in ``state.access_times`` (the pipeline keeps
    the most recent :data:`~memlab.core.types.MAX_ACCESS_TIMES`; older recalls are not counted; when the list
    is empty a ``last_accessed`` time counts as one recall). Each ``t_j`` is at least ``min_age_days``
    (``t = 0`` would be infinite); a use after ``now`` counts as ``min_age_days`` old, so the score still
    never rises as ``now`` moves later.

    ``B`` is mapped to [0, 1] with ACT-R's retrieval-probability equation
    ``overall = 1 / (1 + exp(−(B − τ) / s))`` (threshold ``τ``, noise ``s``). Defaults: ``d = 0.5`` (ACT-R's
    standard decay), ``τ = −0.5·ln 30`` so that a memory used once 30 days ago scores 0.5 (the seed's
    half-life), ``s = 0.4`` (within ACT-R's usual 0.2–0.5). Tiers use the seed's thresholds. A superseded
    memory's score is multiplied by ``superseded_penalty`` (1.0 = off: ACT-R has no supersession).

    Breakdown: ``recency`` = the probability from the creation alone, ``activation`` = ``overall``
    (the access history's contribution), ``importance`` = 0.

    Args:
        decay: The decay exponent ``d``.
        threshold: Retrieval threshold ``τ`` (in units of ``B``).
        noise: Logistic noise ``s`` (> 0).
        min_age_days: Smallest ``t_j`` in days.
        superseded_penalty: Factor applied to a superseded memory's score.
        thresholds: ``{hot, warm, cold}`` tier thresholds.
    """

    name: ClassVar[str] = "actr"
    version: ClassVar[int] = 1

    def __init__(
        self,
        decay: float = 0.5,
        threshold: float = -0.5 * math.log(30.0),
        noise: float = 0.4,
        min_age_days: float = 1.0 / 24.0,
        superseded_penalty: float = 1.0,
        thresholds: Mapping[str, float] | None = None,
    ) -> None:
        self.decay = decay
        self.threshold = threshold
        self.noise = noise
        self.min_age_days = min_age_days
        self.superseded_penalty = superseded_penalty
        self.thresholds = dict(thresholds or {"hot": 0.6, "warm": 0.3, "cold": 0.1})

    def uses(self, memory: Memory, state: MemoryState) -> list[datetime]:
        """The creation time followed by the recorded recalls."""
        recalls = list(state.access_times)
        if not recalls and state.last_accessed is not None:
            recalls = [state.last_accessed]
        return [memory.timestamp, *recalls]

    def base_level(self, uses: list[datetime], now: datetime) -> float:
        """``ln Σ_j max(t_j, min_age_days)^(−d)`` with ``t_j`` in days."""
        total = 0.0
        for used in uses:
            age = max(self.min_age_days, (now - used).total_seconds() / 86400.0)
            total += age ** (-self.decay)
        return math.log(total)

    def probability(self, base_level: float) -> float:
        """ACT-R's retrieval probability ``1 / (1 + exp(−(B − τ)/s))``, overflow-safe."""
        z = (base_level - self.threshold) / self.noise
        if z >= 0:
            return 1.0 / (1.0 + math.exp(-z))
        e = math.exp(z)
        return e / (1.0 + e)

    def score(self, memory: Memory, state: MemoryState, now: datetime) -> RetentionScore:
        """Score a memory; see the class docstring."""
        overall = self.probability(self.base_level(self.uses(memory, state), now))
        recency = self.probability(self.base_level([memory.timestamp], now))
        if state.superseded_by:
            overall *= self.superseded_penalty
        overall = min(1.0, max(0.0, overall))
        t = self.thresholds
        return RetentionScore(
            overall, tier_for(overall, t["hot"], t["warm"], t["cold"]), recency=recency, activation=overall
        )
