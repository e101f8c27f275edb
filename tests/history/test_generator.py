"""The generator: determinism, sizes, seeds, and each event kind's gold against the generator's event log."""

from __future__ import annotations

from collections import Counter

import pytest

from memlab.core.errors import MemlabError
from memlab.core.types import NAMESPACES, Relation
from memlab.data.project_history.generator import generate
from memlab.data.project_history.generator_events import EVENT_RELATION, HARD_NEGATIVES, relative_interval
from memlab.data.project_history.generator_topics import TOPICS


@pytest.fixture(scope="module")
def logged():
    events: list = []
    return generate(11, 600, "default", log=events), events


def _gold(history):
    return {(r.older, r.newer): r.relation for r in history.relations}


def test_deterministic_and_seed_dependent():
    a, b, c = generate(5, 300), generate(5, 300), generate(6, 300)
    assert a.sha256() == b.sha256()
    assert a.sha256() != c.sha256()
    first_values = lambda h: [q.answer for q in h.queries if q.kind == "history"]  # noqa: E731
    assert first_values(a) != first_values(c)


@pytest.mark.parametrize("size", [100, 250, 1000])
def test_size_and_namespaces(size):
    history = generate(1, size)
    assert len(history.memories) == size
    assert len({m.id for m in history.memories}) == size
    assert {m.namespace for m in history.memories} <= set(NAMESPACES)
    assert [m.timestamp for m in history.memories] == sorted(m.timestamp for m in history.memories)


def test_topics_and_namespaces_coverage():
    assert len(TOPICS) >= 12
    assert all(len(t.values) >= 5 for t in TOPICS)
    history = generate(2, 3000)
    assert {m.namespace for m in history.memories} == set(NAMESPACES)


def test_every_event_kind_occurs(logged):
    _, events = logged
    kinds = Counter(e.kind for e in events)
    assert set(kinds) == set(EVENT_RELATION) - set(HARD_NEGATIVES), kinds  # hard negatives are off by default


@pytest.mark.parametrize("kind", ["change", "revert", "restatement", "detail", "scoped", "resolved"])
def test_gold_relation_per_event_kind(logged, kind):
    history, events = logged
    gold = _gold(history)
    expected = Relation(EVENT_RELATION[kind])
    checked = 0
    for event in events:
        if event.kind != kind:
            continue
        assert event.targets, f"{kind} {event.memory} relates to nothing"
        for target in event.targets:
            assert gold[(target, event.memory)] is expected
            checked += 1
    assert checked > 0


def test_decision_noise_and_distractors_have_no_incoming_gold(logged):
    history, events = logged
    newer = Counter(r.newer for r in history.relations if r.relation is not Relation.DUPLICATE)
    for event in events:
        if event.kind in ("decision", "noise", "distractor", "blocker"):
            assert newer[event.memory] == 0, event


def test_revert_chain_ends_at_the_reverted_value(logged):
    _history, events = logged
    for event in (e for e in events if e.kind == "revert"):
        same = [e for e in events if e.instance == event.instance and e.kind in ("decision", "change", "revert")]
        position = same.index(event)
        assert position >= 2
        assert event.value == same[position - 2].value and event.old == same[position - 1].value


def test_queries_cite_known_ids_and_history_answers(logged):
    history, _events = logged
    ids = {m.id for m in history.memories}
    kinds = Counter(q.kind for q in history.queries)
    assert set(kinds) == {"current", "as_of", "when", "history"}
    by_id = {m.id: m for m in history.memories}
    for q in history.queries:
        assert q.evidence and set(q.evidence) <= ids
        if q.kind == "history":
            assert len(q.answer.split(" -> ")) == len(q.evidence)
            assert [by_id[e].timestamp for e in q.evidence] == sorted(by_id[e].timestamp for e in q.evidence)
        if q.kind == "as_of":
            assert all(by_id[e].timestamp <= q.as_of for e in q.evidence)
        if q.kind == "when" and q.answer_source == "recorded":
            assert by_id[q.evidence[0]].timestamp.date().isoformat() == q.answer


def test_temporal_gold_matches_expressions(logged):
    history, _ = logged
    by_id = {m.id: m for m in history.memories}
    assert history.temporal
    for t in history.temporal:
        memory = by_id[t.memory]
        assert t.text in memory.content
        assert (t.start, t.end) == relative_interval(t.text, memory.timestamp)
        assert t.end <= memory.timestamp.replace(hour=0, minute=0, second=0, microsecond=0)


def test_relative_interval_examples():
    from datetime import UTC, datetime

    wed = datetime(2025, 3, 12, 15, 0, tzinfo=UTC)  # a Wednesday
    assert relative_interval("yesterday", wed) == (datetime(2025, 3, 11, tzinfo=UTC), datetime(2025, 3, 12, tzinfo=UTC))
    assert relative_interval("last Tuesday", wed)[0] == datetime(2025, 3, 11, tzinfo=UTC)
    assert relative_interval("last Friday", wed)[0] == datetime(2025, 3, 7, tzinfo=UTC)
    assert relative_interval("last week", wed) == (datetime(2025, 3, 3, tzinfo=UTC), datetime(2025, 3, 10, tzinfo=UTC))
    tue = datetime(2025, 3, 11, 9, 0, tzinfo=UTC)
    assert relative_interval("last Tuesday", tue)[0] == datetime(2025, 3, 4, tzinfo=UTC)


def test_difficulty_changes_wording_and_distractors():
    easy: list = []
    hard: list = []
    generate(3, 800, "easy", log=easy), generate(3, 800, "hard", log=hard)
    assert Counter(e.kind for e in hard)["distractor"] > Counter(e.kind for e in easy)["distractor"]


def test_bad_arguments_fail_in_one_line():
    with pytest.raises(MemlabError, match="difficulty"):
        generate(0, 100, "impossible")
    with pytest.raises(MemlabError, match="size"):
        generate(0, 5)
    with pytest.raises(MemlabError, match="noise_ratio"):
        generate(0, 100, noise_ratio=1.5)


def test_identical_texts_are_gold_duplicates():
    history = generate(4, 2000, noise_ratio=0.5)
    gold = _gold(history)
    first: dict[str, str] = {}
    for m in history.memories:
        key = " ".join(m.text.split())
        if key in first:
            assert gold.get((first[key], m.id)) is Relation.DUPLICATE
        else:
            first[key] = m.id


@pytest.mark.slow
def test_hundred_thousand_is_fast():
    import time

    t0 = time.perf_counter()
    history = generate(0, 100_000, "hard")
    assert len(history.memories) == 100_000
    assert time.perf_counter() - t0 < 60
