"""``memlab report locomo`` leads with the LLM reader protocol: J beside the published J, or says none exists."""

from __future__ import annotations

import pytest

from memlab.reports.locomo import render
from memlab.reports.locomo_reader import PUBLISHED, reader_section, why_not_published
from memlab.tracking.query import RunRecord


def _run(run_id: str, start: int, metrics: dict[str, float], model: str = "openai/gpt-4o-mini") -> RunRecord:
    tags = {"memlab.strategy.temporal": "rules@2", "memlab.strategy.retriever": "hybrid@1", "memlab.tags": "locomo"}
    return RunRecord(run_id, "locomo_temporal", "FINISHED", start, {"llm.model": model}, metrics, tags)


PROTOCOL = {
    "j_score": 0.6,
    "n_j_score": 5.0,
    **{f"n_j_score.cat{c}": 1.0 for c in (1, 3, 4)},
    "answer_f1": 0.5,
    "bleu1": 0.25,
    "j_score.cat2": 0.5,
    "n_j_score.cat2": 2.0,
    "answer_f1.cat2": 0.75,
    "bleu1.cat2": 0.5,
    "reader_latency_s_p50": 1.25,
    "reader_latency_s_p95": 2.5,
    "context_tokens": 812.0,
}


def test_without_a_protocol_run_the_report_says_so() -> None:
    text, _, _ = render([_run("plain", 1, {"recall_at_10_turn": 0.7})], "locomo_temporal")
    assert "**No run with the LLM reader protocol exists in this experiment**" in text
    assert "dataset.llm_reader=true" in text and "| memlab (this run) |" not in text
    assert text.index("## Headline: the LLM reader protocol") < text.index("## No-LLM temporal answerer")
    assert "is an estimate from the conversations the answerer's rules were written on" in text
    assert "scored 0.571 against the estimate's 0.774" in text


def test_a_protocol_run_is_printed_beside_the_published_j() -> None:
    runs = [_run("old", 1, {**PROTOCOL, "j_score": 0.1}), _run("new", 2, PROTOCOL), _run("plain", 3, {})]
    text = "\n".join(reader_section(runs))
    assert "Run `new`: reader and judge `openai/gpt-4o-mini`" in text and "mean 812 tokens" in text
    row = next(line for line in text.splitlines() if line.startswith("| memlab (this run) |"))
    assert row.split(" | ")[2] == "75.0 / 50.0 / 50.0 (n 2)"  # temporal: F1 / BLEU-1 / J
    assert row.split(" | ")[1] == "– / – / – (n 1)"  # multi-hop: judged, but no F1/BLEU/J logged: not 0
    assert row.endswith("| 60.0 (n 5) |")
    assert "| Mem0 (Mem0 paper) | 38.72 / 27.13 / 67.13 | 48.93 / 40.51 / 55.51 |" in text
    assert "| 66.88 |" in text and "| A-Mem (Mem0 paper) | 27.02 / 20.09 / – |" in text
    assert "| latency p50 / p95 (s) | – (mean) | 1.25 / 2.50 | – / – |" in text
    assert all(len(v) == 13 for v in PUBLISHED.values())


def test_stub_runs_are_never_reported() -> None:
    text = "\n".join(reader_section([_run("stub", 1, PROTOCOL, model="openai/stub-model")]))
    assert "not put beside the published figures: its model is a test double" in text
    assert "| memlab (this run) |" not in text and "| Mem0 (Mem0 paper) |" not in text


def test_a_server_that_serves_a_test_double_under_a_real_name_is_not_reported() -> None:
    run = _run("local", 1, PROTOCOL, model="openai/gpt-4o-mini")
    run.tags["memlab.llm_served"] = 'http://127.0.0.1:5/v1 -> {"id": "stub-model", "owned_by": "memlab-test"}'
    assert "test double" in (why_not_published(run) or "")


@pytest.mark.parametrize(
    ("params", "drop", "reason"),
    [
        ({"dataset.conversations": '["conv-26"]'}, None, "it read only conversations"),
        ({"dataset.max_reader_questions": "40"}, None, "at most 40 questions"),
        ({}, "n_j_score.cat4", "category 4 has no judged question"),
    ],
)
def test_an_incomplete_run_is_not_put_beside_the_published_j(params, drop, reason) -> None:
    metrics = {k: v for k, v in PROTOCOL.items() if k != drop}
    run = _run("part", 1, metrics)
    run.params.update(params)
    assert reason in (why_not_published(run) or "")
    assert "| memlab (this run) |" not in "\n".join(reader_section([run]))
    assert why_not_published(_run("whole", 1, PROTOCOL)) is None
