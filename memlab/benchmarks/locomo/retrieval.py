"""Turn retrieval over one conversation: BM25, dense (the configured embedder), hybrid (RRF), with options.

Options (``dataset.retriever.*``):

- ``mode``: ``bm25``, ``dense`` or ``hybrid`` (reciprocal rank fusion of the two, ``1/(rrf_k + rank)``).
- ``context``: text indexed per turn (``plain`` = turn + caption; ``speaker`` = ``Speaker: turn``;
  ``speaker_date`` adds the session date).
- ``rewrite``: drop question words and possessives from the query before BM25 and embedding.
- ``neighbour_weight``: a turn also earns this fraction of its best same-session neighbour's fused score
  (answers often sit in the reply to the turn that matches the question).
- ``prf_docs`` / ``prf_weight``: pseudo-relevance feedback for multi-hop questions — the top ``prf_docs``
  turns of the first pass are embedded/appended to the query and the second pass is fused with weight
  ``prf_weight`` (0 disables it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from memlab.benchmarks.locomo.ingest import CONTEXTS, index_text
from memlab.benchmarks.locomo.text import rewrite_query, tokens
from memlab.errors import MemlabError
from memlab.protocols import Embedder
from memlab.types import Memory

MODES = ("bm25", "dense", "hybrid")


@dataclass(frozen=True)
class RetrieverConfig:
    """Hyperparameters of :class:`TurnRetriever` (see the module docstring)."""

    mode: str = "hybrid"
    context: str = "speaker"
    rewrite: bool = True
    rrf_k: int = 60
    bm25_weight: float = 1.0
    dense_weight: float = 1.0
    neighbour_weight: float = 0.0
    prf_docs: int = 0
    prf_weight: float = 0.0

    @classmethod
    def from_mapping(cls, data: dict[str, Any] | None) -> RetrieverConfig:
        """Build from ``dataset.retriever`` (unknown keys and values fail in one line)."""
        data = dict(data or {})
        unknown = sorted(set(data) - set(cls.__dataclass_fields__))
        if unknown:
            raise MemlabError(f"unknown dataset.retriever key(s) {unknown}; valid: {sorted(cls.__dataclass_fields__)}")
        cfg = cls(**data)
        if cfg.mode not in MODES:
            raise MemlabError(f"unknown dataset.retriever.mode {cfg.mode!r}; valid: {', '.join(MODES)}")
        if cfg.context not in CONTEXTS:
            raise MemlabError(f"unknown dataset.retriever.context {cfg.context!r}; valid: {', '.join(CONTEXTS)}")
        return cfg


def rrf(rankings: Sequence[tuple[np.ndarray, float]], n: int, k: int) -> np.ndarray:
    """Reciprocal rank fusion: ``sum_w w / (k + rank)`` per item (rank from 1) over weighted score vectors."""
    fused = np.zeros(n, dtype=np.float64)
    for scores, weight in rankings:
        if weight == 0:
            continue
        order = np.lexsort((np.arange(n), -scores))
        ranks = np.empty(n, dtype=np.float64)
        ranks[order] = np.arange(1, n + 1)
        fused += weight / (k + ranks)
    return fused


class TurnRetriever:
    """Ranks one conversation's memories for a question.

    Args:
        memories: The conversation's memories in time order.
        embedder: Embedder for ``dense``/``hybrid`` (unused by ``bm25``).
        config: Options.
    """

    def __init__(self, memories: Sequence[Memory], embedder: Embedder | None, config: RetrieverConfig) -> None:
        self.memories = list(memories)
        self.config = config
        self.embedder = embedder
        texts = [index_text(m, config.context) for m in self.memories]
        self.bm25_ = None
        self.vectors_: np.ndarray | None = None
        if config.mode in ("bm25", "hybrid"):
            from rank_bm25 import BM25Okapi

            self.bm25_ = BM25Okapi([tokens(t) or ["_"] for t in texts])
        if config.mode in ("dense", "hybrid"):
            if embedder is None:
                raise MemlabError("dense retrieval needs an embedder; set embedder=minilm or retriever.mode=bm25")
            self.vectors_ = np.asarray(embedder.encode(texts), dtype=np.float32)
        sessions = [m.meta.get("session") for m in self.memories]
        self.prev_ = np.array([i - 1 if i > 0 and sessions[i - 1] == sessions[i] else i for i in range(len(texts))])
        self.next_ = np.array(
            [i + 1 if i + 1 < len(texts) and sessions[i + 1] == sessions[i] else i for i in range(len(texts))]
        )

    def _lists(self, query: str) -> list[tuple[np.ndarray, float]]:
        out: list[tuple[np.ndarray, float]] = []
        if self.bm25_ is not None:
            out.append(
                (
                    np.asarray(self.bm25_.get_scores(tokens(query) or ["_"]), dtype=np.float64),
                    self.config.bm25_weight if self.config.mode == "hybrid" else 1.0,
                )
            )
        if self.vectors_ is not None:
            q = np.asarray(self.embedder.encode([query]), dtype=np.float32)[0]
            out.append((self.vectors_ @ q, self.config.dense_weight if self.config.mode == "hybrid" else 1.0))
        return out

    def scores(self, question: str) -> np.ndarray:
        """Fused score per memory (higher is better)."""
        cfg = self.config
        query = rewrite_query(question) if cfg.rewrite else question
        n = len(self.memories)
        fused = rrf(self._lists(query), n, cfg.rrf_k)
        if cfg.prf_docs > 0 and cfg.prf_weight > 0:
            top = np.lexsort((np.arange(n), -fused))[: cfg.prf_docs]
            expanded = query + " " + " ".join(str(self.memories[i].meta.get("text", "")) for i in top)
            second = rrf(self._lists(expanded), n, cfg.rrf_k)
            fused = fused + cfg.prf_weight * second
        if cfg.neighbour_weight > 0:
            fused = fused + cfg.neighbour_weight * np.maximum(fused[self.prev_], fused[self.next_])
        return fused

    def rank(self, question: str) -> list[int]:
        """Indices of the memories, best first (ties: earlier memory first)."""
        s = self.scores(question)
        return [int(i) for i in np.lexsort((np.arange(len(s)), -s))]
