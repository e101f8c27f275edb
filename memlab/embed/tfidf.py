"""Fast lexical embedder for tests and large sweeps: hashed word n-grams with sublinear TF, L2-normalised.

It has no fitted vocabulary or IDF: fitting either on the input batch would make a text's vector depend
on the batch it arrived in, which the embedder contract forbids. It needs nothing but scikit-learn.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from memlab.embed.base import EmbedderBase


class TfidfEmbedder(EmbedderBase):
    """Hashed (1..``ngram_max``)-gram term frequencies, ``1 + log(tf)``, L2 rows.

    Args:
        n_features: Hash space (output dimension).
        ngram_max: Longest word n-gram.
    """

    name: ClassVar[str] = "tfidf"
    version: ClassVar[int] = 1

    def __init__(self, n_features: int = 1024, ngram_max: int = 2) -> None:
        self.n_features = n_features
        self.ngram_max = ngram_max
        self.vectorizer_: Any = None

    @property
    def model_id(self) -> str:
        """Settings that determine the vectors."""
        return f"hashing-tf/{self.n_features}/1-{self.ngram_max}"

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Embed texts (stateless, so batch-independent)."""
        if self.vectorizer_ is None:
            from sklearn.feature_extraction.text import HashingVectorizer

            self.vectorizer_ = HashingVectorizer(
                n_features=self.n_features,
                ngram_range=(1, self.ngram_max),
                alternate_sign=False,
                norm=None,
                lowercase=True,
            )
        if not texts:
            return np.zeros((0, self.n_features), dtype=np.float32)
        counts = self.vectorizer_.transform(list(texts)).astype(np.float64)
        counts.data = 1.0 + np.log(counts.data)
        dense = counts.toarray()
        norms = np.linalg.norm(dense, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        return (dense / norms).astype(np.float32)
