"""A sweep's comparison as text: the Markdown table attached to the parent run and the console table.

The console table reads at 80 columns (a pipe, a CI log) and shows more on a wider terminal: runs are numbered
(``#1`` is the best), named by abbreviations, and the columns are chosen to fit (:func:`render_comparison`); a
legend under it gives each number's full configuration, wrapped rather than cut. Numbers have three significant
digits. A metric a run did not log (undefined there) shows ``–``; a rate shows its count (``(n=...)`` beside
every metric in the Markdown table; the main metric's in the console, once in the title when every run shares it).
Given paired comparisons against ``#1`` (:mod:`memlab.sweeps.paired`), both tables say each job's difference from
the best and whether it is distinguishable (its paired 95% interval excludes 0).
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from typing import Any

from memlab.benchmarks.metrics import count_of
from memlab.benchmarks.stats import PairedResult, distinguishable
from memlab.tracking.store import ranked

#: Console width when the output is not a terminal (pipes, CI logs); ``$COLUMNS`` overrides it.
PIPE_WIDTH = 80


def fmt(value: float | None, n: float | None = None) -> str:
    """A metric value for a table (``–`` when the run did not log it or logged NaN), with its count ``n``: three
    significant digits (never an exponent: ``1234``, ``0.562``, ``0.0123``; a whole number as one: ``0``, ``32``),
    which is what a rate over a few hundred items can tell apart; the exact value stays in MLflow and
    ``result.json``.
    """
    if value is None or value != value:
        return "–"
    whole = math.isinf(value) or float(value).is_integer()
    digits = 0 if whole else max(0, 2 - math.floor(math.log10(abs(value))))
    text = f"{value:.{digits}f}"
    return text if n is None else f"{text} (n={n:.0f})"


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
    diff = f"{res.diff:+.3f}" + (f" [{res.ci_low:+.3f}, {res.ci_high:+.3f}]" if interval else "")
    return diff, "yes" if distinguishable(res.ci_low, res.ci_high) else "no"


def headline_names(rows: list[Any]) -> list[str]:
    """The headline metrics any run logged, in first-seen order."""
    return list(dict.fromkeys(n for c in rows for n, _ in c.headline))


def comparison_table(rows: list[Any], paired: Mapping[str, PairedResult] | None = None) -> str:
    """Markdown table of a sweep's jobs in the one ranking order (:func:`memlab.tracking.store.ranked`); with
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


def abbreviations(names: list[str]) -> list[str]:
    """Run names shortened for the table: the values of their ``key=value`` parts, each cut to 4 characters (to
    8, or whole, when a shorter cut would make two runs look alike), joined by ``/``; the legend has them in full.
    """
    parts = [[p.split("=", 1)[-1] for p in name.split()] for name in names]
    for cut in (4, 8, None):
        short = ["/".join(v[:cut] for v in p) for p in parts]
        if len(set(short)) == len(set(names)):
            break
    return short


def header(name: str, cells: list[str]) -> str:
    """A column header wrapped at its ``_`` to the width of its cells (the exact metric name stays readable)."""
    width, lines = max(5, *(len(c) for c in cells)), [""]
    for part in name.split("_"):
        piece = part if not lines[-1] else "_" + part
        if lines[-1] and len(lines[-1]) + len(piece) > width:
            lines[-1] += "_"
            piece = part
            lines.append("")
        lines[-1] += piece
    return "\n".join(lines)


def render_comparison(rows: list[Any], width: int, paired: Mapping[str, PairedResult] | None = None) -> str:
    """The console comparison at ``width`` columns: one row per run, best first, its run number, abbreviated name
    and main metric; then, while they fit, the main metric's count (when it differs between runs), the difference
    from ``#1`` and whether it is distinguishable, the main metric's interval, the headline metrics that differ
    between runs, the run id and the difference's interval (a wider terminal shows more; what does not fit is
    named under the table, the Markdown ``comparison.md`` has every column). Then the legend of run numbers: the
    full configuration, the run id, and the status when it is not FINISHED.
    """
    from rich import box
    from rich.console import Console
    from rich.table import Table

    ordered = ranked(rows)
    metric = next((c.main_metric for c in ordered if c.main_metric), "main metric")
    names = [c.name or c.run_id[:8] for c in ordered]
    console = Console(width=width, record=True, file=open(os.devnull, "w"), color_system=None)  # noqa: SIM115
    counts = sorted({fmt_n(count(c, metric)) for c in ordered})
    vs = [vs_best(c.run_id, paired, False) for c in ordered]
    diffs = [vs_best(c.run_id, paired)[0] for c in ordered]
    ci = [f"[{fmt(c.interval[0])}, {fmt(c.interval[1])}]" if c.interval else "–" for c in ordered]
    columns = [("#", [str(i) for i in range(1, len(ordered) + 1)]), ("run", abbreviations(names))]
    columns.append((metric, [fmt(c.value) for c in ordered]))
    optional = [("n", [fmt_n(count(c, metric)) for c in ordered])] if len(counts) > 1 else []
    optional += [("− #1", [v[0] for v in vs]), ("dist.", [v[1] for v in vs])] if paired else []
    optional += [("95% interval", ci)] if any(c.interval for c in ordered) else []
    same = []
    for name in headline_names(ordered):
        cells = [fmt(dict(c.headline).get(name)) for c in ordered]
        (optional.append((name, cells)) if len(set(cells)) > 1 else same.append(f"{name} {cells[0]}"))
    optional += [("run id", [c.run_id[:8] for c in ordered])]
    optional += [("− #1 (95% CI)", diffs)] if paired else []

    def table_of(cols: list[tuple[str, list[str]]]) -> Table:
        table = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
        for name, cells in cols:
            table.add_column(header(name, cells), justify="left" if name == "run" else "right", no_wrap=True)
        for i in range(len(ordered)):
            table.add_row(*(cells[i] for _, cells in cols))
        return table

    n = f" (n={counts[0]})" if len(counts) == 1 and counts[0] != "–" else ""
    title = f"sweep comparison: {metric}{n}, best first"
    left = []
    for column in optional:
        widths = [max(len(line) for line in header(*c).split("\n") + c[1]) for c in [*columns, column]]
        if sum(widths) + 3 * len(widths) - 3 <= width:  # one space of padding either side, one of border
            columns.append(column)
        else:
            left.append(column[0])
    console.print(table_of(columns))
    keys = {"/".join(p.split("=", 1)[0] for p in name.split()) for name in names}
    notes = [f"run = {keys.pop()}"] if len(keys) == 1 and "=" in names[0] else []
    notes += [f"same in every run: {', '.join(same)}"] if same else []
    notes += [f"not shown at {width} columns: {', '.join(left)} (all in comparison.md)"] if left else []
    for line in notes:
        console.print(line, highlight=False, markup=False)
    for rank, c in enumerate(ordered, 1):
        status = "" if c.status == "FINISHED" else f" [{c.status}]"
        console.print(f"#{rank}  {c.name or c.run_id}  ({c.run_id[:8]}){status}", highlight=False, markup=False)
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
    ordered = [c for c in ranked(rows) if c.status == "FINISHED" and c.value is not None and c.value == c.value]
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
