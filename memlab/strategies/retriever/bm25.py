"""``retriever=bm25``: lexical ranking (Okapi BM25 over the units' index text)."""

from __future__ import annotations

from typing import ClassVar

from memlab.strategies.retriever.engine import EngineRetriever


class Bm25Retriever(EngineRetriever):
    """Okapi BM25 (rank-bm25) over each unit's index text; no embedder needed.

    Args:
        context: Index text per unit: ``plain``, ``speaker`` or ``speaker_date``.
        rewrite: Drop question words and possessives from the query.
        rrf_k: Constant of the rank fusion used by the session, speaker and feedback options.
        neighbour_weight: Share of the best same-session neighbour's score a unit earns.
        prf_docs: Pseudo-relevance feedback: top units appended to the query (0: off).
        prf_weight: Weight of the feedback pass.
        session_weight: Share of the unit's session score.
        speaker_weight: Boost for units spoken by a speaker the query names.
        drop_names: Drop speaker names from the query.
        bm25_window: BM25 documents also hold the previous N units of their session.
        bm25_k1: BM25 k1.
        bm25_b: BM25 b.
    """

    name: ClassVar[str] = "bm25"
    version: ClassVar[int] = 1
    mode: ClassVar[str] = "bm25"

    def __init__(
        self,
        context: str = "speaker",
        rewrite: bool = True,
        rrf_k: int = 60,
        neighbour_weight: float = 0.0,
        prf_docs: int = 0,
        prf_weight: float = 0.0,
        session_weight: float = 0.0,
        speaker_weight: float = 0.0,
        drop_names: bool = False,
        bm25_window: int = 0,
        bm25_k1: float = 1.5,
        bm25_b: float = 0.75,
    ) -> None:
        self.context = context
        self.rewrite = rewrite
        self.rrf_k = rrf_k
        self.neighbour_weight = neighbour_weight
        self.prf_docs = prf_docs
        self.prf_weight = prf_weight
        self.session_weight = session_weight
        self.speaker_weight = speaker_weight
        self.drop_names = drop_names
        self.bm25_window = bm25_window
        self.bm25_k1 = bm25_k1
        self.bm25_b = bm25_b
