"""``retriever=none``: no ranking; the selector sees every eligible unit, newest first."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, ClassVar

from memlab.core.types import Memory
from memlab.strategies.retriever.base import RetrieverBase


class NoRetriever(RetrieverBase):
    """The ablation: every candidate with score 0, newest first (ties: id ascending).

    Without a ranking, recall hands the newest ``recall_limit`` units to the selector, which alone decides
    what the context holds.
    """

    name: ClassVar[str] = "none"
    version: ClassVar[int] = 1

    def rank(
        self, query: str, candidates: Sequence[Memory], now: datetime, embedder: Any = None
    ) -> list[tuple[str, float]]:
        """Every candidate, newest first, score 0."""
        ordered = sorted(candidates, key=lambda m: m.id)
        ordered.sort(key=lambda m: m.timestamp, reverse=True)
        return [(m.id, 0.0) for m in ordered]
