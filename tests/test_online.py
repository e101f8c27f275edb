"""Online consolidation (pipeline.mode=online): one test per operation, the audit log and its replay."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from memlab.core.errors import MemlabError
from memlab.core.types import EdgeType, Memory, Relation, Tier, Verdict
from memlab.embed.tfidf import TfidfEmbedder
from memlab.pipeline.audit import OPERATIONS, audit_jsonl, read_audit, replay
from memlab.pipeline.episode import Episode, run_episode
from memlab.pipeline.history import history_of
from memlab.pipeline.online import delete, expand_merged, process_arrival
from memlab.pipeline.online_search import candidates, merged_sources
from memlab.pipeline.store import MemoryStore
from memlab.strategies.clusterer.none import NoClusterer
from memlab.strategies.judge.base import JudgeBase
from memlab.strategies.retention.exponential import ExponentialRetention
from memlab.strategies.retention.none import NoRetention
from memlab.strategies.retriever.dense import DenseRetriever
from memlab.strategies.selector.none import NoSelector
from memlab.strategies.summarizer.extractive import ExtractiveSummarizer
from memlab.strategies.temporal.none import NoResolver
from memlab.wiring.components import Components, PipelineSettings

T0 = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)
RECORD_KEYS = {"operation", "sources", "target", "classification", "confidence", "reasoning", "before", "after"}


class TableEmbedder:
    """Vectors from a table keyed by text (unknown texts: a vector orthogonal to every table entry)."""

    name = "table"
    version = 1
    model_id = "table"

    def __init__(self, table: dict[str, list[float]], dim: int = 4) -> None:
        self.table = table
        self.dim = dim

    def encode(self, texts):
        out = []
        for text in texts:
            vec = np.array(self.table.get(text, [0.0] * (self.dim - 1) + [1.0]), dtype=np.float32)
            out.append(vec / np.linalg.norm(vec))
        return np.stack(out) if out else np.zeros((0, self.dim), dtype=np.float32)


class ScriptedJudge(JudgeBase):
    """Answers from a table (older id, newer id) -> relation; counts its calls."""

    name = "scripted"
    version = 1

    def __init__(self, table=None, confidence: float = 0.9) -> None:
        self.table = table or {}
        self.confidence = confidence
        self.calls: list[tuple[str, str]] = []

    def judge(self, older, newer, similarity=None):
        self.calls.append((older.id, newer.id))
        return Verdict(self.table.get((older.id, newer.id), Relation.COEXIST), self.confidence, "scripted")


def comps(judge=None, embedder=None, retention=None, **settings) -> Components:
    return Components(
        embedder=embedder or TfidfEmbedder(),
        retention=retention or NoRetention(),
        clusterer=NoClusterer(),
        summarizer=ExtractiveSummarizer(),
        judge=judge or ScriptedJudge(),
        temporal=NoResolver(),
        selector=NoSelector(),
        retriever=DenseRetriever(),
        settings=PipelineSettings(**{"mode": "online", **settings}),
    )


def mem(mid: str, hours: float, summary: str, content: str = "", namespace: str = "decisions") -> Memory:
    return Memory(mid, namespace, T0 + timedelta(hours=hours), summary, content, ("api",))


# Two near vectors (cosine 0.99) and one far from both.
NEAR = {"Use Flask for the API": [1, 0.1, 0, 0], "Use FastAPI for the API": [1, 0.12, 0, 0]}
OLD, NEW = mem("a", 0, "Use Flask for the API"), mem("b", 5, "Use FastAPI for the API")


def run_pair(relation: Relation | None, **settings):
    judge = ScriptedJudge({("a", "b"): relation} if relation else {})
    components = comps(judge, TableEmbedder(NEAR), **settings)
    store = MemoryStore()
    process_arrival(store, components, OLD)
    before = store.state("a")
    records = process_arrival(store, components, NEW)
    return store, records, before, judge


def test_add_without_candidate_stores_the_memory_and_audits_it():
    store = MemoryStore()
    components = comps(embedder=TableEmbedder(NEAR))
    records = process_arrival(store, components, OLD)
    assert [r["operation"] for r in records] == ["ADD"]
    record = records[0]
    assert set(record) >= RECORD_KEYS
    assert record["sources"] == [] and record["target"] == "a" and record["classification"] is None
    assert record["memories"][0]["id"] == "a" and record["before"] == {"a": None}
    assert "a" in store.memories and "a" in store.embeddings and not store.edges


def test_duplicate_is_a_noop_that_refreshes_the_older_access_time():
    store, records, before, _ = run_pair(Relation.DUPLICATE)
    (record,) = records
    assert record["operation"] == "NOOP" and record["target"] == "a" and record["sources"] == ["b"]
    assert record["classification"] == "DUPLICATE" and record["confidence"] == 0.9
    assert record["reasoning"] == "scripted" and record["similarity"] > 0.85
    assert before.last_accessed is None
    assert store.state("a").last_accessed == NEW.timestamp
    assert store.state("a").access_times == (NEW.timestamp,)
    assert store.state("b").duplicate_of == "a"
    assert record["before"]["a"]["last_accessed"] is None
    assert record["after"]["a"]["last_accessed"] == NEW.timestamp.isoformat()
    assert ("b", "a", EdgeType.DUPLICATES) in store.edges


def test_supersession_is_an_update_that_ends_validity_and_links_the_chain():
    store, records, _, _ = run_pair(Relation.SUPERSEDE)
    (record,) = records
    assert record["operation"] == "UPDATE" and record["target"] == "a" and record["classification"] == "SUPERSEDE"
    state = store.state("a")
    assert state.superseded_by == "b" and state.valid_until == NEW.timestamp
    assert store.chain("b") == ["a", "b"]
    assert [m.id for m in history_of(store, "a")] == ["a", "b"]
    assert record["before"]["a"]["valid_until"] is None and record["after"]["a"]["superseded_by"] == "b"
    assert ("b", "a", EdgeType.SUPERSEDES) in store.edges
    assert store.state("a").tier is Tier.HOT  # no archive unless asked


def test_supersession_with_archiving_is_followed_by_a_delete_that_archives():
    store, records, _, _ = run_pair(Relation.SUPERSEDE, online_archive_superseded=True)
    assert [r["operation"] for r in records] == ["UPDATE", "DELETE"]
    assert records[1]["target"] == "a" and records[1]["after"]["a"]["tier"] == "archived"
    assert store.state("a").tier is Tier.ARCHIVED
    assert "a" in store.memories  # archived, never erased


def test_delete_outside_an_arrival_archives_and_audits():
    store, _, _, _ = run_pair(None)
    record = delete(store, "b", "obsolete")
    assert record["operation"] == "DELETE" and record["reasoning"] == "obsolete" and record["memories"] == []
    assert store.state("b").tier is Tier.ARCHIVED and store.audit[-1] is record


def test_merge_writes_a_combined_memory_citing_both_and_keeps_the_originals():
    store, records, _, _ = run_pair(Relation.MERGE)
    (record,) = records
    assert record["operation"] == "MERGE" and record["sources"] == ["a", "b"]
    combined = store.memories[record["target"]]
    assert merged_sources(combined) == ("a", "b")
    assert "Use Flask for the API" in combined.text and "Use FastAPI for the API" in combined.text
    assert combined.timestamp == NEW.timestamp and combined.id in store.embeddings
    assert store.memories["a"] is OLD and store.memories["b"] is NEW
    assert store.state("a").valid_until is None and store.state("b").duplicate_of is None
    assert ("b", "a", EdgeType.MERGES) in store.edges
    assert {(combined.id, "a"), (combined.id, "b")} <= {(s, t) for s, t, k in store.edges if k is EdgeType.REFERENCES}
    assert [m["id"] for m in record["memories"]] == ["b", combined.id]
    assert expand_merged(store, [combined.id, "x"]) == ["a", "b", "x"]


def test_superseding_a_merged_source_retires_the_combined_memory():
    judge = ScriptedJudge({("a", "b"): Relation.MERGE, ("a", "c"): Relation.SUPERSEDE})
    table = {**NEAR, "Use Litestar for the API": [1, 0.08, 0, 0]}
    store = MemoryStore()
    components = comps(judge, TableEmbedder(table), online_judge_all=True)
    for memory in (OLD, NEW, mem("c", 9, "Use Litestar for the API")):
        process_arrival(store, components, memory)
    (combined,) = [m for m in store.memories.values() if merged_sources(m)]
    assert store.state(combined.id).valid_until == T0 + timedelta(hours=9)
    assert combined.id not in [c.id for c, _ in candidates(store, components, store.memories["c"])]


def test_coexist_adds_the_memory_with_a_related_to_edge():
    store, records, _, _ = run_pair(Relation.COEXIST)
    (record,) = records
    assert record["operation"] == "ADD" and record["classification"] == "COEXIST" and record["target"] == "b"
    edge = store.edges[("b", "a", EdgeType.REFERENCES)]
    assert edge.reason == "related_to"
    assert store.state("a").valid_until is None and store.state("b").duplicate_of is None


def test_low_confidence_verdicts_are_held_for_review():
    judge = ScriptedJudge({("a", "b"): Relation.SUPERSEDE}, confidence=0.5)
    store = MemoryStore()
    components = comps(judge, TableEmbedder(NEAR), min_judge_confidence=0.8)
    process_arrival(store, components, OLD)
    (record,) = process_arrival(store, components, NEW)
    assert record["operation"] == "ADD" and record["review"]["relation"] == "SUPERSEDE"
    assert store.review_queue == [record["review"]] and store.state("a").valid_until is None


def test_candidates_respect_threshold_top_k_validity_and_order():
    table = {f"t{i}": [1, 0.05 * i, 0, 0] for i in range(6)}
    table["far"] = [0, 1, 0, 0]
    store = MemoryStore()
    judge = ScriptedJudge()
    components = comps(judge, TableEmbedder(table), online_top_k=3)
    memories = [mem(f"m{i}", i, f"t{i}") for i in range(6)] + [mem("z", 10, "far")]
    for memory in [*memories[:5], memories[6]]:
        process_arrival(store, components, memory)
    store.update_state("m4", valid_until=T0)  # superseded before m5 arrives: not a candidate
    store.add([memories[5]])
    found = candidates(store, components, memories[5])
    assert [m.id for m, _ in found] == ["m3", "m2", "m1"]
    assert all(s > 0.85 for _, s in found) and [s for _, s in found] == sorted((s for _, s in found), reverse=True)


def test_first_applied_verdict_ends_the_search_unless_judge_all():
    table = {"x": [1, 0, 0, 0], "y": [1, 0.05, 0, 0], "z": [1, 0.02, 0, 0]}
    for judge_all, expected in ((False, 1), (True, 2)):
        judge = ScriptedJudge()
        store = MemoryStore()
        components = comps(judge, TableEmbedder(table), online_judge_all=judge_all)
        for memory in (mem("x", 0, "x"), mem("y", 1, "y"), mem("z", 2, "z")):
            process_arrival(store, components, memory)
        assert len([c for c in judge.calls if c[1] == "z"]) == expected


def test_exact_duplicates_skip_the_judge():
    judge = ScriptedJudge()
    store = MemoryStore()
    components = comps(judge, TableEmbedder(NEAR))
    process_arrival(store, components, OLD)
    (record,) = process_arrival(store, components, replace(OLD, id="a2", timestamp=T0 + timedelta(hours=1)))
    assert record["operation"] == "NOOP" and record["reasoning"] == "identical text (exact dedup)"
    assert judge.calls == []


def test_settings_default_to_batch_and_reject_unknown_modes():
    assert PipelineSettings().mode == "batch"
    with pytest.raises(MemlabError, match=r"unknown pipeline\.mode 'stream'"):
        PipelineSettings.from_mapping({"mode": "stream"})
    with pytest.raises(MemlabError, match="online_top_k"):
        PipelineSettings.from_mapping({"online_top_k": 0})


def scenario() -> tuple[list[Memory], ScriptedJudge, dict[str, list[float]]]:
    table = {
        "Use Flask for the API": [1, 0.1, 0, 0],
        "Use FastAPI for the API": [1, 0.12, 0, 0],
        "FastAPI runs on uvicorn": [1, 0.14, 0.05, 0],
        "The API uses FastAPI": [1, 0.11, 0, 0.02],
        "Deploy on Fridays": [0, 1, 0, 0],
        "Deploy on Thursdays": [0, 1, 0.1, 0],
    }
    memories = [
        mem("m1", 0, "Use Flask for the API"),
        mem("m2", 24, "Use FastAPI for the API"),
        mem("m3", 30, "FastAPI runs on uvicorn"),
        mem("m4", 48, "The API uses FastAPI"),
        mem("m5", 50, "Deploy on Fridays", namespace="patterns"),
        mem("m6", 80, "Deploy on Thursdays", namespace="patterns"),
        mem("m7", 90, "Use FastAPI for the API"),
    ]
    relations = {
        ("m1", "m2"): Relation.SUPERSEDE,
        ("m2", "m3"): Relation.MERGE,
        ("m2", "m4"): Relation.DUPLICATE,
        ("m5", "m6"): Relation.SUPERSEDE,
    }
    return memories, ScriptedJudge(relations), table


def test_replay_of_the_audit_reproduces_the_final_store():
    memories, judge, table = scenario()
    embedder = TableEmbedder(table)
    components = comps(judge, embedder, online_judge_all=True, online_archive_superseded=True)
    start = MemoryStore(memories[:1])
    store = MemoryStore(memories[:1])
    store.audit.clear()
    for memory in memories[1:]:
        process_arrival(store, components, memory)
    ops = {r["operation"] for r in store.audit}
    assert ops == set(OPERATIONS)
    for audit in (store.audit, read_audit(audit_jsonl(store.audit))):
        again = replay(audit, start, embedder=embedder)
        assert again.memories == store.memories
        assert again.states == store.states
        assert again.edges == store.edges
        assert again.judged == store.judged and again.review_queue == store.review_queue
        assert set(again.embeddings) == set(store.embeddings)
        assert again.audit == store.audit
    assert len(start.memories) == 1 and not start.audit  # the start is not changed


def test_online_episode_skips_the_batch_judge_and_its_audit_replays():
    memories, judge, table = scenario()
    components = comps(
        judge, TableEmbedder(table), retention=ExponentialRetention(), schedule="every_n", schedule_every=2
    )
    out = run_episode(Episode("e", tuple(memories)), components)
    assert len(out.runs) == 4 and all(not r.edges_created for r in out.runs)
    assert set(judge.calls) <= out.store.judged and len(judge.calls) == len(set(judge.calls))
    assert out.seconds["online"] > 0
    again = replay(out.store.audit, MemoryStore())
    assert again.memories == out.store.memories
    validity = ("superseded_by", "valid_until", "duplicate_of", "last_accessed")
    for mid, state in out.store.states.items():
        assert all(getattr(again.states[mid], f) == getattr(state, f) for f in validity), mid
    assert again.edges == {k: e for k, e in out.store.edges.items() if e.type is not EdgeType.CONSOLIDATES}


def test_batch_mode_writes_no_audit():
    memories, judge, table = scenario()
    components = comps(judge, TableEmbedder(table), mode="batch")
    out = run_episode(Episode("e", tuple(memories)), components)
    assert out.store.audit == [] and "online" not in out.seconds


def test_what_a_delete_archived_stays_archived_through_tier_phases():
    judge = ScriptedJudge({("a", "b"): Relation.SUPERSEDE})
    components = comps(judge, TableEmbedder(NEAR), online_archive_superseded=True, schedule="every_n", schedule_every=1)
    out = run_episode(Episode("e", (OLD, NEW)), components)  # NoRetention tiers everything HOT
    assert out.store.state("a").tier is Tier.ARCHIVED and out.store.state("b").tier is Tier.HOT
    assert all(t.memory_id != "a" for run in out.runs for t in run.transitions)
