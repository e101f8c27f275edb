"""A sweep's comparison as text: the Markdown table attached to the parent run and the console table.

The console table keeps every configuration readable at any width (80 columns, a pipe, a CI log): runs are
numbered (``#1`` is the best), the table holds the numbers and the metrics, and a legend under it gives each
number's full configuration, wrapped rather than cut. A metric a run did not log (undefined there) shows ``–``;
a rate shows its count beside it (``(n=...)``, the Markdown table for every metric, the console for the main one).
Given paired comparisons against ``#1`` (:mod:`memlab.sweeps.paired`), both tables say each job's difference from
the best and whether it is distinguishable (its paired 95% interval excludes 0).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from memlab.benchmarks.metrics import count_of
from memlab.benchmarks.stats import PairedResult, distinguishable

#: Console width when the output is not a terminal (pipes, CI logs); ``$COLUMNS`` overrides it.
PIPE_WIDTH = 100


def ranked(rows: list[Any]) -> list[Any]:
    """Best main metric first (ties: run id), unscored runs (no value, or NaN) last."""

    def key(c: Any) -> tuple[bool, float, str]:
        undefined = c.value is None or c.value != c.value
        return undefined, 0.0 if undefined else -c.value, c.run_id

    return sorted(rows, key=key)


def fmt(value: float | None, n: float | None = None) -> str:
    """A metric value for a table (``–`` when the run did not log it or logged NaN), with its count ``n``."""
    if value is None or value != value:
        return "–"
    return f"{value:.4f}" if n is None else f"{value:.4f} (n={n:.0f})"


def count(row: Any, name: str) -> float | None:
    """The run's count of metric ``name``, its denominator ``n`` (``None`` when it logged none)."""
    return count_of(name, dict(row.metrics))


def fmt_n(n: float | None) -> str:
    """A count for a table (``–`` when there is none)."""
    return "–" if n is None else f"{n:.0f}"


def vs_best(run_id: str, paired: Mapping[str, PairedResult] | None, interval: bool = True) -> tuple[str, str]:
    """``(difference from #1 [CI], distinguishable)`` cells (``–`` when there is no paired comparison)."""
    res = (paired or {}).get(run_id)
    if res is None:
        return "–", "–"
    diff = f"{res.diff:+.4f}" + (f" [{res.ci_low:+.4f}, {res.ci_high:+.4f}]" if interval else "")
    return diff, "yes" if distinguishable(res.ci_low, res.ci_high) else "no"


def headline_names(rows: list[Any]) -> list[str]:
    """The headline metrics any run logged, in first-seen order."""
    return list(dict.fromkeys(n for c in rows for n, _ in c.headline))


def comparison_table(rows: list[Any], paired: Mapping[str, PairedResult] | None = None) -> str:
    """Markdown table of a sweep's jobs, best main metric first (ties: run id), unscored jobs last; with
    ``paired``, each job's paired difference from ``#1`` (95% CI) and whether it is distinguishable.
    """
    ordered = ranked(rows)
    extra = headline_names(ordered)
    vs = "− #1 (95% CI) | distinguishable | " if paired is not None else ""
    head = "| rank | run | main metric | value | " + vs + "".join(f"{n} | " for n in extra) + "status | run id |"
    lines = [head, "|" + "---|" * (6 + len(extra) + (2 if paired is not None else 0))]
    for rank, c in enumerate(ordered, 1):
        values = dict(c.headline)
        cells = "".join(f"{fmt(values.get(n), count(c, n))} | " for n in extra)
        main = fmt(c.value, count(c, c.main_metric))
        if paired is not None:
            main += " | " + " | ".join(vs_best(c.run_id, paired))
        lines.append(f"| {rank} | {c.name} | {c.main_metric} | {main} | {cells}{c.status} | `{c.run_id}` |")
    return "\n".join(lines) + "\n"


def render_comparison(rows: list[Any], width: int, paired: Mapping[str, PairedResult] | None = None) -> str:
    """The console comparison at ``width`` columns: a few runs side by side (one column each, metrics as rows),
    more runs one row each (with the first 8 characters of the run id); then the legend of run numbers (the
    configuration, and the status when it is not FINISHED).
    """
    from rich.console import Console
    from rich.table import Table

    ordered = ranked(rows)
    metric = next((c.main_metric for c in ordered if c.main_metric), "main metric")
    extra = headline_names(ordered)
    console = Console(width=width, record=True, file=open(os.devnull, "w"), color_system=None)  # noqa: SIM115
    if 0 < len(ordered) <= 6:
        table = Table(title=f"sweep comparison (main metric: {metric})")
        table.add_column("metric", overflow="fold")
        for rank in range(1, len(ordered) + 1):
            table.add_column(f"#{rank}", justify="right", no_wrap=True)
        table.add_row(metric, *(fmt(c.value) for c in ordered))
        if paired:
            table.add_row("− #1", *(vs_best(c.run_id, paired, False)[0] for c in ordered))
            table.add_row("distinguishable", *(vs_best(c.run_id, paired)[1] for c in ordered))
        if any(count(c, metric) is not None for c in ordered):
            table.add_row(f"n ({metric})", *(fmt_n(count(c, metric)) for c in ordered))
        for name in extra:
            table.add_row(name, *(fmt(dict(c.headline).get(name)) for c in ordered))
        table.add_row("run", *(c.run_id[:8] for c in ordered))
    else:
        table = Table(title=f"sweep comparison ({metric}, best first)")
        table.add_column("#", justify="right", no_wrap=True)
        with_n = any(count(c, metric) is not None for c in ordered)
        vs = ["− #1", "dist."] if paired else []
        for name in (metric, *(["n"] if with_n else []), *vs, *extra):
            table.add_column(name, justify="right", overflow="fold")
        table.add_column("run", no_wrap=True)
        for rank, c in enumerate(ordered, 1):
            values = dict(c.headline)
            n = [fmt_n(count(c, metric))] if with_n else []
            d = list(vs_best(c.run_id, paired, False)) if paired else []
            table.add_row(str(rank), fmt(c.value), *n, *d, *(fmt(values.get(name)) for name in extra), c.run_id[:8])
    console.print(table)
    for rank, c in enumerate(ordered, 1):
        status = "" if c.status == "FINISHED" else f" [{c.status}]"
        console.print(f"#{rank}  {c.name or c.run_id}{status}", highlight=False, markup=False)
    text = console.export_text()
    console.file.close()
    return text


def console_width() -> int:
    """The terminal's width, else ``$COLUMNS``, else :data:`PIPE_WIDTH`."""
    import shutil
    import sys

    if sys.stdout.isatty():
        return shutil.get_terminal_size((PIPE_WIDTH, 24)).columns
    try:
        return int(os.environ.get("COLUMNS", PIPE_WIDTH))
    except ValueError:
        return PIPE_WIDTH


def verdict(rows: list[Any], paired: Mapping[str, PairedResult] | None) -> str | None:
    """One line saying whether the comparison can choose: whether ``#1`` is distinguishable from ``#2`` (their
    paired 95% interval excludes 0), on how many items; ``None`` when there is no paired comparison of the two.
    """
    ordered = [c for c in ranked(rows) if c.value is not None and c.value == c.value]
    if len(ordered) < 2:
        return None
    res = (paired or {}).get(ordered[1].run_id)
    if res is None:
        return None
    span = f"#2 − #1 = {res.diff:+.4f} [{res.ci_low:+.4f}, {res.ci_high:+.4f}] on {res.n} paired items"
    if distinguishable(res.ci_low, res.ci_high):
        return f"memlab: #1 is distinguishably ahead of #2 ({span})"
    return (
        f"memlab: #1 and #2 cannot be told apart ({span}; the interval includes 0): "
        "compare on more questions before choosing between them"
    )


def print_comparison(rows: list[Any], paired: Mapping[str, PairedResult] | None = None) -> None:
    """Print the comparison at the console's width, then its :func:`verdict`."""
    print(render_comparison(rows, console_width(), paired), end="", flush=True)
    line = verdict(rows, paired)
    if line:
        print(line, flush=True)
