"""The field's reader protocol on a tiny LongMemEval-format file through the stub server (no accuracy claimed)."""

from __future__ import annotations

import json

import pytest

from memlab.core.errors import MemlabError
from memlab.run import run
from tests.longmemeval.test_longmemeval import RECORDS
from tests.support.compose import compose_cfg
from tests.support.stub_openai import StubOpenAI

ANSWERS = {
    "When did I buy the red road bike?": ("May 2023", "CORRECT"),
    "Which road bike do I own now?": ("a red one", "WRONG"),
    "What tips for stretching did I get?": ("3", "CORRECT"),
}


def responder(messages: list[dict], labels: dict[str, str] | None = None) -> str:
    text = json.dumps(messages).split("[[ ## question ## ]]")[-1]
    question, (answer, label) = next((q, v) for q, v in ANSWERS.items() if q in text)
    label = (labels or {}).get(question, label)
    if "gold_answer" in text:
        return f"[[ ## reasoning ## ]]\nCompared.\n\n[[ ## label ## ]]\n{label}\n\n[[ ## completed ## ]]"
    return f"[[ ## reasoning ## ]]\nRead.\n\n[[ ## answer ## ]]\n{answer}\n\n[[ ## completed ## ]]"


def test_reader_and_judge_per_question_type(tmp_path) -> None:
    path = tmp_path / "lme.json"
    path.write_text(json.dumps(RECORDS))
    with StubOpenAI(responder=responder) as stub:
        cfg = compose_cfg(["dataset=longmemeval", f"dataset.path={path}", "embedder=tfidf", "dataset.llm_reader=true"])
        cfg["llm"] = stub.llm_config()
        out = run(cfg, tmp_path / "o")
        judged = sum("gold_answer" in json.dumps(r["messages"]) for r in stub.requests)
        assert len(stub.requests) == 6 and judged == 3
    m = out.metrics
    assert m["n_reader"] == 3 and m["j_score"] == pytest.approx(2 / 3) and m["n_j_score"] == 3
    assert m["j_score.temporal_reasoning"] == 1.0 and m["j_score.knowledge_update"] == 0.0
    assert m["n_j_score.single_session_user"] == 1
    # "a red one" vs "red road bike": sets {a, red, one} and {red, road, bike} share one token
    assert m["answer_f1.knowledge_update"] == pytest.approx(1 / 3)
    assert m["answer_f1.single_session_user"] == 1.0  # an integer gold is read as its digits
    assert m["bleu1.temporal_reasoning"] == 1.0
    row = next(p for p in out.result.predictions if p["question_id"] == "q2")
    assert row["reader_answer"] == "a red one" and row["judge_label"] == "WRONG"
    assert row["reader_calls"] == row["judge_calls"] == 1 and row["judge_prompt_tokens"] == 1
    assert m["llm.reader.calls"] == m["llm.judge_qa.calls"] == 3.0 and m["llm_failures"] == 0.0


def test_an_unreadable_verdict_stops_the_run_unless_fallback(tmp_path) -> None:
    path = tmp_path / "lme.json"
    path.write_text(json.dumps(RECORDS))
    maybe = {"Which road bike do I own now?": "MAYBE"}
    with StubOpenAI(responder=lambda messages: responder(messages, maybe)) as stub:
        cfg = compose_cfg(["dataset=longmemeval", f"dataset.path={path}", "embedder=tfidf", "dataset.llm_reader=true"])
        cfg["llm"] = stub.llm_config(on_error="fail")
        with pytest.raises(MemlabError, match=r"^dataset\.llm_reader=true \(J judge\): .* malformed output") as err:
            run(cfg, tmp_path / "o1")
        assert "\n" not in str(err.value)
        cfg["llm"] = stub.llm_config()  # on_error=fallback: J undefined for that question, counted
        m = run(cfg, tmp_path / "o2").metrics
    assert m["j_score"] == 1.0 and m["n_j_score"] == 2 and m["n_judge_malformed"] == 1
    assert "j_score.knowledge_update" not in m and m["answer_f1.knowledge_update"] == pytest.approx(1 / 3)
    assert m["llm.judge_qa.failures"] == m["llm.judge_qa.fallbacks"] == 1.0 and m["llm.reader.fallbacks"] == 0.0


def test_reader_without_a_model_fails_in_one_line(tmp_path) -> None:
    path = tmp_path / "lme.json"
    path.write_text(json.dumps(RECORDS))
    cfg = compose_cfg(["dataset=longmemeval", f"dataset.path={path}", "embedder=tfidf", "dataset.llm_reader=true"])
    with pytest.raises(MemlabError, match="needs an LLM"):
        run(cfg, tmp_path / "o")
