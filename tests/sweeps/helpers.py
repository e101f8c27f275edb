"""Synthetic MLflow stores for report and `memlab best` tests (real sqlite stores, made-up results)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from memlab.tracking.mlflow_tracker import MlflowTracker


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
    """A trace node as memlab.trace writes it."""
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
