"""``retriever=dense``: cosine similarity of the run's embeddings (the seed's recall)."""

from __future__ import annotations

from typing import ClassVar

from memlab.strategies.retriever.engine import EngineRetriever


class DenseRetriever(EngineRetriever):
    """Ranks units by the cosine of their embedding with the query's (the run's embedder).

    With the defaults this is the seed's recall: the raw query against each unit's text, best cosine
    first. The other options are those of :mod:`memlab.strategies.retriever.engine`.

    Args:
        context: Index text per unit: ``plain``, ``speaker`` (the memory's text) or ``speaker_date``.
        rewrite: Drop question words and possessives from the query.
        rrf_k: Constant of the rank fusion used by the session, speaker and feedback options.
        neighbour_weight: Share of the best same-session neighbour's score a unit earns.
        prf_docs: Pseudo-relevance feedback: top units appended to the query (0: off).
        prf_weight: Weight of the feedback pass.
        session_weight: Share of the unit's session score.
        speaker_weight: Boost for units spoken by a speaker the query names.
    """

    name: ClassVar[str] = "dense"
    version: ClassVar[int] = 1
    mode: ClassVar[str] = "dense"

    def __init__(
        self,
        context: str = "speaker",
        rewrite: bool = False,
        rrf_k: int = 60,
        neighbour_weight: float = 0.0,
        prf_docs: int = 0,
        prf_weight: float = 0.0,
        session_weight: float = 0.0,
        speaker_weight: float = 0.0,
    ) -> None:
        self.context = context
        self.rewrite = rewrite
        self.rrf_k = rrf_k
        self.neighbour_weight = neighbour_weight
        self.prf_docs = prf_docs
        self.prf_weight = prf_weight
        self.session_weight = session_weight
        self.speaker_weight = speaker_weight
