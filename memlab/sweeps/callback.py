"""Hydra callback that brackets a ``--multirun`` sweep (wired in ``conf/hydra/memlab.yaml``).

Before any job starts (in the launching process) it creates and migrates the MLflow store, creates the
experiment and opens one parent run for the sweep; each job (in whatever process or Ray worker runs it)
learns the sweep id from the callback's own state, which Hydra ships to the job with its context; at the
end it prints one comparison table (one row per job, best first), attaches it to the parent run and closes
the parent. With ``tracking=none`` it does nothing.
"""

from __future__ import annotations

import os
import secrets
from datetime import datetime
from typing import Any

from hydra.experimental.callback import Callback
from omegaconf import DictConfig, OmegaConf

from memlab.sweeps import SWEEP_ENV


def tracking_of(config: DictConfig) -> dict[str, Any] | None:
    """The resolved ``tracking`` node when it is the MLflow tracker, else ``None``."""
    node = config.get("tracking")
    if node is None:
        return None
    tracking = OmegaConf.to_container(node, resolve=True)
    if not isinstance(tracking, dict) or not str(tracking.get("_target_", "")).endswith("MlflowTracker"):
        return None
    return tracking


def comparison_table(rows: list[Any]) -> str:
    """Markdown table of a sweep's jobs, best main metric first (ties: run id), unscored jobs last."""
    ordered = sorted(rows, key=lambda c: (c.value is None, -(c.value or 0.0), c.run_id))
    lines = ["| rank | run | main metric | value | status | run id |", "|---|---|---|---|---|---|"]
    for rank, c in enumerate(ordered, 1):
        value = "–" if c.value is None else f"{c.value:.4f}"
        lines.append(f"| {rank} | {c.name} | {c.main_metric} | {value} | {c.status} | `{c.run_id}` |")
    return "\n".join(lines) + "\n"


class SweepCallback(Callback):
    """One MLflow parent run per sweep, a store prepared before parallel jobs, a comparison at the end."""

    def __init__(self) -> None:
        self.sweep_id: str | None = None
        self.parent_id: str | None = None
        self.uri: str | None = None

    def on_multirun_start(self, config: DictConfig, **kwargs: Any) -> None:
        """Prepare the store and open the parent run (launching process, before any job)."""
        tracking = tracking_of(config)
        if tracking is None:
            return
        from memlab.tracking.store import open_parent, prepare_store

        self.uri = str(tracking["uri"])
        experiment = str(tracking.get("experiment", "default"))
        prepare_store(self.uri, experiment)
        self.sweep_id = f"{datetime.now().strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(3)}"
        sweep_dir = str(config.hydra.sweep.dir)
        self.parent_id = open_parent(self.uri, experiment, self.sweep_id, {"memlab.sweep_dir": sweep_dir})
        os.environ[SWEEP_ENV] = self.sweep_id
        print(f"memlab: sweep {self.sweep_id}: MLflow parent run {self.parent_id} ({experiment})", flush=True)

    def on_job_start(self, config: DictConfig, **kwargs: Any) -> None:
        """Tell the job which sweep it belongs to (runs in the job's own process)."""
        if self.sweep_id:
            os.environ[SWEEP_ENV] = self.sweep_id

    def on_multirun_end(self, config: DictConfig, **kwargs: Any) -> None:
        """Print and attach the comparison table, close the parent run."""
        os.environ.pop(SWEEP_ENV, None)
        if not (self.uri and self.parent_id):
            return
        from memlab.tracking.store import children, close_parent, run_url

        rows = children(self.uri, self.parent_id)
        table = comparison_table(rows)
        close_parent(self.uri, self.parent_id, table)
        print_comparison(rows)
        print(f"memlab: sweep {self.sweep_id}: {len(rows)} runs under parent run {self.parent_id}", flush=True)
        print(f"memlab: parent run: {run_url(self.uri, self.parent_id)}", flush=True)


def print_comparison(rows: list[Any]) -> None:
    """The comparison table on the console."""
    from rich.console import Console
    from rich.table import Table

    ordered = sorted(rows, key=lambda c: (c.value is None, -(c.value or 0.0), c.run_id))
    metric = next((c.main_metric for c in ordered if c.main_metric), "main metric")
    table = Table(title=f"sweep comparison ({metric}, best first)")
    for name, justify in (("#", "right"), ("run", "left"), (metric, "right"), ("status", "left"), ("run id", "left")):
        table.add_column(name, justify=justify, no_wrap=name != "run")
    for rank, c in enumerate(ordered, 1):
        table.add_row(str(rank), c.name, "–" if c.value is None else f"{c.value:.4f}", c.status, c.run_id)
    console = Console()
    if not console.is_terminal:
        console = Console(width=160)
    console.print(table)
