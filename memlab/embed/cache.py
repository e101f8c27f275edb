"""On-disk embedding cache keyed by content hash and model id (sqlite, safe for concurrent readers)."""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Sequence
from pathlib import Path

import numpy as np


def content_key(model_id: str, text: str) -> str:
    """Cache key: SHA-256 of the model id and the text."""
    return hashlib.sha256(f"{model_id}\x00{text}".encode()).hexdigest()


class EmbeddingCache:
    """Maps ``(model_id, text)`` to a float32 vector in a sqlite file.

    Args:
        path: The sqlite file (created with its folder).
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._connect() as con:
            con.execute("CREATE TABLE IF NOT EXISTS vectors (key TEXT PRIMARY KEY, dim INTEGER, vec BLOB)")

    def _connect(self) -> sqlite3.Connection:
        con = sqlite3.connect(self.path, timeout=30)
        con.execute("PRAGMA journal_mode=WAL")
        return con

    def get_many(self, model_id: str, texts: Sequence[str]) -> dict[str, np.ndarray]:
        """Vectors found for ``texts``, keyed by text."""
        keys = {content_key(model_id, t): t for t in texts}
        found: dict[str, np.ndarray] = {}
        items = list(keys)
        with self._connect() as con:
            for lo in range(0, len(items), 500):
                chunk = items[lo : lo + 500]
                rows = con.execute(
                    f"SELECT key, vec FROM vectors WHERE key IN ({','.join('?' * len(chunk))})", chunk
                ).fetchall()
                for key, blob in rows:
                    found[keys[key]] = np.frombuffer(blob, dtype=np.float32).copy()
        return found

    def put_many(self, model_id: str, texts: Sequence[str], vectors: np.ndarray) -> None:
        """Store vectors for ``texts``."""
        rows = [
            (content_key(model_id, t), int(v.shape[0]), np.asarray(v, dtype=np.float32).tobytes())
            for t, v in zip(texts, vectors, strict=True)
        ]
        with self._connect() as con:
            con.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?, ?)", rows)
