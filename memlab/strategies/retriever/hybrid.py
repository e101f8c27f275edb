"""``retriever=hybrid``: BM25 and dense rankings fused by reciprocal rank fusion, with the engine's options."""

from __future__ import annotations

from typing import ClassVar

from memlab.strategies.retriever.engine import EngineRetriever


class HybridRetriever(EngineRetriever):
    """BM25 and dense (the run's embedder) fused as ``sum_w w / (rrf_k + rank)``.

    The options are those of :class:`~.engine.EngineRetriever`; the LoCoMo experiment's values were chosen on
    two dev conversations (experiments/locomo_temporal/README.md).
    """

    name: ClassVar[str] = "hybrid"
    version: ClassVar[int] = 1
    mode: ClassVar[str] = "hybrid"
