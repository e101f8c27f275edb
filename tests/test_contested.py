"""Namespace kNN candidates, tentative SUPERSEDE verdicts, and contested facts kept out of the block."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from memlab.core.types import Memory, Relation, Verdict
from memlab.embed.knn import knn_pairs, knn_pairs_within, merge_pairs
from memlab.pipeline.consolidate import consolidate
from memlab.pipeline.inject import candidates, contested, store_block
from memlab.pipeline.store import MemoryStore
from memlab.strategies.judge.base import JudgeBase
from memlab.strategies.judge.learned import verdict_from_proba
from memlab.strategies.selector.current_facts import CurrentFactsSelector
from tests.test_pipeline import components

T0 = datetime(2025, 1, 1, 12, 0, tzinfo=UTC)
CLASSES = ["COEXIST", "DUPLICATE", "MERGE", "SUPERSEDE"]


def test_knn_within_groups_pairs_only_members_of_one_group_in_full_indices():
    x = np.array([[1, 0], [0.9, 0.1], [0.8, 0.6], [0.0, 1.0], [0.6, 0.8]], dtype=np.float32)
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    groups = ["a", "b", "a", "b", "a"]
    pairs = knn_pairs_within(x, groups, k=1, min_similarity=0.0)
    assert [(i, j) for i, j, _ in pairs] == [(0, 2), (1, 3), (2, 4)]
    assert all(groups[i] == groups[j] for i, j, _ in pairs)
    assert pairs[0][2] == pytest.approx(float(x[0] @ x[2]))
    # the global 1-NN of 0 is 1 (other group); the union keeps both kinds, each pair once
    merged = merge_pairs(knn_pairs(x, 1, 0.0), pairs)
    assert (0, 1) in [(i, j) for i, j, _ in merged] and len(merged) == len({(i, j) for i, j, _ in merged})
    assert knn_pairs_within(x, groups, 0, 0.0) == []


def test_verdict_from_proba_argmax_and_tentative_supersede():
    p = [0.6, 0.0, 0.05, 0.35]
    assert verdict_from_proba(p, CLASSES).relation is Relation.COEXIST
    assert verdict_from_proba(p, CLASSES, 0.4).relation is Relation.COEXIST
    v = verdict_from_proba(p, CLASSES, 0.3)
    assert (v.relation, v.confidence) == (Relation.SUPERSEDE, pytest.approx(0.35))
    assert "tentative" in v.reason
    top = verdict_from_proba([0.1, 0.0, 0.1, 0.8], CLASSES, 0.3)
    assert (top.relation, top.confidence, "tentative" in top.reason) == (Relation.SUPERSEDE, 0.8, False)
    assert verdict_from_proba([0.5, 0.0, 0.5, 0.0], CLASSES).relation is Relation.COEXIST  # tie: earlier class


class TableJudge(JudgeBase):
    name, version = "table", 1

    def __init__(self, table):
        self.table = table

    def judge(self, older, newer, similarity=None):
        return self.table.get((older.id, newer.id), Verdict(Relation.COEXIST, 1.0, "table"))


def memories():
    return [
        Memory("old", "decisions", T0, "Use Jenkins as the CI provider", "Jenkins runs the builds."),
        Memory("new", "decisions", T0 + timedelta(days=9), "Continuous integration service: CircleCI", "From now."),
        Memory("other", "decisions", T0 + timedelta(days=3), "Use Postgres as the database", "Managed."),
    ]


def run(verdict, min_judge_confidence, min_confidence):
    comps = components(TableJudge({("old", "new"): verdict}), min_judge_confidence=min_judge_confidence)
    comps = replace(comps, selector=CurrentFactsSelector(min_confidence=min_confidence))
    store = MemoryStore(memories())
    now = T0 + timedelta(days=10)
    consolidate(store, comps, now)
    return store, comps, now


def test_a_tentative_supersede_is_reviewed_not_applied_and_keeps_the_fact_out_of_the_block():
    store, comps, now = run(Verdict(Relation.SUPERSEDE, 0.35, "tentative"), 0.5, 0.7)
    assert store.state("old").superseded_by is None and store.valid_at("old", now)
    assert [r["older"] for r in store.review_queue] == ["old"]
    assert contested(store, now) == {"old": pytest.approx(0.35)}
    conf = {c.id: c.confidence for c in candidates(store, comps, now)}
    assert conf == {"old": pytest.approx(0.65), "new": 1.0, "other": 1.0}
    assert [c.id for c in store_block(store, comps, now).items] == ["new", "other"]
    # without min_confidence the contested fact is injected; a verdict not yet recorded at `now` is no doubt
    loose = replace(comps, selector=CurrentFactsSelector(min_confidence=0.0))
    assert "old" in [c.id for c in store_block(store, loose, now).items]
    assert contested(store, T0 + timedelta(days=5)) == {}


def test_a_confident_supersede_is_an_edge_and_a_weak_merge_is_no_doubt():
    store, _, now = run(Verdict(Relation.SUPERSEDE, 0.8, "sure"), 0.5, 0.7)
    assert store.state("old").superseded_by == "new" and store.review_queue == []
    store, comps, now = run(Verdict(Relation.MERGE, 0.3, "weak"), 0.5, 0.7)
    assert contested(store, now) == {} and "old" in [c.id for c in store_block(store, comps, now).items]


def test_knn_k_namespace_adds_within_namespace_pairs_to_the_judged_ones():
    mems = [
        Memory("d1", "decisions", T0, "Use Jenkins as the CI provider", "Builds run on Jenkins."),
        Memory("p1", "progress", T0 + timedelta(days=1), "Jenkins CI provider builds fixed", "Jenkins CI provider."),
        Memory("p2", "progress", T0 + timedelta(days=2), "Jenkins CI provider cache added", "Jenkins CI provider."),
        Memory("d2", "decisions", T0 + timedelta(days=3), "Continuous integration moves to CircleCI", "From now."),
    ]
    judged = {}
    for k_ns in (0, 1):
        store = MemoryStore(mems)
        consolidate(store, components(knn_k=1, knn_k_namespace=k_ns), T0 + timedelta(days=4))
        judged[k_ns] = set(store.judged)
    assert ("d1", "d2") not in judged[0]
    assert judged[0] < judged[1] and ("d1", "d2") in judged[1]


def test_a_question_about_past_events_sees_contested_facts():
    """A contested fact is left out of a question's context about what is current, not of one about the past
    (when it happened, its history): whether it was replaced does not change when it happened."""
    from memlab.pipeline.context import select_context
    from memlab.pipeline.recall import recall_many

    store, comps, now = run(Verdict(Relation.SUPERSEDE, 0.35, "tentative"), 0.5, 0.99)
    hits = recall_many(store, comps, ["When did we choose Jenkins as the CI provider?"], now, mode="exhaustive")[0]
    assert "old" in [h.memory.id for h in hits]
    current = select_context(store, comps, hits, now, "When did we choose Jenkins?")
    past = select_context(store, comps, hits, now, "When did we choose Jenkins?", past=True)
    assert "old" not in current.unit_ids and "old" in past.unit_ids
    assert set(current.unit_ids) < set(past.unit_ids)


def test_an_as_of_question_counts_only_the_doubts_raised_by_then():
    """What was current at an earlier time: a fact contested only by a later note was not in doubt then."""
    from memlab.pipeline.context import select_context
    from memlab.pipeline.recall import recall_many

    store, comps, now = run(Verdict(Relation.SUPERSEDE, 0.35, "tentative"), 0.5, 0.99)
    before, after = T0 + timedelta(days=5), T0 + timedelta(days=9, hours=1)  # "new" contests "old" on day 9
    question = "Which CI provider did we use?"
    for as_of, seen in ((before, True), (after, False), (None, False)):
        hits = recall_many(store, comps, [question], now, as_of=as_of)[0]
        assert "old" in [h.memory.id for h in hits]
        context = select_context(store, comps, hits, now, question, as_of=as_of)
        assert ("old" in context.unit_ids) is seen, as_of
