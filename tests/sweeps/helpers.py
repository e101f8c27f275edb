"""Synthetic MLflow stores for report and `memlab best` tests (real sqlite stores, made-up results)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from memlab.tracking.mlflow_tracker import MlflowTracker


def report(*argv: str) -> int:
    """``memlab report ARGV`` as the command parses and runs it, a :class:`~memlab.core.errors.MemlabError` raised."""
    import argparse

    from memlab.commands import report as command

    parser = argparse.ArgumentParser()
    command.add_arguments(parser)
    return command.run(parser.parse_args(list(argv)))


def log_run(
    uri: str,
    experiment: str,
    folder: Path,
    *,
    strategies: dict[str, str],
    params: dict[str, object],
    correct: Sequence[int],
    metrics: dict[str, float] | None = None,
    trace: dict | None = None,
    main_metric: str = "current_truth_at_1",
) -> str:
    """One FINISHED run whose predictions.jsonl holds ``correct`` (kind=current, one item per entry)."""
    folder.mkdir(parents=True, exist_ok=True)
    records = [{"query_id": f"q{i}", "kind": "current", "correct": float(c)} for i, c in enumerate(correct)]
    records.append({"query_id": "q_as_of", "kind": "as_of", "correct": 1.0})  # another metric's item
    (folder / "predictions.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    if trace is not None:
        (folder / "trace.json").write_text(json.dumps(trace))
    tags = {f"memlab.strategy.{g}": f"{name}@1" for g, name in strategies.items()}
    tags["memlab.main_metric"] = main_metric
    flat = {**{f"{g}._target_": f"memlab.strategies.{g}.{name}" for g, name in strategies.items()}, **params}
    tracker = MlflowTracker(uri, experiment)
    run_id = tracker.start("run " + " ".join(f"{k}={v}" for k, v in strategies.items()), flat, tags)
    value = sum(correct) / len(correct)
    tracker.log_metrics({main_metric: value, **(metrics or {})})
    tracker.log_artifacts(folder)
    tracker.finish("FINISHED")
    return run_id


def span(name: str, seconds: float, count: int, children: Sequence[dict] = (), hist: dict | None = None) -> dict:
    """A trace node as memlab.observability.trace writes it."""
    return {
        "name": name,
        "count": count,
        "seconds": seconds,
        "min": seconds / count,
        "max": seconds / count,
        "first_ns": 0,
        "hist": hist or {"16": count},
        "children": list(children),
    }


def landed_sweep(uri: str, folder: Path, results: dict[tuple[str, str], float]) -> str:
    """A sweep over ``judge`` x ``pipeline.budget_tokens`` through the sweep callback, each job logging its made-up
    main metric (``current_truth_at_1``) and one headline metric; the callback's printed output.
    """
    import contextlib
    import io

    from omegaconf import OmegaConf

    from memlab.sweeps.callback import SweepCallback

    tracking = {"_target_": "memlab.tracking.mlflow_tracker.MlflowTracker", "uri": uri, "experiment": "default"}
    task = ["dataset=builtin_history", "judge=slot,none", "pipeline.budget_tokens=500,2000"]
    hydra = {"sweep": {"dir": str(folder)}, "overrides": {"task": task}}
    config = OmegaConf.create({"tracking": {**tracking, "ui_port": 5000}, "hydra": hydra})
    callback = SweepCallback()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        callback.on_multirun_start(config)
        for (judge, budget), value in results.items():
            job = ["dataset=builtin_history", f"judge={judge}", f"pipeline.budget_tokens={budget}"]
            callback.on_job_start(OmegaConf.create({"hydra": {"overrides": {"task": job}}}))
            tracker = MlflowTracker(uri, "what-a-job-config-says")
            tags = {"memlab.main_metric": "current_truth_at_1", "memlab.headline": "supersession_f1"}
            tracker.start("builtin_history (long name)", {"pipeline.budget_tokens": budget}, tags, callback.sweep_id)
            tracker.log_metrics({"current_truth_at_1": value, "supersession_f1": 1 - value, "aa_other": 0.0})
            tracker.finish()
            callback.on_job_end(config)
        callback.on_multirun_end(config)
    return out.getvalue()
