"""The resolver × retrieval sweep of ``memlab report locomo``: its table and its figure with 95% intervals.

Each bar of the figure is a run's logged date accuracy on date-like gold (the dev file, and its held-out
conversations) with a 95% percentile-bootstrap interval over the run's questions: the items of its
``predictions.jsonl`` (:func:`memlab.benchmarks.items.item_values`, which keeps them only when they reproduce the
logged metric) resampled by :func:`memlab.benchmarks.metrics.bootstrap_ci`. A bar whose run has no such items has
no interval: it is drawn hatched and the caption names it and says why (no interval is ever made up).
"""

from __future__ import annotations

import ast
import math
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memlab.benchmarks.items import Record, item_values
from memlab.tracking.query import RunRecord

METRIC = "temporal_date_acc_datelike"
HELDOUT = METRIC + "_heldout"
#: Why a bar has no interval.
NO_ARTIFACT = "the run has no predictions.jsonl"
NO_HELDOUT = "the run does not record its held-out conversations"
NOT_REPRODUCED = "its items do not reproduce the logged metric"
#: The two bars per run: metric, legend label, colour.
SERIES = ((METRIC, "dev file (all conversations)", "#1f77b4"), (HELDOUT, "held-out conversations", "#ff7f0e"))


@dataclass(frozen=True)
class Bar:
    """One bar: a logged rate and its interval over the run's items.

    Attributes:
        value: The logged metric (a fraction); ``None`` when the run did not log it (no bar).
        ci: 95% percentile-bootstrap interval over the items; ``None`` when there are no items.
        n: Items resampled (0 without an interval).
        missing: Why there is no interval (``None`` when there is one or there is no bar).
    """

    value: float | None
    ci: tuple[float, float] | None = None
    n: int = 0
    missing: str | None = None


def pct(value: float | None) -> str:
    """A fraction as a percentage for a table (``–`` when undefined)."""
    return "–" if value is None else f"{100 * value:.1f}"


def sweep_lines(cells: Mapping[tuple[str, str], RunRecord]) -> list[str]:
    """The sweep's markdown table, one row per (resolver, retrieval mode) run (empty without runs)."""
    if not cells:
        return []
    out = [
        "",
        "## Sweep: resolver × retrieval mode (experiment settings otherwise)",
        "",
        "| resolver | retrieval | recall@10 turn | date acc. date-like | date acc. date-like held-out "
        "| date acc. all | F1 |",
        "|---|---|---|---|---|---|---|",
    ]
    for (res, mode), r in sorted(cells.items()):
        rm = r.metrics
        out.append(
            f"| {res} | {mode} | {pct(rm.get('recall_at_10_turn'))} | {pct(rm.get(METRIC))} | "
            f"{pct(rm.get(HELDOUT))} | {pct(rm.get('temporal_date_acc'))} | {pct(rm.get('temporal_f1'))} |"
        )
    return out


def heldout_conversations(run: RunRecord) -> list[str] | None:
    """The conversation ids the run reported apart as ``_heldout`` (its ``dataset.heldout`` param), if recorded."""
    raw = run.params.get("dataset.heldout")
    try:
        value = ast.literal_eval(raw) if raw else None
    except (ValueError, SyntaxError):
        return None
    return [str(c) for c in value] if isinstance(value, list | tuple) and value else None


def bar(run: RunRecord, metric: str, records: Sequence[Record] | None, seed: int = 0) -> Bar:
    """The run's ``metric`` (:data:`METRIC` or :data:`HELDOUT`) with its interval over ``records``' items.

    Questions flagged by the errata are left out, as the logged metric leaves them out; ``records=None`` means
    the run has no ``predictions.jsonl``.
    """
    from memlab.benchmarks.metrics import bootstrap_ci
    from memlab.benchmarks.stats import RESAMPLES

    logged = run.metrics.get(metric)
    if logged is None or math.isnan(logged):
        return Bar(None)
    if records is None:
        return Bar(logged, missing=NO_ARTIFACT)
    kept = [r for r in records if not r.get("flagged")]
    if metric.endswith("_heldout"):
        held = heldout_conversations(run)
        if held is None:
            return Bar(logged, missing=NO_HELDOUT)
        kept = [r for r in kept if r.get("conversation") in held]
    items = item_values(kept, metric.removesuffix("_heldout"), logged)
    if not items:
        return Bar(logged, missing=NOT_REPRODUCED)
    values, weights = zip(*items.values(), strict=True)
    return Bar(logged, bootstrap_ci(values, weights, resamples=RESAMPLES, seed=seed), len(items))


def read_bars(sweep: Sequence[RunRecord], uri: str | None) -> list[tuple[Bar, Bar]]:
    """Per run, its dev-file and held-out bars, from its ``predictions.jsonl`` artifact (read from MLflow)."""
    from memlab.tracking.query import run_records
    from memlab.tracking.status import step

    out = []
    with tempfile.TemporaryDirectory(prefix="memlab-report-") as tmp, step(f"reading {len(sweep)} runs' items"):
        for run in sweep:
            records = run_records(run.run_id, uri, Path(tmp))
            out.append((bar(run, METRIC, records), bar(run, HELDOUT, records)))
    return out


def caption(labels: Sequence[str], bars: Sequence[tuple[Bar, Bar]]) -> str:
    """The figure's markdown caption: what the error bars are and which bars have none, and why."""
    text = (
        "Bars: each run's logged date accuracy on date-like gold (%). Error bars: 95% percentile bootstrap over "
        "the run's date-like temporal questions (its `predictions.jsonl`, 2000 resamples)."
    )
    gaps = [
        f"{label}, {name.split(' (')[0]} ({b.missing})"
        for label, pair in zip(labels, bars, strict=True)
        for b, (_, name, _) in zip(pair, SERIES, strict=True)
        if b.missing
    ]
    return text + (" No interval (hatched bars): " + "; ".join(gaps) + "." if gaps else " Every bar has one.")


def draw(labels: Sequence[str], bars: Sequence[tuple[Bar, Bar]]) -> Any:
    """The figure: two bars per run (dev file, held-out), error bars only where the run has items."""
    from matplotlib.patches import Patch

    from memlab.observability.plots import pyplot

    plt = pyplot()
    fig, ax = plt.subplots(figsize=(max(8.0, 1.1 * len(labels) + 3.0), 5.2), layout="constrained")
    handles = []
    for i, (_, name, colour) in enumerate(SERIES):
        column = [pair[i] for pair in bars]
        xs = [x + (i - 0.5) * 0.4 for x in range(len(labels))]
        heights = [math.nan if b.value is None else 100 * b.value for b in column]
        patches = ax.bar(xs, heights, 0.4, color=colour, edgecolor="black", linewidth=0)
        for patch, b in zip(patches, column, strict=True):
            if b.missing:
                patch.set_hatch("//")
        handles.append(Patch(color=colour, label=name))
        shown = [(x, b) for x, b in zip(xs, column, strict=True) if b.ci is not None and b.value is not None]
        if shown:
            low = [max(0.0, 100 * (b.value - b.ci[0])) for _, b in shown]
            high = [max(0.0, 100 * (b.ci[1] - b.value)) for _, b in shown]
            ys = [100 * b.value for _, b in shown]
            ax.errorbar([x for x, _ in shown], ys, yerr=[low, high], fmt="none", ecolor="black", capsize=4)
    if any(pair[i].ci is not None for pair in bars for i in (0, 1)):
        from matplotlib.lines import Line2D

        interval = Line2D([], [], color="black", marker="|", markersize=14, linestyle="none")
        interval.set_label("95% bootstrap interval")
        handles.append(interval)
    if any(b.missing for pair in bars for b in pair):
        handles.append(Patch(facecolor="white", edgecolor="black", hatch="//", label="no interval (see caption)"))
    handles.append(ax.axhline(60, color="grey", linestyle="--", linewidth=1, label="target 60%"))
    ax.set_xticks(range(len(labels)), labels, fontsize=10, rotation=20, ha="right", rotation_mode="anchor")
    ax.tick_params(axis="y", labelsize=10)
    ax.set_ylim(0, 100)
    ax.set_xlabel("temporal resolver / retriever", fontsize=11)
    ax.set_ylabel("date accuracy, date-like gold (%)", fontsize=11)
    ax.set_title("LoCoMo temporal date accuracy per resolver and retriever (95% bootstrap intervals)", fontsize=12)
    fig.legend(handles=handles, loc="outside lower center", ncol=3, fontsize=10, frameon=False)
    return fig


def plot(labels: Sequence[str], bars: Sequence[tuple[Bar, Bar]], path: Path) -> str:
    """Draw and save the figure to ``path``; returns its caption."""
    from memlab.reports.common import save

    save(draw(labels, bars), path)
    return caption(labels, bars)
