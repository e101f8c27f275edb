"""Rates of summed counts over groups (repositories), with percentile bootstrap intervals over the groups.

A benchmark whose items fall in groups (a repository's pairs, checkpoints, records) gives each group a dict of
counts; a pooled rate is a ratio of summed counts (micro), so a group with many items weighs more. A rate is a
table entry ``name -> (numerator terms, denominator terms)``, each term ``(factor, count name)``. A rate whose
denominator is zero is undefined and absent (never 0.0 or 1.0). Intervals: 95% percentile bootstrap over the
groups (resampled with replacement, the rate recomputed from the resample's summed counts; resamples where it
is undefined are left out), logged as ``<rate>_ci_low`` / ``<rate>_ci_high``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

Terms = tuple[tuple[float, str], ...]
RateTable = Mapping[str, tuple[Terms, Terms]]


def _names(table: RateTable) -> list[str]:
    return sorted({name for num, den in table.values() for _, name in (*num, *den)})


def _value(values: np.ndarray, index: Mapping[str, int], terms: Terms) -> np.ndarray:
    return sum(factor * values[..., index[name]] for factor, name in terms)


def rates(counts: Mapping[str, float], table: RateTable) -> dict[str, float]:
    """Every rate of ``table`` that ``counts`` defines (denominator > 0)."""
    out: dict[str, float] = {}
    for name, (num, den) in table.items():
        denominator = sum(factor * float(counts.get(c, 0.0)) for factor, c in den)
        if denominator > 0:
            out[name] = sum(factor * float(counts.get(c, 0.0)) for factor, c in num) / denominator
    return out


def summed(counts: Sequence[Mapping[str, float]], names: Sequence[str] | None = None) -> dict[str, float]:
    """The counts summed over groups (``names``: these counts, present as 0 when no group has them)."""
    keys = list(names) if names is not None else sorted({k for c in counts for k in c})
    return {name: float(sum(c.get(name, 0.0) for c in counts)) for name in keys}


def bootstrap(
    counts: Sequence[Mapping[str, float]],
    table: RateTable,
    names: Sequence[str] | None = None,
    *,
    n_boot: int = 1000,
    seed: int = 0,
) -> dict[str, float]:
    """``<rate>_ci_low`` / ``<rate>_ci_high`` of the rates ``names`` (default: all of ``table``)."""
    if not counts:
        return {}
    columns = _names(table)
    index = {name: k for k, name in enumerate(columns)}
    matrix = np.array([[float(c.get(name, 0.0)) for name in columns] for c in counts], dtype=float)
    rng = np.random.default_rng(seed)
    sums = matrix[rng.integers(0, len(matrix), size=(n_boot, len(matrix)))].sum(axis=1)
    out: dict[str, float] = {}
    for name in names if names is not None else list(table):
        num, den = table[name]
        denominator = _value(sums, index, den)
        defined = denominator > 0
        if not defined.any():
            continue
        values = _value(sums, index, num)[defined] / denominator[defined]
        out[f"{name}_ci_low"] = float(np.quantile(values, 0.025))
        out[f"{name}_ci_high"] = float(np.quantile(values, 0.975))
    return out
