"""The field's protocol on LoCoMo end to end through the stub server: reader and judge per question, scripted
answers scored exactly (no accuracy is ever claimed from a stub)."""

from __future__ import annotations

import json
import logging
import math

import pytest

from memlab.core.errors import MemlabError
from memlab.run import run
from tests.locomo.tiny import tiny, write
from tests.support.compose import compose_cfg
from tests.support.stub_openai import StubOpenAI

#: question -> the reader's scripted answer (None: output the adapter cannot parse)
ANSWERS = {
    "When did Bob go to the pottery class?": "7 May 2023",
    "When did Bob adopt the puppy Rex?": "June 2023",
    "What flowers grow in Ann's garden?": "red tulips",
    "What did Ann paint?": None,
    "Is Ann an artist?": "Yes",
    "What is the puppy's name?": "Rex",
}
#: question -> the judge's scripted label ("MAYBE" cannot be parsed)
LABELS = {
    "When did Bob go to the pottery class?": "CORRECT",
    "When did Bob adopt the puppy Rex?": "WRONG",
    "What flowers grow in Ann's garden?": "CORRECT",
    "Is Ann an artist?": "MAYBE",
    "What is the puppy's name?": "CORRECT",
}


def _question(text: str) -> str:
    return next(q for q in ANSWERS if q in text)


def make_responder(answers: dict[str, str | None], labels: dict[str, str]):
    """Reader or judge reply for the question in ``messages`` (the judge's prompt holds a gold answer)."""

    def respond(messages: list[dict]) -> str:
        text = json.dumps(messages)
        q = _question(text.split("[[ ## question ## ]]")[-1] if "[[ ## question ## ]]" in text else text)
        if "gold_answer" in text:
            return f"[[ ## reasoning ## ]]\nCompared.\n\n[[ ## label ## ]]\n{labels[q]}\n\n[[ ## completed ## ]]"
        if answers[q] is None:
            return "I cannot follow the format."
        return f"[[ ## reasoning ## ]]\nFrom the memories.\n\n[[ ## answer ## ]]\n{answers[q]}\n\n[[ ## completed ## ]]"

    return respond


responder = make_responder(ANSWERS, LABELS)
#: every reply parses: Ann's painting is answered and both it and "Is Ann an artist?" are judged WRONG
clean_responder = make_responder(
    {**ANSWERS, "What did Ann paint?": "a sunrise"},
    {**LABELS, "What did Ann paint?": "WRONG", "Is Ann an artist?": "WRONG"},
)


def _cfg(path, stub, *extra: str, **llm) -> dict:
    cfg = compose_cfg(
        [
            "dataset=locomo",
            f"dataset.path={path}",
            "embedder=tfidf",
            "temporal=rules",
            "retriever=bm25",
            "dataset.llm_reader=true",
            "llm=local",
            *extra,
        ]
    )
    cfg["llm"] = stub.llm_config(**llm)  # no cache, no retries of malformed output, on_error=fallback
    return cfg


def test_reader_and_judge_per_question_scored_exactly(tmp_path) -> None:
    path = write(tmp_path / "t.json", tiny())
    with StubOpenAI(responder=responder) as stub:
        out = run(_cfg(path, stub), tmp_path / "o")
        requests = [json.dumps(r["messages"]) for r in stub.requests]
    judge = [r for r in requests if "gold_answer" in r]
    reader = [r for r in requests if "gold_answer" not in r]
    for q in ANSWERS:  # every question of categories 1-4 is read; the adversarial one (category 5) is not
        assert any(q in r for r in reader)
    assert not any("What did Bob paint?" in r for r in requests)
    assert {_question(r.split("[[ ## question ## ]]")[-1]) for r in judge} == set(LABELS)
    # one call per question (llm.malformed_retries=0); the unanswered question is not judged
    assert len(reader) == 6 and len(judge) == 5
    m = out.metrics
    assert m["n_reader"] == 6 and m["n_reader_malformed"] == 1 and m["n_judge_malformed"] == 1
    # the ledger: each unparseable reply is a failure answered by the stand-in (on_error=fallback)
    assert (m["llm.reader.calls"], m["llm.reader.failures"], m["llm.reader.fallbacks"]) == (6.0, 1.0, 1.0)
    assert (m["llm.judge_qa.calls"], m["llm.judge_qa.failures"], m["llm.judge_qa.fallbacks"]) == (5.0, 1.0, 1.0)
    assert m["llm_calls"] == m["llm_prompt_tokens"] == m["llm_completion_tokens"] == 11.0  # the stub: 1 + 1 a call
    assert m["llm_cache_hits"] == 0.0
    # J: 1, 0, 1, 0 (no answer), undefined (no label), 1
    assert m["j_score"] == 0.6 and m["n_j_score"] == 5
    assert m["j_score.cat2"] == 0.5 and m["n_j_score.cat2"] == 2
    assert m["j_score.cat4"] == 1.0 and m["j_score.cat1"] == 0.0
    assert "j_score.cat3" not in m and "n_j_score.cat3" not in m and "j_score.cat5" not in m
    assert m["answer_f1"] == pytest.approx((1 + 0.5 + 2 / 3 + 0 + 2 / 3 + 1) / 6) and m["n_answer_f1"] == 6
    assert m["answer_f1.cat2"] == 0.75 and m["answer_f1.cat3"] == pytest.approx(2 / 3)
    assert m["bleu1"] == pytest.approx((1 + math.exp(-2) + 0.5 + 0 + math.exp(-1) + 1) / 6)
    assert m["reader_latency_s_p95"] >= m["reader_latency_s_p50"] > 0 and m["judge_latency_s_p50"] > 0
    assert m["memory_latency_s_per_question"] > 0 and "context_tokens" in m
    rows = {p["question"]: p for p in out.result.predictions}
    assert rows["When did Bob adopt the puppy Rex?"]["reader_answer"] == "June 2023"
    assert rows["When did Bob adopt the puppy Rex?"]["judge_label"] == "WRONG"
    name = rows["What is the puppy's name?"]
    assert name["reader_prompt_tokens"] == name["judge_completion_tokens"] == 1  # the stub's usage, per call
    assert name["reader_calls"] == 1 and name["reader_cache_hit"] is False and name["judge_seconds"] > 0
    paint = rows["What did Ann paint?"]
    assert paint["reader_answer"] == "" and "judge_label" not in paint and paint["j_correct"] == 0.0
    assert "gave malformed output 1 times" in paint["reader_error"] and "reader_seconds" not in paint
    artist = rows["Is Ann an artist?"]
    assert artist["judge_label"] is None and artist["j_correct"] is None and "MAYBE" in artist["judge_error"]
    assert "reader_answer" not in rows["What did Bob paint?"]


def test_reader_off_logs_no_protocol_metric(tmp_path) -> None:
    path = write(tmp_path / "t.json", tiny())
    cfg = compose_cfg(["dataset=locomo", f"dataset.path={path}", "embedder=tfidf", "retriever=bm25"])
    m = run(cfg, tmp_path / "o").metrics
    assert not any(k.startswith(("j_score", "answer_f1", "bleu1", "n_reader", "reader_", "judge_")) for k in m)


def test_reader_needs_a_model(tmp_path) -> None:
    path = write(tmp_path / "t.json", tiny())
    base = ["dataset=locomo", f"dataset.path={path}", "embedder=tfidf", "retriever=bm25"]
    with pytest.raises(MemlabError, match=r"^dataset\.llm_reader=true needs an LLM: pick llm=") as err:
        run(compose_cfg([*base, "dataset.llm_reader=true"]), tmp_path / "o")
    assert "\n" not in str(err.value)


def test_a_dead_endpoint_stops_the_run_in_one_line(tmp_path) -> None:
    path = write(tmp_path / "t.json", tiny())
    with StubOpenAI(responder=responder) as stub:
        cfg = _cfg(path, stub, on_error="fail")
    pattern = (
        r"^dataset\.llm_reader=true \(reader\): the language model openai/stub-model at http://127\.0\.0\.1:\d+/v1 "
    )
    with pytest.raises(MemlabError, match=pattern + "cannot be reached") as err:
        run(cfg, tmp_path / "o")
    assert "\n" not in str(err.value) and "llm.on_error=fallback" in str(err.value)


def test_output_malformed_after_the_retries_stops_the_run_in_one_line(tmp_path) -> None:
    path = write(tmp_path / "t.json", tiny())
    with StubOpenAI(responder=responder) as stub:
        cfg = _cfg(path, stub, on_error="fail", malformed_retries=1)
        with pytest.raises(MemlabError, match=r"^dataset\.llm_reader=true \(reader\): .* malformed output 2 ") as err:
            run(cfg, tmp_path / "o")
        asked = [json.dumps(r["messages"]) for r in stub.requests]
    assert "\n" not in str(err.value)
    # the run stopped at the unparseable answer, asked twice (one retry); nothing was asked after it
    assert all("What did Ann paint?" in r and "gold_answer" not in r for r in asked[-2:])
    assert sum("What did Ann paint?" in r for r in asked) == 2


def test_a_rerun_makes_no_call_and_reproduces_the_scores(tmp_path) -> None:
    path = write(tmp_path / "t.json", tiny())
    with StubOpenAI(responder=clean_responder, prompt_tokens=30, completion_tokens=4) as stub:
        first = run(_cfg(path, stub, cache=True, cache_dir=str(tmp_path / "cache")), tmp_path / "o1")
        asked = len(stub.requests)
        second = run(_cfg(path, stub, cache=True, cache_dir=str(tmp_path / "cache")), tmp_path / "o2")
        assert len(stub.requests) == asked == 12  # six reads, six verdicts; the rerun sent nothing
    m1, m2 = first.metrics, second.metrics
    assert m1["j_score"] == m2["j_score"] == 0.5 and m1["n_j_score"] == m2["n_j_score"] == 6  # J: 1, 0, 1, 0, 0, 1
    assert m1["answer_f1"] == m2["answer_f1"] and m1["bleu1"] == m2["bleu1"]
    assert (m1["llm_calls"], m1["llm_prompt_tokens"], m1["llm_completion_tokens"]) == (12.0, 360.0, 48.0)
    assert (m1["llm.reader.calls"], m1["llm.judge_qa.calls"], m1["llm_cache_hits"]) == (6.0, 6.0, 0.0)
    assert m2["llm_calls"] == m2["llm_prompt_tokens"] == 0.0 and m2["llm_cache_hits"] == 12.0
    assert m2["llm.reader.cache_hits"] == m2["llm.judge_qa.cache_hits"] == 6.0
    rows1 = [p for p in first.result.predictions if "reader_answer" in p]
    rows2 = [p for p in second.result.predictions if "reader_answer" in p]
    verdicts = [[(r["reader_answer"], r["judge_label"]) for r in rows] for rows in (rows1, rows2)]
    assert verdicts[0] == verdicts[1] and len(verdicts[0]) == 6
    assert all(r["reader_cache_hit"] and r["judge_cache_hit"] and r["reader_calls"] == 0 for r in rows2)
    assert all(r["reader_prompt_tokens"] == 30 and r["judge_completion_tokens"] == 4 for r in rows1)
    # a cached answer took no model time: the rerun measured no reader latency and reports none
    assert "reader_latency_s_p50" not in m2 and "n_reader_usage" not in m2 and m1["n_reader_usage"] == 6


def test_a_reader_run_that_makes_no_call_is_tagged_llm_unused(tmp_path, caplog) -> None:
    path = write(tmp_path / "t.json", tiny())
    with StubOpenAI(responder=responder) as stub:
        with caplog.at_level(logging.WARNING, logger="memlab.llm"):
            m = run(_cfg(path, stub, "dataset.max_reader_questions=0"), tmp_path / "o").metrics
        assert not stub.requests
    assert m["llm_calls"] == m["llm.reader.calls"] == m["llm.judge_qa.calls"] == 0.0 and "n_reader" not in m
    assert "memlab.llm_used=false" in caplog.text and "(reader, judge_qa)" in caplog.text


def test_judge_off_scores_f1_and_bleu1_only(tmp_path) -> None:
    path = write(tmp_path / "t.json", tiny())
    with StubOpenAI(responder=responder) as stub:
        cfg = _cfg(path, stub, "dataset.llm_judge=false", "dataset.max_reader_questions=2")
        m = run(cfg, tmp_path / "o").metrics
        assert not any("gold_answer" in json.dumps(r["messages"]) for r in stub.requests)
    assert m["n_reader"] == 2 and "j_score" not in m and "n_j_score" not in m
    assert m["llm.reader.calls"] == 2.0 and not any(k.startswith("llm.judge_qa.") for k in m)
    assert m["answer_f1"] == 0.75 and m["n_answer_f1"] == 2  # the two temporal questions come first
