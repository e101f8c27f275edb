"""No summaries (the ablation baseline)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from memlab.core.types import Memory, Summary
from memlab.strategies.summarizer.base import SummarizerBase


class NoSummarizer(SummarizerBase):
    """Returns ``None`` for every cluster."""

    name: ClassVar[str] = "none"
    version: ClassVar[int] = 1

    def summarize(self, memories: Sequence[Memory], *, superseded: Mapping[str, str] | None = None) -> Summary | None:
        """Always ``None``."""
        return None
