"""Online consolidation never loses unique information, whatever the judge says (hypothesis)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from memlab.core.types import Memory, Relation, Verdict
from memlab.pipeline.audit import replay
from memlab.pipeline.episode import Episode, run_episode
from memlab.pipeline.history import history_of
from memlab.pipeline.online import expand_merged
from memlab.pipeline.online_search import merged_sources
from memlab.pipeline.recall import eligible
from memlab.pipeline.store import MemoryStore
from memlab.strategies.clusterer.agglomerative import AgglomerativeClusterer
from memlab.strategies.judge.base import JudgeBase
from memlab.strategies.retention.exponential import ExponentialRetention
from memlab.strategies.retriever.dense import DenseRetriever
from memlab.strategies.selector.none import NoSelector
from memlab.strategies.summarizer.extractive import ExtractiveSummarizer
from memlab.strategies.temporal.none import NoResolver
from memlab.wiring.components import Components, PipelineSettings

T0 = datetime(2025, 2, 3, 8, 0, tzinfo=UTC)
TEXTS = ("use flask", "use fastapi", "use litestar", "deploy on friday", "deploy on monday", "cache in redis")


class NearEmbedder:
    """Every text points almost the same way (cosine > 0.9): every earlier memory is a candidate."""

    name = "near"
    version = 1
    model_id = "near"

    def encode(self, texts):
        rows = []
        for text in texts:
            i = sum(map(ord, text)) % 7
            vec = np.array([1.0, 0.05 * i, 0.03 * (i % 3), 0.02 * len(text) % 0.1], dtype=np.float32)
            rows.append(vec / np.linalg.norm(vec))
        return np.stack(rows) if rows else np.zeros((0, 4), dtype=np.float32)


class DrawnJudge(JudgeBase):
    """Whatever hypothesis draws: any relation, any confidence."""

    name = "drawn"
    version = 1

    def __init__(self, data) -> None:
        self.data = data

    def judge(self, older, newer, similarity=None):
        relation = self.data.draw(st.sampled_from(list(Relation)), label=f"{older.id}->{newer.id}")
        confidence = self.data.draw(st.sampled_from([0.2, 0.6, 1.0]), label="confidence")
        return Verdict(relation, confidence, "drawn")


@settings(max_examples=60, deadline=None)
@given(
    texts=st.lists(st.sampled_from(TEXTS), min_size=2, max_size=9),
    gaps=st.lists(st.integers(min_value=1, max_value=72), min_size=9, max_size=9),
    judge_all=st.booleans(),
    archive=st.booleans(),
    exact_dedup=st.booleans(),
    min_confidence=st.sampled_from([0.0, 0.5]),
    top_k=st.integers(min_value=1, max_value=5),
    schedule=st.sampled_from(["session", "every_n", "end"]),
    data=st.data(),
)
def test_no_unique_information_is_ever_lost(
    texts, gaps, judge_all, archive, exact_dedup, min_confidence, top_k, schedule, data
):
    times = np.cumsum(gaps[: len(texts)])
    memories = [
        Memory(f"m{i}", "decisions", T0 + timedelta(hours=int(h)), text)
        for i, (text, h) in enumerate(zip(texts, times, strict=True))
    ]
    components = Components(
        embedder=NearEmbedder(),
        retention=ExponentialRetention(),
        clusterer=AgglomerativeClusterer(min_cluster_size=2),
        summarizer=ExtractiveSummarizer(),
        judge=DrawnJudge(data),
        temporal=NoResolver(),
        selector=NoSelector(),
        retriever=DenseRetriever(),
        settings=PipelineSettings(
            mode="online",
            online_top_k=top_k,
            online_judge_all=judge_all,
            online_archive_superseded=archive,
            exact_dedup=exact_dedup,
            min_judge_confidence=min_confidence,
            schedule=schedule,
            schedule_every=3,
        ),
    )
    out = run_episode(Episode("e", tuple(memories)), components)
    store, end = out.store, out.end
    everything = {m.id for m in eligible(store, "exhaustive", end)}
    for memory in memories:
        assert store.memories[memory.id] == memory and store.memories[memory.id].text == memory.text
        assert memory.id in everything
        in_history = memory.id in [m.id for m in history_of(store, memory.id)]
        as_of = memory.id in [m.id for m in eligible(store, "standard", end, as_of=memory.timestamp)]
        assert in_history or as_of, memory.id
        superseder = store.state(memory.id).superseded_by
        if superseder is not None:  # the chain it belongs to leads to a stored memory
            assert superseder in store.memories
    originals = {m.id for m in memories}
    for memory in store.memories.values():
        if merged_sources(memory):
            assert set(expand_merged(store, [memory.id])) <= originals
            assert set(merged_sources(memory)) <= originals
    again = replay(store.audit, MemoryStore())
    assert again.memories == store.memories and set(again.edges) <= set(store.edges)
