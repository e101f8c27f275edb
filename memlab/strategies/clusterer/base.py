"""The clusterer kind: :class:`ClustererBase` is its one definition."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    import numpy as np


class ClustererBase(ABC):
    """Groups related memories from their embeddings.

    Contract: :meth:`fit_predict` returns one integer label per row (``-1`` = unclustered); the same rows in any
    order give the same partition (labels may be renamed); no side effects.
    """

    name: ClassVar[str]
    version: ClassVar[int]
    #: The model file the clusterer reads, to log with the run (``None``: it reads none).
    artifact_path: str | None = None

    @abstractmethod
    def fit_predict(self, embeddings: np.ndarray, timestamps: Sequence[datetime]) -> np.ndarray:
        """Label each row of ``embeddings`` (L2-normalised) with a cluster id or ``-1``."""
