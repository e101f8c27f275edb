"""``memlab best --experiment NAME | --sweep ID|last [--metric M] [--split heldout] [--minimize]``: the best
FINISHED run.

``--experiment`` ranks every FINISHED run filed under that experiment; ``--sweep`` ranks the runs of one
comparison, the children of one ``--multirun`` (``last``: the newest sweep in the store), whatever experiments
they are filed under — the quickstart's two policies both file under ``presets``, which other comparisons share.

Without ``--metric`` the runs' own main metric (the benchmark card's, tagged on every run) is used;
``--split S`` ranks on ``<metric>_S`` (for example LoCoMo's ``_heldout`` conversations, which no setting
was chosen on). A tie is broken by a stated rule that does not depend on the order the runs finished in: the
simpler configuration wins (fewer strategy groups that are not ``none``, then fewer injected tokens, then config
hash, then run id); the tie and every tied run are printed. A run where the metric is undefined (not logged,
or NaN) is not ranked; the value is printed with its count ``n`` (the rate's denominator) when the run logged it.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memlab.core.errors import MemlabError

if TYPE_CHECKING:
    from memlab.tracking.query import Ranking


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``memlab best``."""
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--experiment", help="rank every FINISHED run of this MLflow experiment")
    which.add_argument("--sweep", help="rank the runs of one --multirun comparison: its sweep id, or 'last'")
    parser.add_argument("--metric", default=None, help="metric to rank by (default: the runs' main metric)")
    parser.add_argument("--split", default=None, help="rank on METRIC_SPLIT, e.g. --split heldout")
    parser.add_argument("--minimize", action="store_true", help="lower is better")
    parser.add_argument("--tracking-uri", default=None, help="MLflow URI (default: $MLFLOW_TRACKING_URI or mlruns.db)")
    parser.add_argument("--list-metrics", action="store_true", help="list the metrics the runs logged and exit")
    parser.add_argument("--json", action="store_true", help="print the run as JSON")


def describe(record) -> str:
    """One tied run: id, name, the groups that are not ``none`` and its cost."""
    from memlab.tracking.query import COST_METRIC, active_groups

    cost = record.metrics.get(COST_METRIC)
    shown = "not logged" if cost is None else f"{cost:.6g}"
    name = record.tags.get("mlflow.runName", "")
    return f"{record.run_id}  {active_groups(record.tags)} groups not none, {COST_METRIC} {shown}  ({name})"


def shown(record, metric: str) -> str:
    """``metric=value`` with its count (``(n=...)``) when the run logged one."""
    from memlab.benchmarks.metrics import count_of

    n = count_of(metric, record.metrics)
    return f"{metric}={record.metrics[metric]:.6g}" + ("" if n is None else f" (n={n:.0f})")


@dataclass(frozen=True)
class Choice:
    """What ``--experiment`` or ``--sweep`` chose: the ranking, the metric ranked on and the runs' description."""

    ranking: Ranking
    metric: str
    where: str


def choose(args: argparse.Namespace) -> Choice | None:
    """Rank the runs ``args`` name (``--experiment`` or ``--sweep``) on ``--metric`` (default: their main metric);
    ``None`` after ``--list-metrics`` printed the metrics.
    """
    from memlab.tracking.query import find_runs, main_metric, rank, rank_runs

    sweep = getattr(args, "sweep", None)
    if sweep:
        from memlab.tracking.sweep_runs import find_sweep

        found = find_sweep(sweep, args.tracking_uri)
        runs, selector = found.runs, f"--sweep {found.sweep_id}"
        status = "" if found.status == "FINISHED" else f", parent run {found.status}"
        where = f"sweep {found.sweep_id} ({found.jobs} jobs{status})"
    else:
        runs, selector, where = None, f"--experiment {args.experiment}", f"experiment {args.experiment}"
    if args.list_metrics or args.metric is None:
        runs = runs if runs is not None else find_runs(args.experiment, args.tracking_uri)
        if not runs:
            raise MemlabError(f"no FINISHED run in experiment '{args.experiment}'; run it first")
        if args.list_metrics:
            print("\n".join(sorted({m for r in runs for m in r.metrics})))
            return None
        args.metric = main_metric(runs)
    metric = f"{args.metric}_{args.split}" if getattr(args, "split", None) else args.metric
    if runs is None:
        ranking = rank_runs(args.experiment, metric, args.tracking_uri, minimize=args.minimize)
    else:
        ranking = rank(runs, metric, selector, minimize=args.minimize)
    return Choice(ranking, metric, where)


def run(args: argparse.Namespace) -> int:
    """Print the best run's id, metric, strategies, and any tie it broke."""
    choice = choose(args)
    if choice is None:
        return 0
    ranking, metric = choice.ranking, choice.metric
    record = ranking.best
    if args.json:
        from memlab.benchmarks.metrics import count_name, count_of

        data = {
            "run_id": record.run_id,
            "metric": metric,
            "value": record.metrics[metric],
            "n": count_of(metric, record.metrics),
            "n_metric": count_name(metric, record.metrics),
            "ties": [r.run_id for r in ranking.ties],
            "tie_rule": ranking.rule,
            "among": choice.where,
            "metrics": record.metrics,
            "tags": record.tags,
        }
        print(json.dumps(data, indent=2))
        return 0
    name = record.tags.get("mlflow.runName", "")
    print(f"{record.run_id}  {shown(record, metric)}  ({record.experiment}; {name})")
    print(
        f"  best of {ranking.considered} FINISHED runs of {choice.where} where {metric} is defined "
        f"({'lowest' if args.minimize else 'highest'} {metric})"
    )
    if ranking.ties:
        print(f"  tie: {len(ranking.ties) + 1} runs have {metric}={record.metrics[metric]:.6g}; chose {ranking.rule}")
        for rank, tied in enumerate((record, *ranking.ties), 1):
            print(f"  {'chosen' if rank == 1 else 'tied  '} {describe(tied)}")
    for key in sorted(k for k in record.tags if k.startswith("memlab.strategy.")):
        print(f"  {key[len('memlab.strategy.') :]}: {record.tags[key]}")
    return 0
