"""The language-model cost table of the experiment report: exact values, undefined counts shown as –."""

from __future__ import annotations

from types import SimpleNamespace

from memlab.reports.configs import RunData
from memlab.reports.llm_costs import llm_table, per_unit


def _run(**metrics: float) -> RunData:
    return RunData(SimpleNamespace(metrics=metrics, params={}))


def test_per_unit_is_undefined_without_units():
    assert per_unit(10.0, 4.0) == 2.5 and per_unit(10.0, 4.0, 1000.0) == 2500.0
    assert per_unit(10.0, None) is None and per_unit(10.0, 0.0) is None and per_unit(None, 3.0) is None


def test_a_configuration_with_calls_gets_a_row_with_exact_means():
    llm = [
        _run(
            llm_calls=4,
            llm_prompt_tokens=300,
            llm_completion_tokens=100,
            n_memories=200,
            n_queries_current=2,
            n_queries_as_of=2,
            llm_failures=1,
            llm_fallbacks=1,
            llm_cache_hits=0,
        ),
        _run(
            llm_calls=2,
            llm_prompt_tokens=100,
            llm_completion_tokens=100,
            n_memories=100,
            n_questions=4,
            llm_failures=0,
            llm_fallbacks=0,
            llm_cache_hits=2,
            llm_cost_usd=0.5,
        ),
    ]
    rows = [
        SimpleNamespace(label="judge=dspy", runs=llm),
        SimpleNamespace(label="judge=slot", runs=[_run(n_memories=5)]),
    ]
    lines = llm_table(rows)
    body = [line for line in lines if line.startswith("| judge=")]
    # tokens 400 and 200 (mean 300); per question 100 and 50 (mean 75); per 1,000 memories 2,000 and 2,000
    assert body == ["| judge=dspy | 3.0 | 300 | 75.0 | 2,000 | 0.5 | 0.5 | 1.0 | 0.5000 |"]


def test_no_llm_runs_no_table():
    assert llm_table([SimpleNamespace(label="a", runs=[_run(n_memories=3)])]) == []


def test_counts_missing_show_as_undefined():
    rows = [SimpleNamespace(label="x", runs=[_run(llm_calls=1, llm_prompt_tokens=5, llm_completion_tokens=5)])]
    assert [line for line in llm_table(rows) if line.startswith("| x")] == ["| x | 1.0 | 10 | – | – | – | – | – | – |"]
