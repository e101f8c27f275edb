"""PNG figures for run artifacts and reports (matplotlib, Agg backend)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from memlab.core.types import TIER_ORDER

TIER_COLOURS = {"hot": "#d62728", "warm": "#ff7f0e", "cold": "#1f77b4", "archived": "#7f7f7f"}


def pyplot() -> Any:
    """matplotlib.pyplot on the Agg backend (figures are files; no display is needed)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def tier_distribution_png(tier_counts: Mapping[str, int], path: Path, title: str = "Tier distribution") -> Path:
    """Bar chart of memories per tier."""
    plt = pyplot()
    names = [t.value for t in TIER_ORDER]
    values = [int(tier_counts.get(n, 0)) for n in names]
    fig, ax = plt.subplots(figsize=(5, 3), dpi=100)
    bars = ax.bar(names, values, color=[TIER_COLOURS[n] for n in names])
    ax.bar_label(bars)
    ax.set_ylabel("memories")
    ax.set_title(title)
    fig.tight_layout()
    return save_png(fig, path)


def save_png(fig: Any, path: Path) -> Path:
    """Write ``fig`` to ``path`` as a PNG (no software version in its metadata) and close it."""
    fig.savefig(path, metadata={"Software": None})
    pyplot().close(fig)
    return path


def comparison_png(
    names: Sequence[str],
    values: Sequence[float | None],
    intervals: Sequence[tuple[float, float] | None],
    metric: str,
    path: Path,
    title: str = "Sweep comparison",
) -> Path:
    """Save :func:`comparison_figure` as a PNG at ``path``."""
    return save_png(comparison_figure(names, values, intervals, metric, title), path)


def comparison_figure(
    names: Sequence[str],
    values: Sequence[float | None],
    intervals: Sequence[tuple[float, float] | None],
    metric: str,
    title: str = "Sweep comparison",
):
    """Horizontal bars of one metric per run (best at the top), 95% intervals as error bars where a run has one.

    Runs without a value are listed with "not logged" instead of a bar (an undefined metric is not drawn as 0).
    """
    plt = pyplot()
    order = sorted(range(len(names)), key=lambda i: (values[i] is None, -(values[i] or 0.0), names[i]))
    fig, ax = plt.subplots(figsize=(8, 1.2 + 0.45 * len(order)), dpi=100)
    ys = list(range(len(order)))[::-1]
    for y, i in zip(ys, order, strict=True):
        value, interval = values[i], intervals[i]
        if value is None:
            ax.text(0, y, " not logged", va="center", fontsize=9, color="#7f7f7f")
            continue
        err = None
        if interval is not None:
            err = [[max(0.0, value - interval[0])], [max(0.0, interval[1] - value)]]
        ax.barh(y, value, color="#1f77b4", xerr=err, capsize=4, error_kw={"ecolor": "#333333"})
        ax.text(value, y, f" {value:.3f}", va="bottom", fontsize=9)
    ax.set_yticks(ys, [names[i] for i in order], fontsize=9)
    ax.set_xlabel(metric + (" (bars: 95% interval)" if any(intervals) else ""))
    ax.set_ylabel("run")
    ax.set_title(f"{title} — {metric}, best first")
    upper = max([v for v in values if v is not None] + [hi for iv in intervals if iv for hi in iv[1:]] + [1e-9])
    ax.set_xlim(0, upper * 1.15)
    fig.tight_layout()
    return fig
