"""The episode runner: schedules, what a query may see, the selector's budget, summary units."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlab.core.errors import MemlabError
from memlab.core.types import Memory, Relation, Verdict
from memlab.embed.tfidf import TfidfEmbedder
from memlab.pipeline.episode import Episode, Query, run_episode, session_of
from memlab.pipeline.units import is_summary, sources_of
from memlab.strategies.clusterer.agglomerative import AgglomerativeClusterer
from memlab.strategies.clusterer.none import NoClusterer
from memlab.strategies.judge.base import JudgeBase
from memlab.strategies.judge.none import NoJudge
from memlab.strategies.retention.none import NoRetention
from memlab.strategies.retriever.dense import DenseRetriever
from memlab.strategies.selector.none import NoSelector
from memlab.strategies.selector.seed_weighted import SeedWeightedSelector
from memlab.strategies.summarizer.extractive import ExtractiveSummarizer
from memlab.strategies.temporal.none import NoResolver
from memlab.wiring.components import Components, PipelineSettings

T0 = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)  # a Monday


def comps(**settings) -> Components:
    return Components(
        embedder=TfidfEmbedder(),
        retention=NoRetention(),
        clusterer=NoClusterer(),
        summarizer=ExtractiveSummarizer(),
        judge=NoJudge(),
        temporal=NoResolver(),
        selector=SeedWeightedSelector(min_confidence=0.0, max_items=50),
        retriever=DenseRetriever(),
        settings=PipelineSettings(**{"min_pair_similarity": 0.0, **settings}),
    )


def memories(days: int = 4, per_day: int = 3) -> list[Memory]:
    out = []
    for d in range(days):
        for i in range(per_day):
            ts = T0 + timedelta(days=d, hours=i)
            out.append(Memory(f"m{d}{i}", "progress", ts, f"worked on the parser module part {d} {i}"))
    return out


def test_session_schedule_consolidates_at_each_day_end_and_before_queries():
    query = Query("q", "parser module", T0 + timedelta(days=1, hours=1, minutes=30))
    out = run_episode(Episode("e", tuple(memories()), (query,)), comps())
    # day 0 ends (1), the query opens a session mid-day 1 (2), day 1 ends (3), day 2 ends (4), the end (5)
    assert len(out.runs) == 5
    assert [r.memories_processed for r in out.runs] == [3, 5, 6, 9, 12]
    assert out.runs[1].now == T0 + timedelta(days=1, hours=1)  # at the newest memory it saw


@pytest.mark.parametrize(("schedule", "every", "runs"), [("every_n", 5, [5, 10, 12]), ("end", 50, [12])])
def test_every_n_and_end_schedules(schedule, every, runs):
    out = run_episode(Episode("e", tuple(memories())), comps(schedule=schedule, schedule_every=every))
    assert [r.memories_processed for r in out.runs] == runs


def test_unknown_schedule_is_one_line():
    with pytest.raises(MemlabError, match=r"unknown pipeline\.schedule 'daily'; valid: session, every_n, end"):
        PipelineSettings.from_mapping({"schedule": "daily"})


def test_session_key_prefers_the_sources_own_sessions():
    assert session_of(Memory("a", "x", T0, "s", meta={"session": 3})) == "s:3"
    assert session_of(Memory("a", "x", T0, "s")) == "d:2025-03-03"


def test_a_query_sees_only_what_existed_at_its_time_and_answers_from_its_context():
    mems = memories()
    asked = T0 + timedelta(days=1, hours=0, minutes=30)
    seen = {}

    def answer(query, context, store):
        seen[query.id] = context
        return {"n": len(context.items)}

    out = run_episode(Episode("e", tuple(mems), (Query("q", "parser module part", asked, limit=50),)), comps(), answer)
    ids = seen["q"].memory_ids()
    assert ids and all(out.store.memories[i].timestamp <= asked for i in ids)
    assert len(ids) == 4  # three of day 0 and the first of day 1
    assert out.queries[0].answer == {"n": 4}


def test_the_selector_budget_bounds_the_context_and_none_selects_nothing():
    query = Query("q", "parser module", T0 + timedelta(days=5), limit=50)
    episode = Episode("e", tuple(memories()), (query,))
    roomy = run_episode(episode, comps()).queries[0].context
    tight = run_episode(episode, comps(budget_tokens=40)).queries[0].context
    nothing = run_episode(episode, replace(comps(), selector=NoSelector())).queries[0].context
    assert len(roomy.items) == 12 and roomy.tokens <= 2000
    assert 0 < len(tight.items) < 12 and tight.tokens <= 40
    assert nothing.items == () and nothing.tokens == 0 and len(nothing.hits) == 12
    # the context keeps retrieval order
    assert [i.rank for i in tight.items] == sorted(i.rank for i in tight.items)


def test_summaries_are_recall_units_citing_their_sources_and_old_ones_retire():
    mems = [
        Memory(f"k{i}", "decisions", T0 + timedelta(days=i), f"Use Kafka for the event bus, note {i}") for i in range(4)
    ]
    clustered = replace(
        comps(), clusterer=AgglomerativeClusterer(similarity_threshold=0.3, min_cluster_size=2, max_cluster_size=20)
    )
    query = Query("q", "Kafka event bus", T0 + timedelta(days=10), limit=10)
    out = run_episode(Episode("e", tuple(mems), (query,)), clustered)
    assert len(out.store.summaries) == 1  # the cluster grew day by day; earlier summaries were retired
    (summary,) = out.store.summaries.values()
    assert set(summary.source_ids) == {m.id for m in mems}
    context = out.queries[0].context
    units = [i.unit for i in context.items]
    assert any(is_summary(u) for u in units)
    assert set(sources_of(next(u for u in units if is_summary(u)))) == set(summary.source_ids)
    assert set(context.memory_ids()) == {m.id for m in mems}
    no_units = run_episode(
        Episode("e", tuple(mems), (query,)), replace(clustered, settings=PipelineSettings(recall_summaries=False))
    )
    assert not any(is_summary(i.unit) for i in no_units.queries[0].context.items)


class Supersede(JudgeBase):
    name, version = "supersede", 1

    def judge(self, older, newer, similarity=None):
        return Verdict(Relation.SUPERSEDE, 1.0, "newer wins")


def test_summaries_list_the_members_the_judge_found_superseded():
    mems = [
        Memory("a", "decisions", T0, "Use Kafka for the event bus"),
        Memory("b", "decisions", T0 + timedelta(days=1), "Use NATS for the event bus"),
        Memory("c", "decisions", T0 + timedelta(days=2), "Use Redis for the event bus"),
    ]
    policy = replace(
        comps(),
        judge=Supersede(),
        clusterer=AgglomerativeClusterer(similarity_threshold=0.2, min_cluster_size=2, max_cluster_size=20),
    )
    out = run_episode(Episode("e", tuple(mems)), policy)
    (summary,) = out.store.summaries.values()
    superseded = {f.source_memory_id: f.superseded_by for f in summary.superseded_facts}
    assert superseded == {"a": "Use NATS for the event bus", "b": "Use Redis for the event bus"}


def test_episodes_are_deterministic():
    episode = Episode("e", tuple(memories()), (Query("q", "parser", T0 + timedelta(days=2)),))
    a, b = run_episode(episode, comps()), run_episode(episode, comps())
    assert a.queries[0].context.unit_ids == b.queries[0].context.unit_ids
    assert a.block.text == b.block.text and [r.run_id for r in a.runs] == [r.run_id for r in b.runs]


def test_pausing_full_collections_changes_no_result_and_restores_the_thresholds(monkeypatch):
    import contextlib
    import gc

    from memlab.pipeline import episode as episode_module

    episode = Episode("e", tuple(memories()), (Query("q", "parser", T0 + timedelta(days=2)),))
    before, pause = gc.get_threshold(), episode_module.full_collections_paused
    paused = run_episode(episode, comps(schedule="session"))
    assert gc.get_threshold() == before
    monkeypatch.setattr(episode_module, "full_collections_paused", contextlib.nullcontext)
    plain = run_episode(episode, comps(schedule="session"))
    assert paused.queries[0].context.unit_ids == plain.queries[0].context.unit_ids
    assert paused.block.text == plain.block.text and len(paused.runs) == len(plain.runs)
    with pytest.raises(RuntimeError), pause():
        assert gc.get_threshold()[:2] == before[:2] and gc.get_threshold()[2] >= 1 << 30
        raise RuntimeError
    assert gc.get_threshold() == before


@settings(max_examples=40, deadline=None)
@given(
    offsets=st.lists(st.integers(0, 20 * 24), min_size=1, max_size=15),
    asks=st.lists(st.integers(0, 20 * 24), min_size=1, max_size=4),
    schedule=st.sampled_from(["session", "every_n", "end"]),
)
def test_no_query_ever_sees_a_later_memory(offsets, asks, schedule):
    mems = tuple(
        Memory(f"m{i:02d}", "progress", T0 + timedelta(hours=h), f"note about topic {i % 3} number {i}")
        for i, h in enumerate(offsets)
    )
    queries = tuple(Query(f"q{j}", "note about topic", T0 + timedelta(hours=h), limit=20) for j, h in enumerate(asks))
    out = run_episode(Episode("e", mems, queries), comps(schedule=schedule, schedule_every=3))
    for asked in out.queries:
        for hit in asked.context.hits:
            for mid in sources_of(hit.memory):
                assert out.store.memories[mid].timestamp <= asked.query.at
    assert sum(r.memories_processed > 0 for r in out.runs) == len(out.runs)
    assert out.runs[-1].memories_processed == len(mems)
