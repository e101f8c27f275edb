"""No clustering: every memory stays unclustered (label -1), so nothing is summarised."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import ClassVar

import numpy as np

from memlab.strategies.clusterer.base import ClustererBase


class NoClusterer(ClustererBase):
    """Labels every row ``-1``."""

    name: ClassVar[str] = "none"
    version: ClassVar[int] = 1

    def fit_predict(self, embeddings: np.ndarray, timestamps: Sequence[datetime]) -> np.ndarray:
        """All ``-1``."""
        return np.full(len(timestamps), -1, dtype=int)
