"""Base class of every embedder (the ``embedder`` strategy group)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    import numpy as np


class EmbedderBase(ABC):
    """What every embedder has (:class:`~memlab.protocols.Embedder`), and :meth:`encode_few`, optional."""

    name: ClassVar[str]
    version: ClassVar[int]
    #: The model file the embedder reads, to log with the run (``None``: none memlab ships beside it).
    artifact_path: str | None = None
    #: Folder of the embedder's on-disk cache (``None``: it keeps none).
    cache_dir: str | None = None

    @property
    @abstractmethod
    def model_id(self) -> str:
        """Identifier of the model and its settings."""

    @abstractmethod
    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Embed ``texts``."""

    def encode_few(self, texts: Sequence[str]) -> np.ndarray:
        """Embed a handful of texts (a recall query, the memories one session captured) at the least start-up
        cost this embedder has, as :meth:`encode` would (to float32 rounding); default: :meth:`encode`.
        """
        return self.encode(texts)
