"""``memlab report --experiment NAME``: any experiment's configurations, compared, from MLflow.

Writes ``reports/NAME.md`` and PNG figures beside it: one row per configuration (see
:mod:`memlab.reports.configs`) with the main metric and its 95% bootstrap interval over the per-item
results in ``predictions.jsonl`` (all seeds pooled), the paired difference from a named baseline with a
paired permutation test, the tier distribution, time per phase (totals from the run metrics, call
durations from each run's span tree) and, when runs differ in ``pipeline.budget_tokens``, the main metric
against the token budget.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from memlab.benchmarks.metrics import bootstrap_ci
from memlab.benchmarks.stats import (
    RESAMPLES,
    PairedResult,
    distinguishable,
    histogram_quantile,
    paired_test,
    ratio,
)
from memlab.core.errors import MemlabError
from memlab.core.paths import PROJECT_ROOT
from memlab.reports import configs as cf
from memlab.reports.common import table
from memlab.reports.configs import PHASES, mean_metric
from memlab.reports.llm_costs import llm_table

#: Phases whose latency the report shows (metric ``latency_<phase>_s``, span ``<phase>``).


@dataclass
class Row:
    """One configuration's line of the table."""

    label: str
    runs: list[cf.RunData]
    value: float
    ci: tuple[float, float] | None
    n_items: int
    sd: float | None
    paired: PairedResult | None = None

    @property
    def seeds(self) -> str:
        """Seeds of the runs, comma-separated."""
        return ",".join(r.seed for r in self.runs)


def summarize(label: str, runs: list[cf.RunData], metric: str) -> Row:
    """Main metric of a configuration: pooled per-item value with a bootstrap CI, else the mean over runs."""
    items = cf.pooled_items(runs)
    values = [r.record.metrics[metric] for r in runs if metric in r.record.metrics]
    sd = statistics.stdev(values) if len(values) > 1 else None
    if items:
        v = [vw[0] for vw in items.values()]
        w = [vw[1] for vw in items.values()]
        import numpy as np

        return Row(
            label, runs, ratio(np.array(v), np.array(w)), bootstrap_ci(v, w, resamples=RESAMPLES), len(items), sd
        )
    return Row(label, runs, statistics.fmean(values) if values else math.nan, None, 0, sd)


def find_baseline(rows: Sequence[Row], wanted: str | None) -> Row | None:
    """The row whose label contains every ``key=value`` of ``wanted`` (one-line error when none or several)."""
    if not wanted:
        return None
    parts = wanted.replace(",", " ").split()
    matches = [r for r in rows if all(p in r.label.split() for p in parts)]
    if len(matches) != 1:
        labels = "; ".join(sorted(r.label for r in rows))
        what = "no configuration" if not matches else f"{len(matches)} configurations"
        raise MemlabError(f"--baseline '{wanted}' matches {what}; configurations: {labels}")
    return matches[0]


def fmt(value: float | None, digits: int = 3) -> str:
    """A number for a table cell (``–`` for missing)."""
    return "–" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:.{digits}f}"


def main_table(rows: Sequence[Row], metric: str, baseline: Row | None) -> list[str]:
    """The per-configuration table in markdown."""
    head = f"| configuration | seeds | items | {metric} | 95% CI | sd across seeds |"
    rule = "|---|---|---|---|---|---|"
    if baseline is not None:
        head += " Δ vs baseline | 95% CI of Δ | p (paired) | distinguishable |"
        rule += "---|---|---|---|"
    lines = [head, rule]
    for row in rows:
        ci = f"[{fmt(row.ci[0])}, {fmt(row.ci[1])}]" if row.ci else "no per-item values"
        name = f"**{row.label}** (baseline)" if row is baseline else row.label
        cells = [name, row.seeds, str(row.n_items or "–"), fmt(row.value), ci, fmt(row.sd)]
        if baseline is not None:
            p = row.paired
            if row is baseline:
                cells += ["–", "–", "–", "–"]
            elif p is None:
                cells += ["no shared items", "–", "–", "–"]
            else:
                dist = "yes" if distinguishable(p.ci_low, p.ci_high) else "no"
                cells += [f"{p.diff:+.3f}", f"[{p.ci_low:+.3f}, {p.ci_high:+.3f}]", f"{p.p_value:.4f}", dist]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def latency_table(rows: Sequence[Row]) -> list[str]:
    """Seconds per phase (mean over runs of the run totals) and per-call p50/p95 from the span trees."""
    phases = [p for p in PHASES if any(mean_metric(r.runs, f"latency_{p}_s") is not None for r in rows)]
    spans = [p for p in PHASES if any(cf.phase_histograms(r.runs, [p]) for r in rows)]
    lines = []
    if phases:
        lines += [
            "Wall seconds per phase, mean over a configuration's runs (this shared machine; compare within one "
            "report only):",
            "",
        ]
        lines += table(
            ["configuration", *phases],
            [[r.label, *(fmt(mean_metric(r.runs, f"latency_{p}_s")) for p in phases)] for r in rows],
        )
    if spans:
        lines += [
            "",
            "Per call (span tree of each run, `trace.json`): median and 95th percentile in milliseconds, calls.",
            "",
        ]

        def cell(h: dict[int, int] | None) -> str:
            q = (f"{1e3 * histogram_quantile(h, x):.2g}" for x in (0.5, 0.95)) if h else ()
            return f"{' / '.join(q)} ({sum(h.values())})" if h else "–"

        hists = [(r.label, cf.phase_histograms(r.runs, spans)) for r in rows]
        lines += table(["configuration", *spans], [[label, *(cell(h.get(p)) for p in spans)] for label, h in hists])
    return lines


def build(runs: Sequence[cf.RunData], metric: str, baseline_label: str | None) -> tuple[list[Row], Row | None]:
    """Rows (one per configuration) in the one ranking order (:func:`memlab.tracking.query.rank_key`; the
    configuration's newest run breaks a tie) and the baseline, with paired tests filled in.
    """
    from memlab.tracking.query import rank_key

    records = [r.record for r in runs]
    keys = cf.varying(records)
    by_id = {r.record.run_id: r for r in runs}
    rows = []
    for label, group in cf.group_runs(records, keys).items():
        chosen = [by_id[r.run_id] for r in cf.newest_per_seed(group)]
        rows.append(summarize(label, chosen, metric))
    firsts = [r.runs[0].record for r in rows]
    order = sorted(
        range(len(rows)), key=lambda i: rank_key(rows[i].value, firsts[i].run_id, firsts[i].tags, firsts[i].metrics)
    )
    rows = [rows[i] for i in order]
    baseline = find_baseline(rows, baseline_label)
    if baseline is not None:
        base_items = cf.pooled_items(baseline.runs)
        for row in rows:
            if row is not baseline and base_items:
                row.paired = paired_test(base_items, cf.pooled_items(row.runs))
    return rows, baseline


def render(experiment: str, uri: str, metric: str, rows: Sequence[Row], baseline: Row | None, figures: dict) -> str:
    """The report's markdown."""
    from memlab.reports.common import shown_uri

    n_runs = sum(len(r.runs) for r in rows)
    command = f"memlab report --experiment {experiment}"
    if baseline is not None:
        command += f" --baseline '{baseline.label}'"
    out = [
        f"# Experiment `{experiment}`: configurations compared",
        "",
        f"Generated by `{command}` from {n_runs} FINISHED runs in `{shown_uri(uri)}` "
        "(newest run per configuration and seed). Do not edit by hand.",
        "",
        f"Main metric: `{metric}` (the benchmark card's). A configuration is what differs between runs apart "
        "from the seed. **95% CI**: percentile bootstrap (2,000 resamples) over the per-item results in each "
        "run's `predictions.jsonl`, seeds pooled; where the items do not reproduce the logged metric (a pair-level "
        "F1, say) the table says so and only the spread across seeds is shown.",
    ]
    if baseline is not None:
        out += [
            "",
            f"**Paired comparison** with the baseline `{baseline.label}` on the items both have (same seed and item):"
            " Δ = configuration − baseline, its paired-bootstrap 95% CI, the two-sided p-value of a paired "
            "permutation test (10,000 sign flips; not corrected for the number of configurations), and whether Δ is "
            "distinguishable from 0 (its 95% CI excludes 0).",
        ]
    out += ["", "## Configurations", "", *main_table(rows, metric, baseline), ""]
    costs = llm_table(rows)
    if costs:
        out += ["## Language-model calls", "", *costs, ""]
    titles = {
        "main": "main metric",
        "tiers": "tier distribution",
        "latency": "latency per phase",
        "budget": "main metric against token budget",
    }
    for key, name in titles.items():
        path = figures.get(key)
        if key == "latency" and (path or latency_table(rows)):
            out += ["## Latency per phase", "", *latency_table(rows), ""]
        if key == "tiers" and path:
            out += ["## Tier distribution", "", "Fraction of memories per tier at the end of each run (mean).", ""]
        if key == "budget" and path:
            out += ["## Main metric against the token budget (`pipeline.budget_tokens`)", ""]
        if path:
            out += [f"![{name}]({Path(path).name})", ""]
    out += ["Run ids: " + ", ".join(f"`{r.record.run_id[:8]}`" for row in rows for r in row.runs), ""]
    return "\n".join(out)


def write(
    experiment: str,
    *,
    uri: str | None = None,
    metric: str | None = None,
    baseline: str | None = None,
    out: str | Path | None = None,
    force: bool = False,
    partial: bool = False,
) -> int:
    """Write ``reports/NAME.md`` (or ``out``) and its figures from the experiment's FINISHED runs.

    Args:
        experiment: MLflow experiment name.
        uri: MLflow tracking URI (default: the project's store).
        metric: Metric (default: the runs' declared main metric).
        baseline: Baseline configuration for the paired tests, e.g. ``judge=none``.
        out: Markdown file; the figures are written beside it.
        force: Overwrite an existing report.
        partial: With ``force``, write it even when runs of the existing report are missing (marked partial).
    """
    from memlab.reports import common
    from memlab.reports.experiment_figures import draw_all
    from memlab.tracking.query import main_metric, resolve_uri
    from memlab.tracking.status import step

    runs = common.finished_runs(experiment, uri)
    common.require_runs(runs, [experiment], uri)
    metric = metric or main_metric(runs)
    out = Path(out) if out else PROJECT_ROOT / "reports" / f"{experiment}.md"
    names = {k: out.with_name(f"{out.stem}_{k}.png") for k in ("main", "tiers", "latency", "budget")}
    common.check_output([out, *names.values()], force)
    rows, chosen = build(cf.load(runs, metric, uri), metric, baseline)
    with common.kept_on_error(list(names.values())):
        with step("drawing the figures"):
            figures = draw_all(experiment, metric, rows, chosen, names)
        text = render(experiment, resolve_uri(uri), metric, rows, chosen, figures)
        common.write_report(out, text, [r.run_id for r in runs], partial=partial, uri=uri)
    print(f"wrote {out} ({len(rows)} configurations, {len(runs)} runs; figures: {', '.join(figures) or 'none'})")
    return 0
