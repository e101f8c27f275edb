"""Judges across phrasing families and hand-written histories: the table of the study's runs, from MLflow.

Run the study first (commands in experiments/project_history/README.md, "Judges across phrasing families";
every run goes to the MLflow experiment ``project_history_families``), then::

    PYTHONPATH=. python experiments/project_history/families.py [--experiment NAME] [--uri URI]

Each row is one dataset (a hand-written history, or a phrasing family of the generator over its seeds) and one
judge; the newest finished run of each (dataset, seed, judge) counts. The role column says what the data was to
the judges: the families the cross-family model v9 trained on (classic, terse, narrative; at evaluation seeds
below 1000, which no model trained on), the families no model trained on (ticket, chat), and the hand-written
histories (ferrybook: development; built-in: the check, run once).
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from pathlib import Path
from statistics import mean

ROLE = {
    "classic": "trained family",
    "terse": "trained family (v9)",
    "narrative": "trained family (v9)",
    "ticket": "held-out family",
    "chat": "held-out family",
    "ferrybook_history": "hand-written, dev",
    "builtin_history": "hand-written, check",
}
METRICS = ("supersession_f1", "stale_rate_injected", "when_acc", "current_coverage_injected")


def dataset_label(params: dict[str, str]) -> tuple[str, str]:
    """``(dataset, seed)`` of a run: a hand-written history's name, or the generator's style."""
    target = params.get("dataset._target_", "")
    if target.endswith("BuiltinHistoryBenchmark"):
        return "builtin_history", "-"
    if target.endswith("ProjectHistoryFileBenchmark"):
        return Path(params.get("dataset.path", "file")).stem, "-"
    return params.get("dataset.style", "classic"), params.get("dataset.seed", "?")


def judge_label(params: dict[str, str]) -> str:
    """A short name of the run's judge and its model(s)."""
    target = params.get("judge._target_", "").rsplit(".", 1)[-1]
    model = params.get("judge.model_path", "None")
    model = "v8" if model in ("None", "", "null") else Path(model).stem.replace("learned_", "")
    if target == "CascadeJudge":
        fallback = params.get("judge.fallback", "slot")
        if fallback == "learned":
            other = params.get("judge.fallback_model_path", "None")
            fallback = "v9" if other in ("None", "", "null") else Path(other).stem.replace("learned_", "")
        return f"cascade {model} → {fallback}"
    if target == "LearnedJudge":
        return f"learned {model}"
    return target.replace("Judge", "").lower()


def _order(data: str) -> int:
    """Rows in the order of :data:`ROLE` (trained families, held-out families, hand-written)."""
    name = data.split(" ")[0]
    return list(ROLE).index(name) if name in ROLE else len(ROLE)


def _asked(run: object, metric: str) -> bool:
    """A query metric counts only where the history asks such questions (the built-in one has no ``when``)."""
    kind = metric.removesuffix("_acc")
    return kind == metric or run.metrics.get(f"n_queries_{kind}", 1) > 0


def table(runs: list) -> str:
    """The markdown table: mean of each metric over the seeds, per dataset and judge."""
    newest: dict[tuple[str, str, str], object] = {}
    for run in sorted(runs, key=lambda r: r.start_time):
        data, seed = dataset_label(run.params)
        newest[(data, seed, judge_label(run.params))] = run
    groups: dict[tuple[str, str], list] = defaultdict(list)
    for (data, seed, judge), run in newest.items():
        validation = seed.isdigit() and int(seed) >= 1000  # development seeds, apart from the evaluation seeds
        groups[(data + (" (validation seeds)" if validation else ""), judge)].append((seed, run))
    lines = [
        "| data | role | judge | seeds | f1 | stale | when | cov |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for (data, judge), items in sorted(groups.items(), key=lambda kv: (_order(kv[0][0]), kv[0])):
        items.sort(key=lambda x: x[0])
        seeds = ",".join(s for s, _ in items)
        cells = []
        for metric in METRICS:
            values = [run.metrics[metric] for _, run in items if metric in run.metrics and _asked(run, metric)]
            cells.append(f"{mean(values):.3f}" if values else "–")
        role = ROLE.get(data.split(" ")[0], "")
        lines.append(f"| {data} | {role} | {judge} | {seeds} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    """Print the study's table."""
    from memlab.tracking.query import find_runs

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--experiment", default="project_history_families")
    parser.add_argument("--uri", default=None, help="MLflow tracking URI (default: the checkout's mlruns.db)")
    args = parser.parse_args()
    print(table(find_runs(args.experiment, args.uri)))


if __name__ == "__main__":
    main()
