"""Consolidation phases, recall modes, validity, activation and injection on tiny hand-made data."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from memlab.core.errors import MemlabError
from memlab.core.types import EdgeType, Memory, Relation, Tier, Verdict
from memlab.embed.knn import knn_pairs
from memlab.embed.tfidf import TfidfEmbedder
from memlab.pipeline.consolidate import PHASES, consolidate
from memlab.pipeline.inject import TAG, store_block
from memlab.pipeline.recall import recall
from memlab.pipeline.steps import ARRIVAL_STEPS, STEPS
from memlab.pipeline.store import MemoryStore
from memlab.strategies.clusterer.agglomerative import AgglomerativeClusterer
from memlab.strategies.judge.base import JudgeBase
from memlab.strategies.judge.none import NoJudge
from memlab.strategies.retention.exponential import ExponentialRetention
from memlab.strategies.retriever.dense import DenseRetriever
from memlab.strategies.selector.seed_weighted import SeedWeightedSelector
from memlab.strategies.summarizer.extractive import ExtractiveSummarizer
from memlab.strategies.temporal.pattern_table import PatternTableResolver
from memlab.wiring.components import Components, PipelineSettings

T0 = datetime(2025, 1, 1, 12, 0, tzinfo=UTC)


class ScriptedJudge(JudgeBase):
    """Judge answering from a table of (older, newer) -> relation."""

    name = "scripted"
    version = 1

    def __init__(self, table):
        self.table = table

    def judge(self, older, newer, similarity=None):
        return Verdict(self.table.get((older.id, newer.id), Relation.COEXIST), 1.0, "scripted")


def components(judge=None, **settings) -> Components:
    return Components(
        embedder=TfidfEmbedder(),
        retention=ExponentialRetention(),
        clusterer=AgglomerativeClusterer(similarity_threshold=0.5, min_cluster_size=2),
        summarizer=ExtractiveSummarizer(),
        judge=judge or NoJudge(),
        temporal=PatternTableResolver(),
        selector=SeedWeightedSelector(min_confidence=0.0),
        retriever=DenseRetriever(),
        settings=PipelineSettings(**{"knn_k": 5, "min_pair_similarity": 0.0, "recall_summaries": False, **settings}),
    )


def framework_memories():
    return [
        Memory("a", "decisions", T0, "Use Flask for the web API", "Flask is simple."),
        Memory("b", "decisions", T0 + timedelta(days=10), "Use FastAPI for the web API", "Switched from Flask."),
        Memory("c", "decisions", T0 + timedelta(days=20), "Use Litestar for the web API", "Switched from FastAPI."),
        Memory("d", "progress", T0 + timedelta(days=5), "Added pagination", "Cursor based."),
    ]


def chain_store():
    table = {("a", "b"): Relation.SUPERSEDE, ("b", "c"): Relation.SUPERSEDE}
    store = MemoryStore(framework_memories())
    comps = components(ScriptedJudge(table))
    result = consolidate(store, comps, T0 + timedelta(days=30))
    return store, comps, result


def test_supersession_sets_validity_and_chain():
    store, _, result = chain_store()
    assert result.edges_created == {"supersedes": 2}
    assert store.state("a").superseded_by == "b"
    assert store.state("a").valid_until == store.memories["b"].timestamp
    assert store.state("c").superseded_by is None
    assert store.chain("b") == ["a", "b", "c"]
    assert store.current_of("a") == "c"
    assert store.valid_at("a", T0 + timedelta(days=5))
    assert not store.valid_at("a", T0 + timedelta(days=10))
    assert not store.valid_at("c", T0 + timedelta(days=19))


def test_earliest_superseder_wins():
    table = {("a", "c"): Relation.SUPERSEDE, ("a", "b"): Relation.SUPERSEDE}
    store = MemoryStore(framework_memories())
    consolidate(store, components(ScriptedJudge(table)), T0 + timedelta(days=30))
    assert store.state("a").superseded_by == "b"


def test_recall_current_only_and_exhaustive_and_as_of():
    store, comps, _ = chain_store()
    now = T0 + timedelta(days=30)
    ids = [h.memory.id for h in recall(store, comps, "web API framework", now, mode="deep", limit=10, track=False)]
    assert "a" not in ids and "b" not in ids and "c" in ids
    all_ids = [h.memory.id for h in recall(store, comps, "web API", now, mode="exhaustive", limit=10, track=False)]
    assert {"a", "b", "c"} <= set(all_ids)
    as_of = [h.memory.id for h in recall(store, comps, "web API", now, as_of=T0 + timedelta(days=12), track=False)]
    assert "b" in as_of and "a" not in as_of and "c" not in as_of


def test_recall_tracks_activation():
    store, comps, _ = chain_store()
    now = T0 + timedelta(days=31)
    hits = recall(store, comps, "web API", now, mode="exhaustive", limit=1)
    state = store.state(hits[0].memory.id)
    assert state.activation_count == 1 and state.last_accessed == now
    recall(store, comps, "web API", now, mode="exhaustive", limit=1, track=False)
    assert store.state(hits[0].memory.id).activation_count == 1


def test_recall_modes_filter_tiers():
    store = MemoryStore([Memory("x", "progress", T0, "old progress note", "")])
    comps = components()
    consolidate(store, comps, T0 + timedelta(days=400))
    tier = store.state("x").tier
    assert tier in (Tier.COLD, Tier.ARCHIVED)
    now = T0 + timedelta(days=400)
    assert recall(store, comps, "progress", now, mode="standard", track=False) == []
    assert [h.memory.id for h in recall(store, comps, "progress", now, mode="exhaustive", track=False)] == ["x"]
    with pytest.raises(MemlabError, match="unknown recall mode"):
        recall(store, comps, "progress", now, mode="everything")


def test_duplicates_collapse_in_recall():
    table = {("a", "a2"): Relation.DUPLICATE}
    mems = [
        Memory("a", "decisions", T0, "Use Flask", ""),
        Memory("a2", "decisions", T0 + timedelta(1), "Use Flask", ""),
    ]
    store = MemoryStore(mems)
    comps = components(ScriptedJudge(table))
    consolidate(store, comps, T0 + timedelta(days=2))
    assert store.state("a2").duplicate_of == "a"
    ids = [h.memory.id for h in recall(store, comps, "Flask", T0 + timedelta(days=2), track=False)]
    assert ids == ["a"]


def test_future_memories_are_invisible_to_consolidation():
    store = MemoryStore(framework_memories())
    result = consolidate(store, components(), T0 + timedelta(days=6))
    assert result.memories_processed == 2


def test_pairs_already_judged_are_not_rejudged():
    calls = []

    class Counting(NoJudge):
        def judge(self, older, newer, similarity=None):
            calls.append((older.id, newer.id))
            return super().judge(older, newer, similarity)

    store = MemoryStore(framework_memories())
    comps = components(Counting())
    consolidate(store, comps, T0 + timedelta(days=30))
    first = len(calls)
    consolidate(store, comps, T0 + timedelta(days=30))
    assert len(calls) == first
    consolidate(store, comps, T0 + timedelta(days=30), full=True)
    assert len(calls) == 2 * first


def test_knn_pairs_exact_on_tiny_matrix():
    x = np.array([[1, 0], [0.8, 0.6], [0, 1], [-1, 0]], dtype=np.float32)
    pairs = knn_pairs(x, k=1, min_similarity=0.1)
    assert [(i, j) for i, j, _ in pairs] == [(0, 1), (1, 2)]
    assert pairs[0][2] == pytest.approx(0.8)
    assert knn_pairs(x[:1], 3, 0.0) == []


def test_summaries_cover_clusters_and_injection_prefers_them():
    mems = [
        Memory(f"s{i}", "learnings", T0 + timedelta(days=i), "Pool size must exceed workers", f"obs {i}")
        for i in range(3)
    ]
    store = MemoryStore(mems)
    comps = components()
    result = consolidate(store, comps, T0 + timedelta(days=5))
    assert result.summaries_created == 1
    summary = next(iter(store.summaries.values()))
    assert sorted(summary.source_ids) == ["s0", "s1", "s2"]
    assert all(e.type is EdgeType.CONSOLIDATES for e in store.edges_of(summary.id))
    block = store_block(store, comps, T0 + timedelta(days=5))
    assert [c.id for c in block.items] == [summary.id]


def test_block_is_deterministic_and_within_budget():
    store, comps, _ = chain_store()
    now = T0 + timedelta(days=30)
    b1 = store_block(store, comps, now)
    b2 = store_block(store, comps, now)
    assert b1.text == b2.text and b1.text.startswith(f'<{TAG} version="{b1.version}" generated_at="2025-01-31">')
    assert b1.text.endswith(f"</{TAG}>")
    assert "Litestar" in b1.text and "Flask for the web API" not in b1.text
    small = components(ScriptedJudge({}), budget_tokens=60)
    consolidate(store, small, now)
    assert store_block(store, small, now).tokens <= 60


def test_the_block_is_cut_to_max_chars_by_dropping_its_last_items():
    store, comps, _ = chain_store()
    now = T0 + timedelta(days=30)
    full = store_block(store, comps, now)
    assert len(full.items) >= 2 and store_block(store, comps, now, max_chars=len(full.text)).text == full.text
    cut = store_block(store, comps, now, max_chars=len(full.text) - 1)
    assert 0 < len(cut.items) < len(full.items) and cut.items == full.items[: len(cut.items)]
    assert len(cut.text) <= len(full.text) - 1 and cut.version != full.version


def test_a_judge_that_observes_the_store_sees_every_memory_before_any_pair():
    seen: list[tuple[str, object]] = []

    class Observing(NoJudge):
        def observe(self, memories):
            seen.append(("observe", sorted(m.id for m in memories)))

        def judge(self, older, newer, similarity=None):
            seen.append(("judge", (older.id, newer.id)))
            return super().judge(older, newer, similarity)

    mems = framework_memories()
    store = MemoryStore(mems)
    consolidate(store, components(Observing()), T0 + timedelta(days=30))
    assert seen[0] == ("observe", sorted(m.id for m in mems))
    assert any(kind == "judge" for kind, _ in seen[1:])
    # a memory recorded after the run's clock is not observed (no look-ahead)
    seen.clear()
    consolidate(MemoryStore(mems), components(Observing()), T0 + timedelta(days=6))
    visible = sorted(m.id for m in mems if m.timestamp <= T0 + timedelta(days=6))
    assert seen[0] == ("observe", visible) and len(visible) < len(mems)


def steps_on(**settings) -> list[str]:
    """Names of the step-table rows a policy with ``settings`` runs, in order."""
    policy = PipelineSettings(**settings)
    return [step.run.__name__ for step in STEPS if step.when(policy)]


def test_the_step_table_runs_each_extra_only_when_its_setting_is_on():
    core = ["scan", "cluster", "judge", "summarize", "tier", "persist"]
    assert steps_on() == core
    assert steps_on(propagate_supersession=True) == [*core[:3], "propagate", *core[3:]]
    online = ["scan", "cluster", "arrive", "summarize", "tier", "keep_deleted", "persist"]  # arrive: incremental runs
    assert steps_on(mode="online") == steps_on(mode="online", propagate_supersession=True) == online
    assert steps_on(insights=True) == [*core[:5], "insights", "persist"]
    assert steps_on(identity_anchor=True, insights=True) == [*core[:5], "insights", "anchor", "persist"]
    assert {step.phase for step in STEPS} == {*PHASES, "astra"}
    assert [step.run.__name__ for step in ARRIVAL_STEPS if step.when(PipelineSettings(mode="online"))] == [
        "process_arrival"
    ]
    assert [step for step in ARRIVAL_STEPS if step.when(PipelineSettings())] == []


def test_online_consolidation_judges_no_pair_and_times_every_phase():
    table = {("a", "b"): Relation.SUPERSEDE, ("b", "c"): Relation.SUPERSEDE}
    store = MemoryStore(framework_memories())
    result = consolidate(store, components(ScriptedJudge(table), mode="online"), T0 + timedelta(days=30))
    assert result.edges_created == {} and store.state("a").superseded_by is None
    assert list(result.phase_seconds) == list(PHASES)
    assert store.runs == [result] and result.summaries_created == len(store.summaries) > 0


def test_propagation_runs_after_the_judge_and_counts_its_edges():
    memories = [
        Memory("a", "decisions", T0, "Use Flask for the web API", "Flask is simple."),
        Memory("a2", "decisions", T0 + timedelta(days=1), "Use Flask for the web API", "Flask is simple."),
        Memory("b", "decisions", T0 + timedelta(days=10), "Use FastAPI for the web API", "Switched from Flask."),
    ]
    judge = ScriptedJudge({("a", "b"): Relation.SUPERSEDE})  # exact dedup hides a2 from the judge
    results = {}
    for propagate in (False, True):
        store = MemoryStore(memories)
        policy = components(judge, propagate_supersession=propagate)
        results[propagate] = consolidate(store, policy, T0 + timedelta(days=30))
    assert results[False].edges_created == {"duplicates": 1, "supersedes": 1}
    assert results[True].edges_created == {"duplicates": 1, "supersedes": 2}
    assert store.state("a2").superseded_by == "b"
