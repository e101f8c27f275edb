"""LLMClient through the stub OpenAI-compatible server: counts, cache, retries, the error policy, the trace.

No accuracy is claimed from the stub: these tests check what is counted and what stops a run.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from memlab.core.errors import MemlabError
from memlab.core.types import Relation
from memlab.llm import accounting
from memlab.llm.client import LLMFailure
from memlab.llm.lm import served_identity
from memlab.observability import trace
from memlab.strategies.judge.dspy_judge import DSPyJudge
from tests.judges.helpers import four_way_reply, mem
from tests.support.compose import compose_cfg
from tests.support.stub_openai import StubOpenAI

PAIRS = [
    (mem("Use Flask for the HTTP API"), mem("Switched the API from Flask to FastAPI", day=10)),
    (mem("Deploy on Heroku"), mem("Deploy on Fly.io from now on", day=11)),
    (mem("Tests run with nose"), mem("Tests run with pytest", day=12)),
]
GOOD = four_way_reply("SUPERSEDE", "0.95", "replaced")


@pytest.fixture
def ledger():
    ledger = accounting.start(compose_cfg(["judge=dspy"]), ("judge",))
    yield ledger
    ledger.fatal = None
    accounting.finish(ledger, {})


def judge(stub: StubOpenAI, **llm: Any) -> DSPyJudge:
    return DSPyJudge(llm=stub.llm_config(**llm), prompt="fourway")


def test_a_scripted_run_is_counted_exactly_and_a_rerun_makes_no_call(ledger, tmp_path) -> None:
    cache = {"cache": True, "cache_dir": str(tmp_path)}
    with StubOpenAI(replies=[GOOD], prompt_tokens=11, completion_tokens=5) as stub:
        first = [judge(stub, **cache).judge(a, b) for a, b in PAIRS]
        tally = ledger.tally("judge")
        assert (tally.calls, tally.prompt_tokens, tally.completion_tokens) == (3, 33, 15)
        assert (tally.cache_hits, tally.failures, tally.fallbacks, tally.answers) == (0, 0, 0, 3)
        assert len(stub.requests) == 3
        again = [judge(stub, **cache).judge(a, b) for a, b in PAIRS]
        assert len(stub.requests) == 3  # the rerun asked nothing
    assert again == first and all(v.relation is Relation.SUPERSEDE for v in again)
    assert (tally.calls, tally.cache_hits, tally.prompt_tokens) == (3, 3, 33)
    m = ledger.metrics()
    assert m["llm_calls"] == 3.0 and m["llm_cache_hits"] == 3.0 and m["llm.judge.completion_tokens"] == 15.0
    assert "llm_latency_p50_ms" in m and "llm_cost_usd" not in m  # a stub's model has no price


def test_the_cache_key_holds_the_model_and_the_prompt(ledger, tmp_path) -> None:
    cache = {"cache": True, "cache_dir": str(tmp_path)}
    a, b = PAIRS[0]
    with StubOpenAI(replies=[GOOD]) as stub:
        judge(stub, **cache).judge(a, b)
        judge(stub, model="openai/other-model", **cache).judge(a, b)
        seed = DSPyJudge(llm=stub.llm_config(**cache), prompt="seed")
        seed.judge(a, b)
        assert len(stub.requests) == 3
    assert len(list(tmp_path.rglob("*.json"))) == 2  # the seed prompt's reply did not parse: not cached


def test_a_malformed_answer_is_asked_again(ledger) -> None:
    with StubOpenAI(replies=["garbage", GOOD]) as stub:
        verdict = judge(stub, malformed_retries=1, on_error="fail").judge(*PAIRS[0])
        assert len(stub.requests) == 2
    tally = ledger.tally("judge")
    assert verdict.relation is Relation.SUPERSEDE
    assert (tally.calls, tally.failures, tally.fallbacks, tally.answers) == (2, 1, 0, 1)


def test_repeated_malformed_output_stops_with_one_line(ledger) -> None:
    with StubOpenAI(replies=["garbage"]) as stub:
        client_judge = judge(stub, malformed_retries=2, on_error="fail")
        with pytest.raises(LLMFailure) as info:
            client_judge.judge(*PAIRS[0])
        assert len(stub.requests) == 3
        with pytest.raises(LLMFailure):  # a stopped client asks nothing more
            client_judge.judge(*PAIRS[1])
        assert len(stub.requests) == 3
    message = str(info.value)
    assert "\n" not in message and message.startswith("judge=dspy")
    assert "malformed output 3 times" in message and stub.base_url in message and "llm.on_error=fallback" in message
    assert ledger.fatal is info.value
    assert ledger.tally("judge").failures == 3


def test_fallback_counts_every_failure_and_fallback(ledger) -> None:
    with StubOpenAI(replies=["garbage"]) as stub:
        verdicts = [judge(stub, malformed_retries=1).judge(a, b) for a, b in PAIRS]
        assert len(stub.requests) == 6
    assert all(v.relation is Relation.COEXIST and v.confidence == 0.0 for v in verdicts)
    assert "malformed output" in verdicts[0].reason
    tally = ledger.tally("judge")
    assert (tally.calls, tally.failures, tally.fallbacks, tally.answers) == (6, 6, 3, 0)


@pytest.mark.parametrize(
    ("status", "words"),
    [(401, "refused the credentials"), (500, "failed"), (404, "rejected the request")],
)
def test_server_errors_name_the_problem(ledger, status: int, words: str) -> None:
    with StubOpenAI(replies=[{"status": status, "content": "nope"}]) as stub:
        with pytest.raises(LLMFailure, match=words) as info:
            judge(stub, on_error="fail").judge(*PAIRS[0])
        assert len(stub.requests) == 1
    assert "\n" not in str(info.value)


def test_unknown_on_error_is_a_configuration_error() -> None:
    with pytest.raises(MemlabError, match="valid: fail, fallback"):
        DSPyJudge(llm={"model": "openai/x", "on_error": "ignore"}).judge(*PAIRS[0])


def test_each_call_is_a_span_with_its_tokens(ledger) -> None:
    trace.start({})
    with StubOpenAI(replies=[GOOD], prompt_tokens=20, completion_tokens=4) as stub:
        j = judge(stub)
        for a, b in PAIRS:
            j.judge(a, b)
    tree = trace.stop()
    node = next(c for c in tree["children"] if c["name"] == "llm.judge")
    assert node["count"] == 3 and node["counts"] == {"prompt_tokens": 60.0, "completion_tokens": 12.0}
    assert trace.attributes(node)["memlab.prompt_tokens"] == 60.0


def test_a_missing_api_key_names_the_variable(ledger, monkeypatch) -> None:
    monkeypatch.delenv("MEMLAB_TEST_NO_SUCH_KEY", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)  # DSPy would read it: no request may leave the machine
    llm = {"model": "openai/gpt-4o-mini", "api_key_env": "MEMLAB_TEST_NO_SUCH_KEY", "num_retries": 0, "cache": False}
    with pytest.raises(LLMFailure, match=r"has no API key .* set a valid key in MEMLAB_TEST_NO_SUCH_KEY"):
        DSPyJudge(llm=llm).judge(*PAIRS[0])


def test_a_second_endpoint_never_reads_the_first_endpoints_answers(ledger, tmp_path) -> None:
    cache = {"cache": True, "cache_dir": str(tmp_path), "model": "openai/local-model"}
    a, b = PAIRS[0]
    first, second = four_way_reply("SUPERSEDE", "0.95", "one"), four_way_reply("DUPLICATE", "0.9", "two")
    with StubOpenAI(replies=[first], served="model-a") as one, StubOpenAI(replies=[second], served="model-b") as two:
        assert judge(one, **cache).judge(a, b).relation is Relation.SUPERSEDE
        assert judge(two, **cache).judge(a, b).relation is Relation.DUPLICATE  # same name, same prompt, other server
        assert (len(one.requests), len(two.requests)) == (1, 1)
        judge(two, **cache).judge(a, b)
        assert len(two.requests) == 1  # its own answer is cached
    assert ledger.tally("judge").cache_hits == 1
    assert json.loads(ledger.served[two.base_url])["id"] == "model-b"


def test_one_endpoint_serving_another_model_is_asked_again(ledger, tmp_path) -> None:
    cache = {"cache": True, "cache_dir": str(tmp_path)}
    with StubOpenAI(replies=[GOOD], served="stub-model") as stub:
        judge(stub, **cache).judge(*PAIRS[0])
        served_identity.cache_clear()  # a new process
        stub.served = "stub-model-q4"
        judge(stub, model="openai/stub-model-q4", **cache).judge(*PAIRS[0])
        assert len(stub.requests) == 2


def test_llm_cache_false_turns_off_a_strategys_own_cache_folder(ledger, tmp_path) -> None:
    from memlab.strategies.summarizer.dspy_summarizer import DSPySummarizer

    with StubOpenAI(replies=["garbage"]) as stub:
        summarizer = DSPySummarizer(llm=stub.llm_config(cache=False), cache_dir=str(tmp_path))
        summarizer._setup()
        summarizer.client_._setup()
        assert summarizer.client_.cache_ is None
        summarizer = DSPySummarizer(llm=stub.llm_config(cache=True), cache_dir=str(tmp_path))
        summarizer._setup()
        summarizer.client_._setup()
        assert summarizer.client_.cache_ is not None and summarizer.client_.cache_.folder == tmp_path


def test_an_endpoint_that_cannot_tell_what_it_serves_is_unknown() -> None:
    assert served_identity(None, "openai/x") == "unknown"
    assert served_identity("http://127.0.0.1:9/v1", "openai/x") == "unknown"  # nothing listens on port 9
