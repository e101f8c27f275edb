"""Fast lexical embedder for tests and large sweeps: hashed word n-grams with sublinear TF, L2-normalised.

It has no fitted vocabulary or IDF: fitting either on the input batch would make a text's vector depend
on the batch it arrived in, which the embedder contract forbids. It needs nothing but scikit-learn.
"""

from __future__ import annotations

import re
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

    def encode_few(self, texts: Sequence[str]) -> np.ndarray:
        """:meth:`encode` without scikit-learn (1-2 s to import): its tokens, word n-grams and signed MurmurHash3
        buckets in Python, the same vectors (``tests/test_embedders.py``).
        """
        n = self.n_features
        out = np.zeros((len(texts), n), dtype=np.float64)
        for row, text in enumerate(texts):
            words = re.findall(r"(?u)\b\w\w+\b", text.lower())
            for size in range(1, self.ngram_max + 1):
                for i in range(len(words) - size + 1):
                    h = _murmur3(" ".join(words[i : i + size]).encode("utf-8"))
                    out[row, (2**31 - 1 - (n - 1)) % n if h == -(2**31) else abs(h) % n] += 1
        out[out > 0] = 1.0 + np.log(out[out > 0])
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        return (out / norms).astype(np.float32)


def _murmur3(data: bytes) -> int:
    """MurmurHash3 x86 32-bit, seed 0, as a signed integer (scikit-learn's ``murmurhash3_32``)."""

    def mix(k: int) -> int:
        k = (k * 0xCC9E2D51) & 0xFFFFFFFF
        return (((k << 15) | (k >> 17)) * 0x1B873593) & 0xFFFFFFFF

    h, end = 0, len(data) // 4 * 4
    for i in range(0, end, 4):
        h ^= mix(int.from_bytes(data[i : i + 4], "little"))
        h = ((((h << 13) | (h >> 19)) & 0xFFFFFFFF) * 5 + 0xE6546B64) & 0xFFFFFFFF
    if end < len(data):
        h ^= mix(int.from_bytes(data[end:], "little"))
    h ^= len(data)
    for shift, factor in ((16, 0x85EBCA6B), (13, 0xC2B2AE35)):
        h = ((h ^ (h >> shift)) * factor) & 0xFFFFFFFF
    h ^= h >> 16
    return h - (1 << 32) if h & 0x80000000 else h
