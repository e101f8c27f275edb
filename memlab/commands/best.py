"""``memlab best --experiment NAME --metric M [--minimize]``: the best FINISHED run."""

from __future__ import annotations

import argparse
import json


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``memlab best``."""
    parser.add_argument("--experiment", required=True, help="MLflow experiment name")
    parser.add_argument("--metric", required=True, help="metric to rank by")
    parser.add_argument("--minimize", action="store_true", help="lower is better")
    parser.add_argument("--tracking-uri", default=None, help="MLflow URI (default: $MLFLOW_TRACKING_URI or mlruns.db)")
    parser.add_argument("--json", action="store_true", help="print the run as JSON")


def run(args: argparse.Namespace) -> int:
    """Print the best run's id, metric and strategies."""
    from memlab.tracking.query import best_run

    record = best_run(args.experiment, args.metric, args.tracking_uri, minimize=args.minimize)
    if args.json:
        print(json.dumps({"run_id": record.run_id, "metrics": record.metrics, "tags": record.tags}, indent=2))
        return 0
    print(f"{record.run_id}  {args.metric}={record.metrics[args.metric]:.6g}  ({record.experiment})")
    for key in sorted(k for k in record.tags if k.startswith("memlab.strategy.")):
        print(f"  {key[len('memlab.strategy.') :]}: {record.tags[key]}")
    return 0
