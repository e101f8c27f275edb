"""The embedder kind (the ``embedder`` strategy group): :class:`EmbedderBase` is its one definition."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    import numpy as np


class EmbedderBase(ABC):
    """Turns texts into L2-normalised vectors.

    Contract: :meth:`encode` returns a float32 array of shape ``(len(texts), dim)`` whose rows have unit norm (a
    zero vector only for text with no usable content); the same text always gives the same vector, whatever the
    batch; :attr:`model_id` identifies the model and its settings (the cache key uses it). :meth:`encode_few` is
    optional.
    """

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
