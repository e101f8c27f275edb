"""``memlab report adr``: supersession judges on public architecture decision records, side by side.

Reads the finished runs of the MLflow experiment ``adr_decisions`` (``python -m memlab +experiment=adr_decisions``;
the study's commands are in experiments/adr_decisions/README.md) and writes ``reports/adr.md``:

1. one row per split (``dev``, ``sealed``, ``all`` or a folder of another path), ``refs`` mode and judge, pooled
   over the repositories of the run: micro ``supersession_f1`` with its 95% bootstrap interval over
   repositories, precision, recall, the macro F1, ``candidate_recall``, ``stale_rate_injected`` and
   ``current_truth_at_1`` (the newest finished run of each counts);
2. leave-one-repository-out (LORO) rows: runs of one repository each whose record model was trained without it
   (``judge.model_path`` or ``judge.record.model_path`` set to a fold's model), their counts summed over the
   folds and the rates computed from the sums;
3. per repository, ``supersession_f1`` of every judge (``refs=strip``), so where a judge fails is one row;
4. the issue's targets beside the default judge's figures on the sealed split (data no choice was made on).

A rate with no denominator (no gold, no prediction) is ``–``, never 0 or 1. Nothing in the output is typed by
hand: every figure is read from a run.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from memlab.reports.common import ci_cell, is_set, met, newest, table
from memlab.reports.common import fmt as _fmt
from memlab.reports.common import metric as _metric

EXPERIMENT = "adr_decisions"
#: Rates of the pooled tables: (metric, column label).
RATES: tuple[tuple[str, str], ...] = (
    ("supersession_precision", "P"),
    ("supersession_recall", "R"),
    ("supersession_f1_macro", "F1 macro"),
    ("candidate_recall", "cand. recall"),
    ("stale_rate_injected", "stale"),
    ("current_truth_at_1", "current@1"),
    ("stated_share", "stated in newer"),
    ("stated_recall", "R on stated"),
)
#: The label of the project's default judge (conf/judge/cascade.yaml).
DEFAULT_JUDGE = "cascade (references, record stores)"
#: The issue's targets for ``refs=strip`` (and ``keep``): metric -> (comparison, value).
TARGETS: tuple[tuple[str, str, str, float], ...] = (
    ("strip", "candidate_recall", "≥", 0.95),
    ("strip", "supersession_f1", "≥", 0.60),
    ("strip", "stale_rate_injected", "≤", 0.01),
    ("strip", "current_truth_at_1", "≥", 0.70),
    ("keep", "supersession_f1", "≥", 0.90),
    ("keep", "stale_rate_injected", "≤", 0.02),
)


def fold_model(params: Mapping[str, str]) -> str | None:
    """The record model file a run's judge was given (``None``: the shipped one)."""
    target = params.get("judge._target_", "")
    key = "judge.model_path" if target.endswith("RecordJudge") else "judge.record.model_path"
    if target.endswith(("RecordJudge", "CascadeJudge")) and is_set(params.get(key)):
        return str(params[key])
    return None


def judge_label(params: Mapping[str, str]) -> str:
    """``cascade (references, record stores)``, ``record``, ``reference``, ``slot``, ...; a fold model's run is
    labelled ``… (LORO fold)``.
    """
    target = params.get("judge._target_", "?").rsplit(".", 1)[-1]
    name = "none" if target == "NoJudge" else target.removesuffix("Judge").lower() or "?"
    if target == "CascadeJudge":
        stages = [  # the stage's node (its target), or before the stages were nodes the flag
            s
            for s, node, flag in (("references", "reference", "references"), ("record stores", "record", "records"))
            if f"judge.{node}._target_" in params or params.get(f"judge.{flag}") == "True"
        ]
        name = f"cascade ({', '.join(stages)})" if stages else "cascade (note judges only)"
    return name + (" (LORO fold)" if fold_model(params) else "")


def split_label(params: Mapping[str, str]) -> str:
    """The data a run read: its split, the repositories it selected, and the folder when not the shared one."""
    split = params.get("dataset.split", "all")
    repos = params.get("dataset.repos", "None")
    path = params.get("dataset.path", "")
    where = "" if path.rstrip("/").endswith("shared/datasets/adr-decisions") else f" of {path}"
    return f"{split}{where}" + (f" {repos}" if is_set(repos) else "")


def newest_runs(runs: Sequence[Any]) -> dict[tuple[str, str, str], Any]:
    """``(data, refs, judge)`` -> the newest finished run, for runs over whole splits (not LORO folds)."""

    def key(run: Any) -> tuple[str, str, str]:
        return split_label(run.params), run.params.get("dataset.refs", "strip"), judge_label(run.params)

    return dict(sorted(newest([r for r in runs if not fold_model(r.params)], key).items()))


def pooled_table(groups: Mapping[tuple[str, str, str], Any]) -> list[str]:
    """One row per data, refs and judge."""
    rows = []
    for (data, refs, judge), run in groups.items():
        repos = _metric(run, "n_repos")
        rows.append([data, refs, judge, "?" if repos is None else str(int(repos)), ci_cell(run, "supersession_f1"),
                     *(_fmt(_metric(run, m)) for m, _ in RATES), _fmt(_metric(run, "latency_total_s"), 0)])  # fmt: skip
    return table(["data", "refs", "judge", "repos", "F1 [95% CI]", *(label for _, label in RATES), "time (s)"], rows)


def loro_table(runs: Sequence[Any]) -> list[str]:
    """LORO folds pooled: per (refs, judge), the counts of the newest run of each held-out repository summed."""
    from memlab.benchmarks.adr.pooled import COUNTS, rates

    # a fold run logs the summed counts under their metric names: n_supersession_tp for sup_tp, the others as is
    fold_counts = {count.replace("sup_", "n_supersession_"): count for count in COUNTS}
    folds: dict[tuple[str, str], dict[str, Any]] = defaultdict(dict)
    for run in sorted(runs, key=lambda r: r.start_time):
        if fold_model(run.params):
            key = (run.params.get("dataset.refs", "strip"), judge_label(run.params))
            folds[key][run.params.get("dataset.repos", "?")] = run
    if not folds:
        return ["No LORO fold runs in this store (experiments/adr_decisions/README.md says how to make them).", ""]
    shown = [(m, label) for m, label in RATES if m != "supersession_f1_macro"]
    rows = []
    for (refs, judge), by_repo in sorted(folds.items()):
        total = {key: sum(float(r.metrics.get(name, 0.0)) for r in by_repo.values())
                 for name, key in fold_counts.items() if any(name in r.metrics for r in by_repo.values())}  # fmt: skip
        # folds older than the stated-link counts leave those rates undefined, never 0
        values = {m: v for m, v in rates(total).items() if "n_gold_stated" in total or not m.startswith("stated")}
        rows.append([refs, judge, str(len(by_repo)), *(_fmt(values.get(m)) for m in ("supersession_f1", *dict(shown)))])
    return [*table(["refs", "judge", "folds", "F1", *(label for _, label in shown)], rows), ""]


def per_repo_table(groups: Mapping[tuple[str, str, str], Any], refs: str = "strip") -> list[str]:
    """Per repository (rows) and judge (columns): ``supersession_f1`` of the whole-split runs in ``refs`` mode."""
    columns = [(data, judge) for (data, r, judge) in groups if r == refs]
    cells: dict[str, dict[tuple[str, str], float]] = defaultdict(dict)
    for (data, r, judge), run in groups.items():
        if r != refs:
            continue
        for name, value in run.metrics.items():
            if name.startswith("repo.") and name.endswith(".supersession_f1"):
                cells[name[len("repo.") : -len(".supersession_f1")]][(data, judge)] = float(value)
    if not cells:
        return []
    head = ["repository", *(f"{judge} ({data})" for data, judge in columns)]
    return [*table(head, [[repo, *(_fmt(cells[repo].get(c)) for c in columns)] for repo in sorted(cells)]), ""]


def targets_table(groups: Mapping[tuple[str, str, str], Any]) -> list[str]:
    """The issue's targets beside the default judge on the sealed split."""
    rows, found = [], False
    for refs, metric, op, value in TARGETS:
        run = groups.get(("sealed", refs, DEFAULT_JUDGE))
        got = _metric(run, metric) if run is not None else None
        found |= got is not None
        rows.append([refs, f"`{metric}`", f"{op} {value:.2f}", _fmt(got), met(got, op, value)])
    return [*table(["refs", "metric", "target", "default judge, sealed split", "met"], rows), ""] if found else []


def render(runs: Sequence[Any], experiment: str = EXPERIMENT) -> str:
    """The report's markdown."""
    groups = newest_runs(runs)
    return "\n".join(
        [
            "# Supersession judges on public architecture decision records",
            "",
            f"Generated by `memlab report adr` from the MLflow experiment `{experiment}`; do not edit by hand. "
            "`dev`: the 17 development repositories (every choice was made on them, by leave-one-repository-out); "
            "`sealed`: the 9 repositories held out by name hash and first read for this report; the record model "
            "shipped with the default judge was trained on `dev`, so its `dev` rows are in-sample and its LORO rows "
            "are the development estimate. `refs=strip`: status marks, record numbers, links and 'supersedes' "
            "sentences removed; `keep`: the newer record's references stay. Pooled rates are micro over the "
            "repositories' counts, intervals are bootstrap over repositories.",
            "",
            "## Pooled over the repositories of each run",
            "",
            *pooled_table(groups),
            "",
            "## Leave one repository out (each repository judged by a model trained without it)",
            "",
            *loro_table(runs),
            "## Targets against the sealed repositories (default judge)",
            "",
            *(targets_table(groups) or ["No sealed run of the default judge in this store.", ""]),
            "## supersession_f1 per repository (`refs=strip`)",
            "",
            *per_repo_table(groups, "strip"),
            "## supersession_f1 per repository (`refs=keep`)",
            "",
            *per_repo_table(groups, "keep"),
        ]
    )


def main(argv: list[str] | None = None) -> int:
    """Write the report from the runs that exist (none: one-line error, nothing written); returns 0."""
    from memlab.reports.common import single_experiment_main

    return single_experiment_main("adr", __doc__, EXPERIMENT, render, argv)
