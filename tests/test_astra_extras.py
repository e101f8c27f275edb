"""Astra's extras: insight extraction and the identity anchor, against hand-computed values."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from memlab.benchmarks.base import DatasetCard
from memlab.benchmarks.project_history.evaluate import evaluate_history
from memlab.core.types import Memory, Summary
from memlab.data.project_history.builtin import generate as generate_builtin
from memlab.embed.tfidf import TfidfEmbedder
from memlab.pipeline.anchor import IdentityAnchor, action_for, cosine_distance, fold
from memlab.pipeline.astra import extras_info, extras_metrics, extras_metrics_all
from memlab.pipeline.audit import read_audit, replay
from memlab.pipeline.episode import Episode, run_episode
from memlab.pipeline.insights import confidence, extract_insights, recent_narratives
from memlab.pipeline.store import MemoryStore
from memlab.strategies.clusterer.time_window import TimeWindowClusterer
from memlab.strategies.judge.similarity import SimilarityJudge
from memlab.strategies.retention.none import NoRetention
from memlab.strategies.retriever.dense import DenseRetriever
from memlab.strategies.selector.seed_weighted import SeedWeightedSelector
from memlab.strategies.summarizer.session_narrative import SessionNarrativeSummarizer
from memlab.strategies.temporal.none import NoResolver
from memlab.wiring.components import Components, PipelineSettings

T0 = datetime(2025, 4, 7, 9, 0, tzinfo=UTC)
E1, E2 = np.array([1.0, 0.0]), np.array([0.0, 1.0])


def test_first_narratives_set_the_origin():
    anchor = IdentityAnchor()
    record = fold(anchor, [E1])
    assert record == {"narratives": 1, "drift_from_origin": 0.0, "drift_from_previous": 0.0, "action": "origin"}
    assert np.allclose(anchor.origin, E1) and np.allclose(anchor.live, E1)


def test_anchor_moves_a_tenth_of_the_way_and_drift_is_the_cosine_distance():
    anchor = IdentityAnchor()
    fold(anchor, [E1])
    record = fold(anchor, [E2])
    # live = (0.9, 0.1) / sqrt(0.82); drift = 1 - 0.9 / sqrt(0.82) = 0.0061163
    assert np.allclose(anchor.live, np.array([0.9, 0.1]) / math.sqrt(0.82))
    assert record["drift_from_origin"] == pytest.approx(0.0061163, abs=1e-6)
    assert record["drift_from_previous"] == pytest.approx(0.0061163, abs=1e-6)
    assert record["action"] == "updated"
    record = fold(anchor, [E2])
    # live = unit(0.9 * (0.99388, 0.11043) + 0.1 * (0, 1)) = unit(0.89450, 0.19939); 1 - 0.89450 / 0.91645
    assert record["drift_from_origin"] == pytest.approx(0.0239545, abs=1e-6)
    assert record["drift_from_previous"] == pytest.approx(0.0058980, abs=1e-6)


def test_new_narratives_are_averaged_before_the_update():
    anchor = IdentityAnchor()
    fold(anchor, [E1])
    fold(anchor, [E2, -E2])  # mean (0, 0): 0.9·live + 0.1·0 normalises back to live
    assert np.allclose(anchor.live, E1)
    fold(anchor, [E1, E2], weight=1.0)  # mean direction 45 degrees
    assert anchor.drift == pytest.approx(1 - math.cos(math.radians(45)))


def test_warnings_above_point_two_and_point_four():
    assert action_for(0.2, 0.2, 0.4) == "updated" and action_for(0.21, 0.2, 0.4) == "warning"
    assert action_for(0.4, 0.2, 0.4) == "warning" and action_for(0.41, 0.2, 0.4) == "critical"
    anchor = IdentityAnchor()
    fold(anchor, [E1])
    at40 = np.array([math.cos(math.radians(40)), math.sin(math.radians(40))])
    record = fold(anchor, [at40], weight=1.0)  # drift 1 - cos 40 = 0.234
    assert record["drift_from_origin"] == pytest.approx(0.233956, abs=1e-6) and record["action"] == "warning"
    assert fold(anchor, [], weight=1.0)["action"] == "warning"  # nothing new, still drifted
    record = fold(anchor, [E2], weight=1.0)
    assert record["drift_from_origin"] == pytest.approx(1.0) and record["action"] == "critical"
    assert cosine_distance(None, E1) == 0.0 and fold(IdentityAnchor(), [])["action"] == "no_origin"


def test_confidence_is_consistency_times_repetition():
    a, b, c = np.array([1, 0, 0.0]), np.array([0.8, 0.6, 0]), np.array([0.8, 0, 0.6])
    # pairwise cosines 0.8, 0.8, 0.64 -> mean 0.74667; 3 narratives at min size 3 -> repetition 0.5
    assert confidence(np.stack([a, b, c]), 3) == pytest.approx(0.3733, abs=1e-4)
    assert confidence(np.stack([a, a, a, a, a, a]), 3) == 1.0


class TableEmbedder:
    name = "table"
    version = 1
    model_id = "table"

    def __init__(self, table):
        self.table = table

    def encode(self, texts):
        return np.stack([np.asarray(self.table[t], dtype=np.float32) for t in texts])


def narrative(sid: str, days: float, text: str, sources: tuple[str, ...], namespace: str = "decisions") -> Summary:
    at = T0 + timedelta(days=days)
    return Summary(sid, namespace, text, (), (), (), at - timedelta(hours=1), at, sources)


def insight_store() -> tuple[MemoryStore, Components]:
    table = {
        "old session": [1, 0, 0, 0],
        "session one": [1, 0, 0, 0],
        "session two": [0.8, 0.6, 0, 0],
        "session three": [0.8, 0, 0.6, 0],
        "unrelated session": [0, 0, 0, 1],
    }
    store = MemoryStore(
        [
            Memory("m0", "decisions", T0, "Redis cache for sessions"),
            Memory("m1", "decisions", T0 + timedelta(days=4), "Redis cache warmed nightly"),
            Memory("m2", "progress", T0 + timedelta(days=6), "Cache hit rate of Redis measured"),
            Memory("m3", "decisions", T0 + timedelta(days=8), "Redis cache keys expire hourly"),
            Memory("m4", "progress", T0 + timedelta(days=9), "Wrote the release notes"),
        ]
    )
    for s in (
        narrative("n0", 0, "old session", ("m0",)),
        narrative("n1", 4, "session one", ("m1",)),
        narrative("n2", 6, "session two", ("m2",), "progress"),
        narrative("n3", 8, "session three", ("m3",)),
        narrative("n4", 9, "unrelated session", ("m4",)),
    ):
        store.summaries[s.id] = s
    settings = PipelineSettings(insights=True, insight_similarity=0.7)
    return store, comps(TableEmbedder(table), settings)


def comps(embedder, settings: PipelineSettings, clusterer=None) -> Components:
    return Components(
        embedder=embedder,
        retention=NoRetention(),
        clusterer=clusterer or TimeWindowClusterer(mode="gap", gap_minutes=30, min_cluster_size=2),
        summarizer=SessionNarrativeSummarizer(),
        judge=SimilarityJudge(),
        temporal=NoResolver(),
        selector=SeedWeightedSelector(min_confidence=0.0),
        retriever=DenseRetriever(),
        settings=settings,
    )


def test_insights_cluster_the_last_seven_days_of_narratives():
    store, components = insight_store()
    now = T0 + timedelta(days=10)
    assert [s.id for s in recent_narratives(store, now, 7)] == ["n1", "n2", "n3", "n4"]
    (insight,) = extract_insights(store, components, now, "run_x")
    assert insight.evidence_ids == ("n1", "n2", "n3")  # n0 is older than 7 days, n4 is unrelated
    assert insight.confidence == pytest.approx(0.3733, abs=1e-4)
    assert insight.category == "decisions" and insight.found_at == now and insight.run_id == "run_x"
    assert insight.text.startswith(
        "Recurring in 3 sessions 2025-04-11..2025-04-15: cache, redis. Most typical: session one"
    )
    assert store.insights == {insight.id: insight}
    assert extras_metrics(store) == {"n_narratives": 5.0, "n_insights": 1.0}
    assert extras_info(store)["insights"][0]["evidence_ids"] == ["n1", "n2", "n3"]


def test_fewer_narratives_than_a_cluster_find_nothing():
    store, components = insight_store()
    assert extract_insights(store, components, T0 + timedelta(days=20), "r") == []
    assert store.insights == {}


def sessions(days: int = 5) -> list[Memory]:
    topics = ["redis cache eviction policy", "redis cache warmup job", "redis cache key expiry"]
    return [
        Memory(f"d{d}s{i}", "decisions", T0 + timedelta(days=d, minutes=10 * i), f"{topics[i]} day {d}")
        for d in range(days)
        for i in range(3)
    ]


def test_extras_run_per_consolidation_and_are_off_by_default():
    settings = PipelineSettings(schedule="session", identity_anchor=True, insights=True, insight_similarity=0.3)
    out = run_episode(Episode("e", tuple(sessions())), comps(TfidfEmbedder(), settings))
    log = out.store.anchor.log
    assert len(log) == len(out.runs) == 5
    # a session's narrative is folded once the next session began: the first run has none, the last session none
    assert [r["action"] for r in log[:2]] == ["no_origin", "origin"]
    assert [r["narratives"] for r in log] == [0, 1, 1, 1, 1]
    assert len(out.store.anchor.incorporated) == 4 and len(out.store.summaries) == 5
    assert [r["run_id"] for r in log] == [r.run_id for r in out.runs]
    assert extras_metrics(out.store)["anchor_drift"] == log[-1]["drift_from_origin"] > 0
    assert out.store.insights and all(len(i.evidence_ids) >= 3 for i in out.store.insights.values())
    assert out.seconds["astra"] > 0
    plain = run_episode(Episode("e", tuple(sessions())), comps(TfidfEmbedder(), PipelineSettings()))
    assert plain.store.anchor is None and plain.store.insights is None and extras_metrics(plain.store) == {}
    assert "astra" not in plain.seconds


def test_anchor_drift_is_absent_without_a_narrative():
    settings = PipelineSettings(schedule="session", identity_anchor=True)
    lone = tuple(Memory(f"m{d}", "decisions", T0 + timedelta(days=d), f"note {d}") for d in range(3))
    out = run_episode(Episode("e", lone), comps(TfidfEmbedder(), settings))  # sessions of one: no narrative
    assert [r["action"] for r in out.store.anchor.log] == ["no_origin"] * 3
    assert extras_metrics(out.store) == {
        "n_narratives": 0.0,
        "n_anchor_updates": 0.0,
        "n_anchor_warnings": 0.0,
        "n_anchor_critical": 0.0,
    }


def test_extras_metrics_over_several_stores_sum_counts_and_average_the_drift():
    settings = PipelineSettings(schedule="session", identity_anchor=True, insights=True, insight_similarity=0.3)
    a = run_episode(Episode("a", tuple(sessions(5))), comps(TfidfEmbedder(), settings)).store
    b = run_episode(Episode("b", tuple(sessions(3))), comps(TfidfEmbedder(), settings)).store
    one, two = extras_metrics(a), extras_metrics(b)
    both = extras_metrics_all([a, b])
    assert both["n_narratives"] == one["n_narratives"] + two["n_narratives"] == 8
    assert both["n_insights"] == one["n_insights"] + two["n_insights"]
    assert both["n_anchor_updates"] == 6  # 4 + 2: the session open at each episode's end is not folded
    assert both["anchor_drift"] == pytest.approx((one["anchor_drift"] + two["anchor_drift"]) / 2)
    assert both["anchor_drift_max"] == max(one["anchor_drift_max"], two["anchor_drift_max"])


def test_history_benchmark_reports_anchor_drift_and_the_online_audit():
    history = generate_builtin(0)
    card = DatasetCard("builtin_history", "1", "x", "MIT", "test", "current_truth_at_1")
    settings = PipelineSettings(mode="online", online_min_similarity=0.5, identity_anchor=True)
    result = evaluate_history(history, comps(TfidfEmbedder(), settings, clusterer=None), card)
    assert "anchor_drift" in result.metrics and "anchor_log" in result.info
    audit = read_audit(result.artifacts["audit.jsonl"])
    assert {r["operation"] for r in audit} >= {"ADD"}
    assert set(replay(audit, MemoryStore()).memories) >= {m.id for m in history.memories}
    batch = evaluate_history(history, comps(TfidfEmbedder(), PipelineSettings()), card)
    assert "audit.jsonl" not in batch.artifacts and "anchor_drift" not in batch.metrics
