"""all-MiniLM-L6-v2's forward pass in numpy: a few texts embedded without importing torch.

For one query or a session's few memories, torch and sentence-transformers cost 5-12 s and 600 MiB; this
costs ~0.1 s and the weights it touches (mapped from ``model.safetensors`` as raw float32: no pickle). Same
tokenizer (``tokenizer.json``), mean pooling and normalisation: vectors agree with sentence-transformers to
~2e-7 per component (GELU's ``erf`` is Abramowitz-Stegun 7.1.26), the order of its own batch-size differences.
"""

from __future__ import annotations

import contextlib
import json
import mmap
from collections.abc import Sequence
from pathlib import Path

import numpy as np

HEADS = 12
LAYERS = 6


def _gelu(x: np.ndarray) -> np.ndarray:
    """Exact GELU, ``0.5 x (1 + erf(x / sqrt 2))``, with erf by Abramowitz-Stegun 7.1.26."""
    z = np.abs(x) / np.float32(np.sqrt(2.0))
    t = 1 / (1 + np.float32(0.3275911) * z)
    poly = ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t
    return 0.5 * x * (1 + np.sign(x) * (1 - poly * np.exp(-z * z)))


class NumpyMiniLM:
    """The sentence-transformers model in ``folder`` (BERT, mean pooling, L2 normalisation) run with numpy.

    Args:
        folder: The model folder (``model.safetensors``, ``tokenizer.json``).
        max_seq_length: Tokens per text, ``[CLS]`` and ``[SEP]`` included.
    """

    def __init__(self, folder: str | Path, max_seq_length: int = 256) -> None:
        from tokenizers import Tokenizer

        folder = Path(folder)
        with open(folder / "model.safetensors", "rb") as fh:  # 8-byte header size, JSON header, raw tensors
            size = int.from_bytes(fh.read(8), "little")
            header = json.loads(fh.read(size))
            raw = np.frombuffer(mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ), dtype=np.uint8, offset=8 + size)
        tensors = [(name, t) for name, t in header.items() if name != "__metadata__" and t.get("dtype") == "F32"]
        self.w = {n: raw[slice(*t["data_offsets"])].view(np.float32).reshape(t["shape"]) for n, t in tensors}
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(max_seq_length)

    def _linear(self, x: np.ndarray, name: str) -> np.ndarray:
        return x @ self.w[name + ".weight"].T + self.w[name + ".bias"]

    def embed(self, text: str) -> np.ndarray:
        """One text's unit vector (float32)."""
        w = self.w
        ids = np.asarray(self.tokenizer.encode(text).ids)
        x = w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][: len(ids)]
        x = self._norm(x + w["embeddings.token_type_embeddings.weight"][0], "embeddings.LayerNorm")
        width = x.shape[1] // HEADS
        for i in range(LAYERS):
            p = f"encoder.layer.{i}."
            q, k, v = (
                self._linear(x, p + f"attention.self.{n}").reshape(len(ids), HEADS, width).transpose(1, 0, 2)
                for n in ("query", "key", "value")
            )
            s = q @ k.transpose(0, 2, 1) / np.float32(np.sqrt(width))
            s = np.exp(s - s.max(-1, keepdims=True))
            a = ((s / s.sum(-1, keepdims=True)) @ v).transpose(1, 0, 2).reshape(len(ids), -1)
            x = self._norm(self._linear(a, p + "attention.output.dense") + x, p + "attention.output.LayerNorm")
            h = _gelu(self._linear(x, p + "intermediate.dense"))
            x = self._norm(self._linear(h, p + "output.dense") + x, p + "output.LayerNorm")
        pooled = x.mean(0)
        return (pooled / max(float(np.linalg.norm(pooled)), 1e-12)).astype(np.float32)

    def _norm(self, x: np.ndarray, name: str) -> np.ndarray:
        """Layer normalisation with the weights under ``name``."""
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        return (x - mean) / np.sqrt(var + 1e-12) * self.w[name + ".weight"] + self.w[name + ".bias"]

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Unit vectors of ``texts``, one row each, on one BLAS thread (matrices this small run ~10x slower on
        two threads of a busy machine: measured 0.03-0.08 s per query against 0.4-1.0 s at load 10).
        """
        try:
            from threadpoolctl import threadpool_limits
        except ImportError:  # scikit-learn's dependency; without it BLAS keeps its threads
            threadpool_limits = contextlib.nullcontext
        with threadpool_limits(1):
            return np.stack([self.embed(t) for t in texts]).astype(np.float32)
