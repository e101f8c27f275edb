"""The generated histories whose questions consolidation decides: deterministic, one trapped question per instance."""

from __future__ import annotations

from collections import Counter

from memlab.core.types import Relation
from memlab.data.project_history.consolidation import TRAPS, generate_consolidation
from memlab.strategies.reader.extractive import ExtractiveReader


def test_the_history_is_deterministic_and_every_question_has_its_trap() -> None:
    history = generate_consolidation(1020, 30)
    assert history == generate_consolidation(1020, 30) and history != generate_consolidation(1021, 30)
    assert len(history.queries) == 30 and {q.kind for q in history.queries} == {"current"}
    assert history.meta["traps"] == dict.fromkeys(TRAPS, 10)
    ids = {m.id for m in history.memories}
    assert all(set(q.evidence) <= ids for q in history.queries)
    relations = Counter(r.relation for r in history.relations)
    assert relations == {Relation.SUPERSEDE: 30, Relation.DUPLICATE: 20}  # 10 stale instances: 3 stale notes each
    assert [m.timestamp for m in history.memories] == sorted(m.timestamp for m in history.memories)


def _units(history, query):
    """Every note of the question's instance (its subject with its attribute, or the change it asks about)."""
    attr, subject = query.question[len("Which ") : -len(" use now?")].split(" does ")
    return [
        m for m in history.memories if subject in m.text.lower() and (attr in m.text.lower() or m.id in query.evidence)
    ]


def test_unconsolidated_the_reader_falls_into_every_trap_and_consolidated_it_does_not() -> None:
    history = generate_consolidation(1020, 3)
    stale, cold, scattered = history.queries
    reader = ExtractiveReader()
    for query in (stale, cold, scattered):  # everything the store holds about the subject, nothing consolidated
        assert reader.answer(query.question, _units(history, query), history.now).text != query.answer
    gone = {r.older for r in history.relations if r.relation is Relation.SUPERSEDE}
    current = [m for m in _units(history, stale) if m.id not in gone]  # the judge's supersessions applied
    assert reader.answer(stale.question, current, history.now).text == stale.answer
    decision = [m for m in _units(history, cold) if m.namespace == "decisions"]  # the old spike cooled away
    assert reader.answer(cold.question, decision, history.now).text == cold.answer
