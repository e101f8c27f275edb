"""Pure statistics for comparing runs: paired tests over per-item results (the interval of one configuration is
:func:`memlab.benchmarks.metrics.bootstrap_ci`).

A metric over items is a ratio of sums, ``sum(value) / sum(weight)`` (an accuracy has weight 1 per item,
a precision counts only the items that are supported). Resampling draws items with replacement; the
paired test flips, item by item, which of two configurations an item's result belongs to.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from memlab.benchmarks.metrics import chunk_rows

#: Resamples per bootstrap interval and per permutation test of a comparison (drawn in chunks: memory stays bounded).
RESAMPLES = 2000
PERMUTATIONS = 10000


def ratio(values: np.ndarray, weights: np.ndarray) -> float:
    """``sum(values) / sum(weights)`` (NaN when the weights sum to 0)."""
    total = float(np.sum(weights))
    return float(np.sum(values)) / total if total else float("nan")


@dataclass(frozen=True)
class PairedResult:
    """Configuration B against baseline A on the items both have.

    Attributes:
        n: Items in common.
        a: Baseline's metric on those items.
        b: The other configuration's metric on those items.
        diff: ``b - a``.
        ci_low: 2.5th percentile of the paired bootstrap of ``diff``.
        ci_high: 97.5th percentile.
        p_value: Two-sided p of the paired permutation (sign-flip) test of ``diff = 0``.
    """

    n: int
    a: float
    b: float
    diff: float
    ci_low: float
    ci_high: float
    p_value: float


def paired_test(
    a: Mapping[object, tuple[float, float]],
    b: Mapping[object, tuple[float, float]],
    *,
    permutations: int = PERMUTATIONS,
    resamples: int = RESAMPLES,
    seed: int = 0,
) -> PairedResult | None:
    """Paired comparison of two configurations' per-item ``(value, weight)`` keyed by item.

    Returns ``None`` when no item is shared, or when no resample has a positive weight on both sides (the interval
    is undefined, never NaN). The p-value counts permutations at least as extreme as the
    observed difference, ``(1 + k) / (1 + permutations)`` (never 0).
    """
    keys = sorted(set(a) & set(b), key=repr)
    if not keys:
        return None
    va, wa = (np.array([a[k][i] for k in keys], dtype=float) for i in (0, 1))
    vb, wb = (np.array([b[k][i] for k in keys], dtype=float) for i in (0, 1))
    ra, rb = ratio(va, wa), ratio(vb, wb)
    observed = rb - ra
    rng = np.random.default_rng(seed)
    n = len(keys)
    extreme = 0
    done = 0
    while done < permutations:
        rows = chunk_rows(n, permutations - done)
        swap = rng.random((rows, n)) < 0.5
        with np.errstate(invalid="ignore", divide="ignore"):
            sa = np.where(swap, vb, va).sum(1) / np.where(swap, wb, wa).sum(1)
            sb = np.where(swap, va, vb).sum(1) / np.where(swap, wa, wb).sum(1)
            extreme += int(np.sum(np.abs(sb - sa) >= abs(observed) - 1e-12))
        done += rows
    diffs: list[np.ndarray] = []
    done = 0
    while done < resamples:
        rows = chunk_rows(n, resamples - done)
        idx = rng.integers(0, n, size=(rows, n))
        with np.errstate(invalid="ignore", divide="ignore"):
            diffs.append(vb[idx].sum(1) / wb[idx].sum(1) - va[idx].sum(1) / wa[idx].sum(1))
        done += rows
    d = np.concatenate(diffs)
    d = d[np.isfinite(d)]
    if not d.size:
        return None
    lo, hi = (float(x) for x in np.percentile(d, [2.5, 97.5]))
    return PairedResult(n, ra, rb, observed, lo, hi, (1 + extreme) / (1 + permutations))


def distinguishable(low: float, high: float, tolerance: float = 1e-9) -> bool:
    """Whether a difference's interval ``[low, high]`` excludes 0 (bounds within ``tolerance`` of 0 count as 0)."""
    return low > tolerance or high < -tolerance


def histogram_quantile(hist: Mapping[int, int], q: float, bins_per_decade: int = 4) -> float:
    """Approximate ``q``-quantile in seconds of a log-binned duration histogram (bin midpoint, geometric)."""
    total = sum(hist.values())
    if total == 0:
        return float("nan")
    target = q * total
    seen = 0
    for b in sorted(hist):
        seen += hist[b]
        if seen >= target:
            return 10 ** ((b + 0.5) / bins_per_decade) / 1e6
    return 10 ** ((max(hist) + 0.5) / bins_per_decade) / 1e6
