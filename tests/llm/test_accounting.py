"""The run's LLM ledger: which configurations name an LLM strategy, the metrics, the tag, the price map."""

from __future__ import annotations

import logging

import pytest

from memlab.llm import accounting
from memlab.llm.accounting import Ledger, Tally, llm_strategies
from memlab.llm.prices import cost_usd, price_map, token_prices
from tests.support.compose import compose_cfg

GROUPS = ("judge", "summarizer", "temporal", "retriever")


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        ([], []),
        (["judge=dspy"], ["judge"]),
        (["summarizer=dspy", "temporal=dspy"], ["summarizer", "temporal"]),
        (["judge=cascade"], []),
        (["judge=cascade_llm"], ["judge"]),
        (["dataset=locomo", "dataset.llm_answer=true"], ["answerer"]),
    ],
)
def test_configurations_that_name_an_llm_strategy(overrides: list[str], expected: list[str]) -> None:
    assert llm_strategies(compose_cfg(overrides), GROUPS) == expected


def test_a_group_the_benchmark_does_not_use_does_not_count() -> None:
    assert llm_strategies(compose_cfg(["summarizer=dspy"]), ("judge",)) == []


def test_tally_metrics_leave_undefined_ones_out() -> None:
    out = Tally(calls=2, failures=2, fallbacks=2, unpriced=True).metrics("llm_")
    assert out["llm_calls"] == 2.0 and out["llm_failures"] == 2.0 and out["llm_fallbacks"] == 2.0
    assert "llm_latency_p50_ms" not in out and "llm_cost_usd" not in out


def test_latency_percentiles_and_per_group_metrics() -> None:
    ledger = Ledger(("judge", "summarizer"))
    ledger.tally("judge").latencies.extend([0.010, 0.020, 0.030, 0.040])
    ledger.tally("judge").calls = 4
    ledger.tally("summarizer").calls = 1
    ledger.tally("summarizer").latencies.append(0.100)
    m = ledger.metrics()
    assert m["llm_calls"] == 5.0 and m["llm.judge.calls"] == 4.0 and m["llm.summarizer.calls"] == 1.0
    assert m["llm.judge.latency_p50_ms"] == pytest.approx(25.0)
    assert m["llm_latency_p50_ms"] == pytest.approx(30.0)
    assert m["llm.judge.latency_p95_ms"] == pytest.approx(38.5)


class Tags:
    def __init__(self) -> None:
        self.tags: dict[str, str] = {}

    def set_tags(self, tags):
        self.tags.update(tags)


def test_no_llm_strategy_and_no_call_adds_nothing() -> None:
    metrics: dict[str, float] = {"x": 1.0}
    tracker = Tags()
    assert accounting.finish(accounting.start(compose_cfg([]), GROUPS), metrics, tracker) == {}
    assert metrics == {"x": 1.0} and tracker.tags == {}


def test_an_llm_strategy_without_an_answer_is_tagged_and_said(caplog) -> None:
    tracker = Tags()
    metrics: dict[str, float] = {}
    ledger = accounting.start(compose_cfg(["summarizer=dspy"]), GROUPS)
    with caplog.at_level(logging.WARNING, logger="memlab.llm"):
        accounting.finish(ledger, metrics, tracker)
    assert tracker.tags == {"memlab.llm_used": "false", "memlab.llm_cache": "true", "memlab.llm_served": "unknown"}
    assert metrics["llm_calls"] == 0.0 and metrics["llm.summarizer.calls"] == 0.0
    assert "llm_cost_usd" not in metrics  # llm=none: no model, no price
    assert "memlab.llm_used=false" in caplog.text and "summarizer" in caplog.text
    assert accounting.current() is None


def test_an_answer_makes_the_run_llm_used() -> None:
    tracker = Tags()
    ledger = accounting.start(compose_cfg(["judge=dspy"]), GROUPS)
    ledger.tally("judge").answers = 1
    accounting.finish(ledger, {}, tracker)
    assert tracker.tags["memlab.llm_used"] == "true"


def test_a_run_is_tagged_with_its_cache_setting_and_what_each_endpoint_serves() -> None:
    tracker = Tags()
    ledger = accounting.start(compose_cfg(["judge=dspy", "llm=local", "llm.cache=false"]), GROUPS)
    ledger.served["http://127.0.0.1:9/v1"] = '{"id": "m"}'
    accounting.finish(ledger, {}, tracker)
    assert tracker.tags["memlab.llm_cache"] == "false"
    assert tracker.tags["memlab.llm_served"] == 'http://127.0.0.1:9/v1 -> {"id": "m"}'


def test_a_caught_fatal_failure_still_fails_the_run() -> None:
    from memlab.llm.client import LLMFailure

    ledger = accounting.start(compose_cfg(["judge=dspy"]), GROUPS)
    ledger.fatal = LLMFailure("judge=dspy: down")
    with pytest.raises(LLMFailure, match="down"):
        accounting.finish(ledger, {})


def test_a_priced_model_gets_a_cost_even_without_calls() -> None:
    ledger = accounting.start(compose_cfg(["judge=dspy", "llm=openai"]), GROUPS)
    metrics: dict[str, float] = {}
    accounting.finish(ledger, metrics)
    assert metrics["llm_cost_usd"] == 0.0


def test_prices_come_from_the_bundled_map() -> None:
    entry = price_map()["gpt-4o-mini"]
    expected = 1000 * entry["input_cost_per_token"] + 10 * entry["output_cost_per_token"]
    assert cost_usd("openai/gpt-4o-mini", None, 1000, 10) == pytest.approx(expected)
    assert expected > 0
    assert token_prices("openai/local-model", "http://127.0.0.1:1234/v1") is None  # a server of one's own
    assert token_prices("openai/gpt-4o-mini", "http://127.0.0.1:1234/v1") is None
    assert token_prices("openai/no-such-model-anywhere") is None
    assert token_prices(None) is None


@pytest.mark.parametrize("option", ["local", "ollama", "openai"])
def test_every_llm_option_stops_on_failure_and_caches_by_default(option: str) -> None:
    from memlab.llm.client import LLMClient

    cfg = compose_cfg([f"llm={option}"])
    llm = cfg["llm"]
    assert llm["model"] and llm["on_error"] == "fail" and llm["malformed_retries"] == 1 and llm["cache"] is True
    assert llm["cache_dir"] == f"{cfg['paths']['cache_dir']}/llm"
    assert LLMClient(llm, "judge", "judge=dspy", "COEXIST").on_error == "fail"
