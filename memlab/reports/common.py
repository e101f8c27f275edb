"""What every report shares: refusing to overwrite, refusing to write from nothing or from fewer runs, saving figures.

A report is written only from runs that exist (no runs: one-line error, nothing written) and never over
an existing file unless ``--force`` is given, so a fresh clone's empty store cannot replace a committed
report with empty tables. ``--force`` never shrinks a report silently either: a report records the runs it was
written from (an HTML comment at its end), and regenerating it from a store that lacks some of them names the
missing runs and writes nothing, unless ``--partial`` is given, which writes a report marked partial at its top.
A report written before it recorded its runs is refused when the new one would be shorter.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from memlab.core.errors import MemlabError

#: Start of the comment that records a report's runs (full MLflow run ids).
RUNS_MARK = "<!-- memlab report runs: "
#: First words of the note a partial report starts with.
PARTIAL_MARK = "> **Partial report.**"


def check_output(paths: Sequence[Path], force: bool) -> None:
    """Raise when one of ``paths`` exists and ``force`` is off.

    Raises:
        MemlabError: Naming the file and the two ways out (``--force`` or another ``--out``).
    """
    existing = [p for p in paths if p.exists()]
    if existing and not force:
        raise MemlabError(
            f"{existing[0]} exists; pass --force to overwrite it (the report is regenerated from the runs) "
            "or --out NEW.md to write elsewhere"
        )


def require_runs(runs: Sequence[Any], experiments: Sequence[str], uri: str | None) -> None:
    """One-line error when there are no finished runs to report on."""
    if not runs:
        from memlab.tracking.query import resolve_uri

        names = ", ".join(experiments)
        raise MemlabError(
            f"no FINISHED runs of experiment {names} in {resolve_uri(uri)}; run it first "
            "(python -m memlab +experiment=...) or pass --uri for another store; nothing was written"
        )


def finished_runs(experiment: str, uri: str | None) -> list[Any]:
    """Finished runs of ``experiment``; none when the experiment or the store does not exist yet."""
    from memlab.tracking.query import find_runs

    try:
        return find_runs(experiment, uri)
    except MemlabError as exc:
        if "no MLflow experiment" in str(exc) or "no MLflow store" in str(exc):
            return []
        raise


def shown_uri(uri: str) -> str:
    """A tracking URI as a report prints it: a store inside the checkout as ``sqlite:///<checkout>/...`` (the same
    place in every clone), any other URI as it is.
    """
    from memlab.core.paths import PROJECT_ROOT

    root = f"sqlite:///{PROJECT_ROOT}/"
    return "sqlite:///<checkout>/" + uri[len(root) :] if uri.startswith(root) else uri


def save(fig: Any, path: Path) -> Path:
    """Save a matplotlib figure as PNG (no timestamps in the file) and close it; the saved area grows to hold
    titles and legends placed outside the axes (nothing is clipped).
    """
    import matplotlib.pyplot as plt

    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120, metadata={"Software": None}, bbox_inches="tight", pad_inches=0.15)
    plt.close(fig)
    return path


def report_parser(name: str, doc: str) -> Any:
    """The arguments of ``memlab report NAME`` every report takes: ``--uri``, ``--out`` (default
    ``reports/NAME.md`` in the checkout), ``--force`` and ``--partial`` (with ``--force``, write a report from fewer
    runs than the one it replaces, marked partial); a report adds its own.
    """
    import argparse

    from memlab.core.paths import PROJECT_ROOT

    parser = argparse.ArgumentParser(prog=f"memlab report {name}", description=doc.splitlines()[0])
    parser.add_argument("--uri", "--tracking-uri", help="MLflow tracking URI (default: the project's sqlite store)")
    parser.add_argument("--out", type=Path, default=PROJECT_ROOT / "reports" / f"{name}.md")
    parser.add_argument("--force", action="store_true", help="overwrite an existing report")
    parser.add_argument(
        "--partial",
        action="store_true",
        help="with --force: write the report even if runs of the existing report are missing (marked partial)",
    )
    return parser


def recorded_runs(path: Path) -> set[str] | None:
    """The runs an existing report was written from: full ids from its record, else the 8-character prefixes of
    its ``Run ids:`` line; ``None`` when it records neither (or does not exist).
    """
    if not path.is_file():
        return None
    text = path.read_text(encoding="utf-8")
    for line in text.splitlines():
        if line.startswith(RUNS_MARK):
            return set(line[len(RUNS_MARK) :].removesuffix("-->").split())
    for line in text.splitlines():
        if line.startswith("Run ids: "):
            return set(re.findall(r"`([0-9a-f]{8,32})`", line))
    return None


def body_lines(text: str) -> int:
    """Lines of a report without its record of runs and its partial note."""
    return sum(1 for line in text.splitlines() if not line.startswith((RUNS_MARK, PARTIAL_MARK)))


def write_report(out: Path, text: str, run_ids: Sequence[str], *, partial: bool, uri: str | None) -> None:
    """Write ``text`` to ``out`` with its record of runs; refuse (nothing written) when that would drop runs of the
    report it replaces, unless ``partial``, which marks the report partial.

    A report regenerated from another store (no run in common with the one it replaces: a fresh
    ``experiments/reproduce.sh``) cannot be checked run by run, so it is checked as a report that records no runs:
    it may not be shorter. Why: a reproduction on a new store is the normal way to regenerate every report, and
    naming thousands of absent run ids as "missing" would make it fail at its last step.

    Raises:
        MemlabError: Naming the missing runs (or, for a report that records none, how much shorter it would be)
            and the ways out.
    """
    from memlab.tracking.query import resolve_uri

    store = resolve_uri(uri)
    previous = recorded_runs(out)
    missing = sorted(p for p in previous or () if not any(r.startswith(p) for r in run_ids))
    other_store = bool(previous) and len(missing) == len(previous or ())
    body = text.rstrip("\n") + "\n"
    old, new = (body_lines(out.read_text(encoding="utf-8")) if out.is_file() else 0), body_lines(body + "\n")
    shorter = (previous is None or other_store) and out.is_file() and new < old
    what = ""
    if missing and not other_store:
        shown = ", ".join(missing[:5]) + (f" and {len(missing) - 5} more" if len(missing) > 5 else "")
        what = (
            f"{len(missing)} of the {len(previous or ())} runs it was written from are not FINISHED in {store}: {shown}"
        )
    elif shorter:
        why = f"none of its {len(missing)} runs is in {store}" if other_store else "it does not record its runs"
        what = f"{why} and the new one is {old - new} lines shorter ({old} -> {new})"
    if what and not partial:
        raise MemlabError(
            f"{out} would shrink: {what}; nothing was written; pass --uri for the store that has them, "
            "or --partial to write a report marked partial"
        )
    head = f"{PARTIAL_MARK} Written with `--partial` from {len(run_ids)} runs, fewer than the report it replaced: "
    head += f"{what}.\n\n"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text((head if what else "") + body + f"\n{RUNS_MARK}{' '.join(sorted(run_ids))} -->\n", "utf-8")


@contextmanager
def kept_on_error(paths: Sequence[Path]) -> Iterator[None]:
    """Restore ``paths`` (figures written before a report is refused) as they were when the block raises."""
    before = {p: p.read_bytes() if p.is_file() else None for p in paths}
    try:
        yield
    except BaseException:
        for path, data in before.items():
            if data is None:
                path.unlink(missing_ok=True)
            else:
                path.write_bytes(data)
        raise


def fmt(value: float | None, digits: int = 3) -> str:
    """``value`` to ``digits`` decimals; ``–`` when undefined (``None``), never 0."""
    return "–" if value is None else f"{value:.{digits}f}"


def metric(run: Any, name: str) -> float | None:
    """``name`` of ``run`` as a float; ``None`` when the run did not log it."""
    value = run.metrics.get(name)
    return None if value is None else float(value)


def ci_cell(run: Any, name: str, digits: int = 2) -> str:
    """``0.812 [0.79, 0.83]``: ``name`` of ``run`` and its bootstrap interval (``_ci_low``/``_ci_high``) when logged."""
    value, lo, hi = (metric(run, f"{name}{s}") for s in ("", "_ci_low", "_ci_high"))
    return fmt(value) + (f" [{lo:.{digits}f}, {hi:.{digits}f}]" if lo is not None and hi is not None else "")


def is_set(value: Any) -> bool:
    """Whether a logged parameter holds a value (MLflow stores an unset one as ``None``, ``null`` or empty)."""
    return value not in (None, "", "None", "null")


def met(got: float | None, op: str, target: float) -> str:
    """``yes``/``no`` for ``got`` against a ``≥`` or ``≤`` target; ``–`` when ``got`` is undefined."""
    return "–" if got is None else ("yes" if (got >= target if op == "≥" else got <= target) else "no")


def table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """A markdown table's lines."""
    return ["| " + " | ".join(head) + " |", "|" + "---|" * len(head), *("| " + " | ".join(r) + " |" for r in rows)]


def newest(runs: Sequence[Any], key: Callable[[Any], Any]) -> dict[Any, Any]:
    """The newest run per ``key(run)``, keys in the order their first run started."""
    out: dict[Any, Any] = {}
    for run in sorted(runs, key=lambda r: r.start_time):
        out[key(run)] = run
    return out


def defined_values(runs: Sequence[Any], metric: str) -> list[float]:
    """``metric`` of every run where it is defined (logged and not NaN)."""
    from memlab.benchmarks.metrics import is_defined

    return [float(r.metrics[metric]) for r in runs if is_defined(r.metrics.get(metric))]


def with_count(cell: str, runs: Sequence[Any], metric: str) -> str:
    """``cell`` followed by the rate's count summed over the runs where it is defined (`` (n=...)``); unchanged
    for a metric without a count, or an empty cell.
    """
    from memlab.benchmarks.metrics import count_of, is_defined

    counts = [count_of(metric, r.metrics) for r in runs if is_defined(r.metrics.get(metric))]
    known = [c for c in counts if c is not None]
    return cell if cell == "–" or not known else f"{cell} (n={sum(known):.0f})"


def single_experiment_main(
    name: str, doc: str, experiment: str, render: Callable[[list[Any], str], str], argv: list[str] | None
) -> int:
    """``memlab report NAME``: the report of one experiment's FINISHED runs, written to ``reports/NAME.md``.

    ``render(runs, experiment)`` gives the markdown. No runs: a one-line error and nothing written; an existing
    report is kept unless ``--force`` (and never shrunk unless ``--partial``).
    """
    parser = report_parser(name, doc)
    parser.add_argument("--experiment", default=experiment)
    args = parser.parse_args(argv)
    runs = finished_runs(args.experiment, args.uri)
    require_runs(runs, [args.experiment], args.uri)
    out = Path(args.out)
    check_output([out], args.force)
    write_report(out, render(runs, args.experiment), [r.run_id for r in runs], partial=args.partial, uri=args.uri)
    print(f"wrote {out} ({len(runs)} runs)")
    return 0
