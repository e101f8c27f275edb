"""``memlab report memory_files``: judges on agents' memory files, side by side (every judge, per file kind, LORO).

Reads the finished runs of the MLflow experiment ``memory_files`` (``python -m memlab +experiment=memory_files``;
commands in experiments/memory_files/README.md) and writes ``reports/memory_files.md``: per data selection and
judge the pooled rates with bootstrap intervals over repositories (the newest run of each counts); LORO rows
(runs of one repository each whose edit model was trained without it: counts summed over the folds, rates from
the sums); per file kind; the issue's targets beside the default judge on the sealed split; what is counted and
not scored. A rate with no denominator is ``–``, never 0 or 1. Every figure is read from a run.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from memlab.reports.common import ci_cell as _ci
from memlab.reports.common import fmt as _fmt
from memlab.reports.common import is_set, met, newest, table
from memlab.reports.common import metric as _metric

EXPERIMENT = "memory_files"
#: Columns of the pooled tables: (metric, label).
RATES: tuple[tuple[str, str], ...] = (
    ("stale_inferable_in_block", "stale"), ("gone_other_in_block", "other gone"), ("current_coverage", "coverage"),
    ("replacement_precision", "rep. P"), ("replacement_recall", "rep. R"), ("candidate_recall", "cand. recall"),
)  # fmt: skip
#: The label of the experiment's judge (conf/experiment/memory_files.yaml: the edit judge, conf/judge/edit.yaml).
DEFAULT_JUDGE = "edit"
TARGETS = (
    ("block_current_precision", "≥", 0.95),
    ("stale_inferable_in_block", "≤", 0.02),
    ("replacement_f1", "≥", 0.80),
)
COUNTED: tuple[tuple[str, str], ...] = (
    ("n_files", "files"), ("n_checkpoints", "checkpoints"), ("n_facts", "facts"), ("n_kept_pairs", "kept pairs"),
    ("n_retired", "retired"), ("n_pairs_below_cut", "pairs below the cut"), ("n_moved", "moved"),
    ("n_file_deletions", "file deletions"), ("n_rewrites", "rewrites"),
)  # fmt: skip


def fold_model(params: Mapping[str, str]) -> str | None:
    """The edit model file a run's judge was given (``None``: the shipped one)."""
    for key in ("judge.model_path", "judge.edit.model_path"):
        if params.get("judge._target_", "").endswith(("EditJudge", "CascadeJudge")) and is_set(params.get(key)):
            return str(params[key])
    return None


def retention_label(params: Mapping[str, str]) -> str:
    """``""`` for the experiment's retention (``exponential``), else `` · <option> <hyperparameters>``, so that a run
    with another retention gets a row of its own instead of standing in for its judge's.
    """
    target = params.get("retention._target_", "")
    if not target or target.endswith(".ExponentialRetention"):
        return ""
    name = target.rsplit(".", 1)[-1].removesuffix("Retention").lower()
    knobs = " ".join(f"{k.removeprefix('retention.')} {v}" for k, v in sorted(params.items())
                     if k.startswith("retention.") and k != "retention._target_")  # fmt: skip
    return f" · {name}" + (f" ({knobs})" if knobs else "")


def judge_label(params: Mapping[str, str]) -> str:
    """``cascade (edits)``, ``cascade``, ``edit``, ``slot``, ...; a fold model's run is ``… (LORO fold)``; another
    retention than the experiment's is named after the judge (:func:`retention_label`).
    """
    target = params.get("judge._target_", "?").rsplit(".", 1)[-1]
    name = "none" if target == "NoJudge" else target.removesuffix("Judge").lower() or "?"
    if target == "CascadeJudge" and params.get("judge.edit._target_", "").endswith(".EditJudge"):
        name = "cascade (edits)"
    return name + retention_label(params) + (" (LORO fold)" if fold_model(params) else "")


def data_label(params: Mapping[str, str]) -> str:
    """The data a run read: its split, the repositories and kinds it selected, the folder when not the shared one."""
    path = params.get("dataset.path", "")
    where = "" if path.rstrip("/").endswith("shared/datasets/memory-files") else f" of {path}"
    extra = [params[k] for k in ("dataset.repos", "dataset.kinds") if is_set(params.get(k))]
    return params.get("dataset.split", "all") + where + "".join(f" {e}" for e in extra)


def _table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    return [*table(head, rows), ""]


def newest_runs(runs: Sequence[Any]) -> dict[tuple[str, str], Any]:
    """``(data, judge)`` -> the newest finished run, for runs that are not LORO folds."""
    out = newest([r for r in runs if not fold_model(r.params)], lambda r: (data_label(r.params), judge_label(r.params)))
    return dict(sorted(out.items()))


def pooled_table(groups: Mapping[tuple[str, str], Any]) -> list[str]:
    """One row per data and judge."""
    head = ["data", "judge", "files", "block precision [95% CI]", "replacement F1 [95% CI]", *(r[1] for r in RATES)]
    rows = []
    for (data, judge), run in groups.items():
        files, seconds = _metric(run, "n_files"), _metric(run, "latency_total_s")
        rows.append([data, judge, "?" if files is None else str(int(files)), _ci(run, "block_current_precision"),
                     _ci(run, "replacement_f1"), *(_fmt(_metric(run, m)) for m, _ in RATES),
                     "–" if seconds is None else f"{seconds:.0f}"])  # fmt: skip
    return _table([*head, "time (s)"], rows)


def loro_table(runs: Sequence[Any]) -> list[str]:
    """LORO folds pooled: per (data split, judge), the counts of the newest run of each held-out repository summed."""
    from memlab.benchmarks import pooled
    from memlab.benchmarks.memory_files.benchmark import RATES as TABLE
    from memlab.benchmarks.memory_files.scoring import COUNTS

    folds: dict[tuple[str, str], dict[str, Any]] = defaultdict(dict)
    for run in sorted(runs, key=lambda r: r.start_time):
        if fold_model(run.params):
            key = (run.params.get("dataset.split", "all"), judge_label(run.params))
            folds[key][run.params.get("dataset.repos", "?")] = run
    if not folds:
        return ["No LORO fold runs in this store (experiments/memory_files/README.md says how to make them).", ""]
    rows = []
    for (split, judge), by_repo in sorted(folds.items()):
        values = pooled.rates(pooled.summed([r.metrics for r in by_repo.values()], COUNTS), TABLE)
        rows.append([split, judge, str(len(by_repo)), *(_fmt(values.get(m)) for m in ("block_current_precision",
                     "replacement_f1", *(m for m, _ in RATES)))])  # fmt: skip
    return _table(["split", "judge", "folds", "block precision", "replacement F1", *(r[1] for r in RATES)], rows)


def kind_table(groups: Mapping[tuple[str, str], Any]) -> list[str]:
    """Per file kind (rows) and judge: block precision / stale share / replacement F1."""
    cells: dict[str, dict[tuple[str, str], str]] = defaultdict(dict)
    for key, run in groups.items():
        for name in run.metrics:
            if name.startswith("kind.") and name.endswith(".block_current_precision"):
                kind = name[len("kind.") : -len(".block_current_precision")]
                got = [_metric(run, f"kind.{kind}.{m}") for m in ("block_current_precision", "stale_inferable_in_block",
                                                                  "replacement_f1")]  # fmt: skip
                files = _metric(run, f"kind.{kind}.n_files")
                cells[kind][key] = " / ".join(_fmt(v) for v in got) + f" ({int(files or 0)})"
    head = ["kind", *(f"{judge} ({data})" for data, judge in groups)]
    return _table(head, [[kind, *(cells[kind].get(c, "–") for c in groups)] for kind in sorted(cells)]) if cells else []


def targets_table(groups: Mapping[tuple[str, str], Any]) -> list[str]:
    """The issue's targets beside the experiment's judge on the sealed split, then beside each sealed run with
    another retention (what it trades: coverage).
    """
    if ("sealed", DEFAULT_JUDGE) not in groups:
        return ["No sealed run of the experiment's judge in this store.", ""]
    policies = [DEFAULT_JUDGE, *(j for d, j in groups if d == "sealed" and " · " in j and "LORO" not in j)]
    rows = []
    for metric, op, value in TARGETS:
        cells = []
        for judge in policies:
            got = _metric(groups[("sealed", judge)], metric)
            cells += [_fmt(got), met(got, op, value)]
        rows.append([f"`{metric}`", f"{op} {value:.2f}", *cells])
    coverage = [_fmt(_metric(groups[("sealed", j)], "current_coverage")) for j in policies]
    rows.append(["`current_coverage`", "reported", *(c for got in coverage for c in (got, ""))])
    head = ["metric", "target", *(c for j in policies for c in (f"{j}, sealed split", "met"))]
    return _table(head, rows)


def counted_table(groups: Mapping[tuple[str, str], Any]) -> list[str]:
    """What each data selection holds that is counted, not scored (the same for every judge: one run each)."""
    first = {data: run for (data, _), run in reversed(list(groups.items()))}
    rows = [[data, *(str(int(_metric(run, m) or 0)) for m, _ in COUNTED)] for data, run in first.items()]
    return _table(["data", *(label for _, label in COUNTED)], rows)


def render(runs: Sequence[Any], experiment: str = EXPERIMENT) -> str:
    """The report's markdown."""
    groups = newest_runs(runs)
    return "\n".join(
        [
            "# Judges on agents' memory files",
            "",
            f"Generated by `memlab report memory_files` from the MLflow experiment `{experiment}`; do not edit by "
            "hand. Each fact of a memory file arrives at its commit's time; after every commit the SessionStart "
            "block is scored against the file at that time. `dev`: the 20 development repositories (every choice was "
            "made on them, by leave-one-repository-out); `sealed`: the 11 repositories held out by name hash "
            "(experiments/memory_files/sealed.txt). The edit model shipped with the default judge was trained on "
            "`dev`, so its `dev` rows are in-sample and its LORO rows are the development estimate. Rates are micro "
            "over the files' counts; intervals are bootstrap over repositories. A run with another retention than the "
            "experiment's is a row of its own, named after its judge (`· option (hyperparameters)`).",
            "",
            "## Pooled over the files of each run",
            "",
            *pooled_table(groups),
            "## Leave one repository out (each repository judged by an edit model trained without it)",
            "",
            *loro_table(runs),
            "## Targets against the sealed repositories (the experiment's judge, and other retentions)",
            "",
            *targets_table(groups),
            "## Per file kind: block precision / stale share / replacement F1 (files)",
            "",
            *kind_table(groups),
            "## Counted, not scored",
            "",
            *counted_table(groups),
        ]
    )


def main(argv: list[str] | None = None) -> int:
    """Write the report from the runs that exist (none: one-line error, nothing written); returns 0."""
    from memlab.reports.common import single_experiment_main

    return single_experiment_main("memory_files", __doc__, EXPERIMENT, render, argv)
