"""The LLM reader through the stub OpenAI server (no accuracy is claimed from it)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memlab.core.errors import MemlabError
from memlab.core.types import Answer, Memory
from memlab.strategies.reader.llm import LLMReader
from tests.support.stub_openai import StubOpenAI

NOW = datetime(2025, 4, 1, tzinfo=UTC)
CONTEXT = [
    Memory("m1", "decisions", datetime(2025, 1, 2, tzinfo=UTC), "Use Kafka for events", ""),
    Memory("s1", "decisions", datetime(2025, 3, 2, tzinfo=UTC), "Switched events from Kafka to NATS", ""),
]


def reply(answer: str, ids: str) -> str:
    return f"[[ ## answer ## ]]\n{answer}\n\n[[ ## unit_ids ## ]]\n{ids}\n\n[[ ## completed ## ]]"


def test_answer_and_ids_from_the_model_unknown_ids_dropped():
    with StubOpenAI(replies=[reply("NATS", "s1, zz9")]) as stub:
        answer = LLMReader(llm=stub.llm_config()).answer("Which broker carries events?", CONTEXT, NOW)
        prompt = " ".join(m["content"] for m in stub.requests[0]["messages"])
    assert answer == Answer("NATS", ("s1",), 1.0)
    assert "[s1] (2025-03-02) Switched events from Kafka to NATS" in prompt and "2025-04-01" in prompt


def test_malformed_output_falls_back_to_no_answer():
    with StubOpenAI(replies=["%% garbage %%"]) as stub:
        answer = LLMReader(llm=stub.llm_config()).answer("Which broker?", CONTEXT, NOW)
    assert answer == Answer("", (), 0.0)


def test_failure_stops_the_run_with_on_error_fail():
    with StubOpenAI(replies=[{"content": "", "status": 401}]) as stub, pytest.raises(MemlabError):
        LLMReader(llm=stub.llm_config(on_error="fail")).answer("Which broker?", CONTEXT, NOW)


def test_no_llm_is_a_one_line_error_and_empty_context_needs_no_call():
    assert LLMReader(llm={"model": None}).answer("Which broker?", [], NOW) == Answer("", (), 0.0)
    with pytest.raises(MemlabError, match="reader=llm has no LLM configured"):
        LLMReader(llm={"model": None}).answer("Which broker?", CONTEXT, NOW)


def test_builtin_history_with_the_llm_reader_asks_once_per_read_question(tmp_path):
    from memlab.run import run
    from tests.support.compose import compose_cfg

    with StubOpenAI(replies=[reply("FastAPI", "")]) as stub:
        overrides = ["dataset=builtin_history", "embedder=tfidf", "reader=llm", "llm=local"]
        overrides += ["llm.model=openai/stub-model", f"llm.api_base={stub.base_url}", "llm.cache=false"]
        outcome = run(compose_cfg([*overrides, "llm.num_retries=0"]), tmp_path)
        asked = len(stub.requests)
    assert outcome.metrics["n_reader"] == 16.0 and asked == 16  # every current and as_of question, one call each
    assert outcome.metrics["llm.reader.calls"] == 16.0
    assert "reader_acc" in outcome.metrics  # a stub's answers: no accuracy is claimed from it


def test_the_context_is_bounded_by_tokens_not_cut_per_unit() -> None:
    section = Memory("doc", "progress", datetime(2025, 2, 1, tzinfo=UTC), "## running document", "- line\n" * 300)
    whole = LLMReader(max_context_tokens=1000).render([section, *CONTEXT])
    assert whole.count("- line") == 300  # a 2,140-character unit shown whole (a per-unit cut showed 600)
    cut = LLMReader(max_context_tokens=500).render([section, *CONTEXT])
    assert len(cut) == 2000 and "[m1]" not in cut  # 500 tokens of 4 characters: the context ends there
    assert whole.endswith("[s1] (2025-03-02) Switched events from Kafka to NATS")  # 4,000 tokens: everything
    assert len(LLMReader(max_context_tokens=10).render(CONTEXT)) == 40
