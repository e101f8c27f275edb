"""The project-history report's figure: supersession F1 by difficulty, per judge and history size."""

from __future__ import annotations

from pathlib import Path

#: Order of the difficulty axis.
DIFFICULTY_ORDER = ("easy", "default", "hard")
#: Target of supersession_f1 drawn in the figure.
F1_TARGET = 0.95


class Summary(dict):
    """Mean supersession_f1 per (judge, difficulty, size); ``spread``: the sd over seeds of each."""

    def __init__(self) -> None:
        super().__init__()
        self.spread: dict[tuple, float] = {}


def plot_f1(summary: dict, path: Path) -> bool:
    """supersession_f1 by difficulty, one line per judge and size, error bars = sd over seeds."""
    if not summary:
        return False
    from memlab.observability.plots import pyplot
    from memlab.reports.common import save

    plt = pyplot()
    spread = getattr(summary, "spread", {})
    fig, ax = plt.subplots(figsize=(7, 4.2))
    keys = sorted({(k[0], k[2]) for k in summary})
    for i, (judge, size) in enumerate(keys):
        xs = [d for d in DIFFICULTY_ORDER if (judge, d, size) in summary]
        positions = [DIFFICULTY_ORDER.index(d) + (i - (len(keys) - 1) / 2) * 0.04 for d in xs]
        ax.errorbar(
            positions,
            [summary[(judge, d, size)] for d in xs],
            yerr=[spread.get((judge, d, size), 0.0) for d in xs],
            marker="o",
            capsize=3,
            clip_on=False,
            zorder=3,
            label=f"{judge} (n={size})",
        )
    ax.axhline(F1_TARGET, color="grey", linestyle=":", linewidth=1, label=f"target {F1_TARGET:.2f}")
    ax.set_xticks(range(len(DIFFICULTY_ORDER)), DIFFICULTY_ORDER)
    ax.set_xlabel("history difficulty")
    ax.set_ylabel("supersession F1 (mean over seeds; bars: sd)")
    ax.set_ylim(-0.05, 1.05)
    ax.set_title("Supersession F1 by judge and difficulty (generated histories)")
    ax.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.01, 0.5))
    fig.tight_layout()
    save(fig, path)
    return True
