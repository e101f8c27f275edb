"""``recall --reason``: the seed's ReasonedAnswer — an answer, its temporal resolutions and its sources."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from memlab.pipeline.recall import RecallHit
from memlab.pipeline.store import MemoryStore


@dataclass(frozen=True)
class ReasonedAnswer:
    """What ``--reason`` returns.

    Attributes:
        answer: The best current memory's statement (``summary — content``), '' when nothing matched.
        temporal: Temporal expressions in the source memories, resolved against each memory's timestamp.
        sources: The recalled memories (id, namespace, timestamp, score, tier, supersession chain).
        confidence: Similarity of the best hit.
    """

    answer: str
    temporal: tuple[dict[str, Any], ...]
    sources: tuple[dict[str, Any], ...]
    confidence: float


def reason(store: MemoryStore, hits: list[RecallHit], temporal: Any) -> ReasonedAnswer:
    """Build the answer from recall hits with the spec's temporal resolver."""
    resolutions = []
    sources = []
    for hit in hits:
        m = hit.memory
        for ref in temporal.resolve(m.text, m.timestamp):
            resolutions.append(
                {
                    "memory": m.id,
                    "text": ref.text,
                    "start": ref.start.isoformat(),
                    "end": ref.end.isoformat(),
                    "grain": ref.grain,
                    "confidence": ref.confidence,
                }
            )
        sources.append(
            {
                "id": m.id,
                "namespace": m.namespace,
                "timestamp": m.timestamp.isoformat(),
                "summary": m.summary,
                "score": round(hit.score, 4),
                "tier": hit.tier.value,
                "chain": store.chain(m.id) if m.id in store.states else [m.id],  # a summary has no chain
            }
        )
    if not hits:
        return ReasonedAnswer("", (), (), 0.0)
    top = hits[0].memory
    answer = top.summary if not top.content or top.content == top.summary else f"{top.summary} — {top.content}"
    return ReasonedAnswer(answer, tuple(resolutions), tuple(sources), round(hits[0].score, 4))
