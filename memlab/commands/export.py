"""``memlab export --run-id ID | --sweep ID|last | --best --experiment NAME [--metric M] [--minimize] --out DIR``.

``--sweep`` exports the winner of one ``--multirun`` comparison (``last``: the newest sweep in the store) — the run
``memlab best --sweep`` prints, ranked on the runs' main metric unless ``--metric`` names another.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from memlab.core.errors import MemlabError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``memlab export``."""
    parser.add_argument("--run-id", help="MLflow run to export")
    parser.add_argument("--sweep", help="export the best run of one --multirun comparison: its sweep id, or 'last'")
    parser.add_argument("--best", action="store_true", help="export the best FINISHED run of --experiment")
    parser.add_argument("--experiment", help="with --best: MLflow experiment name")
    parser.add_argument("--metric", help="with --best or --sweep: metric to rank by (default: the runs' main metric)")
    parser.add_argument("--minimize", action="store_true", help="with --best or --sweep: lower is better")
    parser.add_argument("--tracking-uri", default=None, help="MLflow URI (default: $MLFLOW_TRACKING_URI or mlruns.db)")
    parser.add_argument("--out", required=True, help="folder for memlab-hook.json")


def run(args: argparse.Namespace) -> int:
    """Write DIR/memlab-hook.json and print its path."""
    from memlab.adapter.export import pin_models, spec_from_run
    from memlab.adapter.spec import SPEC_FILE
    from memlab.commands.best import shown
    from memlab.tracking.query import get_run
    from memlab.tracking.status import step

    if sum(map(bool, (args.run_id, args.best, args.sweep))) != 1:
        raise MemlabError("give exactly one of --run-id ID, --sweep ID|last or --best --experiment NAME")
    if args.best or args.sweep:
        from memlab.commands.best import choose

        if bool(args.best) != bool(args.experiment):
            raise MemlabError("--best goes with --experiment NAME; export one comparison's winner with --sweep ID|last")
        args.list_metrics = False
        choice = choose(args)
        record = choice.ranking.best
        print(f"best of {choice.ranking.considered} runs of {choice.where}: {shown(record, choice.metric)}")
    else:
        record = get_run(args.run_id, args.tracking_uri)
        if record.status != "FINISHED":
            raise MemlabError(f"run {record.run_id} is {record.status}, not FINISHED; export a finished run")
    with step(f"freezing run {record.run_id} into a spec"):
        spec = spec_from_run(record, args.tracking_uri)
        out = Path(args.out).expanduser().resolve()
        out.mkdir(parents=True, exist_ok=True)
        models = pin_models(spec, record.run_id, out, args.tracking_uri)
    for model in models:
        print(f"model {model} (from the run's artifacts)")
    path = out / SPEC_FILE
    path.write_text(json.dumps(spec, indent=2, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"exported run {record.run_id} ({record.experiment}) -> {path}")
    return 0
