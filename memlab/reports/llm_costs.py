"""What a configuration's language-model calls cost: calls, tokens, failures, cache hits, USD, per question
and per 1,000 memories (from the ``llm_*`` metrics :mod:`memlab.llm.accounting` logs on every run that names
an LLM strategy). Configurations without such metrics are left out; a table with none of them is empty.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from memlab.reports.configs import mean_metric

#: Query counts whose sum is a run's number of questions, when it logs no ``n_questions``.
QUERY_COUNTS: tuple[str, ...] = ("n_queries_current", "n_queries_as_of", "n_queries_when", "n_queries_history")


def _questions(run: Any) -> float | None:
    metrics = run.record.metrics
    if "n_questions" in metrics:
        return float(metrics["n_questions"])
    found = [float(metrics[k]) for k in QUERY_COUNTS if k in metrics]
    return sum(found) if found else None


def per_unit(tokens: float | None, units: float | None, scale: float = 1.0) -> float | None:
    """``tokens`` per ``units`` (times ``scale``); undefined (``None``) without units."""
    if tokens is None or not units:
        return None
    return tokens * scale / units


def _mean(values: list[float | None]) -> float | None:
    got = [v for v in values if v is not None]
    return sum(got) / len(got) if got else None


def _fmt(value: float | None, digits: int = 0) -> str:
    return "–" if value is None else f"{value:,.{digits}f}"


def llm_table(rows: Sequence[Any]) -> list[str]:
    """Markdown lines: one row per configuration that logged ``llm_calls`` (means over its runs)."""
    lines: list[str] = []
    for row in rows:
        runs = [r for r in row.runs if "llm_calls" in r.record.metrics]
        if not runs:
            continue
        tokens = [
            float(r.record.metrics.get("llm_prompt_tokens", 0.0))
            + float(r.record.metrics.get("llm_completion_tokens", 0.0))
            for r in runs
        ]
        per_q = _mean([per_unit(t, _questions(r)) for t, r in zip(tokens, runs, strict=True)])
        per_k = _mean(
            [per_unit(t, r.record.metrics.get("n_memories"), 1000.0) for t, r in zip(tokens, runs, strict=True)]
        )
        cost = mean_metric(runs, "llm_cost_usd")
        failures, fallbacks = mean_metric(runs, "llm_failures"), mean_metric(runs, "llm_fallbacks")
        lines.append(
            f"| {row.label} | {_fmt(mean_metric(runs, 'llm_calls'), 1)} | {_fmt(_mean(tokens))} | {_fmt(per_q, 1)} "
            f"| {_fmt(per_k)} | {_fmt(failures, 1)} | {_fmt(fallbacks, 1)} "
            f"| {_fmt(mean_metric(runs, 'llm_cache_hits'), 1)} | {'–' if cost is None else f'{cost:.4f}'} |"
        )
    if not lines:
        return []
    head = [
        "| configuration | calls | tokens | tokens / question | tokens / 1,000 memories | failures | fallbacks "
        "| cache hits | USD |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    note = [
        "",
        "Means over each configuration's runs. Tokens are prompt + completion as the endpoint reported them; "
        "USD from LiteLLM's local price map where the model is known (– otherwise); – per question or per "
        "1,000 memories where the run logged no such count.",
    ]
    return head + lines + note
