"""Pooled figures over repositories: rates of summed counts, macro F1, bootstrap intervals over repositories.

Each repository contributes counts (:data:`COUNTS`); a pooled rate is the ratio of the summed counts (micro),
so a repository with many links weighs more than one with few. A rate whose denominator is zero is
undefined and absent from the result (never 0.0 or 1.0):

* ``supersession_precision`` = TP / (TP + FP), ``supersession_recall`` = TP / (TP + FN),
  ``supersession_f1`` = 2 TP / (2 TP + FP + FN), over SUPERSEDE pairs with both sides closed transitively
  per repository (:func:`memlab.benchmarks.metrics.supersession_scores`);
* ``candidate_recall``: listed gold pairs (SUPERSEDE and MERGE) the judge was shown / listed gold pairs;
* ``merge_recall``: gold MERGE pairs (amendments) stored as MERGE edges / gold MERGE pairs;
* ``stale_rate_injected``: facts in the SessionStart blocks superseded by then / facts in the blocks;
* ``current_truth_at_1``, ``current_coverage_injected``, ``as_of_acc``: correct (covered) / queries.

``supersession_f1_macro`` is the mean of the per-repository F1 over repositories with gold SUPERSEDE pairs.
Intervals: 95% percentile bootstrap over repositories (resampled with replacement, the pooled rate
recomputed from the resample's summed counts; resamples where the rate is undefined are left out), logged
as ``<metric>_ci_low`` / ``<metric>_ci_high`` like the other benchmarks' intervals.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from memlab.benchmarks import pooled as pool

#: The counts a repository contributes (all present, possibly 0).
COUNTS: tuple[str, ...] = (
    "sup_tp",
    "sup_fp",
    "sup_fn",
    "n_gold_supersede",
    "n_gold_merge",
    "n_gold_candidates",
    "n_gold_merge_found",
    "n_injected_facts",
    "n_stale_injected",
    "n_current_queries",
    "n_current_correct",
    "n_current_covered",
    "n_as_of_queries",
    "n_as_of_correct",
    "n_gold_stated",
    "n_gold_stated_found",
)
#: Rate -> (numerator terms, denominator terms); numerator terms may carry a factor.
RATES: Mapping[str, tuple[tuple[tuple[float, str], ...], tuple[tuple[float, str], ...]]] = {
    "supersession_precision": (((1, "sup_tp"),), ((1, "sup_tp"), (1, "sup_fp"))),
    "supersession_recall": (((1, "sup_tp"),), ((1, "sup_tp"), (1, "sup_fn"))),
    "supersession_f1": (((2, "sup_tp"),), ((2, "sup_tp"), (1, "sup_fp"), (1, "sup_fn"))),
    "candidate_recall": (((1, "n_gold_candidates"),), ((1, "n_gold_supersede"), (1, "n_gold_merge"))),
    "merge_recall": (((1, "n_gold_merge_found"),), ((1, "n_gold_merge"),)),
    "stale_rate_injected": (((1, "n_stale_injected"),), ((1, "n_injected_facts"),)),
    "current_truth_at_1": (((1, "n_current_correct"),), ((1, "n_current_queries"),)),
    "current_coverage_injected": (((1, "n_current_covered"),), ((1, "n_current_queries"),)),
    "as_of_acc": (((1, "n_as_of_correct"),), ((1, "n_as_of_queries"),)),
    # gold SUPERSEDE links the newer record states (the data's direction), and the judge's recall of those
    "stated_share": (((1, "n_gold_stated"),), ((1, "n_gold_supersede"),)),
    "stated_recall": (((1, "n_gold_stated_found"),), ((1, "n_gold_stated"),)),
}
#: Rate -> the name of its count (the denominator) among :func:`rate_counts` and the summed counts.
RATE_COUNTS: Mapping[str, str] = {
    "supersession_precision": "n_supersession_predicted",
    "supersession_recall": "n_supersession_gold",
    "supersession_f1": "n_supersession_gold",
    "candidate_recall": "n_gold_listed",
    "merge_recall": "n_gold_merge",
    "stale_rate_injected": "n_injected_facts",
    "current_truth_at_1": "n_current_queries",
    "current_coverage_injected": "n_current_queries",
    "as_of_acc": "n_as_of_queries",
    "stated_share": "n_gold_supersede",
    "stated_recall": "n_gold_stated",
}
#: Rates that get bootstrap intervals over repositories.
CI_RATES: tuple[str, ...] = (
    "supersession_f1",
    "supersession_precision",
    "supersession_recall",
    "candidate_recall",
    "stale_rate_injected",
    "current_truth_at_1",
)


def rates(counts: Mapping[str, float]) -> dict[str, float]:
    """Every rate of :data:`RATES` that ``counts`` defines (denominator > 0)."""
    return pool.rates(counts, RATES)


def rate_counts(counts: Mapping[str, float]) -> dict[str, float]:
    """The denominators of :data:`RATES` by name (:data:`RATE_COUNTS`), from one repository's (or summed) counts."""
    c = {name: float(counts.get(name, 0.0)) for name in COUNTS}
    derived = {
        "n_supersession_predicted": c["sup_tp"] + c["sup_fp"],
        "n_supersession_gold": c["sup_tp"] + c["sup_fn"],
        "n_gold_listed": c["n_gold_supersede"] + c["n_gold_merge"],
    }
    return {name: derived.get(name, c.get(name, 0.0)) for name in dict.fromkeys(RATE_COUNTS.values())}


def summed(counts: Sequence[Mapping[str, float]]) -> dict[str, float]:
    """The counts summed over repositories."""
    return pool.summed(counts, COUNTS)


def macro_f1(counts: Sequence[Mapping[str, float]]) -> float | None:
    """Mean per-repository ``supersession_f1`` over repositories with gold SUPERSEDE pairs (``None``: none)."""
    values = [rates(c)["supersession_f1"] for c in counts if c.get("n_gold_supersede", 0) > 0]
    return sum(values) / len(values) if values else None


def bootstrap(
    counts: Sequence[Mapping[str, float]], names: Sequence[str] = CI_RATES, *, n_boot: int = 1000, seed: int = 0
) -> dict[str, float]:
    """``<rate>_ci_low`` / ``<rate>_ci_high``: 95% percentile bootstrap of the pooled rate over repositories."""
    return pool.bootstrap(counts, RATES, names, n_boot=n_boot, seed=seed)


def pooled_metrics(counts: Sequence[Mapping[str, float]], seed: int = 0) -> dict[str, float]:
    """Pooled rates, macro F1, bootstrap intervals and the summed counts (``n_`` names) of ``counts``."""
    total = summed(counts)
    out = rates(total)
    macro = macro_f1(counts)
    if macro is not None:
        out["supersession_f1_macro"] = macro
    out.update(bootstrap(counts, seed=seed))
    out.update({name: value for name, value in total.items() if name.startswith("n_")})
    out.update({f"n_supersession_{kind}": total[f"sup_{kind}"] for kind in ("tp", "fp", "fn")})
    out.update(rate_counts(total))
    out["n_repos"] = float(len(counts))
    out["n_repos_with_gold"] = float(sum(1 for c in counts if c.get("n_gold_supersede", 0) > 0))
    return out
