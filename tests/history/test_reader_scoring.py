"""Reader accuracy on the history benchmarks: what counts as a correct answer, and undefined rates stay absent."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memlab.benchmarks.project_history.reader_scoring import (
    reader_fields,
    reader_metrics,
    topic_values,
    value_correct,
)
from memlab.core.types import Memory
from memlab.data.project_history.schema import GoldQuery
from memlab.strategies.reader.extractive import ExtractiveReader
from memlab.strategies.reader.none import NoReader

T = datetime(2025, 3, 1, tzinfo=UTC)


def gq(qid: str, kind: str, answer: str, topic: str | None = "framework") -> GoldQuery:
    return GoldQuery(qid, kind, "Which web framework does the API use?", T, answer, ("m1",), topic)


QUERIES = [gq("q1", "current", "FastAPI"), gq("q2", "as_of", "Flask"), gq("q3", "history", "Flask -> FastAPI")]


def test_topic_values_collect_every_value_word():
    assert topic_values(QUERIES) == {"framework": frozenset({"fastapi", "flask"})}


@pytest.mark.parametrize(
    ("answer", "gold", "correct"),
    [
        ("FastAPI", "FastAPI", True),
        ("the API runs on FastAPI", "FastAPI", True),
        ("Flask FastAPI", "FastAPI", False),  # names another value of the topic too
        ("Flask", "FastAPI", False),
        ("", "FastAPI", False),
        ("Accept-Version", "an Accept-Version header", True),  # the salient word is the value
        ("session cookies", "session cookies", True),
        ("cookies", "session cookies", False),
    ],
)
def test_value_correct(answer, gold, correct):
    assert value_correct(answer, gold, frozenset({"fastapi", "flask"})) is correct


def test_reader_fields_and_metrics():
    units = [Memory("m1", "decisions", T, "Replaced Flask with FastAPI for the API", "")]
    values = topic_values(QUERIES)
    rows = []
    for q in QUERIES:
        row = {"kind": q.kind, **reader_fields(ExtractiveReader(), q, q.question, units, T, values)}
        rows.append(row)
    assert rows[0]["reader_answer"] == "FastAPI" and rows[0]["reader_correct"] == 1.0
    assert rows[1]["reader_correct"] == 0.0
    assert "reader_correct" not in rows[2]  # history questions are not read
    m = reader_metrics(rows)
    assert m["reader_acc"] == 0.5 and m["reader_acc_current"] == 1.0 and m["reader_acc_as_of"] == 0.0
    assert m["n_reader_when"] == 0.0 and "reader_acc_when" not in m  # undefined: absent, never 0 or 1


def test_no_reader_logs_no_reader_metric():
    rows = [{"kind": "current", **reader_fields(NoReader(), QUERIES[0], "q", [], T, {})}]
    assert rows == [{"kind": "current"}] and reader_metrics(rows) == {}
    assert reader_fields(None, QUERIES[0], "q", [], T, {}) == {}


def test_when_is_correct_on_the_gold_day():
    q = GoldQuery("w", "when", "When did the API move to FastAPI?", T, "2025-03-01", ("m1",), "framework")
    units = [Memory("m1", "decisions", T, "Replaced Flask with FastAPI for the API", "")]
    row = reader_fields(ExtractiveReader(), q, q.question, units, T, {})
    assert row["reader_answer"] == "2025-03-01" and row["reader_correct"] == 1.0


@pytest.mark.parametrize("reader", ["extractive", "none"])
def test_builtin_history_run_logs_reader_metrics_only_with_a_reader(reader, tmp_path):
    from memlab.run import run
    from tests.support.compose import compose_cfg

    outcome = run(compose_cfg(["dataset=builtin_history", "embedder=tfidf", f"reader={reader}"]), tmp_path)
    found = {k for k in outcome.metrics if k.startswith(("reader_", "n_reader"))}
    if reader == "none":
        assert not found
    else:
        assert {"reader_acc", "reader_acc_current", "reader_acc_as_of", "n_reader_when"} <= found
        assert "reader_acc_when" not in found  # the built-in history asks no when question
        assert outcome.metrics["n_reader"] == 16.0
    assert "current_truth_at_1" in outcome.metrics


def test_reader_acc_carries_its_bootstrap_interval_over_the_questions():
    rows = [{"kind": "current", "reader_answer": "x", "reader_correct": c} for c in (1.0, 1.0, 1.0, 0.0)]
    m = reader_metrics(rows)
    assert m["reader_acc"] == 0.75
    assert 0.0 <= m["reader_acc_ci_low"] <= 0.75 <= m["reader_acc_ci_high"] <= 1.0
    assert m["reader_acc_ci_low"] < m["reader_acc_ci_high"]  # four questions, one wrong: not a point
    same = [{"kind": "current", "reader_answer": "x", "reader_correct": 1.0}] * 4
    assert (reader_metrics(same)["reader_acc_ci_low"], reader_metrics(same)["reader_acc_ci_high"]) == (1.0, 1.0)
