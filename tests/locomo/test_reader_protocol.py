"""The field's protocol on LoCoMo end to end through the stub server: reader and judge per question, scripted
answers scored exactly (no accuracy is ever claimed from a stub)."""

from __future__ import annotations

import json
import math

import pytest

from memlab.errors import MemlabError
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


def responder(messages: list[dict]) -> str:
    """Reader or judge reply for the question in ``messages`` (the judge's prompt holds a gold answer)."""
    text = json.dumps(messages)
    q = _question(text.split("[[ ## question ## ]]")[-1] if "[[ ## question ## ]]" in text else text)
    if "gold_answer" in text:
        return f"[[ ## reasoning ## ]]\nCompared.\n\n[[ ## label ## ]]\n{LABELS[q]}\n\n[[ ## completed ## ]]"
    if ANSWERS[q] is None:
        return "I cannot follow the format."
    return f"[[ ## reasoning ## ]]\nFrom the memories.\n\n[[ ## answer ## ]]\n{ANSWERS[q]}\n\n[[ ## completed ## ]]"


def _cfg(path, stub, *extra: str) -> dict:
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
    cfg["llm"] = stub.llm_config()
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
    # one call per question; DSPy's adapter retries an unparseable reply once in JSON form (one each here)
    assert len(reader) == 6 + 1 and len(judge) == 5 + 1
    m = out.metrics
    assert m["n_reader"] == 6 and m["n_reader_malformed"] == 1 and m["n_judge_malformed"] == 1
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
    assert rows["What is the puppy's name?"]["reader_prompt_tokens"] == 1  # the stub's usage, per call
    assert rows["What did Ann paint?"]["reader_answer"] == "" and "judge_label" not in rows["What did Ann paint?"]
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
        cfg = _cfg(path, stub)
    with pytest.raises(MemlabError, match=r"the reader call to openai/stub-model at http://127\.0\.0\.1") as err:
        run(cfg, tmp_path / "o")
    assert "\n" not in str(err.value)


def test_judge_off_scores_f1_and_bleu1_only(tmp_path) -> None:
    path = write(tmp_path / "t.json", tiny())
    with StubOpenAI(responder=responder) as stub:
        cfg = _cfg(path, stub, "dataset.llm_judge=false", "dataset.max_reader_questions=2")
        m = run(cfg, tmp_path / "o").metrics
        assert not any("gold_answer" in json.dumps(r["messages"]) for r in stub.requests)
    assert m["n_reader"] == 2 and "j_score" not in m and "n_j_score" not in m
    assert m["answer_f1"] == 0.75 and m["n_answer_f1"] == 2  # the two temporal questions come first
