"""Per-question rows -> flat metrics (per category, over categories 1–4, held-out and errata variants).

A mean over no question (no question of a category, none with evidence, none of the temporal kind) is
undefined and absent, never 0.0 or 1.0; each mean's count is logged beside it: ``n_evidence_cat1_4`` and
``n_evidence_cat<c>`` (questions with evidence: the recalls), ``n_questions_cat1_4`` (``context_tokens``),
``n_temporal``, ``n_temporal_datelike``, ``n_llm_answered_cat1_4`` and ``n_llm_answered_cat<c>``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from memlab.benchmarks.locomo.recall import KS
from memlab.benchmarks.metrics import ci_metrics, defined
from memlab.benchmarks.metrics import mean as _mean

RECALL_NAMES = tuple(f"recall_at_{k}_{unit}" for unit in ("turn", "session") for k in KS)


def recall_metrics(rows: Iterable[Mapping[str, Any]]) -> dict[str, float]:
    """``recall_at_{k}_{turn,session}`` over categories 1–4 and with suffix ``_cat1``…``_cat5`` (questions
    with evidence), with their counts.
    """
    rows = [r for r in rows if "recall" in r]
    out: dict[str, float | None] = {}
    main = [r for r in rows if r["category"] in (1, 2, 3, 4)]
    for name in RECALL_NAMES:
        out[name] = _mean([r["recall"][name] for r in main])
        for cat in (1, 2, 3, 4, 5):
            out[f"{name}_cat{cat}"] = _mean([r["recall"][name] for r in rows if r["category"] == cat])
    out["n_questions"] = float(len(rows))
    out["n_questions_cat1_4"] = float(len(main))
    out["n_no_evidence_cat1_4"] = float(sum(1 for r in main if not r["evidence"]))
    out["n_evidence_cat1_4"] = float(sum(1 for r in main if r["evidence"]))
    for cat in (1, 2, 3, 4, 5):
        out[f"n_evidence_cat{cat}"] = float(sum(1 for r in rows if r["category"] == cat and r["evidence"]))
    return defined(out)


def context_metrics(rows: Iterable[Mapping[str, Any]]) -> dict[str, float]:
    """``evidence_recall_at_budget`` over categories 1–4 and per category (``_cat1``…``_cat5``), and
    ``context_tokens`` (mean tokens of the selected context over categories 1–4).
    """
    rows = [r for r in rows if "evidence_recall_at_budget" in r]
    if not rows:
        return {}
    main = [r for r in rows if r["category"] in (1, 2, 3, 4)]
    out = {
        "evidence_recall_at_budget": _mean([r["evidence_recall_at_budget"] for r in main]),
        "context_tokens": _mean([float(r["context_tokens"]) for r in main]),
    }
    for cat in (1, 2, 3, 4, 5):
        out[f"evidence_recall_at_budget_cat{cat}"] = _mean(
            [r["evidence_recall_at_budget"] for r in rows if r["category"] == cat]
        )
    return defined(out)


def temporal_metrics(rows: Iterable[Mapping[str, Any]]) -> dict[str, float]:
    """Category-2 answer metrics: date accuracy (all, date-like gold), token F1, counts."""
    rows = [r for r in rows if r["category"] == 2 and "date_correct" in r]
    datelike = [r for r in rows if r["gold_datelike"]]
    return defined(
        {
            "temporal_date_acc": _mean([float(r["date_correct"]) for r in rows]),
            "temporal_date_acc_datelike": _mean([float(r["date_correct"]) for r in datelike]),
            "temporal_f1": _mean([r["f1"] for r in rows]),
            "temporal_f1_datelike": _mean([r["f1"] for r in datelike]),
            "n_temporal": float(len(rows)),
            "n_temporal_datelike": float(len(datelike)),
        }
    )


def llm_metrics(rows: Iterable[Mapping[str, Any]]) -> dict[str, float]:
    """``llm_f1`` over categories 1–4 and per category (only rows the LLM answered)."""
    rows = [r for r in rows if "llm_f1" in r]
    if not rows:
        return {}
    main = [r["llm_f1"] for r in rows if r["category"] in (1, 2, 3, 4)]
    out = {"llm_f1": _mean(main), "n_llm_answered_cat1_4": float(len(main))}
    for cat in (1, 2, 3, 4, 5):
        sub = [r["llm_f1"] for r in rows if r["category"] == cat]
        if sub:
            out[f"llm_f1_cat{cat}"] = _mean(sub)
            out[f"n_llm_answered_cat{cat}"] = float(len(sub))
    out["llm_malformed"] = float(sum(1 for r in rows if r.get("llm_malformed")))
    return defined(out)


def confidence_intervals(rows: Sequence[Mapping[str, Any]], seed: int = 0) -> dict[str, float]:
    """95% percentile-bootstrap intervals (``_ci_low``/``_ci_high``) of the headline metrics."""
    main = [r for r in rows if r["category"] in (1, 2, 3, 4) and "recall" in r]
    temporal = [r for r in rows if r["category"] == 2 and "date_correct" in r]
    samples = {
        "recall_at_10_turn": [
            r["recall"]["recall_at_10_turn"] for r in main if r["recall"]["recall_at_10_turn"] is not None
        ],
        "evidence_recall_at_budget": [
            r["evidence_recall_at_budget"] for r in main if r.get("evidence_recall_at_budget") is not None
        ],
        "temporal_date_acc": [float(r["date_correct"]) for r in temporal],
        "temporal_date_acc_datelike": [float(r["date_correct"]) for r in temporal if r["gold_datelike"]],
        "temporal_f1": [r["f1"] for r in temporal],
    }
    out: dict[str, float] = {}
    for name, values in samples.items():
        out.update(ci_metrics(name, values, seed=seed))
    return out


def all_metrics(rows: Sequence[Mapping[str, Any]], seed: int = 0) -> dict[str, float]:
    """Every metric over ``rows`` (with bootstrap intervals of the headline ones)."""
    return {
        **recall_metrics(rows),
        **context_metrics(rows),
        **temporal_metrics(rows),
        **llm_metrics(rows),
        **confidence_intervals(rows, seed),
    }
