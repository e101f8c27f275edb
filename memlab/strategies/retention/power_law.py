"""The seed's retention score with a power-law forgetting curve in place of the exponential one."""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

from memlab.core.types import Memory, MemoryState
from memlab.strategies.retention.exponential import ExponentialRetention


class PowerLawRetention(ExponentialRetention):
    """``overall = w_r·recency + w_a·activation + w_i·importance`` (× penalty if superseded), clamped,
    with ``recency = (1 + t / scale_days)^(−d)``.

    ``t`` is the age in days since the later of creation and last access (as in the seed); the ``1 +``
    keeps ``t = 0`` finite (recency 1) and ``scale_days`` is the time unit of the curve. Everything else
    (activation, namespace importance, superseded penalty, tier thresholds) is the seed's, so comparing
    this option with ``exponential`` isolates the shape of the forgetting curve: a power law forgets fast
    at first and keeps a long tail (Wixted & Ebbesen 1991; ACT-R's decay ``d = 0.5``).

    Args:
        decay: The exponent ``d`` (ACT-R's conventional 0.5).
        scale_days: Time unit of ``t`` in days.
        weights: ``{recency, activation, importance}`` weights (seed: 0.4/0.2/0.4).
        importance: Namespace → importance; ``other`` is the fallback.
        superseded_penalty: Factor applied to a superseded memory's score (seed: 0.2).
        activation_saturation: Retrievals at which activation reaches 1 (seed: 20).
        thresholds: ``{hot, warm, cold}`` tier thresholds (seed: 0.6/0.3/0.1).
    """

    name: ClassVar[str] = "power_law"
    version: ClassVar[int] = 1

    def __init__(self, decay: float = 0.5, scale_days: float = 1.0, **seed: Any) -> None:
        super().__init__(**seed)  # the seed's weights, importance, penalty, saturation and thresholds
        self.decay = decay
        self.scale_days = scale_days

    def recency(self, memory: Memory, state: MemoryState, now: datetime) -> float:
        """``(1 + t/scale_days)^(−decay)`` with ``t`` the days since the later of creation and last access."""
        return (1.0 + self.age_days(memory, state, now) / self.scale_days) ** (-self.decay)
