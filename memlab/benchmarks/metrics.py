"""Pure metric functions. Edge cases are pinned in tests: empty gold, empty prediction, ties by id.

Conventions (tests/test_metric_conventions.py): a rate whose denominator is empty is undefined and returned
as ``None``; callers leave it out of the metrics (never 1.0 or 0.0 by convention, see :func:`defined`) and
log its count ``n_...`` (the denominator) beside every rate; :func:`count_name` finds it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

from memlab.core.types import TIER_ORDER
from memlab.data.relations import transitive_closure


def defined(values: Mapping[str, float | None]) -> dict[str, float]:
    """``values`` without its undefined (``None``) entries: what a run logs."""
    return {k: float(v) for k, v in values.items() if v is not None}


def ratio(numerator: float, denominator: float) -> float | None:
    """``numerator / denominator``; ``None`` (undefined) when the denominator is 0."""
    return numerator / denominator if denominator else None


def precision_recall_f1(predicted: Collection, gold: Collection) -> tuple[float | None, float | None, float | None]:
    """Set precision, recall and F1; ``None`` where undefined.

    Precision is undefined with no prediction, recall with no gold; F1 (``2 TP / (2 TP + FP + FN)``) is
    undefined only when both are empty: a prediction with no gold scores F1 0 (every prediction is wrong), gold
    with no prediction scores F1 0 (nothing found).
    """
    pred, ref = set(predicted), set(gold)
    hit = len(pred & ref)
    precision = hit / len(pred) if pred else None
    recall = hit / len(ref) if ref else None
    if not pred and not ref:
        f1 = None
    elif hit == 0:
        f1 = 0.0
    else:
        assert precision is not None and recall is not None
        f1 = 2 * precision * recall / (precision + recall)
    return precision, recall, f1


def supersession_scores(
    predicted: Iterable[tuple[str, str]], gold: Iterable[tuple[str, str]]
) -> tuple[float | None, float | None, float | None]:
    """Precision/recall/F1 of ``(older, newer)`` SUPERSEDE pairs, compared as transitive closures.

    Both sides are closed transitively, so a chain A→B→C predicted as A→B, B→C and A→C (or any subset
    generating the same order) scores the same way as the gold chain: what counts is which memory is
    replaced by which later one, not which edge a judge happened to emit. Undefined values are ``None``
    (:func:`precision_recall_f1`); the counts are the closures' sizes (:func:`supersession_counts`).
    """
    return precision_recall_f1(transitive_closure(predicted), transitive_closure(gold))


def supersession_counts(predicted: Iterable[tuple[str, str]], gold: Iterable[tuple[str, str]]) -> dict[str, float]:
    """``n_supersession_predicted`` and ``n_supersession_gold``: the transitive closures' sizes (the
    denominators of precision and recall).
    """
    return {
        "n_supersession_predicted": float(len(transitive_closure(predicted))),
        "n_supersession_gold": float(len(transitive_closure(gold))),
    }


def latency_metrics(seconds: Iterable[Mapping[str, float]]) -> dict[str, float]:
    """``latency_<phase>_s`` summed over episodes for every phase any episode timed, and ``latency_total_s``.

    Args:
        seconds: Each episode's wall seconds per phase (``EpisodeOutcome.seconds``).
    """
    out: dict[str, float] = {}
    for per_phase in seconds:
        for phase, value in per_phase.items():
            key = f"latency_{phase}_s"
            out[key] = out.get(key, 0.0) + float(value)
    out["latency_total_s"] = float(sum(out.values()))
    return out


def mean(values: Iterable[float | None]) -> float | None:
    """Arithmetic mean of the defined values; ``None`` (undefined) when there are none."""
    vals = [v for v in values if v is not None]
    return sum(vals) / len(vals) if vals else None


def tier_fractions(tier_counts: Mapping[str, int]) -> dict[str, float]:
    """``tier_frac_<tier>`` for every tier (count ``n_memories``); empty (undefined) when there are no memories."""
    total = sum(tier_counts.get(t.value, 0) for t in TIER_ORDER)
    if not total:
        return {}
    return {f"tier_frac_{t.value}": tier_counts.get(t.value, 0) / total for t in TIER_ORDER}


#: Resampled item indices drawn at once (a bootstrap over many items is drawn in chunks: memory stays bounded).
CHUNK = 250_000


def chunk_rows(n_items: int, total: int) -> int:
    """How many resamples of ``n_items`` items to draw at once (at most ``total``, about :data:`CHUNK` indices)."""
    return max(1, min(total, CHUNK // max(1, n_items)))


def bootstrap_ci(
    values: Sequence[float],
    weights: Sequence[float] | None = None,
    *,
    resamples: int = 1000,
    alpha: float = 0.05,
    seed: int = 0,
) -> tuple[float, float] | None:
    """Percentile-bootstrap ``1 - alpha`` interval of ``sum(values) / sum(weights)`` over items (the mean when
    ``weights`` is ``None``); ``None`` (undefined) for no values, or when no resample has a positive weight.

    The one bootstrap of the package: benchmarks log its interval of a mean (``<metric>_ci_low`` / ``_ci_high``),
    reports draw it over per-item ``(value, weight)`` pairs (2,000 resamples there). Resamples are drawn in chunks
    (:func:`chunk_rows`) from one generator, which yields the same indices as one draw of all of them.
    """
    import numpy as np

    v = np.asarray(values, dtype=float)
    if v.size == 0:
        return None
    w = np.ones_like(v) if weights is None else np.asarray(weights, dtype=float)
    rng = np.random.default_rng(seed)
    stats: list[np.ndarray] = []
    done = 0
    while done < resamples:
        rows = chunk_rows(v.size, resamples - done)
        idx = rng.integers(0, v.size, size=(rows, v.size))
        den = w[idx].sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            stats.append(np.where(den > 0, v[idx].sum(axis=1) / np.where(den > 0, den, 1), np.nan))
        done += rows
    drawn = np.concatenate(stats)
    drawn = drawn[np.isfinite(drawn)]
    if drawn.size == 0:
        return None
    low, high = np.quantile(drawn, [alpha / 2, 1 - alpha / 2])
    return float(low), float(high)


def ci_metrics(name: str, values: Sequence[float], seed: int = 0) -> dict[str, float]:
    """``<name>_ci_low`` / ``<name>_ci_high`` of :func:`bootstrap_ci`; empty when ``values`` is."""
    interval = bootstrap_ci(values, seed=seed)
    return {} if interval is None else {f"{name}_ci_low": interval[0], f"{name}_ci_high": interval[1]}


#: Rate -> the names its count (denominator) is logged under, first logged wins (benchmarks differ).
COUNT_NAMES: Mapping[str, tuple[str, ...]] = {
    "supersession_precision": ("n_supersession_predicted",),
    "supersession_recall": ("n_supersession_gold",),
    "supersession_f1": ("n_supersession_gold",),
    "supersession_f1_macro": ("n_repos_with_gold",),
    "candidate_recall": ("n_gold_listed",),
    "merge_recall": ("n_gold_merge",),
    "current_truth_at_1": ("n_queries_current", "n_current_queries"),
    "current_coverage_injected": ("n_queries_current", "n_current_queries"),
    "as_of_acc": ("n_queries_as_of", "n_as_of_queries"),
    "when_acc": ("n_queries_when",),
    "history_acc": ("n_queries_history",),
    "stale_rate_top5": ("n_top5_items",),
    "stale_rate_injected": ("n_injected_facts",),
    "dup_collapsed_exact": ("n_dup_redundant_exact", "dup_redundant_exact"),
    "compression_ratio": ("n_retrievable",),
    "evidence_recall_at_budget": ("n_evidence_cat1_4", "n_scored"),
    "context_tokens": ("n_questions_cat1_4", "n_scored"),
    "temporal_date_acc": ("n_temporal",),
    "temporal_f1": ("n_temporal",),
    "temporal_date_acc_datelike": ("n_temporal_datelike",),
    "temporal_f1_datelike": ("n_temporal_datelike",),
    "cv_temporal_date_acc_datelike": ("cv_n_temporal_datelike",),
    "cv_temporal_date_acc": ("cv_n_temporal",),
    "cv_temporal_f1": ("cv_n_temporal",),
    "llm_f1": ("n_llm_answered_cat1_4",),
    "synth_date_acc": ("n_synth_temporal",),
    "resolver_acc": ("n_evaluated",),
    "resolver_coverage": ("n_evaluated",),
    "resolver_acc_supported": ("n_supported",),
    "reader_acc": ("n_reader",),
    "reader_answered": ("n_reader",),
}
#: ``(pattern, count template)`` for families of rates (per category, per relation, per kind ...).
COUNT_PATTERNS: tuple[tuple[str, str], ...] = (
    (r"relation_precision_(\w+)", r"n_relation_predicted_\1"),
    (r"relation_(?:recall|f1)_(\w+)", r"n_relation_gold_\1"),
    (r"(?:recall_at_\d+_(?:turn|session)|evidence_recall_at_budget)_cat(\d)", r"n_evidence_cat\1"),
    (r"recall_at_\d+_(?:turn|session)", "n_evidence_cat1_4"),
    (r"llm_f1_cat(\d)", r"n_llm_answered_cat\1"),
    (r"lme_recall(?:_all)?_at_\d+_session", "n_scored"),
    (r"lme_recall_at_\d+_session_(\w+)", r"n_scored_\1"),
    (r"synth_date_acc_(\w+)", r"n_synth_temporal_\1"),
    (r"resolver_acc_kind_(\w+)", r"n_kind_\1"),
    (r"reader_acc_(\w+)", r"n_reader_\1"),
    (r"resolver_acc_(\w+)", r"n_\1"),
    (r"tier_frac_\w+", "n_memories"),
    (r"cv_heldout_(.+)", r"cv_n_heldout_\1"),
)
#: Suffixes a rate's name may carry: its interval bounds, then the subset it was computed on.
INTERVAL_SUFFIXES = ("_ci_low", "_ci_high")
SUBSET_SUFFIXES = ("_incl_flagged", "_heldout", "_tune", "_dev", "_all")


def _count_candidates(stem: str) -> list[str]:
    if stem in COUNT_NAMES:
        return list(COUNT_NAMES[stem])
    import re

    for pattern, template in COUNT_PATTERNS:
        match = re.fullmatch(pattern, stem)
        if match:
            return [match.expand(template)]
    return []


def count_name(metric: str, logged: Collection[str]) -> str | None:
    """The name under which ``metric``'s count (its denominator, ``n_...``) is in ``logged``; ``None`` when the
    metric is not a rate or its count was not logged.

    Interval bounds share their rate's count; a subset suffix (``_heldout``, ``_tune``, ``_incl_flagged``,
    ``_dev``, ``_all``) and a ``repo.<name>.`` prefix carry over to the count.
    """
    prefix, name = "", metric
    if name.startswith("repo.") and name.count(".") >= 2:
        head, name = name.rsplit(".", 1)
        prefix = head + "."
    for subset in ("", *SUBSET_SUFFIXES):
        if subset and not name.endswith(subset):
            continue
        stem = name[: len(name) - len(subset)]
        for suffix in INTERVAL_SUFFIXES:
            stem = stem.removesuffix(suffix)
        for candidate in _count_candidates(stem):
            if f"{prefix}{candidate}{subset}" in logged:
                return f"{prefix}{candidate}{subset}"
    return None


def count_of(metric: str, logged: Mapping[str, float]) -> float | None:
    """The value of ``metric``'s count in ``logged`` (:func:`count_name`); ``None`` when there is none."""
    name = count_name(metric, logged)
    return None if name is None else float(logged[name])


def is_defined(value: float | None) -> bool:
    """A value a table shows: logged and not NaN (runs of older versions may have logged NaN)."""
    return value is not None and value == value
