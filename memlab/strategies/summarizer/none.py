"""No summaries (the ablation baseline)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from memlab.types import Memory, Summary


class NoSummarizer:
    """Returns ``None`` for every cluster."""

    name: ClassVar[str] = "none"
    version: ClassVar[int] = 1

    def summarize(self, memories: Sequence[Memory]) -> Summary | None:
        """Always ``None``."""
        return None
