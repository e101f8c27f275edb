"""Runs of one experiment grouped into configurations, with per-item results and traces read back.

A configuration is what differs between runs apart from the seed: the strategy options (from the
``memlab.strategy.<group>`` tags), a strategy's hyperparameters when they differ between runs of the same
option, and other settings that differ (``pipeline.budget_tokens=500``). Runs of one configuration on
different seeds are pooled: their items are keyed by ``(seed, item)``.
"""

from __future__ import annotations

import json
import statistics
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memlab.benchmarks.items import item_values
from memlab.wiring.build import GROUPS

#: Params that never define a configuration (recording, observation, paths, seeds).
IGNORED_ROOTS: tuple[str, ...] = ("tracking", "logging", "trace", "paths", "hydra", "experiment_name", "tags")


def ignored(key: str) -> bool:
    """Whether a param key is left out of configuration labels."""
    root = key.split(".", 1)[0]
    return root in IGNORED_ROOTS or key == "seed" or key.endswith(".seed")


@dataclass
class RunData:
    """One run with what the report reads from its artifacts."""

    record: Any
    items: dict[object, tuple[float, float]] = field(default_factory=dict)
    trace: dict[str, Any] | None = None

    @property
    def seed(self) -> str:
        """The run's seed (``0`` when absent)."""
        return self.record.params.get("seed", "0")


def strategy(run: Any, group: str) -> str | None:
    """The option name a run used for ``group`` (from its strategy tag), if it used the group."""
    tag = run.tags.get(f"memlab.strategy.{group}")
    return tag.split("@", 1)[0] if tag else None


def varying(runs: Sequence[Any]) -> list[str]:
    """Keys whose value differs between runs: ``group`` for strategy options, params otherwise."""
    keys = [group for group in GROUPS if len({strategy(r, group) for r in runs}) > 1]
    params = sorted({k for r in runs for k in r.params if not ignored(k)})
    for key in params:
        root = key.split(".", 1)[0]
        if root in GROUPS:
            by_option: dict[str | None, set[str | None]] = {}
            for r in runs:
                by_option.setdefault(strategy(r, root), set()).add(r.params.get(key))
            if any(len(v) > 1 for v in by_option.values()):
                keys.append(key)
        elif key != "_target_" and len({r.params.get(key) for r in runs}) > 1:
            keys.append(key)
    return keys


def label(run: Any, keys: Iterable[str]) -> str:
    """``judge=slot retention=none pipeline.budget_tokens=500`` for the given varying keys."""
    parts = []
    for key in keys:
        value = strategy(run, key) if key in GROUPS else run.params.get(key)
        parts.append(f"{key}={value if value is not None else '–'}")
    return " ".join(parts) or "all runs"


def group_runs(runs: Sequence[Any], keys: Sequence[str]) -> dict[str, list[Any]]:
    """Configuration label -> its runs (labels sorted)."""
    groups: dict[str, list[Any]] = {}
    for run in runs:
        groups.setdefault(label(run, keys), []).append(run)
    return dict(sorted(groups.items()))


def newest_per_seed(runs: Sequence[Any]) -> list[Any]:
    """The newest run per seed (a configuration rerun replaces its earlier run)."""
    latest: dict[str, Any] = {}
    for run in sorted(runs, key=lambda r: r.start_time):
        latest[run.params.get("seed", "0")] = run
    return [latest[s] for s in sorted(latest, key=lambda s: (not s.isdigit(), int(s) if s.isdigit() else 0, s))]


def load(runs: Sequence[Any], metric: str, uri: str | None) -> list[RunData]:
    """Per-item values of ``metric`` (verified against the logged value) and the trace of every run."""
    from memlab.tracking.query import read_artifact, run_records
    from memlab.tracking.status import step

    out = []
    with (
        tempfile.TemporaryDirectory(prefix="memlab-report-") as tmp,
        step(f"downloading the files of {len(runs)} runs"),
    ):
        for run in runs:
            data = RunData(run)
            records = run_records(run.run_id, uri, Path(tmp))
            if records is not None:
                data.items = item_values(records, metric, run.metrics.get(metric))
            path = read_artifact(run.run_id, "trace.json", uri, Path(tmp))
            if path is not None:
                data.trace = json.loads(path.read_text(encoding="utf-8"))
            out.append(data)
    return out


def pooled_items(runs: Sequence[RunData]) -> dict[object, tuple[float, float]]:
    """Items of a configuration's runs keyed by ``(seed, item)``; empty when any run has none."""
    if not runs or any(not r.items for r in runs):
        return {}
    return {(r.seed, key): vw for r in runs for key, vw in r.items.items()}


def phase_histograms(runs: Sequence[RunData], phases: Sequence[str]) -> dict[str, dict[int, int]]:
    """Phase name -> merged duration histogram of its spans anywhere in the runs' trees."""
    merged: dict[str, dict[int, int]] = {}

    def visit(node: dict[str, Any]) -> None:
        if node["name"] in phases:
            target = merged.setdefault(node["name"], {})
            for b, c in node.get("hist", {}).items():
                target[int(b)] = target.get(int(b), 0) + int(c)
        for child in node.get("children", []):
            visit(child)

    for run in runs:
        if run.trace:
            visit(run.trace)
    return merged


#: Phases of an episode, in order (latency tables and figures).
PHASES: tuple[str, ...] = (
    "ingest",
    "embed",
    "cluster",
    "supersession",
    "summarize",
    "tier",
    "recall",
    "select",
    "answer",
    "inject",
)
TIERS: tuple[str, ...] = ("hot", "warm", "cold", "archived")
BUDGET = "pipeline.budget_tokens"


def mean_metric(runs: Sequence[RunData], name: str) -> float | None:
    """Mean of a metric over the runs that logged it."""
    values = [r.record.metrics[name] for r in runs if name in r.record.metrics]
    return statistics.fmean(values) if values else None
