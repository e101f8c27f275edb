"""``retriever=bm25``: lexical ranking (Okapi BM25 over the units' index text)."""

from __future__ import annotations

from typing import ClassVar

from memlab.strategies.retriever.engine import EngineRetriever


class Bm25Retriever(EngineRetriever):
    """Okapi BM25 (rank-bm25) over each unit's index text; no embedder needed. The options are those of
    :class:`~.engine.EngineRetriever` (the BM25 ones and the session, speaker, neighbour and feedback terms).
    """

    name: ClassVar[str] = "bm25"
    version: ClassVar[int] = 1
    mode: ClassVar[str] = "bm25"
