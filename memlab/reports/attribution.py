"""Attribution of a difference between two configurations to the strategy groups that differ (pure).

Configuration A (the baseline) and B differ in a set of groups. A *coalition* ``S`` is A with B's choice for
every group in ``S`` (``frozenset()`` is A, all groups is B). From the metric of each coalition:

- **one at a time, both directions**: ``v({g}) - v({})`` (A with B's group ``g``) and ``v(all) - v(all - {g})``
  (B's gain that is lost without ``g``, i.e. B with A's ``g``, sign flipped);
- **Shapley values** (every coalition present): ``phi_g = sum_S |S|! (n-|S|-1)! / n! (v(S + g) - v(S))``; they sum
  to ``v(all) - v({})`` exactly, a group that never changes the metric gets 0, and two groups that change it alike
  get the same value.

Intervals are paired: each coalition's metric is a ratio of sums over the same items (``(value, weight)`` keyed
by item, or by seed), the bootstrap resamples items once for every coalition, so each resample yields a whole set
of Shapley values and their sum is that resample's total difference.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from memlab.benchmarks.stats import RESAMPLES, distinguishable
from memlab.core.errors import MemlabError

Coalition = frozenset[str]
Items = Mapping[object, tuple[float, float]]


def coalitions(groups: Sequence[str]) -> list[Coalition]:
    """Every subset of ``groups``, smallest first."""
    return [frozenset(c) for k in range(len(groups) + 1) for c in itertools.combinations(groups, k)]


def one_at_a_time(groups: Sequence[str]) -> list[Coalition]:
    """The coalitions the one-at-a-time swaps need: A, B, A with each ``g`` of B, B with each ``g`` of A."""
    everything = frozenset(groups)
    wanted = [frozenset(), everything, *(frozenset({g}) for g in groups), *(everything - {g} for g in groups)]
    return list(dict.fromkeys(wanted))


def shapley_weights(groups: Sequence[str], subsets: Sequence[Coalition]) -> np.ndarray:
    """Matrix ``W`` (groups x subsets) with ``phi = W @ v`` for the values ``v`` of ``subsets``."""
    index = {s: i for i, s in enumerate(subsets)}
    n = len(groups)
    weights = np.zeros((n, len(subsets)))
    for gi, g in enumerate(groups):
        others = [h for h in groups if h != g]
        for k in range(n):
            w = math.factorial(k) * math.factorial(n - k - 1) / math.factorial(n)
            for rest in itertools.combinations(others, k):
                s = frozenset(rest)
                if s not in index or s | {g} not in index:
                    raise MemlabError(f"Shapley values need every coalition; missing {sorted(s)} or {sorted(s | {g})}")
                weights[gi, index[s | {g}]] += w
                weights[gi, index[s]] -= w
    return weights


def shapley(values: Mapping[Coalition, float], groups: Sequence[str]) -> dict[str, float]:
    """Shapley value of each group from the metric of every coalition."""
    subsets = coalitions(groups)
    missing = [sorted(s) for s in subsets if s not in values]
    if missing:
        raise MemlabError(f"Shapley values need every coalition of {list(groups)}; missing {missing[:3]}")
    phi = shapley_weights(groups, subsets) @ np.array([values[s] for s in subsets], dtype=float)
    return {g: float(p) for g, p in zip(groups, phi, strict=True)}


@dataclass(frozen=True)
class Share:
    """One quantity of the attribution with its paired 95% bootstrap interval (``None``: undefined, one item)."""

    value: float
    ci: tuple[float, float] | None

    @property
    def distinguishable(self) -> bool:
        """Whether the interval excludes 0 (never, without one)."""
        return self.ci is not None and distinguishable(*self.ci)


@dataclass(frozen=True)
class Attribution:
    """Each group's effect on the metric, A -> B.

    Attributes:
        groups: The groups that differ.
        total: ``v(B) - v(A)`` on the shared items.
        add: Per group, A with B's group minus A.
        drop: Per group, B minus B with A's group.
        shapley: Per group, its Shapley value (empty when not every coalition was run).
        n_items: Items every coalition shares.
    """

    groups: tuple[str, ...]
    total: Share
    add: dict[str, Share]
    drop: dict[str, Share]
    shapley: dict[str, Share]
    n_items: int


def _ratios(table: np.ndarray, weights: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """Metric of every coalition (columns) on every resample (rows of ``idx``)."""
    num = table[idx].sum(axis=1)
    den = weights[idx].sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return num / den


def attribute(
    items: Mapping[Coalition, Items], groups: Sequence[str], *, resamples: int = RESAMPLES, seed: int = 0
) -> Attribution:
    """Attribution from each coalition's per-item ``(value, weight)`` (paired over the items all of them share)."""
    groups = tuple(groups)
    everything = frozenset(groups)
    if frozenset() not in items or everything not in items:
        raise MemlabError("attribution needs the runs of both configurations (the empty and the full coalition)")
    subsets = list(items)
    keys = sorted(set.intersection(*(set(items[s]) for s in subsets)), key=repr)
    if not keys:
        raise MemlabError("the coalitions' runs share no item; run them on the same benchmark and seeds")
    values = np.array([[items[s][k][0] for s in subsets] for k in keys], dtype=float)
    weights = np.array([[items[s][k][1] for s in subsets] for k in keys], dtype=float)
    rng = np.random.default_rng(seed)
    idx = np.vstack([np.arange(len(keys)), rng.integers(0, len(keys), size=(resamples, len(keys)))])
    v = _ratios(values, weights, idx)  # row 0: the observed items
    col = {s: i for i, s in enumerate(subsets)}

    def share(draws: np.ndarray) -> Share:
        if len(keys) < 2:  # one item (or seed): no interval to resample
            return Share(float(draws[0]), None)
        finite = draws[1:][np.isfinite(draws[1:])]
        bounds = np.percentile(finite, [2.5, 97.5]) if finite.size else ()
        value, *ci = (0.0 if abs(x) < 1e-12 else float(x) for x in (draws[0], *bounds))
        return Share(value, (ci[0], ci[1]) if ci else None)

    def diff(b: Coalition, a: Coalition) -> Share | None:
        return share(v[:, col[b]] - v[:, col[a]]) if a in col and b in col else None

    add = {g: s for g in groups if (s := diff(frozenset({g}), frozenset())) is not None}
    drop = {g: s for g in groups if (s := diff(everything, everything - {g})) is not None}
    phi: dict[str, Share] = {}
    if all(s in col for s in coalitions(groups)):
        full = coalitions(groups)
        draws = v[:, [col[s] for s in full]] @ shapley_weights(groups, full).T
        phi = {g: share(draws[:, i]) for i, g in enumerate(groups)}
    total = diff(everything, frozenset())
    assert total is not None
    return Attribution(groups, total, add, drop, phi, len(keys))
