"""PNG figures for run artifacts and reports (matplotlib, Agg backend)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from memlab.types import TIER_ORDER

TIER_COLOURS = {"hot": "#d62728", "warm": "#ff7f0e", "cold": "#1f77b4", "archived": "#7f7f7f"}


def tier_distribution_png(tier_counts: Mapping[str, int], path: Path, title: str = "Tier distribution") -> Path:
    """Bar chart of memories per tier."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [t.value for t in TIER_ORDER]
    values = [int(tier_counts.get(n, 0)) for n in names]
    fig, ax = plt.subplots(figsize=(5, 3), dpi=100)
    bars = ax.bar(names, values, color=[TIER_COLOURS[n] for n in names])
    ax.bar_label(bars)
    ax.set_ylabel("memories")
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path, metadata={"Software": None})
    plt.close(fig)
    return path
