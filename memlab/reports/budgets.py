r"""``memlab report budgets``: policies compared at matched injected budgets, from MLflow.

A comparison of policies is fair only at equal injected budgets. The sweep that produces the runs sets the same
grid of budgets (``pipeline.budget_tokens``, default 250, 500, 1000, 2000 tokens) for every policy::

    python -m memlab --multirun \\
        +experiment=seed_git_notes_memory_nollm,squidbot_nollm,astra_nollm,mycelic_nollm,tuned \\
        pipeline.budget_tokens=250,500,1000,2000 dataset=builtin_history
    memlab report budgets

Per benchmark (``memlab.dataset``), policy (the second of the run's ``tags``) and budget, the newest run per seed;
one table per budget: each policy's main metric (95% bootstrap interval), the tokens the reader read
(``context_tokens``, the mean per question; ``injected_tokens`` where a benchmark has no reader) and the block's, and
the baseline's (``tuned``) paired difference against it, distinguishable when its interval excludes 0; a figure of
the metric against the reader's tokens with the Pareto front (no other point has at most its tokens and a higher
metric), and fronts against LLM dollars and latency where runs logged them. Intervals resample the questions, seeds
pooled; without per-item values, the seeds (:mod:`memlab.benchmarks.stats`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from memlab.benchmarks import stats
from memlab.benchmarks.metrics import bootstrap_ci
from memlab.observability.plots import pyplot
from memlab.reports import configs as cf
from memlab.reports.common import save

EXPERIMENT = "presets"
BASELINE = "tuned"
#: Metrics of what a run put in front of the reader, first present wins.
COST: tuple[str, ...] = ("context_tokens", "injected_tokens")
#: Other costs a front is drawn against where runs logged them: metric -> its name in the report.
OTHER_COSTS: dict[str, str] = {"llm_cost_usd": "LLM dollars", "llm_latency_p50_ms": "LLM latency p50 (ms)"}
#: Policy names in the order tables list them (others after, sorted).
ORDER = ("seed_git_notes_memory_nollm", "mycelic_nollm", "squidbot_nollm", "astra_nollm", "tuned")


def policy_of(run: Any) -> str:
    """The preset a run used (``tags: [preset, <name>]``), or ``?``."""
    names = [t for t in run.tags.get("memlab.tags", "").split(",") if t and t != "preset"]
    return names[0] if names else "?"


def benchmark_of(run: Any) -> str:
    """The benchmark's name (``memlab.dataset`` = ``name@version``)."""
    return run.tags.get("memlab.dataset", "?").split("@")[0]


def budget_of(run: Any) -> int | None:
    """The run's ``pipeline.budget_tokens`` (``None`` when it did not log one)."""
    value = run.params.get(cf.BUDGET)
    try:
        return int(float(value)) if value is not None else None
    except ValueError:
        return None


def ordered(names: Sequence[str]) -> list[str]:
    """Policy names in :data:`ORDER`, the rest sorted."""
    return [n for n in ORDER if n in names] + sorted(set(names) - set(ORDER))


def units(runs: Sequence[cf.RunData], metric: str) -> dict[object, tuple[float, float]]:
    """Per-item ``(value, weight)`` keyed ``(seed, item)``, else per-seed values keyed by seed."""
    return cf.pooled_items(runs) or {
        (r.seed,): (r.record.metrics[metric], 1.0) for r in runs if metric in r.record.metrics
    }


@dataclass
class Point:
    """One policy at one budget on one benchmark."""

    policy: str
    budget: int | None
    runs: list[cf.RunData]
    units: dict[object, tuple[float, float]] = field(default_factory=dict)
    value: float = math.nan
    ci: tuple[float, float] | None = None
    tokens: float | None = None
    block: float | None = None
    costs: dict[str, float] = field(default_factory=dict)

    @property
    def per_item(self) -> bool:
        """Whether the interval resamples items (not seeds)."""
        return bool(cf.pooled_items(self.runs))


def point(policy: str, budget: int | None, runs: Sequence[cf.RunData], metric: str) -> Point:
    """The policy's metric at the budget with its interval and its measured tokens."""
    p = Point(policy, budget, list(runs), units(runs, metric))
    if p.units:
        v = np.array([x for x, _ in p.units.values()])
        w = np.array([y for _, y in p.units.values()])
        p.value = stats.ratio(v, w)
        p.ci = bootstrap_ci(v, w, resamples=stats.RESAMPLES)
    cost = next((c for c in COST if any(c in r.record.metrics for r in runs)), None)
    p.tokens = cf.mean_metric(runs, cost) if cost else None
    p.block = cf.mean_metric(runs, "injected_tokens")
    p.costs = {c: v for c in OTHER_COSTS if (v := cf.mean_metric(runs, c)) is not None}
    return p


def points(runs: Sequence[cf.RunData], metric: str) -> dict[int | None, dict[str, Point]]:
    """Budget -> policy -> point (newest run per seed)."""
    cells: dict[tuple[int | None, str], list[cf.RunData]] = {}
    for r in runs:
        cells.setdefault((budget_of(r.record), policy_of(r.record)), []).append(r)
    out: dict[int | None, dict[str, Point]] = {}
    for (budget, policy), group in cells.items():
        ids = {r.run_id for r in cf.newest_per_seed([g.record for g in group])}
        chosen = [g for g in group if g.record.run_id in ids]
        out.setdefault(budget, {})[policy] = point(policy, budget, chosen, metric)
    return {b: out[b] for b in sorted(out, key=lambda b: (b is None, b or 0))}


def pareto_front(xy: Sequence[tuple[float, float]]) -> list[int]:
    """Indices of the points no other point dominates (at most its tokens, at least its metric, one strictly)."""
    front = []
    for i, (x, y) in enumerate(xy):
        dominated = any((x2 <= x and y2 >= y) and (x2 < x or y2 > y) for j, (x2, y2) in enumerate(xy) if j != i)
        if not dominated:
            front.append(i)
    return sorted(front, key=lambda i: xy[i])


def cell(value: float | None, ci: tuple[float, float] | None = None, sign: str = "") -> str:
    """``0.512 [0.480, 0.550]`` (``–`` when undefined; the value alone when its interval is)."""
    if value is None or math.isnan(value):
        return "–"
    if ci is None:
        return f"{value:{sign}.3f}"
    return f"{value:{sign}.3f} [{ci[0]:{sign}.3f}, {ci[1]:{sign}.3f}]"


def table(by_policy: Mapping[str, Point], metric: str, baseline: str = BASELINE) -> list[str]:
    """One budget's table: metric with interval, measured tokens, baseline − policy paired, distinguishable."""
    base = by_policy.get(baseline)
    lines = [
        f"| policy | {metric} (95% CI) | reader tokens | block tokens | {baseline} − policy (95% CI) | p (paired) "
        "| distinguishable |",
        "|---|---|---|---|---|---|---|",
    ]
    for name in ordered(list(by_policy)):
        p = by_policy[name]
        diff, p_value, dist = "–", "–", "–"
        if base is not None and p is not base:
            res = stats.paired_test(p.units, base.units)
            if res is not None:
                unit = "" if p.per_item and base.per_item else f" ({res.n} seeds)"
                diff = cell(res.diff, (res.ci_low, res.ci_high), "+") + unit
                p_value, dist = f"{res.p_value:.4f}", "yes" if stats.distinguishable(res.ci_low, res.ci_high) else "no"
        tokens, block = ("–" if v is None else f"{v:.0f}" for v in (p.tokens, p.block))
        lines.append(f"| `{name}` | {cell(p.value, p.ci)} | {tokens} | {block} | {diff} | {p_value} | {dist} |")
    return lines


def tables(grid: Mapping[int | None, Mapping[str, Point]], metric: str, baseline: str = BASELINE) -> list[str]:
    """Every budget's table under a ``### budget N tokens`` heading."""
    lines: list[str] = []
    by_seed = [p for by in grid.values() for p in by.values() if p.units and not p.per_item]
    if by_seed:
        n = max(len(p.units) for p in by_seed)
        lines += [
            f"Paired over seeds ({n} at most; the metric has no per-item values): with n seeds the sign-flip test "
            "cannot go below p = 2^(1-n), and the seed bootstrap's interval is narrow for small n — read "
            "*distinguishable* with the p-value.",
            "",
        ]
    for budget, by_policy in grid.items():
        lines += [f"### budget {budget if budget is not None else '(not logged)'} tokens", ""]
        lines += [*table(by_policy, metric, baseline), ""]
    return lines


def front_of(grid: Mapping[int | None, Mapping[str, Point]], cost: str | None = None) -> list[Point]:
    """The Pareto front over every policy and budget that has a value and the cost (``None``: reader tokens)."""
    pts = [(p, p.tokens if cost is None else p.costs.get(cost)) for by in grid.values() for p in by.values()]
    pts = [(p, x) for p, x in pts if x is not None and not math.isnan(p.value)]
    return [pts[i][0] for i in pareto_front([(x, p.value) for p, x in pts])]  # type: ignore[misc]


def figure(grids: Mapping[str, Mapping[int | None, Mapping[str, Point]]], metrics: Mapping[str, str], path: Path):
    """One panel per benchmark: metric against measured tokens, a curve per policy, and the Pareto front.

    A policy has one colour in every panel; one legend under the panels (one inside a panel covered its points).
    """
    plt = pyplot()
    cols = min(3, max(1, len(grids)))
    rows = math.ceil(len(grids) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(5.5 * cols, 4.6 * rows + 0.6), squeeze=False)
    for spare in axes.flat[len(grids) :]:
        spare.set_visible(False)
    every = ordered(list({n for grid in grids.values() for by in grid.values() for n in by}))
    colours = {name: f"C{i % 10}" for i, name in enumerate(every)}
    handles: dict[str, Any] = {}
    for ax, (bench, grid) in zip(axes.flat, grids.items(), strict=False):
        names = ordered(list({n for by in grid.values() for n in by}))
        for name in names:
            pts = sorted((by[name] for by in grid.values() if name in by and by[name].tokens is not None),
                         key=lambda p: p.tokens)  # fmt: skip
            if not pts:
                continue
            x = [p.tokens for p in pts]
            y = [p.value for p in pts]
            err = [[max(0.0, p.value - p.ci[0]) if p.ci else 0.0 for p in pts],
                   [max(0.0, p.ci[1] - p.value) if p.ci else 0.0 for p in pts]]  # fmt: skip
            label = name.replace("_nollm", "")
            handles[label] = ax.errorbar(x, y, yerr=err, marker="o", capsize=3, color=colours[name], label=label)
        front = front_of(grid)
        if front:
            (line,) = ax.step([p.tokens for p in front], [p.value for p in front], where="post", color="black",
                              ls="--", lw=1, label="Pareto front")  # fmt: skip
            handles["Pareto front"] = line
        ax.set_xscale("log")
        ax.set_xlabel("tokens the reader read (" + " or ".join(COST) + ")")
        ax.set_ylabel(metrics[bench])
        ax.set_title(bench)
    fig.suptitle("main metric against the reader's tokens (budgets 250-2000; 95% bootstrap intervals)")
    fig.legend(list(handles.values()), list(handles), loc="lower center", ncol=min(6, max(1, len(handles))))
    fig.tight_layout(rect=(0, 0.08 / rows, 1, 1))
    return save(fig, path)


def grids_by_benchmark(
    runs: Sequence[Any], uri: str | None, metric: str | None = None, per_benchmark: Mapping[str, str] | None = None
) -> tuple[dict[str, dict[int | None, dict[str, Point]]], dict[str, str]]:
    """Benchmark -> budget -> policy -> point, and each benchmark's metric.

    The metric is ``metric``, else the benchmark's entry in ``per_benchmark``, else its runs' declared main metric.
    """
    benches: dict[str, list[Any]] = {}
    for run in runs:
        benches.setdefault(benchmark_of(run), []).append(run)
    grids, metrics = {}, {}
    for bench in sorted(benches):
        chosen = metric or (per_benchmark or {}).get(bench)
        metrics[bench] = chosen or benches[bench][0].tags.get("memlab.main_metric", "")
        grids[bench] = points(cf.load(benches[bench], metrics[bench], uri), metrics[bench])
    return grids, metrics


def front_lines(grid: Mapping[int | None, Mapping[str, Point]]) -> list[str]:
    """The Pareto fronts in words: against the reader's tokens, and against LLM dollars and latency where logged."""
    front = front_of(grid)
    if not front:
        return ["Pareto front: no point has measured tokens.", ""]
    text = ", ".join(f"`{p.policy}`@{p.budget} ({p.tokens:.0f} tokens, {p.value:.3f})" for p in front)
    out = [f"Pareto front (tokens the reader read, metric): {text}."]
    for cost, name in OTHER_COSTS.items():
        text = ", ".join(f"`{p.policy}`@{p.budget} ({p.costs[cost]:.4g}, {p.value:.3f})" for p in front_of(grid, cost))
        out += [f"Pareto front ({name}, metric): {text}."] if text else []
    if len(out) == 1:
        out.append("No run here logged LLM dollars or latency (no language model answered): no front against them.")
    return [" ".join(out), ""]


def main(argv: Sequence[str] | None = None) -> int:
    """Write ``reports/budgets.md`` and ``reports/budgets.png``."""
    from memlab.reports import common

    parser = common.report_parser("budgets", __doc__)
    parser.add_argument("--experiment", default=EXPERIMENT, help="MLflow experiment (default: presets)")
    parser.add_argument("--metric", default=None, help="metric (default: each benchmark's main metric)")
    parser.add_argument("--baseline", default=BASELINE, help="policy the paired differences are against")
    args = parser.parse_args(list(argv or []))
    runs = common.finished_runs(args.experiment, args.uri)
    common.require_runs(runs, [args.experiment], args.uri)
    png = args.out.with_suffix(".png")
    common.check_output([args.out, png], args.force)
    grids, metrics = grids_by_benchmark(runs, args.uri, args.metric)
    lines = [f"# Policies at matched budgets (`{args.experiment}`)", "", *__doc__.split("\n\n", 1)[1].splitlines(), ""]
    for bench, grid in grids.items():
        lines += [f"## {bench}", "", *front_lines(grid), *tables(grid, metrics[bench], args.baseline)]
    with common.kept_on_error([png]):
        lines += [f"![main metric against measured tokens]({figure(grids, metrics, png).name})", ""]
        common.write_report(args.out, "\n".join(lines), [r.run_id for r in runs], partial=args.partial, uri=args.uri)
    print(f"wrote {args.out}")
    return 0
