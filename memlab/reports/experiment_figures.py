"""The figures of ``memlab report --experiment``: every one with a title, axis labels, a legend and, where
the number has an interval, error bars.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from memlab.observability.plots import TIER_COLOURS, pyplot
from memlab.reports import configs as cf
from memlab.reports.common import save
from memlab.reports.configs import BUDGET, PHASES, TIERS, mean_metric


def colour(i: int, n: int) -> Any:
    """The ``i``-th of ``n`` distinct colours (tab10 up to 10, tab20 beyond)."""
    from matplotlib import colormaps

    return colormaps["tab10" if n <= 10 else "tab20"](i % (10 if n <= 10 else 20))


def _size(rows: Sequence[Any]) -> tuple[float, float]:
    """Figure size for horizontal bars labelled by configuration: room for the longest label."""
    longest = max((len(r.label) for r in rows), default=10)
    return 5.5 + 0.075 * longest, 1.6 + 0.42 * len(rows)


def _err(rows: Sequence[Any]) -> list[list[float]]:
    """Asymmetric error bars from each row's CI (zero where there is none)."""
    lo = [max(0.0, r.value - r.ci[0]) if r.ci else 0.0 for r in rows]
    hi = [max(0.0, r.ci[1] - r.value) if r.ci else 0.0 for r in rows]
    return [lo, hi]


def main_figure(experiment: str, metric: str, rows: Sequence[Any], baseline: Any, path: Path) -> Path:
    """Horizontal bars: the main metric per configuration with 95% CI error bars; the baseline marked."""
    plt = pyplot()
    from matplotlib.patches import Patch

    fig, ax = plt.subplots(figsize=_size(rows), layout="constrained")
    ys = list(range(len(rows)))
    colours = ["#7f7f7f" if r is baseline else "#1f77b4" for r in rows]
    values = [0.0 if math.isnan(r.value) else r.value for r in rows]
    ax.barh(ys, values, xerr=_err(rows), color=colours, capsize=3, ecolor="black")
    ax.set_yticks(ys, [r.label for r in rows], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel(f"{metric} (error bars: 95% bootstrap CI over items)")
    ax.set_ylabel("configuration")
    ax.set_title(f"{experiment}: {metric} by configuration")
    handles = [Patch(color="#1f77b4", label="configuration")]
    if baseline is not None:
        handles.append(Patch(color="#7f7f7f", label="baseline"))
    ax.legend(handles=handles, fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return save(fig, path)


def tier_figure(experiment: str, rows: Sequence[Any], path: Path) -> Path | None:
    """Stacked bars: fraction of memories per tier at the end of the runs, per configuration."""
    fractions = {t: [mean_metric(r.runs, f"tier_frac_{t}") or 0.0 for r in rows] for t in TIERS}
    if not any(v for values in fractions.values() for v in values):
        return None
    plt = pyplot()
    fig, ax = plt.subplots(figsize=_size(rows), layout="constrained")
    ys = list(range(len(rows)))
    left = [0.0] * len(rows)
    for tier in TIERS:
        ax.barh(ys, fractions[tier], left=left, color=TIER_COLOURS[tier], label=tier)
        left = [a + b for a, b in zip(left, fractions[tier], strict=True)]
    ax.set_yticks(ys, [r.label for r in rows], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("fraction of memories (mean over runs)")
    ax.set_ylabel("configuration")
    ax.set_title(f"{experiment}: tier distribution at the end of the run")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), title="tier")
    return save(fig, path)


def latency_figure(experiment: str, rows: Sequence[Any], path: Path) -> Path | None:
    """Left: seconds per phase per configuration (mean, error bars: sd over runs). Right: per-call durations
    of each phase from the span trees (all configurations).
    """
    phases = [p for p in PHASES if any(f"latency_{p}_s" in r.record.metrics for row in rows for r in row.runs)]
    hists = cf.phase_histograms([r for row in rows for r in row.runs], PHASES)
    if not phases and not hists:
        return None
    plt = pyplot()
    import numpy as np

    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 5.0 + 0.22 * ((len(rows) + 1) // 2)))
    width = 0.8 / max(1, len(rows))
    for i, row in enumerate(rows):
        means, sds = [], []
        for p in phases:
            values = [r.record.metrics[f"latency_{p}_s"] for r in row.runs if f"latency_{p}_s" in r.record.metrics]
            means.append(float(np.mean(values)) if values else 0.0)
            sds.append(float(np.std(values, ddof=1)) if len(values) > 1 else 0.0)
        xs = [j + i * width for j in range(len(phases))]
        left.bar(xs, means, width, yerr=sds, capsize=2, label=row.label, color=colour(i, len(rows)))
    left.set_xticks([j + 0.4 - width / 2 for j in range(len(phases))], phases, rotation=35, ha="right", fontsize=8)
    left.set_ylabel("wall seconds per run")
    left.set_xlabel("phase")
    left.set_title("time per phase (error bars: sd over runs)")
    # below the bars, two columns: a legend of a 12-configuration sweep reads at the size the report shows it
    left.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.32), ncol=2, frameon=False)
    for phase, hist in sorted(hists.items()):
        bins = sorted(hist)
        centres = [10 ** ((b + 0.5) / 4) / 1e3 for b in bins]  # ms
        right.step(centres, [hist[b] for b in bins], where="mid", label=phase)
    right.set_xscale("log")
    right.set_xlabel("duration of one call (ms, log scale)")
    right.set_ylabel("calls")
    right.set_title("per-call durations (span trees, all runs)")
    if hists:
        right.legend(fontsize=8)
    fig.suptitle(f"{experiment}: latency per phase")
    fig.tight_layout()
    return save(fig, path)


def budget_figure(experiment: str, metric: str, rows: Sequence[Any], path: Path) -> Path | None:
    """Main metric against ``pipeline.budget_tokens``, one line per configuration otherwise equal."""
    series: dict[str, list[tuple[float, Any]]] = {}
    for row in rows:
        parts = row.label.split()
        budget = [p for p in parts if p.startswith(BUDGET + "=")]
        if not budget:
            return None
        rest = " ".join(p for p in parts if not p.startswith(BUDGET + "=")) or "all runs"
        series.setdefault(rest, []).append((float(budget[0].split("=", 1)[1]), row))
    if max(len(v) for v in series.values()) < 2:
        return None
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(9, 4.5), layout="constrained")
    budgets = sorted({b for points in series.values() for b, _ in points})
    for i, (name, points) in enumerate(sorted(series.items())):
        points.sort(key=lambda p: p[0])
        dodge = 1 + 0.025 * (i - (len(series) - 1) / 2)  # side by side, so equal values stay visible
        ax.errorbar(
            [p[0] * dodge for p in points],
            [p[1].value for p in points],
            yerr=_err([p[1] for p in points]),
            marker="os^Dv<>p*h"[i % 10],
            capsize=3,
            color=colour(i, len(series)),
            label=name,
        )
    ax.set_xscale("log")
    ax.set_xticks(budgets, [str(int(b)) for b in budgets])
    ax.minorticks_off()
    ax.set_xlabel("token budget of the selected context (pipeline.budget_tokens, log scale)")
    ax.set_ylabel(f"{metric} (95% CI)")
    ax.set_title(f"{experiment}: {metric} against the token budget")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return save(fig, path)


def draw_all(experiment: str, metric: str, rows: Sequence[Any], baseline: Any, paths: Mapping[str, Path]) -> dict:
    """Every figure that has data: name -> path."""
    out = {"main": main_figure(experiment, metric, rows, baseline, paths["main"])}
    for name, path in (
        ("tiers", tier_figure(experiment, rows, paths["tiers"])),
        ("latency", latency_figure(experiment, rows, paths["latency"])),
        ("budget", budget_figure(experiment, metric, rows, paths["budget"])),
    ):
        if path is not None:
            out[name] = path
    return out
