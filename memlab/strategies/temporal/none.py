"""No temporal resolution."""

from __future__ import annotations

from datetime import datetime
from typing import ClassVar

from memlab.core.types import TemporalRef
from memlab.strategies.temporal.base import TemporalBase


class NoResolver(TemporalBase):
    """Finds nothing."""

    name: ClassVar[str] = "none"
    version: ClassVar[int] = 1

    def resolve(self, text: str, anchor: datetime) -> list[TemporalRef]:
        """Always ``[]``."""
        return []
