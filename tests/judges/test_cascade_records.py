"""The cascade on a store of long-form records: the record judge answers (after the reference reader), the note
judges never read the store; on a store of notes nothing changes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memlab.core.types import Memory, Relation
from memlab.strategies.judge.cascade import CascadeJudge, is_record_store
from memlab.strategies.judge.learned import LearnedJudge
from memlab.strategies.judge.record import RecordJudge
from memlab.strategies.judge.reference import ReferenceJudge
from memlab.strategies.judge.slot import SlotJudge
from tests.judges.test_record import embed, model_file

T0 = datetime(2024, 1, 1, tzinfo=UTC)
PAD = " and the team agreed on it after a long discussion of the alternatives and their costs" * 3


def note(i: int, summary: str, content: str = "", days: int = 0) -> Memory:
    return Memory(f"m{i}", "decisions", T0 + timedelta(days=days), summary, content)


@pytest.mark.parametrize(
    ("lengths", "expected"),
    [((), False), ((50, 60, 70, 80, 90), False), ((250, 50, 60, 70, 80), True), ((199, 199, 199), False)],
)
def test_a_record_store_is_a_fifth_of_long_form_records(lengths: tuple[int, ...], expected: bool) -> None:
    memories = [note(i, "x" * n) for i, n in enumerate(lengths)]
    assert is_record_store(memories, 200, 0.2) is expected


def cascade(tmp_path: Path, **kwargs) -> CascadeJudge:
    encoder = type("E", (), {"encode": staticmethod(embed)})
    record = RecordJudge(model_path=str(model_file(tmp_path)), model_sha256=None, embedder=encoder)
    return CascadeJudge(LearnedJudge(), SlotJudge(), record=record, reference=ReferenceJudge(), **kwargs)


def test_a_record_store_is_read_by_the_record_judge_and_never_by_the_note_judges(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def never(*args, **kwargs):
        raise AssertionError("a note judge read a record store")

    for name in ("observe", "judge"):
        monkeypatch.setattr(LearnedJudge, name, never)
        monkeypatch.setattr(SlotJudge, name, never)
    records = [
        note(0, "use kafka", "kafka queue for events" + PAD, 0),
        note(1, "use postgres", "postgres database" + PAD, 10),
        note(2, "replace kafka", "we no longer use kafka queue" + PAD, 30),
    ]
    judge = cascade(tmp_path)
    judge.observe(records)
    verdict = judge.judge(records[0], records[2])
    assert verdict.relation is Relation.SUPERSEDE and verdict.reason.startswith("record store: record p=")
    assert judge.judge(records[1], records[2]).relation is Relation.COEXIST
    assert judge.checks_ == 0  # the slot judge's checks of the learned judge never ran


def test_a_reference_in_a_record_store_is_answered_by_the_reference_reader(tmp_path: Path) -> None:
    old = note(0, "Tenant isolation", "each tenant gets a schema" + PAD, 0)
    new = note(1, "Tenant databases", "This decision supersedes the decision on Tenant isolation." + PAD, 5)
    judge = cascade(tmp_path)
    judge.observe([old, new])
    verdict = judge.judge(old, new)
    assert verdict.relation is Relation.SUPERSEDE and verdict.reason.startswith("reference:")


def test_a_store_of_notes_is_not_a_record_store(tmp_path: Path) -> None:
    notes = [note(0, "Use Kafka for events", days=0), note(1, "Switched from Kafka to NATS for events", days=5)]
    judge = cascade(tmp_path)
    judge.observe(notes)
    assert not judge.record_store_
    assert not judge.judge(notes[0], notes[1]).reason.startswith("record store")


def test_where_records_cite_what_they_replace_an_uncited_pair_coexists(tmp_path: Path) -> None:
    records = [
        note(0, "use kafka", "kafka queue for events" + PAD, 0),
        note(1, "Tenant isolation", "each tenant gets a schema" + PAD, 5),
        note(2, "replace kafka", "we no longer use kafka queue" + PAD, 30),
        note(3, "Tenant databases", "This decision supersedes the decision on Tenant isolation." + PAD, 40),
    ]
    judge = cascade(tmp_path)
    judge.observe(records)
    assert judge.cites_ and judge.judge(records[1], records[3]).relation is Relation.SUPERSEDE
    verdict = judge.judge(records[0], records[2])  # the record judge would say SUPERSEDE (test above)
    assert verdict.relation is Relation.COEXIST and "cite" in verdict.reason
    assert judge.record_pending_ is not None  # the record judge never read the store
    judge = cascade(tmp_path, cited_only=False)
    judge.observe(records)
    assert judge.judge(records[0], records[2]).relation is Relation.SUPERSEDE
    judge = cascade(tmp_path)
    judge.observe(records[:3])  # no record cites another: the record judge answers
    assert not judge.cites_ and judge.judge(records[0], records[2]).relation is Relation.SUPERSEDE


CITING = [
    note(0, "use kafka", "kafka queue for events" + PAD, 0),
    note(1, "Tenant isolation", "each tenant gets a schema" + PAD, 5),
    note(2, "replace kafka", "we no longer use kafka queue" + PAD, 30),
    note(3, "Tenant databases", "This decision supersedes the decision on Tenant isolation." + PAD, 40),
]


def test_what_the_record_judge_said_before_the_store_cited_is_withdrawn_once_it_cites(tmp_path: Path) -> None:
    judge = cascade(tmp_path)
    judge.observe(CITING[:3])
    assert judge.judge(CITING[0], CITING[2]).relation is Relation.SUPERSEDE
    assert judge.withdrawals() == []  # the store does not cite yet: the verdict stands
    judge.observe(CITING)
    assert judge.withdrawals() == [("m0", "m2")] and judge.withdrawals() == []  # once
    judge = cascade(tmp_path, cited_only=False)
    judge.observe(CITING[:3])
    judge.judge(CITING[0], CITING[2])
    judge.observe(CITING)
    assert judge.withdrawals() == []


@pytest.mark.parametrize(("cited_before", "withdrawn"), [(0, [("m0", "m2")]), (1, []), (None, [])])
def test_a_run_resumed_from_one_whose_store_did_not_cite_withdraws_the_pairs_the_citing_rule_answers(
    tmp_path: Path, cited_before: int | None, withdrawn: list
) -> None:
    judge = cascade(tmp_path)
    judge.resume({"checks": 0, "passed": 0} | ({} if cited_before is None else {"cites": cited_before}))
    judge.observe(CITING)
    assert judge.judge(CITING[0], CITING[2]).relation is Relation.COEXIST
    assert judge.withdrawals() == withdrawn and judge.tally()["cites"] == 1


def test_the_pipeline_removes_a_withdrawn_supersession_and_the_state_it_set(tmp_path: Path) -> None:
    from dataclasses import replace

    from memlab.pipeline.consolidate import consolidate
    from memlab.pipeline.store import MemoryStore
    from memlab.wiring.build import build_components
    from tests.support.compose import compose_cfg

    base = build_components(compose_cfg(["embedder=tfidf", "judge=none", "clusterer=none", "pipeline.knn_k=3"]))
    components = replace(base, judge=cascade(tmp_path))
    store = MemoryStore(CITING[:3])
    consolidate(store, components, CITING[2].timestamp)
    assert store.state("m0").superseded_by == "m2"
    store.add(CITING[3:])
    result = consolidate(store, components, CITING[3].timestamp)
    assert store.state("m0").superseded_by is None and store.state("m1").superseded_by == "m3"
    assert result.edges_created["withdrawn"] == 1
    assert not [e for e in store.edges.values() if (e.source, e.target) == ("m2", "m0")]
