"""The DSPy answerer through the stub server (no accuracy is claimed from a stub)."""

from __future__ import annotations

import pytest

from memlab.core.errors import MemlabError
from memlab.run import run
from tests.locomo.tiny import tiny, write
from tests.support.compose import compose_cfg
from tests.support.stub_openai import StubOpenAI


def _reply(answer: str) -> str:
    return f"[[ ## answer ## ]]\n{answer}\n\n[[ ## completed ## ]]"


def _cfg(path, stub) -> dict:
    cfg = compose_cfg(
        [
            "dataset=locomo",
            f"dataset.path={path}",
            "embedder=tfidf",
            "temporal=rules",
            "retriever=bm25",
            "dataset.llm_answer=true",
            "llm=local",
        ]
    )
    cfg["llm"] = stub.llm_config()
    return cfg


def test_llm_answers_every_question_through_the_stub(tmp_path) -> None:
    path = write(tmp_path / "t.json", tiny())
    with StubOpenAI(replies=[_reply("7 May 2023")]) as stub:
        out = run(_cfg(path, stub), tmp_path / "o")
        assert len(stub.requests) == 7
        prompt = str(stub.requests[0])
    assert "8 May 2023" in prompt  # excerpts carry their session dates
    m = out.metrics
    assert m["llm_malformed"] == 0.0 and "llm_f1" in m and "llm_f1_cat2" in m
    row = next(p for p in out.result.predictions if p["qid"] == "locomo_0_qa0")
    assert row["llm_prediction"] == "7 May 2023" and row["llm_f1"] == 1.0


def test_malformed_model_output_is_counted_not_raised(tmp_path) -> None:
    path = write(tmp_path / "t.json", tiny())
    with StubOpenAI(replies=["this is not in the expected format at all"]) as stub:
        out = run(_cfg(path, stub), tmp_path / "o")
    assert out.metrics["llm_malformed"] == 7.0
    assert all(p["llm_prediction"] == "" for p in out.result.predictions)


def test_llm_answer_needs_a_model(tmp_path) -> None:
    path = write(tmp_path / "t.json", tiny())
    cfg = compose_cfg(["dataset=locomo", f"dataset.path={path}", "embedder=tfidf", "dataset.llm_answer=true"])
    with pytest.raises(MemlabError, match="needs an LLM"):
        run(cfg, tmp_path / "o")
