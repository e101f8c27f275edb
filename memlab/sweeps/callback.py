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
    extra = list(dict.fromkeys(n for c in ordered for n, _ in c.headline))
    head = "| rank | run | main metric | value | " + "".join(f"{n} | " for n in extra) + "status | run id |"
    lines = [head, "|" + "---|" * (6 + len(extra))]
    fmt = lambda v: "–" if v is None else f"{v:.4f}"  # noqa: E731
    for rank, c in enumerate(ordered, 1):
        values = dict(c.headline)
        cells = "".join(f"{fmt(values.get(n))} | " for n in extra)
        lines.append(f"| {rank} | {c.name} | {c.main_metric} | {fmt(c.value)} | {cells}{c.status} | `{c.run_id}` |")
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
    """The comparison table on the console: a few runs side by side (one column each, the main metric and
    the benchmark's headline metrics as rows), more runs ranked by the main metric (one row each).
    """
    from rich.console import Console
    from rich.table import Table

    ordered = sorted(rows, key=lambda c: (c.value is None, -(c.value or 0.0), c.run_id))
    metric = next((c.main_metric for c in ordered if c.main_metric), "main metric")
    extra = list(dict.fromkeys(n for c in ordered for n, _ in c.headline))
    fmt = lambda v: "–" if v is None else f"{v:.4f}"  # noqa: E731
    console = Console()
    if not console.is_terminal:
        console = Console(width=160)
    if 0 < len(ordered) <= 6:
        table = Table(title=f"sweep comparison (main metric: {metric})")
        table.add_column("metric", no_wrap=True)
        for c in ordered:
            table.add_column(c.name or c.run_id[:8], justify="right")
        table.add_row(metric, *(fmt(c.value) for c in ordered))
        for name in extra:
            table.add_row(name, *(fmt(dict(c.headline).get(name)) for c in ordered))
        table.add_row("run id", *(c.run_id[:12] for c in ordered))
        console.print(table)
        return
    table = Table(title=f"sweep comparison ({metric}, best first)")
    columns = [("#", "right"), ("run", "left"), (metric, "right"), *((n, "right") for n in extra)]
    for name, justify in (*columns, ("status", "left"), ("run id", "left")):
        table.add_column(name, justify=justify, no_wrap=name != "run", min_width=12 if name == "run" else None)
    for rank, c in enumerate(ordered, 1):
        values = dict(c.headline)
        cells = [fmt(values.get(n)) for n in extra]
        table.add_row(str(rank), c.name, fmt(c.value), *cells, c.status, c.run_id)
    console.print(table)
