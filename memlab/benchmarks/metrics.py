"""Pure metric functions. Edge cases are pinned in tests: empty gold, empty prediction, ties by id.

Conventions: a ratio with an empty denominator is defined where the answer is unambiguous (nothing to
find and nothing found → 1.0) and otherwise 0.0; each function documents its choice.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

from memlab.data.relations import transitive_closure
from memlab.types import TIER_ORDER


def precision_recall_f1(predicted: Collection, gold: Collection) -> tuple[float, float, float]:
    """Set precision, recall and F1.

    Empty gold and empty prediction → (1, 1, 1); empty prediction with gold → precision 1, recall 0,
    F1 0; prediction with empty gold → (0, 1, 0).
    """
    pred, ref = set(predicted), set(gold)
    if not pred and not ref:
        return 1.0, 1.0, 1.0
    hit = len(pred & ref)
    precision = hit / len(pred) if pred else 1.0
    recall = hit / len(ref) if ref else 1.0
    f1 = 0.0 if hit == 0 else 2 * precision * recall / (precision + recall)
    return precision, recall, f1


def supersession_scores(
    predicted: Iterable[tuple[str, str]], gold: Iterable[tuple[str, str]]
) -> tuple[float, float, float]:
    """Precision/recall/F1 of ``(older, newer)`` SUPERSEDE pairs, compared as transitive closures.

    Both sides are closed transitively, so a chain A→B→C predicted as A→B, B→C and A→C (or any subset
    generating the same order) scores the same way as the gold chain: what counts is which memory is
    replaced by which later one, not which edge a judge happened to emit.
    """
    return precision_recall_f1(transitive_closure(predicted), transitive_closure(gold))


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


def hit_at_1(ranked: Sequence[str], relevant: Collection[str]) -> float:
    """1.0 if the first ranked id is relevant, else 0.0 (empty ranking → 0.0)."""
    return 1.0 if ranked and ranked[0] in set(relevant) else 0.0


def mean(values: Iterable[float]) -> float:
    """Arithmetic mean; 0.0 for no values."""
    vals = list(values)
    return sum(vals) / len(vals) if vals else 0.0


def tier_fractions(tier_counts: Mapping[str, int]) -> dict[str, float]:
    """``tier_frac_<tier>`` for every tier; all 0.0 when there are no memories."""
    total = sum(tier_counts.get(t.value, 0) for t in TIER_ORDER)
    return {f"tier_frac_{t.value}": (tier_counts.get(t.value, 0) / total if total else 0.0) for t in TIER_ORDER}


def bootstrap_ci(
    values: Sequence[float], *, n_boot: int = 1000, alpha: float = 0.05, seed: int = 0
) -> tuple[float, float]:
    """Percentile bootstrap confidence interval of the mean; ``(0, 0)`` for no values."""
    if not values:
        return 0.0, 0.0
    import numpy as np

    rng = np.random.default_rng(seed)
    arr = np.asarray(values, dtype=float)
    means = arr[rng.integers(0, len(arr), size=(n_boot, len(arr)))].mean(axis=1)
    return float(np.quantile(means, alpha / 2)), float(np.quantile(means, 1 - alpha / 2))
