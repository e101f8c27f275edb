"""The vectors a consolidation computed, kept in ``.git/memlab/vectors-<model>.bin`` for recall and the next run,
which embed only what is new (a query, one session's memories) with the embedder's cheapest path (``encode_few``).

Layout: a JSON header line (``format``, ``model``, ``dim``, ``count``), ``count`` SHA-256 keys of ``model id NUL
text``, ``count`` rows of little-endian float32. Read no-follow and only if regular, replaced atomically, never
unpickled; a file that does not parse is ignored (its texts are embedded again).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from memlab.core.errors import MemlabError
from memlab.embed.base import EmbedderBase

FORMAT = 1
#: Largest vector file read (100,000 texts of 384 dimensions take 157 MB).
MAX_BYTES = 1 << 30
#: Texts embedded at once with :meth:`~memlab.embed.base.EmbedderBase.encode_few` (more go through ``encode``).
FEW = 16


def vectors_path(memlab_dir: Path, model_id: str) -> Path:
    """The vector file of one embedding model."""
    return memlab_dir / f"vectors-{hashlib.sha256(model_id.encode()).hexdigest()[:12]}.bin"


def text_key(model_id: str, text: str) -> bytes:
    """The 32-byte key of a text's vector."""
    return hashlib.sha256(f"{model_id}\0{text}".encode()).digest()


def read_vectors(path: Path, model_id: str) -> dict[bytes, np.ndarray]:
    """Key -> vector of a vector file (empty when it is missing, not a regular file, or not of ``model_id``)."""
    from memlab.adapter.safe_io import read_regular

    try:
        raw = read_regular(path, MAX_BYTES)
        if raw is None:
            return {}
        start = raw.index(b"\n") + 1  # the body is never copied: keys sliced, rows viewed
        meta = json.loads(raw[:start])
        n, dim = int(meta["count"]), int(meta["dim"])
        if meta.get("format") != FORMAT or meta.get("model") != model_id or len(raw) - start != n * (32 + 4 * dim):
            return {}
    except (MemlabError, ValueError, KeyError, TypeError, RecursionError):
        return {}
    rows = np.frombuffer(raw, dtype="<f4", offset=start + 32 * n).reshape(n, dim)
    return {raw[start + 32 * i : start + 32 * i + 32]: rows[i] for i in range(n)}


def write_vectors(path: Path, model_id: str, vectors: dict[bytes, np.ndarray]) -> None:
    """Replace the vector file with ``vectors`` (atomically)."""
    from memlab.adapter.safe_io import atomic_write

    keys = sorted(vectors)
    matrix = np.array([vectors[k] for k in keys]).astype("<f4") if keys else np.zeros((0, 0), "<f4")
    head = json.dumps({"format": FORMAT, "model": model_id, "dim": int(matrix.shape[1]), "count": len(keys)})
    atomic_write(path, head.encode() + b"\n" + b"".join(keys) + matrix.tobytes(), fsync=False)


class RepoEmbedder(EmbedderBase):
    """The policy's embedder behind a repository's vector file.

    Texts the file holds are read from it; a few others are embedded with ``encode_few``, more with ``encode``.
    Every text served is remembered, and :meth:`save` writes exactly those (what the run needed) back.

    Args:
        inner: The policy's embedder.
        memlab_dir: The repository's ``.git/memlab``.
    """

    name = "repo"
    version = 1

    def __init__(self, inner: EmbedderBase, memlab_dir: Path) -> None:
        self.inner = inner
        self.path = vectors_path(memlab_dir, inner.model_id)
        self.known = read_vectors(self.path, inner.model_id)
        self.used: dict[bytes, np.ndarray] = {}

    @property
    def model_id(self) -> str:
        """The policy's embedder's model id."""
        return self.inner.model_id

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors of ``texts``: stored ones read, the others embedded."""
        keys = [text_key(self.model_id, t) for t in texts]
        todo = list(dict.fromkeys(t for t, k in zip(texts, keys, strict=True) if k not in self.known))
        if todo:
            vectors = (self.inner.encode_few if len(todo) <= FEW else self.inner.encode)(todo)
            for text, vector in zip(todo, vectors, strict=True):
                self.known[text_key(self.model_id, text)] = np.asarray(vector, dtype=np.float32)
        for key in keys:
            self.used[key] = self.known[key]
        return np.array([self.known[k] for k in keys]) if keys else np.zeros((0, 0), dtype=np.float32)

    encode_few = encode

    def save(self, prune: bool = True) -> None:
        """Keep the vectors of every text this run used (``prune=False``: and every one the file held)."""
        write_vectors(self.path, self.model_id, self.used if prune else self.known)
