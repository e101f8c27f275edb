"""Astra's insight extractor without an LLM: recurring patterns across recent session narratives.

Astra ("Memory Consolidation Layer Specification", Insight Extractor): collect the narratives of the last
7 days (``insight_lookback_days``), cluster them by semantic similarity, and turn each cluster of at least
3 (``insight_min_cluster_size``) into a LEARNING_PATTERN with ``pattern_text``, ``evidence_ids`` (the
narratives) and a ``confidence`` "based on repetition and consistency". memlab's rendering:

* narratives are the store's summaries whose end falls in ``[now − lookback, now]`` (with
  ``summarizer=session_narrative`` and sessions as clusters they are Astra's session narratives; any other
  summarizer's summaries are used the same way); each is embedded as its recall unit's text;
* clustering: average linkage on cosine distance cut at ``insight_similarity`` (Astra names no threshold;
  the default 0.85 is the seed's clustering threshold), clusters of ``insight_min_cluster_size`` or more
  (:func:`~memlab.embed.linkage.average_linkage`, the agglomerative clusterer's, without its canonical row
  order and size cap);
* ``confidence = consistency · repetition``: consistency = mean pairwise cosine of the cluster's narratives
  (clipped to [0, 1]), repetition = ``min(1, n / (2 · min_cluster_size))`` (3 narratives → 0.5, 6 → 1);
* ``text`` (Astra's LLM writes it): ``Recurring in <n> sessions <first>..<last>: <keywords>. Most typical:
  <the most central narrative's summary>``; keywords = content tokens of the narratives' source memories
  found in at least half of the narratives (most widespread first, then most frequent, then alphabetical;
  at most 5);
* ``category`` (Astra: ontological, relational, capability, ... from the LLM): the dominant namespace of
  the narratives;
* with an LLM: when the summarizer writes patterns (``write_insight``: ``summarizer=dspy`` with
  ``prompt=astra``, memlab/llm/astra_signatures.py), the pattern sentence and category are the model's
  (the clusters, evidence and confidence stay the rules above).

Insights are kept in ``store.insights`` by id (a hash of the evidence ids): a pattern found again with the
same evidence is the same insight; each consolidation adds the patterns of its window.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import numpy as np

from memlab.core.types import Summary
from memlab.embed.linkage import average_linkage
from memlab.pipeline.store import MemoryStore
from memlab.pipeline.units import summary_unit
from memlab.pipeline.vectors import StoreEmbedder
from memlab.wiring.components import Components


@dataclass(frozen=True)
class Insight:
    """A recurring pattern across narratives (Astra's LEARNING_PATTERN).

    Attributes:
        id: ``insight-`` + hash of the sorted evidence ids.
        text: The pattern, in words.
        evidence_ids: The narratives (summary ids) it rests on, in time order.
        confidence: In [0, 1]: consistency · repetition.
        category: Dominant namespace of the narratives.
        start: Earliest narrative start.
        end: Latest narrative end.
        found_at: The consolidation clock that found it.
        run_id: The consolidation run that found it.
    """

    id: str
    text: str
    evidence_ids: tuple[str, ...]
    confidence: float
    category: str
    start: datetime
    end: datetime
    found_at: datetime
    run_id: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (for the run's info)."""
        return {
            "id": self.id,
            "text": self.text,
            "evidence_ids": list(self.evidence_ids),
            "confidence": self.confidence,
            "category": self.category,
            "start": self.start.isoformat(),
            "end": self.end.isoformat(),
            "found_at": self.found_at.isoformat(),
            "run_id": self.run_id,
        }


def recent_narratives(store: MemoryStore, now: datetime, lookback_days: float) -> list[Summary]:
    """Summaries ending in ``[now − lookback_days, now]``, in time order (end, then id)."""
    since = now - timedelta(days=lookback_days)
    found = [s for s in store.summaries.values() if since <= s.temporal_end <= now]
    return sorted(found, key=lambda s: (s.temporal_end, s.id))


def confidence(vectors: np.ndarray, min_cluster_size: int) -> float:
    """``consistency · repetition`` of a cluster's unit vectors (see the module docstring)."""
    n = len(vectors)
    if n < 2:
        return 0.0
    sims = vectors @ vectors.T
    consistency = float((sims.sum() - np.trace(sims)) / (n * (n - 1)))
    repetition = min(1.0, n / (2 * min_cluster_size))
    return round(min(1.0, max(0.0, consistency)) * repetition, 4)


def keywords(store: MemoryStore, narratives: list[Summary], limit: int = 5) -> list[str]:
    """Content tokens of the narratives' sources found in at least half of the narratives."""
    # lazy: memlab.text.slot_parse takes ~20 ms to import; insights are off by default and in the hook
    from memlab.text.slot_parse import content_tokens as tokens

    spread: Counter = Counter()
    total: Counter = Counter()
    for narrative in narratives:
        words = [t for sid in narrative.source_ids if sid in store.memories for t in tokens(store.memories[sid].text)]
        words = [w for w in words if not w.isdigit()]
        total.update(words)
        spread.update(set(words))
    need = len(narratives) / 2
    ranked = sorted((w for w, c in spread.items() if c >= need), key=lambda w: (-spread[w], -total[w], w))
    return ranked[:limit]


def cluster_labels(vectors: np.ndarray, similarity: float, min_size: int) -> np.ndarray:
    """Average-linkage clusters of unit rows on cosine distance, cut at ``1 − similarity``; clusters under
    ``min_size`` are -1. Rows come in time order, so the labels are deterministic.
    """
    labels = np.full(len(vectors), -1, dtype=int)
    if len(vectors) < max(2, min_size):
        return labels
    raw = average_linkage(vectors, similarity)
    sizes = np.bincount(raw)
    for label in range(len(sizes)):
        if sizes[label] >= min_size:
            labels[raw == label] = label
    return labels


def extract_insights(store: MemoryStore, components: Components, now: datetime, run_id: str) -> list[Insight]:
    """Find the patterns of the narratives in the lookback window; store and return them (time order)."""
    settings = components.settings
    if store.insights is None:
        store.insights = {}
    narratives = recent_narratives(store, now, settings.insight_lookback_days)
    min_size = settings.insight_min_cluster_size
    if len(narratives) < min_size:
        return []
    texts = [summary_unit(s).text for s in narratives]
    matrix = np.asarray(StoreEmbedder(store, components.embedder).encode(texts), dtype=np.float64)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    matrix = matrix / np.where(norms > 0, norms, 1.0)
    labels = cluster_labels(matrix, settings.insight_similarity, min_size)
    found: list[Insight] = []
    for label in sorted({int(x) for x in labels if x >= 0}):
        rows = [i for i, x in enumerate(labels) if x == label]
        if len(rows) < min_size:
            continue
        members = [narratives[i] for i in rows]
        vectors = matrix[rows]
        central = (vectors @ vectors.T).sum(axis=1)
        typical = members[max(range(len(rows)), key=lambda k: (round(float(central[k]), 9), members[k].temporal_end))]
        words = keywords(store, members)
        start, end = min(s.temporal_start for s in members), max(s.temporal_end for s in members)
        text = f"Recurring in {len(members)} sessions {start.date()}..{end.date()}"
        text += f": {', '.join(words)}." if words else "."
        text += f" Most typical: {typical.summary}"
        ids = tuple(s.id for s in members)
        digest = hashlib.sha256("\x00".join(sorted(ids)).encode()).hexdigest()[:12]
        category = Counter(s.namespace for s in members).most_common(1)[0][0]
        written = components.summarizer.write_insight(members)  # SummarizerBase: None
        if written is not None:  # an LLM summarizer that writes Astra's patterns (summarizer=dspy prompt=astra)
            text, category = written
        insight = Insight(
            f"insight-{digest}", text, ids, confidence(vectors, min_size), category, start, end, now, run_id
        )
        store.insights.setdefault(insight.id, insight)
        found.append(insight)
    return sorted(found, key=lambda i: (i.end, i.id))
