"""``recall --reason``: the seed's ReasonedAnswer — an answer, its temporal resolutions and its sources."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from memlab.adapter.recall_order import Shown
from memlab.pipeline.store import MemoryStore


@dataclass(frozen=True)
class ReasonedAnswer:
    """What ``--reason`` returns.

    Attributes:
        answer: The matching current memory's statement (``summary — content``), '' when none matches.
        temporal: Temporal expressions in the source memories, resolved against each memory's timestamp.
        sources: The recalled memories (id, namespace, timestamp, score, tier, supersession chain).
        confidence: Share of the question's content words the answer's memory holds.
    """

    answer: str
    temporal: tuple[dict[str, Any], ...]
    sources: tuple[dict[str, Any], ...]
    confidence: float


def reason(store: MemoryStore, shown: list[Shown], temporal: Any, question: str) -> ReasonedAnswer:
    """The answer from recall hits (``shown``: current ones first), with the spec's temporal resolver.

    The answer is the current hit that shares most content words with the question (the benchmarks' extractive
    reader's rule, :mod:`memlab.strategies.reader.statements`; ties: retrieval order), and none when no current hit
    shares one: the retriever ranks every memory, so its first hit need not be about the question. A cosine
    threshold on the policy's embedder was measured and not used: on generated histories it tells a question's
    evidence from the closest memory of another topic at a balanced accuracy of 0.66 (MiniLM) and 0.57 (TF-IDF)
    on held-out seeds (experiments/recall_for_people/match.py).
    """
    from memlab.strategies.reader.statements import overlap, question_tokens

    hits = [s.hit for s in shown]
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
    asked = question_tokens(question)
    shared = [(overlap(one.hit.memory.text, asked), -i) for i, one in enumerate(shown) if not one.superseded]
    best, at = max(shared, default=(0, 0))
    if not best:
        return ReasonedAnswer("", tuple(resolutions), tuple(sources), 0.0)
    top = hits[-at].memory
    answer = top.summary if not top.content or top.content == top.summary else f"{top.summary} — {top.content}"
    return ReasonedAnswer(answer, tuple(resolutions), tuple(sources), round(best / len(asked), 4))
