"""LLM accounting and failures end to end: `python -m memlab` and `memlab.run.run` against the stub server on
127.0.0.1 or an endpoint where nothing listens. No accuracy is claimed from the stub."""

from __future__ import annotations

import json
import logging
import os
import socket
import subprocess
import sys
import time

import pytest

from memlab.core.paths import PROJECT_ROOT
from memlab.run import run
from tests.locomo.tiny import tiny, write
from tests.support.compose import compose_cfg
from tests.support.stub_openai import StubOpenAI


def dead_endpoint() -> str:
    """An OpenAI-style address on 127.0.0.1 where nothing listens."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


@pytest.mark.slow  # over 5 s: with the slow suite (CI runs it)
def test_a_dead_endpoint_stops_the_run_with_one_line(tmp_path) -> None:
    endpoint = dead_endpoint()
    args = ["judge=dspy", "llm=local", f"llm.api_base={endpoint}", "embedder=tfidf", "tracking=none"]
    args += [f"hydra.run.dir={tmp_path / 'run'}", f"paths.cache_dir={tmp_path / 'cache'}"]
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT), "HF_HUB_OFFLINE": "1"}
    t0 = time.monotonic()
    out = subprocess.run(
        [sys.executable, "-m", "memlab", *args], capture_output=True, text=True, timeout=30, env=env, cwd=tmp_path
    )
    assert time.monotonic() - t0 < 30
    assert out.returncode != 0
    errors = [line for line in out.stderr.splitlines() if line.startswith("memlab: error:")]
    assert len(errors) == 1, out.stderr
    assert "judge=dspy" in errors[0] and endpoint in errors[0] and "cannot be reached" in errors[0]
    assert "llm.api_base" in errors[0] and "llm.on_error=fallback" in errors[0]
    assert "Traceback" not in out.stderr


def test_fallback_finishes_and_counts_every_failed_call(tmp_path) -> None:
    llm = ["llm=local", f"llm.api_base={dead_endpoint()}", "llm.on_error=fallback", "llm.num_retries=0"]
    llm.append("llm.cache=false")
    cfg = compose_cfg(["judge=dspy", "embedder=tfidf", *llm])
    out = run(cfg, tmp_path / "o")
    m = out.metrics
    tree = json.loads((tmp_path / "o" / "trace.json").read_text())

    def count(node: dict, name: str) -> int:
        return (node["count"] if node["name"] == name else 0) + sum(count(c, name) for c in node["children"])

    judged = count(tree, "judge.judge")  # every judge call asked the model once, and failed
    assert judged > 0
    assert m["llm_failures"] == m["llm_fallbacks"] == m["llm_calls"] == m["llm.judge.failures"] == judged
    assert m["llm_prompt_tokens"] == 0.0 and "llm_latency_p50_ms" not in m and "llm_cost_usd" not in m
    assert count(tree, "llm.judge") == judged


def _locomo_cfg(path, stub: StubOpenAI, cache_dir) -> dict:
    overrides = ["dataset=locomo", f"dataset.path={path}", "embedder=tfidf", "temporal=rules", "retriever=bm25"]
    cfg = compose_cfg([*overrides, "dataset.llm_answer=true", "llm=local"])
    cfg["llm"] = stub.llm_config(cache=True, cache_dir=str(cache_dir), on_error="fail")
    return cfg


def test_a_scripted_stub_run_is_counted_exactly_and_a_rerun_costs_nothing(tmp_path, caplog) -> None:
    path = write(tmp_path / "t.json", tiny())
    reply = "[[ ## answer ## ]]\n7 May 2023\n\n[[ ## completed ## ]]"
    with StubOpenAI(replies=[reply], prompt_tokens=40, completion_tokens=6) as stub:
        with caplog.at_level(logging.INFO, logger="memlab.llm"):
            first = run(_locomo_cfg(path, stub, tmp_path / "cache"), tmp_path / "o1")
        asked = len(stub.requests)
        second = run(_locomo_cfg(path, stub, tmp_path / "cache"), tmp_path / "o2")
        assert len(stub.requests) == asked  # the rerun sent nothing
    m1, m2 = first.metrics, second.metrics
    assert asked == 7 and m1["llm_calls"] == m1["llm.answerer.calls"] == 7.0
    assert (m1["llm_prompt_tokens"], m1["llm_completion_tokens"], m1["llm_cache_hits"]) == (280.0, 42.0, 0.0)
    assert (m1["llm_failures"], m1["llm_fallbacks"]) == (0.0, 0.0)
    assert (m2["llm_calls"], m2["llm_cache_hits"], m2["llm_prompt_tokens"]) == (0.0, 7.0, 0.0)
    assert "LLM used: 7 calls" in caplog.text
    rows = [json.loads(line) for line in (tmp_path / "o1" / "predictions.jsonl").read_text().splitlines()]
    calls = [r["llm_call"] for r in rows if "llm_call" in r]
    assert len(calls) == 7 and all(c == {"cache_hit": False, "calls": 1, "prompt_tokens": 40, "completion_tokens": 6}
                                   for c in calls)  # fmt: skip
    again = [r["llm_call"] for r in second.result.predictions if "llm_call" in r]
    assert all(c["cache_hit"] and c["calls"] == 0 for c in again) and len(again) == 7
    assert [r["llm_prediction"] for r in second.result.predictions] == [r["llm_prediction"] for r in rows]


def test_an_llm_configuration_whose_model_is_never_called_says_so(tmp_path, caplog) -> None:
    # squidbot at its own trigger (100) never fires on the 58-memory built-in history: the summarizer is never asked
    cfg = compose_cfg(["+experiment=squidbot", "embedder=tfidf", "retention.trigger=100", "retention.keep=20"])
    with caplog.at_level(logging.WARNING, logger="memlab.llm"):
        out = run(cfg, tmp_path / "o")
    assert out.metrics["llm_calls"] == 0.0 and out.metrics["llm.summarizer.calls"] == 0.0
    assert "memlab.llm_used=false" in caplog.text and "(summarizer)" in caplog.text


def test_a_run_without_an_llm_strategy_logs_no_llm_metric(tmp_path) -> None:
    out = run(compose_cfg(["embedder=tfidf"]), tmp_path / "o")
    assert not [k for k in out.metrics if k.startswith("llm")]
