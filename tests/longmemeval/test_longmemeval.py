"""LongMemEval loader and benchmark on tiny files in its format (this machine is offline)."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memlab.benchmarks.longmemeval.benchmark import LongMemEvalBenchmark, session_recall
from memlab.benchmarks.longmemeval.schema import parse_date
from memlab.core.errors import MemlabError
from memlab.run import run
from memlab.wiring.build import build_components
from tests.support.compose import compose_cfg


def turn(role, content, has_answer=False):
    out = {"role": role, "content": content}
    return out | {"has_answer": True} if has_answer else out


def item(qid, qtype, question, answer, sessions, evidence, qdate="2023/06/01 (Thu) 10:00"):
    return {
        "question_id": qid,
        "question_type": qtype,
        "question": question,
        "answer": answer,
        "question_date": qdate,
        "haystack_session_ids": [s[0] for s in sessions],
        "haystack_dates": [s[1] for s in sessions],
        "haystack_sessions": [s[2] for s in sessions],
        "answer_session_ids": evidence,
    }


FILLER = [turn("user", "Can you suggest a pasta recipe for dinner?"), turn("assistant", "Try carbonara with eggs.")]
BIKE = [turn("user", "I bought a red road bike from the shop downtown.", True), turn("assistant", "Enjoy riding!")]
YOGA = [turn("user", "Any tips for stretching after running long distances?"), turn("assistant", "Stretch calves.")]
MOVE = [turn("user", "We relocated our family to Denver this spring.", True), turn("assistant", "Welcome!")]
MAY1, MAY20, MAY22, MAY25 = (
    "2023/05/01 (Mon) 09:00",
    "2023/05/20 (Sat) 02:21",
    "2023/05/22 (Mon) 08:00",
    "2023/05/25 (Thu) 18:30",
)
RECORDS = [
    # evidence ranks first: recall@1 = 1
    item(
        "q1",
        "temporal-reasoning",
        "When did I buy the red road bike?",
        "May 2023",
        [("s_a", MAY1, FILLER), ("s_b", MAY20, BIKE), ("s_c", MAY25, YOGA)],
        ["s_b"],
    ),
    # two evidence sessions, only one matches the question's words: recall@1 = 0.5, recall@5 = 1
    item(
        "q2",
        "knowledge-update",
        "Which road bike do I own now?",
        "red road bike",
        [("s_a", MAY1, FILLER), ("s_b", MAY20, BIKE), ("s_d", MAY22, MOVE)],
        ["s_b", "s_d"],
    ),
    # the evidence shares no word with the question; a distractor does: recall@1 = 0, recall@5 = 1
    item(
        "q3",
        "single-session-user",
        "What tips for stretching did I get?",
        3,
        [("s_d", MAY22, MOVE), ("s_c", MAY25, YOGA)],
        ["s_d"],
    ),
]


@pytest.fixture
def lme_file(tmp_path):
    path = tmp_path / "lme.json"
    path.write_text(json.dumps(RECORDS))
    return path


def components():
    return build_components(compose_cfg(["embedder=tfidf"]))


def test_parse_date_reads_longmemeval_format():
    assert parse_date("2023/05/20 (Sat) 02:21") == datetime(2023, 5, 20, 2, 21, tzinfo=UTC)
    assert parse_date("2023/05/20 02:21") == datetime(2023, 5, 20, 2, 21, tzinfo=UTC)
    with pytest.raises(ValueError):
        parse_date("20 May 2023")


def test_exact_recall_on_tiny_file(lme_file):
    result = LongMemEvalBenchmark(path=str(lme_file)).run(components(), 0)
    m = result.metrics
    assert m["n_questions"] == 3
    assert m["lme_recall_at_1_session"] == pytest.approx(0.5)
    assert m["lme_recall_all_at_1_session"] == pytest.approx(1 / 3)
    assert m["lme_recall_at_5_session"] == m["lme_recall_at_10_session"] == 1.0
    assert (m["lme_recall_at_5_session_ci_low"], m["lme_recall_at_5_session_ci_high"]) == (1.0, 1.0)
    assert m["lme_recall_at_1_session_ci_low"] < 0.5 < m["lme_recall_at_1_session_ci_high"]
    assert m["lme_recall_at_1_session_temporal_reasoning"] == 1.0
    assert m["lme_recall_at_1_session_knowledge_update"] == 0.5
    assert m["lme_recall_at_1_session_single_session_user"] == 0.0
    assert result.predictions[0]["ranked_sessions"][0] == "s_b"
    assert result.card.name == "longmemeval" and len(result.card.sha256) == 64


def test_question_types_filter_and_session_granularity(lme_file):
    bench = LongMemEvalBenchmark(path=str(lme_file), question_types=["temporal-reasoning"], granularity="session")
    result = bench.run(components(), 0)
    assert result.metrics["n_questions"] == 1 and result.info["question_types"] == {"temporal-reasoning": 1}
    assert result.metrics["lme_recall_at_1_session"] == 1.0
    assert result.metrics["latency_total_s"] >= result.metrics["latency_recall_s"] > 0.0
    with pytest.raises(MemlabError, match="unknown LongMemEval question types"):
        LongMemEvalBenchmark(path=str(lme_file), question_types=["temporal"]).read()


def test_integration_through_compose(lme_file, tmp_path):
    cfg = compose_cfg(["dataset=longmemeval", f"dataset.path={lme_file}", "embedder=tfidf"])
    outcome = run(cfg, tmp_path / "out")
    assert outcome.main_metric == "lme_recall_at_5_session" and outcome.metrics["lme_recall_at_5_session"] == 1.0
    assert (tmp_path / "out" / "predictions.jsonl").read_text().count("\n") == 3


@pytest.mark.parametrize(
    ("mutate", "fragment"),
    [
        (lambda r: r[1].pop("question_date"), "record 1 (q2): field 'question_date'"),
        (lambda r: r[0]["haystack_dates"].pop(), "record 0 (q1): field 'haystack_dates'"),
        (lambda r: r[2]["haystack_sessions"][1][0].pop("content"), "field 'haystack_sessions[1][0].content'"),
        (lambda r: r[2].update(haystack_dates=["2023-05-22", "2023/05/25 (Thu) 18:30"]), "haystack_dates[0]"),
        (lambda r: r[0].pop("answer_session_ids"), "field 'answer_session_ids'"),
        (lambda r: r[1].update(question_id="q1"), "repeats an earlier record"),
        (lambda r: r.append("oops"), "record 3: expected an object"),
    ],
)
def test_malformed_records_name_record_and_field(tmp_path, mutate, fragment):
    records = json.loads(json.dumps(RECORDS))
    mutate(records)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(records))
    with pytest.raises(MemlabError) as info:
        LongMemEvalBenchmark(path=str(path)).read()
    assert fragment in str(info.value) and "\n" not in str(info.value)


def test_bad_files_are_one_line_errors(tmp_path):
    with pytest.raises(MemlabError, match="not found"):
        LongMemEvalBenchmark(path=str(tmp_path / "missing.json")).read()
    (tmp_path / "x.json").write_text("{not json")
    with pytest.raises(MemlabError, match="not valid JSON"):
        LongMemEvalBenchmark(path=str(tmp_path / "x.json")).read()
    (tmp_path / "y.json").write_text("{}")
    with pytest.raises(MemlabError, match="list of question objects"):
        LongMemEvalBenchmark(path=str(tmp_path / "y.json")).read()
    with pytest.raises(MemlabError, match=r"dataset\.path"):
        LongMemEvalBenchmark().read()


def test_hub_id_fails_cleanly_offline(monkeypatch):
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    bench = LongMemEvalBenchmark(hub_id="xiaowu0162/longmemeval-cleaned", hub_file="longmemeval_s_cleaned.json")
    with pytest.raises(MemlabError) as info:
        bench.read()
    message = str(info.value)
    assert "offline" in message and "dataset.path" in message and "\n" not in message


@given(
    ranked=st.lists(st.sampled_from("abcdefgh"), unique=True),
    gold=st.sets(st.sampled_from("abcdefgh")),
    k=st.integers(1, 8),
)
def test_session_recall_bounds_and_monotone(ranked, gold, k):
    frac, all_ = session_recall(ranked, gold, k)
    frac_next, all_next = session_recall(ranked, gold, k + 1)
    if not gold:  # nothing to find: undefined
        assert frac is all_ is frac_next is all_next is None
        return
    assert 0.0 <= all_ <= frac <= 1.0
    assert frac <= frac_next and all_ <= all_next
    if gold and set(ranked) >= gold and k >= len(ranked):
        assert frac == all_ == 1.0


def test_abstention_items_are_not_scored_unless_asked(tmp_path):
    records = json.loads(json.dumps(RECORDS))
    records[2]["question_id"] = "q3_abs"
    path = tmp_path / "abs.json"
    path.write_text(json.dumps(records))
    result = LongMemEvalBenchmark(path=str(path)).run(components(), 0)
    assert result.metrics["n_questions"] == 3 and result.metrics["n_scored"] == 2
    assert result.metrics["lme_recall_at_1_session"] == pytest.approx(0.75)
    assert result.info["n_abstention"] == 1 and result.info["n_not_scored"] == 1
    both = LongMemEvalBenchmark(path=str(path), score_abstention=True).run(components(), 0)
    assert both.metrics["n_scored"] == 3 and both.metrics["lme_recall_at_1_session"] == pytest.approx(0.5)


def test_the_selected_context_is_scored_against_the_evidence_sessions(lme_file):
    roomy = LongMemEvalBenchmark(path=str(lme_file)).run(components(), 0)
    assert roomy.metrics["evidence_recall_at_budget"] == 1.0  # every haystack fits the default budget
    assert [p["context_sessions"][0] for p in roomy.predictions] == ["s_b", "s_b", "s_c"]
    tight = build_components(compose_cfg(["embedder=tfidf", "pipeline.budget_tokens=25"]))
    one = LongMemEvalBenchmark(path=str(lme_file)).run(tight, 0)
    # one turn fits: q1 keeps its evidence, q2 keeps one of two evidence sessions, q3's best turn is not evidence
    assert [len(p["context_sessions"]) for p in one.predictions] == [1, 1, 1]
    assert one.metrics["evidence_recall_at_budget"] == pytest.approx((1.0 + 0.5 + 0.0) / 3)
    assert one.metrics["lme_recall_at_1_session"] == roomy.metrics["lme_recall_at_1_session"]  # retriever view
