"""The DSPy judge through the stub OpenAI server (no accuracy is claimed from it)."""

from __future__ import annotations

from typing import Any

import pytest

from memlab.core.errors import MemlabError
from memlab.core.types import Relation
from memlab.strategies.judge.dspy_judge import DSPyJudge
from tests.judges.helpers import four_way_reply, mem, seed_reply
from tests.support.stub_openai import StubOpenAI

OLDER = mem("Use Flask for the HTTP API")
NEWER = mem("Switched the API from Flask to FastAPI", day=10)


def _judge(reply: str | None = None, responder: Any = None, **kwargs: Any):
    with StubOpenAI(replies=[reply] if reply is not None else None, responder=responder) as stub:
        judge = DSPyJudge(llm=stub.llm_config(), **kwargs)
        verdict = judge.judge(OLDER, NEWER, 0.8)
        return verdict, judge, stub


@pytest.mark.parametrize("relation", list(Relation))
def test_four_way_relations(relation: Relation) -> None:
    verdict, _, stub = _judge(four_way_reply(relation.value, "0.95", "why"), prompt="fourway")
    assert verdict.relation is relation
    assert verdict.confidence == pytest.approx(0.95)
    assert verdict.reason == "why"
    prompt = " ".join(m["content"] for m in stub.requests[0]["messages"])
    assert "DUPLICATE" in prompt and "COEXIST" in prompt
    assert "Switched the API from Flask to FastAPI" in prompt


@pytest.mark.parametrize(("supersedes", "relation"), [(True, Relation.SUPERSEDE), (False, Relation.COEXIST)])
def test_seed_prompt(supersedes: bool, relation: Relation) -> None:
    verdict, _, stub = _judge(seed_reply(supersedes, "high"), prompt="seed")
    assert verdict.relation is relation
    assert verdict.confidence == pytest.approx(0.9)
    assert "Be conservative" in " ".join(m["content"] for m in stub.requests[0]["messages"])


@pytest.mark.parametrize(
    "reply",
    ["{not json", "", "garbage garbage", four_way_reply("MAYBE"), '{"classification": "SUPERSEDE"'],
)
def test_malformed_output_is_coexist(reply: str) -> None:
    verdict, _, _ = _judge(reply, prompt="fourway")
    assert verdict.relation is Relation.COEXIST
    assert verdict.confidence == 0.0
    assert "malformed" in verdict.reason


def test_server_error_is_coexist() -> None:
    def boom(messages: list[dict]) -> str:
        raise RuntimeError("server down")

    verdict, _, _ = _judge(responder=boom, prompt="fourway")
    assert verdict.relation is Relation.COEXIST
    assert verdict.confidence == 0.0


@pytest.mark.parametrize(
    ("raw", "value"),
    [
        ("high", 0.9),
        ("Medium", 0.6),
        ("low", 0.3),
        ("0.42", 0.42),
        ("85%", 0.85),
        ("85", 0.85),
        ("??", 0.3),
        ("very high confidence", 0.9),
        (2.0, 0.02),
        (-1, 0.0),
    ],
)
def test_confidence_mapping(raw: Any, value: float) -> None:
    assert DSPyJudge().confidence_value(raw) == pytest.approx(value)


def test_low_confidence_is_flagged_for_review() -> None:
    verdict, judge, _ = _judge(seed_reply(True, "low"), prompt="seed")
    assert verdict.relation is Relation.SUPERSEDE
    assert verdict.confidence == pytest.approx(0.3)
    assert verdict.reason.startswith("review:")
    assert judge.review_ and judge.review_[0]["relation"] == "SUPERSEDE"


def test_low_confidence_goes_to_the_pipeline_review_queue() -> None:
    from memlab.data.project_history.builtin import generate
    from memlab.pipeline.consolidate import consolidate
    from memlab.pipeline.store import MemoryStore
    from memlab.wiring.build import build_components
    from tests.support.compose import compose_cfg

    history = generate(0)
    with StubOpenAI(replies=[four_way_reply("SUPERSEDE", "low")]) as stub:
        overrides = ["judge=dspy", "embedder=tfidf", "llm=local", "llm.model=openai/stub-model"]
        overrides += [f"llm.api_base={stub.base_url}", "llm.cache=false", "llm.num_retries=0"]
        comps = build_components(compose_cfg([*overrides, "pipeline.min_judge_confidence=0.8"]))
        store = MemoryStore(history.memories[:12])
        result = consolidate(store, comps, history.now)
    assert result.review and all(r["confidence"] == pytest.approx(0.3) for r in result.review)
    assert not result.edges_created.get("supersedes")


def test_no_llm_is_a_one_line_error() -> None:
    with pytest.raises(MemlabError, match="no LLM configured"):
        DSPyJudge(llm={"model": None}).judge(OLDER, NEWER)


def test_an_llm_judge_reads_no_price_map_from_the_network() -> None:
    """DSPy would fetch LiteLLM's model price map on first use; a fresh process that builds an LM through memlab
    uses the bundled copy (it must work unattended and offline, as in the hook)."""
    import os
    import subprocess
    import sys

    code = (
        "from memlab.llm.lm import make_lm; make_lm({'model': 'openai/x', 'api_base': 'http://127.0.0.1:9/v1', "
        "'api_key': 'k', 'cache': False}); import dspy.clients.model_metadata as m; m._load(); "
        "print(m.source_info())"
    )
    env = {k: v for k, v in os.environ.items() if k != "LITELLM_LOCAL_MODEL_COST_MAP"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True, timeout=120)
    assert "'is_env_forced': True" in out.stdout and "refresh failed" not in out.stderr
