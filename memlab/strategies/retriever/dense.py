"""``retriever=dense``: cosine similarity of the run's embeddings (the seed's recall)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from memlab.strategies.retriever.engine import EngineRetriever


@dataclass(eq=False)
class DenseRetriever(EngineRetriever):
    """Ranks units by the cosine of their embedding with the query's (the run's embedder).

    With the defaults this is the seed's recall: the raw query (``rewrite`` off, unlike the other options)
    against each unit's text, best cosine first. The other options are those of :class:`~.engine.EngineRetriever`.
    """

    name: ClassVar[str] = "dense"
    version: ClassVar[int] = 1
    mode: ClassVar[str] = "dense"
    rewrite: bool = False
