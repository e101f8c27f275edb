"""temporal=dspy through the local stub OpenAI server (no accuracy is claimed from a stub)."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from memlab.core.errors import MemlabError
from memlab.strategies.temporal.dspy_resolver import DSPyResolver, parse_expressions
from memlab.wiring.build import build
from tests.support.compose import compose_cfg
from tests.support.stub_openai import StubOpenAI

A = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
TEXT = "I went to the support group yesterday."
GOOD = json.dumps(
    [
        {"text": "yesterday", "start": "2023-05-07T00:00:00+00:00", "end": "2023-05-08T00:00:00+00:00", "grain": "day"},
        {"text": "not in text", "start": "2023-05-07", "end": "2023-05-08", "grain": "day"},
        {"text": "support", "start": "2023-05-08", "end": "2023-05-07", "grain": "day"},
    ]
)


def chat_reply(expressions: str) -> str:
    return f"[[ ## expressions ## ]]\n{expressions}\n\n[[ ## completed ## ]]"


def test_well_formed_reply_is_parsed_and_validated() -> None:
    with StubOpenAI(replies=[chat_reply(GOOD)]) as stub:
        cfg = compose_cfg(["temporal=dspy", "embedder=tfidf", "llm=local"])
        cfg["temporal"]["llm"] = stub.llm_config()
        resolver = build(cfg["temporal"], "temporal")
        refs = resolver.resolve(TEXT, A)
        assert stub.requests, "the stub was not called"
    assert [(r.text, r.span, r.start, r.end, r.grain) for r in refs] == [
        ("yesterday", (28, 37), datetime(2023, 5, 7, tzinfo=UTC), datetime(2023, 5, 8, tzinfo=UTC), "day")
    ]


@pytest.mark.parametrize("reply", ["", "no json here", chat_reply("[{broken"), chat_reply('{"a": 1}'), "[[ ## x ## ]]"])
def test_malformed_reply_gives_empty_list(reply: str) -> None:
    with StubOpenAI(replies=[reply]) as stub:
        resolver = DSPyResolver(llm=stub.llm_config())
        assert resolver.resolve(TEXT, A) == []


def test_unreachable_server_stops_or_falls_back_to_an_empty_list() -> None:
    llm = {"model": "openai/x", "api_base": "http://127.0.0.1:9/v1", "api_key": "k", "cache": False, "num_retries": 0}
    with pytest.raises(MemlabError, match=r"temporal=dspy: .* at http://127.0.0.1:9/v1 cannot be reached"):
        DSPyResolver(llm=llm).resolve(TEXT, A)
    assert DSPyResolver(llm={**llm, "on_error": "fallback"}).resolve(TEXT, A) == []


def test_no_model_is_a_clear_error() -> None:
    with pytest.raises(MemlabError, match="llm="):
        DSPyResolver(llm={"model": None}).resolve(TEXT, A)
    assert DSPyResolver().resolve("", A) == []


def test_parse_expressions_pure() -> None:
    assert parse_expressions(None, TEXT, A) == []
    assert parse_expressions("[]", TEXT, A) == []
    naive = parse_expressions(
        [{"text": "yesterday", "start": "2023-05-07T00:00", "end": "2023-05-08T00:00", "grain": "DAY"}], TEXT, A
    )
    assert naive[0].start.tzinfo is UTC and naive[0].grain == "day"
    assert parse_expressions([{"text": "yesterday", "start": "x", "end": "y"}], TEXT, A) == []
    bad_grain = [{"text": "yesterday", "start": "2023-05-07", "end": "2023-05-08", "grain": "fortnight"}]
    assert parse_expressions(bad_grain, TEXT, A) == []
